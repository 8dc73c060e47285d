//! The draughts brain: [`crate::draughts::Engine`] at its levels 1–8.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, DraughtsAction, Game};

use super::evaluation::through_forced;
use super::{
    accepted, first_legal, legal_line, Brain, BrainInfo, Evaluation, Judging, Score, MAX_LINE,
};
use crate::draughts::{Engine, Level};

/// Its registry entry.
pub(super) const INFO: BrainInfo = BrainInfo {
    name: "engine",
    about: "the draughts engine: PVS with capture extensions and the rules' draws",
    levels: 1..=8,
    make: |level, seed| Box::new(DraughtsBrain::new(level, seed)),
    // Hundredths of a man (a king about three): material lost; two men draw at half the graph.
    judging: Judging {
        drop: Some(("material_loss", [60, 100, 250])),
        exact: [2, 4, 8],
        scale: 200.0,
    },
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

    /// The search's score in hundredths of a man (a forced win or loss beyond ±29,000); a forced move (one
    /// legal capture) is analysed after it, as the search would answer it unsearched.
    fn analyse(
        &mut self,
        game: &AnyGame,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Evaluation> {
        if !matches!(game, AnyGame::Draughts(_)) || game.status().is_over() {
            return None;
        }
        through_forced(game, |position| {
            let AnyGame::Draughts(draughts) = position else {
                return None;
            };
            let report = self
                .engine
                .think(draughts.rules_game(), self.level, budget, cancel)?;
            let score = match report.score {
                s if s > 29_000 => Score::Win,
                s if s < -29_000 => Score::Loss,
                s => Score::Units(s),
            };
            let best = AnyAction::Draughts(DraughtsAction::of(&report.best));
            let pv = report
                .pv
                .iter()
                .take(MAX_LINE)
                .map(|mv| AnyAction::Draughts(DraughtsAction::of(mv)));
            Some(Evaluation {
                score,
                pv: legal_line(position, pv),
                best,
                depth: report.depth,
                nodes: report.nodes,
                vcf: false,
            })
        })
    }
}
