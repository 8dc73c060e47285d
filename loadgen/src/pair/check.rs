//! The checks of a pairing run and its report: every pairing seen from both sides (same room, opposite colours,
//! each naming the other), no one paired twice, no one paired after leaving, the queues empty at the end; and the
//! time to pair, overall and for the seeker who found a partner already waiting.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::time::Instant;

use serde::Serialize;

use super::player::{Outcome, Plan};
use super::{PairArgs, Watched};

/// Quantiles of a set of times, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Times {
    /// How many.
    pub samples: usize,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// The longest.
    pub max: f64,
}

impl Times {
    /// The quantiles of `ms` (nearest rank).
    pub fn of(mut ms: Vec<f64>) -> Times {
        if ms.is_empty() {
            return Times::default();
        }
        ms.sort_by(f64::total_cmp);
        let q = |p: f64| ms[((ms.len() as f64 * p).ceil() as usize).clamp(1, ms.len()) - 1];
        Times {
            samples: ms.len(),
            p50: q(0.50),
            p90: q(0.90),
            p99: q(0.99),
            max: ms[ms.len() - 1],
        }
    }
}

impl fmt::Display for Times {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p50 {:.1} / p90 {:.1} / p99 {:.1} / max {:.1} ms ({} samples)",
            self.p50, self.p90, self.p99, self.max, self.samples
        )
    }
}

/// What a pairing run did and whether its checks held.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PairReport {
    /// Players the run started.
    pub players: usize,
    /// Presets they were spread over.
    pub presets: Vec<String>,
    /// Ramp, seconds.
    pub ramp_secs: f64,
    /// Players whose seek was acknowledged.
    pub sought: usize,
    /// Players who meant to stay until paired.
    pub stayers: usize,
    /// Players who meant to leave with `cancel_quick`.
    pub cancellers: usize,
    /// Players who meant to leave by closing their connection.
    pub disconnecters: usize,
    /// Players who received `paired` (once or more) before any leaving.
    pub paired: usize,
    /// Pairings seen from both sides.
    pub pairs: usize,
    /// Stayers never paired (they cancelled at the end).
    pub unpaired: usize,
    /// Of those, more than one per preset: the odd one out of a preset has no partner, more than one should have
    /// been paired with each other.
    pub unpaired_beyond_odd: usize,
    /// Leavers who were paired before their time to leave came (or before the server saw them go).
    pub leavers_paired_first: usize,
    /// Leavers who left unpaired.
    pub leavers_left: usize,
    /// Players who received `paired` more than once.
    pub duplicates: usize,
    /// Pairings of a player after it left: a `paired` after its cancel was acknowledged, or an opponent's
    /// `paired` naming a player whose connection had closed without being paired.
    pub paired_after_leaving: usize,
    /// Pairings of a player whose close frame crossed the pairing: the server wrote the room to its socket after
    /// reading the close (the socket ended without the server's close frame), before its close reached the queue.
    /// A race of two simultaneous events, not a broken promise; counted apart.
    pub paired_while_closing: usize,
    /// Rooms whose two sides disagree (colours, names, or more than two players), or that only one side saw
    /// with an opponent that did not leave.
    pub mismatched: usize,
    /// Time from the seek's ack to `paired`, every paired player.
    pub pair_ms: Times,
    /// The same for the second of each pair to be acknowledged: its partner was already waiting.
    pub pair_ms_partner_waiting: Times,
    /// The same for the first of each pair: it waited for a partner to arrive.
    pub pair_ms_first: Times,
    /// Time from sending `seek_quick` to its ack.
    pub ack_ms: Times,
    /// Players waiting in the queues as the late lobby watcher saw them (`None`: it saw no counts).
    pub final_waiting: Option<u32>,
    /// The watcher's last counts.
    pub final_counts: Vec<protocol::QuickCount>,
    /// Errors by kind (connect failures, refusals, error frames).
    pub errors: BTreeMap<String, u64>,
    /// Seconds from the start until nothing more could pair.
    pub settled_secs: f64,
    /// The checks that failed, in words (empty: all held).
    pub failures: Vec<String>,
    /// What each failed pairing looked like (the first 20).
    pub details: Vec<String>,
}

impl PairReport {
    /// Whether every check held.
    pub fn clean(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Milliseconds from `a` to `b` (negative when `b` came first).
fn ms_between(a: Option<Instant>, b: Option<Instant>) -> Option<f64> {
    let (a, b) = (a?, b?);
    Some(if b >= a {
        (b - a).as_secs_f64() * 1000.0
    } else {
        -((a - b).as_secs_f64() * 1000.0)
    })
}

/// One seeker in a detail line.
fn who(o: &Outcome) -> String {
    format!("#{} {} ({:?}, {})", o.index, o.name, o.plan, o.preset)
}

/// Checks what the seekers saw.
pub fn check(
    args: &PairArgs,
    outcomes: &[Outcome],
    watched: Watched,
    settled_secs: f64,
) -> PairReport {
    let mut r = PairReport {
        players: args.players,
        presets: args.presets.clone(),
        ramp_secs: args.ramp_secs,
        final_waiting: watched.waiting,
        final_counts: watched.counts,
        settled_secs,
        ..PairReport::default()
    };
    for o in outcomes {
        for e in &o.errors {
            let kind = e.split(' ').next().unwrap_or(e);
            *r.errors.entry(kind.to_owned()).or_default() += 1;
        }
        match o.plan {
            Plan::Stay => r.stayers += 1,
            Plan::Cancel(_) => r.cancellers += 1,
            Plan::Disconnect(_) => r.disconnecters += 1,
        }
        if o.ack_ms.is_some() {
            r.sought += 1;
        }
        if o.paired.len() > 1 {
            r.duplicates += 1;
        }
        let before_leaving = o.paired.iter().any(|s| !s.after_leaving);
        if before_leaving {
            r.paired += 1;
        }
        for s in o.paired.iter().filter(|s| s.after_leaving) {
            r.paired_after_leaving += 1;
            r.details.push(format!(
                "{} was paired in {} {:?} ms after its cancel was acknowledged",
                who(o),
                s.room,
                ms_between(o.left_at, s.at)
            ));
        }
        if o.plan.leaves() {
            if before_leaving {
                r.leavers_paired_first += 1;
            }
            if o.left && !o.cancelled_at_end {
                r.leavers_left += 1;
            }
        } else if o.ack_ms.is_some() && o.paired.is_empty() {
            r.unpaired += 1;
        }
    }
    let mut unpaired_per_preset: HashMap<&str, usize> = HashMap::new();
    for o in outcomes {
        if !o.plan.leaves() && o.ack_ms.is_some() && o.paired.is_empty() {
            *unpaired_per_preset.entry(o.preset.as_str()).or_default() += 1;
        }
    }
    r.unpaired_beyond_odd = unpaired_per_preset
        .values()
        .map(|n| n.saturating_sub(1))
        .sum();

    // Every room a `paired` named, with who saw it.
    let mut rooms: HashMap<&str, Vec<(&Outcome, usize)>> = HashMap::new();
    for o in outcomes {
        for (k, s) in o.paired.iter().enumerate() {
            rooms.entry(s.room.as_str()).or_default().push((o, k));
        }
    }
    let by_id: HashMap<&str, &Outcome> = outcomes
        .iter()
        .filter(|o| !o.id.is_empty())
        .map(|o| (o.id.as_str(), o))
        .collect();
    let mut all = Vec::new();
    let mut partner_waiting = Vec::new();
    let mut first = Vec::new();
    for o in outcomes {
        if let Some(s) = o.paired.first() {
            all.push(s.after_ack_ms);
        }
    }
    for sides in rooms.values() {
        match sides.as_slice() {
            [(a, ka), (b, kb)] => {
                let (sa, sb) = (&a.paired[*ka], &b.paired[*kb]);
                let agree = a.index != b.index
                    && sa.colour == sb.colour.opposite()
                    && sa.opponent == b.name
                    && sb.opponent == a.name
                    && (sa.opponent_id.is_empty() || sa.opponent_id == b.id)
                    && (sb.opponent_id.is_empty() || sb.opponent_id == a.id);
                if !agree {
                    r.mismatched += 1;
                    r.details.push(format!(
                        "room {}: {} saw {:?} against {:?} ({}), {} saw {:?} against {:?} ({})",
                        sa.room,
                        who(a),
                        sa.colour,
                        sa.opponent,
                        sa.opponent_id,
                        who(b),
                        sb.colour,
                        sb.opponent,
                        sb.opponent_id
                    ));
                    continue;
                }
                r.pairs += 1;
                let (earlier, later) = if a.acked_at <= b.acked_at {
                    (sa, sb)
                } else {
                    (sb, sa)
                };
                first.push(earlier.after_ack_ms);
                partner_waiting.push(later.after_ack_ms);
            }
            [(a, k)] => {
                // The other side never said it was paired. A player whose connection closed unpaired and who
                // is named here was paired after it left; anyone else should have seen its `paired`.
                let s = &a.paired[*k];
                let other = by_id.get(s.opponent_id.as_str());
                match other {
                    // The server sends its close frame only once the connection is out of every queue (the
                    // queued seeker holds its writer open): a pairing of it after that broke the promise. A socket
                    // that ended without one was written to after the server read the close: the pairing and the
                    // close crossed.
                    Some(other) if other.left && other.drain_end == Some("close_frame") => {
                        r.paired_after_leaving += 1
                    }
                    Some(other) if other.left && other.drain_end.is_some() => {
                        r.paired_while_closing += 1;
                        continue;
                    }
                    _ => r.mismatched += 1,
                }
                let about = match other {
                    Some(o) => format!(
                        "{}, left {}, sent its leaving {:?} ms before this pairing, had left {:?} ms before it, \
                         socket ended by {:?}, saw {} paired",
                        who(o),
                        o.left,
                        ms_between(o.leaving_at, s.at),
                        ms_between(o.left_at, s.at),
                        o.drain_end,
                        o.paired.len()
                    ),
                    None => format!("no seeker of this run has id {:?}", s.opponent_id),
                };
                r.details.push(format!(
                    "room {} seen only by {}, {:.1} ms after its ack; the opponent {:?}: {about}",
                    s.room,
                    who(a),
                    s.after_ack_ms,
                    s.opponent
                ));
            }
            more => {
                r.mismatched += 1;
                let names: Vec<String> = more.iter().map(|(o, _)| who(o)).collect();
                r.details
                    .push(format!("a room seen by {}: {names:?}", more.len()));
            }
        }
    }
    r.details.truncate(20);
    r.pair_ms = Times::of(all);
    r.pair_ms_partner_waiting = Times::of(partner_waiting);
    r.pair_ms_first = Times::of(first);
    r.ack_ms = Times::of(outcomes.iter().filter_map(|o| o.ack_ms).collect());

    let f = &mut r.failures;
    if r.sought < r.players {
        f.push(format!(
            "{} of {} players never had their seek acknowledged",
            r.players - r.sought,
            r.players
        ));
    }
    if r.duplicates > 0 {
        f.push(format!(
            "{} players were paired more than once",
            r.duplicates
        ));
    }
    if r.paired_after_leaving > 0 {
        f.push(format!(
            "{} pairings of players who had left",
            r.paired_after_leaving
        ));
    }
    if r.mismatched > 0 {
        f.push(format!(
            "{} rooms whose two sides disagree or were seen from one side",
            r.mismatched
        ));
    }
    if r.unpaired_beyond_odd > 0 {
        f.push(format!(
            "{} stayers left unpaired beside another waiting in their preset",
            r.unpaired_beyond_odd
        ));
    }
    match r.final_waiting {
        Some(0) => {}
        Some(n) => f.push(format!("the lobby watcher saw {n} players still waiting")),
        None => f.push("the lobby watcher saw no quick_counts".into()),
    }
    let errors: u64 = r.errors.values().sum();
    if errors > 0 {
        f.push(format!("{errors} errors"));
    }
    r
}

impl fmt::Display for PairReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "quick pairing: {} players over {:.0} s, {} presets; settled after {:.1} s",
            self.players,
            self.ramp_secs,
            self.presets.len(),
            self.settled_secs
        )?;
        writeln!(
            f,
            "  sought {}  stayers {}  cancellers {}  disconnecters {}",
            self.sought, self.stayers, self.cancellers, self.disconnecters
        )?;
        writeln!(
            f,
            "  paired {} ({} pairs)  unpaired stayers {} (beyond the odd one out: {})",
            self.paired, self.pairs, self.unpaired, self.unpaired_beyond_odd
        )?;
        writeln!(
            f,
            "  leavers left unpaired {}  paired before leaving {}",
            self.leavers_left, self.leavers_paired_first
        )?;
        writeln!(
            f,
            "  duplicates {}  paired after leaving {}  paired while closing {}  mismatched rooms {}",
            self.duplicates, self.paired_after_leaving, self.paired_while_closing, self.mismatched
        )?;
        writeln!(f, "  ack -> paired, all:            {}", self.pair_ms)?;
        writeln!(
            f,
            "  ack -> paired, partner waiting: {}",
            self.pair_ms_partner_waiting
        )?;
        writeln!(f, "  ack -> paired, first to wait:  {}", self.pair_ms_first)?;
        writeln!(f, "  seek -> ack:                   {}", self.ack_ms)?;
        match self.final_waiting {
            Some(n) => writeln!(f, "  waiting at the end (lobby watcher): {n}")?,
            None => writeln!(f, "  waiting at the end: no counts seen")?,
        }
        for (kind, n) in &self.errors {
            writeln!(f, "  error {kind:<24} {n}")?;
        }
        if self.failures.is_empty() {
            writeln!(f, "  all checks held")?;
        } else {
            for failure in &self.failures {
                writeln!(f, "  FAILED: {failure}")?;
            }
            for detail in &self.details {
                writeln!(f, "    {detail}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_take_the_nearest_rank() {
        let t = Times::of((1..=100).map(f64::from).collect());
        assert_eq!(
            (t.samples, t.p50, t.p90, t.p99, t.max),
            (100, 50.0, 90.0, 99.0, 100.0)
        );
        assert_eq!(Times::of(vec![]), Times::default());
        assert_eq!(Times::of(vec![7.0]).p99, 7.0);
    }
}
