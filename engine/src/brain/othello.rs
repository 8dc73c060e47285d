//! The Othello brain: [`crate::othello::Engine`] at its levels 1–8.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, Game};

use super::evaluation::through_forced_to;
use super::{
    accepted, first_legal, legal_line, Brain, BrainInfo, Evaluation, Judging, Score, MAX_LINE,
};
use crate::othello::{Engine, Evaluation as OthelloScore, Level};

/// Its registry entry.
pub(super) const INFO: BrainInfo = BrainInfo {
    name: "engine",
    about: "the Othello engine: midgame search, then the exact endgame solver",
    levels: 1..=8,
    make: |level, seed| Box::new(OthelloBrain::new(level, seed)),
    // Hundredths of a disc; the solver's exact discs from 2, 4 and 8; ten discs draw at half the graph.
    judging: Judging {
        drop: Some(("eval_drop", [400, 800, 1600])),
        exact: [2, 4, 8],
        scale: 1_000.0,
    },
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

    /// The midgame search's score in hundredths of a disc, or the solver's exact disc difference once the
    /// ending is within its reach; a pass is analysed after it.
    fn analyse(
        &mut self,
        game: &AnyGame,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Evaluation> {
        if !matches!(game, AnyGame::Othello(_)) || game.status().is_over() {
            return None;
        }
        through_forced_to(game, final_discs, |position| {
            let AnyGame::Othello(othello) = position else {
                return None;
            };
            let report =
                self.engine
                    .think(othello.rules_game().position(), self.level, budget, cancel)?;
            let score = match report.evaluation {
                // Beyond ±15,000 the search saw the game's end.
                OthelloScore::Heuristic(s) if s > 15_000 => Score::Win,
                OthelloScore::Heuristic(s) if s < -15_000 => Score::Loss,
                OthelloScore::Heuristic(s) => Score::Units(s),
                OthelloScore::Exact(d) => Score::Exact(d),
            };
            let best = AnyAction::Othello(report.best);
            let pv = report.pv.into_iter().take(MAX_LINE).map(AnyAction::Othello);
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

    /// The final disc difference of a board played out, the empty squares going to the winner (the solver's
    /// count); `None` for a game not over, or over before the board was (resigned, lost on time).
    fn final_score(&self, game: &AnyGame, side: rules::Color) -> Option<Score> {
        final_discs(game, side)
    }
}

/// The final disc difference of a game played out for `side`, the empty squares going to the winner: the
/// solver's count, so that a last move is judged by the discs it lost like every move within the solver's reach.
/// `None` for a game not over, or over before the board was (resigned, lost on time).
fn final_discs(game: &AnyGame, side: rules::Color) -> Option<Score> {
    let AnyGame::Othello(othello) = game else {
        return None;
    };
    let position = othello.rules_game().position();
    let (player, opponent) = position.sides();
    // Only a game played out counts discs: one resigned or lost on time is judged by its result.
    let board = crate::othello::board::moves;
    if !game.status().is_over() || board(player, opponent) != 0 || board(opponent, player) != 0 {
        return None;
    }
    let diff = crate::othello::board::final_score(player, opponent);
    Some(Score::Exact(if position.to_move() == side {
        diff
    } else {
        -diff
    }))
}
