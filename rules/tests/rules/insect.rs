//! Insect chess rules, case by case: the start, each movement and capture rule of the rules page, the end rules
//! and their order, notation, and the perft table.

use rules::insect::{
    DrawReason, Game, IllegalMove, Kind, Move, PlacementError, Position, Side, Square, Status,
    WinReason,
};

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn sq(text: &str) -> Square {
    text.parse().unwrap()
}

/// A position from its placement; its listed moves must be exactly the moves the rule-by-rule check allows.
fn pos(text: &str) -> Position {
    let p = Position::from_placement(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let checked: Vec<Move> = Square::all()
        .flat_map(|from| Square::all().map(move |to| Move::new(from, to)))
        .filter(|&m| p.check(m).is_ok())
        .collect();
    assert_eq!(p.legal_moves(), checked, "{text}");
    p
}

fn legal(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(Move::to_string).collect();
    v.sort();
    v
}

/// Perft from the start, from the rules page.
const PERFT: [u64; 6] = [8, 64, 624, 6_084, 63_725, 667_462];

#[test]
fn perft_from_the_start_matches_the_rules_page_through_depth_five() {
    let start = Position::start();
    for (i, &expected) in PERFT.iter().enumerate().take(5) {
        assert_eq!(start.perft(i as u32 + 1), expected, "depth {}", i + 1);
    }
}

/// Depth 6 is 667,462 leaves: a fraction of a second with the crate's opt-level 3, even in test builds.
#[test]
fn perft_from_the_start_matches_the_rules_page_at_depth_six() {
    assert_eq!(Position::start().perft(6), PERFT[5]);
}

#[test]
fn the_start_is_the_pages_placement_with_south_to_move() {
    let start = Position::start();
    assert_eq!(start.placement(), "ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL s");
    assert_eq!(pos("ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL s"), start);
    assert_eq!(start.turn(), Side::South);
    // North's set-up is south's turned half a circle.
    assert_eq!(
        start.rotated(),
        pos("ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL n")
    );
    assert_eq!(
        legal(&start),
        ["a1-a2", "b1-b2", "c2-b2", "c2-c3", "e2-e3", "e2-f2", "f1-f2", "g1-g2"]
    );
    let game = Game::new();
    assert_eq!(
        game.status(),
        Status::Ongoing {
            to_move: Side::South
        }
    );
    assert_eq!(game.repetitions(), 1);
}

/// A position from pieces on squares (`('d3', 'L')`: upper case south, lower case north) and the side to move.
fn setup(pieces: &[(&str, char)], side: char) -> Position {
    let mut rows = vec![['.'; 7]; 11];
    for &(square, letter) in pieces {
        let s = sq(square);
        rows[s.rank() as usize][s.file() as usize] = letter;
    }
    let ranks: Vec<String> = rows
        .iter()
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    pos(&format!("{} {side}", ranks.join("/")))
}

#[test]
fn a_piece_steps_one_square_orthogonally_and_never_diagonally() {
    let p = setup(&[("f3", 'L'), ("g11", 's')], 's');
    assert_eq!(
        legal(&p),
        ["f3-e3", "f3-f2", "f3-f4", "f3-g3"].map(String::from)
    );
    assert_eq!(p.check(mv("f3-e4")), Err(IllegalMove::NotAStep));
    assert_eq!(p.check(mv("f3-f5")), Err(IllegalMove::NotAStep));
    assert_eq!(p.check(mv("d4-d5")), Err(IllegalMove::NoPiece));
    assert_eq!(p.check(mv("g11-g10")), Err(IllegalMove::NotYourPiece));
}

#[test]
fn only_the_diving_beetle_enters_the_pond() {
    let p = setup(&[("c4", 'L'), ("e4", 'D'), ("g11", 's')], 's');
    assert_eq!(p.check(mv("c4-c5")), Err(IllegalMove::Pond));
    assert!(p.check(mv("e4-e5")).is_ok());
    let inside = setup(&[("d6", 'D'), ("g11", 's')], 's');
    assert_eq!(
        legal(&inside),
        ["d6-c6", "d6-d5", "d6-d7", "d6-e6"].map(String::from)
    );
}

#[test]
fn the_wasp_flies_over_the_pond_even_over_a_diving_beetle() {
    let p = setup(&[("d4", 'W'), ("d6", 'D'), ("d5", 'd'), ("g11", 's')], 's');
    assert!(legal(&p).contains(&"d4-d8".to_owned()));
    assert!(p.check(mv("d4-d8")).is_ok());
    let side = setup(&[("b6", 'W'), ("d6", 'd'), ("g11", 's')], 's');
    assert!(side.check(mv("b6-f6")).is_ok());
    assert_eq!(side.check(mv("b6-c6")), Err(IllegalMove::Pond));
    // Only a wasp flies.
    let tiger = setup(&[("b6", 'T'), ("g11", 's')], 's');
    assert_eq!(tiger.check(mv("b6-f6")), Err(IllegalMove::NotAStep));
    // A flight lands like a step: it captures what the wasp beats, and nothing else.
    let onto_tiger = setup(&[("c4", 'W'), ("c8", 't'), ("g11", 's')], 's');
    assert_eq!(onto_tiger.check(mv("c4-c8")), Err(IllegalMove::TooWeak));
    let onto_beetle = setup(&[("c4", 'W'), ("c8", 'd'), ("g11", 's')], 's');
    assert!(onto_beetle.check(mv("c4-c8")).is_ok());
    let onto_own = setup(&[("c4", 'W'), ("c8", 'S'), ("g11", 's')], 's');
    assert_eq!(onto_own.check(mv("c4-c8")), Err(IllegalMove::OwnPiece));
}

#[test]
fn no_piece_stands_on_its_own_food_and_own_mud_is_entered_only_to_capture() {
    let p = setup(&[("c2", 'S'), ("g11", 's')], 's');
    assert_eq!(p.check(mv("c2-d2")), Err(IllegalMove::OwnMud));
    assert_eq!(p.check(mv("c2-c1")), Err(IllegalMove::OwnMud));
    let food = setup(&[("d2", 'S'), ("g11", 's')], 's');
    assert_eq!(food.check(mv("d2-d1")), Err(IllegalMove::OwnFood));
    // A north wasp in south's mud has no strength: south's weakest piece captures it there.
    let enemy_in_mud = setup(&[("c2", 'D'), ("d2", 'w'), ("g11", 's')], 's');
    assert!(enemy_in_mud.check(mv("c2-d2")).is_ok());
    let strong_in_mud = setup(&[("c2", 'W'), ("d2", 'c'), ("g11", 's')], 's');
    assert!(
        strong_in_mud.check(mv("c2-d2")).is_ok(),
        "the centipede has no strength in south's mud"
    );
    // A piece that captured in its own mud keeps its strength there.
    let mut game = Game::from_position(strong_in_mud);
    game.apply(mv("c2-d2")).unwrap();
    game.apply(mv("g11-g10")).unwrap();
    assert_eq!(game.position().placement(), "7/6s/7/7/7/7/7/7/7/3W3/7 s");
}

#[test]
fn a_piece_in_the_enemys_mud_captures_nothing_but_may_step_onto_the_food() {
    let q = setup(&[("c11", 'S'), ("b11", 'w'), ("g1", 'L')], 's');
    // The scorpion in north's mud c11 has no strength: it cannot take the wasp on b11.
    assert_eq!(q.check(mv("c11-b11")), Err(IllegalMove::NoStrength));
    assert!(
        q.check(mv("c11-d11")).is_ok(),
        "it may step onto north's food"
    );
    let mut game = Game::from_position(q);
    let played = game.apply(mv("c11-d11")).unwrap();
    assert_eq!(
        played.status,
        Status::Won {
            winner: Side::South,
            reason: WinReason::Food
        }
    );
    assert!(game.legal_moves().is_empty());
    assert!(game.position().legal_moves().is_empty());
    assert_eq!(game.apply(mv("b11-a11")), Err(IllegalMove::GameOver));
    // North's wasp captures the scorpion in its own mud.
    let north = setup(&[("c11", 'S'), ("b11", 'w'), ("g1", 'L')], 'n');
    assert!(north.check(mv("b11-c11")).is_ok());
}

#[test]
fn nothing_is_captured_in_or_from_the_pond() {
    // South's diving beetle beats the scorpion, but not from the pond or into it.
    let from_pond = setup(&[("d5", 'D'), ("d4", 's'), ("g11", 'c')], 's');
    assert_eq!(
        from_pond.check(mv("d5-d4")),
        Err(IllegalMove::CaptureInPond)
    );
    let into_pond = setup(&[("d4", 'D'), ("d5", 'd'), ("g11", 'c')], 's');
    assert_eq!(
        into_pond.check(mv("d4-d5")),
        Err(IllegalMove::CaptureInPond)
    );
    let on_land = setup(&[("d4", 'D'), ("d3", 's'), ("g11", 'c')], 's');
    assert!(on_land.check(mv("d4-d3")).is_ok());
}

#[test]
fn the_strength_cycle_including_same_kind_for_every_pair() {
    // The rules page's list, letter by letter: each kind and the kinds it captures (its own included).
    let page = [
        ('S', "SCLTW"),
        ('C', "CLTWD"),
        ('L', "LTWD"),
        ('T', "TWD"),
        ('W', "WD"),
        ('D', "DS"),
    ];
    for (mover_letter, beaten) in page {
        let mover = Kind::from_letter(mover_letter).unwrap();
        for target in Kind::ALL {
            let expected = beaten.contains(target.letter());
            assert_eq!(mover.beats(target), expected, "{mover} vs {target}");
            // North keeps a second piece on g11, of another kind than the target.
            let spare = if target == Kind::Scorpion { 'c' } else { 's' };
            let p = setup(
                &[
                    ("d4", mover_letter),
                    ("e4", target.letter().to_ascii_lowercase()),
                    ("g11", spare),
                ],
                's',
            );
            let result = p.check(mv("d4-e4"));
            if expected {
                assert_eq!(result, Ok(()), "{mover} takes {target}");
            } else {
                assert_eq!(result, Err(IllegalMove::TooWeak), "{mover} vs {target}");
            }
        }
    }
}

#[test]
fn a_side_whose_last_piece_is_captured_loses() {
    let mut game = Game::from_placement("7/7/7/7/7/7/7/3Lt2/7/7/7 s").unwrap();
    let played = game.apply(mv("d4-e4")).unwrap();
    assert_eq!(played.captured, Some(Kind::TigerBeetle));
    assert_eq!(
        game.status(),
        Status::Won {
            winner: Side::South,
            reason: WinReason::NoPieces
        }
    );
    assert_eq!(game.status().code(), "south_wins");
    assert_eq!(game.status().reason(), Some("no_pieces"));
}

#[test]
fn a_side_with_pieces_but_no_move_loses() {
    // North's wasp on a11 is boxed in by a centipede and a tiger beetle it does not beat.
    let game = Game::from_placement("wT5/C6/7/7/7/7/7/7/7/7/7 n").unwrap();
    assert_eq!(
        game.status(),
        Status::Won {
            winner: Side::South,
            reason: WinReason::NoMoves
        }
    );
    assert!(game.legal_moves().is_empty());
}

#[test]
fn the_third_standing_of_a_position_draws_and_the_start_counts_as_one() {
    let mut game = Game::new();
    let cycle = ["a1-a2", "g11-g10", "a2-a1", "g10-g11"];
    for m in cycle {
        game.apply(mv(m)).unwrap();
    }
    assert_eq!(game.repetitions(), 2);
    assert!(!game.status().is_over());
    for m in &cycle[..3] {
        game.apply(mv(m)).unwrap();
    }
    assert!(!game.status().is_over());
    game.apply(mv(cycle[3])).unwrap();
    assert_eq!(game.repetitions(), 3);
    assert_eq!(
        game.status(),
        Status::Drawn {
            reason: DrawReason::Repetition
        }
    );
    assert_eq!(game.undo(), Some(mv("g10-g11")));
    assert!(!game.status().is_over());
}

#[test]
fn a_hundred_plies_without_capture_draw() {
    // A walk from the start that never captures, never repeats a position and never wins: the first legal move
    // that keeps it so, until the game ends.
    let mut game = Game::new();
    let mut plies = 0;
    while !game.status().is_over() {
        let moves = game.legal_moves();
        let chosen = moves.into_iter().find(|&m| {
            let mut g = game.clone();
            let played = g.apply(m).unwrap();
            played.captured.is_none()
                && g.repetitions() == 1
                && !matches!(played.status, Status::Won { .. })
        });
        let Some(m) = chosen else { break };
        game.apply(m).unwrap();
        plies += 1;
    }
    assert_eq!(plies, 100);
    assert_eq!(game.no_capture_plies(), 100);
    assert_eq!(
        game.status(),
        Status::Drawn {
            reason: DrawReason::NoCapture
        }
    );
}

#[test]
fn moves_and_squares_read_and_write_back() {
    assert_eq!(sq("a1").index(), 0);
    assert_eq!(sq("g11").index(), 76);
    assert_eq!(sq("a10").to_string(), "a10");
    for bad in ["h1", "a0", "a12", "a011", "A1", "a", "", "1a", "a1x"] {
        assert!(bad.parse::<Square>().is_err(), "{bad}");
    }
    assert_eq!(mv("e4-e8").to_string(), "e4-e8");
    assert_eq!("e4e8".parse::<Move>().unwrap_err().code(), "malformed_move");
    assert_eq!("e4-h8".parse::<Move>().unwrap_err().code(), "off_board");
}

#[test]
fn placements_that_the_rules_cannot_reach_are_refused_with_a_reason() {
    let cases = [
        (
            "ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL x",
            PlacementError::BadSide,
        ),
        (
            "ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL",
            PlacementError::Malformed,
        ),
        (
            "ld3cs/2w1t2/7/7/7/7/7/7/2T1W2/SC3DL s",
            PlacementError::Malformed,
        ),
        (
            "ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DLS s",
            PlacementError::Malformed,
        ),
        (
            "ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC21DL s",
            PlacementError::Malformed,
        ),
        (
            "ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC03DL s",
            PlacementError::Malformed,
        ),
        (
            "ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DX s",
            PlacementError::Malformed,
        ),
        (
            "ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL  s",
            PlacementError::BadSide,
        ),
        (
            "6s/7/7/7/7/7/7/7/7/7/S5S s",
            PlacementError::Duplicate(rules::insect::Piece {
                side: Side::South,
                kind: Kind::Scorpion,
            }),
        ),
        (
            "6s/7/7/7/7/3S3/7/7/7/7/7 s",
            PlacementError::InPond(sq("d6")),
        ),
        (
            "6s/7/7/7/7/7/7/7/7/7/3S3 s",
            PlacementError::OnOwnFood(sq("d1")),
        ),
        (
            "3S2s/7/7/7/7/7/7/7/7/7/3c3 s",
            PlacementError::BothFoodsTaken,
        ),
        ("7/7/7/7/7/7/7/7/7/7/7 s", PlacementError::Empty),
        ("3S2s/7/7/7/7/7/7/7/7/7/7 s", PlacementError::ImpossibleTurn),
        ("6S/7/7/7/7/7/7/7/7/7/7 s", PlacementError::ImpossibleTurn),
    ];
    for (text, error) in cases {
        assert_eq!(Position::from_placement(text), Err(error), "{text}");
        assert!(!error.code().is_empty());
    }
    // A food taken by the side that just moved, and a side without pieces to move, are finished games.
    let won = Game::from_placement("3S2s/7/7/7/7/7/7/7/7/7/7 n").unwrap();
    assert_eq!(won.status().to_string(), "south_wins food");
    let lost = Game::from_placement("6S/7/7/7/7/7/7/7/7/7/7 n").unwrap();
    assert_eq!(lost.status().to_string(), "south_wins no_pieces");
}

#[test]
fn refused_moves_leave_the_game_unchanged_and_apply_as_checks_the_turn() {
    let mut game = Game::new();
    let before = game.clone();
    assert_eq!(game.apply(mv("a1-b1")), Err(IllegalMove::OwnPiece));
    assert_eq!(game.apply(mv("c2-d2")), Err(IllegalMove::OwnMud));
    assert_eq!(
        game.apply_as(Side::North, mv("a11-a10")),
        Err(IllegalMove::NotYourTurn)
    );
    assert_eq!(game, before);
    let played = game.apply_as(Side::South, mv("e2-e3")).unwrap();
    assert_eq!(
        (played.side, played.kind, played.captured),
        (Side::South, Kind::Wasp, None)
    );
    assert_eq!(game.undo(), Some(mv("e2-e3")));
    assert_eq!(game, before);
    assert_eq!(game.undo(), None);
}

#[test]
fn every_refusal_reason_has_a_distinct_code() {
    let all = [
        IllegalMove::GameOver,
        IllegalMove::NotYourTurn,
        IllegalMove::NoPiece,
        IllegalMove::NotYourPiece,
        IllegalMove::NotAStep,
        IllegalMove::Pond,
        IllegalMove::OwnFood,
        IllegalMove::OwnPiece,
        IllegalMove::OwnMud,
        IllegalMove::CaptureInPond,
        IllegalMove::NoStrength,
        IllegalMove::TooWeak,
    ];
    let codes: std::collections::BTreeSet<&str> = all.iter().map(|e| e.code()).collect();
    assert_eq!(codes.len(), all.len());
}
