//! The Gomoku/Renju brain: [`crate::Engine`] at its levels 1–8, answering every action a Gomoku game asks
//! under every opening rule.
//!
//! [`Engine::think`] answers every phase (stones, the swap decisions, the fifth-move proposals, offers and
//! choices, declarations, claims). Swap2's answer after three stones goes to [`Engine::swap2`] instead, the
//! one engine call that may also place the two extra stones; its answer maps onto the room's actions (take
//! black: `swap`; take white: `keep`, and the stone comes at the next call; two more: `add`).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use games::{AnyAction, AnyGame, Game};
use rules::{Action, Opening, Phase};

use super::{
    accepted, first_legal, legal_line, Brain, BrainInfo, Evaluation, Judging, Score, MAX_LINE,
};
use crate::position::{class, point, Position};
use crate::search::{Budget, WIN_BOUND};
use crate::threat::Threats;
use crate::{Engine, Limits, Swap2Answer, TimeBudget};

/// The most fours a VCF the analysis looks for may take.
pub const ANALYSIS_VCF_DEPTH: u32 = 20;

/// Its registry entry.
pub(super) const INFO: BrainInfo = BrainInfo {
    name: "engine",
    about: "the Gomoku/Renju engine: threat search and PVS",
    levels: 1..=8,
    make: |level, seed| Box::new(GomokuBrain::new(Limits::level(level), seed)),
    // Its evaluation's points have no unit a player reads: a VCF or a proved win missed or allowed is judged.
    judging: Judging::THREATS_ONLY,
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

    /// The engine's score in its evaluation's points (a proved win or loss beyond ±999,000). While stones are
    /// played, a threat search first looks for a VCF of the side to act (at most `ANALYSIS_VCF_DEPTH` fours,
    /// within half the budget): one found is a win, its first four the best move, and `vcf` says so.
    fn analyse(
        &mut self,
        game: &AnyGame,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Evaluation> {
        let AnyGame::Gomoku(gomoku) = game else {
            return None;
        };
        let phase = gomoku.status().phase().copied()?;
        let to_act = gomoku.status().to_act()?;
        let rules_game = gomoku.rules_game();
        let start = Instant::now();
        let vcf = if phase == Phase::Place && rules_game.claimable().is_none() {
            let mut pos = Position::from_board(rules_game.rules(), rules_game.board());
            // The opponent's four must be answered first: no VCF can start before it.
            if pos.count(to_act.opposite(), class::FIVE) > 0 {
                None
            } else {
                let mut threats = Threats::with_cap(1 << 16);
                let mut limit = Budget::new(u64::MAX, Some(start + budget / 2), cancel);
                threats.vcf(&mut pos, to_act, ANALYSIS_VCF_DEPTH, &mut limit)
            }
        } else {
            None
        };
        let left = budget.saturating_sub(start.elapsed()).max(budget / 4);
        let decision = self
            .engine
            .think(rules_game, &TimeBudget::PerMove(left), cancel)
            .ok()?;
        let first_four = vcf
            .as_ref()
            .and_then(|line| line.first())
            .map(|&i| AnyAction::Gomoku(Action::place(point(i))))
            .filter(|a| accepted(game, a));
        let engine_best = AnyAction::Gomoku(decision.action);
        let best = first_four.clone().unwrap_or(engine_best.clone());
        let line = if best == engine_best {
            // The engine's line starts with its action's stone when that places one.
            let stones = decision
                .pv
                .iter()
                .map(|&p| AnyAction::Gomoku(Action::place(p)));
            let mut line: Vec<AnyAction> = stones.take(MAX_LINE).collect();
            if line.first() != Some(&best) {
                line.insert(0, best.clone());
            }
            legal_line(game, line)
        } else {
            vec![best.clone()]
        };
        let score = if first_four.is_some() || decision.score > WIN_BOUND {
            Score::Win
        } else if decision.score < -WIN_BOUND {
            Score::Loss
        } else {
            Score::Units(decision.score)
        };
        Some(Evaluation {
            score,
            pv: if line.is_empty() {
                vec![best.clone()]
            } else {
                line
            },
            best,
            depth: u32::try_from(decision.depth).unwrap_or(0),
            nodes: decision.nodes,
            vcf: first_four.is_some(),
        })
    }
}
