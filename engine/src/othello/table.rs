//! The transposition table: two-entry buckets keyed by the full position (both bitboards), holding a lower and
//! an upper bound of the score, the depth they hold for and the best move.

use super::board::hash;

/// No best move stored.
pub const NO_MOVE: u8 = 64;

/// One stored position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    player: u64,
    opponent: u64,
    /// The score is at least this.
    pub lower: i16,
    /// The score is at most this.
    pub upper: i16,
    /// The depth (or, in the endgame, the empty squares) the bounds hold for.
    pub depth: u8,
    /// The best move found, or [`NO_MOVE`].
    pub best: u8,
}

/// A fixed-size table of `2^bits` entries; a position's bucket is two adjacent entries, and a new result
/// replaces the shallower of the two unless its own position is there.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (24 bytes each), all empty.
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits.max(2);
        Table {
            entries: vec![Entry::default(); size],
            mask: (size - 1) & !1,
        }
    }

    /// The entry count.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries (never: it has at least four).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    #[inline]
    fn bucket(&self, player: u64, opponent: u64) -> usize {
        hash(player, opponent) as usize & self.mask
    }

    /// The entry of a position, if stored.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let i = self.bucket(player, opponent);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.player == player && e.opponent == opponent && (player | opponent) != 0)
            .copied()
    }

    /// Stores the result of a search of a position with the window `(alpha, beta)`: `score` is exact inside the
    /// window, an upper bound at or below `alpha` and a lower bound at or above `beta`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        player: u64,
        opponent: u64,
        depth: u8,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
    ) {
        let (lower, upper) = if score <= alpha {
            (i16::MIN, score as i16)
        } else if score >= beta {
            (score as i16, i16::MAX)
        } else {
            (score as i16, score as i16)
        };
        let i = self.bucket(player, opponent);
        let slot = if self.entries[i].player == player && self.entries[i].opponent == opponent {
            i
        } else if self.entries[i + 1].player == player && self.entries[i + 1].opponent == opponent {
            i + 1
        } else if self.entries[i].depth <= self.entries[i + 1].depth {
            i
        } else {
            i + 1
        };
        let e = &mut self.entries[slot];
        if e.player == player && e.opponent == opponent && e.depth == depth {
            // The same search depth: the bounds only tighten.
            e.lower = e.lower.max(lower);
            e.upper = e.upper.min(upper);
            if e.lower > e.upper {
                (e.lower, e.upper) = (lower, upper);
            }
            if best != NO_MOVE {
                e.best = best;
            }
        } else {
            *e = Entry {
                player,
                opponent,
                lower,
                upper,
                depth,
                best,
            };
        }
    }
}
