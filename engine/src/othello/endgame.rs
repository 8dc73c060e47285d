//! The exact endgame solver: the final disc difference (empty squares to the winner) under perfect play, by
//! null-window PVS over the remaining empty squares. Fastest-first ordering (the move leaving the opponent the
//! fewest moves, corners counted twice) with the table's move first from [`ORDER_MIN`] empties, a
//! transposition table from [`TABLE_MIN`], a stability cut-off, and below that quadrant parity over the empty
//! squares without generating moves; the last empty square is counted, not played.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board::{self, final_score, flips, moves, odd_quadrants, squares, CORNERS};
use super::table::{Table, NO_MOVE};

/// From this many empty squares on, moves are generated and ordered fastest-first.
pub const ORDER_MIN: u32 = 7;
/// From this many empty squares on, positions go through the transposition table.
pub const TABLE_MIN: u32 = 8;
/// From this many empty squares on, a node first looks its children up in the table (enhanced transposition
/// cut-off): about 5 % fewer nodes on FFO #40–#42.
pub const ETC_MIN: u32 = 12;
/// From this many empty squares on, the stable discs bound the score.
const STABILITY_MIN: u32 = 8;

/// One exact search: its table, node count and stop conditions.
pub struct Solver<'a> {
    table: &'a mut Table,
    /// Positions visited.
    pub nodes: u64,
    deadline: Option<Instant>,
    cancel: &'a AtomicBool,
    /// Set once the deadline passed or the cancel flag rose: every score after it is meaningless.
    pub aborted: bool,
}

impl<'a> Solver<'a> {
    /// A solver over `table` that stops at `deadline` or when `cancel` is set.
    pub fn new(
        table: &'a mut Table,
        deadline: Option<Instant>,
        cancel: &'a AtomicBool,
    ) -> Solver<'a> {
        Solver {
            table,
            nodes: 0,
            deadline,
            cancel,
            aborted: false,
        }
    }

    #[inline]
    fn poll(&mut self) {
        if self.nodes & 4095 == 0
            && (self.cancel.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
    }

    /// The exact score of the position and its best move (`None` for a pass or a finished game), searched
    /// with the window `(alpha, beta)` (the score is exact inside it and a bound outside); `None` if stopped.
    /// `hint` is tried first unless the table knows better.
    pub fn solve(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        hint: Option<u8>,
    ) -> Option<(i32, Option<u8>)> {
        let mine = moves(player, opponent);
        if mine == 0 {
            if moves(opponent, player) == 0 {
                return Some((final_score(player, opponent), None));
            }
            let score = -self.search(opponent, player, -beta, -alpha, true);
            return (!self.aborted).then_some((score, None));
        }
        let mut list = MoveList::new();
        let tt = self
            .table
            .probe(player, opponent)
            .map(|e| e.best)
            .filter(|&b| b != NO_MOVE)
            .or(hint)
            .unwrap_or(NO_MOVE);
        list.fill(player, opponent, mine, tt);
        let alpha_in = alpha;
        let (mut alpha, mut best, mut best_move) = (alpha, -65, None);
        for (i, &(square, flipped, _)) in list.iter().enumerate() {
            let (p, o) = (player | flipped | (1 << square), opponent & !flipped);
            let score = if i == 0 {
                -self.search(o, p, -beta, -alpha, false)
            } else {
                let s = -self.search(o, p, -alpha - 1, -alpha, false);
                if s > alpha && s < beta {
                    -self.search(o, p, -beta, -s, false)
                } else {
                    s
                }
            };
            if self.aborted {
                return None;
            }
            if score > best {
                best = score;
                best_move = Some(square);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let empties = (!(player | opponent)).count_ones() as u8;
        self.table.store(
            player,
            opponent,
            empties,
            alpha_in,
            beta,
            best,
            best_move.unwrap_or(NO_MOVE),
        );
        Some((best, best_move))
    }

    /// The exact score and a best move, as [`Solver::solve`] with the full window, found in two steps: first
    /// win, loss or draw (the window (−1, 1)), then the exact score inside the half the first step proved, with
    /// its best move tried first. The cheap first step fills the table with best moves for the second: about
    /// 20 % fewer nodes on FFO #40–#42 than one full-window search.
    pub fn solve_exact(
        &mut self,
        player: u64,
        opponent: u64,
        hint: Option<u8>,
    ) -> Option<(i32, Option<u8>)> {
        let (wld, best) = self.solve(player, opponent, -1, 1, hint)?;
        if best.is_none() {
            // A pass or a finished game: nothing to order.
            return self.solve(player, opponent, -64, 64, hint);
        }
        match wld.signum() {
            1 => self.solve(player, opponent, 0, 64, best),
            -1 => self.solve(player, opponent, -64, 0, best),
            _ => Some((0, best)),
        }
    }

    /// The principal variation from a solved position, read back from the table (as far as it holds).
    pub fn principal_variation(&self, mut player: u64, mut opponent: u64) -> Vec<Option<u8>> {
        let mut line = Vec::new();
        for _ in 0..64 {
            let mine = moves(player, opponent);
            if mine == 0 {
                if moves(opponent, player) == 0 {
                    break;
                }
                line.push(None);
                (player, opponent) = (opponent, player);
                continue;
            }
            let Some(square) = self.table.probe(player, opponent).map(|e| e.best) else {
                break;
            };
            if square == NO_MOVE || mine & (1 << square) == 0 {
                break;
            }
            let flipped = flips(player, opponent, square);
            line.push(Some(square));
            (player, opponent) = (opponent & !flipped, player | flipped | (1 << square));
        }
        line
    }

    /// The score with `player` to move; `passed` when the opponent just passed (so no move here ends it).
    fn search(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        mut beta: i32,
        passed: bool,
    ) -> i32 {
        let empty = !(player | opponent);
        let n = empty.count_ones();
        if n < ORDER_MIN {
            return self.shallow(player, opponent, alpha, beta, passed, n);
        }
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let mine = moves(player, opponent);
        if mine == 0 {
            if passed {
                return final_score(player, opponent);
            }
            return -self.search(opponent, player, -beta, -alpha, true);
        }
        if n >= STABILITY_MIN && alpha > 0 && 64 - 2 * opponent.count_ones() as i32 <= alpha {
            // The opponent's stable discs stay theirs: the score is at most 64 minus twice their count.
            let top = 64 - 2 * board::stable(opponent, player).count_ones() as i32;
            if top <= alpha {
                return top;
            }
            beta = beta.min(top);
        }
        let mut tt = NO_MOVE;
        if n >= TABLE_MIN {
            if let Some(e) = self.table.probe(player, opponent) {
                tt = e.best;
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                if lower == upper {
                    return lower;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let alpha_in = alpha;
        if n >= ETC_MIN {
            // Enhanced transposition cut-off: a child the table already bounds below -beta refutes this node.
            for square in squares(mine) {
                let flipped = flips(player, opponent, square);
                let (p, o) = (player | flipped | (1 << square), opponent & !flipped);
                if let Some(e) = self.table.probe(o, p) {
                    if -i32::from(e.upper) >= beta {
                        return -i32::from(e.upper);
                    }
                }
            }
        }
        let mut list = MoveList::new();
        list.fill(player, opponent, mine, tt);
        let (mut best, mut best_move) = (-65, NO_MOVE);
        for (i, &(square, flipped, _)) in list.iter().enumerate() {
            let (p, o) = (player | flipped | (1 << square), opponent & !flipped);
            let score = if i == 0 {
                -self.search(o, p, -beta, -alpha, false)
            } else {
                let s = -self.search(o, p, -alpha - 1, -alpha, false);
                if s > alpha && s < beta {
                    -self.search(o, p, -beta, -s, false)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = square;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if n >= TABLE_MIN {
            self.table
                .store(player, opponent, n as u8, alpha_in, beta, best, best_move);
        }
        best
    }

    /// Few empty squares: no move list, no table; the empty squares of odd quadrants first.
    fn shallow(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        passed: bool,
        n: u32,
    ) -> i32 {
        let empty = !(player | opponent);
        if n == 1 {
            self.nodes += 1;
            return last(player, opponent, empty.trailing_zeros() as u8);
        }
        self.nodes += 1;
        let odd = odd_quadrants(empty);
        let mut best = -65;
        for group in [empty & odd, empty & !odd] {
            for square in squares(group) {
                let flipped = flips(player, opponent, square);
                if flipped == 0 {
                    continue;
                }
                let (p, o) = (player | flipped | (1 << square), opponent & !flipped);
                let score = -self.shallow(o, p, -beta, -alpha, false, n - 1);
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if score >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if best == -65 {
            if passed {
                return final_score(player, opponent);
            }
            return -self.shallow(opponent, player, -beta, -alpha, true, n);
        }
        best
    }
}

/// The final score with one empty square left, `player` to move.
#[inline]
fn last(player: u64, opponent: u64, square: u8) -> i32 {
    let diff = 2 * player.count_ones() as i32 - 63;
    let mine = flips(player, opponent, square).count_ones() as i32;
    if mine > 0 {
        return diff + 2 * mine + 1;
    }
    let theirs = flips(opponent, player, square).count_ones() as i32;
    if theirs > 0 {
        return diff - 2 * theirs - 1;
    }
    match diff.signum() {
        1 => diff + 1,
        -1 => diff - 1,
        _ => 0,
    }
}

/// The moves of a node with their flips, ordered fastest-first.
struct MoveList {
    moves: [(u8, u64, i32); 32],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            moves: [(0, 0, 0); 32],
            len: 0,
        }
    }

    /// The legal moves `mine`, the table's move `tt` first, then by the opponent's mobility after each (corners
    /// twice, four points a move) plus its potential mobility (the empty squares next to the mover's discs, a
    /// point each), a corner or an odd quadrant breaking ties. (Ordering by a shallow midgame search from 14 or
    /// 18 empty squares on was tried, and visited more nodes on FFO #40 and #41.)
    #[inline]
    fn fill(&mut self, player: u64, opponent: u64, mine: u64, tt: u8) {
        let empty = !(player | opponent);
        let odd = odd_quadrants(empty);
        for square in squares(mine) {
            let flipped = flips(player, opponent, square);
            let key = if square == tt {
                -1_000_000
            } else {
                let (p, o) = (player | flipped | (1 << square), opponent & !flipped);
                let theirs = moves(o, p);
                let bit = 1u64 << square;
                (theirs.count_ones() + (theirs & CORNERS).count_ones()) as i32 * 4
                    + (board::neighbours(p) & empty).count_ones() as i32
                    - i32::from(bit & CORNERS != 0) * 2
                    - i32::from(bit & odd != 0)
            };
            // Insertion by key.
            let mut i = self.len;
            while i > 0 && self.moves[i - 1].2 > key {
                self.moves[i] = self.moves[i - 1];
                i -= 1;
            }
            self.moves[i] = (square, flipped, key);
            self.len += 1;
        }
    }

    fn iter(&self) -> std::slice::Iter<'_, (u8, u64, i32)> {
        self.moves[..self.len].iter()
    }
}
