//! The engine's own board: stones as line masks, and for every empty point the pattern each colour would make
//! there along each line, kept up to date stone by stone. From the patterns come each point's threat class and
//! value (for move ordering and the evaluation) and running totals, so that the search reads them instead of
//! judging points from scratch. Under Renju the rules' own [`ForbiddenSet`] rides along and says where black may
//! not play.

use rules::renju::ForbiddenSet;
use rules::{Board, Color, Point, RuleSet, Rules, MAX_SIZE};

use crate::pattern::{self, tables, Tables};

/// Cells of the largest board; a point is indexed `y * MAX_SIZE + x` whatever the side.
pub const CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;
/// Cells per row of the index (the largest board's side).
pub const WIDTH: usize = MAX_SIZE as usize;
/// Lines per direction on the largest board (its diagonals).
const LINES: usize = 2 * WIDTH - 1;
const PAD: u32 = 5;

/// The threat class of an empty point for one colour: what a stone there makes over all four lines.
pub mod class {
    /// Nothing forcing.
    pub const NONE: u8 = 0;
    /// One flex three.
    pub const F3: u8 = 1;
    /// Two flex threes (a double three).
    pub const F3F3: u8 = 2;
    /// One four.
    pub const B4: u8 = 3;
    /// A four and a flex three.
    pub const B4F3: u8 = 4;
    /// A flex four, or two fours: wins unless the opponent makes five first.
    pub const F4: u8 = 5;
    /// A five.
    pub const FIVE: u8 = 6;
    /// How many classes.
    pub const COUNT: usize = 7;
}

/// The point index of a point.
#[inline]
pub fn cell(p: Point) -> usize {
    p.y() as usize * WIDTH + p.x() as usize
}

/// The point of an index.
#[inline]
pub fn point(i: usize) -> Point {
    Point::new((i % WIDTH) as u8, (i / WIDTH) as u8).expect("a cell of the board")
}

/// Zobrist keys per colour and cell, from a fixed SplitMix64 stream.
static ZOBRIST: [[u64; CELLS]; 2] = {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    keys
};

/// Value of each pattern for the point's owner-to-be (indexed by the pattern constants).
const PATTERN_VALUE: [i32; 11] = [0, 0, 0, 4, 10, 14, 60, 70, 500, 3000, 0];

fn classify(pats: [u8; 4]) -> (u8, i32) {
    let (mut five, mut f4, mut b4, mut f3) = (false, 0, 0, 0);
    let mut value = 0;
    for p in pats {
        value += PATTERN_VALUE[p as usize];
        match p {
            pattern::FIVE => five = true,
            pattern::F4 => f4 += 1,
            pattern::B4 => b4 += 1,
            pattern::F3 => f3 += 1,
            _ => {}
        }
    }
    let class = if five {
        class::FIVE
    } else if f4 > 0 || b4 >= 2 {
        class::F4
    } else if b4 == 1 && f3 > 0 {
        class::B4F3
    } else if b4 == 1 {
        class::B4
    } else if f3 >= 2 {
        class::F3F3
    } else if f3 == 1 {
        class::F3
    } else {
        class::NONE
    };
    let bonus = match class {
        class::F4 => 600,
        class::B4F3 => 400,
        class::F3F3 => 200,
        _ => 0,
    };
    (class, value + bonus)
}

/// A position for the search: stones, patterns, classes, values, hash and (under Renju) black's forbidden points.
#[derive(Clone)]
pub struct Position {
    size: u8,
    renju: bool,
    /// Per colour: whether only exactly five wins.
    exact: [bool; 2],
    cells: [Option<Color>; CELLS],
    lines: [[[u32; LINES]; 4]; 2],
    valid: [[u32; LINES]; 4],
    /// `(line, pos)` of every cell along each direction.
    line_pos: [[(u8, u8); 4]; CELLS],
    pats: [[[u8; 4]; CELLS]; 2],
    class: [[u8; CELLS]; 2],
    value: [[i32; CELLS]; 2],
    totals: [i32; 2],
    counts: [[u16; class::COUNT]; 2],
    /// Stones within two cells (Chebyshev) of each point.
    near: [u8; CELLS],
    /// Empty points with a stone within two cells: the candidates.
    candidates: [u64; CELLS.div_ceil(64)],
    hash: u64,
    stones: u16,
    forbidden: Option<Box<ForbiddenSet>>,
    tables: &'static Tables,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for y in (0..self.size).rev() {
            for x in 0..self.size {
                let c = match self.cells[y as usize * WIDTH + x as usize] {
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

impl Position {
    /// An empty position under these rules.
    pub fn new(rules: &Rules) -> Position {
        let size = rules.size();
        let n = size as usize;
        let renju = rules.restricts_black();
        let exact = match rules.rule_set() {
            RuleSet::Freestyle => [false, false],
            RuleSet::Standard => [true, true],
            RuleSet::Renju => [true, false],
        };
        let mut valid = [[0u32; LINES]; 4];
        let full = ((1u32 << n) - 1) << PAD;
        valid[0][..n].fill(full);
        valid[1][..n].fill(full);
        for line in 0..2 * n - 1 {
            let lo = line.saturating_sub(n - 1);
            let hi = line.min(n - 1);
            let mask = ((1u32 << (hi - lo + 1)) - 1) << (lo + PAD as usize);
            for family in &mut valid[2..] {
                family[line] = mask;
            }
        }
        let mut line_pos = [[(0u8, 0u8); 4]; CELLS];
        for y in 0..n {
            for x in 0..n {
                line_pos[y * WIDTH + x] = [
                    (y as u8, x as u8),
                    (x as u8, y as u8),
                    ((x + n - 1 - y) as u8, x as u8),
                    ((x + y) as u8, x as u8),
                ];
            }
        }
        let mut pos = Position {
            size,
            renju,
            exact,
            cells: [None; CELLS],
            lines: [[[0; LINES]; 4]; 2],
            valid,
            line_pos,
            pats: [[[0; 4]; CELLS]; 2],
            class: [[0; CELLS]; 2],
            value: [[0; CELLS]; 2],
            totals: [0; 2],
            counts: [[0; class::COUNT]; 2],
            near: [0; CELLS],
            candidates: [0; CELLS.div_ceil(64)],
            hash: 0,
            stones: 0,
            forbidden: renju.then(|| Box::new(ForbiddenSet::new(Board::new(size)))),
            tables: tables(),
        };
        pos.counts = [[0; class::COUNT]; 2];
        for i in pos.cells() {
            for d in 0..4 {
                pos.refresh(i, d);
            }
        }
        pos
    }

    /// The position of a board under these rules.
    pub fn from_board(rules: &Rules, board: &Board) -> Position {
        let mut pos = Position::new(rules);
        for p in board.points() {
            if let Some(c) = board.get(p) {
                pos.place(cell(p), c);
            }
        }
        pos
    }

    /// Board side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Every cell index of the board, bottom row first.
    pub fn cells(&self) -> impl Iterator<Item = usize> {
        let n = self.size as usize;
        (0..n).flat_map(move |y| (0..n).map(move |x| y * WIDTH + x))
    }

    /// The stone on a cell.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Color> {
        self.cells[i]
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.stones as usize
    }

    /// Whether every point is taken.
    pub fn is_full(&self) -> bool {
        self.stones as usize == self.size as usize * self.size as usize
    }

    /// The colour to move when colours alternate from black.
    pub fn to_move(&self) -> Color {
        if self.stones.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The Zobrist hash of the stones.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether the rules forbid black some points.
    pub fn renju(&self) -> bool {
        self.renju
    }

    /// The threat class of an empty cell for a colour (see [`class`]).
    #[inline]
    pub fn class(&self, c: Color, i: usize) -> u8 {
        self.class[c as usize][i]
    }

    /// The value of an empty cell for a colour.
    #[inline]
    pub fn value(&self, c: Color, i: usize) -> i32 {
        self.value[c as usize][i]
    }

    /// The pattern a stone of `c` on the empty cell `i` makes along direction `d`.
    #[inline]
    pub fn pattern(&self, c: Color, i: usize, d: usize) -> u8 {
        self.pats[c as usize][i][d]
    }

    /// How many empty cells have the given class for a colour.
    #[inline]
    pub fn count(&self, c: Color, class: u8) -> u16 {
        self.counts[c as usize][class as usize]
    }

    /// How many empty cells have at least the given class for a colour.
    #[inline]
    pub fn count_at_least(&self, c: Color, class: u8) -> u16 {
        self.counts[c as usize][class as usize..].iter().sum()
    }

    /// Whether black may not play the empty cell (always false outside Renju and for white).
    #[inline]
    pub fn forbidden(&self, c: Color, i: usize) -> bool {
        c == Color::Black
            && self
                .forbidden
                .as_ref()
                .is_some_and(|set| set.kind_at(point(i)).is_some())
    }

    /// Whether `c` may put a stone on the cell: empty and, for black under Renju, not forbidden.
    #[inline]
    pub fn playable(&self, c: Color, i: usize) -> bool {
        self.cells[i].is_none() && !self.forbidden(c, i)
    }

    /// Candidate cells: empty points within two of a stone, or the centre on an empty board.
    pub fn candidates(&self) -> impl Iterator<Item = usize> + '_ {
        let empty_board = self.stones == 0;
        let centre = cell(Point::centre(self.size));
        let mut word = 0;
        let mut bits = if empty_board { 0 } else { self.candidates[0] };
        let mut done_centre = !empty_board;
        std::iter::from_fn(move || {
            if !done_centre {
                done_centre = true;
                return Some(centre);
            }
            loop {
                if bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    return Some(word * 64 + b);
                }
                word += 1;
                if empty_board || word >= self.candidates.len() {
                    return None;
                }
                bits = self.candidates[word];
            }
        })
    }

    /// The cells where `c` completes a five now.
    pub fn five_cells(&self, c: Color) -> Vec<usize> {
        if self.count(c, class::FIVE) == 0 {
            return Vec::new();
        }
        self.candidates()
            .filter(|&i| self.class(c, i) == class::FIVE)
            .collect()
    }

    /// The static evaluation for `c` to move: its cells' values against the opponent's, the mover's weighted
    /// a little higher for the tempo.
    #[inline]
    pub fn evaluate(&self, c: Color) -> i32 {
        let own = self.totals[c as usize];
        let opp = self.totals[c.opposite() as usize];
        own + own / 8 - opp
    }

    /// Puts a stone of `c` on the empty cell `i`.
    pub fn place(&mut self, i: usize, c: Color) {
        debug_assert!(self.cells[i].is_none());
        self.cells[i] = Some(c);
        self.stones += 1;
        self.hash ^= ZOBRIST[c as usize][i];
        for d in 0..4 {
            let (line, pos) = self.line_pos[i][d];
            self.lines[c as usize][d][line as usize] |= 1 << (pos as u32 + PAD);
        }
        if let Some(set) = self.forbidden.as_mut() {
            set.place(point(i), c);
        }
        self.clear_cell(i);
        self.refresh_lines(i);
        self.touch_near(i, true);
    }

    /// Takes the stone off the cell `i`.
    pub fn remove(&mut self, i: usize) {
        let c = self.cells[i].expect("remove: a stone is there");
        self.cells[i] = None;
        self.stones -= 1;
        self.hash ^= ZOBRIST[c as usize][i];
        for d in 0..4 {
            let (line, pos) = self.line_pos[i][d];
            self.lines[c as usize][d][line as usize] &= !(1 << (pos as u32 + PAD));
        }
        if let Some(set) = self.forbidden.as_mut() {
            set.remove(point(i));
        }
        self.refresh_lines(i);
        self.touch_near(i, false);
    }

    fn touch_near(&mut self, i: usize, placed: bool) {
        let (x, y) = ((i % WIDTH) as i32, (i / WIDTH) as i32);
        let n = self.size as i32;
        for dy in -2..=2 {
            for dx in -2..=2 {
                let (qx, qy) = (x + dx, y + dy);
                if qx < 0 || qy < 0 || qx >= n || qy >= n {
                    continue;
                }
                let q = qy as usize * WIDTH + qx as usize;
                if q != i {
                    if placed {
                        self.near[q] += 1;
                    } else {
                        self.near[q] -= 1;
                    }
                }
                let candidate = self.cells[q].is_none() && self.near[q] > 0;
                let bit = 1u64 << (q % 64);
                if candidate {
                    self.candidates[q / 64] |= bit;
                } else {
                    self.candidates[q / 64] &= !bit;
                }
            }
        }
    }

    /// Refreshes the patterns of the cells within five of `i` along its four lines.
    fn refresh_lines(&mut self, i: usize) {
        let (x, y) = ((i % WIDTH) as i32, (i / WIDTH) as i32);
        let n = self.size as i32;
        const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for (d, (dx, dy)) in STEPS.into_iter().enumerate() {
            for k in -5..=5 {
                let (qx, qy) = (x + k * dx, y + k * dy);
                if qx < 0 || qy < 0 || qx >= n || qy >= n {
                    continue;
                }
                let q = qy as usize * WIDTH + qx as usize;
                if self.cells[q].is_none() {
                    self.refresh(q, d);
                }
            }
        }
    }

    /// An occupied cell has no patterns, class or value.
    fn clear_cell(&mut self, i: usize) {
        for c in 0..2 {
            self.pats[c][i] = [0; 4];
            self.set_class(c, i, class::NONE, 0);
        }
    }

    fn set_class(&mut self, c: usize, i: usize, class: u8, value: i32) {
        let old = self.class[c][i];
        self.counts[c][old as usize] -= u16::from(self.cells_counted(old));
        self.counts[c][class as usize] += u16::from(self.cells_counted(class));
        self.class[c][i] = class;
        self.totals[c] += value - self.value[c][i];
        self.value[c][i] = value;
    }

    /// Class NONE is not counted (it would be most of the board).
    #[inline]
    fn cells_counted(&self, class: u8) -> bool {
        class != class::NONE
    }

    /// Recomputes the patterns of the empty cell `i` along direction `d` for both colours.
    fn refresh(&mut self, i: usize, d: usize) {
        let (line, pos) = self.line_pos[i][d];
        let (line, pos) = (line as usize, pos as u32);
        let invalid = !self.valid[d][line];
        let black = self.lines[0][d][line];
        let white = self.lines[1][d][line];
        for (c, own, opp) in [(0usize, black, white), (1, white, black)] {
            let p = self
                .tables
                .get(self.exact[c], own >> pos, (opp | invalid) >> pos);
            if self.pats[c][i][d] != p {
                self.pats[c][i][d] = p;
                let (class, value) = classify(self.pats[c][i]);
                self.set_class(c, i, class, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> usize {
        cell(s.parse().unwrap())
    }

    #[test]
    fn placing_and_removing_restores_the_position() {
        let rules = Rules::renju(rules::ForbiddenPolicy::Reject);
        let mut pos = Position::new(&rules);
        let fresh_totals = pos.totals;
        for (k, s) in ["h8", "h9", "i8", "i9", "j8"].iter().enumerate() {
            let c = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            pos.place(p(s), c);
        }
        assert_eq!(pos.class(Color::Black, p("k8")), class::F4);
        assert_eq!(pos.class(Color::Black, p("g8")), class::F4);
        for s in ["j8", "i9", "i8", "h9", "h8"] {
            pos.remove(p(s));
        }
        assert_eq!(pos.totals, fresh_totals);
        assert_eq!(pos.hash(), 0);
        assert_eq!(pos.candidates().collect::<Vec<_>>(), vec![p("h8")]);
    }

    #[test]
    fn kept_patterns_equal_fresh_ones() {
        let rules = Rules::standard();
        let mut pos = Position::new(&rules);
        let moves = [
            "h8", "h9", "i9", "g7", "j10", "k11", "i8", "g8", "i7", "i10",
        ];
        for (k, s) in moves.iter().enumerate() {
            let c = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            pos.place(p(s), c);
        }
        let mut board = Board::new(15);
        for i in pos.cells() {
            if let Some(c) = pos.get(i) {
                board.place(point(i), c);
            }
        }
        let fresh = Position::from_board(&rules, &board);
        assert_eq!(fresh.pats, pos.pats);
        assert_eq!(fresh.totals, pos.totals);
        assert_eq!(fresh.counts, pos.counts);
    }
}
