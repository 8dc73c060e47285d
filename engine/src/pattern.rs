//! Line patterns: what a stone of one colour on an empty point would make along one line, read from the
//! eleven-cell window centred on the point (five cells either side, enough to tell an exact five from an
//! overline).
//!
//! The answer for every window is computed once, by playing the window out: a point makes a **five** if the
//! stone completes one, a **flex four** (`F4`) if afterwards two points complete a five, a **block four** (`B4`)
//! if one does; one level down, a flex three (`F3`) is a stone after which one more stone can make a flex four,
//! and so on down to ones. Exact-five rules (standard, and black under Renju) have their own table, where six in
//! a row is an overline and no five.

use std::sync::OnceLock;

/// Nothing on this line.
pub const NONE: u8 = 0;
/// One stone that can still grow into a block two.
pub const B1: u8 = 1;
/// One stone that can still grow into a flex two.
pub const F1: u8 = 2;
/// A two that can become a block three.
pub const B2: u8 = 3;
/// A two that can become a flex three.
pub const F2: u8 = 4;
/// A three that can become a block four.
pub const B3: u8 = 5;
/// A (flex) three: one more stone makes a flex four.
pub const F3: u8 = 6;
/// A four with one completing point.
pub const B4: u8 = 7;
/// A four with two or more completing points: the opponent cannot stop it on this line.
pub const F4: u8 = 8;
/// The stone completes a winning line.
pub const FIVE: u8 = 9;
/// Exact-five rules only: the stone makes six or more in a row, which does not win.
pub const OVERLINE: u8 = 10;

/// Cells of the window: the point and five either side.
const WINDOW: u32 = 11;
/// Bit of the point itself in a window.
const CENTRE: u32 = 5;
/// Entries of a table: ten cells of own stones and ten of blocked cells, the centre left out.
const ENTRIES: usize = 1 << 20;
const UNKNOWN: u8 = u8::MAX;

/// The two pattern tables, built on first use.
pub struct Tables {
    free: Vec<u8>,
    exact: Vec<u8>,
}

/// The pattern tables (built once, about 2 MB).
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        free: build(false),
        exact: build(true),
    })
}

impl Tables {
    /// The pattern of a window: `own` and `blocked` are the eleven cells (bit 5 the point itself, which is
    /// empty), `exact` chooses the exact-five table.
    #[inline]
    pub fn get(&self, exact: bool, own: u32, blocked: u32) -> u8 {
        let key = key(own, blocked);
        if exact {
            self.exact[key]
        } else {
            self.free[key]
        }
    }
}

/// Drops the centre bit of an eleven-cell window.
#[inline]
fn compress(x: u32) -> u32 {
    (x & 0x1F) | ((x >> (CENTRE + 1)) << CENTRE)
}

#[inline]
fn key(own: u32, blocked: u32) -> usize {
    (compress(own & 0x7FF) | compress(blocked & 0x7FF) << 10) as usize
}

fn build(exact: bool) -> Vec<u8> {
    let mut table = vec![UNKNOWN; ENTRIES];
    // Every window with the centre empty: each of the ten other cells empty, own or blocked.
    let mut cells = [0u8; 10];
    loop {
        let (mut own, mut blocked) = (0u32, 0u32);
        for (j, &c) in cells.iter().enumerate() {
            let bit = if j < 5 { j as u32 } else { j as u32 + 1 };
            match c {
                1 => own |= 1 << bit,
                2 => blocked |= 1 << bit,
                _ => {}
            }
        }
        level(&mut table, exact, own, blocked);
        // Next base-3 number.
        let mut j = 0;
        loop {
            if j == 10 {
                return table;
            }
            cells[j] += 1;
            if cells[j] < 3 {
                break;
            }
            cells[j] = 0;
            j += 1;
        }
    }
}

/// Length of the run of own stones through the centre, the centre counted as own.
fn run(own: u32) -> u32 {
    let own = own | 1 << CENTRE;
    let up = (!(own >> CENTRE)).trailing_zeros();
    let down = (!(own << (31 - CENTRE))).leading_zeros();
    up + down - 1
}

fn makes_five(exact: bool, own: u32) -> bool {
    let len = run(own);
    if exact {
        len == 5
    } else {
        len >= 5
    }
}

/// The pattern of a stone on the (empty) centre of the window `own`/`blocked`, memoised in `table`.
fn level(table: &mut [u8], exact: bool, own: u32, blocked: u32) -> u8 {
    let k = key(own, blocked);
    if table[k] != UNKNOWN {
        return table[k];
    }
    let placed = own | 1 << CENTRE;
    let answer = if makes_five(exact, placed) {
        FIVE
    } else if exact && run(placed) > 5 {
        OVERLINE
    } else {
        // Only cells within four of the centre can share a five with it.
        let empties: Vec<u32> = (1..WINDOW - 1)
            .filter(|&b| b != CENTRE && (placed | blocked) & (1 << b) == 0)
            .collect();
        let fives = empties
            .iter()
            .filter(|&&b| makes_five(exact, placed | 1 << b))
            .count();
        if fives >= 2 {
            F4
        } else if fives == 1 {
            B4
        } else {
            // The best shape one more stone makes, the centre already placed: the same question for the
            // window with both stones, asked of the centre.
            let best = empties
                .iter()
                .map(|&b| level(table, exact, placed | 1 << b, blocked))
                .filter(|&p| p != OVERLINE)
                .max()
                .unwrap_or(NONE);
            match best {
                F4 => F3,
                B4 => B3,
                F3 => F2,
                B3 => B2,
                F2 => F1,
                B2 => B1,
                _ => NONE,
            }
        }
    };
    table[k] = answer;
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a window like `"..XXX_X...."`: `X` own, `O` blocked, `_` the centre, `.` empty.
    fn pattern(exact: bool, text: &str) -> u8 {
        assert_eq!(text.len(), 11);
        let (mut own, mut blocked) = (0, 0);
        for (b, ch) in text.bytes().enumerate() {
            match ch {
                b'X' => own |= 1 << b,
                b'O' => blocked |= 1 << b,
                _ => {}
            }
        }
        tables().get(exact, own, blocked)
    }

    #[test]
    fn lines_are_classified_like_a_player_would() {
        assert_eq!(pattern(false, "...XX_XX..."), FIVE);
        assert_eq!(pattern(false, "..XXX_XX..."), FIVE);
        assert_eq!(pattern(true, "..XXX_XX..."), OVERLINE);
        assert_eq!(pattern(true, "...XX_XX..."), FIVE);
        assert_eq!(pattern(true, "...XX_XXX.."), OVERLINE);
        assert_eq!(pattern(false, "...XX_X...."), F4);
        assert_eq!(pattern(false, "..OXX_X...."), B4);
        assert_eq!(pattern(false, "...X._XX..."), B4);
        assert_eq!(pattern(false, "....X_X...."), F3);
        assert_eq!(pattern(false, "...OX_X.O.."), NONE);
        assert_eq!(pattern(false, "...OX_X...."), B3);
        assert_eq!(pattern(false, "..........."), F1);
        assert_eq!(pattern(false, "....X......"), F2);
        assert_eq!(pattern(false, "..X.X_X.X.."), F4, "two fours on one line");
    }

    #[test]
    fn exact_five_counts_an_overline_point_as_no_four() {
        // The centre makes `X.XXXX`: filling the gap would make six, so only the right end completes a five.
        assert_eq!(pattern(true, "X.XXX_....."), B4);
        assert_eq!(pattern(false, "X.XXX_....."), F4);
    }
}
