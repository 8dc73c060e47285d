//! Move generation on 128-bit boards: the targets of one piece are a handful of masks (its steps, the wasp's
//! flight, the pond, own food and mud, the enemies it may capture), so a position's moves cost a few dozen word
//! operations and perft counts the last ply with `count_ones`.

use super::board::{FLIGHTS, FOOD, MUD, POND, STEPS};
use super::piece::Kind;
use super::position::Position;

/// An empty slot in [`Position`]'s square-of-each-kind table.
pub(crate) const NONE: u8 = u8::MAX;

const WASP: usize = Kind::Wasp as usize;
const BEETLE: usize = Kind::DivingBeetle as usize;

/// What one side's move generation needs of a position, computed once per position.
pub(crate) struct Sides {
    /// Side to move, as an index.
    pub us: usize,
    /// Its pieces.
    pub own: u128,
    /// The other side's pieces.
    pub enemy: u128,
    /// For each kind of ours (by index), the enemy pieces it beats by strength.
    pub beaten: [u128; 6],
    /// Whether the enemy already stands on our food: the game is over and we have no move.
    pub lost: bool,
}

impl Sides {
    #[inline(always)]
    pub(crate) fn of(p: &Position) -> Sides {
        let us = p.turn.index();
        let them = us ^ 1;
        let mut by_kind = [0u128; 6];
        for (bits, &sq) in by_kind.iter_mut().zip(p.squares[them].iter()) {
            if sq != NONE {
                *bits = 1 << sq;
            }
        }
        let mut beaten = [0u128; 6];
        for (mover, set) in beaten.iter_mut().enumerate() {
            let mask = Kind::ALL[mover].beaten();
            for (k, &bits) in by_kind.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    *set |= bits;
                }
            }
        }
        let enemy = p.occupied[them];
        Sides {
            us,
            own: p.occupied[us],
            enemy,
            beaten,
            lost: enemy & FOOD[us] != 0,
        }
    }

    /// The squares the piece of kind `kind` (an index) on square `from` may move to.
    #[inline(always)]
    pub(crate) fn targets(&self, kind: usize, from: u8) -> u128 {
        let us = self.us;
        let from_bit = 1u128 << from;
        let mut t = STEPS[from as usize];
        if kind == WASP {
            t |= FLIGHTS[from as usize];
        }
        if kind != BEETLE {
            t &= !POND;
        }
        t &= !(self.own | FOOD[us]);
        let quiet = t & !self.enemy & !MUD[us];
        // Nothing is captured from the pond or from the enemy's mud (no strength there), nor in the pond; an enemy
        // in our own mud has no strength, so any of our pieces that can reach it takes it.
        let captures = if from_bit & (POND | MUD[us ^ 1]) != 0 {
            0
        } else {
            t & self.enemy & !POND & (MUD[us] | self.beaten[kind])
        };
        quiet | captures
    }
}

/// Calls `f(kind, from, targets)` for each piece of the side to move (strongest kind first) that has a target;
/// nothing once the game was lost on food.
#[inline(always)]
pub(crate) fn for_each_piece(p: &Position, mut f: impl FnMut(usize, u8, u128)) {
    let sides = Sides::of(p);
    if sides.lost {
        return;
    }
    for (kind, &from) in p.squares[sides.us].iter().enumerate() {
        if from != NONE {
            let t = sides.targets(kind, from);
            if t != 0 {
                f(kind, from, t);
            }
        }
    }
}

/// The number of legal moves.
#[inline]
pub(crate) fn count(p: &Position) -> u32 {
    let mut n = 0;
    for_each_piece(p, |_, _, t| n += t.count_ones());
    n
}

/// The position after the side to move's piece of kind `kind` goes from `from` to `to` (a move the caller took
/// from the generator), capturing whatever enemy stands there.
#[inline(always)]
pub(crate) fn make(p: &Position, kind: usize, from: u8, to: u8) -> Position {
    let mut q = *p;
    let us = p.turn.index();
    let them = us ^ 1;
    let to_bit = 1u128 << to;
    q.occupied[us] ^= (1u128 << from) | to_bit;
    q.squares[us][kind] = to;
    if q.occupied[them] & to_bit != 0 {
        q.occupied[them] ^= to_bit;
        for sq in q.squares[them].iter_mut() {
            if *sq == to {
                *sq = NONE;
            }
        }
    }
    q.turn = p.turn.opposite();
    q
}

/// Leaves of the move tree `depth` plies deep; bulk-counted at the last ply. A position lost on food has no
/// move, so the tree stops there; repetition and the 100-ply count belong to a game's history, not a position,
/// and are not looked at.
pub(crate) fn perft(p: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(count(p)),
        _ => {
            let mut total = 0;
            for_each_piece(p, |kind, from, mut t| {
                while t != 0 {
                    let to = t.trailing_zeros() as u8;
                    t &= t - 1;
                    total += perft(&make(p, kind, from, to), depth - 1);
                }
            });
            total
        }
    }
}
