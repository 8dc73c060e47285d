//! The 50 playable squares, numbered 1–50 as PDN does, and sets of them.

use std::fmt;
use std::str::FromStr;

/// One of the 50 dark squares, numbered 1–50 (PDN): 1–5 on Black's back row, 46–50 on White's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a text or number is not a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Not a decimal number.
    NotANumber,
    /// A number outside 1–50.
    OutOfRange,
}

impl SquareError {
    /// Stable snake_case code.
    pub const fn code(self) -> &'static str {
        match self {
            SquareError::NotANumber => "square_not_a_number",
            SquareError::OutOfRange => "square_out_of_range",
        }
    }
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SquareError::NotANumber => "a square is a number from 1 to 50",
            SquareError::OutOfRange => "squares are numbered 1 to 50",
        })
    }
}

impl std::error::Error for SquareError {}

impl Square {
    /// The square with this PDN number, if it is one (1–50).
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 50 {
            Some(Square(number))
        } else {
            None
        }
    }

    /// Its PDN number, 1–50.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Every square, 1 to 50.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=50).map(Square)
    }

    /// The row counted from White's side, 0 (46–50) to 9 (1–5).
    pub const fn row_from_white(self) -> u8 {
        9 - (self.0 - 1) / 5
    }

    /// The file (column) from White's left, 0 (a) to 9 (j).
    pub const fn file(self) -> u8 {
        let n = self.0 - 1;
        let row_from_top = n / 5;
        let c = n % 5;
        if row_from_top.is_multiple_of(2) {
            2 * c + 1
        } else {
            2 * c
        }
    }

    /// The square at a file and a row counted from White's side, if that is a dark square.
    pub const fn from_coords(file: u8, row_from_white: u8) -> Option<Square> {
        if file > 9 || row_from_white > 9 {
            return None;
        }
        let row_from_top = 9 - row_from_white;
        let dark = if row_from_top.is_multiple_of(2) {
            file % 2 == 1
        } else {
            file.is_multiple_of(2)
        };
        if !dark {
            return None;
        }
        Some(Square(row_from_top * 5 + file / 2 + 1))
    }

    /// The square seen from the other side of the board (turned by 180 degrees): 1 ↔ 50.
    pub const fn rotated(self) -> Square {
        Square(51 - self.0)
    }

    /// The internal bit of this square (see `bits`).
    pub(crate) const fn bit(self) -> u32 {
        let n = (self.0 - 1) as u32;
        n + n / 10
    }

    /// The square of an internal bit that holds one.
    pub(crate) const fn from_bit(bit: u32) -> Square {
        let n = bit - bit / 11;
        Square(n as u8 + 1)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Square {
    type Err = SquareError;

    /// Reads a PDN square number: decimal digits only, 1 to 50 (`07` is 7).
    fn from_str(s: &str) -> Result<Square, SquareError> {
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SquareError::NotANumber);
        }
        let n: u16 = s.parse().map_err(|_| SquareError::NotANumber)?;
        u8::try_from(n)
            .ok()
            .and_then(Square::new)
            .ok_or(SquareError::OutOfRange)
    }
}

/// A set of squares (bit `n - 1` for square `n`), iterated in increasing order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SquareSet(u64);

impl SquareSet {
    /// No squares.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// The set with these bits (bit `n - 1` for square `n`); bits above 49 are dropped.
    pub const fn from_bits(bits: u64) -> SquareSet {
        SquareSet(bits & ((1 << 50) - 1))
    }

    /// Its bits (bit `n - 1` for square `n`).
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether the square is in the set.
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << (square.0 - 1)) != 0
    }

    /// The set with the square added.
    pub const fn with(self, square: Square) -> SquareSet {
        SquareSet(self.0 | 1 << (square.0 - 1))
    }

    /// How many squares.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let n = bits.trailing_zeros();
            bits &= bits - 1;
            Some(Square(n as u8 + 1))
        })
    }

    /// The squares in increasing order, as a vector.
    pub fn to_vec(self) -> Vec<Square> {
        self.iter().collect()
    }

    /// The set of the internal bitboard's squares.
    pub(crate) fn from_board(mut board: u64) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        while board != 0 {
            let bit = board.trailing_zeros();
            board &= board - 1;
            set = set.with(Square::from_bit(bit));
        }
        set
    }

    /// The internal bitboard of the set.
    pub(crate) fn to_board(self) -> u64 {
        self.iter().fold(0, |b, s| b | 1 << s.bit())
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        iter.into_iter().fold(SquareSet::EMPTY, SquareSet::with)
    }
}

impl fmt::Display for SquareSet {
    /// Squares in increasing order, separated by commas (`19,24`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}
