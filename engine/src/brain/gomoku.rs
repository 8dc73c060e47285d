//! The Gomoku/Renju brain: [`crate::Engine`] at its levels 1–8, answering every action a Gomoku game asks
//! under every opening rule.
//!
//! [`Engine::think`] answers every phase (stones, the swap decisions, the fifth-move proposals, offers and
//! choices, declarations, claims). Swap2's answer after three stones goes to [`Engine::swap2`] instead, the
//! one engine call that may also place the two extra stones; its answer maps onto the room's actions (take
//! black: `swap`; take white: `keep`, and the stone comes at the next call; two more: `add`).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, Game};
use rules::{Action, Opening, Phase};

use super::{accepted, first_legal, Brain, BrainInfo};
use crate::{Engine, Limits, Swap2Answer, TimeBudget};

/// Its registry entry.
pub(super) const INFO: BrainInfo = BrainInfo {
    name: "engine",
    about: "the Gomoku/Renju engine: threat search and PVS",
    levels: 1..=8,
    make: |level, seed| Box::new(GomokuBrain::new(Limits::level(level), seed)),
};

/// The Gomoku engine at a level; its tables stay between the moves of a game (and are cleared when the rules
/// change).
pub struct GomokuBrain {
    engine: Box<Engine>,
    level: u8,
}

impl GomokuBrain {
    /// The engine with these limits (a level, optionally tighter caps), its random choices following `seed`.
    pub fn new(limits: Limits, seed: u64) -> GomokuBrain {
        GomokuBrain {
            engine: Box::new(Engine::new(limits, seed)),
            level: limits.level.clamp(1, 8),
        }
    }

    /// Swap2's second player after three stones, from the stones alone (the engine's Swap2 API plays them
    /// under no opening rule); `None` when it has no answer that maps onto an action here.
    fn swap2_answer(
        &mut self,
        game: &rules::Game,
        time: &TimeBudget,
        cancel: &AtomicBool,
    ) -> Option<Action> {
        let mut plain = rules::Game::new(game.rules().with_opening(Opening::None));
        for &p in game.moves() {
            plain.apply(Action::place(p)).ok()?;
        }
        match self.engine.swap2(&plain, time, cancel).ok()? {
            Swap2Answer::Swap => Some(Action::DecideSwap { swap: true }),
            Swap2Answer::Play(_) => Some(Action::DecideSwap { swap: false }),
            Swap2Answer::PlaceTwo(points) => Some(Action::PlaceTwo { points }),
            Swap2Answer::Three(_) => None,
        }
    }
}

impl Brain for GomokuBrain {
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
        let AnyGame::Gomoku(gomoku) = game else {
            return None;
        };
        // None once over.
        let phase = gomoku.status().phase().copied()?;
        let rules_game = gomoku.rules_game();
        let time = TimeBudget::PerMove(budget);
        let swap2 = match phase {
            Phase::Swap2Decision => self.swap2_answer(rules_game, &time, cancel),
            _ => None,
        };
        let action = swap2.or_else(|| {
            self.engine
                .think(rules_game, &time, cancel)
                .ok()
                .map(|d| d.action)
        });
        // The engine checks its answer against the rules itself; the game has the last word all the same.
        action
            .map(AnyAction::Gomoku)
            .filter(|a| accepted(game, a))
            .or_else(|| first_legal(game))
    }
}
