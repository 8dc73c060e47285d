//! What a run measures: live counters for the progress line, latency histograms, errors by code, and the
//! serialisable report that worker processes send to their parent and that `--json` prints.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Latencies are recorded in microseconds, from 1 µs to 60 s with three significant digits.
fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("static histogram bounds are valid")
}

fn record(h: &Mutex<Histogram<u64>>, d: Duration) {
    let us = (d.as_micros() as u64).clamp(1, 60_000_000);
    h.lock()
        .expect("histogram lock")
        .record(us)
        .expect("clamped into the histogram's range");
}

/// Live measurements of one process, shared by all its connection tasks.
#[derive(Debug)]
pub struct Recorder {
    open: AtomicI64,
    peak: AtomicI64,
    opened: AtomicU64,
    games_started: AtomicU64,
    games_finished: AtomicU64,
    moves: AtomicU64,
    errors_total: AtomicU64,
    opponent: Mutex<Histogram<u64>>,
    /// The opponent samples of pairs whose players were on one node, and of pairs on two nodes.
    opponent_same: Mutex<Histogram<u64>>,
    opponent_cross: Mutex<Histogram<u64>>,
    spectator: Mutex<Histogram<u64>>,
    errors: Mutex<BTreeMap<String, u64>>,
}

impl Default for Recorder {
    fn default() -> Recorder {
        Recorder {
            open: AtomicI64::new(0),
            peak: AtomicI64::new(0),
            opened: AtomicU64::new(0),
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            moves: AtomicU64::new(0),
            errors_total: AtomicU64::new(0),
            opponent: Mutex::new(histogram()),
            opponent_same: Mutex::new(histogram()),
            opponent_cross: Mutex::new(histogram()),
            spectator: Mutex::new(histogram()),
            errors: Mutex::new(BTreeMap::new()),
        }
    }
}

/// Which latency a sample belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The opponent of the player who placed the stone (or, in echo mode, the sender itself).
    Opponent,
    /// A spectator of the room.
    Spectator,
}

impl Recorder {
    /// A connection finished its handshake.
    pub fn connected(&self) {
        self.opened.fetch_add(1, Ordering::Relaxed);
        let now = self.open.fetch_add(1, Ordering::Relaxed) + 1;
        self.peak.fetch_max(now, Ordering::Relaxed);
    }

    /// A connection that [`Recorder::connected`] counted is gone.
    pub fn disconnected(&self) {
        self.open.fetch_sub(1, Ordering::Relaxed);
    }

    /// A game started (counted once per game, by its black player).
    pub fn game_started(&self) {
        self.games_started.fetch_add(1, Ordering::Relaxed);
    }

    /// A game reached a result (counted once per game).
    pub fn game_finished(&self) {
        self.games_finished.fetch_add(1, Ordering::Relaxed);
    }

    /// A move (or echo round trip) was acknowledged to the client that made it.
    pub fn moved(&self) {
        self.moves.fetch_add(1, Ordering::Relaxed);
    }

    /// A latency sample.
    pub fn latency(&self, audience: Audience, d: Duration) {
        let h = match audience {
            Audience::Opponent => &self.opponent,
            Audience::Spectator => &self.spectator,
        };
        record(h, d);
    }

    /// A place → opponent sample, counted overall and as same-node or (`cross`) cross-node: whether the mover
    /// and the opponent were connected to different nodes of a cluster.
    pub fn opponent(&self, cross: bool, d: Duration) {
        record(&self.opponent, d);
        record(
            if cross {
                &self.opponent_cross
            } else {
                &self.opponent_same
            },
            d,
        );
    }

    /// An error: a server `error` frame's code, or a client-side failure such as `connect_failed`.
    pub fn error(&self, code: &str) {
        self.errors_total.fetch_add(1, Ordering::Relaxed);
        *self
            .errors
            .lock()
            .expect("errors lock")
            .entry(code.to_owned())
            .or_default() += 1;
    }

    /// The counters now, for the progress line.
    pub fn progress(&self) -> Progress {
        Progress {
            open: self.open.load(Ordering::Relaxed).max(0) as u64,
            peak: self.peak.load(Ordering::Relaxed).max(0) as u64,
            opened: self.opened.load(Ordering::Relaxed),
            games_started: self.games_started.load(Ordering::Relaxed),
            games_finished: self.games_finished.load(Ordering::Relaxed),
            moves: self.moves.load(Ordering::Relaxed),
            errors: self.errors_total.load(Ordering::Relaxed),
        }
    }

    /// Everything measured, in the form workers send and reports merge.
    pub fn snapshot(&self) -> Measured {
        Measured {
            progress: self.progress(),
            opponent: Hist::from(&*self.opponent.lock().expect("histogram lock")),
            opponent_same: Hist::from(&*self.opponent_same.lock().expect("histogram lock")),
            opponent_cross: Hist::from(&*self.opponent_cross.lock().expect("histogram lock")),
            spectator: Hist::from(&*self.spectator.lock().expect("histogram lock")),
            errors: self.errors.lock().expect("errors lock").clone(),
        }
    }
}

/// The counters shown once a second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Connections open now.
    pub open: u64,
    /// Most connections open at once.
    pub peak: u64,
    /// Connections opened in all (reconnects included).
    pub opened: u64,
    /// Games started.
    pub games_started: u64,
    /// Games finished with a result.
    pub games_finished: u64,
    /// Moves acknowledged.
    pub moves: u64,
    /// Errors of any kind.
    pub errors: u64,
}

impl Progress {
    /// Sums the progress of several workers.
    pub fn add(&mut self, other: &Progress) {
        self.open += other.open;
        self.peak += other.peak;
        self.opened += other.opened;
        self.games_started += other.games_started;
        self.games_finished += other.games_finished;
        self.moves += other.moves;
        self.errors += other.errors;
    }
}

/// A histogram as `(value, count)` pairs, so it crosses process boundaries as JSON and merges exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Hist(pub Vec<(u64, u64)>);

impl From<&Histogram<u64>> for Hist {
    fn from(h: &Histogram<u64>) -> Hist {
        Hist(
            h.iter_recorded()
                .map(|v| (v.value_iterated_to(), v.count_at_value()))
                .collect(),
        )
    }
}

impl Hist {
    /// The histogram back, for merging and percentiles.
    pub fn to_histogram(&self) -> Histogram<u64> {
        let mut h = histogram();
        for &(value, count) in &self.0 {
            h.record_n(value.clamp(1, 60_000_000), count)
                .expect("clamped into the histogram's range");
        }
        h
    }

    /// Adds another histogram's samples.
    pub fn merge(&mut self, other: &Hist) {
        let mut h = self.to_histogram();
        h.add(other.to_histogram())
            .expect("histograms with the same bounds add");
        *self = Hist::from(&h);
    }

    /// Percentiles in milliseconds.
    pub fn summary(&self) -> Latency {
        let h = self.to_histogram();
        let ms = |us: u64| us as f64 / 1000.0;
        Latency {
            samples: h.len(),
            p50_ms: ms(h.value_at_quantile(0.50)),
            p95_ms: ms(h.value_at_quantile(0.95)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            max_ms: ms(h.max()),
        }
    }
}

/// Latency percentiles of one audience.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Samples recorded.
    pub samples: u64,
    /// Median, ms.
    pub p50_ms: f64,
    /// 95th percentile, ms.
    pub p95_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Largest, ms.
    pub max_ms: f64,
}

/// Everything one process measured: what a worker sends its parent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// Counters.
    pub progress: Progress,
    /// Place → opponent receives the move (echo mode: send → echo received).
    pub opponent: Hist,
    /// The same, of the pairs whose two players were connected to one node.
    #[serde(default)]
    pub opponent_same: Hist,
    /// The same, of the pairs whose two players were connected to different nodes.
    #[serde(default)]
    pub opponent_cross: Hist,
    /// Place → a spectator receives the move.
    pub spectator: Hist,
    /// Errors by code.
    pub errors: BTreeMap<String, u64>,
}

impl Measured {
    /// Adds another process's measurements.
    pub fn merge(&mut self, other: &Measured) {
        self.progress.add(&other.progress);
        self.opponent.merge(&other.opponent);
        self.opponent_same.merge(&other.opponent_same);
        self.opponent_cross.merge(&other.opponent_cross);
        self.spectator.merge(&other.spectator);
        for (code, n) in &other.errors {
            *self.errors.entry(code.clone()).or_default() += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_histograms_keep_every_sample() {
        let a = Recorder::default();
        let b = Recorder::default();
        for ms in 1..=100 {
            a.latency(Audience::Opponent, Duration::from_millis(ms));
        }
        b.latency(Audience::Opponent, Duration::from_millis(500));
        b.error("stale_ply");
        a.error("stale_ply");
        let mut m = a.snapshot();
        m.merge(&b.snapshot());
        let s = m.opponent.summary();
        assert_eq!(s.samples, 101);
        assert!((s.max_ms - 500.0).abs() < 1.0, "{s:?}");
        assert!((s.p50_ms - 51.0).abs() < 1.0, "{s:?}");
        assert_eq!(m.errors["stale_ply"], 2);
        assert_eq!(m.progress.errors, 2);
    }

    #[test]
    fn opponent_samples_count_overall_and_by_placement() {
        let r = Recorder::default();
        r.opponent(false, Duration::from_millis(1));
        r.opponent(false, Duration::from_millis(2));
        r.opponent(true, Duration::from_millis(30));
        let m = r.snapshot();
        assert_eq!(m.opponent.summary().samples, 3);
        assert_eq!(m.opponent_same.summary().samples, 2);
        let cross = m.opponent_cross.summary();
        assert_eq!(cross.samples, 1);
        assert!((cross.max_ms - 30.0).abs() < 0.1, "{cross:?}");
        let mut merged = Measured::default();
        merged.merge(&m);
        merged.merge(&m);
        assert_eq!(merged.opponent_cross.summary().samples, 2);
    }

    #[test]
    fn a_histogram_survives_json() {
        let r = Recorder::default();
        r.latency(Audience::Spectator, Duration::from_micros(1234));
        let json = serde_json::to_string(&r.snapshot()).unwrap();
        let back: Measured = serde_json::from_str(&json).unwrap();
        assert_eq!(back.spectator.summary().samples, 1);
        assert_eq!(back, r.snapshot());
    }

    #[test]
    fn peak_connections_outlive_disconnects() {
        let r = Recorder::default();
        r.connected();
        r.connected();
        r.disconnected();
        let p = r.progress();
        assert_eq!((p.open, p.peak, p.opened), (1, 2, 2));
    }
}
