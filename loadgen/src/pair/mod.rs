//! `loadgen pair`: quick pairing under load (issue #18). Guests connect over a ramp, each seeks one of the given
//! presets, and a fraction of them cancel or disconnect before they are paired. Every seeker records the time
//! from its seek's ack to its `paired`; afterwards the run checks that no one was paired twice, that both sides of
//! every pairing name the same room, opposite colours and each other, that no one who left was paired, and that a
//! late lobby watcher sees no one waiting.
//!
//! One process holds every connection (a few thousand; the open-file limit is 20,000): checking both sides of
//! a pairing needs what both saw.

pub mod check;
pub mod player;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMessage, QuickCount, ServerMessage};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;

use crate::conn::{self, Target};
use check::PairReport;
use player::{Plan, Seeker};

/// The presets seekers are spread over by default: every preset of the server's, every game's (each game's own
/// list, `games::Listed::quick_presets`, in the list's order, as the server serves them), comma-separated.
pub static DEFAULT_PRESETS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    games::GameKind::ALL
        .into_iter()
        .flat_map(games::GameKind::quick_presets)
        .map(|p| p.id)
        .collect::<Vec<_>>()
        .join(",")
});

/// The most players one run holds (one process; the open-file limit is 20,000).
pub const MAX_PLAYERS: usize = 19_000;

/// Flags of `loadgen pair`.
#[derive(Clone, Debug, clap::Args, Serialize)]
pub struct PairArgs {
    /// The server's WebSocket URL (loopback only).
    #[arg(long, default_value = "ws://127.0.0.1:8080/ws")]
    pub url: String,
    /// Guests that connect and seek.
    #[arg(long, default_value_t = 1000)]
    pub players: usize,
    /// Seconds over which they connect and seek (evenly spread).
    #[arg(long, default_value_t = 10.0)]
    pub ramp_secs: f64,
    /// The presets to seek, comma-separated; player `i` seeks the `i mod n`-th.
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_PRESETS.as_str())]
    pub presets: Vec<String>,
    /// The fraction of players that leave the queue before being paired: half of them with `cancel_quick`,
    /// half by closing the connection.
    #[arg(long, default_value_t = 0.05)]
    pub leave_fraction: f64,
    /// A leaver leaves a random time up to this many milliseconds after its seek's ack (unless paired first).
    #[arg(long, default_value_t = 300)]
    pub leave_within_ms: u64,
    /// Seconds after the ramp to wait for the last pairings before the stragglers cancel.
    #[arg(long, default_value_t = 10.0)]
    pub settle_secs: f64,
    /// Loopback source addresses to spread connections over; 0 picks one per 400 players.
    #[arg(long, default_value_t = 0)]
    pub source_ips: usize,
    /// Seed of who leaves, how and when.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl PairArgs {
    /// Source addresses to spread over.
    pub fn spread(&self) -> usize {
        if self.source_ips > 0 {
            self.source_ips
        } else {
            self.players.div_ceil(400).clamp(1, 250)
        }
    }

    /// What player `i` does after its ack, drawn from the seed.
    pub fn plans(&self) -> Vec<Plan> {
        let mut rng = StdRng::seed_from_u64(self.seed);
        let mut leavers = 0u64;
        (0..self.players)
            .map(|_| {
                if rng.random_bool(self.leave_fraction.clamp(0.0, 1.0)) {
                    leavers += 1;
                    let after = rng.random_range(0..=self.leave_within_ms);
                    if leavers % 2 == 1 {
                        Plan::Cancel(after)
                    } else {
                        Plan::Disconnect(after)
                    }
                } else {
                    Plan::Stay
                }
            })
            .collect()
    }
}

/// Where the run stands; every seeker follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Seeking and pairing.
    Run,
    /// The stragglers cancel.
    Finish,
    /// Everyone closes.
    Close,
}

/// Where one seeker stands, for the coordinator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not yet acknowledged.
    Pending,
    /// In a queue.
    Waiting,
    /// Paired.
    Paired,
    /// Left the queue unpaired.
    Left,
    /// Failed (connect, hello or seek).
    Failed,
}

/// What the seekers share with the coordinator.
pub struct Shared {
    target: Target,
    spread: usize,
    phase: watch::Sender<Phase>,
    status: Mutex<Vec<Status>>,
    connected: AtomicU64,
    paired: AtomicU64,
    left: AtomicU64,
    errors: AtomicU64,
    quiet: bool,
}

impl Shared {
    fn set(&self, i: usize, s: Status) {
        self.status.lock().expect("status lock")[i] = s;
    }

    fn connected(&self) {
        self.connected.fetch_add(1, Ordering::Relaxed);
    }

    fn paired(&self) {
        self.paired.fetch_add(1, Ordering::Relaxed);
    }

    fn left(&self) {
        self.left.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an error, and prints the first few.
    fn note_error(&self, what: &str) {
        let n = self.errors.fetch_add(1, Ordering::Relaxed);
        if n < 3 && !self.quiet {
            eprintln!("loadgen: {what}");
        }
    }

    /// Counts of the statuses: (pending, waiting stayers per preset index, waiting leavers, all waiting).
    fn census(&self, plans: &[Plan], presets: usize) -> Census {
        let status = self.status.lock().expect("status lock");
        let mut c = Census {
            stayers_waiting: vec![0; presets],
            ..Census::default()
        };
        for (i, s) in status.iter().enumerate() {
            match s {
                Status::Pending => c.pending += 1,
                Status::Waiting => {
                    c.waiting += 1;
                    if plans[i].leaves() {
                        c.leavers_waiting += 1;
                    } else {
                        c.stayers_waiting[i % presets] += 1;
                    }
                }
                _ => {}
            }
        }
        c
    }
}

#[derive(Debug, Default)]
struct Census {
    pending: usize,
    waiting: usize,
    leavers_waiting: usize,
    stayers_waiting: Vec<usize>,
}

impl Census {
    /// Nothing more will pair: everyone has sought, no leaver is about to leave, and at most one stayer per preset
    /// waits (the odd one out).
    fn settled(&self) -> bool {
        self.pending == 0
            && self.leavers_waiting == 0
            && self.stayers_waiting.iter().all(|&n| n <= 1)
    }
}

/// What the late lobby watcher saw.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Watched {
    /// The last `quick_counts` it received.
    pub counts: Vec<QuickCount>,
    /// Players waiting in all presets together in them (`None`: no counts came).
    pub waiting: Option<u32>,
}

/// Subscribes to the lobby and reads `quick_counts` until no one waits, for up to 5 s (the counts change at most
/// once a second, so the first ones may be a second old).
async fn watch_lobby(target: &Target) -> anyhow::Result<Watched> {
    let mut ws = conn::connect(target, None).await?;
    let mut requests = client::Requests::new();
    for msg in [
        ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token: None,
        },
        ClientMessage::SubscribeLobby {},
    ] {
        let (_, text) = requests.encode(&msg);
        ws.send(Message::text(text)).await?;
    }
    let mut watched = Watched::default();
    let deadline = Instant::now() + Duration::from_secs(5);
    while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(deadline.into(), ws.next()).await {
        let Message::Text(text) = msg else { continue };
        let Ok(frame) = conn::parse(text.as_str()) else {
            continue;
        };
        match frame.msg {
            ServerMessage::QuickCounts { presets } => {
                let waiting = presets.iter().map(|c| c.waiting).sum::<u32>();
                watched = Watched {
                    counts: presets,
                    waiting: Some(waiting),
                };
                if waiting == 0 {
                    break;
                }
            }
            ServerMessage::Error { code, message, .. } => {
                anyhow::bail!("the lobby watcher was refused: {code}: {message}")
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    Ok(watched)
}

/// Runs the pairing load and checks it. Progress goes to stderr each second unless `quiet`.
pub async fn pair(args: &PairArgs, quiet: bool) -> anyhow::Result<PairReport> {
    let target = Target::parse(&args.url)?;
    anyhow::ensure!(
        (1..=MAX_PLAYERS).contains(&args.players),
        "--players must be 1 to {MAX_PLAYERS} (one process holds them all)"
    );
    anyhow::ensure!(!args.presets.is_empty(), "--presets names no preset");
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.leave_fraction),
        "--leave-fraction must be in [0, 1]"
    );
    anyhow::ensure!(
        args.ramp_secs >= 0.0 && args.settle_secs >= 0.0,
        "--ramp-secs and --settle-secs must not be negative"
    );
    let plans = args.plans();
    let (phase, _) = watch::channel(Phase::Run);
    let shared = Arc::new(Shared {
        target: target.clone(),
        spread: args.spread(),
        phase,
        status: Mutex::new(vec![Status::Pending; args.players]),
        connected: AtomicU64::new(0),
        paired: AtomicU64::new(0),
        left: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        quiet,
    });
    let started = Instant::now();
    let start = started + Duration::from_millis(100);
    let ramp = Duration::from_secs_f64(args.ramp_secs);
    let mut tasks = JoinSet::new();
    for (i, &plan) in plans.iter().enumerate() {
        let seeker = Seeker {
            index: i,
            preset: args.presets[i % args.presets.len()].clone(),
            plan,
            at: start + ramp.mul_f64(i as f64 / args.players as f64),
        };
        tasks.spawn(seeker.run(shared.clone()));
    }

    // Seeking until everything that can pair has paired, or the settle time after the ramp is over.
    let give_up = start + ramp + Duration::from_secs_f64(args.settle_secs);
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let mut last_line = Instant::now();
    loop {
        tick.tick().await;
        let census = shared.census(&plans, args.presets.len());
        if !quiet && last_line.elapsed() >= Duration::from_secs(1) {
            last_line = Instant::now();
            eprintln!(
                "[{:>5.0}s] connected {}/{} paired {} left {} waiting {} errors {}",
                started.elapsed().as_secs_f64(),
                shared.connected.load(Ordering::Relaxed),
                args.players,
                shared.paired.load(Ordering::Relaxed),
                shared.left.load(Ordering::Relaxed),
                census.waiting,
                shared.errors.load(Ordering::Relaxed),
            );
        }
        if census.settled() || Instant::now() >= give_up {
            break;
        }
    }
    let settled_secs = started.elapsed().as_secs_f64();

    // The stragglers cancel; then the late watcher looks at the queues.
    shared.phase.send_replace(Phase::Finish);
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline && shared.census(&plans, args.presets.len()).waiting > 0 {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let watched = match watch_lobby(&target).await {
        Ok(w) => w,
        Err(e) => {
            shared.note_error(&format!("lobby watcher: {e:#}"));
            Watched::default()
        }
    };
    shared.phase.send_replace(Phase::Close);
    let mut outcomes = Vec::with_capacity(args.players);
    while let Some(joined) = tasks.join_next().await {
        outcomes.push(joined?);
    }
    outcomes.sort_by_key(|o| o.index);
    Ok(check::check(args, &outcomes, watched, settled_secs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: PairArgs,
    }

    #[test]
    fn leavers_alternate_between_cancelling_and_disconnecting_within_the_window() {
        let cli = Cli::parse_from(["x", "--players", "2000", "--leave-fraction", "0.1"]);
        let plans = cli.args.plans();
        let cancel = plans
            .iter()
            .filter(|p| matches!(p, Plan::Cancel(ms) if *ms <= 300))
            .count();
        let disconnect = plans
            .iter()
            .filter(|p| matches!(p, Plan::Disconnect(ms) if *ms <= 300))
            .count();
        assert!(
            (150..=250).contains(&(cancel + disconnect)),
            "{cancel} {disconnect}"
        );
        assert!(cancel.abs_diff(disconnect) <= 1);
        assert_eq!(plans, cli.args.plans(), "the seed decides");
    }

    #[test]
    fn players_are_spread_over_every_preset_and_one_address_per_400() {
        let cli = Cli::parse_from(["x", "--players", "5000"]);
        // Every game's presets: Gomoku's 7, Othello's 3, draughts' 2, insect chess's 2.
        assert_eq!(cli.args.presets.len(), 14);
        assert_eq!(cli.args.spread(), 13);
        let cli = Cli::parse_from(["x", "--presets", "renju-5+3,freestyle-3+2"]);
        assert_eq!(cli.args.presets, ["renju-5+3", "freestyle-3+2"]);
    }
}
