//! Perft: the number of leaves of the move tree to a depth, in the two conventions of the conformance README.

use super::bitboard;

/// How a pass and a finished game count in [`perft`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PerftMode {
    /// Aart Bik's (the usual one): a pass uses one ply; a finished game is one leaf even with depth left.
    PassIsPly,
    /// Egaroucid's: a pass uses no depth; a finished game is still one leaf.
    PassIsFree,
}

/// The leaves of the tree of depth `depth` under the side to move (`player`) against `opponent`. Bulk counting:
/// at the last ply the moves are counted, not played. Single thread, no allocation.
pub fn perft(player: u64, opponent: u64, depth: u32, mode: PerftMode) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = bitboard::moves(player, opponent);
    if moves == 0 {
        if bitboard::moves(opponent, player) == 0 {
            return 1;
        }
        return match mode {
            PerftMode::PassIsPly => perft(opponent, player, depth - 1, mode),
            PerftMode::PassIsFree => perft(opponent, player, depth, mode),
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut leaves = 0;
    while moves != 0 {
        let square = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let flipped = bitboard::flips(player, opponent, square);
        let p = player | flipped | (1 << square);
        let o = opponent & !flipped;
        leaves += perft(o, p, depth - 1, mode);
    }
    leaves
}
