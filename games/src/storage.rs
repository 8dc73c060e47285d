//! Storage encodings, written by hand so that no rename in `rules` can change a stored text.
//!
//! A configuration is stored as its game's name (`gomoku`) and a text each game writes and reads itself
//! ([`crate::GameConfig::encode`], [`crate::Listed::decode_config`]): Gomoku's names every field in a fixed order
//! (`size=15,rule_set=renju,forbidden_policy=reject,opening=none`), the other games' their one field
//! (`scoring=japanese`, `variant=international`). An action is stored as its notation ([`crate::notation`]), or
//! in a game's older form where it had one ([`crate::Listed::decode_action`]: Gomoku's JSON of before the
//! notation, `{"action":"place","point":"h8"}`). [`crate::AnyConfig::stored`], [`crate::AnyConfig::decode`] and
//! [`crate::AnyAction::decode`] ask the game.

use std::fmt;

use rules::RulesError;

use crate::notation::NotationError;

pub use crate::gomoku::stored::{legacy_gomoku_action, opening_text, policy_text, rule_set_text};

/// Why a stored configuration cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// The game's name is not one of ours.
    UnknownGame,
    /// The text is not the game's field list (`size=…,rule_set=…,…` in that order).
    Malformed,
    /// A field holds a value it never takes.
    UnknownValue {
        /// The field (`size`, `rule_set`, `forbidden_policy`, `opening`; `scoring` for Othello; `variant` for draughts).
        field: &'static str,
    },
    /// The values are known but do not make a playable configuration.
    Rules(RulesError),
}

impl ConfigError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            ConfigError::UnknownGame => "unknown_game",
            ConfigError::Malformed => "malformed_config",
            ConfigError::UnknownValue { .. } => "unknown_config_value",
            ConfigError::Rules(e) => e.code(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::UnknownGame => f.write_str("no such game"),
            ConfigError::Malformed => f.write_str("not a configuration of this game"),
            ConfigError::UnknownValue { field } => write!(f, "unknown value of {field}"),
            ConfigError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a stored action cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The text is not an action's notation.
    Notation(NotationError),
    /// The text is JSON (the form stored before the notation) but not an action of that form.
    Json(String),
}

impl DecodeError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            DecodeError::Notation(e) => e.code(),
            DecodeError::Json(_) => "malformed_stored_action",
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Notation(e) => e.fmt(f),
            DecodeError::Json(why) => write!(f, "stored action JSON: {why}"),
        }
    }
}

impl std::error::Error for DecodeError {}

impl From<NotationError> for DecodeError {
    fn from(e: NotationError) -> DecodeError {
        DecodeError::Notation(e)
    }
}

/// A configuration as stored: the game's name and the configuration's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredConfig {
    /// The game (`gomoku`).
    pub game: &'static str,
    /// The configuration's text.
    pub text: String,
}

/// A value's text in a table of values and texts (`""` for a value the table lacks, which no caller passes).
pub(crate) fn text_of<T: PartialEq + Copy>(table: &[(T, &'static str)], value: T) -> &'static str {
    table
        .iter()
        .find(|(v, _)| *v == value)
        .map_or("", |(_, t)| t)
}

/// The value a stored text names in a table, or [`ConfigError::UnknownValue`] of the field.
pub(crate) fn value_of<T: Copy>(
    table: &[(T, &'static str)],
    field: &'static str,
    text: &str,
) -> Result<T, ConfigError> {
    table
        .iter()
        .find(|(_, t)| *t == text)
        .map(|(v, _)| *v)
        .ok_or(ConfigError::UnknownValue { field })
}
