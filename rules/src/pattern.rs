//! Line patterns for black, precomputed.
//!
//! Every question Renju asks about one line through an empty point (does a black stone here make five, an
//! overline, how many fours, which further stones would turn it into a straight four) depends only on the eleven
//! cells from five before to five after the point. Each cell is empty, black, or blocked (white or off the board),
//! so the answers fit a table of 3^11 entries, built once on first use.

use std::sync::OnceLock;

/// Cells in a window: the point and five either side.
pub(crate) const WINDOW: usize = 11;
const CENTRE: usize = 5;

/// The answer for one line: black plays the centre of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineInfo(u16);

impl LineInfo {
    /// Nothing on this line: the answer of every window with fewer than two black stones.
    pub(crate) const NONE: LineInfo = LineInfo(0);
    const FIVE: u16 = 1;
    const OVERLINE: u16 = 2;
    const FOUR_SHIFT: u16 = 2;
    /// Three points lie in cells 2..=8, stored from bit 4 (so the table is 2 bytes an entry and stays in cache).
    const THREE_SHIFT: u16 = 4 - 2;

    /// No five, overline, four or three on this line.
    #[inline]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Exactly five through the centre.
    #[cfg(test)]
    pub(crate) fn five(self) -> bool {
        self.0 & Self::FIVE != 0
    }

    /// Six or more through the centre.
    #[cfg(test)]
    pub(crate) fn overline(self) -> bool {
        self.0 & Self::OVERLINE != 0
    }

    /// Fours through the centre on this line (0, 1 or 2: a line holds at most two).
    #[cfg(test)]
    pub(crate) fn fours(self) -> u32 {
        ((self.0 >> Self::FOUR_SHIFT) & 3) as u32
    }

    /// Window cells (bit k for cell k, the centre being cell 5) where one more black stone makes a straight four
    /// that holds the centre stone; zero when the line already holds a four, a five or an overline.
    #[inline]
    pub(crate) fn three_points(self) -> u32 {
        ((self.0 >> Self::THREE_SHIFT) & (0x7f << 2)) as u32
    }
}

/// The four line answers of a point as one word, a 16-bit lane each, so that a verdict reads the four lines at
/// once instead of one by one.
#[derive(Clone, Copy)]
pub(crate) struct Lines(u64);

impl Lines {
    /// One in every lane.
    const LANES: u64 = 0x0001_0001_0001_0001;

    /// The answers of the four lines through a point.
    #[inline]
    pub(crate) fn of(infos: &[LineInfo; 4]) -> Lines {
        Lines(
            infos[0].0 as u64
                | (infos[1].0 as u64) << 16
                | (infos[2].0 as u64) << 32
                | (infos[3].0 as u64) << 48,
        )
    }

    /// Some line makes exactly five.
    #[inline]
    pub(crate) fn five(self) -> bool {
        self.0 & (LineInfo::FIVE as u64 * Self::LANES) != 0
    }

    /// Some line makes an overline.
    #[inline]
    pub(crate) fn overline(self) -> bool {
        self.0 & (LineInfo::OVERLINE as u64 * Self::LANES) != 0
    }

    /// Fours on all four lines together.
    #[inline]
    pub(crate) fn fours(self) -> u32 {
        // Each lane holds at most 2 (in 2 bits); the multiplication adds the four lanes into the top one.
        ((((self.0 >> LineInfo::FOUR_SHIFT) & (3 * Self::LANES)).wrapping_mul(Self::LANES)) >> 48)
            as u32
    }

    /// How many lines offer a three.
    #[inline]
    pub(crate) fn three_lines(self) -> u32 {
        // The three points of a lane lie in its bits 4..=10: adding 0x7ff carries into bit 11 exactly when one
        // is set, and never out of the lane.
        let threes = self.0 & (0x7f0 * Self::LANES);
        (((threes + 0x7ff * Self::LANES) >> 11) & Self::LANES).count_ones()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Black,
    Blocked,
}

/// Length of the black run holding cell `i`, and its first cell.
fn run(cells: &[Cell; WINDOW], i: usize) -> (usize, usize) {
    let mut lo = i;
    while lo > 0 && cells[lo - 1] == Cell::Black {
        lo -= 1;
    }
    let mut hi = i;
    while hi + 1 < WINDOW && cells[hi + 1] == Cell::Black {
        hi += 1;
    }
    (hi - lo + 1, lo)
}

/// Whether black, adding a stone at `j`, makes exactly five with a run holding the centre. Runs touching the
/// window's edge hold at least six cells (they reach the centre), so they are never mistaken for fives.
fn completes_five(cells: &mut [Cell; WINDOW], j: usize) -> Option<u32> {
    cells[j] = Cell::Black;
    let (len, lo) = run(cells, j);
    cells[j] = Cell::Empty;
    let holds_centre = lo <= CENTRE && CENTRE < lo + len;
    (len == 5 && holds_centre).then(|| (((1u32 << len) - 1) << lo) & !(1 << j))
}

fn evaluate(cells: &mut [Cell; WINDOW]) -> u16 {
    cells[CENTRE] = Cell::Black;
    let (len, _) = run(cells, CENTRE);
    let mut info = 0;
    if len == 5 {
        info |= LineInfo::FIVE;
    } else if len >= 6 {
        info |= LineInfo::OVERLINE;
    } else {
        // A four is a set of four stones (the centre among them) that one more stone turns into exactly five;
        // the two ends of a straight four complete the same four.
        let mut fours: Vec<u32> = Vec::new();
        for j in 1..WINDOW - 1 {
            if cells[j] == Cell::Empty {
                if let Some(set) = completes_five(cells, j) {
                    if !fours.contains(&set) {
                        fours.push(set);
                    }
                }
            }
        }
        info |= (fours.len().min(2) as u16) << LineInfo::FOUR_SHIFT;
        if fours.is_empty() {
            let mut threes = 0u16;
            for j in 2..=8 {
                if cells[j] != Cell::Empty {
                    continue;
                }
                cells[j] = Cell::Black;
                let (len, lo) = run(cells, j);
                let hi = lo + len - 1;
                let straight = len == 4
                    && lo <= CENTRE
                    && CENTRE <= hi
                    && cells[lo - 1] == Cell::Empty
                    && cells[hi + 1] == Cell::Empty
                    && cells[lo - 2] != Cell::Black
                    && cells[hi + 2] != Cell::Black;
                cells[j] = Cell::Empty;
                if straight {
                    threes |= 1 << j;
                }
            }
            info |= threes << LineInfo::THREE_SHIFT;
        }
    }
    cells[CENTRE] = Cell::Empty;
    info
}

/// The precomputed answers (see the module comment).
pub(crate) struct Tables {
    /// Base-3 value of an 11-bit mask (each set bit counts 3^k).
    ternary: [u32; 1 << WINDOW],
    infos: Vec<LineInfo>,
}

/// The tables, built on first use. A caller that reads many windows in a row takes them once.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut ternary = [0u32; 1 << WINDOW];
        for (m, t) in ternary.iter_mut().enumerate() {
            let mut pow = 1;
            for k in 0..WINDOW {
                if m & (1 << k) != 0 {
                    *t += pow;
                }
                pow *= 3;
            }
        }
        let total = 3usize.pow(WINDOW as u32);
        let mut infos = vec![LineInfo(0); total];
        let mut cells = [Cell::Empty; WINDOW];
        for (idx, info) in infos.iter_mut().enumerate() {
            let mut v = idx;
            for c in cells.iter_mut() {
                *c = match v % 3 {
                    0 => Cell::Empty,
                    1 => Cell::Black,
                    _ => Cell::Blocked,
                };
                v /= 3;
            }
            if cells[CENTRE] == Cell::Empty {
                *info = LineInfo(evaluate(&mut cells));
            }
        }
        Tables { ternary, infos }
    })
}

/// The line answer for a window given as masks (bit k for cell k) of black stones and of blocked cells. The
/// centre must be empty in both.
#[inline]
pub(crate) fn line_info(black: u32, blocked: u32) -> LineInfo {
    tables().info(black, blocked)
}

impl Tables {
    /// [`line_info`] with the tables in hand.
    #[inline]
    pub(crate) fn info(&self, black: u32, blocked: u32) -> LineInfo {
        // Every shape needs the centre and at least two more black stones (a three: those, and one more to make
        // a straight four); most windows have fewer, and need no table.
        if black.count_ones() < 2 {
            return LineInfo(0);
        }
        let idx = self.ternary[black as usize] + 2 * self.ternary[blocked as usize];
        self.infos[idx as usize]
    }
}

/// Builds the tables now rather than on first use.
pub fn warm_up() {
    tables();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a window written like `"..XX_XO...."`: `_` the centre, `X` black, `O` blocked, `.` empty.
    fn info(s: &str) -> LineInfo {
        assert_eq!(s.len(), WINDOW);
        let (mut b, mut o) = (0, 0);
        for (k, c) in s.chars().enumerate() {
            match c {
                'X' => b |= 1 << k,
                'O' => o |= 1 << k,
                _ => {}
            }
        }
        line_info(b, o)
    }

    #[test]
    fn the_four_lines_read_at_once_agree_with_each_line() {
        let windows = [
            "...XX_XX...",
            "..XXX_XX...",
            "..X.X_X.X..",
            "...XX_.X...",
            "....._XX...",
            "...X._X....",
            "...O._XX...",
            "..........X",
            ".XX.X_.XX..",
        ];
        for a in windows {
            for b in windows {
                for c in windows {
                    for d in windows {
                        let infos = [info(a), info(b), info(c), info(d)];
                        let lines = Lines::of(&infos);
                        assert_eq!(lines.five(), infos.iter().any(|i| i.five()));
                        assert_eq!(lines.overline(), infos.iter().any(|i| i.overline()));
                        assert_eq!(lines.fours(), infos.iter().map(|i| i.fours()).sum::<u32>());
                        let threes = infos.iter().filter(|i| i.three_points() != 0).count();
                        assert_eq!(lines.three_lines(), threes as u32);
                    }
                }
            }
        }
    }

    #[test]
    fn fives_and_overlines_are_told_apart() {
        assert!(info("...XX_XX...").five());
        assert!(info("..XXX_XX...").overline());
        assert!(!info("..OXX_XX...").overline());
    }

    #[test]
    fn two_fours_on_one_line_are_counted() {
        assert_eq!(info("..X.X_X.X..").fours(), 2);
        assert_eq!(info(".XX.X_.XX..").fours(), 2);
        assert_eq!(info("...XX_.X...").fours(), 1);
        assert_eq!(info("....._XXX..").fours(), 1);
        // XXX_XX: filling the gap makes six, so there is no four.
        assert_eq!(info("...XX_.XX..").fours(), 0);
    }

    #[test]
    fn a_straight_four_is_one_four() {
        let i = info("....X_XX...");
        assert_eq!(i.fours(), 1);
        assert_eq!(i.three_points(), 0);
    }

    #[test]
    fn open_threes_offer_the_points_that_make_a_straight_four() {
        // ...._XX....: stones at 5,6,7; straight fours by 4 (.XXXX. at 4..7) or 8 (5..8).
        assert_eq!(info("....._XX...").three_points(), (1 << 4) | (1 << 8));
        // Split three X._X: only the gap makes a straight four.
        assert_eq!(info("...X._X....").three_points(), 1 << 4);
        // Blocked on one side: no straight four is possible.
        assert_eq!(info("....O_XX...").three_points(), 0);
        assert_eq!(info("...O._XX...").three_points(), 1 << 8);
        assert_eq!(info("...O._XX.O.").three_points(), 0);
        // A black stone beyond the end would turn the five into an overline.
        assert_eq!(info("..X.._XX...").three_points(), 1 << 8);
    }
}
