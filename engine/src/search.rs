//! The main search: iterative deepening principal-variation search (alpha-beta with null windows) over the
//! incremental [`Position`], a transposition table keyed by Zobrist hash, killer moves and a history table,
//! and threat-aware move generation (a five wins, an opponent's five must be blocked, an opponent's open three
//! leaves only the defences and one's own fours).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rules::Color;

use crate::position::{class, Position, CELLS};

/// A won position's score; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores above this (or below its negation) are proved wins (losses).
pub const WIN_BOUND: i32 = WIN - 1_000;
const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 128;

/// How long a search may run: nodes, a deadline and a cancel flag, checked every few hundred nodes.
pub struct Budget<'a> {
    /// Nodes visited so far (main and threat search together).
    pub nodes: u64,
    /// Stop after this many nodes.
    pub max_nodes: u64,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this is set (by another thread).
    pub cancel: &'a AtomicBool,
    /// Whether the search has been told to stop.
    pub stopped: bool,
}

impl<'a> Budget<'a> {
    /// A budget of nodes and an optional deadline.
    pub fn new(max_nodes: u64, deadline: Option<Instant>, cancel: &'a AtomicBool) -> Budget<'a> {
        Budget {
            nodes: 0,
            max_nodes,
            deadline,
            cancel,
            stopped: false,
        }
    }

    /// Narrows the budget to a share of what is left, for one part of a move's work: `1/parts` of the nodes
    /// left, and no later than `until`. Returns what [`Budget::widen`] restores.
    pub fn narrow(&mut self, parts: u64, until: Instant) -> (u64, Option<Instant>) {
        let saved = (self.max_nodes, self.deadline);
        let left = self.max_nodes.saturating_sub(self.nodes);
        self.max_nodes = self.nodes.saturating_add(left / parts.max(1));
        self.deadline = Some(self.deadline.map_or(until, |d| d.min(until)));
        saved
    }

    /// Restores the limits [`Budget::narrow`] saved; the search goes on unless the real limits are reached too.
    pub fn widen(&mut self, saved: (u64, Option<Instant>)) {
        (self.max_nodes, self.deadline) = saved;
        self.stopped = self.cancel.load(Ordering::Relaxed)
            || self.nodes >= self.max_nodes
            || self.deadline.is_some_and(|d| Instant::now() >= d);
    }

    /// Counts a node; true when the search must stop now.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            if self.nodes >= self.max_nodes || self.cancel.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
        } else if self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        self.stopped
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: i8,
    bound: u8,
    best: u16,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const NO_MOVE: u16 = u16::MAX;

/// The transposition table: one entry per slot, replaced when the new search is at least as deep.
pub struct Table {
    entries: Vec<Entry>,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
        }
    }

    /// Bytes one entry takes.
    pub const ENTRY_BYTES: u64 = std::mem::size_of::<Entry>() as u64;

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.key == key && e.bound != 0).then_some(e)
    }

    fn store(&mut self, key: u64, e: Entry) {
        let slot = self.slot(key);
        let old = &mut self.entries[slot];
        if old.key != key || e.depth >= old.depth || e.bound == EXACT {
            *old = Entry { key, ..e };
        }
    }

    /// The best move stored for a position, if any.
    pub fn best_move(&self, key: u64) -> Option<usize> {
        self.probe(key)
            .filter(|e| e.best != NO_MOVE)
            .map(|e| e.best as usize)
    }
}

/// What the move generator found at a node.
enum Node {
    /// The mover completes a five on this cell.
    Win(usize),
    /// The mover makes an unstoppable four here (the opponent has no five to answer with).
    WinSoon(usize),
    /// The opponent has a five the mover cannot stop.
    Lost,
    /// Ordinary moves; `forced` when they only block the opponent's five.
    Moves { forced: bool },
}

/// One search: the position, the table, ordering heuristics and the budget.
pub struct Searcher<'t, 'b> {
    /// The position searched (left as it was after every call).
    pub pos: Position,
    table: &'t mut Table,
    /// The node and time budget.
    pub budget: &'t mut Budget<'b>,
    history: Box<[[u32; CELLS]; 2]>,
    killers: [[u16; 2]; MAX_PLY],
    buffers: Vec<Vec<(i32, usize)>>,
    /// At most this many moves are tried at an inner node (the best by ordering).
    pub width: usize,
}

impl<'t, 'b> Searcher<'t, 'b> {
    /// A searcher over a position.
    pub fn new(pos: Position, table: &'t mut Table, budget: &'t mut Budget<'b>) -> Self {
        Searcher {
            pos,
            table,
            budget,
            history: Box::new([[0; CELLS]; 2]),
            killers: [[NO_MOVE; 2]; MAX_PLY],
            buffers: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            width: 24,
        }
    }

    /// Generates the moves of `c` at a node into `out`, best first by ordering.
    fn generate(&self, c: Color, ply: usize, out: &mut Vec<(i32, usize)>) -> Node {
        out.clear();
        let pos = &self.pos;
        let o = c.opposite();
        if pos.count(c, class::FIVE) > 0 {
            if let Some(&i) = pos.five_cells(c).first() {
                return Node::Win(i);
            }
        }
        if pos.count(o, class::FIVE) > 0 {
            for i in pos.five_cells(o) {
                if pos.playable(c, i) {
                    out.push((0, i));
                }
            }
            return if out.is_empty() {
                Node::Lost
            } else {
                Node::Moves { forced: true }
            };
        }
        if pos.count(c, class::F4) > 0 {
            if let Some(i) = pos
                .candidates()
                .find(|&i| pos.class(c, i) == class::F4 && pos.playable(c, i))
            {
                return Node::WinSoon(i);
            }
        }
        let defend = pos.count_at_least(o, class::F4) > 0;
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        for i in pos.candidates() {
            if !pos.playable(c, i) {
                continue;
            }
            let own_class = pos.class(c, i);
            if defend && own_class < class::B4 && pos.class(o, i) < class::B4 {
                continue;
            }
            let mut score = pos.value(c, i) * 2 + pos.value(o, i) + own_class as i32 * 200;
            score += (self.history[c as usize][i] >> 4).min(500) as i32;
            if killers.contains(&(i as u16)) {
                score += 300;
            }
            out.push((score, i));
        }
        let order = |a: &(i32, usize), b: &(i32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        // Only the first `width` are tried: pick them out before sorting.
        let width = if ply == 0 { usize::MAX } else { self.width };
        if out.len() > width {
            out.select_nth_unstable_by(width, order);
            out.truncate(width);
        }
        out.sort_unstable_by(order);
        Node::Moves { forced: false }
    }

    /// Negamax PVS for `c` to move, `depth` plies left.
    pub fn search(&mut self, c: Color, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        if self.pos.is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.pos.evaluate(c);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let forced = match self.generate(c, ply, &mut moves) {
            Node::Win(_) => {
                self.buffers[ply] = moves;
                return WIN - ply as i32;
            }
            Node::WinSoon(_) => {
                self.buffers[ply] = moves;
                return WIN - ply as i32 - 2;
            }
            Node::Lost => {
                self.buffers[ply] = moves;
                return -(WIN - ply as i32 - 1);
            }
            Node::Moves { forced } => forced,
        };
        // A forced block costs no depth: four after four is followed to the end.
        let depth = if forced { depth } else { depth - 1 };
        if depth < 0 || moves.is_empty() {
            self.buffers[ply] = moves;
            return self.pos.evaluate(c);
        }
        let key = self.pos.hash();
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.table.probe(key) {
            tt_move = e.best;
            if e.depth as i32 >= depth {
                let score = from_table(e.score, ply);
                let cut = match e.bound {
                    EXACT => true,
                    LOWER => score >= beta,
                    _ => score <= alpha,
                };
                if cut {
                    self.buffers[ply] = moves;
                    return score;
                }
            }
        }
        if tt_move != NO_MOVE {
            if let Some(k) = moves.iter().position(|m| m.1 == tt_move as usize) {
                let m = moves.remove(k);
                moves.insert(0, m);
            }
        }
        let width = if ply == 0 { usize::MAX } else { self.width };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        let o = c.opposite();
        for (k, &(_, m)) in moves.iter().take(width).enumerate() {
            self.pos.place(m, c);
            let score = if k == 0 {
                -self.search(o, depth, -beta, -alpha, ply + 1)
            } else {
                let s = -self.search(o, depth, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta {
                    -self.search(o, depth, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            self.pos.remove(m);
            if self.budget.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = m as u16;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let slot = &mut self.killers[ply.min(MAX_PLY - 1)];
                if slot[0] != m as u16 {
                    slot[1] = slot[0];
                    slot[0] = m as u16;
                }
                self.history[c as usize][m] += (depth * depth) as u32 + 1;
                break;
            }
        }
        let bound = if best <= original_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.table.store(
            key,
            Entry {
                key,
                score: to_table(best, ply),
                depth: depth.min(i8::MAX as i32) as i8,
                bound,
                best: best_move,
            },
        );
        self.buffers[ply] = moves;
        best
    }

    /// The root moves of `c`, best first, with the node's verdict when it is decided without search.
    pub fn root_moves(&mut self, c: Color) -> (Vec<usize>, Option<i32>) {
        let mut moves = Vec::new();
        let verdict = match self.generate(c, 0, &mut moves) {
            Node::Win(i) => return (vec![i], Some(WIN)),
            Node::WinSoon(i) => return (vec![i], Some(WIN - 2)),
            Node::Lost => None,
            Node::Moves { .. } => None,
        };
        let list: Vec<usize> = moves.into_iter().map(|m| m.1).collect();
        (list, verdict)
    }

    /// Scores one root move of `c` searched `depth` plies (the move itself included) with a window.
    pub fn score_move(&mut self, c: Color, m: usize, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.pos.place(m, c);
        let s = -self.search(c.opposite(), depth - 1, -beta, -alpha, 1);
        self.pos.remove(m);
        s
    }

    /// The principal variation from the table, starting with `first` played by `c`.
    pub fn principal_variation(&mut self, c: Color, first: usize, max: usize) -> Vec<usize> {
        let mut pv = vec![first];
        let mut played = vec![first];
        self.pos.place(first, c);
        let mut colour = c.opposite();
        while pv.len() < max {
            let Some(m) = self.table.best_move(self.pos.hash()) else {
                break;
            };
            if m >= CELLS || !self.pos.playable(colour, m) {
                break;
            }
            self.pos.place(m, colour);
            played.push(m);
            pv.push(m);
            colour = colour.opposite();
        }
        for m in played.into_iter().rev() {
            self.pos.remove(m);
        }
        pv
    }
}

fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
