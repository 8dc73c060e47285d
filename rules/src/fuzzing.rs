//! Arbitrary action sequences (Gomoku/Renju, Othello, international draughts, insect chess), for the fuzz targets in
//! `fuzz/` and for the crate's own tests.

use crate::{Action, ForbiddenPolicy, Game, Offers, Opening, Point, RuleSet, Rules};

/// Reads bytes as a choice of rules and a sequence of actions (and undos), applies them, and panics only if the
/// crate breaks one of its own promises: an accepted action must undo to exactly the state before it, a game
/// rebuilt from its action list must equal it, and a finished game must refuse everything.
pub fn run_actions(data: &[u8]) {
    let Some((&head, mut rest)) = data.split_first() else {
        return;
    };
    let rule_set = [RuleSet::Freestyle, RuleSet::Standard, RuleSet::Renju][(head % 3) as usize];
    let policy = [
        ForbiddenPolicy::Lose,
        ForbiddenPolicy::Reject,
        ForbiddenPolicy::Claim,
    ][(head / 3 % 3) as usize];
    let opening = [
        Opening::None,
        Opening::SwapAfterThree,
        Opening::SwapAfterThreeFifthTwoOptions,
        Opening::Swap1,
        Opening::Swap2,
        Opening::Soosorv { n: 2 },
        Opening::Taraguchi { n: 2 },
    ][(head / 9 % 7) as usize];
    let size = match (rule_set, (head >> 6) & 3) {
        (RuleSet::Renju, _) | (_, 0) => 15,
        (_, 1) => 19,
        _ => 20,
    };
    let rules = Rules::new(size, rule_set, policy, opening).expect("a valid choice");
    let mut game = Game::new(rules);
    let mut next = |n: usize| -> Option<Vec<u8>> {
        if rest.len() < n {
            return None;
        }
        let (taken, left) = rest.split_at(n);
        rest = left;
        Some(taken.to_vec())
    };
    let point = |x: u8, y: u8| Point::new(x % 20, y % 20);
    while let Some(op) = next(1) {
        let action = match op[0] % 10 {
            0 | 1 => {
                let b = match next(2) {
                    Some(b) => b,
                    None => break,
                };
                match point(b[0], b[1]) {
                    Some(p) => Action::place(p),
                    None => continue,
                }
            }
            2 => Action::DecideSwap {
                swap: op[0] & 0x80 != 0,
            },
            3 => {
                let b = match next(4) {
                    Some(b) => b,
                    None => break,
                };
                match (point(b[0], b[1]), point(b[2], b[3])) {
                    (Some(a), Some(c)) => Action::ProposeFifth { points: [a, c] },
                    _ => continue,
                }
            }
            4 => {
                let b = match next(2) {
                    Some(b) => b,
                    None => break,
                };
                match point(b[0], b[1]) {
                    Some(p) => Action::ChooseFifth { point: p },
                    None => continue,
                }
            }
            5 => Action::ClaimForbidden,
            6 => {
                let Some(b) = next(4) else { break };
                match (point(b[0], b[1]), point(b[2], b[3])) {
                    (Some(a), Some(c)) => Action::PlaceTwo { points: [a, c] },
                    _ => continue,
                }
            }
            7 => Action::DeclareOffers { count: op[0] >> 4 },
            8 => {
                let count = usize::from(op[0] >> 5) + 1;
                let Some(b) = next(2 * count) else { break };
                let points: Option<Vec<Point>> = b.chunks(2).map(|c| point(c[0], c[1])).collect();
                match points.as_deref().and_then(Offers::new) {
                    Some(offers) => Action::OfferFifths { offers },
                    None => continue,
                }
            }
            _ => {
                game.undo();
                continue;
            }
        };
        let before = game.clone();
        match game.apply(action) {
            Ok(_) => {
                assert!(
                    !before.status().is_over(),
                    "a finished game accepted {action:?}"
                );
                let mut undone = game.clone();
                assert_eq!(undone.undo(), Some(action));
                assert_eq!(
                    undone, before,
                    "undo of {action:?} did not restore the state"
                );
            }
            Err(_) => assert_eq!(game, before, "a refused action changed the game"),
        }
    }
    let rebuilt = Game::from_actions(rules, game.actions()).expect("the game's own actions replay");
    assert_eq!(rebuilt, game);
}

/// Takes `n` bytes off the front of `rest`, or `None` when fewer are left.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if rest.len() < n {
        return None;
    }
    let (taken, left) = rest.split_at(n);
    *rest = left;
    Some(taken)
}

/// Takes a length byte and that many bytes (at most what is left), as text.
fn take_text(rest: &mut &[u8]) -> Option<String> {
    let len = usize::from(take(rest, 1)?[0]);
    let len = len.min(rest.len());
    let bytes = take(rest, len)?;
    Some(String::from_utf8_lossy(bytes).into_owned())
}

/// Reads bytes as Othello moves (any square index, passes, undos) and record texts, and panics only if
/// `rules::othello` breaks a promise: a refused move changes nothing; an accepted one puts exactly one disc down
/// for the mover, turns exactly the flipped discs and hands the move to the other side (a pass moves no disc);
/// undo restores the state before; the game's record replays into the same game; a record text is either refused
/// with a typed error or read into a game whose own record reads back the same.
pub fn run_othello(data: &[u8]) {
    use crate::othello::{Game, Move, Square};
    let mut rest = data;
    let mut game = Game::new();
    while let Some(op) = take(&mut rest, 1) {
        let op = op[0];
        let mv = match op % 8 {
            0..=3 => {
                let Some(b) = take(&mut rest, 1) else { break };
                // Indices 64..=255 are no square: the constructor must say so, not wrap.
                match Square::new(b[0]) {
                    Some(s) => Move::Place(s),
                    None => {
                        assert!(b[0] >= 64, "square {} refused", b[0]);
                        continue;
                    }
                }
            }
            4 => Move::Pass,
            5 => {
                let before = game.clone();
                match game.undo() {
                    Some(_) => assert_eq!(game.moves().len() + 1, before.moves().len()),
                    None => assert_eq!(game, before, "undo at the start changed the game"),
                }
                continue;
            }
            _ => {
                let Some(text) = take_text(&mut rest) else {
                    break;
                };
                if let Ok(read) = Game::from_record(&text) {
                    let again = Game::from_record(&read.record()).expect("a record reads back");
                    assert_eq!(again, read, "record of {text:?} did not read back");
                }
                continue;
            }
        };
        let before = game.clone();
        let (black, white) = (
            before.position().black().count_ones(),
            before.position().white().count_ones(),
        );
        match game.play(mv) {
            Ok(played) => {
                assert!(!before.is_over(), "a finished game accepted {mv:?}");
                assert_eq!(played.colour, before.position().to_move());
                assert_eq!(played.mv, mv);
                assert_eq!(game.position().to_move(), played.colour.opposite());
                let flipped = played.flipped.len() as u32;
                let (b, w) = (
                    game.position().black().count_ones(),
                    game.position().white().count_ones(),
                );
                assert_eq!(game.position().black() & game.position().white(), 0);
                match (mv, played.colour) {
                    (Move::Pass, _) => {
                        assert_eq!(flipped, 0);
                        assert_eq!((b, w), (black, white));
                    }
                    (Move::Place(_), crate::Color::Black) => {
                        assert!(flipped > 0, "a placed disc flipped nothing");
                        assert_eq!((b, w), (black + 1 + flipped, white - flipped));
                    }
                    (Move::Place(_), crate::Color::White) => {
                        assert!(flipped > 0, "a placed disc flipped nothing");
                        assert_eq!((b, w), (black - flipped, white + 1 + flipped));
                    }
                }
                let mut undone = game.clone();
                assert_eq!(undone.undo(), Some(mv));
                assert_eq!(undone, before, "undo of {mv:?} did not restore the state");
            }
            Err(_) => assert_eq!(game, before, "a refused move changed the game"),
        }
    }
    let replayed = Game::from_moves(game.moves()).expect("the game's own moves replay");
    assert_eq!(replayed, game);
    let read = Game::from_record(&game.record()).expect("the game's own record reads");
    assert_eq!(read, game);
}

/// Reads bytes as international draughts moves (a listed move by index, or an arbitrary path of squares 0..=63
/// as PDN text), undos, and FEN and PDN texts, and panics only if `rules::draughts` breaks a promise: a refused
/// move changes nothing; an accepted one hands the move to the other side, keeps the mover's piece count (a man
/// reaching the far row becomes a king), removes exactly the captured pieces and is one of the listed legal
/// moves; undo restores the state before; FEN and PDN texts are refused with a typed error or read into values
/// that write and read back the same.
pub fn run_draughts(data: &[u8]) {
    use crate::draughts::{Game, Position};
    let mut rest = data;
    let mut game = Game::new();
    while let Some(op) = take(&mut rest, 1) {
        let op = op[0];
        let before = game.clone();
        let outcome = match op % 8 {
            0..=2 => {
                let Some(b) = take(&mut rest, 1) else { break };
                let legal = game.legal_moves();
                if legal.is_empty() {
                    assert!(game.status().is_over(), "no legal move in an ongoing game");
                    continue;
                }
                let mv = legal[usize::from(b[0]) % legal.len()].clone();
                game.play(&mv).map(|()| mv)
            }
            3 | 4 => {
                // A path of 2..=5 squares, numbers 0..=63 (0 and 51.. are no square), quiet or capturing.
                let Some(head) = take(&mut rest, 1) else {
                    break;
                };
                let len = 2 + usize::from(head[0] % 4);
                let Some(squares) = take(&mut rest, len) else {
                    break;
                };
                let sep = if head[0] & 0x80 != 0 { "x" } else { "-" };
                let text = squares
                    .iter()
                    .map(|s| (s % 64).to_string())
                    .collect::<Vec<_>>()
                    .join(sep);
                game.play_text(&text)
            }
            5 => {
                match game.undo() {
                    Some(_) => assert_eq!(game.moves().len() + 1, before.moves().len()),
                    None => assert_eq!(game, before, "undo at the start changed the game"),
                }
                continue;
            }
            6 => {
                let Some(text) = take_text(&mut rest) else {
                    break;
                };
                if let Ok(position) = Position::from_fen(&text) {
                    let again = Position::from_fen(&position.fen()).expect("a FEN reads back");
                    assert_eq!(again, position, "FEN of {text:?} did not read back");
                }
                continue;
            }
            _ => {
                let Some(text) = take_text(&mut rest) else {
                    break;
                };
                if let Ok(read) = Game::from_pdn(&text) {
                    let again = Game::from_pdn(&read.to_pdn(None)).expect("a PDN reads back");
                    assert_eq!(
                        again.moves(),
                        read.moves(),
                        "PDN of {text:?} did not read back"
                    );
                    assert_eq!(again.start(), read.start());
                }
                continue;
            }
        };
        match outcome {
            Ok(mv) => {
                assert!(!before.status().is_over(), "a finished game accepted {mv}");
                assert!(before.legal_moves().contains(&mv), "{mv} was not listed");
                let mover = before.position().turn();
                let (p, q) = (before.position(), game.position());
                assert_eq!(q.turn(), mover.opposite());
                let (men, kings) = p.count(mover);
                let (men2, kings2) = q.count(mover);
                assert_eq!(men + kings, men2 + kings2, "{mv} changed the mover's count");
                if mv.promotes() {
                    assert_eq!((men2, kings2), (men - 1, kings + 1));
                } else {
                    assert_eq!((men2, kings2), (men, kings));
                }
                let (theirs, theirs_kings) = p.count(mover.opposite());
                let (theirs2, theirs_kings2) = q.count(mover.opposite());
                let captured = mv.captured();
                assert_eq!(
                    theirs + theirs_kings - theirs2 - theirs_kings2,
                    captured.iter().count() as u32,
                    "{mv} removed other than its captures"
                );
                for s in captured.iter() {
                    assert!(p.pieces(mover.opposite()).contains(s));
                    assert!(q.piece_at(s).is_none());
                }
                let mut undone = game.clone();
                assert_eq!(undone.undo(), Some(mv.clone()));
                assert_eq!(undone, before, "undo of {mv} did not restore the state");
            }
            Err(_) => assert_eq!(game, before, "a refused move changed the game"),
        }
    }
    let read = Game::from_pdn(&game.to_pdn(None)).expect("the game's own PDN reads");
    assert_eq!(read.moves(), game.moves());
    assert_eq!(read.position(), game.position());
}

/// Reads bytes as insect chess moves (a listed move by index, or any two square indices 0..=127), undos, and
/// placement and move texts, and panics only if `rules::insect` breaks a promise: a refused move changes nothing;
/// an accepted one was listed, moves the mover's piece onto its end square, removes at most the piece that stood
/// there and hands the move to the other side; undo restores the state before; texts are refused with a typed
/// error or read into values that write back the same; the game's moves replay into the same game.
pub fn run_insect(data: &[u8]) {
    use crate::insect::{Game, Move, Position, Square};
    let mut rest = data;
    let mut game = Game::new();
    while let Some(op) = take(&mut rest, 1) {
        let op = op[0];
        let before = game.clone();
        let mv = match op % 8 {
            0..=2 => {
                let Some(b) = take(&mut rest, 1) else { break };
                let legal = game.legal_moves();
                if legal.is_empty() {
                    assert!(game.status().is_over(), "no legal move in an ongoing game");
                    continue;
                }
                legal[usize::from(b[0]) % legal.len()]
            }
            3 | 4 => {
                let Some(b) = take(&mut rest, 2) else { break };
                // Indices 77..=127 are no square: the constructor must say so, not wrap.
                match (Square::new(b[0] % 128), Square::new(b[1] % 128)) {
                    (Some(from), Some(to)) => Move::new(from, to),
                    _ => {
                        assert!(b[0] % 128 >= 77 || b[1] % 128 >= 77);
                        continue;
                    }
                }
            }
            5 => {
                match game.undo() {
                    Some(_) => assert_eq!(game.moves().len() + 1, before.moves().len()),
                    None => assert_eq!(game, before, "undo at the start changed the game"),
                }
                continue;
            }
            6 => {
                let Some(text) = take_text(&mut rest) else {
                    break;
                };
                if let Ok(position) = Position::from_placement(&text) {
                    assert_eq!(
                        position.placement(),
                        text,
                        "placement {text:?} wrote back otherwise"
                    );
                    let _ = Game::from_position(position).status();
                }
                continue;
            }
            _ => {
                let Some(text) = take_text(&mut rest) else {
                    break;
                };
                if let Ok(mv) = text.parse::<Move>() {
                    assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
                }
                continue;
            }
        };
        match game.apply(mv) {
            Ok(played) => {
                assert!(!before.status().is_over(), "a finished game accepted {mv}");
                assert!(before.legal_moves().contains(&mv), "{mv} was not listed");
                let (p, q) = (before.position(), game.position());
                let mover = p.turn();
                assert_eq!(played.side, mover);
                assert_eq!(q.turn(), mover.opposite());
                assert_eq!(q.piece_at(mv.to()), p.piece_at(mv.from()));
                assert_eq!(q.piece_at(mv.from()), None);
                assert_eq!(q.count(mover), p.count(mover));
                let taken = u32::from(played.captured.is_some());
                assert_eq!(q.count(mover.opposite()) + taken, p.count(mover.opposite()));
                let mut undone = game.clone();
                assert_eq!(undone.undo(), Some(mv));
                assert_eq!(undone, before, "undo of {mv} did not restore the state");
            }
            Err(e) => {
                assert!(!e.code().is_empty());
                assert!(
                    before.status().is_over() || !before.legal_moves().contains(&mv),
                    "{mv} was listed but refused: {}",
                    e.code()
                );
                assert_eq!(game, before, "a refused move changed the game");
            }
        }
    }
    let replayed = Game::from_moves(game.moves()).expect("the game's own moves replay");
    assert_eq!(replayed, game);
}
