//! Gomoku and Renju rules: the single source of truth for whether an action is legal and who has won. Othello
//! lives beside them in [`othello`] (its own squares, moves, passes and scoring; bitboard move generation), and
//! international draughts in [`draughts`] (paths, majority captures, flying kings, the draw rules).
//!
//! The crate is pure and deterministic: no I/O, no clocks, no randomness. Descriptions that come from outside (a
//! list of actions from the wire or the database) become a [`Game`] only through [`Game::from_actions`], and a
//! game changes only through [`Game::apply`] and [`Game::undo`], so it is never in an illegal state.
//!
//! ```
//! use rules::{Action, Game, Rules, ForbiddenPolicy, Status, Color};
//! let mut game = Game::new(Rules::renju(ForbiddenPolicy::Reject));
//! game.apply(Action::place("h8".parse().unwrap())).unwrap();
//! assert_eq!(game.to_act(), Some(Color::White));
//! assert!(matches!(game.status(), Status::Ongoing { .. }));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod action;
mod board;
pub mod canonical;
mod color;
pub mod draughts;
pub mod fuzzing;
mod game;
mod illegal;
pub mod insect;
pub mod othello;
mod pattern;
mod point;
pub mod renju;
mod ruleset;
mod status;
mod symmetry;

pub use action::{Action, Event, Offers};
pub use board::{Board, Direction};
pub use canonical::{name_opening, CanonicalOpening, OpeningFamily, CANONICAL_OPENINGS};
pub use color::Color;
pub use game::{Game, ReplayError};
pub use illegal::IllegalAction;
pub use pattern::warm_up;
pub use point::{ParsePointError, Point, MAX_SIZE, MIN_SIZE};
pub use renju::ForbiddenKind;
pub use ruleset::{ForbiddenPolicy, Opening, RuleSet, Rules, RulesError, MAX_OFFERS, SIZES};
pub use status::{Line, Phase, Status, WinReason};
pub use symmetry::{points_equivalent, Symmetry};
