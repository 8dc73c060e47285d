//! Squares `a1`..`h8` and sets of them.

use std::fmt;
use std::str::FromStr;

use crate::ParsePointError;

/// One of the 64 squares: column `a`..`h` left to right, row `1`..`8` top to bottom; index `(row-1)*8 + column`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of an index 0..64 (`a1` = 0, `h1` = 7, `a2` = 8, `h8` = 63); `None` beyond.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at a zero-based column and row; `None` off the board.
    pub const fn at(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// The index 0..64.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Zero-based column (`a` = 0).
    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    /// Zero-based row (row `1` = 0, the top).
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The square's bit in a bitboard.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Every square in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.column()),
            char::from(b'1' + self.row())
        )
    }
}

impl FromStr for Square {
    type Err = ParsePointError;

    /// Reads `a1`..`h8` exactly (lower case, one digit): `Malformed` for anything that is not a letter and a
    /// digit, `OutOfRange` for a letter beyond `h` or a row beyond `8` (`i1`, `a9`, `a0`).
    fn from_str(s: &str) -> Result<Square, ParsePointError> {
        let &[c, r] = s.as_bytes() else {
            return Err(ParsePointError::Malformed);
        };
        if !c.is_ascii_lowercase() || !r.is_ascii_digit() {
            return Err(ParsePointError::Malformed);
        }
        match (c - b'a', r.wrapping_sub(b'1')) {
            (column, row) if column < 8 && row < 8 => Ok(Square(row * 8 + column)),
            _ => Err(ParsePointError::OutOfRange),
        }
    }
}

/// A set of squares as a bitboard, iterated in index order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub u64);

impl SquareSet {
    /// How many squares.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether there is none.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether it holds a square.
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    /// The squares in index order.
    pub fn to_vec(self) -> Vec<Square> {
        self.into_iter().collect()
    }
}

impl Iterator for SquareSet {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        SquareSet(iter.into_iter().fold(0, |bits, s| bits | s.bit()))
    }
}
