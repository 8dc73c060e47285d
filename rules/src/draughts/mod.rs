//! International draughts (10x10, FMJD rules): positions, legal moves as paths, perft, the game with its
//! history-dependent draws, FEN and PDN.
//!
//! The 50 dark squares are numbered 1–50 (PDN); Black's men start on 1–20, White's on 31–50, and White moves
//! first. Capture is mandatory and the majority rule applies (the sequences taking the most pieces, kings and men
//! counting the same); kings fly. See `docs/rules-draughts.md`.
//!
//! ```
//! use rules::draughts::{Game, Position, Status};
//! use rules::Color;
//! let mut game = Game::new();
//! assert_eq!(game.legal_moves().len(), 9);
//! game.play_text("32-28").unwrap();
//! assert_eq!(game.status(), Status::Ongoing { to_move: Color::Black });
//! assert_eq!(Position::initial().perft(3), 658);
//! ```

mod game;
mod movegen;
mod notation;
mod pdn;
mod position;
mod square;

pub use game::{
    endgame_limit, Counters, DrawReason, EndgameCount, Game, IllegalMove, Status, WinReason,
    KING_MOVES_LIMIT,
};
pub use notation::{FenError, MoveError};
pub use pdn::{result_token, PdnError};
pub use position::{Move, Piece, Position, Role};
pub use square::{Square, SquareError, SquareSet};
