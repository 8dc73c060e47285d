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
use crate::pattern::{line_info, LineInfo, WINDOW};
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

fn line_infos(board: &Board, p: Point) -> [LineInfo; 4] {
    std::array::from_fn(|d| {
        let (b, o) = window(board, p, d);
        line_info(b, o)
    })
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
fn verdict_local(infos: &[LineInfo; 4]) -> Option<BlackMove> {
    let mut fours = 0;
    let mut overline = false;
    let mut three_lines = 0;
    for info in infos {
        if info.five() {
            return Some(BlackMove::Five);
        }
        overline |= info.overline();
        fours += info.fours();
        three_lines += (info.three_points() != 0) as u32;
    }
    if overline {
        Some(BlackMove::Forbidden(ForbiddenKind::Overline))
    } else if fours >= 2 {
        Some(BlackMove::Forbidden(ForbiddenKind::DoubleFour))
    } else if three_lines < 2 {
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
    // First find, line by line, the empty points that could matter (see `may_matter`): a bit-sliced counter of
    // the black stones within five cells, on lines that hold two black stones or more. Most lines hold fewer.
    const STRONG: u8 = 0x10;
    let n = board.size() as usize;
    let mut score = [0u8; 361];
    for d in 0..4 {
        let lines = if d < 2 { n } else { 2 * n - 1 };
        for line in 0..lines {
            let black = board.mask(Color::Black, d, line);
            if black.count_ones() < 2 {
                continue;
            }
            let empty = board.valid(d, line) & !black & !board.mask(Color::White, d, line);
            let (mut c0, mut c1, mut c2) = (0u32, 0u32, 0u32);
            for k in 1..=5 {
                for shifted in [black << k, black >> k] {
                    let carry0 = c0 & shifted;
                    c0 ^= shifted;
                    let carry1 = c1 & carry0;
                    c1 ^= carry0;
                    c2 |= carry1;
                }
            }
            let strong = c2 & empty;
            let mut two = (c1 | c2) & empty;
            while two != 0 {
                let bit = two.trailing_zeros();
                two &= two - 1;
                let p = board.point_at(d, line, bit - PAD);
                let i = p.y() as usize * n + p.x() as usize;
                score[i] += 1;
                if strong & (1 << bit) != 0 {
                    score[i] |= STRONG;
                }
            }
        }
    }
    let mut scratch = None;
    let mut out = Vec::new();
    for (i, &s) in score[..n * n].iter().enumerate() {
        if s & 0x0f >= 2 || s & STRONG != 0 {
            let p = Point::new((i % n) as u8, (i / n) as u8).expect("on the board");
            let scratch = scratch.get_or_insert_with(|| board.clone());
            if let BlackMove::Forbidden(kind) = judge_black(scratch, p) {
                out.push((p, kind));
            }
        }
    }
    out
}

/// Whether black may not play `p` (an empty point) on this board, and why.
pub fn forbidden_at(board: &Board, p: Point) -> Option<ForbiddenKind> {
    if !board.is_empty_at(p) || !may_matter(board, p) {
        return None;
    }
    match judge_black(&mut board.clone(), p) {
        BlackMove::Forbidden(kind) => Some(kind),
        _ => None,
    }
}

/// Black's forbidden points kept up to date as stones are placed, without rescanning the whole board. Each empty
/// point keeps its four line answers; a stone changes only the answers of the points within five cells of it
/// along its four lines. Verdicts that rest on other points (possible double-threes, few) are all judged again.
#[derive(Clone, Debug)]
pub struct ForbiddenSet {
    board: Board,
    infos: Vec<[LineInfo; 4]>,
    kinds: Vec<Option<ForbiddenKind>>,
    /// Points whose verdict depends on other points: judged again after any stone within their reach.
    dependent: Vec<Point>,
    /// For each point, 0 when its verdict is local, else how deep its three check went.
    reach: Vec<u8>,
    /// Some point became dependent or stopped being so since `dependent` was last brought up to date.
    dependents_changed: bool,
}

impl ForbiddenSet {
    /// The forbidden points of a board.
    pub fn new(board: Board) -> ForbiddenSet {
        let cells = board.size() as usize * board.size() as usize;
        let mut set = ForbiddenSet {
            infos: vec![[LineInfo::default(); 4]; cells],
            kinds: vec![None; cells],
            dependent: Vec::new(),
            reach: vec![0; cells],
            dependents_changed: false,
            board,
        };
        let points: Vec<Point> = set
            .board
            .points()
            .filter(|&p| set.board.is_empty_at(p))
            .collect();
        for &p in &points {
            let i = set.index(p);
            set.infos[i] = line_infos(&set.board, p);
        }
        for &p in &points {
            set.judge(p);
        }
        set.collect_dependent(&points);
        set
    }

    fn index(&self, p: Point) -> usize {
        p.y() as usize * self.board.size() as usize + p.x() as usize
    }

    fn judge(&mut self, p: Point) {
        let i = self.index(p);
        let infos = self.infos[i];
        // Occupied points and points with nothing on their lines (the common case) are free.
        let (verdict, reach) =
            if infos.iter().any(|info| !info.is_empty()) && self.board.is_empty_at(p) {
                verdict(&mut self.board, p, &infos)
            } else {
                (BlackMove::Free, None)
            };
        self.kinds[i] = match verdict {
            BlackMove::Forbidden(kind) => Some(kind),
            _ => None,
        };
        let reach = reach.unwrap_or(0);
        self.dependents_changed |= (self.reach[i] == 0) != (reach == 0);
        self.reach[i] = reach;
    }

    /// Brings the list of dependent points in line with their flags after some were judged.
    fn collect_dependent(&mut self, judged: &[Point]) {
        if !std::mem::take(&mut self.dependents_changed) {
            return;
        }
        let size = self.board.size() as usize;
        let reach = &self.reach;
        self.dependent
            .retain(|q| reach[q.y() as usize * size + q.x() as usize] != 0);
        for &q in judged {
            if self.reach[self.index(q)] != 0 && !self.dependent.contains(&q) {
                self.dependent.push(q);
            }
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
        let mut touched = [p; 41];
        let mut count = 1;
        for d in 0..4 {
            // The line's masks are the same for every point on it: read them once.
            let (line, pos) = self.board.line_pos(p, d);
            let black = self.board.mask(Color::Black, d, line);
            let white = self.board.mask(Color::White, d, line);
            let valid = self.board.valid(d, line);
            let blocked = white | !valid;
            for k in -5i32..=5 {
                let qpos = pos as i32 + k;
                let bit = qpos + PAD as i32;
                if qpos < 0 || valid & (1 << bit) == 0 {
                    continue;
                }
                let q = self.board.point_at(d, line, qpos as u32);
                let i = self.index(q);
                let info = if (black | white) & (1 << bit) == 0 {
                    let shift = qpos as u32;
                    line_info(
                        (black >> shift) & WINDOW_MASK,
                        (blocked >> shift) & WINDOW_MASK,
                    )
                } else {
                    LineInfo::default()
                };
                // A point whose line answers did not change keeps a local verdict; a dependent one is judged
                // again below anyway (it lies within its own reach of the stone).
                if self.infos[i][d] != info && k != 0 {
                    touched[count] = q;
                    count += 1;
                }
                self.infos[i][d] = info;
            }
        }
        for &q in &touched[..count] {
            self.judge(q);
        }
        for k in 0..self.dependent.len() {
            let q = self.dependent[k];
            let distance = q.x().abs_diff(p.x()).max(q.y().abs_diff(p.y())) as u32;
            if distance <= 4 * self.reach[self.index(q)] as u32 + 5 {
                self.judge(q);
            }
        }
        self.collect_dependent(&touched[..count]);
    }

    /// Whether black may not play `p`, and why.
    pub fn kind_at(&self, p: Point) -> Option<ForbiddenKind> {
        if self.board.contains(p) {
            self.kinds[self.index(p)]
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
