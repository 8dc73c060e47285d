//! The history-dependent draws of draughts, each at its boundary: threefold repetition, the 25-move rule and the
//! 16- and 5-move endgame limits. The rules give no vectors for them; these are game sequences of our own.

use rules::draughts::{
    Counters, DrawReason, EndgameCount, Game, Position, Role, Status, KING_MOVES_LIMIT,
};
use rules::Color;

fn game(fen: &str) -> Game {
    Game::from_position(Position::from_fen(fen).unwrap())
}

fn play(game: &mut Game, moves: &[&str]) {
    for m in moves {
        game.play_text(m)
            .unwrap_or_else(|e| panic!("{m}: {e} in {}", game.position()));
    }
}

/// Extends `game` by `plies` quiet king moves (none capturing, no capture possible for anyone on the way, no
/// position a third time, the game going on), found by a depth-first
/// search in move-list order. The walks are deterministic: the same game gives the same moves.
fn king_walk(game: &mut Game, plies: usize) {
    walk(game, plies, false)
}

/// One more quiet king move, which may end the game (the boundary move), though not by a third repetition.
fn last_king_move(game: &mut Game) {
    walk(game, 1, true)
}

fn walk(game: &mut Game, plies: usize, last_may_end: bool) {
    fn go(game: &mut Game, left: usize, last_may_end: bool) -> bool {
        if left == 0 {
            return true;
        }
        for mv in game.legal_moves() {
            if mv.is_capture() || mv.role() != Role::King {
                continue;
            }
            game.play(&mv).unwrap();
            let fine = game.repetitions() < 3
                && (left == 1 && last_may_end || !game.status().is_over())
                && game.legal_moves().iter().all(|m| !m.is_capture());
            if fine && go(game, left - 1, last_may_end) {
                return true;
            }
            game.undo();
        }
        false
    }
    assert!(
        go(game, plies, last_may_end),
        "a walk of {plies} plies exists"
    );
}

#[test]
fn the_same_position_a_third_time_with_the_same_side_to_move_is_a_draw() {
    let mut g = game("W:WK47,K49:BK2,K4");
    let cycle = ["47-41", "2-7", "41-47", "7-2"];
    play(&mut g, &cycle);
    assert_eq!(g.repetitions(), 2);
    play(&mut g, &cycle[..3]);
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_move: Color::Black
        },
        "one ply before"
    );
    play(&mut g, &cycle[3..]);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.status(), Status::Drawn(DrawReason::Threefold));
    assert_eq!(g.status().code(), "threefold");
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.play_text("47-41").unwrap_err().code(), "game_over");
    g.undo();
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_move: Color::Black
        },
        "undo restores"
    );
}

#[test]
fn a_position_repeated_with_the_other_side_to_move_does_not_count() {
    // The white king goes round one diagonal in three moves (46-41, 41-37, 37-46) while black shuttles in two,
    // so the board comes back with black to move as well as with white.
    let mut g = game("W:WK46,K50:BK3,K4");
    let start = *g.position();
    play(&mut g, &["46-41", "4-9", "41-37", "9-4", "37-46"]);
    let board_with_black_to_move = Position::from_fen(&format!("B{}", &start.fen()[1..])).unwrap();
    assert_eq!(
        *g.position(),
        board_with_black_to_move,
        "the board again, black to move"
    );
    play(
        &mut g,
        &["4-9", "46-41", "9-4", "41-37", "4-9", "37-46", "9-4"],
    );
    assert_eq!(
        *g.position(),
        start,
        "the board a third time, white to move a second time"
    );
    assert_eq!(g.repetitions(), 2);
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_move: Color::White
        }
    );
}

#[test]
fn twenty_five_king_moves_each_without_capture_draw_at_the_fiftieth_ply_and_not_before() {
    let mut g = game("W:WK36,K45:BK6,K15");
    king_walk(&mut g, KING_MOVES_LIMIT as usize - 1);
    assert_eq!(g.counters().king_plies, KING_MOVES_LIMIT - 1);
    assert!(!g.status().is_over(), "ply 49: {:?}", g.status());
    last_king_move(&mut g);
    assert_eq!(g.counters().king_plies, KING_MOVES_LIMIT);
    assert_eq!(g.status(), Status::Drawn(DrawReason::TwentyFiveMoves));
    assert_eq!(g.status().code(), "twenty_five_moves");
    g.undo();
    assert!(!g.status().is_over());
}

#[test]
fn a_man_move_or_a_capture_restarts_the_twenty_five_move_count() {
    let mut g = game("W:WK36,K49,45:BK6,K15");
    king_walk(&mut g, 40);
    assert_eq!(g.counters().king_plies, 40);
    let man = g
        .legal_moves()
        .into_iter()
        .find(|m| m.role() == Role::Man)
        .expect("the man can move");
    g.play(&man).unwrap();
    assert_eq!(g.counters().king_plies, 0);
    // A king's capture restarts it too.
    let mut g = game("B:WK36,K49:BK6,K15,27");
    play(&mut g, &["15-20"]);
    assert_eq!(g.counters().king_plies, 1);
    let capture = g.legal_moves().remove(0);
    assert!(capture.is_capture() && capture.role() == Role::King);
    g.play(&capture).unwrap();
    assert_eq!(g.counters().king_plies, 0);
}

#[test]
fn three_kings_against_a_lone_king_draw_after_sixteen_moves_each() {
    let mut g = game("W:WK36,K45,K49:BK6");
    assert_eq!(
        g.counters(),
        Counters {
            king_plies: 0,
            endgame: g
                .counters()
                .endgame
                .filter(|c| c.moves_each == 16 && c.plies == 0)
        }
    );
    assert!(g.counters().endgame.is_some());
    king_walk(&mut g, 31);
    assert!(!g.status().is_over(), "ply 31: {:?}", g.status());
    last_king_move(&mut g);
    assert_eq!(
        g.status(),
        Status::Drawn(DrawReason::EndgameLimit { moves_each: 16 })
    );
    assert_eq!(g.status().code(), "endgame_limit");
}

#[test]
fn a_king_and_two_men_against_a_lone_king_fall_under_the_sixteen_move_limit() {
    let mut g = game("W:WK36,40,45:BK6");
    let count = g
        .counters()
        .endgame
        .map(|c: EndgameCount| (c.moves_each, c.plies));
    assert_eq!(count, Some((16, 0)));
    // A man moving does not stop the count: only the material matters.
    play(&mut g, &["40-34"]);
    king_walk(&mut g, 1);
    let count = g
        .counters()
        .endgame
        .map(|c: EndgameCount| (c.moves_each, c.plies));
    assert_eq!(count, Some((16, 2)));
}

#[test]
fn two_kings_against_a_lone_king_draw_after_five_moves_each() {
    let mut g = game("W:WK36,K45:BK6");
    king_walk(&mut g, 9);
    assert!(!g.status().is_over(), "ply 9: {:?}", g.status());
    last_king_move(&mut g);
    assert_eq!(
        g.status(),
        Status::Drawn(DrawReason::EndgameLimit { moves_each: 5 })
    );
}

#[test]
fn a_king_against_a_king_draws_after_five_moves_each() {
    let mut g = game("B:WK36:BK15");
    king_walk(&mut g, 9);
    assert!(!g.status().is_over());
    last_king_move(&mut g);
    assert_eq!(
        g.status(),
        Status::Drawn(DrawReason::EndgameLimit { moves_each: 5 })
    );
}

#[test]
fn a_capture_that_changes_the_material_starts_the_new_limit_from_zero() {
    // Three kings against a king and a man: no limit. Taking the man gives three kings against a lone king.
    let mut g = game("W:WK36,K45,K49:BK6,27");
    assert_eq!(g.counters().endgame, None);
    g.play_text("36x18").unwrap();
    let count = g.counters().endgame.map(|c| (c.moves_each, c.plies));
    assert_eq!(count, Some((16, 0)));
    king_walk(&mut g, 31);
    assert!(!g.status().is_over());
    last_king_move(&mut g);
    assert_eq!(
        g.status(),
        Status::Drawn(DrawReason::EndgameLimit { moves_each: 16 })
    );
}

#[test]
fn four_kings_against_a_lone_king_have_no_endgame_limit() {
    let g = game("W:WK46,K47,K48,K49:BK5");
    assert_eq!(g.counters().endgame, None);
    let g = game("W:WK46,K47:BK5,K4");
    assert_eq!(g.counters().endgame, None, "two kings against two kings");
}
