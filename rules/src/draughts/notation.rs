//! Text forms: FEN positions (`W:W31,…:B1,…`) and PDN moves (`32-28`, `28x19x10`, short `28x10`).

use std::fmt;

use super::movegen::WHITE_CROWN;
use super::position::{Move, Position};
use super::square::{Square, SquareError, SquareSet};
use crate::Color;

/// Why a text is not a FEN position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not `<turn>:<list>:<list>` with a turn `W` or `B` and one list per colour, each starting `W` or `B`.
    Malformed,
    /// A square in a list is not a square.
    Square(SquareError),
    /// A range `a-b` runs backwards.
    BadRange,
    /// A square is listed twice.
    Duplicate(Square),
    /// A man stands on the row where it would have been crowned.
    ManOnCrowningRow(Square),
}

impl FenError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            FenError::Malformed => "malformed_fen",
            FenError::Square(e) => e.code(),
            FenError::BadRange => "fen_bad_range",
            FenError::Duplicate(_) => "fen_duplicate_square",
            FenError::ManOnCrowningRow(_) => "fen_man_on_crowning_row",
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Malformed => f.write_str("not a FEN position (W:W31,…:B1,…)"),
            FenError::Square(e) => e.fmt(f),
            FenError::BadRange => f.write_str("a range of squares runs backwards"),
            FenError::Duplicate(s) => write!(f, "square {s} is listed twice"),
            FenError::ManOnCrowningRow(s) => write!(f, "a man on {s} would have been crowned"),
        }
    }
}

impl std::error::Error for FenError {}

/// Why a text is not a legal move of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not `a-b` or `axb…` with square numbers.
    Malformed,
    /// A number in it is not a square.
    Square(SquareError),
    /// No legal move has this path (or this start and end).
    Illegal,
    /// The short form `fromxto` fits several legal moves, which take different pieces: give the full path.
    Ambiguous {
        /// The full paths of the moves it fits.
        candidates: Vec<String>,
    },
}

impl MoveError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::Malformed => "malformed_move",
            MoveError::Square(e) => e.code(),
            MoveError::Illegal => "illegal_move",
            MoveError::Ambiguous { .. } => "ambiguous_move",
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed => f.write_str("not a move (32-28, 28x19x10)"),
            MoveError::Square(e) => e.fmt(f),
            MoveError::Illegal => f.write_str("no legal move has this path"),
            MoveError::Ambiguous { candidates } => {
                write!(
                    f,
                    "several moves fit; write one of {}",
                    candidates.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// A move's text split up: its squares and whether it is written as a capture.
fn split(text: &str) -> Result<(Vec<Square>, bool), MoveError> {
    let capture = text.contains('x');
    let sep = if capture { 'x' } else { '-' };
    if capture && text.contains('-') {
        return Err(MoveError::Malformed);
    }
    let squares = text
        .split(sep)
        .map(|s| s.parse::<Square>().map_err(MoveError::Square))
        .collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 || (!capture && squares.len() != 2) {
        return Err(MoveError::Malformed);
    }
    Ok((squares, capture))
}

impl Position {
    /// Reads a FEN position: `W:W31,32,K5:B1,2` (turn, then both colours' lists in either order; `K` marks a
    /// king; ranges `31-35` are read too; an empty list is a colour without pieces).
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let text = text.trim().trim_end_matches('.');
        let mut parts = text.split(':');
        let turn = match parts.next().map(str::trim) {
            Some("W") => Color::White,
            Some("B") => Color::Black,
            _ => return Err(FenError::Malformed),
        };
        let mut lists: [Option<(SquareSet, SquareSet)>; 2] = [None, None];
        let mut seen = SquareSet::EMPTY;
        for part in parts {
            let part = part.trim();
            let (index, list) = if let Some(l) = part.strip_prefix('W') {
                (0, l)
            } else if let Some(l) = part.strip_prefix('B') {
                (1, l)
            } else {
                return Err(FenError::Malformed);
            };
            if lists[index].is_some() {
                return Err(FenError::Malformed);
            }
            let (mut all, mut kings) = (SquareSet::EMPTY, SquareSet::EMPTY);
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (king, item) = match item.strip_prefix('K') {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let (a, b) = match item.split_once('-') {
                    Some((a, b)) => (a, b),
                    None => (item, item),
                };
                let a: Square = a.parse().map_err(FenError::Square)?;
                let b: Square = b.parse().map_err(FenError::Square)?;
                if b < a {
                    return Err(FenError::BadRange);
                }
                for n in a.number()..=b.number() {
                    let s = Square::new(n).expect("between two squares");
                    if seen.contains(s) {
                        return Err(FenError::Duplicate(s));
                    }
                    seen = seen.with(s);
                    all = all.with(s);
                    if king {
                        kings = kings.with(s);
                    }
                }
            }
            lists[index] = Some((all, kings));
        }
        let [Some((white, wk)), Some((black, bk))] = lists else {
            return Err(FenError::Malformed);
        };
        let position = Position::from_parts(
            white,
            black,
            SquareSet::from_bits(wk.bits() | bk.bits()),
            turn,
        );
        let white_men_crowning = position.white & !position.kings & WHITE_CROWN;
        let black_men_crowning = position.black & !position.kings & super::movegen::BLACK_CROWN;
        if let Some(s) = SquareSet::from_board(white_men_crowning | black_men_crowning)
            .iter()
            .next()
        {
            return Err(FenError::ManOnCrowningRow(s));
        }
        Ok(position)
    }

    /// The FEN of the position: the White list first, squares in increasing order, `K` before kings.
    pub fn fen(&self) -> String {
        let list = |side: u64| {
            SquareSet::from_board(side)
                .iter()
                .map(|s| {
                    if self.kings & (1 << s.bit()) != 0 {
                        format!("K{s}")
                    } else {
                        s.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let turn = if self.turn == Color::White { "W" } else { "B" };
        format!("{turn}:W{}:B{}", list(self.white), list(self.black))
    }

    /// The legal move a PDN text names: `32-28`, a capture's whole path `28x19x10` (any of a move's routes), or
    /// the short form `28x10`, refused as [`MoveError::Ambiguous`] when moves taking different pieces share that
    /// start and end.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let (squares, capture) = split(text.trim())?;
        let legal = self.legal_moves();
        if !capture {
            return legal
                .into_iter()
                .find(|m| !m.is_capture() && m.path() == squares.as_slice())
                .ok_or(MoveError::Illegal);
        }
        let bits: Vec<u8> = squares.iter().map(|s| s.bit() as u8).collect();
        if let Some(route) = self.routes().into_iter().find(|r| r.path == bits) {
            return Ok(legal
                .into_iter()
                .find(|m| m.raw == route.mv)
                .expect("every route is of a listed move"));
        }
        if squares.len() == 2 {
            let fits: Vec<Move> = legal
                .into_iter()
                .filter(|m| m.is_capture() && m.from() == squares[0] && m.to() == squares[1])
                .collect();
            return match fits.len() {
                0 => Err(MoveError::Illegal),
                1 => Ok(fits.into_iter().next().expect("one")),
                _ => Err(MoveError::Ambiguous {
                    candidates: fits.iter().map(Move::to_string).collect(),
                }),
            };
        }
        Err(MoveError::Illegal)
    }
}

impl fmt::Display for Position {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}
