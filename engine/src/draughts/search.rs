//! The search: negamax PVS with a transposition table, captures searched to the end of every exchange beyond
//! the nominal depth (they are forced, so this is the quiescence search), a forced single reply searched at no
//! cost in depth, killer moves and a history table for the quiet moves, and the rules' draws scored as draws:
//! a position repeated since the last man move or capture, 25 moves each of kings only, and the 16- and 5-move
//! endgame limits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rules::draughts::KING_MOVES_LIMIT;

use super::board::{Board, Mv};
use super::eval::{evaluate, KING, MAN};

/// Above every score.
pub const INFINITY: i32 = 32_000;
/// A win at the root; a win found `n` plies deep scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WON: i32 = WIN - 1_000;
/// The deepest a line may go (captures and single replies extend it past the nominal depth).
const MAX_PLY: usize = 128;

/// The draw counters along a line, as the rules keep them (`rules::draughts::Counters`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Plies in a row that moved a king without capturing.
    pub king_plies: u32,
    /// The endgame limit running (16 or 5 moves each) and the plies played under it.
    pub endgame: Option<(u32, u32)>,
}

impl Counters {
    /// The rules' counters.
    pub fn of(rules: rules::draughts::Counters) -> Counters {
        Counters {
            king_plies: rules.king_plies,
            endgame: rules.endgame.map(|e| (e.moves_each, e.plies)),
        }
    }

    /// The counters after `mv` took `before` to `after` (as `rules::draughts::Game` counts them).
    pub fn after(self, before: &Board, mv: Mv, after: &Board) -> Counters {
        let king_plies = if before.is_king(mv.from) && !mv.is_capture() {
            self.king_plies + 1
        } else {
            0
        };
        let endgame = endgame_limit(after).map(|limit| match self.endgame {
            Some((m, plies)) if m == limit && !mv.is_capture() => (m, plies + 1),
            _ => (limit, 0),
        });
        Counters {
            king_plies,
            endgame,
        }
    }

    /// Whether the rules draw the game here by the 25-move rule or an endgame limit.
    pub fn drawn(&self) -> bool {
        self.king_plies >= KING_MOVES_LIMIT
            || matches!(self.endgame, Some((m, plies)) if plies >= 2 * m)
    }
}

/// The endgame limit (moves each) that the material falls under, as `rules::draughts::endgame_limit`.
pub fn endgame_limit(board: &Board) -> Option<u32> {
    let (white, black) = board.counts();
    let lone_king = (0, 1);
    let class = |strong: (u32, u32)| match strong {
        (0, 3) | (1, 2) | (2, 1) => Some(16),
        (0, 2) | (1, 1) | (0, 1) => Some(5),
        _ => None,
    };
    if black == lone_king {
        class(white)
    } else if white == lone_king {
        class(black)
    } else {
        None
    }
}

/// What a table entry's score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    score: i32,
    depth: i16,
    bound: Bound,
    /// The best move's index in the position's generated list.
    best: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: i16::MIN,
    bound: Bound::Upper,
    best: u8::MAX,
};

/// The transposition table: one entry per slot, replaced when the new search is at least as deep or the slot
/// holds another position.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![EMPTY; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && e.depth != i16::MIN).then_some(e)
    }

    fn store(&mut self, key: u64, entry: Entry) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key != key || entry.depth >= slot.depth {
            *slot = entry;
        }
    }

    /// The best move stored for a board, as an index into its generated list.
    pub fn best(&self, key: u64) -> Option<usize> {
        self.probe(key)
            .filter(|e| e.best != u8::MAX)
            .map(|e| e.best as usize)
    }
}

/// Mate scores are stored relative to the node, so that they read right from any path.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WON {
        score + ply as i32
    } else if score < -WON {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WON {
        score - ply as i32
    } else if score < -WON {
        score + ply as i32
    } else {
        score
    }
}

/// A root move and what the last iterations said of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Mv,
    /// Its score at [`RootMove::depth`] (a bound only, for a move that was not best, unless every move was
    /// searched exactly).
    pub score: i32,
    /// The iteration that last scored it (0: none yet).
    pub depth: u32,
}

/// One search: its table, its limits and its counters.
pub struct Searcher<'a> {
    table: &'a mut Table,
    cancel: &'a AtomicBool,
    /// The search stops, returning what it has, once this passes (depth 1 has none).
    pub deadline: Option<Instant>,
    /// Positions visited.
    pub nodes: u64,
    stopped: bool,
    /// Keys of the positions before the current one: the game's, then the line's.
    path: Vec<u64>,
    buffers: Vec<Vec<Mv>>,
    history: Box<[[u32; 64]; 64]>,
    killers: [[Option<Mv>; 2]; MAX_PLY + 1],
}

impl<'a> Searcher<'a> {
    /// A searcher over `table`; `history` holds the keys of the game's positions before the root, oldest first
    /// (those since the last man move or capture are enough), for the repetition draw.
    pub fn new(table: &'a mut Table, history: Vec<u64>, cancel: &'a AtomicBool) -> Searcher<'a> {
        Searcher {
            table,
            cancel,
            deadline: None,
            nodes: 0,
            stopped: false,
            path: history,
            buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            history: Box::new([[0; 64]; 64]),
            killers: [[None; 2]; MAX_PLY + 1],
        }
    }

    /// Whether the clock or the cancel flag stopped the search.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The root moves of `board`, in generation order, unscored.
    pub fn root_moves(board: &Board) -> Vec<RootMove> {
        let mut moves = Vec::new();
        board.generate(&mut moves);
        moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                depth: 0,
            })
            .collect()
    }

    fn poll(&mut self) {
        if self.cancel.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
    }

    /// One iteration at the root to `depth`: scores the moves of `list` (best first) and sorts it, best first.
    /// With `exact`, every move gets an exact score (for the low levels' noise); otherwise only the best does.
    /// Returns false when stopped before the end: the moves scored at `depth` are then the ones finished.
    pub fn root(
        &mut self,
        board: &Board,
        counters: Counters,
        depth: u32,
        list: &mut [RootMove],
        exact: bool,
    ) -> bool {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let single = list.len() == 1;
        for (i, entry) in list.iter_mut().enumerate() {
            let mv = entry.mv;
            let child = board.play(mv);
            let cc = counters.after(board, mv, &child);
            self.path.push(board.hash);
            let d = depth as i32 - 1 + i32::from(single);
            let score = if i == 0 || exact {
                -self.search(&child, cc, d, -beta, -alpha, 1)
            } else {
                let s = -self.search(&child, cc, d, -alpha - 1, -alpha, 1);
                if s > alpha && !self.stopped {
                    -self.search(&child, cc, d, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            self.path.pop();
            if self.stopped {
                return false;
            }
            entry.score = score;
            entry.depth = depth;
            if score > alpha && !exact {
                alpha = score;
            }
        }
        list.sort_by_key(|m| std::cmp::Reverse(m.score));
        // The table's best move at the root is the list's first (its index in generation order).
        let mut moves = Vec::new();
        board.generate(&mut moves);
        if let Some(k) = moves.iter().position(|&m| m == list[0].mv) {
            self.table.store(
                board.hash,
                Entry {
                    key: board.hash,
                    score: to_table(list[0].score, 0),
                    depth: depth as i16,
                    bound: Bound::Exact,
                    best: u8::try_from(k).unwrap_or(u8::MAX),
                },
            );
        }
        true
    }

    fn repeated(&self, board: &Board, counters: Counters) -> bool {
        // Only positions since the last man move or capture can repeat, and only those with the same side to
        // move: two, four, … plies back.
        let len = self.path.len();
        let reach = (counters.king_plies as usize).min(len);
        let mut i = 4;
        while i <= reach {
            if self.path[len - i] == board.hash {
                return true;
            }
            i += 2;
        }
        false
    }

    fn search(
        &mut self,
        board: &Board,
        counters: Counters,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let taken = board.generate(&mut moves);
        let score = self.node(board, counters, depth, alpha, beta, ply, &mut moves, taken);
        self.buffers[ply] = moves;
        score
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        board: &Board,
        counters: Counters,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        moves: &mut [Mv],
        taken: u32,
    ) -> i32 {
        if moves.is_empty() {
            // No move (or no piece): lost, as the rules judge before any draw.
            return -(WIN - ply as i32);
        }
        if counters.drawn() || self.repeated(board, counters) {
            return 0;
        }
        if ply >= MAX_PLY || (depth <= 0 && taken == 0) {
            return evaluate(board);
        }
        let alpha0 = alpha;
        let mut first = None;
        if let Some(e) = self.table.probe(board.hash) {
            if e.depth as i32 >= depth {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
            if (e.best as usize) < moves.len() {
                first = Some(e.best as usize);
            }
        }
        // Order: the table's move, then captures by what they take (kings first) and crownings, then the quiet
        // moves by killers and history. The index in generation order is what the table keeps.
        let mut order: Vec<(i64, usize)> = moves
            .iter()
            .enumerate()
            .map(|(k, mv)| {
                let mut s: i64 = if Some(k) == first {
                    1 << 40
                } else if mv.is_capture() {
                    let kings = (mv.captured & board.kings).count_ones() as i64;
                    (1 << 30) + kings * i64::from(KING) + i64::from(MAN)
                } else if self.killers[ply].contains(&Some(*mv)) {
                    1 << 29
                } else {
                    i64::from(self.history[mv.from as usize][mv.to as usize])
                };
                if !board.is_king(mv.from) && crowns(board, mv) {
                    s += 1 << 28;
                }
                (s, k)
            })
            .collect();
        order.sort_by_key(|&(s, k)| (std::cmp::Reverse(s), k));
        let extension = i32::from(moves.len() == 1 && depth > 0);
        let mut best = -INFINITY;
        let mut best_k = order[0].1;
        for (i, &(_, k)) in order.iter().enumerate() {
            let mv = moves[k];
            let child = board.play(mv);
            let cc = counters.after(board, mv, &child);
            let d = depth - 1 + extension;
            self.path.push(board.hash);
            let score = if i == 0 {
                -self.search(&child, cc, d, -beta, -alpha, ply + 1)
            } else {
                let s = -self.search(&child, cc, d, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta && !self.stopped {
                    -self.search(&child, cc, d, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_k = k;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if !mv.is_capture() {
                            let h = &mut self.history[mv.from as usize][mv.to as usize];
                            *h = h.saturating_add((depth.max(1) * depth.max(1)) as u32);
                            let killers = &mut self.killers[ply];
                            if killers[0] != Some(mv) {
                                killers[1] = killers[0];
                                killers[0] = Some(mv);
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            board.hash,
            Entry {
                key: board.hash,
                score: to_table(best, ply),
                depth: depth.clamp(-100, 1000) as i16,
                bound,
                best: u8::try_from(best_k).unwrap_or(u8::MAX),
            },
        );
        best
    }
}

fn crowns(board: &Board, mv: &Mv) -> bool {
    let crown = if board.white_to_move {
        super::board::WHITE_CROWN
    } else {
        super::board::BLACK_CROWN
    };
    crown & (1 << mv.to) != 0
}
