//! The Othello, draughts and insect chess fuzz entry points (`rules::fuzzing`, also run by the targets in `fuzz/`) on random
//! bytes, as `properties.rs` runs the Gomoku one: no panic, no broken promise.

use proptest::prelude::*;
use rules::fuzzing::{run_draughts, run_insect, run_othello};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_othello_bytes_never_break_a_promise(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        run_othello(&data);
    }

    #[test]
    fn arbitrary_insect_bytes_never_break_a_promise(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        run_insect(&data);
    }

    #[test]
    fn arbitrary_draughts_bytes_never_break_a_promise(data in proptest::collection::vec(any::<u8>(), 0..400)) {
        run_draughts(&data);
    }
}

/// A whole Othello game played by the entry point: index-0 squares are tried in order until one plays, so the
/// bytes reach the end of a game and the finished game's checks run (and a refusal at the end changes nothing).
#[test]
fn othello_bytes_can_play_a_whole_game() {
    let mut data = Vec::new();
    for _ in 0..80 {
        for square in 0..64u8 {
            data.extend([0, square]);
        }
        data.push(4);
    }
    run_othello(&data);
    // The same walk outside the entry point: the first square that plays, else a pass, to the end.
    let mut game = rules::othello::Game::new();
    while !game.is_over() {
        let played = (0..64u8)
            .filter_map(rules::othello::Square::new)
            .any(|s| game.play(rules::othello::Move::Place(s)).is_ok());
        if !played {
            game.play(rules::othello::Move::Pass)
                .expect("a forced pass");
        }
    }
    let record = game.record();
    assert!(record.len() <= 255, "one length byte holds the record");
    // The record's own bytes through the text path: read, written and read back.
    let mut text = vec![6, record.len() as u8];
    text.extend(record.bytes());
    run_othello(&text);
}

/// Draughts bytes that play the first listed move many times: a long game with captures (and, past the limit,
/// refusals once it is over).
#[test]
fn draughts_bytes_can_play_a_long_game() {
    let data: Vec<u8> = std::iter::repeat_n([0u8, 0], 300).flatten().collect();
    run_draughts(&data);
    // The same walk outside the entry point reaches captures, so the capture checks above ran.
    let mut game = rules::draughts::Game::new();
    let mut captures = 0;
    for _ in 0..300 {
        let Some(mv) = game.legal_moves().into_iter().next() else {
            break;
        };
        captures += usize::from(mv.is_capture());
        game.play(&mv).expect("a listed move plays");
    }
    assert!(captures > 0, "the walk captured nothing");
}

/// Insect chess bytes that play the first listed move again and again: a long game that reaches its end (the
/// first listed move often walks into the same positions), and then refusals.
#[test]
fn insect_bytes_can_play_a_game_to_its_end() {
    let data: Vec<u8> = std::iter::repeat_n([0u8, 0], 300).flatten().collect();
    run_insect(&data);
    let mut game = rules::insect::Game::new();
    while let Some(&mv) = game.legal_moves().first() {
        game.apply(mv).expect("a listed move plays");
    }
    assert!(game.status().is_over());
    assert!(game.moves().len() <= 300, "the bytes above reach the end");
}
