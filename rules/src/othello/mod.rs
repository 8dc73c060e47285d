//! Othello (Reversi, 黑白棋): an 8x8 board, black first, a move must flip and flips every flanked line.
//!
//! Squares are named `a1`..`h8`, column letter left to right and row digit **top to bottom** (`a1` is the top-left
//! corner, as in the conformance README and the usual Othello diagrams). The board is two `u64` bitboards, bit
//! `(row - 1) * 8 + column` for each square; move generation and flips are shift-based flood fills
//! ([`bitboard`]).
//!
//! A pass is an explicit action here: it is legal exactly when the side to move has no legal move while the
//! opponent has one, and it is recorded like a move (so clocks and records see it). A position where neither side
//! can move is over: a full board, a wipe-out, or neither can move.
//!
//! ```
//! use rules::othello::{Game, Move, Square};
//! let mut game = Game::new();
//! let played = game.play(Move::Place("f5".parse::<Square>().unwrap())).unwrap();
//! assert_eq!(played.flipped, vec!["e5".parse().unwrap()]);
//! assert_eq!(game.record(), "f5");
//! ```

pub mod bitboard;
mod game;
mod perft;
mod position;
mod record;
mod score;
mod square;
mod symmetry;

pub use game::{Game, Played};
pub use perft::{perft, PerftMode};
pub use position::{IllegalMove, Move, Position, PositionError, PositionStatus};
pub use record::{RecordError, MAX_RECORD_BYTES};
pub use score::{EndReason, Score, Scoring};
pub use square::{Square, SquareSet};
pub use symmetry::Symmetry;
