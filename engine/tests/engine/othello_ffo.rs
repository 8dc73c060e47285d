//! The FFO endgame test positions #40–#49 (Marc Tastet's suite for the French Othello Federation, as published
//! with their exact scores and best moves). The normal run solves #40 (20 empty squares) and the position after
//! its best move exactly; all ten are solved, timed and checked by
//! `cargo run --release -p engine --example othello_ffo` (each takes seconds, too long for every test run).

use std::sync::atomic::AtomicBool;

use engine::othello::Engine;
use rules::othello::{Move, Position};

use crate::ffo::FFO;

fn position(number: u32) -> (Position, i32, &'static [&'static str]) {
    let &(_, board, side, score, best) = FFO.iter().find(|c| c.0 == number).unwrap();
    (Position::from_text(board, side).unwrap(), score, best)
}

#[test]
fn the_ffo_positions_are_the_published_ones() {
    let empties = [20, 22, 22, 23, 23, 24, 24, 25, 25, 26];
    for (&(number, ..), empty) in FFO.iter().zip(empties) {
        let (position, _, best) = position(number);
        assert_eq!(position.score().empty(), empty, "#{number}");
        for mv in best {
            let mv = Move::Place(mv.parse().unwrap());
            assert!(position.play(mv).is_ok(), "#{number}: {mv}");
        }
    }
}

#[test]
fn ffo_40_is_solved_exactly_with_its_best_move() {
    let (position, score, best) = position(40);
    let solution = Engine::new(1)
        .solve(&position, None, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(solution.score, score);
    assert_eq!(
        solution.best.map(|m| m.to_string()).as_deref(),
        Some(best[0])
    );
    assert_eq!(solution.pv.first(), solution.best.as_ref());
}

#[test]
fn after_ffo_40s_best_move_the_opponent_is_lost_by_as_much() {
    let (position, score, best) = position(40);
    let after = position
        .play(Move::Place(best[0].parse().unwrap()))
        .unwrap()
        .0;
    let solution = Engine::new(2)
        .solve(&after, None, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(solution.score, -score);
}
