//! The eight symmetries of the square board, on squares and on bitboards.

use super::square::Square;

/// A symmetry of the 8x8 board: the identity, three rotations and four reflections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Unchanged.
    Identity,
    /// A quarter turn.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// Three quarter turns.
    Rotate270,
    /// Columns reversed (a ↔ h).
    FlipColumns,
    /// Rows reversed (1 ↔ 8).
    FlipRows,
    /// Across the a1–h8 diagonal.
    Transpose,
    /// Across the h1–a8 diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipColumns,
        Symmetry::FlipRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of a square.
    pub fn square(self, square: Square) -> Square {
        let (c, r) = (square.column(), square.row());
        let (c, r) = match self {
            Symmetry::Identity => (c, r),
            Symmetry::Rotate90 => (7 - r, c),
            Symmetry::Rotate180 => (7 - c, 7 - r),
            Symmetry::Rotate270 => (r, 7 - c),
            Symmetry::FlipColumns => (7 - c, r),
            Symmetry::FlipRows => (c, 7 - r),
            Symmetry::Transpose => (r, c),
            Symmetry::AntiTranspose => (7 - r, 7 - c),
        };
        Square::at(c, r).unwrap_or(square)
    }

    /// The image of a bitboard.
    pub fn bits(self, bits: u64) -> u64 {
        Square::all()
            .filter(|s| bits & s.bit() != 0)
            .fold(0, |acc, s| acc | self.square(s).bit())
    }
}
