//! The Othello brain: [`crate::othello::Engine`] at its levels 1–8.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, Game};

use super::{accepted, first_legal, Brain, BrainInfo};
use crate::othello::{Engine, Level};

/// Its registry entry.
pub(super) const INFO: BrainInfo = BrainInfo {
    name: "engine",
    about: "the Othello engine: midgame search, then the exact endgame solver",
    levels: 1..=8,
    make: |level, seed| Box::new(OthelloBrain::new(level, seed)),
};

/// The Othello engine at a level; its transposition tables stay between the moves of a game.
pub struct OthelloBrain {
    engine: Engine,
    level: Level,
}

impl OthelloBrain {
    /// The engine at `level` (clamped into 1–8), its noise following `seed`.
    pub fn new(level: u8, seed: u64) -> OthelloBrain {
        OthelloBrain {
            engine: Engine::new(seed),
            level: Level::new(level.clamp(1, 8)).expect("clamped into 1-8"),
        }
    }
}

impl Brain for OthelloBrain {
    fn name(&self) -> &'static str {
        INFO.name
    }

    fn level(&self) -> u8 {
        self.level.number()
    }

    fn choose(
        &mut self,
        game: &AnyGame,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<AnyAction> {
        let AnyGame::Othello(othello) = game else {
            return None;
        };
        if game.status().is_over() {
            return None;
        }
        let position = othello.rules_game().position();
        let chosen = self
            .engine
            .choose(position, self.level, budget, cancel)
            .map(AnyAction::Othello);
        // The engine's move is legal by its own tests; the game has the last word all the same.
        chosen
            .filter(|a| accepted(game, a))
            .or_else(|| first_legal(game))
    }
}
