//! The draughts brain: [`crate::draughts::Engine`] at its levels 1–8.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, DraughtsAction, Game};

use super::{accepted, first_legal, Brain, BrainInfo};
use crate::draughts::{Engine, Level};

/// Its registry entry.
pub(super) const INFO: BrainInfo = BrainInfo {
    name: "engine",
    about: "the draughts engine: PVS with capture extensions and the rules' draws",
    levels: 1..=8,
    make: |level, seed| Box::new(DraughtsBrain::new(level, seed)),
};

/// The draughts engine at a level; its transposition table stays between the moves of a game.
pub struct DraughtsBrain {
    engine: Engine,
    level: Level,
}

impl DraughtsBrain {
    /// The engine at `level` (clamped into 1–8), its noise following `seed`.
    pub fn new(level: u8, seed: u64) -> DraughtsBrain {
        DraughtsBrain {
            engine: Engine::new(seed),
            level: Level::new(level.clamp(1, 8)).expect("clamped into 1-8"),
        }
    }
}

impl Brain for DraughtsBrain {
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
        let AnyGame::Draughts(draughts) = game else {
            return None;
        };
        if game.status().is_over() {
            return None;
        }
        let chosen = self
            .engine
            .choose(draughts.rules_game(), self.level, budget, cancel)
            .map(|mv| AnyAction::Draughts(DraughtsAction::of(&mv)));
        // The engine's move is one of the rules' listed moves; the game has the last word all the same.
        chosen
            .filter(|a| accepted(game, a))
            .or_else(|| first_legal(game))
    }
}
