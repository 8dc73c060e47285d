//! Board points and their notation.
//!
//! A point is written as a column letter and a row number: columns `a` to `o` (`s` on 19x19, `t` on 20x20) from left to
//! right with no letter skipped, rows `1` upwards from the bottom. `h8` is the centre of the 15x15 board. The same
//! point is `(x, y) = (7, 7)` in zero-based coordinates.

use std::fmt;
use std::str::FromStr;

/// The largest board side any rule set uses: 20x20, Gomocup's board for freestyle and standard.
pub const MAX_SIZE: u8 = 20;
/// The smallest board side a [`crate::Board`] holds (five in a row must fit).
pub const MIN_SIZE: u8 = 5;

/// A point on a board, in zero-based coordinates with `y` counted from the bottom row.
///
/// A `Point` by itself does not know the board size; [`crate::Board::contains`] tells whether it lies on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    x: u8,
    y: u8,
}

/// Why a text could not be read as a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePointError {
    /// The text is not a column letter followed by a row number.
    Malformed,
    /// The column or row lies beyond the largest board.
    OutOfRange,
}

impl ParsePointError {
    /// Stable snake_case code for the wire.
    pub fn code(&self) -> &'static str {
        match self {
            ParsePointError::Malformed => "malformed_point",
            ParsePointError::OutOfRange => "off_board",
        }
    }
}

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePointError::Malformed => {
                f.write_str("a point is a column letter and a row number, like h8")
            }
            ParsePointError::OutOfRange => f.write_str("the point lies beyond the largest board"),
        }
    }
}

impl std::error::Error for ParsePointError {}

impl Point {
    /// A point from zero-based coordinates; `None` when either lies beyond the largest board.
    pub const fn new(x: u8, y: u8) -> Option<Point> {
        if x < MAX_SIZE && y < MAX_SIZE {
            Some(Point { x, y })
        } else {
            None
        }
    }

    /// Zero-based column, from the left.
    pub const fn x(self) -> u8 {
        self.x
    }

    /// Zero-based row, from the bottom.
    pub const fn y(self) -> u8 {
        self.y
    }

    /// The centre of a board of the given side.
    pub const fn centre(size: u8) -> Point {
        Point {
            x: size / 2,
            y: size / 2,
        }
    }

    /// The point `(x + dx, y + dy)` when it stays on a board of side `size`.
    pub fn offset(self, dx: i32, dy: i32, size: u8) -> Option<Point> {
        let x = self.x as i32 + dx;
        let y = self.y as i32 + dy;
        if (0..size as i32).contains(&x) && (0..size as i32).contains(&y) {
            Some(Point {
                x: x as u8,
                y: y as u8,
            })
        } else {
            None
        }
    }

    /// Whether `other` is one of the eight neighbours of this point.
    pub fn touches(self, other: Point) -> bool {
        self != other && self.x.abs_diff(other.x) <= 1 && self.y.abs_diff(other.y) <= 1
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, self.y + 1)
    }
}

impl FromStr for Point {
    type Err = ParsePointError;

    /// Reads `h8`-style notation (case-insensitive column letter).
    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let bytes = s.as_bytes();
        let (&col, row) = bytes.split_first().ok_or(ParsePointError::Malformed)?;
        let col = col.to_ascii_lowercase();
        if !col.is_ascii_lowercase()
            || row.is_empty()
            || row.len() > 2
            || !row.iter().all(u8::is_ascii_digit)
        {
            return Err(ParsePointError::Malformed);
        }
        if row[0] == b'0' {
            return Err(ParsePointError::Malformed);
        }
        let row: u8 = std::str::from_utf8(row)
            .ok()
            .and_then(|r| r.parse().ok())
            .ok_or(ParsePointError::Malformed)?;
        Point::new(col - b'a', row - 1).ok_or(ParsePointError::OutOfRange)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Point, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_point_of_the_largest_board() {
        for x in 0..MAX_SIZE {
            for y in 0..MAX_SIZE {
                let p = Point::new(x, y).unwrap();
                assert_eq!(p.to_string().parse::<Point>(), Ok(p));
            }
        }
    }

    #[test]
    fn h8_is_the_centre_of_the_15x15_board() {
        assert_eq!("h8".parse::<Point>().unwrap(), Point::centre(15));
        assert_eq!(Point::centre(15).to_string(), "h8");
        assert_eq!("a1".parse::<Point>().unwrap(), Point::new(0, 0).unwrap());
        assert_eq!("O15".parse::<Point>().unwrap(), Point::new(14, 14).unwrap());
    }

    #[test]
    fn malformed_and_out_of_range_text_is_refused() {
        for bad in ["", "h", "8", "h0", "h08", "hh", "h8x", "h123", "#1", "h-1"] {
            assert_eq!(
                bad.parse::<Point>(),
                Err(ParsePointError::Malformed),
                "{bad}"
            );
        }
        // The largest board is 20x20: `t20` is on it, the 21st column or row is not.
        assert_eq!("t20".parse::<Point>(), Ok(Point::new(19, 19).unwrap()));
        assert_eq!("u1".parse::<Point>(), Err(ParsePointError::OutOfRange));
        assert_eq!("a21".parse::<Point>(), Err(ParsePointError::OutOfRange));
        assert_eq!("z99".parse::<Point>(), Err(ParsePointError::OutOfRange));
    }
}
