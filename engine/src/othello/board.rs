//! Bitboard helpers the search needs beyond the rules' move generator: neighbourhoods, stable discs, quadrant
//! parity, the final score and a position hash. Bit `(row - 1) * 8 + column`, as in [`rules::othello::bitboard`].

use rules::othello::bitboard;

/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Column `a`.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Column `h`.
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Row `1`.
pub const RANK_1: u64 = 0x0000_0000_0000_00ff;
/// Row `8`.
pub const RANK_8: u64 = 0xff00_0000_0000_0000;
/// The border squares.
pub const EDGE: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// The four 4x4 quadrants, for parity.
pub const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The side to move's legal squares (the rules' generator).
#[inline(always)]
pub fn moves(player: u64, opponent: u64) -> u64 {
    bitboard::moves(player, opponent)
}

/// The discs a move on `square` flips (the rules' generator; zero when illegal).
#[inline(always)]
pub fn flips(player: u64, opponent: u64, square: u8) -> u64 {
    bitboard::flips(player, opponent, square)
}

/// The squares next to (in the eight directions) any square of `b`.
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// Masks of the lines through the board: rows, columns, a1–h8 diagonals and h1–a8 diagonals.
const fn line_masks() -> [[u64; 15]; 4] {
    let mut lines = [[0u64; 15]; 4];
    let mut square = 0;
    while square < 64 {
        let (column, row) = (square % 8, square / 8);
        let bit = 1u64 << square;
        lines[0][row] |= bit;
        lines[1][column] |= bit;
        lines[2][column + 7 - row] |= bit;
        lines[3][column + row] |= bit;
        square += 1;
    }
    lines
}

const LINES: [[u64; 15]; 4] = line_masks();

/// The squares whose line along each axis (row, column, diagonal, anti-diagonal) is full.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut full = [0u64; 4];
    for (axis, lines) in LINES.iter().enumerate() {
        for &line in lines {
            if line != 0 && filled & line == line {
                full[axis] |= line;
            }
        }
    }
    full
}

/// The player's discs that can never be flipped, as far as a cheap fixed point sees: a disc is stable when along
/// each of the four axes its line is full, or it touches the board's side, or it touches a stable disc of its
/// own. This finds the corner-anchored edge discs and the blocks grown from them (a lower bound of the truth).
pub fn stable(player: u64, opponent: u64) -> u64 {
    if player & CORNERS == 0 && (player | opponent) & EDGE != EDGE {
        // Without a corner or a full edge nothing anchors a disc, except full lines inside; rare enough to skip.
        return 0;
    }
    let full = full_lines(player | opponent);
    let mut s = 0u64;
    loop {
        let h = full[0] | FILE_A | FILE_H | ((s << 1) & !FILE_A) | ((s >> 1) & !FILE_H);
        let v = full[1] | RANK_1 | RANK_8 | (s << 8) | (s >> 8);
        let d = full[2] | EDGE | ((s << 9) & !FILE_A) | ((s >> 9) & !FILE_H);
        let a = full[3] | EDGE | ((s << 7) & !FILE_H) | ((s >> 7) & !FILE_A);
        let next = player & h & v & d & a;
        if next == s {
            return s;
        }
        s = next;
    }
}

/// The union of the quadrants holding an odd number of empty squares: moving there first keeps the last move of
/// each region (parity).
#[inline]
pub fn odd_quadrants(empty: u64) -> u64 {
    QUADRANTS
        .iter()
        .filter(|&&q| (empty & q).count_ones() & 1 == 1)
        .fold(0, |m, &q| m | q)
}

/// The final disc difference for the player when neither side can move, the empty squares going to the winner
/// (the usual convention of Othello programs and of the FFO scores).
#[inline]
pub fn final_score(player: u64, opponent: u64) -> i32 {
    let p = player.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    let diff = p - o;
    let empty = 64 - p - o;
    match diff.signum() {
        1 => diff + empty,
        -1 => diff - empty,
        _ => 0,
    }
}

/// A 64-bit hash of the side to move's and the opponent's discs (for the transposition tables' index).
#[inline]
pub fn hash(player: u64, opponent: u64) -> u64 {
    let h = player.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ opponent.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^ (h >> 31)
}

/// The iterator over a bitboard's squares, lowest first.
#[inline]
pub fn squares(mut bits: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let s = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(s)
        }
    })
}
