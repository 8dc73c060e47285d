//! Prometheus metrics, kept in atomics and rendered as the text exposition format by hand.

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// Latency buckets in seconds, from sub-millisecond to a second.
const BUCKETS: [f64; 12] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

/// A latency histogram with fixed buckets.
#[derive(Debug, Default)]
pub struct Histogram {
    counts: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_ns: AtomicU64,
}

impl Histogram {
    /// Records one observation.
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|&b| secs <= b) {
            self.counts[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_ns
            .fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (b, c) in BUCKETS.iter().zip(&self.counts) {
            cumulative += c.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{b}\"}} {cumulative}");
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_ns.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// Every metric the server exports at `GET /metrics`.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Open WebSocket connections.
    pub connections: AtomicI64,
    /// Rooms with a running task.
    pub rooms: AtomicI64,
    /// Games started since start-up.
    pub games_started: AtomicU64,
    /// Games finished since start-up.
    pub games_finished: AtomicU64,
    /// Accepted game actions (stones, swap decisions, fifth proposals, claims).
    pub moves: AtomicU64,
    /// Client messages received.
    pub messages_in: AtomicU64,
    /// Error frames sent.
    pub errors_out: AtomicU64,
    /// Connections closed for abuse (1008) or slowness.
    pub kicked: AtomicU64,
    /// Time to handle one client request that goes to a room (store write included).
    pub action_seconds: Histogram,
    /// Time from handing an action to the batch writer until its commit.
    pub store_write_seconds: Histogram,
}

impl Metrics {
    /// The Prometheus text exposition of every metric.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(4096);
        let mut gauge = |name: &str, help: &str, v: i64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {v}");
        };
        gauge(
            "gomoku_connections",
            "Open WebSocket connections.",
            self.connections.load(Ordering::Relaxed),
        );
        gauge(
            "gomoku_rooms",
            "Live rooms.",
            self.rooms.load(Ordering::Relaxed),
        );
        let mut counter = |name: &str, help: &str, v: &AtomicU64| {
            let v = v.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}"
            );
        };
        counter(
            "gomoku_games_started_total",
            "Games started.",
            &self.games_started,
        );
        counter(
            "gomoku_games_finished_total",
            "Games finished.",
            &self.games_finished,
        );
        counter("gomoku_moves_total", "Accepted game actions.", &self.moves);
        counter(
            "gomoku_messages_in_total",
            "Client messages received.",
            &self.messages_in,
        );
        counter(
            "gomoku_errors_out_total",
            "Error frames sent.",
            &self.errors_out,
        );
        counter(
            "gomoku_connections_kicked_total",
            "Connections closed for abuse or slowness.",
            &self.kicked,
        );
        self.action_seconds.render(
            &mut out,
            "gomoku_action_seconds",
            "Time to handle a room request, store write included.",
        );
        self.store_write_seconds.render(
            &mut out,
            "gomoku_store_write_seconds",
            "Time until an action is committed.",
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let m = Metrics::default();
        m.action_seconds.observe(Duration::from_micros(50));
        m.action_seconds.observe(Duration::from_millis(3));
        m.action_seconds.observe(Duration::from_secs(5));
        let text = m.render();
        assert!(text.contains("gomoku_action_seconds_bucket{le=\"0.0001\"} 1"));
        assert!(text.contains("gomoku_action_seconds_bucket{le=\"0.005\"} 2"));
        assert!(text.contains("gomoku_action_seconds_bucket{le=\"1\"} 2"));
        assert!(text.contains("gomoku_action_seconds_bucket{le=\"+Inf\"} 3"));
        assert!(text.contains("gomoku_action_seconds_count 3"));
    }
}
