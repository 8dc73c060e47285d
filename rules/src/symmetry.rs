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

/// Whether two points are symmetric to each other with respect to the position: some symmetry of the board that
/// leaves the stones as they are takes one point to the other.
pub fn points_equivalent(board: &Board, a: Point, b: Point) -> bool {
    Symmetry::ALL[1..]
        .iter()
        .any(|s| s.apply(a, board.size()) == b && s.preserves(board))
}
