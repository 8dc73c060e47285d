//! Draughts notation: PDN moves (full paths, short forms, typed refusals), FEN in both list orders, PDN games.

use rules::draughts::{
    FenError, Game, MoveError, PdnError, Position, Role, Square, SquareError, Status,
};
use rules::Color;

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap()
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

#[test]
fn white_moves_first_from_the_initial_position_with_nine_moves() {
    let p = Position::initial();
    assert_eq!(p.turn(), Color::White);
    let texts: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(
        texts,
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    );
    assert_eq!(p.fen(), "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
}

#[test]
fn squares_are_one_to_fifty_and_anything_else_is_a_typed_error() {
    assert_eq!("1".parse::<Square>(), Ok(sq(1)));
    assert_eq!("50".parse::<Square>(), Ok(sq(50)));
    assert_eq!("0".parse::<Square>(), Err(SquareError::OutOfRange));
    assert_eq!("51".parse::<Square>(), Err(SquareError::OutOfRange));
    assert_eq!("".parse::<Square>(), Err(SquareError::NotANumber));
    assert_eq!("+5".parse::<Square>(), Err(SquareError::NotANumber));
    assert_eq!("9999".parse::<Square>(), Err(SquareError::NotANumber));
    assert_eq!(Square::new(0), None);
    assert_eq!(Square::new(51), None);
    // 46 is a1, 5 is j10.
    assert_eq!((sq(46).file(), sq(46).row_from_white()), (0, 0));
    assert_eq!((sq(5).file(), sq(5).row_from_white()), (9, 9));
    for s in Square::all() {
        assert_eq!(Square::from_coords(s.file(), s.row_from_white()), Some(s));
    }
}

#[test]
fn a_man_moves_one_square_forward_only_and_captures_backward() {
    let p = fen("W:W28:B3");
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["28-22", "28-23"]);
    let p = fen("W:W28:B33");
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(
        moves,
        ["28x39"],
        "capture is mandatory, and backward for a man"
    );
    assert_eq!(
        p.parse_move("28-22"),
        Err(MoveError::Illegal),
        "a quiet move while a capture is possible"
    );
}

#[test]
fn a_flying_king_moves_along_whole_diagonals_and_lands_anywhere_beyond_a_capture() {
    let p = fen("W:WK46:B3");
    assert_eq!(
        p.legal_moves().len(),
        9,
        "46 to 41, 37, 32, 28, 23, 19, 14, 10, 5"
    );
    let p = fen("W:WK46:B28");
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["46x5", "46x10", "46x14", "46x19", "46x23"]);
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| m.role() == Role::King && !m.promotes()));
}

#[test]
fn two_pieces_in_a_row_on_a_diagonal_cannot_be_jumped() {
    let p = fen("W:WK46:B37,32");
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["46-41"]);
}

#[test]
fn the_full_path_and_the_unambiguous_short_form_name_a_capture() {
    let p = fen("W:W8,42,K49:B11,12,15,17,22,33,43");
    let full = p.parse_move("49x38x29x7x16").unwrap();
    assert_eq!(full.to_string(), "49x38x29x7x16");
    assert_eq!(p.parse_move("49x27").unwrap().to_string(), "49x16x7x18x27");
    assert_eq!(
        p.parse_move(" 49x27 ").unwrap().to_string(),
        "49x16x7x18x27"
    );
}

#[test]
fn an_ambiguous_short_form_is_refused_with_the_candidates() {
    let p = fen("W:W9,46,K20:B8,10,16,22,37,38,41");
    assert_eq!(
        p.parse_move("20x2"),
        Err(MoveError::Ambiguous {
            candidates: vec!["20x42x31x13x2".into(), "20x47x36x13x2".into()]
        })
    );
    assert_eq!(p.parse_move("20x2").unwrap_err().code(), "ambiguous_move");
    assert_eq!(
        p.parse_move("20x47x36x13x2").unwrap().to_string(),
        "20x47x36x13x2"
    );
}

#[test]
fn routes_with_the_same_start_end_and_captures_are_one_move_either_route_names_it() {
    let p = fen("W:WK2:B7,8,17,18");
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].to_string(), "2x11x22x13x2");
    assert_eq!(p.parse_move("2x13x22x11x2").unwrap(), moves[0]);
    assert_eq!(
        p.parse_move("2x2"),
        Ok(moves[0].clone()),
        "short form: one move"
    );
    let after = p.play(&moves[0]).unwrap();
    assert_eq!(
        after.fen(),
        "B:WK2:B",
        "the king is back on 2, every piece taken"
    );
}

#[test]
fn bad_move_texts_are_typed_errors() {
    let p = Position::initial();
    for (text, code) in [
        ("", "square_not_a_number"),
        ("32", "malformed_move"),
        ("32-", "square_not_a_number"),
        ("32-28-23", "malformed_move"),
        ("32-28x23", "malformed_move"),
        ("32_28", "square_not_a_number"),
        ("a-b", "square_not_a_number"),
        ("0-5", "square_out_of_range"),
        ("32-51", "square_out_of_range"),
        ("31-22", "illegal_move"),
        ("32x28", "illegal_move"),
        ("19-23", "illegal_move"),
        ("32x21x10", "illegal_move"),
    ] {
        assert_eq!(
            p.parse_move(text)
                .map(|m| m.to_string())
                .unwrap_err()
                .code(),
            code,
            "{text:?}"
        );
    }
}

#[test]
fn fen_reads_both_list_orders_kings_and_ranges_and_writes_white_first() {
    let a = fen("B:W6,9,K31:BK17,K24");
    let b = fen("B:BK17,K24:W6,9,K31");
    assert_eq!(a, b);
    assert_eq!(b.fen(), "B:W6,9,K31:BK17,K24");
    assert_eq!(fen("W:W31-50:B1-20"), Position::initial());
    assert_eq!(fen("B:WK2:B").fen(), "B:WK2:B");
    assert_eq!(fen("W:WK2:B").pieces(Color::Black).len(), 0);
}

#[test]
fn bad_fens_are_typed_errors() {
    for (text, error) in [
        ("", FenError::Malformed),
        ("X:W1:B2", FenError::Malformed),
        ("W:W31", FenError::Malformed),
        ("W:W31:W32", FenError::Malformed),
        ("W:W31:B1:B2", FenError::Malformed),
        ("W:Q31:B1", FenError::Malformed),
        ("W:W31,51:B1", FenError::Square(SquareError::OutOfRange)),
        ("W:W31,x:B1", FenError::Square(SquareError::NotANumber)),
        ("W:W40-31:B1", FenError::BadRange),
        ("W:W31,31:B1", FenError::Duplicate(sq(31))),
        ("W:W31:B31", FenError::Duplicate(sq(31))),
        ("W:W3:B10", FenError::ManOnCrowningRow(sq(3))),
        ("W:W30:B48", FenError::ManOnCrowningRow(sq(48))),
    ] {
        assert_eq!(Position::from_fen(text), Err(error.clone()), "{text:?}");
        assert!(!error.code().is_empty());
    }
    assert!(
        Position::from_fen("W:WK3:BK48").is_ok(),
        "kings may stand there"
    );
}

#[test]
fn a_game_exports_to_pdn_and_imports_back_identically() {
    let mut game = Game::new();
    for m in ["32-28", "19-23", "28x19", "14x23", "37-32", "17-21"] {
        game.play_text(m).unwrap();
    }
    let pdn = game.to_pdn(None);
    assert_eq!(
        pdn,
        "[GameType \"20\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 17-21 *\n"
    );
    let back = Game::from_pdn(&pdn).unwrap();
    assert_eq!(back, game);
    assert_eq!(
        game.to_pdn(Some("2-0")).lines().nth(1),
        Some("[Result \"2-0\"]")
    );
}

#[test]
fn a_game_from_a_setup_exports_its_fen_and_black_first_numbering() {
    let mut game = Game::from_position(fen("B:W28,32:B3,19"));
    game.play_text("3-8").unwrap();
    game.play_text("28-22").unwrap();
    let pdn = game.to_pdn(None);
    assert_eq!(
        pdn,
        "[GameType \"20\"]\n[FEN \"B:W28,32:B3,19\"]\n[Result \"*\"]\n\n1... 3-8 2. 28-22 *\n"
    );
    assert_eq!(Game::from_pdn(&pdn).unwrap(), game);
}

#[test]
fn pdn_import_skips_comments_variations_annotations_and_reads_short_captures() {
    let text = "[Event \"club\"]\n[White \"a\"]\n1. 32-28 {a comment} 19-23! 2. 28x19 (2. 33-29 23x32) 14x23?\n3.37-32 1-1";
    let game = Game::from_pdn(text).unwrap();
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["32-28", "19-23", "28x19", "14x23", "37-32"]);
}

#[test]
fn bad_pdn_is_a_typed_error_naming_the_move() {
    assert_eq!(
        Game::from_pdn("1. 32-28 19-24 2. 28-27"),
        Err(PdnError::Move {
            index: 2,
            text: "28-27".into(),
            error: MoveError::Illegal
        })
    );
    assert_eq!(
        Game::from_pdn("[FEN \"W:W3:B10\"]\n").unwrap_err().code(),
        "fen_man_on_crowning_row"
    );
    assert_eq!(
        Game::from_pdn("[FEN W]\n").unwrap_err(),
        PdnError::BadTag { line: 1 }
    );
    assert_eq!(
        Game::from_pdn("1. 32-28 {open").unwrap_err(),
        PdnError::Unclosed
    );
    assert_eq!(
        Game::from_pdn("[FEN \"W:WK2:B7,8,17,18\"]\n1. 2x11x22x13x2 12-17").unwrap_err(),
        PdnError::AfterEnd { index: 1 }
    );
    assert_eq!(
        Game::from_pdn("[FEN \"W:WK2:B7,8,17,18\"]\n1. 2x11x22x13x2")
            .unwrap()
            .status(),
        Status::Won {
            winner: Color::White,
            reason: rules::draughts::WinReason::NoPieces
        }
    );
}
