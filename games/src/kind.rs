//! The closed set of games, by name.

use std::fmt;
use std::str::FromStr;

use crate::draughts::parse_draughts;
use crate::notation::{parse_gomoku, NotationError};
use crate::othello::parse_othello;
use crate::AnyAction;

/// Which game: the tag of every `Any…` value, stored and sent as its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Gomoku and Renju (five in a row; the rule set is part of the configuration).
    Gomoku,
    /// Othello (Reversi); the scoring of an unfinished board is part of the configuration.
    Othello,
    /// International draughts (10x10, FMJD rules); the variant is part of the configuration.
    Draughts,
}

impl GameKind {
    /// Every game.
    pub const ALL: [GameKind; 3] = [GameKind::Gomoku, GameKind::Othello, GameKind::Draughts];

    /// Stable name, as stored and sent (`gomoku`).
    pub const fn as_str(self) -> &'static str {
        match self {
            GameKind::Gomoku => "gomoku",
            GameKind::Othello => "othello",
            GameKind::Draughts => "draughts",
        }
    }

    /// An action of this game from its notation (see [`crate::notation`]).
    pub fn parse_action(self, text: &str) -> Result<AnyAction, NotationError> {
        match self {
            GameKind::Gomoku => parse_gomoku(text).map(AnyAction::Gomoku),
            GameKind::Othello => parse_othello(text).map(AnyAction::Othello),
            GameKind::Draughts => parse_draughts(text).map(AnyAction::Draughts),
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameKind {
    type Err = NotationError;

    /// Reads a game's name exactly (`gomoku`); anything else is [`NotationError::UnknownGame`].
    fn from_str(s: &str) -> Result<GameKind, NotationError> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or(NotationError::UnknownGame)
    }
}
