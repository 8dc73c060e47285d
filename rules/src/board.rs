//! The board: stones on points, kept both as cells and as bit masks along every line so that patterns through a
//! point are read with a few shifts.

use crate::{Color, Point};

/// Bits of padding below every line mask, so that a window of five cells either side of any point can be
/// read with one shift.
pub(crate) const PAD: u32 = 5;
/// Lines per direction on the largest board (its diagonals: 2 * 20 - 1). A line mask holds the largest side and
/// five bits of padding either side in its 32 bits (20 + 2 * 5 = 30).
const LINES: usize = 2 * crate::point::MAX_SIZE as usize - 1;

/// One of the four line directions through a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Left to right.
    Horizontal = 0,
    /// Bottom to top.
    Vertical = 1,
    /// Bottom-left to top-right.
    Diagonal = 2,
    /// Top-left to bottom-right.
    AntiDiagonal = 3,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// The step `(dx, dy)` along this direction.
    pub const fn step(self) -> (i32, i32) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }
}

/// A board of stones. Any arrangement is allowed here (it describes positions, not games); a [`crate::Game`]
/// owns the board of a game being played and keeps it legal.
///
/// The stones are kept only as line masks (the horizontal ones double as the cells), so that a board is 1.2 KB to
/// clear or copy; which points are on the board depends on the side alone and is read from a table made at
/// compile time.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    size: u8,
    stones: u16,
    /// `masks[color][dir][line]`, bit `pos + PAD` set where that colour has a stone.
    masks: [[[u32; LINES]; 4]; 2],
}

/// The masks of the points of every line that are on a board of side `size`: `valid[dir][line]`, bit `pos + PAD`.
const fn valid_masks(size: u32) -> [[u32; LINES]; 4] {
    let n = size;
    let mut valid = [[0u32; LINES]; 4];
    let full = ((1u32 << n) - 1) << PAD;
    let mut line = 0;
    while line < n {
        valid[0][line as usize] = full;
        valid[1][line as usize] = full;
        line += 1;
    }
    line = 0;
    while line < 2 * n - 1 {
        // On both diagonal families x runs from max(0, line - n + 1) to min(n - 1, line).
        let lo = line.saturating_sub(n - 1);
        let hi = if line < n - 1 { line } else { n - 1 };
        let mask = ((1u32 << (hi - lo + 1)) - 1) << (lo + PAD);
        valid[2][line as usize] = mask;
        valid[3][line as usize] = mask;
        line += 1;
    }
    valid
}

/// How many board sides there are, from [`crate::point::MIN_SIZE`] to [`crate::point::MAX_SIZE`].
const SIDES: usize = (crate::point::MAX_SIZE - crate::point::MIN_SIZE + 1) as usize;

/// [`valid_masks`] of every side from 5 to 20, indexed by `side - 5`.
static VALID: [[[u32; LINES]; 4]; SIDES] = {
    let mut all = [[[0u32; LINES]; 4]; SIDES];
    let mut k = 0;
    while k < SIDES {
        all[k] = valid_masks(k as u32 + crate::point::MIN_SIZE as u32);
        k += 1;
    }
    all
};

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Board {}x{}", self.size, self.size)?;
        for y in (0..self.size).rev() {
            write!(f, "{:>2} ", y + 1)?;
            for x in 0..self.size {
                let c = match self.get(Point::new(x, y).unwrap()) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Board {
    /// An empty board of the given side (5 to 20).
    #[inline]
    pub fn new(size: u8) -> Board {
        assert!(
            (crate::point::MIN_SIZE..=crate::point::MAX_SIZE).contains(&size),
            "board side {size} out of range"
        );
        Board {
            size,
            stones: 0,
            masks: [[[0; LINES]; 4]; 2],
        }
    }

    /// Board side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// How many stones are on the board.
    pub fn stone_count(&self) -> usize {
        self.stones as usize
    }

    /// Whether every point is occupied.
    pub fn is_full(&self) -> bool {
        self.stones as usize == self.size as usize * self.size as usize
    }

    /// Whether the point lies on this board.
    pub fn contains(&self, p: Point) -> bool {
        p.x() < self.size && p.y() < self.size
    }

    /// The stone on a point, if any. Points off the board are empty.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        if !self.contains(p) {
            return None;
        }
        let bit = 1 << (p.x() as u32 + PAD);
        let row = p.y() as usize;
        if self.masks[0][0][row] & bit != 0 {
            Some(Color::Black)
        } else if self.masks[1][0][row] & bit != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Whether the point is on the board and empty.
    #[inline]
    pub fn is_empty_at(&self, p: Point) -> bool {
        let bit = 1 << (p.x() as u32 + PAD);
        let row = p.y() as usize;
        self.contains(p) && (self.masks[0][0][row] | self.masks[1][0][row]) & bit == 0
    }

    /// `(line, pos)` of a point along a direction.
    #[inline]
    pub(crate) fn line_pos(&self, p: Point, d: usize) -> (usize, u32) {
        let (x, y) = (p.x() as usize, p.y() as usize);
        match d {
            0 => (y, x as u32),
            1 => (x, y as u32),
            2 => (x + self.size as usize - 1 - y, x as u32),
            _ => (x + y, x as u32),
        }
    }

    /// The point at `pos` of `line` along direction `d`.
    #[inline]
    pub(crate) fn point_at(&self, d: usize, line: usize, pos: u32) -> Point {
        let pos = pos as usize;
        let (x, y) = match d {
            0 => (pos, line),
            1 => (line, pos),
            2 => (pos, pos + self.size as usize - 1 - line),
            _ => (pos, line - pos),
        };
        Point::new(x as u8, y as u8).expect("point on the board")
    }

    /// The mask of `color`'s stones along a line (bit `pos + PAD`).
    #[inline]
    pub(crate) fn mask(&self, color: Color, d: usize, line: usize) -> u32 {
        self.masks[color as usize][d][line]
    }

    /// The mask of points of a line that are on the board.
    #[inline]
    pub(crate) fn valid(&self, d: usize, line: usize) -> u32 {
        VALID[(self.size - crate::point::MIN_SIZE) as usize][d][line]
    }

    /// Puts a stone on an empty point of the board.
    ///
    /// # Panics
    /// When the point is off the board or occupied: callers check first ([`Board::is_empty_at`]).
    pub fn place(&mut self, p: Point, color: Color) {
        assert!(self.is_empty_at(p), "place on {p}: not an empty point");
        self.stones += 1;
        for d in 0..4 {
            let (line, pos) = self.line_pos(p, d);
            self.masks[color as usize][d][line] |= 1 << (pos + PAD);
        }
    }

    /// Removes the stone from a point.
    ///
    /// # Panics
    /// When the point holds no stone.
    pub fn remove(&mut self, p: Point) {
        let color = self
            .get(p)
            .unwrap_or_else(|| panic!("remove from {p}: no stone"));
        self.stones -= 1;
        for d in 0..4 {
            let (line, pos) = self.line_pos(p, d);
            self.masks[color as usize][d][line] &= !(1 << (pos + PAD));
        }
    }

    /// Length of the unbroken run of `color` through `p` along direction `d`, counting `p` itself as that colour.
    #[inline]
    pub fn run_through(&self, p: Point, d: Direction, color: Color) -> u32 {
        let (down, up) = self.run_ends(p, d, color);
        1 + up + down
    }

    /// How many stones of `color` follow `p` along `d` unbroken: `(before, after)` it in line order.
    #[inline]
    pub(crate) fn run_ends(&self, p: Point, d: Direction, color: Color) -> (u32, u32) {
        let (line, pos) = self.line_pos(p, d as usize);
        let bit = pos + PAD;
        let m = self.mask(color, d as usize, line) | (1 << bit);
        let up = (!(m >> bit)).trailing_zeros() - 1;
        let down = (!(m << (31 - bit))).leading_zeros() - 1;
        (down, up)
    }

    /// The points of the run of `color` through `p` along `d` (with `p` counted as that colour), in line order.
    pub fn run_points(&self, p: Point, d: Direction, color: Color) -> Vec<Point> {
        let (dx, dy) = d.step();
        let mut start = p;
        while let Some(q) = start.offset(-dx, -dy, self.size) {
            if self.get(q) != Some(color) {
                break;
            }
            start = q;
        }
        let len = self.run_through(p, d, color);
        (0..len as i32)
            .map(|k| start.offset(k * dx, k * dy, self.size).expect("on board"))
            .collect()
    }

    /// Every point of the board, bottom row first.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.size;
        (0..n).flat_map(move |y| (0..n).map(move |x| Point::new(x, y).expect("on board")))
    }

    /// The stones of one colour, bottom row first.
    pub fn stones_of(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        self.points().filter(move |&p| self.get(p) == Some(color))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_coordinates_round_trip_on_both_sizes() {
        for size in [5u8, 15, 19, 20] {
            let b = Board::new(size);
            for p in b.points() {
                for d in 0..4 {
                    let (line, pos) = b.line_pos(p, d);
                    assert_eq!(b.point_at(d, line, pos), p);
                    assert_ne!(b.valid(d, line) & (1 << (pos + PAD)), 0, "{p} dir {d}");
                }
            }
        }
    }

    #[test]
    fn runs_are_counted_through_a_point_in_each_direction() {
        let mut b = Board::new(15);
        for s in ["f6", "g7", "i9", "j10", "h9"] {
            b.place(s.parse().unwrap(), Color::Black);
        }
        let h8 = "h8".parse().unwrap();
        assert_eq!(b.run_through(h8, Direction::Diagonal, Color::Black), 5);
        assert_eq!(b.run_through(h8, Direction::Vertical, Color::Black), 2);
        assert_eq!(b.run_through(h8, Direction::Horizontal, Color::Black), 1);
        let pts: Vec<String> = b
            .run_points(h8, Direction::Diagonal, Color::Black)
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(pts, ["f6", "g7", "h8", "i9", "j10"]);
    }
}
