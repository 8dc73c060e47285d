//! The eight symmetries of a square board (rotations and reflections about its centre).

use crate::{Board, Point};

/// One of the eight symmetries of the square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Leaves every point where it is.
    Identity,
    /// Quarter turn anticlockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Three quarter turns anticlockwise.
    Rotate270,
    /// Mirror left to right.
    FlipHorizontal,
    /// Mirror top to bottom.
    FlipVertical,
    /// Mirror in the bottom-left to top-right diagonal.
    Transpose,
    /// Mirror in the top-left to bottom-right diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Where this symmetry takes a point of a board of side `size`.
    pub fn apply(self, p: Point, size: u8) -> Point {
        let m = size - 1;
        let (x, y) = (p.x(), p.y());
        let (nx, ny) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (m - y, x),
            Symmetry::Rotate180 => (m - x, m - y),
            Symmetry::Rotate270 => (y, m - x),
            Symmetry::FlipHorizontal => (m - x, y),
            Symmetry::FlipVertical => (x, m - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (m - y, m - x),
        };
        Point::new(nx, ny).expect("a symmetry keeps points on the board")
    }

    /// The board with every stone moved by this symmetry.
    pub fn apply_board(self, board: &Board) -> Board {
        let mut out = Board::new(board.size());
        for p in board.points() {
            if let Some(c) = board.get(p) {
                out.place(self.apply(p, board.size()), c);
            }
        }
        out
    }

    /// Whether the position looks the same after this symmetry.
    pub fn preserves(self, board: &Board) -> bool {
        board
            .points()
            .all(|p| board.get(p) == board.get(self.apply(p, board.size())))
    }
}

/// A rotation or reflection about the origin, on plain integer coordinates.
type LinearMap = fn(i32, i32) -> (i32, i32);

/// Whether two points are symmetric to each other with respect to the position: some rotation or reflection of
/// the plane (about any centre or axis, not only the board's) that maps the stones onto themselves, colour for
/// colour, takes one point to the other. This is how players judge two fifth-move options to be "the same move".
pub fn points_equivalent(board: &Board, a: Point, b: Point) -> bool {
    let stones: Vec<(i32, i32, Option<crate::Color>)> = board
        .points()
        .filter_map(|p| board.get(p).map(|c| (p.x() as i32, p.y() as i32, Some(c))))
        .collect();
    if stones.is_empty() {
        // An empty board: any two points are twins under a symmetry about a suitable centre.
        return true;
    }
    let linear: [LinearMap; 7] = [
        |x, y| (-y, x),
        |x, y| (-x, -y),
        |x, y| (y, -x),
        |x, y| (-x, y),
        |x, y| (x, -y),
        |x, y| (y, x),
        |x, y| (-y, -x),
    ];
    let mut sorted = stones.clone();
    sorted.sort_unstable();
    linear.iter().any(|t| {
        let mut moved: Vec<(i32, i32, Option<crate::Color>)> = stones
            .iter()
            .map(|&(x, y, c)| (t(x, y).0, t(x, y).1, c))
            .collect();
        moved.sort_unstable();
        // The translation that makes the images line up with the stones, if any does.
        let (dx, dy) = (sorted[0].0 - moved[0].0, sorted[0].1 - moved[0].1);
        let maps_onto_itself = moved
            .iter()
            .zip(&sorted)
            .all(|(m, s)| (m.0 + dx, m.1 + dy, m.2) == *s);
        let (ax, ay) = t(a.x() as i32, a.y() as i32);
        maps_onto_itself && (ax + dx, ay + dy) == (b.x() as i32, b.y() as i32)
    })
}
