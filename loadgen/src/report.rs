//! The report of a run: a table for people, JSON for scripts.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::memory::Rss;
use crate::plan::RunArgs;
use crate::run::Mode;
use crate::stats::{Latency, Measured};
use crate::verify::Verification;

/// The server's memory over a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryReport {
    /// The process sampled.
    pub pid: u32,
    /// Resident before loadgen connected, KiB.
    pub base_kib: u64,
    /// Resident with the connections open, said hello and idle, KiB.
    pub idle_kib: u64,
    /// Connections open at that sample.
    pub idle_connections: u64,
    /// Resident with the rooms created and seated (spectators watching), before any move, KiB.
    pub rooms_kib: u64,
    /// Games started at that sample.
    pub live_rooms: u64,
    /// Resident when play stopped, KiB.
    pub end_kib: u64,
    /// Highest resident of the server process so far, KiB.
    pub peak_kib: u64,
    /// (idle − base) / idle connections, KiB.
    pub per_idle_connection_kib: f64,
    /// (rooms − idle) / live rooms, KiB: a room with its two seats and spectator subscriptions.
    pub per_live_room_kib: f64,
}

impl MemoryReport {
    /// Derives the per-connection and per-room figures from the samples.
    pub fn new(pid: u32, base: Rss, idle: (Rss, u64), rooms: (Rss, u64), end: Rss) -> MemoryReport {
        let per = |a: u64, b: u64, n: u64| {
            if n == 0 {
                0.0
            } else {
                (a as f64 - b as f64) / n as f64
            }
        };
        MemoryReport {
            pid,
            base_kib: base.rss_kib,
            idle_kib: idle.0.rss_kib,
            idle_connections: idle.1,
            rooms_kib: rooms.0.rss_kib,
            live_rooms: rooms.1,
            end_kib: end.rss_kib,
            peak_kib: end.hwm_kib,
            per_idle_connection_kib: per(idle.0.rss_kib, base.rss_kib, idle.1),
            per_live_room_kib: per(rooms.0.rss_kib, idle.0.rss_kib, rooms.1),
        }
    }
}

/// Everything a run measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// `game` or `echo`.
    pub mode: Mode,
    /// The target (several nodes' URLs joined by commas).
    pub url: String,
    /// Every node's URL (one for a single server).
    #[serde(default)]
    pub urls: Vec<String>,
    /// The fraction of games asked to have their two players on different nodes.
    #[serde(default)]
    pub cross_node: f64,
    /// Games (echo: pairs) asked for.
    pub games: usize,
    /// Spectators per game asked for.
    pub spectators: usize,
    /// Think time, ms.
    pub think_ms: u64,
    /// Worker processes.
    pub workers: usize,
    /// Connections asked for.
    pub connections_target: usize,
    /// Connections open after the connect phase.
    pub connections_idle: u64,
    /// Most connections open at once.
    pub connections_peak: u64,
    /// Seconds of play.
    pub duration_secs: f64,
    /// Games started.
    pub games_started: u64,
    /// Games finished with a result.
    pub games_finished: u64,
    /// Moves acknowledged (echo: round trips).
    pub moves: u64,
    /// Moves per second of play.
    pub moves_per_sec: f64,
    /// Place → opponent receives the move (echo: send → echo received).
    pub opponent: Latency,
    /// The same, of the pairs whose players were connected to one node.
    #[serde(default)]
    pub opponent_same_node: Latency,
    /// The same, of the pairs whose players were connected to different nodes (the room's events cross NATS).
    #[serde(default)]
    pub opponent_cross_node: Latency,
    /// Place → a spectator receives the move.
    pub spectator: Latency,
    /// Errors by code (server codes, and loadgen's own: `connect_failed`, `connection_lost`, `closed_<code>`, …).
    pub errors: BTreeMap<String, u64>,
    /// The server's memory, when its process was known (the first node's, of several).
    pub memory: Option<MemoryReport>,
    /// With several nodes: each node's memory, in the order of the URLs (`None` where its process was not
    /// found).
    #[serde(default)]
    pub node_memory: Vec<Option<MemoryReport>>,
    /// The durability check, when asked for.
    pub verification: Option<Verification>,
    /// Contradictions between what different clients were told.
    pub conflicts: Vec<String>,
}

impl Report {
    /// Builds the report from the merged measurements.
    pub fn new(
        args: &RunArgs,
        mode: Mode,
        measured: Measured,
        connections_idle: u64,
        node_memory: Vec<Option<MemoryReport>>,
        verification: Option<Verification>,
        conflicts: Vec<String>,
    ) -> Report {
        let p = measured.progress;
        let memory = node_memory.first().cloned().flatten();
        let node_memory = if node_memory.len() > 1 {
            node_memory
        } else {
            Vec::new()
        };
        Report {
            mode,
            url: args.urls.join(","),
            urls: args.urls.clone(),
            cross_node: args.cross_fraction().unwrap_or(0.0),
            games: args.games,
            spectators: args.spectators,
            think_ms: args.think_ms,
            workers: args.workers.max(1),
            connections_target: args.connections(),
            connections_idle,
            connections_peak: p.peak,
            duration_secs: args.duration_secs,
            games_started: p.games_started,
            games_finished: p.games_finished,
            moves: p.moves,
            moves_per_sec: p.moves as f64 / args.duration_secs.max(0.001),
            opponent: measured.opponent.summary(),
            opponent_same_node: measured.opponent_same.summary(),
            opponent_cross_node: measured.opponent_cross.summary(),
            spectator: measured.spectator.summary(),
            errors: measured.errors,
            memory,
            node_memory,
            verification,
            conflicts,
        }
    }

    /// Whether the run met its own bar: no errors, no conflicts, and a passing durability check when one ran.
    pub fn clean(&self) -> bool {
        self.errors.is_empty()
            && self.conflicts.is_empty()
            && self.verification.as_ref().is_none_or(|v| v.ok())
    }
}

fn latency_row(f: &mut fmt::Formatter<'_>, name: &str, l: &Latency) -> fmt::Result {
    writeln!(
        f,
        "  {name:<22} p50 {:>8.2} ms  p95 {:>8.2} ms  p99 {:>8.2} ms  max {:>8.2} ms  ({} samples)",
        l.p50_ms, l.p95_ms, l.p99_ms, l.max_ms, l.samples
    )
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.mode {
            Mode::Game => "games",
            Mode::Echo => "pairs",
        };
        writeln!(f, "loadgen {:?} against {}", self.mode, self.url)?;
        if self.urls.len() > 1 {
            writeln!(
                f,
                "  {} nodes, {:.0} % of games with their players on two nodes",
                self.urls.len(),
                self.cross_node * 100.0
            )?;
        }
        writeln!(
            f,
            "  {} {what} x (2 + {} spectators), think {} ms, {} worker(s), {:.0} s of play",
            self.games, self.spectators, self.think_ms, self.workers, self.duration_secs
        )?;
        writeln!(
            f,
            "  connections            {} asked, {} open when idle, {} peak",
            self.connections_target, self.connections_idle, self.connections_peak
        )?;
        writeln!(
            f,
            "  games                  {} started, {} finished",
            self.games_started, self.games_finished
        )?;
        writeln!(
            f,
            "  moves                  {} ({:.1}/s)",
            self.moves, self.moves_per_sec
        )?;
        latency_row(f, "latency to opponent", &self.opponent)?;
        if self.urls.len() > 1 {
            latency_row(f, "  same node", &self.opponent_same_node)?;
            latency_row(f, "  cross node", &self.opponent_cross_node)?;
        }
        if self.spectator.samples > 0 {
            latency_row(f, "latency to spectators", &self.spectator)?;
        }
        if self.errors.is_empty() {
            writeln!(f, "  errors                 none")?;
        } else {
            let list: Vec<String> = self
                .errors
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            writeln!(f, "  errors                 {}", list.join(", "))?;
        }
        for (i, m) in self.node_memory.iter().enumerate() {
            let Some(m) = m else { continue };
            writeln!(
                f,
                "  node {} memory (pid {}) base {} MiB, idle {} MiB, rooms {} MiB, end {} MiB, peak {} MiB",
                i + 1,
                m.pid,
                m.base_kib / 1024,
                m.idle_kib / 1024,
                m.rooms_kib / 1024,
                m.end_kib / 1024,
                m.peak_kib / 1024
            )?;
        }
        if let (Some(m), true) = (&self.memory, self.node_memory.is_empty()) {
            writeln!(
                f,
                "  server memory (pid {}) base {} MiB, idle {} MiB, rooms {} MiB, end {} MiB, peak {} MiB",
                m.pid,
                m.base_kib / 1024,
                m.idle_kib / 1024,
                m.rooms_kib / 1024,
                m.end_kib / 1024,
                m.peak_kib / 1024
            )?;
            writeln!(
                f,
                "  per idle connection    {:.1} KiB ({} connections); per live room {:.1} KiB ({} rooms)",
                m.per_idle_connection_kib, m.idle_connections, m.per_live_room_kib, m.live_rooms
            )?;
        }
        if let Some(v) = &self.verification {
            writeln!(
                f,
                "  durability             {}: {} games, {} acknowledged stones; missing games {}, missing stones {}, \
                 changed stones {}, missing results {}, read errors {}",
                if v.ok() { "OK" } else { "FAILED" },
                v.games,
                v.stones,
                v.games_missing,
                v.stones_missing,
                v.stones_mismatched,
                v.results_missing,
                v.read_errors
            )?;
            for failure in &v.failures {
                writeln!(f, "    {failure}")?;
            }
        }
        for c in self.conflicts.iter().take(10) {
            writeln!(f, "  conflict: {c}")?;
        }
        Ok(())
    }
}
