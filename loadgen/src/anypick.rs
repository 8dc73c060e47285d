//! Move choices for rooms of games other than Gomoku, from the typed client's replica of the game: Othello's
//! greedy picker (the square that leaves the mover the most discs, with a random pick one time in five) and
//! draughts' random legal move (the listing already holds only the majority captures).

use games::{AnyAction, AnyDelta, AnyGame, AnyLegal, Game};
use rand::Rng;

/// The action text `game`'s side to act plays, or `None` when it has nothing to choose: the game is over, it is
/// Gomoku (the stone picker plays those), or its only action is forced (an Othello pass, which the room takes).
pub fn pick(game: &AnyGame, rng: &mut impl Rng) -> Option<String> {
    let mover = game.to_act()?;
    match game.legal() {
        AnyLegal::Othello(legal) => {
            if legal.places.is_empty() {
                return None;
            }
            if rng.random_range(0..5) == 0 {
                let square = legal.places[rng.random_range(0..legal.places.len())];
                return Some(square.to_string());
            }
            let discs = |square| {
                let mut after = game.clone();
                let action = AnyAction::Othello(rules::othello::Move::Place(square));
                match after.apply(action) {
                    Ok(AnyDelta::Othello(d)) => match mover {
                        rules::Color::Black => d.black,
                        rules::Color::White => d.white,
                    },
                    _ => 0,
                }
            };
            let best = legal.places.iter().copied().max_by_key(|&sq| discs(sq))?;
            Some(best.to_string())
        }
        AnyLegal::Draughts(legal) => {
            if legal.moves.is_empty() {
                return None;
            }
            let m = &legal.moves[rng.random_range(0..legal.moves.len())];
            Some(AnyAction::Draughts(m.action()).notation())
        }
        AnyLegal::Gomoku(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use games::{AnyConfig, DraughtsConfig, GomokuConfig, OthelloConfig, Seat};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;

    fn othello() -> AnyConfig {
        AnyConfig::Othello(OthelloConfig::new(rules::othello::Scoring::Japanese))
    }

    /// Plays `config`'s game with the picker for both sides until it ends or `limit` actions were played, taking
    /// forced actions as the room does; every pick must be accepted.
    fn play_out(config: AnyConfig, seed: u64, limit: usize) -> AnyGame {
        let mut game = AnyGame::new(config, Seat::Zero);
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..limit {
            if let Some(forced) = game.forced() {
                game.apply(forced).expect("a forced action plays");
                continue;
            }
            let Some(text) = pick(&game, &mut rng) else {
                break;
            };
            let action = game.parse_action(&text).expect("the pick reads back");
            game.apply(action)
                .unwrap_or_else(|e| panic!("{text} refused: {e:?}"));
        }
        game
    }

    #[test]
    fn othello_games_picked_for_both_sides_play_to_their_end() {
        for seed in 0..20 {
            let game = play_out(othello(), seed, 200);
            assert!(game.to_act().is_none(), "seed {seed}: the game did not end");
        }
    }

    #[test]
    fn the_othello_picker_takes_the_square_that_leaves_the_most_discs_most_of_the_time() {
        // After f5 d6 c3 white's replies leave it different disc counts.
        let mut game = AnyGame::new(othello(), Seat::Zero);
        for m in ["f5", "d6", "c3"] {
            let a = game.parse_action(m).unwrap();
            game.apply(a).unwrap();
        }
        let AnyLegal::Othello(legal) = game.legal() else {
            unreachable!()
        };
        let count = |sq: &str| {
            let mut g = game.clone();
            match g.apply(g.parse_action(sq).unwrap()).unwrap() {
                AnyDelta::Othello(d) => d.white,
                _ => unreachable!(),
            }
        };
        let best = legal
            .places
            .iter()
            .map(|s| count(&s.to_string()))
            .max()
            .unwrap();
        let mut rng = StdRng::seed_from_u64(7);
        let greedy = (0..100)
            .filter(|_| count(&pick(&game, &mut rng).unwrap()) == best)
            .count();
        assert!(greedy >= 70, "{greedy} of 100 picks were greedy");
    }

    #[test]
    fn draughts_games_picked_for_both_sides_only_play_legal_moves() {
        for seed in 0..10 {
            let game = play_out(AnyConfig::Draughts(DraughtsConfig::default()), seed, 300);
            assert!(
                game.action_count() > 20,
                "seed {seed}: only {} actions",
                game.action_count()
            );
        }
    }

    #[test]
    fn nothing_is_picked_for_a_gomoku_game() {
        let config = GomokuConfig::new(
            15,
            rules::RuleSet::Freestyle,
            rules::ForbiddenPolicy::Reject,
            rules::Opening::None,
        )
        .unwrap();
        let game = AnyGame::new(AnyConfig::Gomoku(config), Seat::Zero);
        assert_eq!(pick(&game, &mut StdRng::seed_from_u64(1)), None);
    }
}
