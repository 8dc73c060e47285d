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
/// Late-move reductions start at this move of the order (the first three are searched at full depth).
const LMR_FROM: usize = 3;
/// What a quiet move at the last ply may add to the static score beyond its own points' values.
const FUTILITY_MARGIN: i32 = 120;
const MAX_PLY: usize = 128;

/// The search techniques a [`Searcher`] uses beyond plain PVS with a one-slot table, killers and history, each
/// switchable so that a match can measure what it buys (issue #39: `match --a 8 --b 8/base`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Root aspiration windows: each iteration's first move is searched in a window around the last score.
    pub aspiration: bool,
    /// Late-move reductions: quiet moves late in the order are searched a ply shallower first.
    pub lmr: bool,
    /// Futility pruning: at the last ply, quiet moves that cannot lift a hopeless static score are skipped.
    pub futility: bool,
    /// A transposition table of four-entry buckets, replacing the shallowest entry of an older search.
    pub buckets: bool,
    /// Counter-move ordering: the reply that refuted the opponent's last move is tried early.
    pub counter_moves: bool,
    /// A move that makes a four is searched a ply deeper (the block that answers it already costs nothing).
    pub four_extension: bool,
}

impl SearchOptions {
    /// The engine's own setting: what the matches of issue #39 did not find harmful (`docs/benchmarks.md`):
    /// aspiration windows, late-move reductions, futility pruning and the bucketed table. Counter-moves and the
    /// four extension scored below the search without them and are off.
    pub const DEFAULT: SearchOptions = SearchOptions {
        counter_moves: false,
        four_extension: false,
        ..SearchOptions::ALL
    };

    /// Every technique on.
    pub const ALL: SearchOptions = SearchOptions {
        aspiration: true,
        lmr: true,
        futility: true,
        buckets: true,
        counter_moves: true,
        four_extension: true,
    };

    /// Every technique off: the search as it was before issue #39, the baseline of the measurements.
    pub const BASELINE: SearchOptions = SearchOptions {
        aspiration: false,
        lmr: false,
        futility: false,
        buckets: false,
        counter_moves: false,
        four_extension: false,
    };

    /// The names [`SearchOptions::set`] knows, in order.
    pub const NAMES: [&'static str; 6] = [
        "aspiration",
        "lmr",
        "futility",
        "buckets",
        "counter",
        "fourext",
    ];

    /// Switches the technique called `name` (one of [`SearchOptions::NAMES`]); false for an unknown name.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        let flag = match name {
            "aspiration" => &mut self.aspiration,
            "lmr" => &mut self.lmr,
            "futility" => &mut self.futility,
            "buckets" => &mut self.buckets,
            "counter" => &mut self.counter_moves,
            "fourext" => &mut self.four_extension,
            _ => return false,
        };
        *flag = on;
        true
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions::DEFAULT
    }
}

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
    /// The bound in the low two bits, the generation (the search that stored it) above them.
    bound: u8,
    best: u16,
}

impl Entry {
    fn bound(&self) -> u8 {
        self.bound & 3
    }

    fn generation(&self) -> u8 {
        self.bound >> 2
    }
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const NO_MOVE: u16 = u16::MAX;
/// Entries per bucket when buckets are on: four 16-byte entries, one 64-byte cache line.
const WAYS: usize = 4;
/// Generations wrap at this (six bits beside the bound).
const GENERATIONS: u8 = 64;

/// The transposition table. With buckets (the default) a key may sit in any of the four entries of its bucket;
/// a new entry replaces the same key, else an empty entry, else the one worth least: the shallowest, an entry
/// of an older search counting as eight plies shallower. Without buckets there is one entry per slot, replaced
/// when the new search is at least as deep (the table before issue #39).
pub struct Table {
    entries: Vec<Entry>,
    buckets: bool,
    generation: u8,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            buckets: true,
            generation: 0,
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
        self.generation = 0;
    }

    /// Chooses buckets (four entries a key may use) or one entry per slot; what the table holds stays valid.
    pub fn use_buckets(&mut self, on: bool) {
        self.buckets = on && self.entries.len() >= WAYS;
    }

    /// Marks the start of a new search: entries of earlier searches become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    /// The entries `key` may occupy.
    fn slots(&self, key: u64) -> std::ops::Range<usize> {
        let mask = self.entries.len() - 1;
        if self.buckets {
            let first = (key as usize) & mask & !(WAYS - 1);
            first..first + WAYS
        } else {
            let slot = (key as usize) & mask;
            slot..slot + 1
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slots(key)]
            .iter()
            .find(|e| e.key == key && e.bound() != 0)
            .copied()
    }

    fn store(&mut self, key: u64, e: Entry) {
        let generation = self.generation;
        let new = Entry {
            key,
            bound: e.bound() | generation << 2,
            ..e
        };
        if !self.buckets {
            let slot = self.slots(key).start;
            let old = &mut self.entries[slot];
            if old.key != key || e.depth >= old.depth || e.bound() == EXACT {
                *old = new;
            }
            return;
        }
        let range = self.slots(key);
        let bucket = &mut self.entries[range];
        if let Some(old) = bucket.iter_mut().find(|o| o.key == key && o.bound() != 0) {
            // The same position: keep a deeper result of this search unless the new one is exact.
            if e.depth >= old.depth || e.bound() == EXACT || old.generation() != generation {
                *old = Entry {
                    best: if e.best == NO_MOVE { old.best } else { e.best },
                    ..new
                };
            }
            return;
        }
        let worth = |o: &Entry| {
            if o.bound() == 0 {
                i32::MIN
            } else {
                let stale = if o.generation() == generation { 0 } else { 8 };
                i32::from(o.depth) - stale
            }
        };
        let victim = bucket
            .iter_mut()
            .min_by_key(|o| worth(o))
            .expect("a bucket has entries");
        *victim = new;
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
    /// Which techniques the search uses.
    pub options: SearchOptions,
    /// Per colour and opponent's move: the reply that last refuted it.
    counters: Box<[[u16; CELLS]; 2]>,
    /// The move played at each ply of the current line (`NO_MOVE` at the root's parent).
    played: [u16; MAX_PLY + 1],
    /// The nominal depth of the current root iteration: extensions stop at twice it.
    root_depth: i32,
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
            options: SearchOptions::DEFAULT,
            counters: Box::new([[NO_MOVE; CELLS]; 2]),
            played: [NO_MOVE; MAX_PLY + 1],
            root_depth: 0,
        }
    }

    /// A searcher using only the techniques of `options` (the table's buckets included).
    pub fn with_options(
        pos: Position,
        table: &'t mut Table,
        budget: &'t mut Budget<'b>,
        options: SearchOptions,
    ) -> Self {
        table.use_buckets(options.buckets);
        let mut s = Searcher::new(pos, table, budget);
        s.options = options;
        s
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
        let counter = match ply.checked_sub(1).map(|p| self.played[p]) {
            Some(last) if self.options.counter_moves && last != NO_MOVE => {
                self.counters[c as usize][last as usize]
            }
            _ => NO_MOVE,
        };
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
            } else if counter == i as u16 {
                score += 250;
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
                let cut = match e.bound() {
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
        let o = c.opposite();
        // Quiet nodes: the opponent has no three to answer (no point where it makes a flex four) and this is no
        // forced block; only there are moves reduced or pruned.
        let quiet_node = !forced && self.pos.count_at_least(o, class::F4) == 0;
        let pv_node = beta - alpha > 1;
        let static_eval = if self.options.futility && quiet_node && depth == 0 && !pv_node {
            Some(self.pos.evaluate(c))
        } else {
            None
        };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (k, &(_, m)) in moves.iter().take(width).enumerate() {
            // A move is quiet when it makes no three or four of its own and blocks none of the opponent's.
            let quiet = self.pos.class(c, m) < class::F3 && self.pos.class(o, m) < class::F3;
            if let Some(eval) = static_eval {
                // At the last ply a quiet move gains at most about its own value and the opponent's there.
                if k > 0 && quiet {
                    let gain = self.pos.value(c, m) * 2 + self.pos.value(o, m) + FUTILITY_MARGIN;
                    if eval + gain <= alpha {
                        continue;
                    }
                }
            }
            let four = self.pos.class(c, m) >= class::B4;
            let extend = self.options.four_extension && four && (ply as i32) < 2 * self.root_depth;
            let child = depth + i32::from(extend);
            let reduce = if self.options.lmr && quiet_node && quiet && k >= LMR_FROM && depth >= 2 {
                if k >= 2 * LMR_FROM && depth >= 4 {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            self.pos.place(m, c);
            self.played[ply] = m as u16;
            let score = if k == 0 {
                -self.search(o, child, -beta, -alpha, ply + 1)
            } else {
                let mut s = -self.search(o, child - reduce, -alpha - 1, -alpha, ply + 1);
                if reduce > 0 && s > alpha && !self.budget.stopped {
                    s = -self.search(o, child, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.budget.stopped {
                    -self.search(o, child, -beta, -alpha, ply + 1)
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
                if let Some(last) = ply.checked_sub(1).map(|p| self.played[p]) {
                    if last != NO_MOVE {
                        self.counters[c as usize][last as usize] = m as u16;
                    }
                }
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
        self.root_depth = depth;
        self.played[0] = m as u16;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: i8) -> Entry {
        Entry {
            key: 0,
            score: i32::from(depth),
            depth,
            bound: EXACT,
            best: depth as u16,
        }
    }

    /// Keys that fall in bucket 0 of a 16-entry table: multiples of 16 plus 0–3.
    fn key(n: u64) -> u64 {
        n << 8
    }

    #[test]
    fn a_bucket_keeps_four_positions_and_replaces_the_shallowest() {
        let mut t = Table::new(4);
        for (n, depth) in [(1, 5), (2, 2), (3, 7), (4, 4)] {
            t.store(key(n), entry(depth));
        }
        for n in 1..=4 {
            assert!(t.probe(key(n)).is_some(), "key {n} kept");
        }
        t.store(key(5), entry(3));
        assert!(t.probe(key(2)).is_none(), "the shallowest went");
        for n in [1, 3, 4, 5] {
            assert!(t.probe(key(n)).is_some(), "key {n} kept");
        }
    }

    #[test]
    fn an_older_searchs_entries_go_first_unless_far_deeper() {
        let mut t = Table::new(4);
        for (n, depth) in [(1, 8), (2, 10), (3, 6), (4, 6)] {
            t.store(key(n), entry(depth));
        }
        t.new_search();
        t.store(key(3), entry(1));
        t.store(key(4), entry(1));
        assert_eq!(
            t.probe(key(3)).map(|e| e.depth),
            Some(1),
            "a new search overwrites an old result"
        );
        // Worth: key 1 is 8 - 8 = 0, key 2 is 10 - 8 = 2, keys 3 and 4 are 1.
        t.store(key(5), entry(1));
        assert!(t.probe(key(1)).is_none());
        t.store(key(6), entry(1));
        assert!(t.probe(key(2)).is_some(), "an old entry far deeper stays");
        let kept = [3, 4, 5, 6].iter().filter(|&&n| t.probe(key(n)).is_some());
        assert_eq!(kept.count(), 3, "one of the new depth-1 entries went");
    }

    #[test]
    fn the_same_key_keeps_the_deeper_result_of_one_search_and_its_move() {
        let mut t = Table::new(4);
        t.store(key(1), entry(6));
        t.store(
            key(1),
            Entry {
                bound: UPPER,
                best: NO_MOVE,
                ..entry(3)
            },
        );
        assert_eq!(t.probe(key(1)).map(|e| e.depth), Some(6));
        t.store(
            key(1),
            Entry {
                bound: LOWER,
                best: NO_MOVE,
                ..entry(7)
            },
        );
        let e = t.probe(key(1)).unwrap();
        assert_eq!(
            (e.depth, e.bound(), e.best),
            (7, LOWER, 6),
            "the old best move stays"
        );
    }

    #[test]
    fn without_buckets_a_slot_holds_one_position() {
        let mut t = Table::new(4);
        t.use_buckets(false);
        t.store(key(1), entry(5));
        t.store(key(2), entry(5));
        assert!(t.probe(key(1)).is_none());
        assert!(t.probe(key(2)).is_some());
        t.store(
            key(2),
            Entry {
                bound: UPPER,
                ..entry(4)
            },
        );
        assert_eq!(
            t.probe(key(2)).map(|e| e.depth),
            Some(5),
            "a shallower bound keeps the deeper entry"
        );
    }

    #[test]
    fn generations_wrap_without_touching_the_bound() {
        let mut t = Table::new(2);
        for _ in 0..(GENERATIONS as usize * 2 + 3) {
            t.new_search();
        }
        t.store(
            key(1),
            Entry {
                bound: LOWER,
                ..entry(2)
            },
        );
        let e = t.probe(key(1)).unwrap();
        assert_eq!((e.bound(), e.generation()), (LOWER, 3));
    }
}
