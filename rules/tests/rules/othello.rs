//! `rules::othello` by example: the start, squares, moves and passes, the three endings, both scorings, records.

use rules::othello::{
    EndReason, Game, IllegalMove, Move, Position, PositionStatus, RecordError, Score, Scoring,
    Square, MAX_RECORD_BYTES,
};
use rules::{Color, ParsePointError};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn place(s: &str) -> Move {
    Move::Place(sq(s))
}

#[test]
fn the_start_has_white_on_d4_e5_black_on_d5_e4_and_black_to_move() {
    let start = Position::start();
    assert_eq!(
        start.board_text(),
        "---------------------------OX------XO---------------------------"
    );
    assert_eq!(start.disc(sq("d4")), Some(Color::White));
    assert_eq!(start.disc(sq("e5")), Some(Color::White));
    assert_eq!(start.disc(sq("d5")), Some(Color::Black));
    assert_eq!(start.disc(sq("e4")), Some(Color::Black));
    assert_eq!(start.to_move(), Color::Black);
    let legal: Vec<String> = start.legal_moves().map(|s| s.to_string()).collect();
    assert_eq!(legal, ["d3", "c4", "f5", "e6"]);
    assert_eq!(Game::new().to_act(), Some(Color::Black));
}

#[test]
fn squares_read_a1_to_h8_and_refuse_everything_else_with_a_typed_error() {
    assert_eq!(sq("a1").index(), 0);
    assert_eq!(sq("h1").index(), 7);
    assert_eq!(sq("a2").index(), 8);
    assert_eq!(sq("h8").index(), 63);
    assert_eq!(sq("h8").to_string(), "h8");
    for off in ["i1", "a9", "a0", "z5"] {
        assert_eq!(
            off.parse::<Square>(),
            Err(ParsePointError::OutOfRange),
            "{off}"
        );
    }
    for bad in ["", "a", "A1", "a10", "1a", "pass", "a-", "é1"] {
        assert_eq!(
            bad.parse::<Square>(),
            Err(ParsePointError::Malformed),
            "{bad}"
        );
    }
    assert_eq!(Square::new(63), Some(sq("h8")));
    assert_eq!(Square::new(64), None);
    assert_eq!(Square::at(7, 7), Some(sq("h8")));
    assert_eq!(Square::at(8, 0), None);
}

#[test]
fn a_move_flips_every_flanked_line_and_one_that_flips_nothing_is_refused() {
    let mut game = Game::new();
    assert_eq!(game.play(place("d4")), Err(IllegalMove::Occupied));
    assert_eq!(game.play(place("a1")), Err(IllegalMove::NoFlip));
    assert_eq!(game.play(place("f4")), Err(IllegalMove::NoFlip));
    assert_eq!(game.play(Move::Pass), Err(IllegalMove::CannotPass));
    assert_eq!(game.moves(), &[], "refusals change nothing");
    let played = game.play(place("f5")).unwrap();
    assert_eq!(played.colour, Color::Black);
    assert_eq!(played.flipped, vec![sq("e5")]);
    assert_eq!(game.to_act(), Some(Color::White));
    // One disc closing three lines at once (south, east, south-east), and nothing beyond a disc of its own.
    let bits = |names: &[&str]| names.iter().fold(0, |acc, n| acc | sq(n).bit());
    let position = Position::from_bits(
        bits(&["d6", "f6", "f4", "d8"]),
        bits(&["d5", "e5", "e4", "d7"]),
        Color::Black,
    )
    .unwrap();
    let (after, flipped) = position.play(place("d4")).unwrap();
    assert_eq!(flipped.to_vec(), [sq("e4"), sq("d5"), sq("e5")]);
    assert_eq!(
        after.disc(sq("d7")),
        Some(Color::White),
        "d7 lies beyond black's d6"
    );
    assert_eq!(after.score(), Score::new(8, 1));
}

#[test]
fn a_move_for_the_wrong_colour_is_not_your_turn() {
    let mut game = Game::new();
    assert_eq!(
        game.play_as(Color::White, place("f5")),
        Err(IllegalMove::NotYourTurn)
    );
    assert!(game.play_as(Color::Black, place("f5")).is_ok());
}

#[test]
fn a_pass_is_recorded_when_forced_and_refused_otherwise() {
    // From the conformance file (oth-0165 after d8): white has no move, black has.
    let position = Position::from_text(
        "XXXXXXXXOOXXOOXX-OXXOXOXOOXXXOOXOOXXXXOXOOOXOXOXOOOXXXXXOOOXXXXX",
        "O",
    )
    .unwrap();
    assert_eq!(position.status(), PositionStatus::MustPass);
    assert_eq!(position.play(place("a3")), Err(IllegalMove::MustPass));
    let (after, flipped) = position.play(Move::Pass).unwrap();
    assert!(flipped.is_empty());
    assert_eq!(after.to_move(), Color::Black);
    assert_eq!(after.black(), position.black());
    assert_eq!(after.status(), PositionStatus::Play);
    assert_eq!(after.play(Move::Pass), Err(IllegalMove::CannotPass));
}

#[test]
fn the_shortest_game_is_a_wipe_out_after_nine_plies() {
    let mut game = Game::from_record("d3c3b3d2e1d6d7e3").unwrap();
    assert!(!game.is_over());
    game.play(place("f4")).unwrap();
    assert_eq!(game.status(), PositionStatus::Over(EndReason::WipeOut));
    assert_eq!(game.to_act(), None);
    assert_eq!(game.position().score(), Score::new(13, 0));
    assert_eq!(game.play(Move::Pass), Err(IllegalMove::GameOver));
    assert_eq!(game.play(place("a1")), Err(IllegalMove::GameOver));
    assert_eq!(
        game.play_as(Color::White, place("a1")),
        Err(IllegalMove::GameOver)
    );
    // Japanese gives the 51 empty squares to black; European splits them, the odd one to black.
    assert_eq!(
        game.position().score().result_text(Scoring::Japanese),
        "black 64–0"
    );
    assert_eq!(
        game.position().score().result_text(Scoring::European),
        "black 39–25"
    );
}

#[test]
fn a_full_board_and_a_blocked_board_end_the_game_with_their_reasons() {
    let full = Position::from_text(
        "OOOXXXXOOOOOOXXOOXXOXOXOOXXXXOXOOXXOXOXOOXXOXXXXOOXXOOXXOOXXXXXX",
        "O",
    )
    .unwrap();
    assert_eq!(full.status(), PositionStatus::Over(EndReason::BoardFull));
    assert_eq!(full.score().result_text(Scoring::Japanese), "black 35–29");
    assert_eq!(full.score().result_text(Scoring::European), "black 35–29");
    // Black's discs cut off from white's by empty squares: neither can move.
    let black = sq("a1").bit() | sq("b1").bit();
    let white = sq("h8").bit();
    let blocked = Position::from_bits(black, white, Color::White).unwrap();
    assert_eq!(blocked.status(), PositionStatus::Over(EndReason::NoMoves));
    assert_eq!(blocked.score().winner(), Some(Color::Black));
    assert_eq!(Position::from_bits(1, 1, Color::Black), None);
}

#[test]
fn japanese_and_european_scoring_of_an_unfinished_board() {
    // 38–22 with 4 empty squares: Japanese 42–22, European 40–24.
    let score = Score::new(38, 22);
    assert_eq!(score.empty(), 4);
    assert_eq!(score.scored(Scoring::Japanese), Score::new(42, 22));
    assert_eq!(score.scored(Scoring::European), Score::new(40, 24));
    assert_eq!(score.result_text(Scoring::European), "black 40–24");
    // White wins 41–20 with 3 empty: European gives one to black and two (the odd one) to white.
    let score = Score::new(20, 41);
    assert_eq!(score.result_text(Scoring::Japanese), "white 44–20");
    assert_eq!(score.result_text(Scoring::European), "white 43–21");
    // A draw splits the empty squares under both.
    let score = Score::new(30, 30);
    assert_eq!(score.result_text(Scoring::Japanese), "draw 32–32");
    assert_eq!(score.result_text(Scoring::European), "draw 32–32");
    assert_eq!(Scoring::Japanese.as_str(), "japanese");
    assert_eq!(Scoring::European.as_str(), "european");
}

#[test]
fn records_export_in_the_move_list_form_and_import_back() {
    let game = Game::from_record("f5d6c3d3c4").unwrap();
    assert_eq!(game.record(), "f5d6c3d3c4");
    assert_eq!(game.transcript(), "f5d6c3d3c4");
    assert_eq!(Game::from_record("F5D6C3D3C4").unwrap(), game);
    assert_eq!(Game::from_record(" f5 d6\nc3\td3 c4 ").unwrap(), game);
    assert_eq!(Game::from_record("").unwrap(), Game::new());
}

#[test]
fn a_bad_record_is_refused_with_where_and_why() {
    assert_eq!(
        Game::from_record("f5d6x9"),
        Err(RecordError::Unreadable { offset: 4 })
    );
    assert_eq!(
        Game::from_record("f5d6c"),
        Err(RecordError::Unreadable { offset: 4 })
    );
    assert_eq!(
        Game::from_record("f5d6i1"),
        Err(RecordError::Unreadable { offset: 4 })
    );
    assert_eq!(
        Game::from_record("f5 f5"),
        Err(RecordError::Illegal {
            index: 1,
            offset: 3,
            reason: IllegalMove::Occupied
        })
    );
    assert_eq!(
        Game::from_record("f5a1"),
        Err(RecordError::Illegal {
            index: 1,
            offset: 2,
            reason: IllegalMove::NoFlip
        })
    );
    assert_eq!(
        Game::from_record("f5pass"),
        Err(RecordError::Illegal {
            index: 1,
            offset: 2,
            reason: IllegalMove::CannotPass
        })
    );
    assert_eq!(
        Game::from_record("d3c3b3d2e1d6d7e3f4a1"),
        Err(RecordError::Illegal {
            index: 9,
            offset: 18,
            reason: IllegalMove::GameOver
        })
    );
    assert_eq!(Game::from_record("f5a1").unwrap_err().code(), "no_flip");
    assert_eq!(
        Game::from_record("zz").unwrap_err().code(),
        "unreadable_record"
    );
}

#[test]
fn tag_pairs_before_the_moves_are_skipped_and_a_broken_one_is_unreadable() {
    let text = "[Event \"Rated game\"]\n[Black \"a [b]\"]\r\n\nf5d6 c3\n";
    assert_eq!(Game::from_record(text).unwrap().record(), "f5d6c3");
    // A tag is a whole line: one without its closing bracket is not skipped.
    assert_eq!(
        Game::from_record("[Black \"ann\"\nf5"),
        Err(RecordError::Unreadable { offset: 0 })
    );
    // After the first move a bracket is no tag.
    assert_eq!(
        Game::from_record("f5\n[Black \"ann\"]"),
        Err(RecordError::Unreadable { offset: 3 })
    );
}

#[test]
fn a_record_is_read_up_to_its_byte_limit_and_refused_beyond() {
    let at_limit = format!("f5{}", " ".repeat(MAX_RECORD_BYTES - 2));
    assert_eq!(at_limit.len(), MAX_RECORD_BYTES);
    assert_eq!(Game::from_record(&at_limit).unwrap().record(), "f5");
    let over = format!("{at_limit} ");
    assert_eq!(Game::from_record(&over), Err(RecordError::TooLong));
    assert_eq!(RecordError::TooLong.code(), "record_too_long");
}

#[test]
fn refusal_codes_are_stable() {
    let codes: Vec<&str> = [
        IllegalMove::Occupied,
        IllegalMove::NoFlip,
        IllegalMove::MustPass,
        IllegalMove::CannotPass,
        IllegalMove::GameOver,
        IllegalMove::NotYourTurn,
    ]
    .iter()
    .map(|e| e.code())
    .collect();
    assert_eq!(
        codes,
        [
            "occupied",
            "no_flip",
            "must_pass",
            "cannot_pass",
            "game_over",
            "not_your_turn"
        ]
    );
    let reasons: Vec<&str> = [EndReason::WipeOut, EndReason::BoardFull, EndReason::NoMoves]
        .iter()
        .map(|r| r.code())
        .collect();
    assert_eq!(reasons, ["wipe_out", "board_full", "no_moves"]);
}

#[test]
fn a_board_text_that_is_not_a_position_is_refused() {
    use rules::othello::PositionError;
    let start = "---------------------------OX------XO---------------------------";
    assert_eq!(Position::from_text(start, "X"), Ok(Position::start()));
    assert_eq!(Position::from_text(start, "B"), Err(PositionError::BadSide));
    assert_eq!(
        Position::from_text(&start[1..], "X"),
        Err(PositionError::Malformed)
    );
    assert_eq!(
        Position::from_text(&start.replace('O', "W"), "X"),
        Err(PositionError::Malformed)
    );
}

#[test]
fn a_record_with_characters_of_several_bytes_is_unreadable_not_a_panic() {
    assert_eq!(
        Game::from_record("\u{feff}f5"),
        Err(RecordError::Unreadable { offset: 0 })
    );
    assert_eq!(
        Game::from_record("f5p\u{e4}ss"),
        Err(RecordError::Unreadable { offset: 2 })
    );
    assert_eq!(
        Game::from_record("f5d\u{e4}"),
        Err(RecordError::Unreadable { offset: 2 })
    );
}
