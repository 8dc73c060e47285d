//! The insect-chess brain: [`crate::insect::Engine`] at its levels 1–4.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, Game};

use super::evaluation::through_forced;
use super::{
    accepted, first_legal, legal_line, Brain, BrainInfo, Evaluation, Judging, Score, MAX_LINE,
};
use crate::insect::{Engine, Level, MATE_BOUND};

/// Its registry entry.
pub(super) const INFO: BrainInfo = BrainInfo {
    name: "engine",
    about: "the insect-chess engine: alpha-beta with a capture search and food threats",
    levels: 1..=4,
    make: |level, seed| Box::new(InsectBrain::new(level, seed)),
    // The evaluation's points (a tiger beetle 380, a scorpion 1,000).
    judging: Judging {
        drop: Some(("eval_drop", [150, 300, 700])),
        exact: [2, 4, 8],
        scale: 800.0,
    },
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

    /// The search's score in the evaluation's units (a scorpion is worth 1,000); a food win or a mate found
    /// is a win or a loss.
    fn analyse(
        &mut self,
        game: &AnyGame,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Evaluation> {
        if !matches!(game, AnyGame::Insect(_)) || game.status().is_over() {
            return None;
        }
        through_forced(game, |position| {
            let AnyGame::Insect(insect) = position else {
                return None;
            };
            let report =
                self.engine
                    .think(insect.rules_game(), Level::new(self.level), budget, cancel)?;
            let score = match report.score {
                s if s > MATE_BOUND => Score::Win,
                s if s < -MATE_BOUND => Score::Loss,
                s => Score::Units(s),
            };
            let pv = report.pv.into_iter().take(MAX_LINE).map(AnyAction::Insect);
            Some(Evaluation {
                score,
                pv: legal_line(position, pv),
                best: AnyAction::Insect(report.best),
                depth: u32::try_from(report.depth).unwrap_or(0),
                nodes: report.nodes,
                vcf: false,
            })
        })
    }
}
