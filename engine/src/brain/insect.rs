//! The insect-chess brain: [`crate::insect::Engine`] at its levels 1–4.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, Game};

use super::{accepted, first_legal, Brain, BrainInfo};
use crate::insect::{Engine, Level};

/// Its registry entry.
pub(super) const INFO: BrainInfo = BrainInfo {
    name: "engine",
    about: "the insect-chess engine: alpha-beta with a capture search and food threats",
    levels: 1..=4,
    make: |level, seed| Box::new(InsectBrain::new(level, seed)),
};

/// The insect-chess engine at a level; its transposition table stays between the moves of a game.
pub struct InsectBrain {
    engine: Engine,
    level: u8,
}

impl InsectBrain {
    /// The engine at `level` (clamped into 1–4), its noise following `seed`.
    pub fn new(level: u8, seed: u64) -> InsectBrain {
        InsectBrain {
            engine: Engine::new(seed),
            level: level.clamp(1, 4),
        }
    }
}

impl Brain for InsectBrain {
    fn name(&self) -> &'static str {
        INFO.name
    }

    fn level(&self) -> u8 {
        self.level
    }

    fn choose(
        &mut self,
        game: &AnyGame,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<AnyAction> {
        let AnyGame::Insect(insect) = game else {
            return None;
        };
        if game.status().is_over() {
            return None;
        }
        let chosen = self
            .engine
            .choose(insect.rules_game(), Level::new(self.level), budget, cancel)
            .map(AnyAction::Insect);
        // The engine's move is legal by its own tests; the game has the last word all the same.
        chosen
            .filter(|a| accepted(game, a))
            .or_else(|| first_legal(game))
    }
}
