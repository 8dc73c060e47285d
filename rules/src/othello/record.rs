//! Records in the usual Othello move-list form, `f5d6c3d3c4…`: export, and import with typed errors.
//!
//! [`Game::record`] writes every move's notation joined, a pass as `pass` (so the record shows it);
//! [`Game::transcript`] leaves passes out, as most published transcripts do. [`Game::from_record`] reads both,
//! and the forms other programs write: squares in either case, a pass as `pass`, `pa`, `ps` or `--`, whitespace
//! anywhere between moves, an omitted forced pass put back (a pass is never a choice, so none is ambiguous), and
//! PGN-like tag pairs before the moves (`[Black "ann"]`, a line each, as this server's export writes them).

use std::fmt;

use super::game::Game;
use super::position::{IllegalMove, Move, PositionStatus};
use super::square::Square;

/// The longest record text read (a whole game with every pass written and spaces between is under 600 bytes,
/// and the header of this server's export under 600 more).
pub const MAX_RECORD_BYTES: usize = 2048;

/// Why a text is not a record of a legal game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordError {
    /// Longer than [`MAX_RECORD_BYTES`].
    TooLong,
    /// At byte `offset` there is neither a square nor a pass.
    Unreadable {
        /// Byte offset of the unreadable text.
        offset: usize,
    },
    /// The move at byte `offset` (the `index`th, zero-based, counting inserted passes) is illegal there.
    Illegal {
        /// Zero-based index of the move in the game.
        index: usize,
        /// Byte offset of its text.
        offset: usize,
        /// Why.
        reason: IllegalMove,
    },
}

impl RecordError {
    /// Stable snake_case code.
    pub const fn code(&self) -> &'static str {
        match self {
            RecordError::TooLong => "record_too_long",
            RecordError::Unreadable { .. } => "unreadable_record",
            RecordError::Illegal { reason, .. } => reason.code(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::TooLong => write!(f, "a record is at most {MAX_RECORD_BYTES} bytes"),
            RecordError::Unreadable { offset } => {
                write!(f, "no square or pass at character {}", offset + 1)
            }
            RecordError::Illegal {
                index,
                offset,
                reason,
            } => write!(
                f,
                "move {} (character {}) is illegal: {reason}",
                index + 1,
                offset + 1
            ),
        }
    }
}

impl std::error::Error for RecordError {}

const PASSES: [&str; 4] = ["pass", "pa", "ps", "--"];

impl Game {
    /// The record: every move's notation joined, passes as `pass` (`f5d6c3…`).
    pub fn record(&self) -> String {
        self.moves().iter().map(Move::to_string).collect()
    }

    /// The transcript: the squares alone, passes left out (they are forced, so [`Game::from_record`] restores
    /// them).
    pub fn transcript(&self) -> String {
        self.moves()
            .iter()
            .filter_map(|m| match m {
                Move::Place(s) => Some(s.to_string()),
                Move::Pass => None,
            })
            .collect()
    }

    /// A game from a record or transcript (see the module's notes for the forms read).
    pub fn from_record(text: &str) -> Result<Game, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLong);
        }
        let mut game = Game::new();
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at].is_ascii_whitespace() {
                at += 1;
                continue;
            }
            let rest = &text[at..];
            if rest.starts_with('[') && game.moves().is_empty() {
                // A PGN-like tag pair before the moves (`[Black "ann"]`): a line of its own, skipped.
                let line = rest.split_once('\n').map_or(rest, |(line, _)| line);
                if !line.trim_end().ends_with(']') {
                    return Err(RecordError::Unreadable { offset: at });
                }
                at += line.len();
                continue;
            }
            let (mv, len) = if let Some(p) = PASSES.iter().find(|p| {
                // Bytes, not a `str` slice: the text may hold any character where a pass could start.
                rest.as_bytes()
                    .get(..p.len())
                    .is_some_and(|b| b.eq_ignore_ascii_case(p.as_bytes()))
            }) {
                (Move::Pass, p.len())
            } else {
                let square = rest
                    .get(..2)
                    .and_then(|s| s.to_ascii_lowercase().parse::<Square>().ok())
                    .ok_or(RecordError::Unreadable { offset: at })?;
                (Move::Place(square), 2)
            };
            if mv != Move::Pass && game.status() == PositionStatus::MustPass {
                // The forced pass the transcript left out.
                game.play(Move::Pass)
                    .map_err(|reason| RecordError::Illegal {
                        index: game.moves().len(),
                        offset: at,
                        reason,
                    })?;
            }
            game.play(mv).map_err(|reason| RecordError::Illegal {
                index: game.moves().len(),
                offset: at,
                reason,
            })?;
            at += len;
        }
        Ok(game)
    }
}
