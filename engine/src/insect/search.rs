//! The search: iterative deepening negamax with alpha-beta (principal variation search), a transposition table,
//! move ordering (hash move, captures by victim value, killers, history, approach to the enemy's food), a
//! food-threat extension, a capture search at the leaves, and the game's draw rules (repetition, 100 plies
//! without capture) scored as draws inside the tree.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rules::insect::NO_CAPTURE_LIMIT;

use super::board::{tables, Board, MoveList, Mv};
use super::eval::{evaluate, food_distance, VALUE};
use super::level::Level;
use super::table::{Bound, Entry, Table};

/// The score of a food (or any) win found at ply 0; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses at a known distance.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The score of a draw.
pub const DRAW: i32 = 0;
const INF: i32 = MATE + 1;
const MAX_PLY: usize = 96;

/// Where to stop: nodes, the clock, the cancel flag.
pub(crate) struct Limits<'a> {
    pub nodes: u64,
    pub deadline: Instant,
    pub cancel: &'a AtomicBool,
}

/// The result of one root search (one iteration).
pub(crate) struct RootResult {
    /// Each root move with its score (exact when within the window, otherwise a bound), best first.
    pub scored: Vec<(Mv, i32)>,
    /// The principal variation.
    pub pv: Vec<Mv>,
}

/// The state of one move's thinking.
pub(crate) struct Searcher<'a> {
    pub level: Level,
    pub table: &'a mut Table,
    /// History scores by side, kind and destination square.
    pub history: &'a mut [[[i32; 77]; 6]; 2],
    killers: [[Mv; 2]; MAX_PLY],
    /// Keys of the positions since the last capture before the root (the root last), then the path.
    stack: Vec<u64>,
    pv: Vec<[Mv; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    pub nodes: u64,
    limits: Limits<'a>,
    /// Whether the limits may stop the search now (the first iterations always finish, unless cancelled).
    pub limits_armed: bool,
    pub stopped: bool,
}

impl<'a> Searcher<'a> {
    pub fn new(
        level: Level,
        table: &'a mut Table,
        history: &'a mut [[[i32; 77]; 6]; 2],
        stack: Vec<u64>,
        limits: Limits<'a>,
    ) -> Searcher<'a> {
        Searcher {
            level,
            table,
            history,
            killers: [[Mv::default(); 2]; MAX_PLY],
            stack,
            pv: vec![[Mv::default(); MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            nodes: 0,
            limits,
            limits_armed: false,
            stopped: false,
        }
    }

    fn check_limits(&mut self) {
        if self.nodes & 255 == 0 && self.limits.cancel.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.limits_armed
            && (self.nodes >= self.limits.nodes
                || (self.nodes & 255 == 0 && Instant::now() >= self.limits.deadline))
        {
            self.stopped = true;
        }
    }

    /// Whether the position on top of the stack stood before since the last capture (`quiet` plies back at
    /// most). A repetition inside the tree is scored as a draw: it can be repeated until the third time.
    fn is_repetition(&self, quiet: u32) -> bool {
        let n = self.stack.len();
        let key = self.stack[n - 1];
        let mut back = 2;
        while back as u32 <= quiet && back < n {
            if self.stack[n - 1 - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Searches the root moves at `depth` plies; `margin` keeps scores within that much of the best exact (for
    /// the noise of lower levels).
    pub fn root(
        &mut self,
        b: &Board,
        moves: &[Mv],
        depth: i32,
        quiet: u32,
        margin: i32,
    ) -> RootResult {
        let mut scored = Vec::with_capacity(moves.len());
        let mut best = -INF;
        let mut pv = Vec::new();
        self.pv_len[0] = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let child = b.play(mv);
            self.stack.push(child.hash);
            let q = if mv.is_capture() { 0 } else { quiet + 1 };
            let alpha = if best == -INF {
                -INF
            } else {
                (best - margin).max(-INF)
            };
            let mut score;
            if i == 0 || margin > 0 {
                score = -self.negamax(&child, depth - 1, -INF, -alpha, 1, q);
            } else {
                score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, q);
                if score > alpha && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -INF, -alpha, 1, q);
                }
            }
            self.stack.pop();
            if self.stopped {
                break;
            }
            scored.push((mv, score));
            if score > best {
                best = score;
                pv.clear();
                pv.push(mv);
                pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            }
        }
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        RootResult { scored, pv }
    }

    fn negamax(
        &mut self,
        b: &Board,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiet: u32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let mut moves = MoveList::new();
        b.moves(&mut moves);
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        if self.is_repetition(quiet) || quiet >= NO_CAPTURE_LIMIT {
            return DRAW;
        }
        if let Some(win) = b.food_win() {
            self.pv[ply][0] = win;
            self.pv_len[ply] = 1;
            return MATE - ply as i32 - 1;
        }
        if ply + 2 >= MAX_PLY {
            return evaluate(b, self.level.evaluation);
        }
        let threats = b.food_threats(b.us ^ 1);
        if threats != 0 {
            // Like a check: the only answers capture the threatening piece, so look one ply further.
            depth += 1;
        }
        if depth <= 0 {
            return if self.level.quiescence {
                self.quiesce(b, &moves, alpha, beta, ply)
            } else {
                evaluate(b, self.level.evaluation)
            };
        }

        let alpha_start = alpha;
        let mut hash_move = 0u16;
        if let Some(e) = self.table.probe(b.hash) {
            hash_move = e.mv;
            if i32::from(e.depth) >= depth && beta - alpha == 1 {
                let score = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }

        let mut keys = [0i32; 32];
        self.order(b, moves.as_slice(), hash_move, ply, &mut keys);
        let n = moves.len();
        let mut best = -INF;
        let mut best_move = Mv::default();
        for i in 0..n {
            pick_next(moves.as_mut_slice(), &mut keys, i);
            let mv = moves.as_slice()[i];
            let child = b.play(mv);
            self.stack.push(child.hash);
            let q = if mv.is_capture() { 0 } else { quiet + 1 };
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, q);
            } else {
                score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, q);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, q);
                }
            }
            self.stack.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
            }
            if score > alpha {
                alpha = score;
                self.pv[ply][0] = mv;
                let len = self.pv_len[ply + 1];
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply][1..=len].copy_from_slice(&tail[0][..len]);
                self.pv_len[ply] = len + 1;
            }
            if alpha >= beta {
                if !mv.is_capture() {
                    let k = &mut self.killers[ply];
                    if k[0] != mv {
                        k[1] = k[0];
                        k[0] = mv;
                    }
                    let h = &mut self.history[b.us][mv.kind as usize][mv.to as usize];
                    *h = (*h + depth * depth).min(1 << 20);
                }
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(Entry {
            key: b.hash,
            mv: best_move.packed(),
            score: to_table(best, ply),
            depth: depth as i16,
            bound,
        });
        best
    }

    /// The capture search: stand pat on the evaluation, or try captures, best victim first. When the enemy
    /// stands one step from our food there is no standing pat: only capturing it saves the game.
    fn quiesce(
        &mut self,
        b: &Board,
        moves: &MoveList,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let threats = b.food_threats(b.us ^ 1);
        let mut best;
        if threats != 0 {
            if threats.count_ones() >= 2 {
                return -MATE + ply as i32 + 2;
            }
            best = -MATE + ply as i32 + 2;
        } else {
            best = evaluate(b, self.level.evaluation);
            if best >= beta {
                return best;
            }
        }
        alpha = alpha.max(best);
        let mut captures: Vec<(Mv, i32)> = moves
            .as_slice()
            .iter()
            .filter(|m| m.is_capture() && (threats == 0 || (1u128 << m.to) & threats != 0))
            .map(|&m| {
                (
                    m,
                    VALUE[m.victim as usize] * 16 - VALUE[m.kind as usize] / 16,
                )
            })
            .collect();
        captures.sort_by_key(|&(_, k)| std::cmp::Reverse(k));
        for (mv, _) in captures {
            let child = b.play(mv);
            let score = -self.quiesce_node(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// A node of the capture search after a capture (no repetition is possible, the 100-ply count is zero).
    fn quiesce_node(&mut self, b: &Board, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let mut moves = MoveList::new();
        b.moves(&mut moves);
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        if b.food_win().is_some() {
            return MATE - ply as i32 - 1;
        }
        if ply + 2 >= MAX_PLY {
            return evaluate(b, self.level.evaluation);
        }
        self.quiesce(b, &moves, alpha, beta, ply)
    }

    /// Ordering keys: the hash move, then captures by victim (a piece in our own mud first: it threatens the
    /// food), killers, and quiet moves by history and by how much nearer they bring the piece to the enemy's food.
    fn order(&self, b: &Board, moves: &[Mv], hash_move: u16, ply: usize, keys: &mut [i32; 32]) {
        let t = tables();
        let us = b.us;
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = if hash_move != 0 && mv.packed() == hash_move {
                4_000_000
            } else if mv.is_capture() {
                let defence = if (1u128 << mv.to) & t.mud[us] != 0 {
                    500_000
                } else {
                    0
                };
                2_000_000 + defence + VALUE[mv.victim as usize] * 16 - VALUE[mv.kind as usize] / 16
            } else if self.killers[ply][0] == mv {
                1_500_000
            } else if self.killers[ply][1] == mv {
                1_400_000
            } else {
                let kind = mv.kind as usize;
                let before = i32::from(food_distance(us, kind, mv.from));
                let after = i32::from(food_distance(us, kind, mv.to));
                self.history[us][kind][mv.to as usize] + (before - after) * 64
            };
        }
    }

    /// Orders root moves before the first iteration (no killers yet).
    pub fn order_root(&self, b: &Board, moves: &mut [Mv]) {
        let mut keys = [0i32; 32];
        self.order(b, moves, 0, 0, &mut keys);
        for i in 0..moves.len() {
            pick_next(moves, &mut keys, i);
        }
    }
}

/// Moves the best remaining move (by key) to position `i`.
fn pick_next(moves: &mut [Mv], keys: &mut [i32; 32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    keys.swap(i, best);
}

/// A score as stored: wins and losses relative to the node, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
