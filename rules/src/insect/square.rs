//! Squares `a1`..`g11` of the 7x11 board.

use std::fmt;
use std::str::FromStr;

use crate::ParsePointError;

/// Files `a`..`g`.
pub const FILES: u8 = 7;
/// Ranks `1`..`11`.
pub const RANKS: u8 = 11;
/// Squares on the board.
pub const SQUARES: u8 = FILES * RANKS;

/// One of the 77 squares: file `a`..`g` (west to east, as south sees it) and rank `1`..`11` (south to north).
/// Its index is `(rank - 1) * 7 + file`, so `a1` = 0, `g1` = 6, `a2` = 7 and `g11` = 76.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of an index 0..77; `None` beyond.
    pub const fn new(index: u8) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at a zero-based file (`a` = 0) and rank (`1` = 0); `None` off the board.
    pub const fn at(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The index 0..77.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Zero-based file (`a` = 0).
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Zero-based rank (rank `1` = 0).
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The square's bit in a 128-bit board (bit `index`).
    pub const fn bit(self) -> u128 {
        1 << self.0
    }

    /// The square turned half a circle about the board's centre (`a1` ↔ `g11`): where north sees what south sees
    /// here. The rules are the same after this turn with the sides exchanged.
    pub const fn rotated(self) -> Square {
        Square(SQUARES - 1 - self.0)
    }

    /// Every square in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES).map(Square)
    }

    /// The squares of a 128-bit board, in index order.
    pub(crate) fn of_bits(mut bits: u128) -> impl Iterator<Item = Square> {
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let index = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Square(index))
        })
    }

    /// The square of a bit index the caller knows is on the board.
    pub(crate) const fn from_index(index: u8) -> Square {
        debug_assert!(index < SQUARES);
        Square(index)
    }
}

impl fmt::Display for Square {
    /// `a1` … `g11`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = ParsePointError;

    /// Reads `a1`..`g11` exactly (lower-case file, rank without a leading zero): `Malformed` for anything that is
    /// not a letter and a number, `OutOfRange` for a file beyond `g` or a rank beyond `11` (`h1`, `a12`, `a0`).
    fn from_str(s: &str) -> Result<Square, ParsePointError> {
        let bytes = s.as_bytes();
        let (&file, digits) = bytes.split_first().ok_or(ParsePointError::Malformed)?;
        if !file.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.iter().all(u8::is_ascii_digit)
            || (digits.len() == 2 && digits[0] == b'0')
        {
            return Err(ParsePointError::Malformed);
        }
        let rank = digits.iter().fold(0u8, |acc, d| acc * 10 + (d - b'0'));
        match (file - b'a', rank) {
            (file, rank) if file < FILES && (1..=RANKS).contains(&rank) => {
                Ok(Square(file + (rank - 1) * FILES))
            }
            _ => Err(ParsePointError::OutOfRange),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
