//! Arena events (lichess's model): players are paired again as soon as they are free; a win is 2 points, a
//! draw 1, a loss 0, and a player on a streak (the previous two results were wins: lichess's "fire") scores
//! double.

use crate::score::Outcome;

/// A player waiting to be paired.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The player's id (any numbering the caller uses).
    pub id: u64,
    /// Arena score so far.
    pub score: u32,
    /// Rating, the second sort key.
    pub rating: i32,
    /// The opponent of the player's last game, avoided when possible.
    pub last_opponent: Option<u64>,
}

/// Pairs the waiting players: sorted by score, then rating (highest first), each takes the nearest player below
/// who was not its last opponent (in either direction); only when none is left does it take its last opponent.
/// Greedy, so in rare orders the last two left may be a rematch another order would have avoided. The pairs are
/// `(a, b)` with `a` the higher-ranked; an odd player out stays waiting (returned second).
pub fn pair(waiting: &[Waiting]) -> (Vec<(u64, u64)>, Option<u64>) {
    let mut order: Vec<Waiting> = waiting.to_vec();
    order.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.rating.cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    let mut taken = vec![false; order.len()];
    let mut pairs = Vec::with_capacity(order.len() / 2);
    for i in 0..order.len() {
        if taken[i] {
            continue;
        }
        let free: Vec<usize> = (i + 1..order.len()).filter(|&j| !taken[j]).collect();
        let rematch = |j: usize| {
            order[i].last_opponent == Some(order[j].id)
                || order[j].last_opponent == Some(order[i].id)
        };
        let pick = free
            .iter()
            .copied()
            .find(|&j| !rematch(j))
            .or_else(|| free.first().copied());
        let Some(j) = pick else { break };
        taken[i] = true;
        taken[j] = true;
        pairs.push((order[i].id, order[j].id));
    }
    let left = (0..order.len()).find(|&i| !taken[i]).map(|i| order[i].id);
    (pairs, left)
}

/// A player's arena record: the results in order, from which the score follows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArenaRecord {
    results: Vec<Outcome>,
    score: u32,
}

impl ArenaRecord {
    /// An empty record.
    pub fn new() -> ArenaRecord {
        ArenaRecord::default()
    }

    /// Whether the player is on fire: the previous two results were wins.
    pub fn on_fire(&self) -> bool {
        self.results.len() >= 2
            && self.results[self.results.len() - 2..]
                .iter()
                .all(|o| *o == Outcome::Win)
    }

    /// Adds a result and returns the points it earned.
    pub fn add(&mut self, outcome: Outcome) -> u32 {
        let earned = points(outcome, self.on_fire());
        self.results.push(outcome);
        self.score += earned;
        earned
    }

    /// The total score.
    pub fn score(&self) -> u32 {
        self.score
    }

    /// The results in order.
    pub fn results(&self) -> &[Outcome] {
        &self.results
    }
}

/// Points of one result: 2 / 1 / 0, doubled on fire.
pub fn points(outcome: Outcome, on_fire: bool) -> u32 {
    let base = match outcome {
        Outcome::Win => 2,
        Outcome::Draw => 1,
        Outcome::Loss => 0,
    };
    if on_fire {
        base * 2
    } else {
        base
    }
}

/// The score of a whole sequence of results.
pub fn score(results: &[Outcome]) -> u32 {
    let mut r = ArenaRecord::new();
    for &o in results {
        r.add(o);
    }
    r.score()
}
