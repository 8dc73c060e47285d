//! Arbitrary action sequences, for the fuzz target in `fuzz/` and for the crate's own tests.

use crate::{Action, ForbiddenPolicy, Game, Opening, Point, RuleSet, Rules};

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
    ][(head / 9 % 3) as usize];
    let size = if head & 0x80 != 0 && rule_set != RuleSet::Renju {
        19
    } else {
        15
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
        let action = match op[0] % 7 {
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
