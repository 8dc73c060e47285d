//! The evaluation of a position for the side to move, in hundredths of a disc: mobility, potential mobility,
//! corners, X- and C-squares next to empty corners, stable discs, parity and discs, each weighted by a linear
//! blend between an opening weight (60 empty squares) and an ending weight (no empty square).

use super::board::{self, CORNERS};

/// One feature's weights at the opening and at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phased {
    /// With 60 empty squares.
    pub opening: i32,
    /// With none.
    pub ending: i32,
}

impl Phased {
    /// The weight with `empty` squares left.
    #[inline]
    pub const fn at(self, empty: i32) -> i32 {
        (self.opening * empty + self.ending * (60 - empty)) / 60
    }
}

/// The evaluation's weights, per feature, each counted as the side to move's value minus the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per legal move.
    pub mobility: Phased,
    /// Per empty square next to the other side's discs (where moves may come from later).
    pub potential: Phased,
    /// Per corner.
    pub corner: Phased,
    /// Per X-square (b2, g2, b7, g7) next to an empty corner.
    pub x_square: Phased,
    /// Per C-square (on the edge next to an empty corner).
    pub c_square: Phased,
    /// Per stable disc.
    pub stable: Phased,
    /// For having the last move of the game, as the empty squares' count says (odd: the side to move).
    pub parity: Phased,
    /// Per disc.
    pub discs: Phased,
}

/// The hand-set weights (see `docs/engine.md`, "Othello").
pub const WEIGHTS: Weights = Weights {
    mobility: Phased {
        opening: 90,
        ending: 40,
    },
    potential: Phased {
        opening: 30,
        ending: 10,
    },
    corner: Phased {
        opening: 700,
        ending: 350,
    },
    x_square: Phased {
        opening: -300,
        ending: -60,
    },
    c_square: Phased {
        opening: -90,
        ending: -20,
    },
    stable: Phased {
        opening: 160,
        ending: 110,
    },
    parity: Phased {
        opening: 0,
        ending: 200,
    },
    discs: Phased {
        opening: -10,
        ending: 40,
    },
};

/// Corner, its X-square, its two C-squares.
const CORNER_NEIGHBOURS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

/// The features of a position, side to move minus opponent, in the order of [`Weights`]' fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Legal moves.
    pub mobility: i32,
    /// Empty squares next to the other side.
    pub potential: i32,
    /// Corners.
    pub corner: i32,
    /// X-squares by empty corners.
    pub x_square: i32,
    /// C-squares by empty corners.
    pub c_square: i32,
    /// Stable discs.
    pub stable: i32,
    /// +1 with an odd number of empty squares, −1 with an even one.
    pub parity: i32,
    /// Discs.
    pub discs: i32,
    /// Empty squares (the phase).
    pub empty: i32,
}

/// The features of the position with `player` to move.
pub fn features(player: u64, opponent: u64) -> Features {
    let empty = !(player | opponent);
    let count = |b: u64| b.count_ones() as i32;
    let (mut x_square, mut c_square) = (0, 0);
    for &(corner, x, c) in &CORNER_NEIGHBOURS {
        if empty & corner != 0 {
            x_square += count(player & x) - count(opponent & x);
            c_square += count(player & c) - count(opponent & c);
        }
    }
    let empties = count(empty);
    Features {
        mobility: count(board::moves(player, opponent)) - count(board::moves(opponent, player)),
        potential: count(board::neighbours(opponent) & empty)
            - count(board::neighbours(player) & empty),
        corner: count(player & CORNERS) - count(opponent & CORNERS),
        x_square,
        c_square,
        stable: count(board::stable(player, opponent)) - count(board::stable(opponent, player)),
        parity: if empties & 1 == 1 { 1 } else { -1 },
        discs: count(player) - count(opponent),
        empty: empties,
    }
}

impl Weights {
    /// The score of a position's features.
    #[inline]
    pub fn score(&self, f: &Features) -> i32 {
        let e = f.empty;
        self.mobility.at(e) * f.mobility
            + self.potential.at(e) * f.potential
            + self.corner.at(e) * f.corner
            + self.x_square.at(e) * f.x_square
            + self.c_square.at(e) * f.c_square
            + self.stable.at(e) * f.stable
            + self.parity.at(e) * f.parity
            + self.discs.at(e) * f.discs
    }
}

/// The score of the position with `player` to move, in hundredths of a disc, within ±[`MAX_EVAL`].
#[inline]
pub fn evaluate(weights: &Weights, player: u64, opponent: u64) -> i32 {
    weights
        .score(&features(player, opponent))
        .clamp(-MAX_EVAL, MAX_EVAL)
}

/// The largest evaluation: below every score of a finished game.
pub const MAX_EVAL: i32 = 15_000;
