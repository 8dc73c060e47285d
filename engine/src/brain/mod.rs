//! A computer player for any game behind one trait, [`Brain`], and the registry of the brains each game has.
//!
//! A brain is asked for the next action of whoever must act in an [`AnyGame`], within a time budget, and stops
//! early when a cancel flag is raised. What it returns is an action the game accepts now (it asks the game's
//! own [`Game::legal_actions`] or its engine, and the rules judge either), or `None` once the game is over.
//!
//! The registry lists, for each [`GameKind`], the brains that play it and their levels ([`brains`]), and builds
//! one by name, level and seed ([`make`]). Adding a computer for a game is one file in this folder (the brain
//! and its [`BrainInfo`]) and one line in that game's list below.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::Duration;
//! use engine::brain::{self, Brain};
//! use games::{AnyConfig, AnyGame, Game, GameKind, Seat};
//! let config = AnyConfig::decode("othello", "scoring=japanese").unwrap();
//! let game = AnyGame::new(config, Seat::Zero);
//! let info = &brain::brains(GameKind::Othello)[0];
//! let mut brain = brain::make(GameKind::Othello, info.name, 3, 7).unwrap();
//! let action = brain.choose(&game, Duration::from_millis(100), &AtomicBool::new(false)).unwrap();
//! assert!(game.clone().apply(action).is_ok());
//! ```

use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{AnyAction, AnyGame, Game, GameKind};

mod draughts;
mod evaluation;
mod gomoku;
mod insect;
mod othello;
mod random;

pub use draughts::DraughtsBrain;
pub use evaluation::{legal_line, Evaluation, Judging, Score, MAX_LINE};
pub use gomoku::GomokuBrain;
pub use insect::InsectBrain;
pub use othello::OthelloBrain;
pub use random::RandomBrain;

/// A computer player: chooses the next action of the side to act.
///
/// `Send` so that a server can move it to a search thread and back with what it learnt (transposition tables).
pub trait Brain: Send {
    /// The brain's registered name (`engine`, `random`).
    fn name(&self) -> &'static str;

    /// The level it plays at (1 for a brain with one level).
    fn level(&self) -> u8;

    /// The action to take in `game` for the side to act, chosen within `budget` (the brain may also stop
    /// sooner, at its level's own cap). `None` exactly when the game is over, or when `game` is not a game
    /// this brain plays.
    ///
    /// `cancel` raised (before or during the call) makes it return promptly, within milliseconds: still a
    /// legal action (the best found so far, or a quick legal one) — never an illegal one. A caller that
    /// cancelled because the position changed throws the answer away.
    fn choose(
        &mut self,
        game: &AnyGame,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<AnyAction>;

    /// What the brain thinks of `game` for the side to act: a score, its best action and the line it expects,
    /// searched without the level's noise within `budget` (a raised `cancel` stops it promptly). `None` exactly
    /// when the game is over or not this brain's game. A brain without an evaluation of its own (the random
    /// one) answers with its choice and a score of 0.
    fn analyse(
        &mut self,
        game: &AnyGame,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Evaluation> {
        let best = self.choose(game, budget, cancel)?;
        Some(Evaluation {
            score: Score::Units(0),
            pv: vec![best.clone()],
            best,
            depth: 0,
            nodes: 0,
            vcf: false,
        })
    }

    /// A finished game's score as `side` sees it, in the terms [`Brain::analyse`] scores the positions before it
    /// (Othello: the exact final disc difference, as the solver counts it), so that the last move is judged like
    /// the others; `None` (the default) where only the result counts (a win, a loss, a draw).
    fn final_score(&self, game: &AnyGame, side: rules::Color) -> Option<Score> {
        let _ = (game, side);
        None
    }
}

/// One registered brain: its name, its levels, and how to build it.
#[derive(Clone, Debug)]
pub struct BrainInfo {
    /// Stable name, unique within a game's list (`engine`, `random`): what a configuration or a CLI names.
    pub name: &'static str,
    /// What it is, for a list shown to people.
    pub about: &'static str,
    /// The levels it plays, weakest first.
    pub levels: RangeInclusive<u8>,
    /// Builds it at a level (within [`BrainInfo::levels`]) with a seed for its random choices.
    pub make: fn(level: u8, seed: u64) -> Box<dyn Brain>,
    /// How an analysis by this brain judges moves.
    pub judging: Judging,
}

/// The brains each game has, strongest first (the first is what a game's computer opponent plays by default).
pub fn brains(kind: GameKind) -> &'static [BrainInfo] {
    match kind {
        GameKind::Gomoku => &[gomoku::INFO, random::INFO],
        GameKind::Othello => &[othello::INFO, random::INFO],
        GameKind::Draughts => &[draughts::INFO, random::INFO],
        GameKind::Insect => &[insect::INFO, random::INFO],
    }
}

/// Builds the brain `name` of a game at `level`, its random choices following `seed`; `None` when the game
/// has no such brain or the brain no such level.
pub fn make(kind: GameKind, name: &str, level: u8, seed: u64) -> Option<Box<dyn Brain>> {
    brains(kind)
        .iter()
        .find(|info| info.name == name && info.levels.contains(&level))
        .map(|info| (info.make)(level, seed))
}

/// Whether an action is one the game accepts now (the brains' last check before answering).
fn accepted(game: &AnyGame, action: &AnyAction) -> bool {
    game.clone().apply(action.clone()).is_ok()
}

/// A legal action without thinking: the first listed one (`None` once over).
fn first_legal(game: &AnyGame) -> Option<AnyAction> {
    game.legal_actions().into_iter().next()
}
