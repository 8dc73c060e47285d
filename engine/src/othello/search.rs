//! The midgame search: negamax PVS with a transposition table, fail-soft, a pass costing no depth; moves
//! ordered by the table's move, then (four plies or more from the leaves) fastest-first with the square's
//! value, nearer the leaves by the square's value alone. The root searches every move of an iteration and keeps
//! their scores, for iterative deepening and for the noise of the low levels.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board::{final_score, flips, moves, squares, CORNERS};
use super::eval::{evaluate, Weights, MAX_EVAL};
use super::table::{Table, NO_MOVE};

/// A finished game's score is its disc difference in hundredths of a disc, moved away from zero by this much,
/// so that any win scores above any evaluation (which stays within ±[`MAX_EVAL`]).
pub const WIN: i32 = 20_000;
/// Above every score.
pub const INFINITY: i32 = 30_000;

/// The score of a finished game for `player`.
#[inline]
pub fn terminal(player: u64, opponent: u64) -> i32 {
    let d = final_score(player, opponent);
    d * 100 + d.signum() * WIN
}

/// A static value per square, for ordering moves near the leaves and breaking ties elsewhere.
#[rustfmt::skip]
pub const SQUARE_VALUE: [i32; 64] = [
    100, -20,  10,   5,   5,  10, -20, 100,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
     10,  -2,   1,   1,   1,   1,  -2,  10,
      5,  -2,   1,   0,   0,   1,  -2,   5,
      5,  -2,   1,   0,   0,   1,  -2,   5,
     10,  -2,   1,   1,   1,   1,  -2,  10,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
    100, -20,  10,   5,   5,  10, -20, 100,
];

/// A root move with its scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The square.
    pub square: u8,
    /// Its score in the iteration under way (exact for the best, a bound for the others unless every move
    /// gets a full window).
    pub score: i32,
    /// The depth `score` was searched to (0: not yet).
    pub depth: u32,
    /// Its score in the last completed iteration.
    pub last: i32,
}

/// One midgame search: its table, weights, node count and stop conditions.
pub struct Searcher<'a> {
    table: &'a mut Table,
    weights: &'a Weights,
    /// Positions visited.
    pub nodes: u64,
    /// When to stop (`None`: only the cancel flag stops it).
    pub deadline: Option<Instant>,
    cancel: &'a AtomicBool,
    /// Set once stopped: every score after it is meaningless.
    pub aborted: bool,
}

impl<'a> Searcher<'a> {
    /// A searcher over `table` with `weights`, stopped by `deadline` or `cancel`.
    pub fn new(
        table: &'a mut Table,
        weights: &'a Weights,
        deadline: Option<Instant>,
        cancel: &'a AtomicBool,
    ) -> Searcher<'a> {
        Searcher {
            table,
            weights,
            nodes: 0,
            deadline,
            cancel,
            aborted: false,
        }
    }

    #[inline]
    fn poll(&mut self) {
        if self.nodes & 1023 == 0
            && (self.cancel.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
    }

    /// The root moves of a position in static order (the caller checked there is one).
    pub fn root_moves(player: u64, opponent: u64) -> Vec<RootMove> {
        let mut list: Vec<RootMove> = squares(moves(player, opponent))
            .map(|square| RootMove {
                square,
                score: -INFINITY,
                depth: 0,
                last: -INFINITY,
            })
            .collect();
        list.sort_by_key(|m| -SQUARE_VALUE[m.square as usize]);
        list
    }

    /// One iteration at the root to `depth`: each move's score in `list`, which is then sorted best first.
    /// With `every_exact`, each move gets the full window (its exact score), otherwise PVS. `false` if stopped
    /// (the moves searched so far carry this depth).
    pub fn root(
        &mut self,
        player: u64,
        opponent: u64,
        depth: u32,
        list: &mut [RootMove],
        every_exact: bool,
    ) -> bool {
        let mut alpha = -INFINITY;
        for (i, m) in list.iter_mut().enumerate() {
            let flipped = flips(player, opponent, m.square);
            let (p, o) = (player | flipped | (1 << m.square), opponent & !flipped);
            let d = depth as i32 - 1;
            let score = if i == 0 || every_exact {
                -self.pvs(o, p, d, -INFINITY, -alpha)
            } else {
                let s = -self.pvs(o, p, d, -alpha - 1, -alpha);
                if s > alpha && !self.aborted {
                    -self.pvs(o, p, d, -INFINITY, -s)
                } else {
                    s
                }
            };
            if self.aborted {
                return false;
            }
            m.score = score;
            m.depth = depth;
            if !every_exact && score > alpha {
                alpha = score;
            }
        }
        list.sort_by_key(|m| -m.score);
        for m in list.iter_mut() {
            m.last = m.score;
        }
        let best = list[0];
        self.table.store(
            player,
            opponent,
            depth as u8,
            -INFINITY,
            INFINITY,
            best.score,
            best.square,
        );
        true
    }

    /// The score of the position with `player` to move, searched `depth` plies with the window
    /// `(alpha, beta)` (fail-soft).
    pub fn pvs(
        &mut self,
        player: u64,
        opponent: u64,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let mine = moves(player, opponent);
        if mine == 0 {
            if moves(opponent, player) == 0 {
                return terminal(player, opponent);
            }
            return -self.pvs(opponent, player, depth, -beta, -alpha);
        }
        if depth <= 0 {
            return evaluate(self.weights, player, opponent);
        }
        let mut tt = NO_MOVE;
        if let Some(e) = self.table.probe(player, opponent) {
            tt = e.best;
            if i32::from(e.depth) >= depth {
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
        let mut list = [(0u8, 0u64, 0i32); 32];
        let mut len = 0;
        for square in squares(mine) {
            let flipped = flips(player, opponent, square);
            let key = if square == tt {
                -100_000
            } else if depth >= 4 {
                let theirs = moves(opponent & !flipped, player | flipped | (1 << square));
                (theirs.count_ones() + 2 * (theirs & CORNERS).count_ones()) as i32 * 16
                    - SQUARE_VALUE[square as usize]
            } else {
                -SQUARE_VALUE[square as usize]
            };
            let mut i = len;
            while i > 0 && list[i - 1].2 > key {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (square, flipped, key);
            len += 1;
        }
        let (mut best, mut best_move) = (-INFINITY, NO_MOVE);
        for (i, &(square, flipped, _)) in list[..len].iter().enumerate() {
            let (p, o) = (player | flipped | (1 << square), opponent & !flipped);
            let score = if i == 0 {
                -self.pvs(o, p, depth - 1, -beta, -alpha)
            } else {
                let s = -self.pvs(o, p, depth - 1, -alpha - 1, -alpha);
                if s > alpha && s < beta && !self.aborted {
                    -self.pvs(o, p, depth - 1, -beta, -s)
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
        self.table.store(
            player,
            opponent,
            depth as u8,
            alpha_in,
            beta,
            best,
            best_move,
        );
        best
    }

    /// The principal variation from the root, read back from the table (at most `depth` moves; `None` is a
    /// pass).
    pub fn principal_variation(
        &self,
        mut player: u64,
        mut opponent: u64,
        depth: u32,
    ) -> Vec<Option<u8>> {
        let mut line = Vec::new();
        while line.len() < depth as usize {
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
}

/// Whether a score says the game's end was seen (a forced win, loss or draw by disc count).
pub fn is_decided(score: i32) -> bool {
    score.abs() > MAX_EVAL
}
