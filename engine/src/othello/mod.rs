//! An Othello computer, levels 1–8, over the rules' bitboards ([`rules::othello`]): whatever it returns is a
//! move the rules accept.
//!
//! - [`search`]: iterative deepening negamax PVS with a transposition table ([`table`]), moves ordered by the
//!   table's move, then fastest-first (the fewest replies for the opponent, corners counted twice) and the
//!   square's value.
//! - [`eval`]: mobility, potential mobility, corners, X- and C-squares, stable discs ([`board::stable`]),
//!   parity and discs, with weights blended from the opening to the end.
//! - [`endgame`]: the exact solver (win, loss or draw and the exact disc difference) with fastest-first
//!   ordering, parity, a transposition table, a stability cut-off and the last empty square counted.
//! - [`Level`] 1–8: depth, time cap, from how many empty squares to solve, and noise at the low levels.
//!
//! Time is passed in as a budget and only ever cuts a search short; the cancel flag stops it at once (checked
//! every 1,024 midgame or 4,096 endgame nodes). The low levels' noise follows the engine's seed.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::Duration;
//! use engine::othello::{Engine, Level};
//! use rules::othello::Position;
//! let mut engine = Engine::new(7);
//! let start = Position::start();
//! let report = engine
//!     .think(&start, Level::new(3).unwrap(), Duration::from_millis(200), &AtomicBool::new(false))
//!     .unwrap();
//! assert!(start.play(report.best).is_ok());
//! ```

pub mod board;
pub mod endgame;
mod engine;
pub mod eval;
pub mod level;
pub mod search;
pub mod table;

pub use engine::{Engine, Evaluation, Report, Solution};
pub use level::{Level, Settings};
