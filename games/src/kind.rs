//! A game by name: [`GameKind`](crate::GameKind)'s text forms (the enum itself comes from the list in `lib.rs`).

use std::fmt;
use std::str::FromStr;

use crate::notation::NotationError;
use crate::GameKind;

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
