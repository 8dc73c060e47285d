//! Bitboard move generation: the legal moves and the flipped discs of a side, by shift-based flood fills over
//! `u64` masks (bit `(row - 1) * 8 + column`, `a1` = bit 0, `h8` = bit 63).

/// The `a` column: bits that a shift towards higher columns must not land on (it wrapped from `h`).
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// The `h` column's complement, for shifts towards lower columns.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The eight directions as (shift, mask after the shift): left shifts move towards h8, right shifts towards a1.
#[inline(always)]
fn shift(bits: u64, dir: usize) -> u64 {
    match dir {
        0 => (bits << 1) & NOT_A, // east
        1 => (bits >> 1) & NOT_H, // west
        2 => bits << 8,           // south (down a row)
        3 => bits >> 8,           // north
        4 => (bits << 9) & NOT_A, // south-east
        5 => (bits << 7) & NOT_H, // south-west
        6 => (bits >> 7) & NOT_A, // north-east
        _ => (bits >> 9) & NOT_H, // north-west
    }
}

/// The squares where `player` may move against `opponent`: empty squares from which a line of opponent discs
/// runs, in some direction, to a player disc. Six fill steps per direction cover the longest such line.
#[inline]
pub fn moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    // Masking the opponent once per direction class keeps the fill from wrapping around the board's sides.
    let horizontal = opponent & 0x7e7e_7e7e_7e7e_7e7e;
    let mut moves = 0;
    moves |= fill(player, horizontal, 1, true);
    moves |= fill(player, horizontal, 1, false);
    moves |= fill(player, opponent, 8, true);
    moves |= fill(player, opponent, 8, false);
    moves |= fill(player, horizontal, 9, true);
    moves |= fill(player, horizontal, 9, false);
    moves |= fill(player, horizontal, 7, true);
    moves |= fill(player, horizontal, 7, false);
    moves & empty
}

/// One direction of [`moves`]: the squares just beyond a run of `mask` discs that starts next to `player`.
#[inline(always)]
fn fill(player: u64, mask: u64, amount: u32, up: bool) -> u64 {
    let step = |b: u64| if up { b << amount } else { b >> amount };
    let mut t = mask & step(player);
    t |= mask & step(t);
    t |= mask & step(t);
    t |= mask & step(t);
    t |= mask & step(t);
    t |= mask & step(t);
    step(t)
}

/// The opponent discs that a player disc on `square` (an index 0..64) flips: in each direction, the run of
/// opponent discs that a player disc closes. Zero when the square does not flip anything (an illegal move).
#[inline]
pub fn flips(player: u64, opponent: u64, square: u8) -> u64 {
    let start = 1u64 << square;
    let mut flipped = 0;
    for dir in 0..8 {
        let mut run = 0;
        let mut at = shift(start, dir);
        while at & opponent != 0 {
            run |= at;
            at = shift(at, dir);
        }
        if at & player != 0 {
            flipped |= run;
        }
    }
    flipped
}

/// The squares a disc on `square` touches (up to eight).
pub fn neighbours(square: u8) -> u64 {
    let start = 1u64 << square;
    (0..8).fold(0, |acc, dir| acc | shift(start, dir))
}
