//! A Gomoku/Renju engine, judged only through [`rules`]: whatever it returns is an action the rules accept.
//!
//! - [`Position`] is its own board: line masks, and for every empty point the pattern each colour would make
//!   along each line ([`pattern`]), kept up to date stone by stone, with each point's threat class and value.
//!   Under Renju the rules' incremental [`rules::renju::ForbiddenSet`] says where black may not play.
//! - [`search`] is iterative deepening PVS with a transposition table (Zobrist), killers and history, and
//!   threat-aware move generation; [`threat`] is VCF and VCT, used to win and, for the opponent, to defend.
//! - [`Engine::think`] handles every phase: stones (the centre and touching-stone openings included), the swap
//!   decision after move 3, the two fifth-move options and the choice between them, and claiming black's
//!   forbidden move under the claim policy.
//! - [`Level`] 1–8 mixes depth, nodes, time, noise and blunders (`docs/engine.md`); [`TimeBudget`] reads the
//!   room's clock so that a move never runs it out.
//! - [`Engine::swap2`] answers Swap2 from the stones alone, at each of its three stages ([`swap2`]).
//! - [`piskvork`] is the Piskvork (Gomocup) protocol as a pure line-in, lines-out state machine; the
//!   `pbrain-gomoku` binary wires it to stdin and stdout.
//! - [`hub`] is the Hub protocol (Scan's) for the draughts engine: the `hub-draughts` binary serves it, and the
//!   `draughts-match` harness drives any Hub engine with it.
//!
//! - [`brain`] is the [`brain::Brain`] trait over any [`games::AnyGame`] and the registry of each game's brains
//!   and levels: this engine for Gomoku, [`othello::Engine`] for Othello, [`draughts::Engine`] for draughts,
//!   [`insect::Engine`] for insect chess, a random-legal brain for every game.
//!
//! Synchronous and deterministic for a seed when limited by nodes; time only ever cuts a search short.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use engine::{Engine, Limits, TimeBudget};
//! use rules::{Action, Game, Rules};
//! let mut game = Game::new(Rules::standard());
//! game.apply(Action::place("h8".parse().unwrap())).unwrap();
//! let mut engine = Engine::new(Limits { level: 3, max_nodes: Some(2_000), max_time: None }, 7);
//! let decision = engine.think(&game, &TimeBudget::Unlimited, &AtomicBool::new(false)).unwrap();
//! assert!(game.check(decision.action).is_ok());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod brain;
pub mod draughts;
mod engine;
pub mod hub;
pub mod insect;
pub mod level;
pub mod othello;
pub mod pattern;
pub mod piskvork;
pub mod position;
pub mod search;
pub mod swap2;
pub mod threat;
pub mod time;

pub use engine::{Decision, Engine, Limits, Memory, ThinkError, BASE_MEMORY};
pub use level::Level;
pub use position::Position;
pub use swap2::{Swap2Answer, Swap2Error};
pub use time::TimeBudget;
