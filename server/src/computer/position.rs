//! The game the engine searches, rebuilt from what a Gomoku room tells its clients (the replica: the stones in
//! order, whether the players swapped, the two fifth-move options while white chooses).

use rules::{Action, Game, Phase, Point, Rules, Status};

/// Why the room's picture did not rebuild into a game (the replica and the rules disagree: resynchronise).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RebuildError(pub String);

/// The game of `moves` under `rules`: the swap decision after move 3 is `swapped` (taken when a fourth stone
/// followed or `swap_pending` is false: the room no longer waits for it); a fifth stone under the two-options rule
/// is replayed as a proposal of it and some other point white did not choose (which one does not change the
/// position); and while white chooses, `fifth_options` is the pending proposal.
pub fn rebuild(
    rules: Rules,
    moves: &[Point],
    swapped: bool,
    swap_pending: bool,
    fifth_options: Option<[Point; 2]>,
) -> Result<Game, RebuildError> {
    let mut game = Game::new(rules);
    let apply = |game: &mut Game, action: Action| {
        game.apply(action)
            .map(|_| ())
            .map_err(|e| RebuildError(format!("{action:?}: {e}")))
    };
    for &point in moves {
        if phase(&game) == Some(Phase::SwapDecision) {
            apply(&mut game, Action::DecideSwap { swap: swapped })?;
        }
        if phase(&game) == Some(Phase::ProposeFifth) {
            let other = other_option(&game, point)
                .ok_or_else(|| RebuildError(format!("no second fifth option beside {point}")))?;
            apply(
                &mut game,
                Action::ProposeFifth {
                    points: [point, other],
                },
            )?;
            apply(&mut game, Action::ChooseFifth { point })?;
            continue;
        }
        apply(&mut game, Action::Place { point })?;
    }
    if phase(&game) == Some(Phase::SwapDecision) && !swap_pending {
        apply(&mut game, Action::DecideSwap { swap: swapped })?;
    }
    if let (Some(Phase::ProposeFifth), Some(points)) = (phase(&game), fifth_options) {
        apply(&mut game, Action::ProposeFifth { points })?;
    }
    Ok(game)
}

fn phase(game: &Game) -> Option<Phase> {
    match game.status() {
        Status::Ongoing { phase, .. } => Some(phase),
        _ => None,
    }
}

/// A point that the rules accept beside `chosen` as black's two fifth-move options.
fn other_option(game: &Game, chosen: Point) -> Option<Point> {
    let size = game.rules().size();
    (0..size)
        .flat_map(|y| (0..size).map(move |x| (x, y)))
        .filter_map(|(x, y)| Point::new(x, y))
        .filter(|&p| p != chosen)
        .find(|&other| {
            game.check(Action::ProposeFifth {
                points: [chosen, other],
            })
            .is_ok()
        })
}

#[cfg(test)]
mod tests {
    use rules::{ForbiddenPolicy, Opening, RuleSet};

    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn renju(opening: Opening) -> Rules {
        Rules::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, opening).unwrap()
    }

    #[test]
    fn stones_rebuild_the_same_game_as_their_actions() {
        let moves = [p("h8"), p("h9"), p("j9"), p("j8")];
        let game = rebuild(Rules::standard(), &moves, false, false, None).unwrap();
        assert_eq!(game.moves(), &moves);
    }

    #[test]
    fn the_swap_and_the_fifth_options_are_replayed_into_the_opening() {
        let rules = renju(Opening::SwapAfterThreeFifthTwoOptions);
        let moves = [p("h8"), p("h9"), p("j9"), p("g10")];
        let choosing = rebuild(rules, &moves, true, false, Some([p("j10"), p("k11")])).unwrap();
        assert!(matches!(
            choosing.status(),
            Status::Ongoing {
                phase: Phase::ChooseFifth { .. },
                ..
            }
        ));
        let mut chosen = choosing.clone();
        chosen
            .apply(Action::ChooseFifth { point: p("j10") })
            .unwrap();
        let mut all = moves.to_vec();
        all.push(p("j10"));
        all.push(p("g8"));
        let later = rebuild(rules, &all, true, false, None).unwrap();
        assert_eq!(later.moves(), &all[..]);
        assert!(later.colours_swapped());
    }

    #[test]
    fn the_swap_decision_after_move_three_is_pending_or_taken_as_the_room_says() {
        let rules = renju(Opening::SwapAfterThree);
        let moves = [p("h8"), p("h9"), p("j9")];
        let pending = rebuild(rules, &moves, false, true, None).unwrap();
        assert!(matches!(
            pending.status(),
            Status::Ongoing {
                phase: Phase::SwapDecision,
                ..
            }
        ));
        let swapped = rebuild(rules, &moves, true, false, None).unwrap();
        assert!(swapped.colours_swapped());
        assert!(matches!(
            swapped.status(),
            Status::Ongoing {
                phase: Phase::Place,
                to_act: rules::Color::White,
            }
        ));
    }

    #[test]
    fn stones_the_rules_refuse_are_a_typed_error() {
        let e = rebuild(Rules::standard(), &[p("h8"), p("h8")], false, false, None).unwrap_err();
        assert!(e.0.contains("Place"), "{e:?}");
    }
}
