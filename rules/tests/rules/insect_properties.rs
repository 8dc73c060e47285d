//! Properties of the insect chess rules over random games and random scattered positions: every listed move
//! plays and nothing else does (the move generator against the rule-by-rule check), refusals are typed and change
//! nothing, undo restores, placements read back, and the rules do not change when the board is turned half a
//! circle with the sides exchanged.

use std::collections::BTreeSet;

use proptest::prelude::*;
use rules::insect::{Game, Kind, Move, Piece, Position, Side, Square, Terrain};

fn all_pairs() -> impl Iterator<Item = Move> {
    Square::all().flat_map(|from| Square::all().map(move |to| Move::new(from, to)))
}

/// The legal moves as the rule-by-rule check finds them, trying every pair of squares.
fn checked_moves(p: &Position) -> BTreeSet<Move> {
    all_pairs().filter(|&m| p.check(m).is_ok()).collect()
}

/// The placement text turned half a circle with the sides exchanged, done on the text alone: ranks and files
/// reversed (every run digit is one character, so reversing the characters does both), cases swapped.
fn rotated_text(text: &str) -> String {
    let (board, side) = text.split_once(' ').unwrap();
    let board: String = board
        .chars()
        .rev()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    let side = if side == "s" { "n" } else { "s" };
    format!("{board} {side}")
}

/// A game of up to `choices.len()` plies from the start, each move picked from the legal list by a choice.
fn playout(choices: &[u16]) -> Vec<Game> {
    let mut game = Game::new();
    let mut games = vec![game.clone()];
    for &c in choices {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.apply(legal[usize::from(c) % legal.len()]).unwrap();
        games.push(game.clone());
    }
    games
}

/// A random placement: each of the twelve insects absent or on a square where it may stand (any square but its
/// own food, the enemy's food and, except for a diving beetle, the pond); a later piece on a taken square is left
/// out. Both sides keep at least one piece. `squares` narrows where they go (a small area makes them meet).
fn scattered(squares: std::ops::Range<u8>) -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(prop::option::weighted(0.8, squares), 12),
        any::<bool>(),
    )
        .prop_filter_map("a side without pieces", |(squares, south)| {
            let mut p = Vec::new();
            let mut taken = BTreeSet::new();
            for (i, s) in squares.iter().enumerate() {
                let Some(s) = s.and_then(Square::new) else {
                    continue;
                };
                let side = if i < 6 { Side::South } else { Side::North };
                let kind = Kind::ALL[i % 6];
                let allowed = match Terrain::of(s) {
                    Terrain::Food(_) => false,
                    Terrain::Pond => kind == Kind::DivingBeetle,
                    _ => true,
                };
                if allowed && taken.insert(s) {
                    p.push((s, Piece { side, kind }));
                }
            }
            let turn = if south { 's' } else { 'n' };
            let mut rows = vec![['.'; 7]; 11];
            for (s, piece) in &p {
                rows[s.rank() as usize][s.file() as usize] = piece.letter();
            }
            let board: Vec<String> = rows
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
            let text = format!("{} {turn}", board.join("/"));
            let both = Side::ALL
                .iter()
                .all(|&side| p.iter().any(|(_, piece)| piece.side == side));
            both.then(|| Position::from_placement(&text).expect("a placement the rules allow"))
        })
}

fn check_position(p: &Position) -> Result<(), TestCaseError> {
    // The generator and the rule-by-rule check agree, both ways.
    let listed: Vec<Move> = p.legal_moves();
    let set: BTreeSet<Move> = listed.iter().copied().collect();
    prop_assert_eq!(set.len(), listed.len(), "no move is listed twice");
    prop_assert!(listed.windows(2).all(|w| w[0] < w[1]), "listed in order");
    prop_assert_eq!(&checked_moves(p), &set, "in {}", p);
    prop_assert_eq!(p.count_legal_moves() as usize, listed.len());
    // Every listed move plays: the mover stands on its end square, the other side is to move, and only the
    // piece on the end square (if any) is gone.
    for &m in &listed {
        let after = p.play(m).unwrap();
        let mover = p.piece_at(m.from()).unwrap();
        prop_assert_eq!(after.piece_at(m.to()), Some(mover));
        prop_assert_eq!(after.piece_at(m.from()), None);
        prop_assert_eq!(after.turn(), p.turn().opposite());
        let captured = u32::from(p.piece_at(m.to()).is_some());
        prop_assert_eq!(after.count(p.turn()), p.count(p.turn()));
        prop_assert_eq!(
            after.count(p.turn().opposite()),
            p.count(p.turn().opposite()) - captured
        );
    }
    // Placements read back, and the turned text is the turned position.
    let text = p.placement();
    prop_assert_eq!(Position::from_placement(&text), Ok(*p));
    prop_assert_eq!(
        Position::from_placement(&rotated_text(&text)),
        Ok(p.rotated())
    );
    // Turned half a circle with sides exchanged: the turned moves, the same counts.
    let turned = p.rotated();
    let turned_moves: BTreeSet<Move> = listed.iter().map(|m| m.rotated()).collect();
    prop_assert_eq!(
        turned.legal_moves().into_iter().collect::<BTreeSet<_>>(),
        turned_moves
    );
    prop_assert_eq!(turned.perft(2), p.perft(2));
    prop_assert_eq!(turned.rotated(), *p);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn in_random_games_the_listed_moves_are_exactly_the_legal_ones_and_undo_restores(
        choices in prop::collection::vec(any::<u16>(), 0..160),
    ) {
        let games = playout(&choices);
        for pair in games.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let mut undone = after.clone();
            let last = *after.moves().last().unwrap();
            prop_assert_eq!(undone.undo(), Some(last));
            prop_assert_eq!(&undone, before);
        }
        for game in games.iter().step_by(7).chain(games.last()) {
            check_position(game.position())?;
            if game.status().is_over() {
                prop_assert!(game.legal_moves().is_empty());
            } else {
                prop_assert_eq!(game.legal_moves(), game.position().legal_moves());
            }
        }
        let last = games.last().unwrap();
        let replayed = Game::from_moves(last.moves()).unwrap();
        prop_assert_eq!(&replayed, last);
    }

    #[test]
    fn moves_not_listed_are_refused_with_a_typed_reason_and_change_nothing(
        choices in prop::collection::vec(any::<u16>(), 0..120),
        tries in prop::collection::vec((0u8..77, 0u8..77), 1..40),
    ) {
        let mut game = playout(&choices).pop().unwrap();
        let legal = game.legal_moves();
        for (from, to) in tries {
            let m = Move::new(Square::new(from).unwrap(), Square::new(to).unwrap());
            let before = game.clone();
            match game.apply(m) {
                Ok(_) => {
                    prop_assert!(legal.contains(&m), "{} played but was not listed", m);
                    game = before;
                }
                Err(e) => {
                    prop_assert!(!legal.contains(&m), "{} was listed but refused: {}", m, e.code());
                    prop_assert!(!e.code().is_empty());
                    prop_assert_eq!(&game, &before, "a refused move changed the game");
                }
            }
        }
    }

    #[test]
    fn a_game_turned_half_a_circle_with_sides_exchanged_plays_the_same(
        choices in prop::collection::vec(any::<u16>(), 0..200),
    ) {
        let games = playout(&choices);
        let last = games.last().unwrap();
        let mut turned = Game::from_position(Position::start().rotated());
        prop_assert_eq!(turned.status(), Game::new().status().rotated());
        for (game, &m) in games[1..].iter().zip(last.moves()) {
            let played = turned.apply(m.rotated()).unwrap();
            prop_assert_eq!(turned.position(), &game.position().rotated());
            prop_assert_eq!(played.status, game.status().rotated());
            prop_assert_eq!(turned.repetitions(), game.repetitions());
            prop_assert_eq!(turned.no_capture_plies(), game.no_capture_plies());
            prop_assert_eq!(turned.legal_moves().len(), game.legal_moves().len());
        }
    }

    #[test]
    fn in_random_scattered_positions_the_rules_hold_and_turn_with_the_board(p in scattered(0..77)) {
        check_position(&p)?;
        let game = Game::from_position(p);
        let turned = Game::from_position(p.rotated());
        prop_assert_eq!(turned.status(), game.status().rotated());
    }

    /// Ranks 3 to 9 (the pond, its flights and the land around it), where pieces crowd and meet.
    #[test]
    fn in_crowded_positions_round_the_pond_the_rules_hold_and_turn_with_the_board(p in scattered(14..63)) {
        check_position(&p)?;
        let game = Game::from_position(p);
        let turned = Game::from_position(p.rotated());
        prop_assert_eq!(turned.status(), game.status().rotated());
    }

    #[test]
    fn any_text_is_refused_with_a_reason_or_read_into_a_position_that_writes_it_back(
        text in "[1-8sScClLtTwWdDx/ ]{0,60}( [sn])?",
    ) {
        match Position::from_placement(&text) {
            Ok(p) => prop_assert_eq!(p.placement(), text),
            Err(e) => prop_assert!(!e.code().is_empty()),
        }
    }
}
