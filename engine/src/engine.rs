//! The engine: one call, [`Engine::think`], turns a [`Game`] and the time left into a [`Decision`] that the rules
//! accept, whatever the phase (a stone, the swap decision, the two fifth-move options or the choice between
//! them, a claim of black's forbidden move).

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rules::{points_equivalent, Action, Color, Game, Phase, Point, Rules, Status};

use crate::level::Level;
use crate::position::{cell, class, point, Position};
use crate::search::{Budget, SearchOptions, Searcher, Table, WIN_BOUND};
use crate::threat::Threats;
use crate::time::TimeBudget;

/// What the engine may spend: its level, and optional tighter caps (for tests, benches and matches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Playing level, 1–8 (see [`Level`]).
    pub level: u8,
    /// A node budget per move below the level's own.
    pub max_nodes: Option<u64>,
    /// A time cap per move in place of the level's own (a long one makes a node-limited search independent of
    /// the machine's speed, hence reproducible).
    pub max_time: Option<Duration>,
}

impl Limits {
    /// A level's own limits.
    pub fn level(level: u8) -> Limits {
        Limits {
            level,
            max_nodes: None,
            max_time: None,
        }
    }
}

/// The engine's answer: an action the rules accept now, and what the search saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The action to take.
    pub action: Action,
    /// Deepest completed main-search iteration (0 when no search was needed).
    pub depth: i32,
    /// Nodes visited (main and threat search).
    pub nodes: u64,
    /// The score for the side acting, in evaluation units; above [`WIN_BOUND`] a proved win.
    pub score: i32,
    /// The expected continuation, starting with this action's stone when it places one.
    pub pv: Vec<Point>,
}

/// Why the engine has nothing to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkError {
    /// The game has ended.
    GameOver,
}

impl fmt::Display for ThinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThinkError::GameOver => f.write_str("the game is over: there is nothing to play"),
        }
    }
}

impl std::error::Error for ThinkError {}

/// What the engine's tables may take, and what they do take, after [`Engine::limit_memory`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    /// Transposition-table entries (a power of two).
    pub table_entries: usize,
    /// Threat-search failures remembered at most.
    pub threat_entries: usize,
    /// The estimated peak use of the whole engine, [`BASE_MEMORY`] included, in bytes.
    pub bytes: u64,
}

/// Memory a brain process needs besides the two tables: code, stacks, the pattern table, positions and search
/// buffers. `pbrain-gomoku` at level 8 with the smallest tables is about 5 MiB resident after a 3-second search
/// (Linux x86-64); twice that leaves room for other platforms and allocators.
pub const BASE_MEMORY: u64 = 10 << 20;

/// The smallest transposition table the engine uses, as a power of two.
const MIN_TABLE_BITS: u32 = 12;

/// The fewest threat failures remembered.
const MIN_THREATS: usize = 1 << 12;

/// A small seeded generator (SplitMix64): the engine's only randomness, so a seed fixes every decision.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Uniform in `-k..=k`.
    fn noise(&mut self, k: i32) -> i32 {
        if k <= 0 {
            0
        } else {
            self.below(2 * k as u64 + 1) as i32 - k
        }
    }
}

/// What a search of one position found.
pub(crate) struct Analysis {
    pub(crate) best: Option<usize>,
    pub(crate) score: i32,
    pub(crate) depth: i32,
    pub(crate) pv: Vec<usize>,
}

/// A Gomoku/Renju player. Deterministic for a seed when its limits are nodes rather than time.
pub struct Engine {
    level: Level,
    limits: Limits,
    rng: Rng,
    table: Table,
    threats: Threats,
    rules: Option<Rules>,
    /// The table size of the level, before any memory limit.
    table_bits: u32,
    /// The table size to use, after [`Engine::limit_memory`]; the table is made at this size when the first
    /// search needs it, so that a limit given before then is never exceeded.
    bits: u32,
    /// The main search's techniques (all of them unless a measurement switches some off).
    options: SearchOptions,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("level", &self.level)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine of the given limits; `seed` fixes its random choices (noise, blunders, opening variety).
    pub fn new(limits: Limits, seed: u64) -> Engine {
        let level = Level::new(limits.level);
        let bits = if level.level >= 6 { 20 } else { 16 };
        Engine {
            level,
            limits,
            rng: Rng(seed ^ 0x5DEE_CE66_D1CE_F00D),
            table: Table::new(0),
            threats: Threats::new(),
            rules: None,
            table_bits: bits,
            bits,
            options: SearchOptions::DEFAULT,
        }
    }

    /// Switches the main search's techniques ([`SearchOptions::DEFAULT`] unless set): for matches that measure
    /// what each buys.
    pub fn set_search_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// The main search's techniques.
    pub fn search_options(&self) -> SearchOptions {
        self.options
    }

    /// The least memory, in bytes, the engine can play within (its smallest tables and [`BASE_MEMORY`]).
    pub const MIN_MEMORY: u64 = BASE_MEMORY
        + (1u64 << MIN_TABLE_BITS) * Table::ENTRY_BYTES
        + MIN_THREATS as u64 * crate::threat::ENTRY_BYTES;

    /// What the tables take now.
    pub fn memory(&self) -> Memory {
        Memory {
            table_entries: 1 << self.bits,
            threat_entries: self.threats.cap(),
            bytes: BASE_MEMORY
                + (1u64 << self.bits) * Table::ENTRY_BYTES
                + self.threats.cap() as u64 * crate::threat::ENTRY_BYTES,
        }
    }

    /// Sizes the tables to stay within `bytes` in all (`None`: the level's own sizes, no limit): the
    /// transposition table gets at most a quarter of what [`BASE_MEMORY`] leaves, the threat table the rest,
    /// neither more than the level's own. Below [`Engine::MIN_MEMORY`] nothing changes and the minimum is
    /// returned as the error. Resizing forgets what the tables held.
    pub fn limit_memory(&mut self, bytes: Option<u64>) -> Result<Memory, u64> {
        let (bits, threats) = match bytes {
            None => (self.table_bits, crate::threat::DEFAULT_CAP),
            Some(b) if b < Engine::MIN_MEMORY => return Err(Engine::MIN_MEMORY),
            Some(b) => {
                let spare = b - BASE_MEMORY;
                let mut bits = self.table_bits;
                while bits > MIN_TABLE_BITS && (1u64 << bits) * Table::ENTRY_BYTES > spare / 4 {
                    bits -= 1;
                }
                let left = spare - (1u64 << bits) * Table::ENTRY_BYTES;
                let threats = (left / crate::threat::ENTRY_BYTES)
                    .clamp(MIN_THREATS as u64, crate::threat::DEFAULT_CAP as u64);
                (bits, threats as usize)
            }
        };
        if self.bits != bits {
            self.bits = bits;
            // Made again at the new size by the next search.
            self.table = Table::new(0);
        }
        if self.threats.cap() != threats {
            self.threats = Threats::with_cap(threats);
        }
        Ok(self.memory())
    }

    /// The level's settings.
    pub fn settings(&self) -> &Level {
        &self.level
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.threats.clear();
    }

    /// Decides the next action of the side to act in `game`, within `time` (the room's clock) and the level's
    /// caps, stopping early when `cancel` is set. The action is always one the rules accept now.
    pub fn think(
        &mut self,
        game: &Game,
        time: &TimeBudget,
        cancel: &AtomicBool,
    ) -> Result<Decision, ThinkError> {
        // The clock runs from the call: whatever the engine does counts against the move's time.
        let start = Instant::now();
        let Status::Ongoing { to_act, phase } = game.status() else {
            return Err(ThinkError::GameOver);
        };
        self.use_rules(game.rules());
        // The threat table bounds itself (`Threats::with_cap`): it empties when full, within a search too.
        let (allot, nodes) = self.allowance(time);
        let mut budget = Budget::new(nodes, Some(start + allot), cancel);
        let decision = match phase {
            Phase::Place if to_act == Color::White && game.claimable().is_some() => Decision {
                action: Action::ClaimForbidden,
                depth: 0,
                nodes: 0,
                score: crate::search::WIN,
                pv: Vec::new(),
            },
            Phase::Place | Phase::PlaceOpening => {
                self.place(game, to_act, &mut budget, start, allot)
            }
            // Swap2's answer is a swap or a keep (then white plays move 4); the engine never places two more.
            Phase::SwapDecision | Phase::Swap2Decision => {
                self.decide_swap(game, to_act, &mut budget, start, allot)
            }
            Phase::ProposeFifth => self.offer_fifths(game, 2, &mut budget, start, allot),
            Phase::ChooseFifth { options } => {
                self.choose_offer(game, &options, &mut budget, start, allot)
            }
            Phase::DeclareOffers { max } => {
                self.declare_offers(game, max, &mut budget, start, allot)
            }
            // Taraguchi's black takes the second choice: offering the fifth moves.
            Phase::OfferFifths { count } | Phase::TaraguchiChoice { count } => {
                self.offer_fifths(game, usize::from(count), &mut budget, start, allot)
            }
            Phase::ChooseOffer { offers } => {
                self.choose_offer(game, offers.as_slice(), &mut budget, start, allot)
            }
        };
        if game.check(decision.action).is_ok() {
            Ok(decision)
        } else {
            Ok(Decision {
                action: fallback(game),
                depth: 0,
                nodes: budget.nodes,
                score: 0,
                pv: Vec::new(),
            })
        }
    }

    /// Starts afresh when the rules change: what the tables learnt belongs to the old ones.
    pub(crate) fn use_rules(&mut self, rules: &Rules) {
        if self.table.len() != 1 << self.bits {
            self.table = Table::new(self.bits);
        }
        if self.rules != Some(*rules) {
            self.clear();
            self.rules = Some(*rules);
        }
    }

    /// The time and nodes one decision may take under `time` and the limits.
    pub(crate) fn allowance(&self, time: &TimeBudget) -> (Duration, u64) {
        let cap = self.limits.max_time.unwrap_or(self.level.time_cap);
        let nodes = self
            .limits
            .max_nodes
            .map_or(self.level.nodes, |n| n.min(self.level.nodes));
        (time.allot(cap), nodes)
    }

    fn place(
        &mut self,
        game: &Game,
        c: Color,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Decision {
        let rules = *game.rules();
        let opening = rules.opening();
        let placing_opening = matches!(
            game.status(),
            Status::Ongoing {
                phase: Phase::PlaceOpening,
                ..
            }
        );
        if (opening.swaps_after_three() || placing_opening) && game.ply() < 2 {
            return self.opening_stone(game, c);
        }
        // A stone whose placer (or the other player) may then take either colour: the most balanced.
        let taraguchi_square =
            matches!(opening, rules::Opening::Taraguchi { .. }) && game.ply() < 4;
        if placing_opening || taraguchi_square {
            return self.balanced_stone(game, budget, start, allot);
        }
        let pos = Position::from_board(&rules, game.board());
        let analysis = self.analyse(pos, c, budget, start, allot, true);
        let best = analysis.best.map(point);
        Decision {
            action: Action::place(best.unwrap_or_else(|| match fallback(game) {
                Action::Place { point } => point,
                _ => Point::centre(rules.size()),
            })),
            depth: analysis.depth,
            nodes: budget.nodes,
            score: analysis.score,
            pv: analysis.pv.into_iter().map(point).collect(),
        }
    }

    /// The first two stones under swap-after-three: the centre, then a touching point (the better by the
    /// patterns, with a little seeded variety between the equally good).
    pub(crate) fn opening_stone(&mut self, game: &Game, c: Color) -> Decision {
        let pos = Position::from_board(game.rules(), game.board());
        let legal = game.legal_places();
        let mut best = (i32::MIN, Point::centre(game.rules().size()));
        for p in legal {
            let i = cell(p);
            let diagonal = game
                .moves()
                .first()
                .is_some_and(|f| f.x() != p.x() && f.y() != p.y());
            // Near the centre (an opening anywhere, as Swap1 and Swap2 allow, starts there too).
            let centre = Point::centre(game.rules().size());
            let off = i32::from(centre.x().abs_diff(p.x()).max(centre.y().abs_diff(p.y())));
            let score = pos.value(c, i) + pos.value(c.opposite(), i) + i32::from(diagonal) * 2
                - off * 4
                + self.rng.noise(2);
            if score > best.0 {
                best = (score, p);
            }
        }
        Decision {
            action: Action::place(best.1),
            depth: 0,
            nodes: 0,
            score: 0,
            pv: vec![best.1],
        }
    }

    /// A swap decision (after move 3, after Swap2's answer, after each Taraguchi stone, around Soosõrv's
    /// declaration): the decider, holding `held`, takes the other colour when its prospects, searched with the
    /// colour of the next stone to move, are the worse.
    fn decide_swap(
        &mut self,
        game: &Game,
        held: Color,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Decision {
        let pos = Position::from_board(game.rules(), game.board());
        let next = game.stone_colour();
        let analysis = self.analyse(pos, next, budget, start, allot, false);
        let for_held = if held == next {
            analysis.score
        } else {
            -analysis.score
        };
        let swap = for_held < 0;
        Decision {
            action: Action::DecideSwap { swap },
            depth: analysis.depth,
            nodes: budget.nodes,
            score: if swap { -for_held } else { for_held },
            pv: analysis.pv.into_iter().map(point).collect(),
        }
    }

    /// An opening stone after which either side may be taken (Swap1 and Swap2's three, Soosõrv's third,
    /// Taraguchi's first four): among the best-looking legal points near the stones, the one whose position,
    /// searched briefly with the next colour to move, is closest to even.
    pub(crate) fn balanced_stone(
        &mut self,
        game: &Game,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Decision {
        let colour = game.stone_colour();
        let pos = Position::from_board(game.rules(), game.board());
        let centre = Point::centre(game.rules().size());
        let near = |p: Point| {
            game.moves()
                .iter()
                .chain(std::iter::once(&centre).filter(|_| game.moves().is_empty()))
                .map(|m| m.x().abs_diff(p.x()).max(m.y().abs_diff(p.y())))
                .min()
                .unwrap_or(0)
        };
        let mut candidates: Vec<(u8, i32, Point)> = game
            .legal_places()
            .into_iter()
            .map(|p| {
                let i = cell(p);
                (
                    near(p),
                    -(pos.value(colour, i) + pos.value(colour.opposite(), i)),
                    p,
                )
            })
            .filter(|&(d, _, _)| d <= 2)
            .collect();
        if candidates.is_empty() {
            return Decision {
                action: fallback(game),
                depth: 0,
                nodes: budget.nodes,
                score: 0,
                pv: Vec::new(),
            };
        }
        candidates.sort_unstable();
        let k = (3 + self.level.level as usize).min(candidates.len());
        let mut best = (i32::MAX, candidates[0].2);
        for (n, &(_, _, p)) in candidates.iter().take(k).enumerate() {
            let left = allot.saturating_sub(start.elapsed()) / (k - n) as u32;
            let share = budget.max_nodes.saturating_sub(budget.nodes) / (k - n) as u64;
            let mut after = pos.clone();
            after.place(cell(p), colour);
            let now = Instant::now();
            let mut sub = Budget::new(share.max(1), Some(now + left), budget.cancel);
            let a = self.analyse(after, colour.opposite(), &mut sub, now, left, false);
            budget.nodes += sub.nodes;
            let unbalance = a
                .score
                .saturating_abs()
                .saturating_add(self.rng.noise(self.level.noise));
            if unbalance < best.0 {
                best = (unbalance, p);
            }
        }
        Decision {
            action: Action::place(best.1),
            depth: 0,
            nodes: budget.nodes,
            score: 0,
            pv: vec![best.1],
        }
    }

    /// Soosõrv's declaration by white after move 4: one offer when white stands at least even (more would only
    /// tempt the other player to swap), more the better black stands, up to `max`.
    fn declare_offers(
        &mut self,
        game: &Game,
        max: u8,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Decision {
        let pos = Position::from_board(game.rules(), game.board());
        let analysis = self.analyse(pos, Color::Black, budget, start, allot, false);
        let black = analysis.score.clamp(0, 10_000);
        let count = (1 + black / 150).clamp(1, i32::from(max.max(1))) as u8;
        Decision {
            action: Action::DeclareOffers { count },
            depth: analysis.depth,
            nodes: budget.nodes,
            score: -analysis.score,
            pv: analysis.pv.into_iter().map(point).collect(),
        }
    }

    /// White's score after black's stone on `option`, searched with a share of the budget.
    fn score_fifth(
        &mut self,
        game: &Game,
        option: usize,
        budget: &mut Budget,
        share: u64,
        allot: Duration,
    ) -> i32 {
        let mut pos = Position::from_board(game.rules(), game.board());
        pos.place(option, Color::Black);
        let now = Instant::now();
        let mut sub = Budget::new(share, Some(now + allot), budget.cancel);
        let a = self.analyse(pos, Color::White, &mut sub, now, allot, false);
        budget.nodes += sub.nodes;
        a.score
    }

    /// Black's `count` fifth-move offers (two under the fifth move with two options; Soosõrv's declared number;
    /// Taraguchi's N): the non-symmetric points that leave white the least, judged by a short search of white's
    /// reply to each of the best candidates.
    fn offer_fifths(
        &mut self,
        game: &Game,
        count: usize,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Decision {
        let pos = Position::from_board(game.rules(), game.board());
        let mut candidates: Vec<(i32, usize)> = pos
            .candidates()
            .filter(|&i| pos.get(i).is_none() && !pos.forbidden(Color::Black, i))
            .map(|i| {
                (
                    -(pos.value(Color::Black, i) * 2 + pos.value(Color::White, i)),
                    i,
                )
            })
            .collect();
        candidates.sort_unstable();
        let k = (count + self.level.level as usize).min(candidates.len());
        let mut scored = Vec::new();
        for (n, &(_, i)) in candidates.iter().take(k).enumerate() {
            let left = allot.saturating_sub(start.elapsed());
            let slice = left / (k - n) as u32;
            let share = budget.max_nodes.saturating_sub(budget.nodes) / (k - n) as u64;
            let s = self.score_fifth(game, i, budget, share.max(1), slice);
            scored.push((s + self.rng.noise(self.level.noise), i));
        }
        // Black wants white's score low; white will take the best of the offers for white.
        scored.sort_unstable();
        let board = game.board();
        let mut chosen: Vec<usize> = Vec::with_capacity(count);
        for b in scored
            .iter()
            .map(|s| s.1)
            .chain(candidates.iter().map(|c| c.1))
            .chain(pos.cells())
        {
            if chosen.len() == count {
                break;
            }
            if pos.get(b).is_none()
                && !pos.forbidden(Color::Black, b)
                && !chosen.contains(&b)
                && chosen
                    .iter()
                    .all(|&a| !points_equivalent(board, point(a), point(b)))
            {
                chosen.push(b);
            }
        }
        let points: Vec<Point> = chosen.iter().map(|&i| point(i)).collect();
        let proposing = matches!(
            game.status(),
            Status::Ongoing {
                phase: Phase::ProposeFifth,
                ..
            }
        );
        let action = match (proposing, points.as_slice()) {
            (true, &[a, b]) => Action::ProposeFifth { points: [a, b] },
            (false, _) if points.len() == count => match rules::Offers::new(&points) {
                Some(offers) => Action::OfferFifths { offers },
                None => fallback(game),
            },
            _ => fallback(game),
        };
        let worst_for_black = scored.iter().take(count).map(|s| s.0).max().unwrap_or(0);
        Decision {
            action,
            depth: 0,
            nodes: budget.nodes,
            score: -worst_for_black,
            pv: Vec::new(),
        }
    }

    /// White's choice among black's offered fifth moves: the one after which white stands best.
    fn choose_offer(
        &mut self,
        game: &Game,
        options: &[Point],
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Decision {
        let k = options.len().max(1);
        let mut best = (
            i32::MIN,
            options
                .first()
                .copied()
                .unwrap_or(Point::centre(game.rules().size())),
        );
        for (n, &p) in options.iter().enumerate() {
            let left = allot.saturating_sub(start.elapsed()) / (k - n) as u32;
            let share = budget.max_nodes.saturating_sub(budget.nodes) / (k - n) as u64;
            let s = self.score_fifth(game, cell(p), budget, share.max(1), left);
            if s > best.0 {
                best = (s, p);
            }
        }
        Decision {
            action: Action::ChooseFifth { point: best.1 },
            depth: 0,
            nodes: budget.nodes,
            score: best.0,
            pv: vec![best.1],
        }
    }

    /// The best move of `c` in `pos`: a five, a forced block, a VCF or VCT, a refutation of the opponent's VCF,
    /// then iterative deepening. `may_blunder` lets the low levels overlook threats.
    pub(crate) fn analyse(
        &mut self,
        mut pos: Position,
        c: Color,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
        may_blunder: bool,
    ) -> Analysis {
        let level = self.level;
        let o = c.opposite();
        let done = |best: usize, score: i32, pv: Vec<usize>| Analysis {
            best: Some(best),
            score,
            depth: 0,
            pv,
        };
        let blunder = may_blunder
            && level.blunder_per_mille > 0
            && self.rng.below(1000) < u64::from(level.blunder_per_mille);
        if let Some(&five) = pos.five_cells(c).first() {
            return done(five, crate::search::WIN, vec![five]);
        }
        let opp_fives: Vec<usize> = pos
            .five_cells(o)
            .into_iter()
            .filter(|&i| pos.playable(c, i))
            .collect();
        if !blunder {
            if let Some(&block) = opp_fives.first() {
                let score = if opp_fives.len() > 1 { -WIN_BOUND } else { 0 };
                return done(block, score, vec![block]);
            }
        }
        let opp_four = pos.count(o, class::FIVE) > 0;
        // Each threat search gets a slice of the move's time (and nodes), so that the main search keeps most.
        let slice = |part: u32| Instant::now() + allot / part;
        if level.vcf_depth > 0 && !opp_four {
            let saved = budget.narrow(2, slice(4));
            let line = self.threats.vcf(&mut pos, c, level.vcf_depth, budget);
            budget.widen(saved);
            if let Some(line) = line {
                let first = line[0];
                return done(first, WIN_BOUND + 1, line);
            }
        }
        if level.vct_depth > 0 && !opp_four && !budget.stopped {
            let saved = budget.narrow(4, slice(6));
            let found = self.threats.vct(
                &mut pos,
                c,
                level.vct_depth,
                level.vcf_depth.min(12),
                budget,
            );
            budget.widen(saved);
            if let Some(first) = found {
                return done(first, WIN_BOUND + 1, vec![first]);
            }
        }
        if start.elapsed() >= allot || budget.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            budget.stopped = true;
        }
        let vcf_depth = level.vcf_depth;
        let threats = &mut self.threats;
        let options = self.options;
        self.table.new_search();
        let mut searcher = Searcher::with_options(pos, &mut self.table, budget, options);
        searcher.width = level.width;
        let (mut moves, verdict) = searcher.root_moves(c);
        if let Some(score) = verdict {
            let best = moves[0];
            return done(best, score, vec![best]);
        }
        if blunder {
            // Overlooking the threats: a move by shape alone, as a beginner plays, near the stones and blind to
            // what the opponent threatens (its values count only up to a three's).
            let pos = &searcher.pos;
            let rng = &mut self.rng;
            let pick = pos
                .candidates()
                .filter(|&i| pos.playable(c, i))
                .map(|i| {
                    (
                        pos.value(c, i) + pos.value(o, i).min(60) / 2 + rng.noise(level.noise),
                        i,
                    )
                })
                .max_by_key(|t| (t.0, std::cmp::Reverse(t.1)));
            if let Some((score, best)) = pick {
                return done(best, score, vec![best]);
            }
        } else if vcf_depth > 0 && !opp_four && !searcher.budget.stopped {
            // Defence: if the opponent threatens a VCF, keep only the moves after which it has none (or that
            // make a four of our own, which the search follows).
            let depth = vcf_depth.min(16);
            let saved = searcher.budget.narrow(4, Instant::now() + allot / 6);
            let threatened = threats
                .vcf(&mut searcher.pos, o, depth, searcher.budget)
                .is_some();
            if threatened {
                let kept = refutations(&mut searcher, &moves, c, true, |pos, budget| {
                    threats.vcf(pos, o, depth, budget).is_some()
                });
                if !kept.is_empty() {
                    moves = kept;
                }
            }
            searcher.budget.widen(saved);
            if !threatened && level.vct_depth > 0 && !searcher.budget.stopped {
                // The same for a VCT, on a slice of the budget: the opponent's threat sequences by threes.
                let saved = searcher.budget.narrow(8, Instant::now() + allot / 6);
                let vct_depth = level.vct_depth.min(3);
                let vcf = depth.min(10);
                if threats
                    .vct(&mut searcher.pos, o, vct_depth, vcf, searcher.budget)
                    .is_some()
                {
                    let first = &moves[..moves.len().min(16)];
                    let kept = refutations(&mut searcher, first, c, false, |pos, budget| {
                        threats.vct(pos, o, vct_depth, vcf, budget).is_some()
                    });
                    if !kept.is_empty() {
                        moves = kept;
                    }
                }
                searcher.budget.widen(saved);
            }
        }
        if moves.is_empty() {
            return Analysis {
                best: None,
                score: -crate::search::WIN,
                depth: 0,
                pv: Vec::new(),
            };
        }
        let mut best = moves[0];
        let mut best_score = 0;
        let mut depth_done = 0;
        let noisy = level.noise > 0;
        const INF: i32 = crate::search::WIN + 1;
        for depth in 1..=level.depth {
            let mut scored: Vec<(i32, usize)> = Vec::with_capacity(moves.len());
            let mut alpha = -INF;
            for (k, &m) in moves.iter().enumerate() {
                // With noise a move can still be picked if it is within twice the noise of the best, so the
                // null window sits that far below: what fails low there could never win the draw.
                let bar = (alpha - 2 * level.noise).max(-INF);
                let s = if k == 0 {
                    aspirated(
                        &mut searcher,
                        c,
                        m,
                        depth,
                        options.aspiration.then_some(best_score),
                    )
                } else {
                    let z = searcher.score_move(c, m, depth, bar, bar + 1);
                    if z > bar && !searcher.budget.stopped {
                        searcher.score_move(c, m, depth, bar, INF)
                    } else {
                        z
                    }
                };
                if searcher.budget.stopped {
                    break;
                }
                alpha = alpha.max(s);
                scored.push((s, m));
            }
            if scored.is_empty() {
                break;
            }
            // A partial iteration still searched the previous best first, so its best is safe to take.
            let pick = if noisy {
                let rng = &mut self.rng;
                scored
                    .iter()
                    .map(|&(s, m)| {
                        let n = if s.abs() > WIN_BOUND {
                            0
                        } else {
                            rng.noise(level.noise)
                        };
                        (s + n, s, m)
                    })
                    .max_by_key(|t| (t.0, std::cmp::Reverse(t.2)))
                    .map(|t| (t.1, t.2))
                    .expect("not empty")
            } else {
                scored
                    .iter()
                    .copied()
                    .max_by_key(|t| (t.0, std::cmp::Reverse(t.1)))
                    .expect("not empty")
            };
            best_score = pick.0;
            best = pick.1;
            depth_done = depth;
            // Order the next iteration: the pick first, then by this iteration's scores.
            let mut order: Vec<(i32, usize)> = scored.clone();
            order.sort_by_key(|t| std::cmp::Reverse(t.0));
            let searched: Vec<usize> = order.iter().map(|t| t.1).collect();
            let mut next = vec![best];
            next.extend(searched.iter().copied().filter(|&m| m != best));
            next.extend(moves.iter().copied().filter(|m| !searched.contains(m)));
            moves = next;
            if searcher.budget.stopped
                || best_score.abs() > WIN_BOUND
                || start.elapsed() >= allot / 2
            {
                break;
            }
        }
        let pv = searcher.principal_variation(c, best, 12);
        Analysis {
            best: Some(best),
            score: best_score,
            depth: depth_done,
            pv,
        }
    }
}

/// Half the first aspiration window around the last iteration's score (a three is worth 60).
const ASPIRATION: i32 = 50;

/// The score of the root move `m` searched `depth` plies with a full window, or, given the last iteration's
/// score `around`, first with a window of ±[`ASPIRATION`] around it that widens fourfold on each side the
/// score falls outside, until it falls inside or the window is full.
fn aspirated(searcher: &mut Searcher, c: Color, m: usize, depth: i32, around: Option<i32>) -> i32 {
    const INF: i32 = crate::search::WIN + 1;
    let Some(around) = around.filter(|s| s.abs() < WIN_BOUND && depth > 1) else {
        return searcher.score_move(c, m, depth, -INF, INF);
    };
    let (mut lo_margin, mut hi_margin) = (ASPIRATION, ASPIRATION);
    loop {
        let alpha = if lo_margin >= WIN_BOUND {
            -INF
        } else {
            around - lo_margin
        };
        let beta = if hi_margin >= WIN_BOUND {
            INF
        } else {
            around + hi_margin
        };
        let s = searcher.score_move(c, m, depth, alpha, beta);
        if searcher.budget.stopped {
            return s;
        }
        if s <= alpha && alpha > -INF {
            lo_margin = lo_margin.saturating_mul(4);
        } else if s >= beta && beta < INF {
            hi_margin = hi_margin.saturating_mul(4);
        } else {
            return s;
        }
    }
}

/// A legal action for whatever the phase asks, when the search could not give one.
fn fallback(game: &Game) -> Action {
    if game.claimable().is_some() && game.to_act() == Some(Color::White) {
        return Action::ClaimForbidden;
    }
    match game.status() {
        Status::Ongoing {
            phase: Phase::SwapDecision | Phase::Swap2Decision,
            ..
        } => Action::DecideSwap { swap: false },
        Status::Ongoing {
            phase: Phase::DeclareOffers { .. },
            ..
        } => Action::DeclareOffers { count: 1 },
        Status::Ongoing {
            phase: Phase::ChooseOffer { offers },
            ..
        } => Action::ChooseFifth {
            point: offers.as_slice()[0],
        },
        Status::Ongoing {
            phase: Phase::OfferFifths { count } | Phase::TaraguchiChoice { count },
            ..
        } => {
            // The first empty points, in board order, no two equivalent.
            let mut points: Vec<Point> = Vec::new();
            for p in game.board().points() {
                if points.len() == usize::from(count) {
                    break;
                }
                let ok = game.board().is_empty_at(p)
                    && points
                        .iter()
                        .all(|&q| !points_equivalent(game.board(), p, q));
                if ok {
                    let mut with = points.clone();
                    with.push(p);
                    let offers = rules::Offers::new(&with);
                    if offers.is_some_and(|o| {
                        usize::from(count) > with.len()
                            || game.check(Action::OfferFifths { offers: o }).is_ok()
                    }) {
                        points = with;
                    }
                }
            }
            rules::Offers::new(&points)
                .map(|offers| Action::OfferFifths { offers })
                .unwrap_or(Action::DecideSwap { swap: false })
        }
        Status::Ongoing {
            phase: Phase::ChooseFifth { options },
            ..
        } => Action::ChooseFifth { point: options[0] },
        Status::Ongoing {
            phase: Phase::ProposeFifth,
            ..
        } => {
            let empty: Vec<Point> = game
                .board()
                .points()
                .filter(|&p| game.board().is_empty_at(p))
                .collect();
            for (k, &a) in empty.iter().enumerate() {
                for &b in &empty[k + 1..] {
                    let action = Action::ProposeFifth { points: [a, b] };
                    if game.check(action).is_ok() {
                        return action;
                    }
                }
            }
            Action::DecideSwap { swap: false }
        }
        _ => {
            let centre = Point::centre(game.rules().size());
            let forbidden: Vec<Point> = if game.to_act() == Some(Color::Black) {
                game.forbidden_points().into_iter().map(|f| f.0).collect()
            } else {
                Vec::new()
            };
            let mut legal = game.legal_places();
            if legal.iter().any(|p| !forbidden.contains(p)) {
                legal.retain(|p| !forbidden.contains(p));
            }
            let near = |p: &Point| {
                game.moves()
                    .iter()
                    .map(|m| m.x().abs_diff(p.x()).max(m.y().abs_diff(p.y())))
                    .min()
                    .unwrap_or(centre.x().abs_diff(p.x()).max(centre.y().abs_diff(p.y())))
            };
            legal
                .iter()
                .copied()
                .min_by_key(|p| (near(p), *p))
                .map(Action::place)
                .unwrap_or(Action::place(centre))
        }
    }
}

/// The moves of `moves` after which `threatens` (the opponent's threat search, on the position with the move
/// played) finds nothing any more, in order; with `keep_fours`, a move that makes a four of `c`'s own is kept
/// without asking, since the search follows it. Stops, with what it kept so far, when the budget runs out (a move
/// whose check the budget cut short is not kept).
fn refutations(
    searcher: &mut Searcher,
    moves: &[usize],
    c: Color,
    keep_fours: bool,
    mut threatens: impl FnMut(&mut Position, &mut Budget) -> bool,
) -> Vec<usize> {
    let mut kept = Vec::new();
    for &m in moves {
        if searcher.budget.stopped {
            break;
        }
        if keep_fours && searcher.pos.class(c, m) >= class::B4 {
            kept.push(m);
            continue;
        }
        searcher.pos.place(m, c);
        let refutes = !threatens(&mut searcher.pos, searcher.budget);
        searcher.pos.remove(m);
        if refutes && !searcher.budget.stopped {
            kept.push(m);
        }
    }
    kept
}
