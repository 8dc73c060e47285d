//! Bitboard move generation: the legal moves and the flipped discs of a side, by shift-based flood fills over
//! `u64` masks (bit `(row - 1) * 8 + column`, `a1` = bit 0, `h8` = bit 63).

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
/// Branch-light: each direction is the same six-step fill as [`moves`], from the one square.
#[inline]
pub fn flips(player: u64, opponent: u64, square: u8) -> u64 {
    let start = 1u64 << square;
    let horizontal = opponent & 0x7e7e_7e7e_7e7e_7e7e;
    run(start, player, horizontal, 1, true)
        | run(start, player, horizontal, 1, false)
        | run(start, player, opponent, 8, true)
        | run(start, player, opponent, 8, false)
        | run(start, player, horizontal, 9, true)
        | run(start, player, horizontal, 9, false)
        | run(start, player, horizontal, 7, true)
        | run(start, player, horizontal, 7, false)
}

/// One direction of [`flips`]: the run of `mask` discs next to `start`, if a player disc closes it.
#[inline(always)]
fn run(start: u64, player: u64, mask: u64, amount: u32, up: bool) -> u64 {
    let step = |b: u64| if up { b << amount } else { b >> amount };
    let mut t = mask & step(start);
    t |= mask & step(t);
    t |= mask & step(t);
    t |= mask & step(t);
    t |= mask & step(t);
    t |= mask & step(t);
    // The run's elements are interior (masked), so one more step stays on its line: it lands on the square just
    // beyond the run, or on the run itself.
    if step(t) & player != 0 {
        t
    } else {
        0
    }
}
