//! Insect chess (昆虫棋), as `docs/rules-insect.md` and the project's rules page settle it: a 7x11 board with a
//! pond, two foods and six muds; six insects a side, one of each kind, in a cycle of strength (the diving beetle
//! beats the scorpion); the wasp flies over the pond; a piece that steps onto the enemy's food wins.
//!
//! Squares are `a1`..`g11` (south at ranks 1–2 moves first); moves are `from-to`; a position is written as a
//! placement such as the start, `ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL s`. The board is two 128-bit bitboards
//! plus the square of each insect, so move generation is a few masks per piece ([`Position::perft`] counts
//! tens of millions of leaves a second).
//!
//! A [`Game`] holds the history the end rules need (threefold repetition, 100 plies without capture); a
//! [`Position`] alone knows the food and move rules.
//!
//! ```
//! use rules::insect::{Game, Move, Position, Side, Status};
//! let mut game = Game::new();
//! assert_eq!(game.legal_moves().len(), 8);
//! game.apply("e2-e3".parse::<Move>().unwrap()).unwrap();
//! assert_eq!(game.status(), Status::Ongoing { to_move: Side::North });
//! assert_eq!(game.position().placement(), "ld3cs/2w1t2/7/7/7/7/7/7/4W2/2T4/SC3DL n");
//! assert_eq!(Position::start().perft(3), 624);
//! ```

mod board;
mod game;
mod movegen;
mod notation;
mod piece;
mod position;
mod square;

pub use board::Terrain;
pub use game::{DrawReason, Game, Played, Status, WinReason, NO_CAPTURE_LIMIT, REPETITION_LIMIT};
pub use notation::{ParseMoveError, PlacementError};
pub use piece::{Kind, Piece, Side};
pub use position::{IllegalMove, Move, Position};
pub use square::{Square, FILES, RANKS, SQUARES};
