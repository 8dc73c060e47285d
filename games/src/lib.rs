//! The game seam: a closed set of games behind one trait, so that the room, the protocol and the store hold "a
//! game" without knowing which.
//!
//! Modelled on shakmaty's `VariantPosition`: each game is its own type implementing [`Game`] (with its own
//! configuration, action, notation, status and outcome, view, delta and legal-action listing), and [`AnyGame`]
//! is a closed enum over them that implements [`Game`] too. The members are Gomoku/Renju ([`Gomoku`], wrapping
//! [`rules::Game`]), Othello ([`Othello`]) and international draughts ([`Draughts`]). Storage encodings are
//! explicit ([`storage`]); nothing here derives serde.
//!
//! Pure and deterministic like `rules`: no I/O, no async, no clocks, no randomness.
//!
//! ```
//! use games::{AnyConfig, AnyGame, Game, GameConfig, GameKind, Seat};
//! let config = AnyConfig::decode("gomoku", "size=15,rule_set=renju,forbidden_policy=reject,opening=none").unwrap();
//! let mut game = AnyGame::new(config, Seat::Zero);
//! let h8 = GameKind::Gomoku.parse_action("h8").unwrap();
//! game.apply_as(Seat::Zero, h8).unwrap();
//! assert_eq!(game.to_act(), Some(rules::Color::White));
//! assert_eq!(game.seat_of(rules::Color::White), Seat::One);
//! assert_eq!((config.pool().game, config.pool().variant), ("gomoku", "renju"));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod any;
mod game;
mod kind;
pub mod notation;
pub mod storage;

// The one list of games: a game is its own module and one line here.
mod draughts;
mod gomoku;
pub mod insect;
mod othello;

games! {
    /// Gomoku and Renju (five in a row; the rule set is part of the configuration).
    Gomoku(gomoku::Gomoku) = "gomoku",
    /// Othello (Reversi); the scoring of an unfinished board is part of the configuration.
    Othello(othello::Othello) = "othello",
    /// International draughts (10x10, FMJD rules); the variant is part of the configuration.
    Draughts(draughts::Draughts) = "draughts",
    Insect(insect::Insect) = "insect",
}

pub use any::StoredReplayError;
pub use draughts::{
    draughts_text, parse_draughts, Draughts, DraughtsAction, DraughtsChange, DraughtsConfig,
    DraughtsCounters, DraughtsDelta, DraughtsDetail, DraughtsIllegal, DraughtsLegal,
    DraughtsLegalMove, DraughtsPhase, DraughtsView, DRAUGHTS,
};
pub use game::{
    Coded, Game, GameConfig, Listed, Outcome, PoolKey, QuickClock, QuickPreset, RecordFormat,
    RecordHeader, ReplayError, Seat, Status,
};
pub use gomoku::{
    Gomoku, GomokuChange, GomokuConfig, GomokuDelta, GomokuDetail, GomokuLegal, GomokuView,
    SAMPLE_CLASSES, SAMPLE_POINTS,
};
pub use notation::NotationError;
pub use othello::{
    parse_othello, Othello, OthelloChange, OthelloConfig, OthelloDelta, OthelloDetail,
    OthelloLegal, OthelloPhase, OthelloView,
};
pub use storage::{ConfigError, DecodeError, StoredConfig};
