//! Runs a load: in this process or spread over worker processes of loadgen itself, with a progress line each
//! second, the server's memory sampled at the end of each phase, and one merged report.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;
use tokio::task::JoinSet;
use tokio::time::sleep_until;

use crate::ledger::Ledger;
use crate::memory;
use crate::plan::{instant_of, unix_ms, RunArgs};
use crate::report::{MemoryReport, Report};
use crate::session::{self, Ctx};
use crate::stats::{Measured, Progress, Recorder};
use crate::verify::{self, Source, Verification};

/// What a run drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Mode {
    /// The game server: games, spectators, moves.
    Game,
    /// The echo baseline: pairs taking turns.
    Echo,
}

/// The games of one process running.
pub struct Slice {
    /// The shared context (recorder, ledger, timeline).
    pub ctx: Arc<Ctx>,
    tasks: JoinSet<()>,
}

/// What one worker process reports at the end.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WorkerReport {
    /// Its measurements.
    pub measured: Measured,
    /// Its durability check, when asked for.
    pub verification: Option<Verification>,
    /// Contradictions between its clients' observations.
    pub conflicts: Vec<String>,
}

/// One line a worker writes on stdout.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Progress(Progress),
    Done(Box<WorkerReport>),
}

/// Starts the games `g` with `g % of == index`, on the timeline starting at `start`.
pub fn start_slice(
    args: &RunArgs,
    mode: Mode,
    start: Instant,
    index: usize,
    of: usize,
) -> anyhow::Result<Slice> {
    let ctx = Arc::new(Ctx {
        rules: args.rules()?,
        game: args.game()?,
        targets: args.targets()?,
        timeline: args.timeline(start),
        args: args.clone(),
        rec: Arc::new(Recorder::default()),
        ledger: Arc::new(Ledger::default()),
    });
    let mut tasks = JoinSet::new();
    for g in (index..args.games).step_by(of.max(1)) {
        match mode {
            Mode::Game => tasks.spawn(session::run_game(g, ctx.clone())),
            Mode::Echo => tasks.spawn(crate::echo::run_pair(g, ctx.clone())),
        };
    }
    Ok(Slice { ctx, tasks })
}

impl Slice {
    /// Waits for the games to close, then checks durability when asked.
    pub async fn finish(mut self) -> anyhow::Result<WorkerReport> {
        while self.tasks.join_next().await.is_some() {}
        let args = &self.ctx.args;
        let verification = if let Some(url) = &args.verify_db {
            let store = store::open(url)
                .await
                .with_context(|| format!("opening {url}"))?;
            Some(verify::verify(&self.ctx.ledger.games(), &Source::Db(store)).await)
        } else if args.verify {
            // Every node reads the one database: the first answers for all.
            let base = self.ctx.targets[0].http_base();
            Some(verify::verify(&self.ctx.ledger.games(), &Source::Http(base)).await)
        } else {
            None
        };
        Ok(WorkerReport {
            measured: self.ctx.rec.snapshot(),
            verification,
            conflicts: self.ctx.ledger.conflicts(),
        })
    }
}

/// The body of a worker process: runs its slice and writes JSON lines (progress each second, then the report).
pub async fn worker(
    args: RunArgs,
    mode: Mode,
    start_unix_ms: u64,
    index: usize,
    of: usize,
) -> anyhow::Result<()> {
    let slice = start_slice(&args, mode, instant_of(start_unix_ms), index, of)?;
    let rec = slice.ctx.rec.clone();
    let ticker = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tick.tick().await;
            println!(
                "{}",
                serde_json::to_string(&Line::Progress(rec.progress())).expect("serialises")
            );
        }
    });
    let report = slice.finish().await?;
    ticker.abort();
    println!(
        "{}",
        serde_json::to_string(&Line::Done(Box::new(report))).expect("serialises")
    );
    Ok(())
}

/// Where the coordinator gets the workers' state.
#[derive(Default)]
struct Board {
    progress: Vec<Progress>,
    done: Vec<Option<WorkerReport>>,
}

impl Board {
    fn total(&self) -> Progress {
        let mut p = Progress::default();
        for w in &self.progress {
            p.add(w);
        }
        p
    }
}

/// Runs a whole load and returns the merged report. `server_pid` (or the process found listening on the target
/// port; with several nodes, each node's) is sampled for memory. Progress goes to stderr unless `quiet`.
pub async fn run(
    args: &RunArgs,
    mode: Mode,
    server_pid: Option<u32>,
    quiet: bool,
) -> anyhow::Result<Report> {
    let targets = args.targets()?;
    args.cross_fraction()?;
    args.rules()?;
    // The first node may be named; the others are found from their ports.
    let pids: Vec<Option<u32>> = targets
        .iter()
        .enumerate()
        .map(|(i, t)| {
            server_pid
                .filter(|_| i == 0)
                .or_else(|| memory::find_listener(t.addr.port()))
        })
        .collect();
    let workers = args.workers.max(1);
    // Children need a moment to start; all processes then follow one wall-clock timeline.
    let start_unix = unix_ms() + if workers > 1 { 1500 } else { 200 };
    let start = instant_of(start_unix);
    let t = args.timeline(start);
    let board = Arc::new(Mutex::new(Board {
        progress: vec![Progress::default(); workers],
        done: vec![None; workers],
    }));

    let mut running = JoinSet::new();
    if workers == 1 {
        let slice = start_slice(args, mode, start, 0, 1)?;
        let rec = slice.ctx.rec.clone();
        let b = board.clone();
        let poll = tokio::spawn(async move {
            loop {
                b.lock().expect("board lock").progress[0] = rec.progress();
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
        let b = board.clone();
        running.spawn(async move {
            let report = slice.finish().await;
            poll.abort();
            let mut b = b.lock().expect("board lock");
            if let Ok(r) = &report {
                b.progress[0] = r.measured.progress;
            }
            b.done[0] = Some(report?);
            anyhow::Ok(())
        });
    } else {
        let exe = std::env::current_exe()?;
        let args_json = serde_json::to_string(args)?;
        for i in 0..workers {
            let mut child = Command::new(&exe)
                .arg("worker")
                .args(["--index", &i.to_string(), "--of", &workers.to_string()])
                .args(["--start-unix-ms", &start_unix.to_string()])
                .args(["--mode", if mode == Mode::Game { "game" } else { "echo" }])
                .args(["--args", &args_json])
                .stdout(Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .context("starting a worker")?;
            let stdout = child.stdout.take().expect("piped");
            let b = board.clone();
            running.spawn(async move {
                let mut lines = BufReader::new(stdout).lines();
                while let Some(line) = lines.next_line().await? {
                    match serde_json::from_str::<Line>(&line) {
                        Ok(Line::Progress(p)) => b.lock().expect("board lock").progress[i] = p,
                        Ok(Line::Done(r)) => {
                            let mut b = b.lock().expect("board lock");
                            b.progress[i] = r.measured.progress;
                            b.done[i] = Some(*r);
                        }
                        Err(e) => eprintln!("loadgen: worker {i} wrote {line:?}: {e}"),
                    }
                }
                let status = child.wait().await?;
                anyhow::ensure!(status.success(), "worker {i} failed: {status}");
                anyhow::Ok(())
            });
        }
    }

    // Memory samples at the end of each hold, before the next phase starts.
    let margin = Duration::from_millis(300);
    let sample = |at: Instant| {
        let board = board.clone();
        let pids = pids.clone();
        tokio::spawn(async move {
            sleep_until(at.into()).await;
            let progress = board.lock().expect("board lock").total();
            let rss: Vec<Option<memory::Rss>> =
                pids.iter().map(|p| p.and_then(memory::rss)).collect();
            (rss, progress)
        })
    };
    let base: Vec<Option<memory::Rss>> = pids.iter().map(|p| p.and_then(memory::rss)).collect();
    let idle = sample(t.connected - margin);
    let seated = sample(t.seated - margin);
    let ended = sample(t.end);

    let mut last = (Instant::now(), 0u64);
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.tick().await;
    loop {
        tokio::select! {
            joined = running.join_next() => match joined {
                None => break,
                Some(r) => r??,
            },
            _ = tick.tick() => {
                if quiet {
                    continue;
                }
                let p = board.lock().expect("board lock").total();
                let now = Instant::now();
                let rate = (p.moves - last.1.min(p.moves)) as f64 / (now - last.0).as_secs_f64();
                last = (now, p.moves);
                let phase = if now < t.connected {
                    "connect"
                } else if now < t.seated {
                    "rooms"
                } else if now < t.end {
                    "play"
                } else {
                    "drain"
                };
                let rss: Vec<String> = pids
                    .iter()
                    .filter_map(|p| p.and_then(memory::rss))
                    .map(|r| (r.rss_kib / 1024).to_string())
                    .collect();
                let rss = if rss.is_empty() {
                    String::new()
                } else {
                    format!(" server rss {} MiB", rss.join("/"))
                };
                eprintln!(
                    "[{:>5.0}s {phase:>7}] conns {}/{} games {} finished {} moves {} ({rate:.0}/s) errors {}{rss}",
                    now.saturating_duration_since(start).as_secs_f64(),
                    p.open,
                    args.connections(),
                    p.games_started,
                    p.games_finished,
                    p.moves,
                    p.errors,
                );
            }
        }
    }

    let (idle, seated, ended) = (idle.await?, seated.await?, ended.await?);
    // Connections and rooms per node: the run's, shared evenly (placement spreads them so).
    let n = pids.len() as u64;
    let memory: Vec<Option<MemoryReport>> = (0..pids.len())
        .map(
            |i| match (pids[i], base[i], idle.0[i], seated.0[i], ended.0[i]) {
                (Some(pid), Some(base), Some(m), Some(s), Some(e)) => Some(MemoryReport::new(
                    pid,
                    base,
                    (m, idle.1.open / n),
                    (s, seated.1.games_started / n),
                    e,
                )),
                _ => None,
            },
        )
        .collect();
    let board = board.lock().expect("board lock");
    let mut measured = Measured::default();
    let mut verification: Option<Verification> = None;
    let mut conflicts = Vec::new();
    for r in board.done.iter().flatten() {
        measured.merge(&r.measured);
        if let Some(v) = &r.verification {
            verification
                .get_or_insert_with(Verification::default)
                .merge(v);
        }
        conflicts.extend(r.conflicts.iter().cloned());
    }
    Ok(Report::new(
        args,
        mode,
        measured,
        idle.1.open,
        memory,
        verification,
        conflicts,
    ))
}
