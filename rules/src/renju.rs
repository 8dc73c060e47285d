//! Renju's forbidden points for black (RIF 1996/1998).
//!
//! - A **five** is exactly five in an unbroken line; six or more is an **overline**. Black making exactly five
//!   wins even if the same stone also makes a forbidden shape.
//! - A **four** is four stones that one more stone turns into exactly five; two fours on one line
//!   (`X_XXX_X`, `XX_XX_XX`) count as two.
//! - A **three** is a line where one more stone makes a **straight four** (two distinct points each completing
//!   exactly five), *and* that stone is itself not forbidden (judged with the new stone on the board,
//!   recursively) and makes no five in any line.
//! - Black may not play a point making an overline, two or more fours, or two or more threes.

use std::fmt;

use crate::board::PAD;
use crate::pattern::{line_info, tables, LineInfo, Lines, WINDOW};
use crate::point::MAX_SIZE;
use crate::{Board, Color, Point};

/// Which Renju restriction a black move breaks. When several apply, the first of this order is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum ForbiddenKind {
    /// Six or more black stones in a row.
    Overline,
    /// Two or more fours at once.
    DoubleFour,
    /// Two or more threes at once.
    DoubleThree,
}

impl ForbiddenKind {
    /// Stable snake_case name (`overline`, `double_four`, `double_three`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ForbiddenKind::Overline => "overline",
            ForbiddenKind::DoubleFour => "double_four",
            ForbiddenKind::DoubleThree => "double_three",
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a black stone on an empty point would do under Renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlackMove {
    /// Makes exactly five: black wins.
    Five,
    /// Breaks a restriction.
    Forbidden(ForbiddenKind),
    /// Neither.
    Free,
}

const WINDOW_MASK: u32 = (1 << WINDOW) - 1;

/// The black and blocked cells of the eleven-cell window centred on `p` along direction `d`.
#[inline]
fn window(board: &Board, p: Point, d: usize) -> (u32, u32) {
    let (line, pos) = board.line_pos(p, d);
    // Bit `pos + PAD` is the point, so shifting by `pos` leaves cells pos-5..=pos+5 in bits 0..=10.
    debug_assert_eq!(PAD, 5);
    let black = (board.mask(Color::Black, d, line) >> pos) & WINDOW_MASK;
    let blocked =
        ((board.mask(Color::White, d, line) | !board.valid(d, line)) >> pos) & WINDOW_MASK;
    (black, blocked)
}

/// The verdict for a black stone on `p` from its four line answers, also telling whether it rested on other
/// points (a possible double-three, whose threes are only real if their completing stones are not forbidden
/// themselves). A verdict that did not is decided by the eleven-cell windows through `p` alone.
///
/// The second value is `None` for a local verdict, else how many levels deep the recursive three check went: a
/// check `r` levels deep read no cell farther than `4 r + 5` from `p` (each level moves at most four cells along a
/// line, and each judged point reads five cells along its lines), so a stone placed farther away cannot change it.
fn verdict(board: &mut Board, p: Point, infos: &[LineInfo; 4]) -> (BlackMove, Option<u8>) {
    match verdict_local(infos) {
        Some(local) => (local, None),
        None => {
            let mut reach = 1;
            (count_threes(board, p, infos, 1, &mut reach), Some(reach))
        }
    }
}

#[inline]
fn line_infos(board: &Board, p: Point) -> [LineInfo; 4] {
    let info = |d| {
        let (b, o) = window(board, p, d);
        line_info(b, o)
    };
    [info(0), info(1), info(2), info(3)]
}

/// Judges a black stone on the empty point `p`. The board is used as scratch space for the recursive three
/// check and is left as it was.
pub fn judge_black(board: &mut Board, p: Point) -> BlackMove {
    debug_assert!(board.is_empty_at(p));
    let infos = line_infos(board, p);
    verdict(board, p, &infos).0
}

/// [`judge_black`] inside a three check `depth` levels deep, raising `reach` to the deepest level it reads.
fn judge_black_at(board: &mut Board, p: Point, depth: u8, reach: &mut u8) -> BlackMove {
    *reach = (*reach).max(depth);
    let infos = line_infos(board, p);
    match verdict_local(&infos) {
        Some(local) => local,
        None => count_threes(board, p, &infos, depth + 1, reach),
    }
}

/// The verdict from the line answers alone, or `None` when two or more lines offer a three to be checked.
/// A five wins over everything; then overline, double-four, and fewer than two threes is free.
#[inline]
fn verdict_local(infos: &[LineInfo; 4]) -> Option<BlackMove> {
    let lines = Lines::of(infos);
    if lines.five() {
        Some(BlackMove::Five)
    } else if lines.overline() {
        Some(BlackMove::Forbidden(ForbiddenKind::Overline))
    } else if lines.fours() >= 2 {
        Some(BlackMove::Forbidden(ForbiddenKind::DoubleFour))
    } else if lines.three_lines() < 2 {
        Some(BlackMove::Free)
    } else {
        None
    }
}

/// With two or more lines through `p` offering a three: places `p` and counts the lines whose three is real.
fn count_threes(
    board: &mut Board,
    p: Point,
    infos: &[LineInfo; 4],
    depth: u8,
    reach: &mut u8,
) -> BlackMove {
    board.place(p, Color::Black);
    let mut threes = 0;
    for (d, info) in infos.iter().enumerate() {
        let mut cells = info.three_points();
        if cells == 0 {
            continue;
        }
        let (line, pos) = board.line_pos(p, d);
        while cells != 0 {
            let k = cells.trailing_zeros();
            cells &= cells - 1;
            let q = board.point_at(d, line, pos + k - 5);
            if judge_black_at(board, q, depth, reach) == BlackMove::Free {
                threes += 1;
                break;
            }
        }
        if threes >= 2 {
            break;
        }
    }
    board.remove(p);
    if threes >= 2 {
        BlackMove::Forbidden(ForbiddenKind::DoubleThree)
    } else {
        BlackMove::Free
    }
}

/// Whether a point could matter to black at all: every five or forbidden shape needs at least two black stones
/// on two lines through the point, or four on one.
#[inline]
fn may_matter(board: &Board, p: Point) -> bool {
    let mut lines_with_two = 0;
    for d in 0..4 {
        let (b, _) = window(board, p, d);
        let n = b.count_ones();
        if n >= 4 {
            return true;
        }
        if n >= 2 {
            lines_with_two += 1;
        }
    }
    lines_with_two >= 2
}

/// Every empty point where black may not play, with the restriction it breaks, in board order (bottom row
/// first). Points where black makes exactly five are never forbidden.
pub fn forbidden_points(board: &Board) -> Vec<(Point, ForbiddenKind)> {
    // Line by line, the answers of the empty points with two black stones or more within five cells (a
    // bit-sliced count), on lines that hold two or more: the only answers that are not nothing (see `line_info`).
    // Most lines hold fewer. Then every point with an answer gets its verdict, in board order.
    let n = board.size() as usize;
    let mut infos = [[LineInfo::NONE; 4]; CELLS];
    let mut answered = [0u64; WORDS];
    // `d` picks the board's masks as well as the answer's slot.
    #[allow(clippy::needless_range_loop)]
    for d in 0..4 {
        let lines = if d < 2 { n } else { 2 * n - 1 };
        for line in 0..lines {
            let black = board.mask(Color::Black, d, line);
            if black.count_ones() < 2 {
                continue;
            }
            let white = board.mask(Color::White, d, line);
            let valid = board.valid(d, line);
            let blocked = white | !valid;
            let (mut one, mut two) = (0u32, 0u32);
            for k in 1..=5 {
                for shifted in [black << k, black >> k] {
                    two |= one & shifted;
                    one |= shifted;
                }
            }
            let mut points = two & valid & !black & !white;
            while points != 0 {
                let pos = points.trailing_zeros() - PAD;
                points &= points - 1;
                let info = line_info((black >> pos) & WINDOW_MASK, (blocked >> pos) & WINDOW_MASK);
                if !info.is_empty() {
                    let i = cell(board.point_at(d, line, pos));
                    infos[i][d] = info;
                    answered[i / 64] |= 1 << (i % 64);
                }
            }
        }
    }
    let mut scratch = None;
    let mut out = Vec::new();
    for (w, &word) in answered.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let p = point_of(i);
            let verdict = match verdict_local(&infos[i]) {
                Some(local) => local,
                None => {
                    let scratch = scratch.get_or_insert_with(|| board.clone());
                    count_threes(scratch, p, &infos[i], 1, &mut 1)
                }
            };
            if let BlackMove::Forbidden(kind) = verdict {
                out.push((p, kind));
            }
        }
    }
    out
}

/// [`judge_black`] on a shared board: most verdicts are local and read the board only, so a scratch copy (kept in
/// `scratch` for the next point) is made only for a recursive three check.
#[inline]
fn judge_black_on(board: &Board, scratch: &mut Option<Board>, p: Point) -> BlackMove {
    let infos = line_infos(board, p);
    match verdict_local(&infos) {
        Some(local) => local,
        None => {
            let scratch = scratch.get_or_insert_with(|| board.clone());
            count_threes(scratch, p, &infos, 1, &mut 1)
        }
    }
}

/// Whether black may not play `p` (an empty point) on this board, and why.
pub fn forbidden_at(board: &Board, p: Point) -> Option<ForbiddenKind> {
    if !board.is_empty_at(p) || !may_matter(board, p) {
        return None;
    }
    match judge_black_on(board, &mut None, p) {
        BlackMove::Forbidden(kind) => Some(kind),
        _ => None,
    }
}

/// Points of the largest board, the length of the kept set's per-point tables.
const CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;
/// Words of a bit set over [`CELLS`] points.
const WORDS: usize = CELLS.div_ceil(64);
/// The kept set indexes points as `y * MAX_SIZE + x` whatever the board's side, so that a step along a line is a
/// constant: one cell along each direction (see [`Board::line_pos`]).
const STEP: [isize; 4] = [
    1,
    MAX_SIZE as isize,
    MAX_SIZE as isize + 1,
    1 - MAX_SIZE as isize,
];

#[inline]
fn cell(p: Point) -> usize {
    p.y() as usize * MAX_SIZE as usize + p.x() as usize
}

#[inline]
fn point_of(i: usize) -> Point {
    Point::new((i % MAX_SIZE as usize) as u8, (i / MAX_SIZE as usize) as u8)
        .expect("a cell of the board")
}

/// Black's forbidden points kept up to date as stones are placed and removed, without rescanning the whole board.
/// Each empty point keeps its four line answers; a stone changes only the answers of the points within five cells
/// of it along its four lines. Verdicts that rest on other points (possible double-threes, few) are judged again
/// when the stone lies within their reach.
///
/// Every table has a fixed size and the set owns no allocation, so a fresh set is a few kilobytes of zeros (on an
/// empty board every answer is "nothing") and a clone is one copy, as a search that keeps a set per node needs.
///
/// Two sets are equal when every kept table is: a set kept stone by stone equals the fresh set of its board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForbiddenSet {
    board: Board,
    infos: [[LineInfo; 4]; CELLS],
    kinds: [Option<ForbiddenKind>; CELLS],
    /// For each point, 0 when its verdict is local, else how deep its three check went.
    reach: [u8; CELLS],
    /// The points whose `reach` is not 0: their verdict depends on other points and is judged again after any
    /// stone within their reach.
    dependent: [u64; WORDS],
}

impl ForbiddenSet {
    /// The forbidden points of a board.
    // Inlined so that the set is built where the caller keeps it, not built and then copied there (the copy
    // cost as much as the zeros).
    #[inline]
    pub fn new(board: Board) -> ForbiddenSet {
        let mut set = ForbiddenSet {
            board,
            infos: [[LineInfo::NONE; 4]; CELLS],
            kinds: [None; CELLS],
            reach: [0; CELLS],
            dependent: [0; WORDS],
        };
        // Only lines with two black stones or more have an answer anywhere (see `line_info`); an empty board
        // (the common start) has none, and its set is the zeros above.
        if set.board.stone_count() != 0 {
            set.answer_all();
        }
        set
    }

    /// Computes the answers and verdicts of a set of zeros from its board.
    fn answer_all(&mut self) {
        let set = self;
        let n = set.board.size() as usize;
        let mut judge = [0u64; WORDS];
        for d in 0..4 {
            let lines = if d < 2 { n } else { 2 * n - 1 };
            for line in 0..lines {
                let black = set.board.mask(Color::Black, d, line);
                if black.count_ones() < 2 {
                    continue;
                }
                let white = set.board.mask(Color::White, d, line);
                let valid = set.board.valid(d, line);
                let blocked = white | !valid;
                let mut empty = valid & !black & !white;
                while empty != 0 {
                    let pos = empty.trailing_zeros() - PAD;
                    empty &= empty - 1;
                    let i = cell(set.board.point_at(d, line, pos));
                    let info =
                        line_info((black >> pos) & WINDOW_MASK, (blocked >> pos) & WINDOW_MASK);
                    set.infos[i][d] = info;
                    if !info.is_empty() {
                        judge[i / 64] |= 1 << (i % 64);
                    }
                }
            }
        }
        set.judge_all(&judge);
    }

    /// Judges every point of a bit set.
    fn judge_all(&mut self, judge: &[u64; WORDS]) {
        for (w, &word) in judge.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.judge(i);
            }
        }
    }

    fn judge(&mut self, i: usize) {
        let infos = self.infos[i];
        // Points with nothing on their lines (the common case, and every occupied point) are free.
        let (verdict, reach) = if infos != [LineInfo::NONE; 4] {
            let p = point_of(i);
            debug_assert!(self.board.is_empty_at(p));
            verdict(&mut self.board, p, &infos)
        } else {
            (BlackMove::Free, None)
        };
        self.kinds[i] = match verdict {
            BlackMove::Forbidden(kind) => Some(kind),
            _ => None,
        };
        let reach = reach.unwrap_or(0);
        self.reach[i] = reach;
        let bit = 1 << (i % 64);
        if reach != 0 {
            self.dependent[i / 64] |= bit;
        } else {
            self.dependent[i / 64] &= !bit;
        }
    }

    /// The board the set describes.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Places a stone (on an empty point) and brings the set up to date.
    pub fn place(&mut self, p: Point, color: Color) {
        self.board.place(p, color);
        self.refresh_around(p);
    }

    /// Removes a stone and brings the set up to date.
    pub fn remove(&mut self, p: Point) {
        self.board.remove(p);
        self.refresh_around(p);
    }

    fn refresh_around(&mut self, p: Point) {
        let centre = cell(p);
        // The points to judge again: `p` itself, those whose line answers changed, and the dependent ones within
        // reach; each once.
        let mut judge = [0u64; WORDS];
        judge[centre / 64] |= 1 << (centre % 64);
        let patterns = tables();
        for (d, step) in STEP.into_iter().enumerate() {
            // The line's masks are the same for every point on it: read them once.
            let (line, pos) = self.board.line_pos(p, d);
            let black = self.board.mask(Color::Black, d, line);
            let white = self.board.mask(Color::White, d, line);
            let valid = self.board.valid(d, line);
            // With fewer than two black stones on the line before and after the change, every answer on it is
            // nothing, both times (and `p` itself has none, empty or not).
            if (black | 1 << (pos + PAD)).count_ones() < 2 {
                continue;
            }
            let empty = valid & !(black | white);
            let blocked = white | !valid;
            // `p` itself: placed, it has no answers; emptied, it has the window's.
            let own = if empty & (1 << (pos + PAD)) != 0 {
                patterns.info((black >> pos) & WINDOW_MASK, (blocked >> pos) & WINDOW_MASK)
            } else {
                LineInfo::NONE
            };
            self.infos[centre][d] = own;
            // Bit j of the window is the point j - 5 cells from `p` along the line; bits off the board are clear.
            // An occupied point other than `p` was occupied before too and has no answers: only the empty ones
            // are computed again.
            let mut cells = (empty >> pos) & WINDOW_MASK & !(1 << 5);
            while cells != 0 {
                let j = cells.trailing_zeros();
                cells &= cells - 1;
                let q = (centre as isize + (j as isize - 5) * step) as usize;
                let shift = pos + j - 5;
                let info = patterns.info(
                    (black >> shift) & WINDOW_MASK,
                    (blocked >> shift) & WINDOW_MASK,
                );
                let slot = &mut self.infos[q][d];
                if *slot != info {
                    *slot = info;
                    judge[q / 64] |= 1 << (q % 64);
                }
            }
        }
        for (w, &word) in self.dependent.iter().enumerate() {
            let mut bits = word & !judge[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let q = point_of(w * 64 + b);
                let distance = q.x().abs_diff(p.x()).max(q.y().abs_diff(p.y())) as u32;
                if distance <= 4 * self.reach[w * 64 + b] as u32 + 5 {
                    judge[w] |= 1 << b;
                }
            }
        }
        self.judge_all(&judge);
    }

    /// Whether black may not play `p`, and why.
    pub fn kind_at(&self, p: Point) -> Option<ForbiddenKind> {
        if self.board.contains(p) {
            self.kinds[cell(p)]
        } else {
            None
        }
    }

    /// The forbidden points with their kinds, in board order.
    pub fn points(&self) -> Vec<(Point, ForbiddenKind)> {
        self.board
            .points()
            .filter_map(|p| self.kind_at(p).map(|k| (p, k)))
            .collect()
    }
}
