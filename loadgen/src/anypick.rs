//! Move choices for rooms of games other than Gomoku, from the typed client's replica of the game: the
//! random-legal brain of the engine's registry (`engine::brain::RandomBrain`), which picks from the game's own
//! `legal_actions()`, so every game of the list is played without a line here.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::brain::{Brain, RandomBrain};
use games::{AnyGame, Game, GameKind};
use rand::Rng;

/// The action text `game`'s side to act plays, or `None` when it has nothing to choose: the game is over, it is
/// Gomoku (the stone picker plays those), or its only action is forced (an Othello pass, which the room takes).
pub fn pick(game: &AnyGame, rng: &mut impl Rng) -> Option<String> {
    if game.kind() == GameKind::Gomoku || game.forced().is_some() {
        return None;
    }
    let mut brain = RandomBrain::new(rng.random());
    brain
        .choose(game, Duration::ZERO, &AtomicBool::new(false))
        .map(|action| action.notation())
}

#[cfg(test)]
mod tests {
    use games::{AnyConfig, Seat};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;

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
    fn every_other_game_picked_for_both_sides_plays_only_legal_actions_to_its_end() {
        for kind in GameKind::ALL.into_iter().filter(|&k| k != GameKind::Gomoku) {
            for seed in 0..10 {
                let game = play_out(kind.default_config(), seed, 5_000);
                assert!(
                    game.action_count() > 20,
                    "{kind} seed {seed}: only {} actions",
                    game.action_count()
                );
                assert!(
                    game.to_act().is_none(),
                    "{kind} seed {seed}: the game did not end"
                );
            }
        }
    }

    #[test]
    fn the_same_seed_picks_the_same_game() {
        for kind in GameKind::ALL.into_iter().filter(|&k| k != GameKind::Gomoku) {
            let a = play_out(kind.default_config(), 3, 60);
            let b = play_out(kind.default_config(), 3, 60);
            assert_eq!(a.actions(), b.actions(), "{kind}");
        }
    }

    #[test]
    fn nothing_is_picked_for_a_gomoku_game() {
        let game = AnyGame::new(GameKind::Gomoku.default_config(), Seat::Zero);
        assert_eq!(pick(&game, &mut StdRng::seed_from_u64(1)), None);
    }
}
