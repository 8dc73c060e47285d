//! Properties of the draughts rules over random positions and random games: colour symmetry, every listed move
//! plays and nothing else does, and captures take exactly the pieces they list.

use std::collections::BTreeSet;

use proptest::prelude::*;
use rules::draughts::{Game, Move, Position, Role, Square, SquareSet};
use rules::Color;

/// A random position: each square empty (most often) or holding a man or king of either colour; a man on its
/// crowning row is made a king, as it would have been.
fn position() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..16, 50), any::<bool>()).prop_map(|(cells, white)| {
        let (mut w, mut b) = (Vec::new(), Vec::new());
        for (i, c) in cells.iter().enumerate() {
            let n = i as u8 + 1;
            match c {
                0..=9 => {}
                10 | 11 => w.push(if n <= 5 {
                    format!("K{n}")
                } else {
                    n.to_string()
                }),
                12 | 13 => b.push(if n >= 46 {
                    format!("K{n}")
                } else {
                    n.to_string()
                }),
                14 => w.push(format!("K{n}")),
                _ => b.push(format!("K{n}")),
            }
        }
        let turn = if white { "W" } else { "B" };
        Position::from_fen(&format!("{turn}:W{}:B{}", w.join(","), b.join(","))).unwrap()
    })
}

type Key = (u8, u8, Vec<u8>, bool, Role);

fn key(m: &Move, turn: impl Fn(Square) -> Square) -> Key {
    let mut captured: Vec<u8> = m.captured().iter().map(|s| turn(s).number()).collect();
    captured.sort();
    (
        turn(m.from()).number(),
        turn(m.to()).number(),
        captured,
        m.promotes(),
        m.role(),
    )
}

fn total(p: &Position, c: Color) -> usize {
    p.pieces(c).len()
}

/// A move text from random squares: quiet or capture, two to five squares.
fn text() -> impl Strategy<Value = String> {
    (prop::collection::vec(1u8..=50, 2..=5), any::<bool>()).prop_map(|(squares, capture)| {
        let squares: Vec<String> = squares.iter().map(u8::to_string).collect();
        squares.join(if capture { "x" } else { "-" })
    })
}

fn check_move_plays(p: &Position, m: &Move) -> Result<(), TestCaseError> {
    let mover = p.turn();
    let other = mover.opposite();
    let mut game = Game::from_position(*p);
    prop_assert!(game.play(m).is_ok(), "{m} plays in {p}");
    let after = *game.position();
    prop_assert_eq!(Ok(after), p.play(m));
    prop_assert_eq!(total(&after, mover), total(p, mover));
    prop_assert_eq!(total(&after, other), total(p, other) - m.captured().len());
    prop_assert!(m.captured().iter().all(|s| p.pieces(other).contains(s)));
    prop_assert!(m.captured().iter().all(|s| after.piece_at(s).is_none()));
    let piece = after
        .piece_at(m.to())
        .expect("the piece stands on its last square");
    prop_assert_eq!(piece.colour, mover);
    let crowned = m.role() == Role::King || m.promotes();
    prop_assert_eq!(piece.role == Role::King, crowned);
    prop_assert_eq!(m.path().first(), Some(&m.from()));
    prop_assert_eq!(m.path().last(), Some(&m.to()));
    if m.is_capture() {
        prop_assert_eq!(m.path().len(), m.captured().len() + 1);
    } else {
        prop_assert_eq!(m.path().len(), 2);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_mirrored_position_with_colours_exchanged_has_the_mirrored_moves(p in position()) {
        let mirrored = p.mirrored();
        prop_assert_eq!(mirrored.mirrored(), p);
        let ours: BTreeSet<Key> = p.legal_moves().iter().map(|m| key(m, Square::rotated)).collect();
        let theirs: BTreeSet<Key> = mirrored.legal_moves().iter().map(|m| key(m, |s| s)).collect();
        prop_assert_eq!(&ours, &theirs);
        // Our route, turned round, is a route of the mirrored move.
        for m in p.legal_moves() {
            let sep = if m.is_capture() { "x" } else { "-" };
            let text: Vec<String> = m.path().iter().map(|s| s.rotated().to_string()).collect();
            let there = mirrored.parse_move(&text.join(sep)).unwrap();
            prop_assert_eq!(key(&there, |s| s), key(&m, Square::rotated));
        }
    }

    #[test]
    fn every_listed_move_plays_and_takes_exactly_its_captured_pieces(p in position()) {
        let moves = p.legal_moves();
        let max = moves.iter().map(|m| m.captured().len()).max().unwrap_or(0);
        for m in &moves {
            prop_assert_eq!(m.captured().len(), max, "the majority rule: every move takes the most");
            check_move_plays(&p, m)?;
            prop_assert_eq!(&p.parse_move(&m.to_string()).unwrap(), m, "its text names it");
        }
        let keys: BTreeSet<Key> = moves.iter().map(|m| key(m, |s| s)).collect();
        prop_assert_eq!(keys.len(), moves.len(), "each move once");
        prop_assert_eq!(p.has_legal_move(), !moves.is_empty());
    }

    #[test]
    fn a_text_names_a_move_only_if_it_is_listed_with_that_start_end_and_kind(p in position(), t in text()) {
        let legal = p.legal_moves();
        if let Ok(m) = p.parse_move(&t) {
            prop_assert!(legal.contains(&m), "{t} read as an unlisted move");
            let squares: Vec<&str> = t.split(['x', '-']).collect();
            prop_assert_eq!(m.from().to_string(), squares[0]);
            prop_assert_eq!(m.to().to_string(), *squares.last().unwrap());
            prop_assert_eq!(m.is_capture(), t.contains('x'));
            if squares.len() > 2 {
                prop_assert_eq!(squares.len(), m.captured().len() + 1, "a full path lands once per capture");
            }
        } else {
            prop_assert!(!legal.iter().any(|m| m.to_string() == t), "{t} is listed but refused");
        }
    }

    #[test]
    fn a_listed_capture_with_one_landing_square_changed_is_refused_unless_it_is_another_route(
        p in position(), at in any::<prop::sample::Index>(), to in 1u8..=50,
    ) {
        let legal = p.legal_moves();
        for m in legal.iter().filter(|m| m.path().len() >= 3) {
            let mut path: Vec<u8> = m.path().iter().map(|s| s.number()).collect();
            let i = 1 + at.index(path.len() - 2);
            path[i] = to;
            let text: Vec<String> = path.iter().map(u8::to_string).collect();
            match p.parse_move(&text.join("x")) {
                Ok(other) => prop_assert!(legal.contains(&other)),
                Err(e) => prop_assert_eq!(e.code(), "illegal_move"),
            }
        }
    }

    #[test]
    fn random_games_keep_every_invariant_and_refuse_moves_of_other_positions(
        choices in prop::collection::vec(any::<prop::sample::Index>(), 1..120),
    ) {
        let mut game = Game::new();
        let mut previous: Option<Move> = None;
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                prop_assert!(game.status().is_over());
                break;
            }
            if let Some(old) = previous.take() {
                if !moves.contains(&old) {
                    let before = game.clone();
                    prop_assert!(game.play(&old).is_err());
                    prop_assert_eq!(&game, &before, "a refusal changes nothing");
                }
            }
            let m = c.get(&moves).clone();
            check_move_plays(game.position(), &m)?;
            let before = game.clone();
            game.play(&m).unwrap();
            let mut undone = game.clone();
            prop_assert_eq!(undone.undo(), Some(m.clone()));
            prop_assert_eq!(&undone, &before, "undo restores the game exactly");
            previous = Some(m);
        }
        let pdn = game.to_pdn(None);
        prop_assert_eq!(Game::from_pdn(&pdn).unwrap(), game);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_move_of_another_position_plays_only_if_it_is_legal_there(a in position(), b in position()) {
        let legal_in_b = b.legal_moves();
        for m in a.legal_moves() {
            let legal = legal_in_b.iter().any(|n| n.from() == m.from() && n.to() == m.to() && n.captured() == m.captured());
            prop_assert_eq!(b.play(&m).is_ok(), legal, "{} from {} in {}", m, a, b);
        }
    }

    #[test]
    fn arbitrary_text_never_panics_the_readers(t in "\\PC{0,40}", u in "[-0-9xKWB:,. ]{0,40}") {
        let p = Position::initial();
        for text in [&t, &u] {
            let _ = Position::from_fen(text);
            let _ = p.parse_move(text);
            let _ = Game::from_pdn(text);
        }
    }
}

#[test]
fn a_square_set_lists_its_squares_in_order() {
    let set: SquareSet = [30, 2, 17].into_iter().filter_map(Square::new).collect();
    assert_eq!(set.to_string(), "2,17,30");
    assert_eq!(set.len(), 3);
}
