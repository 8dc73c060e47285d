//! The Othello computer against the rules: every level plays legal moves (a pass exactly when it must) on
//! seeded random positions, the cancel flag and a zero budget still give a legal move, the exact solver agrees
//! with a plain minimax over the rules on small endgames, and the discs it counts as stable never flip.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::othello::board::stable;
use engine::othello::{Engine, Evaluation, Level};
use rules::othello::{Move, Position, PositionStatus};
use rules::Color;

/// SplitMix64: the tests' own seeded random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A uniformly random legal move (a pass when it must), or `None` once over.
fn random_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    match position.status() {
        PositionStatus::Over(_) => None,
        PositionStatus::MustPass => Some(Move::Pass),
        PositionStatus::Play => {
            let moves = position.legal_moves().to_vec();
            Some(Move::Place(moves[rng.below(moves.len())]))
        }
    }
}

/// The position after random play from the start until `empty` squares are left (or the game ended).
fn random_position(empty: u8, rng: &mut Rng) -> Position {
    let mut position = Position::start();
    while position.score().empty() > empty {
        let Some(mv) = random_move(&position, rng) else {
            break;
        };
        position = position.play(mv).unwrap().0;
    }
    position
}

/// The final disc difference for the side to move under perfect play, empty squares to the winner: plain
/// minimax over the rules' own moves.
fn minimax(position: &Position) -> i32 {
    match position.status() {
        PositionStatus::Over(_) => {
            let score = position.score();
            let (b, w) = (i32::from(score.black), i32::from(score.white));
            let empty = 64 - b - w;
            let diff = b - w;
            let black = diff + diff.signum() * empty;
            if position.to_move() == Color::Black {
                black
            } else {
                -black
            }
        }
        PositionStatus::MustPass => -minimax(&position.play(Move::Pass).unwrap().0),
        PositionStatus::Play => position
            .legal_moves()
            .map(|s| -minimax(&position.play(Move::Place(s)).unwrap().0))
            .max()
            .unwrap(),
    }
}

#[test]
fn every_level_plays_a_legal_move_on_random_positions() {
    let cancel = AtomicBool::new(false);
    let mut rng = Rng(33);
    for level in Level::all() {
        let mut engine = Engine::new(u64::from(level.number()));
        for _ in 0..12 {
            let empty = 4 + rng.below(56) as u8;
            let position = random_position(empty, &mut rng);
            let answer = engine.choose(&position, level, Duration::from_millis(15), &cancel);
            match position.status() {
                PositionStatus::Over(_) => assert_eq!(answer, None),
                PositionStatus::MustPass => assert_eq!(answer, Some(Move::Pass)),
                PositionStatus::Play => {
                    let mv = answer.expect("a move");
                    assert!(
                        position.play(mv).is_ok(),
                        "{level}: {mv} in {}",
                        position.board_text()
                    );
                    assert_ne!(mv, Move::Pass);
                }
            }
        }
    }
}

#[test]
fn whole_games_between_levels_stay_legal_to_the_end() {
    let cancel = AtomicBool::new(false);
    for (a, b) in [(1, 8), (4, 5), (8, 2)] {
        let levels = [Level::new(a).unwrap(), Level::new(b).unwrap()];
        let mut engines = [Engine::new(1), Engine::new(2)];
        let mut position = Position::start();
        let mut plies = 0;
        while let Some(mv) = engines[plies % 2].choose(
            &position,
            levels[plies % 2],
            Duration::from_millis(10),
            &cancel,
        ) {
            position = position.play(mv).expect("a legal move").0;
            plies += 1;
            assert!(plies <= 130);
        }
        assert!(matches!(position.status(), PositionStatus::Over(_)));
    }
}

#[test]
fn the_side_without_a_move_passes_and_a_finished_game_gets_no_move() {
    let cancel = AtomicBool::new(false);
    let mut engine = Engine::new(5);
    let mut rng = Rng(7);
    let (mut passes, mut overs) = (0, 0);
    for _ in 0..400 {
        let position = random_position(rng.below(20) as u8, &mut rng);
        match position.status() {
            PositionStatus::MustPass => {
                passes += 1;
                let report = engine
                    .think(&position, Level::MAX, Duration::from_millis(50), &cancel)
                    .unwrap();
                assert_eq!(report.best, Move::Pass);
            }
            PositionStatus::Over(_) => {
                overs += 1;
                assert_eq!(
                    engine.choose(&position, Level::MAX, Duration::from_millis(50), &cancel),
                    None
                );
            }
            PositionStatus::Play => {}
        }
    }
    assert!(
        passes > 0 && overs > 0,
        "{passes} passes, {overs} finished games"
    );
}

#[test]
fn a_raised_cancel_flag_or_no_time_still_gives_a_legal_move() {
    let raised = AtomicBool::new(true);
    let lowered = AtomicBool::new(false);
    let mut rng = Rng(11);
    for level in [Level::MIN, Level::MAX] {
        let mut engine = Engine::new(3);
        for empty in [50, 30, 18] {
            let position = random_position(empty, &mut rng);
            if position.status() != PositionStatus::Play {
                continue;
            }
            for (budget, cancel) in [
                (Duration::from_secs(60), &raised),
                (Duration::ZERO, &lowered),
            ] {
                let start = std::time::Instant::now();
                let mv = engine.choose(&position, level, budget, cancel).unwrap();
                assert!(position.play(mv).is_ok());
                assert!(start.elapsed() < Duration::from_millis(500));
            }
        }
    }
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_small_endgames() {
    let cancel = AtomicBool::new(false);
    let mut engine = Engine::new(1);
    let mut rng = Rng(2024);
    for round in 0..60 {
        let position = random_position(2 + (round % 9) as u8, &mut rng);
        let expected = minimax(&position);
        let solution = engine.solve(&position, None, &cancel).unwrap();
        assert_eq!(
            solution.score,
            expected,
            "{} to move {:?}",
            position.board_text(),
            position.to_move()
        );
        match solution.best {
            None => assert!(matches!(position.status(), PositionStatus::Over(_))),
            Some(mv) => {
                let after = position.play(mv).expect("a legal best move").0;
                assert_eq!(-minimax(&after), expected, "{mv} is not best");
            }
        }
    }
}

#[test]
fn the_levels_that_solve_report_the_exact_score() {
    let cancel = AtomicBool::new(false);
    let mut rng = Rng(99);
    let mut engine = Engine::new(4);
    let mut checked = 0;
    while checked < 10 {
        let position = random_position(8, &mut rng);
        if position.status() != PositionStatus::Play {
            continue;
        }
        let report = engine
            .think(
                &position,
                Level::new(6).unwrap(),
                Duration::from_secs(5),
                &cancel,
            )
            .unwrap();
        assert_eq!(report.evaluation, Evaluation::Exact(minimax(&position)));
        assert_eq!(
            -minimax(&position.play(report.best).unwrap().0),
            minimax(&position)
        );
        checked += 1;
    }
}

#[test]
fn discs_counted_stable_never_flip() {
    let mut rng = Rng(5);
    let mut seen = 0;
    for _ in 0..300 {
        let start = random_position(4 + rng.below(30) as u8, &mut rng);
        let (black, white) = (start.black(), start.white());
        let fixed_black = stable(black, white);
        let fixed_white = stable(white, black);
        seen += (fixed_black | fixed_white).count_ones();
        let mut position = start;
        while let Some(mv) = random_move(&position, &mut rng) {
            position = position.play(mv).unwrap().0;
            assert_eq!(position.black() & fixed_black, fixed_black);
            assert_eq!(position.white() & fixed_white, fixed_white);
        }
    }
    assert!(seen > 100, "only {seen} stable discs seen");
}
