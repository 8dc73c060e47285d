//! The FIDE (Dutch) Swiss pairing, C.04.3 (with the basic rules C.04.1 and general handling C.04.2).
//!
//! # Method
//!
//! Players are ordered by score, then pairing number (A.2), and split into score groups. Brackets are paired
//! from the top: a bracket is the players moved down from above (MDPs) and the score group's residents. For a
//! bracket we look for the pairing with the most pairs (C.5), and among those the best by the quality criteria,
//! compared in their order of priority as one tuple:
//!
//! 1. C.6: the scores of the downfloaters, highest first, as small as possible (MDPs stay paired before residents);
//! 2. C.8, C.9 (final round only): topscorers or their opponents getting a colour difference beyond ±2, or the same
//!    colour three times in a row;
//! 3. C.10, C.11: players not getting their colour preference, then not getting a strong (or absolute) one;
//! 4. C.12–C.15: players getting the same downfloat / upfloat as in the previous round, then as two rounds before.
//!
//! A candidate must satisfy the absolute criteria in every pair (C.1 no repeat pairing, C.3 non-topscorers with
//! the same absolute colour preference do not meet, and the organiser's forbidden pairs), and the completion
//! criterion C.4: the downfloaters together with every lower player must still be pairable with the same absolute
//! criteria, with one pairing-allocated bye to a player allowed one (C.2) when the count is odd. C.4 is checked
//! exactly by a maximum-matching oracle (Edmonds' blossom algorithm, in the private `matching` module), so a bracket never
//! chooses floaters that leave the round unpairable and no backtracking between brackets is needed.
//!
//! Candidates are visited depth first in an order close to the Dutch one (D.1 transpositions of S2, then D.2
//! exchanges): the highest unpaired player of S1 takes the first free player of S2, then later ones, then an S1
//! player from the bottom (an exchange), then floats. The first candidate of the best quality wins, so among
//! equal candidates the Dutch order decides. The search stops at a candidate with no quality fault at all, or
//! after [`LEAF_BUDGET`] complete candidates / [`NODE_BUDGET`] search steps, keeping the best found.
//!
//! # Approximations (documented in README.md)
//!
//! - C.7 (choose downfloaters so that the next bracket gets the most pairs and the smallest score differences)
//!   is not evaluated across brackets; only C.4 completion is.
//! - C.16–C.19 (score differences of repeated floaters) and the minimisation of score differences within a
//!   pairing (PSD, A.8) are not evaluated beyond C.6.
//! - The visiting order approximates D.1/D.2; on very large brackets the budgets may stop the search before the
//!   optimum (it still never breaks an absolute criterion or C.4).
//! - The pairing-allocated bye is chosen before the brackets, as the 2025 revision of C.04.3 does (and as the
//!   published bbpPairings cases for it show): the lowest score, then the fewest unplayed rounds, then the
//!   lowest rank, among the players allowed one (C.2) whose absence leaves the others completely pairable. The
//!   rest of the method follows the 2017 text (Baku 2016 / Goynuk 2017); the other changes of the 2025 revision
//!   are not implemented.

use crate::matching::{Graph, NONE};
use crate::score::Outcome;
use crate::swiss::{Board, Bye, Colour, GameKind, PlayerId, Round, RoundEntry, Swiss, SwissError};
use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;

/// Complete candidates evaluated per bracket and pair count before the best one found is taken.
pub const LEAF_BUDGET: usize = 4_000;
/// Search steps per bracket and pair count.
pub const NODE_BUDGET: usize = 200_000;

/// Why no pairing was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// Every round has been paired and played.
    Finished,
    /// A player named absent is unknown.
    Swiss(SwissError),
    /// No pairing of the players satisfies the absolute criteria (C.1–C.3 and the forbidden pairs).
    NoLegalPairing,
    /// A legal pairing exists but the bracket search ran out of its budget before finding one (see the module
    /// docs); the seeded random tests assert this never happens on their tournaments.
    SearchExhausted,
}

impl PairingError {
    /// A stable code string.
    pub fn code(&self) -> &'static str {
        match self {
            PairingError::Finished => "finished",
            PairingError::Swiss(e) => e.code(),
            PairingError::NoLegalPairing => "no_legal_pairing",
            PairingError::SearchExhausted => "search_exhausted",
        }
    }
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl std::error::Error for PairingError {}

/// Strength of a colour preference (A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    /// Colour difference 0: alternate from the last game.
    Mild,
    /// Colour difference ±1.
    Strong,
    /// Colour difference beyond ±1, or the same colour in the last two games.
    Absolute,
}

/// A float a player received in a round (A.4 b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Float {
    /// Paired against a lower score, or did not play.
    Down,
    /// Paired against a higher score.
    Up,
}

/// What the pairing needs to know of one player, derived from its history.
#[derive(Clone, Debug)]
pub struct PairingState {
    /// Pairing number.
    pub id: PlayerId,
    /// Score in half-points.
    pub score: u32,
    /// Colours of the played games, oldest first (forfeits and byes do not count: C.04.2 D).
    pub colours: Vec<Colour>,
    /// Games with white minus games with black.
    pub colour_difference: i32,
    /// The colour preference, if any (A.6).
    pub preference: Option<(Strength, Colour)>,
    /// Floats per completed round.
    pub floats: Vec<Option<Float>>,
    /// Opponents met over the board (forfeits excluded).
    pub opponents: HashSet<PlayerId>,
    /// Whether the pairing-allocated bye is still allowed (C.2).
    pub may_get_bye: bool,
    /// A topscorer (A.7): more than half the maximum score, when pairing the final round.
    pub topscorer: bool,
    /// Rounds without a game over the board: byes of every kind, absences, forfeits.
    pub unplayed: u32,
}

/// The pairing state of every player, as of the rounds recorded.
pub fn states(swiss: &Swiss) -> Vec<PairingState> {
    let rounds = swiss.rounds_played() as usize;
    let final_round = rounds as u32 + 1 == swiss.rounds;
    // Scores before each round, for the floats.
    let mut before = vec![vec![0u32; rounds + 1]; swiss.players.len()];
    for (i, p) in swiss.players.iter().enumerate() {
        for (r, e) in p.history.iter().enumerate() {
            before[i][r + 1] = before[i][r] + swiss.entry_halves(e);
        }
    }
    swiss
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut colours = Vec::new();
            let mut floats = Vec::new();
            let mut opponents = HashSet::new();
            let mut may_get_bye = true;
            let mut unplayed = 0;
            for (r, e) in p.history.iter().enumerate() {
                match *e {
                    RoundEntry::Game {
                        opponent,
                        colour,
                        outcome,
                        kind,
                    } => {
                        if kind == GameKind::Forfeit {
                            unplayed += 1;
                            if outcome == Outcome::Win {
                                may_get_bye = false;
                            }
                            floats.push(Some(Float::Down));
                            continue;
                        }
                        colours.push(colour);
                        opponents.insert(opponent);
                        let mine = before[i][r];
                        let theirs = before[opponent as usize - 1][r];
                        floats.push(match mine.cmp(&theirs) {
                            Ordering::Greater => Some(Float::Down),
                            Ordering::Less => Some(Float::Up),
                            Ordering::Equal => None,
                        });
                    }
                    RoundEntry::Bye(b) => {
                        unplayed += 1;
                        if b == Bye::PairingAllocated {
                            may_get_bye = false;
                        }
                        // A player who does not play receives a downfloat (A.4 b).
                        floats.push(Some(Float::Down));
                    }
                }
            }
            let colour_difference = colours
                .iter()
                .map(|c| if *c == Colour::White { 1 } else { -1 })
                .sum::<i32>();
            let preference = preference(&colours, colour_difference);
            let score = before[i][rounds.min(p.history.len())];
            PairingState {
                id: p.id,
                score,
                colours,
                colour_difference,
                preference,
                floats,
                opponents,
                may_get_bye,
                topscorer: final_round && score > rounds as u32,
                unplayed,
            }
        })
        .collect()
}

fn preference(colours: &[Colour], cd: i32) -> Option<(Strength, Colour)> {
    let last = *colours.last()?;
    let n = colours.len();
    if cd > 1 {
        return Some((Strength::Absolute, Colour::Black));
    }
    if cd < -1 {
        return Some((Strength::Absolute, Colour::White));
    }
    if n >= 2 && colours[n - 2] == last {
        return Some((Strength::Absolute, last.opposite()));
    }
    match cd {
        1 => Some((Strength::Strong, Colour::Black)),
        -1 => Some((Strength::Strong, Colour::White)),
        _ => Some((Strength::Mild, last.opposite())),
    }
}

/// Pairs the next round of `swiss` by the Dutch system; `absent` players (known not to play this round) and
/// withdrawn players are left out.
pub fn pair(swiss: &Swiss, absent: &[PlayerId]) -> Result<Round, PairingError> {
    swiss.validate().map_err(PairingError::Swiss)?;
    if swiss.rounds_played() >= swiss.rounds {
        return Err(PairingError::Finished);
    }
    for &a in absent {
        swiss.player(a).map_err(PairingError::Swiss)?;
    }
    let all = states(swiss);
    let mut pool: Vec<&PairingState> = all
        .iter()
        .filter(|s| !swiss.players[s.id as usize - 1].withdrawn && !absent.contains(&s.id))
        .collect();
    pool.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    let forbidden: HashSet<(PlayerId, PlayerId)> = swiss.forbidden.iter().copied().collect();
    let ctx = Context {
        forbidden,
        initial: swiss.initial_colour,
        last_round: swiss.rounds_played() + 1 == swiss.rounds,
    };
    // Bye candidates, in order: the lowest score, then the fewest unplayed rounds, then the lowest rank, among
    // the players allowed one (C.2).
    let graph = ctx.graph(&pool);
    let everyone = vec![true; pool.len()];
    let mut bye = None;
    if pool.len() % 2 == 1 {
        let mut candidates: Vec<usize> = (0..pool.len()).filter(|&i| pool[i].may_get_bye).collect();
        candidates.sort_by(|&a, &b| {
            let (x, y) = (pool[a], pool[b]);
            x.score
                .cmp(&y.score)
                .then(x.unplayed.cmp(&y.unplayed))
                .then(y.id.cmp(&x.id))
        });
        // The first whose absence leaves everyone else completely pairable (C.4).
        let chosen = candidates.into_iter().find(|&c| {
            let mut active = everyone.clone();
            active[c] = false;
            perfect(&graph.matching_within(&active), &active)
        });
        let Some(c) = chosen else {
            return Err(PairingError::NoLegalPairing);
        };
        bye = Some(pool.remove(c).id);
    } else if !perfect(&graph.matching_within(&everyone), &everyone) {
        return Err(PairingError::NoLegalPairing);
    }
    // The compatibility graph of the players to pair, built once for every bracket's completion checks.
    let graph = if bye.is_some() {
        ctx.graph(&pool)
    } else {
        graph
    };

    let mut pairs: Vec<(usize, usize)> = Vec::new(); // indices into `pool`
    let mut moved_down: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < pool.len() {
        let score = pool[start].score;
        let mut end = start;
        while end < pool.len() && pool[end].score == score {
            end += 1;
        }
        let mut bracket = moved_down.clone();
        bracket.extend(start..end);
        let lower: Vec<usize> = (end..pool.len()).collect();
        let chosen = ctx
            .pair_bracket(&pool, &graph, &bracket, moved_down.len(), &lower)
            .ok_or(PairingError::SearchExhausted)?;
        pairs.extend(chosen.pairs);
        moved_down = chosen.floaters;
        start = end;
    }
    if !moved_down.is_empty() {
        return Err(PairingError::SearchExhausted);
    }
    let mut boards: Vec<(Board, u32, u32, usize)> = pairs
        .iter()
        .map(|&(a, b)| {
            let (hi, lo) = if a < b { (a, b) } else { (b, a) };
            let white_hi = ctx.allocate(pool[hi], pool[lo]) == Colour::White;
            let (w, bl) = if white_hi { (hi, lo) } else { (lo, hi) };
            let board = Board {
                white: pool[w].id,
                black: pool[bl].id,
            };
            (board, pool[hi].score, pool[hi].score + pool[lo].score, hi)
        })
        .collect();
    // C.04.2 board order: the higher score of the pair, the sum of scores, the rank of the higher player.
    boards.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.3.cmp(&b.3)));
    Ok(Round {
        boards: boards.into_iter().map(|b| b.0).collect(),
        bye,
    })
}

struct Context {
    forbidden: HashSet<(PlayerId, PlayerId)>,
    initial: Colour,
    last_round: bool,
}

/// Whether a matching covers every active vertex.
fn perfect(mate: &[usize], active: &[bool]) -> bool {
    mate.iter().zip(active).all(|(&m, &a)| !a || m != NONE)
}

/// A bracket's chosen pairs and downfloaters (indices into the pool).
struct Chosen {
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
}

/// The quality of a bracket's candidate, compared lexicographically: smaller is better.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Quality {
    /// C.6: downfloater scores, highest first.
    floater_scores: Vec<u32>,
    /// C.8, C.9.
    topscorer_colours: (u32, u32),
    /// C.10, C.11.
    colour_faults: (u32, u32),
    /// C.12, C.13, C.14, C.15.
    float_repeats: (u32, u32, u32, u32),
}

impl Context {
    /// The absolute criteria between two players: C.1, C.3 and the forbidden pairs.
    fn compatible(&self, a: &PairingState, b: &PairingState) -> bool {
        if a.id == b.id || a.opponents.contains(&b.id) {
            return false;
        }
        if self.forbidden.contains(&(a.id.min(b.id), a.id.max(b.id))) {
            return false;
        }
        if let (Some((Strength::Absolute, ca)), Some((Strength::Absolute, cb))) =
            (a.preference, b.preference)
        {
            if ca == cb && !a.topscorer && !b.topscorer {
                return false;
            }
        }
        true
    }

    /// The graph of the pairs the absolute criteria allow, over pool indices.
    fn graph(&self, pool: &[&PairingState]) -> Graph {
        let n = pool.len();
        let mut g = Graph::new(n);
        for i in 0..n {
            for j in i + 1..n {
                if self.compatible(pool[i], pool[j]) {
                    g.add_edge(i, j);
                }
            }
        }
        g
    }

    /// E.1–E.5: the colour of `hi`, the higher-ranked player of a pair.
    fn allocate(&self, hi: &PairingState, lo: &PairingState) -> Colour {
        match (hi.preference, lo.preference) {
            (Some((_, a)), Some((_, b))) if a != b => return a,
            (Some((_, a)), None) => return a,
            (None, Some((_, b))) => return b.opposite(),
            (None, None) => return self.by_rank(hi),
            _ => {}
        }
        let (sa, a) = hi.preference.expect("both have preferences here");
        let (sb, _) = lo.preference.expect("both have preferences here");
        // E.2: the stronger preference; between absolute ones, the wider colour difference.
        if sa != sb {
            return if sa > sb { a } else { a.opposite() };
        }
        if sa == Strength::Absolute {
            let (da, db) = (hi.colour_difference.abs(), lo.colour_difference.abs());
            if da != db {
                return if da > db { a } else { a.opposite() };
            }
        }
        // E.3: alternate from the latest game in which they had different colours.
        let (ha, hb) = (&hi.colours, &lo.colours);
        for k in 1..=ha.len().min(hb.len()) {
            let (x, y) = (ha[ha.len() - k], hb[hb.len() - k]);
            if x != y {
                return x.opposite();
            }
        }
        // E.4: the higher-ranked player's preference.
        a
    }

    /// E.5: odd pairing numbers get the initial colour.
    fn by_rank(&self, hi: &PairingState) -> Colour {
        if hi.id % 2 == 1 {
            self.initial
        } else {
            self.initial.opposite()
        }
    }

    fn quality(
        &self,
        pool: &[&PairingState],
        pairs: &[(usize, usize)],
        floaters: &[usize],
    ) -> Quality {
        let mut q = Quality {
            floater_scores: floaters.iter().map(|&f| pool[f].score).collect(),
            topscorer_colours: (0, 0),
            colour_faults: (0, 0),
            float_repeats: (0, 0, 0, 0),
        };
        q.floater_scores.sort_unstable_by(|a, b| b.cmp(a));
        let prev = |s: &PairingState, back: usize| -> Option<Float> {
            s.floats.len().checked_sub(back).and_then(|i| s.floats[i])
        };
        for &f in floaters {
            let s = pool[f];
            if prev(s, 1) == Some(Float::Down) {
                q.float_repeats.0 += 1;
            }
            if prev(s, 2) == Some(Float::Down) {
                q.float_repeats.2 += 1;
            }
        }
        for &(a, b) in pairs {
            let (hi, lo) = if a < b {
                (pool[a], pool[b])
            } else {
                (pool[b], pool[a])
            };
            let c = self.allocate(hi, lo);
            for (s, col) in [(hi, c), (lo, c.opposite())] {
                if let Some((strength, want)) = s.preference {
                    if want != col {
                        q.colour_faults.0 += 1;
                        if strength >= Strength::Strong {
                            q.colour_faults.1 += 1;
                        }
                    }
                }
                if self.last_round && (hi.topscorer || lo.topscorer) {
                    let cd = s.colour_difference + if col == Colour::White { 1 } else { -1 };
                    if cd.abs() > 2 {
                        q.topscorer_colours.0 += 1;
                    }
                    let n = s.colours.len();
                    if n >= 2 && s.colours[n - 1] == col && s.colours[n - 2] == col {
                        q.topscorer_colours.1 += 1;
                    }
                }
            }
            if hi.score > lo.score {
                if prev(hi, 1) == Some(Float::Down) {
                    q.float_repeats.0 += 1;
                }
                if prev(lo, 1) == Some(Float::Up) {
                    q.float_repeats.1 += 1;
                }
                if prev(hi, 2) == Some(Float::Down) {
                    q.float_repeats.2 += 1;
                }
                if prev(lo, 2) == Some(Float::Up) {
                    q.float_repeats.3 += 1;
                }
            }
        }
        q
    }

    /// Pairs one bracket: `bracket` holds pool indices, the first `mdps` of them moved down from above.
    fn pair_bracket(
        &self,
        pool: &[&PairingState],
        graph: &Graph,
        bracket: &[usize],
        mdps: usize,
        lower: &[usize],
    ) -> Option<Chosen> {
        let n = bracket.len();
        // An upper bound on the pairs: a maximum matching inside the bracket.
        let mut inside = vec![false; pool.len()];
        for &b in bracket {
            inside[b] = true;
        }
        let max_pairs = graph
            .matching_within(&inside)
            .iter()
            .filter(|&&m| m != NONE)
            .count()
            / 2;
        // A maximum matching of the players below, which each candidate's floaters then extend (C.4).
        let mut below = vec![false; pool.len()];
        for &l in lower {
            below[l] = true;
        }
        let lower_mate = graph.matching_within(&below);
        for p in (0..=max_pairs).rev() {
            let mut search = Search {
                ctx: self,
                pool,
                bracket,
                mdps,
                lower,
                graph,
                below: &below,
                lower_mate: &lower_mate,
                target: p,
                used: vec![false; n],
                pairs: Vec::new(),
                floaters: Vec::new(),
                best: None,
                leaves: 0,
                nodes: 0,
                ideal: None,
            };
            let residents_score = bracket.get(mdps).map(|&i| pool[i].score);
            let floats = n - 2 * p;
            search.ideal = residents_score.map(|s| Quality {
                floater_scores: vec![s; floats],
                topscorer_colours: (0, 0),
                colour_faults: (0, 0),
                float_repeats: (0, 0, 0, 0),
            });
            search.run();
            if let Some((_, chosen)) = search.best {
                return Some(chosen);
            }
        }
        None
    }
}

struct Search<'a> {
    ctx: &'a Context,
    pool: &'a [&'a PairingState],
    bracket: &'a [usize],
    mdps: usize,
    lower: &'a [usize],
    graph: &'a Graph,
    below: &'a [bool],
    lower_mate: &'a [usize],
    target: usize,
    used: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
    best: Option<(Quality, Chosen)>,
    leaves: usize,
    nodes: usize,
    ideal: Option<Quality>,
}

impl Search<'_> {
    fn done(&self) -> bool {
        if self.leaves >= LEAF_BUDGET || self.nodes >= NODE_BUDGET {
            return self.best.is_some() || self.nodes >= NODE_BUDGET;
        }
        match (&self.best, &self.ideal) {
            (Some((q, _)), Some(ideal)) => q <= ideal,
            _ => false,
        }
    }

    fn run(&mut self) {
        self.step();
    }

    fn step(&mut self) {
        self.nodes += 1;
        if self.done() {
            return;
        }
        let n = self.bracket.len();
        let Some(x) = (0..n).find(|&i| !self.used[i]) else {
            self.leaf();
            return;
        };
        let floats_left = n - 2 * self.target - self.floaters.len();
        let pairs_left = self.target - self.pairs.len();
        // Not enough players left for the pairs still to make.
        let free = (0..n).filter(|&i| !self.used[i]).count();
        if free < 2 * pairs_left {
            return;
        }
        self.used[x] = true;
        if pairs_left > 0 {
            for y in self.partner_order(x, pairs_left) {
                let (a, b) = (self.bracket[x], self.bracket[y]);
                if !self.ctx.compatible(self.pool[a], self.pool[b]) {
                    continue;
                }
                self.used[y] = true;
                self.pairs.push((a, b));
                self.step();
                self.pairs.pop();
                self.used[y] = false;
                if self.done() {
                    break;
                }
            }
        }
        if floats_left > 0 && !self.done() {
            self.floaters.push(self.bracket[x]);
            self.step();
            self.floaters.pop();
        }
        self.used[x] = false;
    }

    /// The partners `x` tries, in (approximately) the Dutch order.
    fn partner_order(&self, x: usize, pairs_left: usize) -> Vec<usize> {
        let n = self.bracket.len();
        let free: Vec<usize> = (x + 1..n).filter(|&i| !self.used[i]).collect();
        if x < self.mdps {
            // An MDP (S1 of a heterogeneous bracket) meets the residents from the top, then other MDPs.
            let mut order: Vec<usize> = free.iter().copied().filter(|&i| i >= self.mdps).collect();
            order.extend(free.iter().copied().filter(|&i| i < self.mdps));
            return order;
        }
        // The (remainder) homogeneous bracket: x is S1's top; S1 is x and the next pairs_left − 1 players.
        let s1_rest = pairs_left.saturating_sub(1).min(free.len());
        let (s1, s2) = free.split_at(s1_rest);
        let mut order: Vec<usize> = s2.to_vec();
        order.extend(s1.iter().rev());
        order
    }

    fn leaf(&mut self) {
        if self.pairs.len() != self.target {
            return;
        }
        self.leaves += 1;
        // Quality first: the completion check (a matching) is only worth running for a new best.
        let q = self.ctx.quality(self.pool, &self.pairs, &self.floaters);
        if self.best.as_ref().is_some_and(|(b, _)| q >= *b) {
            return;
        }
        if self.lower.is_empty() {
            // The lowest bracket: the bye is already given, so nobody may be left over.
            if !self.floaters.is_empty() {
                return;
            }
        } else {
            // C.4: the floaters and everyone below still pair completely. The players below have a maximum
            // matching already; each floater extends it by one augmenting search.
            let mut active = self.below.to_vec();
            let mut mate = self.lower_mate.to_vec();
            for &f in &self.floaters {
                active[f] = true;
                self.graph.extend(f, &mut mate, &active);
            }
            if !perfect(&mate, &active) {
                return;
            }
        }
        self.best = Some((
            q,
            Chosen {
                pairs: self.pairs.clone(),
                floaters: self.floaters.clone(),
            },
        ));
    }
}
