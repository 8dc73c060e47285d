//! PDN games: export with tags and numbered moves, import of the same (and of what other programs write: comments,
//! annotations, short capture forms).

use std::fmt;

use super::game::{Game, Status};
use super::notation::{FenError, MoveError};
use super::position::Position;
use crate::Color;

/// Why a PDN text is not a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnError {
    /// A tag line is not `[Name "value"]`.
    BadTag {
        /// 1-based line number.
        line: usize,
    },
    /// The `FEN` tag is not a position.
    Fen(FenError),
    /// A `{` comment or `(` variation is not closed.
    Unclosed,
    /// A move is not legal where it stands.
    Move {
        /// 0-based index of the move in the game.
        index: usize,
        /// The move's text.
        text: String,
        /// Why.
        error: MoveError,
    },
    /// A move follows the end of the game (by the rules).
    AfterEnd {
        /// 0-based index of the move.
        index: usize,
    },
}

impl PdnError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            PdnError::BadTag { .. } => "pdn_bad_tag",
            PdnError::Fen(e) => e.code(),
            PdnError::Unclosed => "pdn_unclosed",
            PdnError::Move { error, .. } => error.code(),
            PdnError::AfterEnd { .. } => "pdn_move_after_end",
        }
    }
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::BadTag { line } => write!(f, "line {line} is not a tag"),
            PdnError::Fen(e) => e.fmt(f),
            PdnError::Unclosed => f.write_str("a comment or variation is not closed"),
            PdnError::Move { index, text, error } => {
                write!(f, "move {} ({text}): {error}", index + 1)
            }
            PdnError::AfterEnd { index } => write!(f, "move {} comes after the end", index + 1),
        }
    }
}

impl std::error::Error for PdnError {}

/// The PDN result token of a status: `2-0`, `0-2`, `1-1` or `*`.
pub fn result_token(status: Status) -> &'static str {
    match status {
        Status::Ongoing { .. } => "*",
        Status::Won {
            winner: Color::White,
            ..
        } => "2-0",
        Status::Won {
            winner: Color::Black,
            ..
        } => "0-2",
        Status::Drawn(_) => "1-1",
    }
}

impl Game {
    /// The game in PDN: `[GameType "20"]`, `[FEN …]` when it did not start from the initial position, the
    /// `Result` tag, then numbered moves (`1. 32-28 19-23 2. …`, `1... 19-23` when Black moved first) and the
    /// result. `result` overrides the rules' result (a resignation or agreement the room recorded).
    pub fn to_pdn(&self, result: Option<&str>) -> String {
        let result = result.unwrap_or(result_token(self.status()));
        let mut out = String::from("[GameType \"20\"]\n");
        if let Some(fen) = self.pdn_fen() {
            out.push_str(&format!("[FEN \"{fen}\"]\n"));
        }
        out.push_str(&format!("[Result \"{result}\"]\n\n"));
        out.push_str(&self.pdn_movetext(result));
        out
    }

    /// The `FEN` tag's value when the game did not start from the initial position.
    pub fn pdn_fen(&self) -> Option<String> {
        (*self.start() != Position::initial()).then(|| self.start().fen())
    }

    /// The PDN movetext: numbered moves and `result` at the end, in lines of at most 80 characters, the last
    /// ended by a newline.
    pub fn pdn_movetext(&self, result: &str) -> String {
        let mut out = String::new();
        let mut tokens = Vec::new();
        let mut number = 1;
        let mut colour = self.start().turn();
        if colour == Color::Black {
            tokens.push("1...".to_owned());
        }
        for mv in self.moves() {
            if colour == Color::White {
                tokens.push(format!("{number}."));
            }
            tokens.push(mv.to_string());
            if colour == Color::Black {
                number += 1;
            }
            colour = colour.opposite();
        }
        tokens.push(result.to_owned());
        // Lines of at most 80 characters.
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// A game from PDN: tags (only `FEN` is read), then the moves; move numbers, results, `{comments}`,
    /// `(variations)` and `!?` annotations are skipped. Moves may use the short capture form when unambiguous.
    pub fn from_pdn(text: &str) -> Result<Game, PdnError> {
        let mut start = Position::initial();
        let mut movetext = String::new();
        for (n, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') {
                let inner = trimmed
                    .strip_prefix('[')
                    .and_then(|s| s.strip_suffix(']'))
                    .ok_or(PdnError::BadTag { line: n + 1 })?;
                let (name, value) = inner
                    .split_once(' ')
                    .ok_or(PdnError::BadTag { line: n + 1 })?;
                let value = value
                    .trim()
                    .strip_prefix('"')
                    .and_then(|s| s.strip_suffix('"'))
                    .ok_or(PdnError::BadTag { line: n + 1 })?;
                if name == "FEN" {
                    start = Position::from_fen(value).map_err(PdnError::Fen)?;
                }
            } else {
                movetext.push_str(line);
                movetext.push(' ');
            }
        }
        // Drop comments and variations.
        let mut plain = String::new();
        let (mut brace, mut paren) = (false, 0usize);
        for c in movetext.chars() {
            match c {
                '{' if !brace => brace = true,
                '}' if brace => brace = false,
                '(' if !brace => paren += 1,
                ')' if !brace && paren > 0 => paren -= 1,
                _ if brace || paren > 0 => {}
                _ => plain.push(c),
            }
        }
        if brace || paren > 0 {
            return Err(PdnError::Unclosed);
        }
        let mut game = Game::from_position(start);
        let mut index = 0;
        for token in plain.split_whitespace() {
            if matches!(token, "*" | "2-0" | "0-2" | "1-1" | "0-0") {
                continue;
            }
            // `12.` / `12...` alone, or glued to the move (`12.32-28`).
            let token = match token.rfind('.') {
                Some(i) => &token[i + 1..],
                None => token,
            };
            let token = token.trim_end_matches(['!', '?']);
            if token.is_empty() {
                continue;
            }
            if game.status().is_over() {
                return Err(PdnError::AfterEnd { index });
            }
            game.position()
                .parse_move(token)
                .map_err(|error| PdnError::Move {
                    index,
                    text: token.to_owned(),
                    error,
                })
                .map(|mv| game.play(&mv).expect("a parsed move is legal"))?;
            index += 1;
        }
        Ok(game)
    }
}
