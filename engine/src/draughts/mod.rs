//! An international-draughts computer, levels 1–8, over its own copy of the rules' padded bitboards
//! ([`board`]): whatever it returns is one of the rules' listed moves.
//!
//! - [`board`]: the board, the move generator with the majority capture rule (checked move for move against
//!   `rules::draughts::Position::legal_moves`), and Zobrist keys kept up to date move by move.
//! - [`search`]: negamax PVS with a transposition table; captures are forced, so a capture is searched beyond
//!   the nominal depth until the exchange ends (the quiescence search), and a single reply costs no depth. The
//!   rules' draws score as draws: a repeated position, the 25-move rule and the 16- and 5-move endgame limits,
//!   counted from the game's own counters and history.
//! - [`eval`]: material (a king is worth about three men), tempo, the centre, outposts, the back row,
//!   breakthroughs, kings on the long diagonal, and the endgames the rules draw.
//! - [`Level`] 1–8: depth, time cap and, at levels 1–4, noise below half a man.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::Duration;
//! use engine::draughts::{Engine, Level};
//! use rules::draughts::Game;
//! let game = Game::new();
//! let mut engine = Engine::new(7);
//! let report = engine
//!     .think(&game, Level::new(3).unwrap(), Duration::from_millis(200), &AtomicBool::new(false))
//!     .unwrap();
//! assert!(game.legal_moves().contains(&report.best));
//! ```

pub mod board;
mod engine;
pub mod eval;
pub mod level;
pub mod search;

pub use engine::{Engine, Report};
pub use level::{Level, Settings};
