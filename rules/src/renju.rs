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

/// [`judge_black`], also telling whether the answer rested on other points (a possible double-three, whose
/// threes are only real if their completing stones are not forbidden themselves). An answer that did not is
/// decided by the eleven-cell windows through `p` alone.
fn judge_black_local(board: &mut Board, p: Point) -> (BlackMove, bool) {
    let mut infos = [LineInfo::default(); 4];
    let mut fours = 0;
    let mut overline = false;
    for (d, info) in infos.iter_mut().enumerate() {
        let (b, o) = window(board, p, d);
        *info = line_info(b, o);
        if info.five() {
            return (BlackMove::Five, false);
        }
        overline |= info.overline();
        fours += info.fours();
    }
    if overline {
        return (BlackMove::Forbidden(ForbiddenKind::Overline), false);
    }
    if fours >= 2 {
        return (BlackMove::Forbidden(ForbiddenKind::DoubleFour), false);
    }
    if infos.iter().filter(|i| i.three_points() != 0).count() < 2 {
        return (BlackMove::Free, false);
    }
    (count_threes(board, p, &infos), true)
}

/// Judges a black stone on the empty point `p`. The board is used as scratch space for the recursive three
/// check and is left as it was.
pub fn judge_black(board: &mut Board, p: Point) -> BlackMove {
    debug_assert!(board.is_empty_at(p));
    let mut infos = [LineInfo::default(); 4];
    let mut fours = 0;
    let mut overline = false;
    for (d, info) in infos.iter_mut().enumerate() {
        let (b, o) = window(board, p, d);
        *info = line_info(b, o);
        if info.five() {
            return BlackMove::Five;
        }
        overline |= info.overline();
        fours += info.fours();
    }
    if overline {
        return BlackMove::Forbidden(ForbiddenKind::Overline);
    }
    if fours >= 2 {
        return BlackMove::Forbidden(ForbiddenKind::DoubleFour);
    }
    if infos.iter().filter(|i| i.three_points() != 0).count() < 2 {
        return BlackMove::Free;
    }
    count_threes(board, p, &infos)
}

/// With two or more lines through `p` offering a three: places `p` and counts the lines whose three is real.
fn count_threes(board: &mut Board, p: Point, infos: &[LineInfo; 4]) -> BlackMove {
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
            if judge_black(board, q) == BlackMove::Free {
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
    let mut scratch = board.clone();
    let mut out = Vec::new();
    for p in board.points() {
        if board.is_empty_at(p) && may_matter(board, p) {
            if let BlackMove::Forbidden(kind) = judge_black(&mut scratch, p) {
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

/// Black's forbidden points kept up to date as stones are placed, without rescanning the whole board: after a
/// stone, only the points whose windows hold it can change on their own; the others that can change are the
/// points whose answer rests on other points (possible double-threes), which are few and are all judged again.
#[derive(Clone, Debug)]
pub struct ForbiddenSet {
    board: Board,
    kinds: Vec<Option<ForbiddenKind>>,
    /// Points whose answer depends on other points; always judged again.
    dependent: Vec<Point>,
    is_dependent: Vec<bool>,
}

impl ForbiddenSet {
    /// The forbidden points of a board.
    pub fn new(board: Board) -> ForbiddenSet {
        let cells = board.size() as usize * board.size() as usize;
        let mut set = ForbiddenSet {
            kinds: vec![None; cells],
            dependent: Vec::new(),
            is_dependent: vec![false; cells],
            board,
        };
        let points: Vec<Point> = set
            .board
            .points()
            .filter(|&p| set.board.is_empty_at(p))
            .collect();
        for p in points {
            set.judge(p);
        }
        set
    }

    fn index(&self, p: Point) -> usize {
        p.y() as usize * self.board.size() as usize + p.x() as usize
    }

    fn judge(&mut self, p: Point) {
        let i = self.index(p);
        let (verdict, dependent) = if self.board.is_empty_at(p) && may_matter(&self.board, p) {
            judge_black_local(&mut self.board, p)
        } else {
            (BlackMove::Free, false)
        };
        self.kinds[i] = match verdict {
            BlackMove::Forbidden(kind) => Some(kind),
            _ => None,
        };
        if dependent != self.is_dependent[i] {
            self.is_dependent[i] = dependent;
            if dependent {
                self.dependent.push(p);
            } else {
                self.dependent.retain(|&q| q != p);
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
        let size = self.board.size();
        self.judge(p);
        for d in crate::Direction::ALL {
            let (dx, dy) = d.step();
            for k in (-5..=5).filter(|&k| k != 0) {
                if let Some(q) = p.offset(k * dx, k * dy, size) {
                    self.judge(q);
                }
            }
        }
        // Judging may drop a point from the list, so walk a copy.
        let dependent = self.dependent.clone();
        for q in dependent {
            self.judge(q);
        }
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
