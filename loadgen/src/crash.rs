//! The crash test: games are played against a real server binary on a SQLite file while the server is killed
//! with SIGKILL at random moments and restarted on the same database; clients reconnect and play on. Afterwards
//! every stone any client saw acknowledged must be in the database in order, every game must have a result or
//! still be resumable, and no game may be lost or duplicated.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use futures_util::StreamExt;
use protocol::{ClientMessage, JoinRole, RoomState, ServerMessage};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::Message;

use crate::conn::{self, Target};
use crate::ledger::SeenGame;
use crate::plan::RunArgs;
use crate::run::{start_slice, Mode};
use crate::verify::{self, Source};

/// The flags of `loadgen crash`.
#[derive(Args, Clone, Debug)]
pub struct CrashArgs {
    /// The server binary to start, kill and restart (default: `server` next to this binary).
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
    /// Concurrent games.
    #[arg(long, default_value_t = 50)]
    pub games: usize,
    /// How many times the server is killed.
    #[arg(long, default_value_t = 5)]
    pub kills: usize,
    /// Seconds of play (the kills fall inside it, the last one at least 8 s before its end).
    #[arg(long, default_value_t = 40.0)]
    pub duration_secs: f64,
    /// Think time before each move, ms.
    #[arg(long, default_value_t = 150)]
    pub think_ms: u64,
    /// Spectators per game.
    #[arg(long, default_value_t = 1)]
    pub spectators: usize,
    /// Seed of the kill times and of the moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The game of the rooms: gomoku (freestyle), othello or draughts.
    #[arg(long, default_value = "gomoku")]
    pub game: String,
    /// Keep the temporary folder (database and server logs) and print its path.
    #[arg(long)]
    pub keep: bool,
    /// Runs the test on a cluster of this many server nodes (issue #22) sharing one Postgres database
    /// (`--database-url`) and one NATS server (`--nats-url`): each kill takes a random node, which is restarted
    /// on the same database after a pause while the others take over its rooms.
    #[arg(long)]
    pub cluster: Option<usize>,
    /// With `--cluster`: the nodes' Postgres database (`postgres://…`; SQLite serves a single node).
    #[arg(long)]
    pub database_url: Option<String>,
    /// With `--cluster`: the NATS server of the nodes.
    #[arg(long, default_value = "nats://127.0.0.1:4222")]
    pub nats_url: String,
    /// With `--cluster`: the nodes' NATS user (the server's `--nats-user`), for a NATS server that refuses
    /// anonymous clients.
    #[arg(long)]
    pub nats_user: Option<String>,
    /// With `--cluster`: the password of `--nats-user` (the variable `NATS_PASSWORD` keeps it out of the process
    /// list; the nodes get it in their environment).
    #[arg(long, env = "NATS_PASSWORD", hide_env_values = true)]
    pub nats_password: Option<String>,
    /// With `--cluster`: the CA of NATS's certificate (the server's `--nats-ca-file`; TLS is then required).
    #[arg(long)]
    pub nats_ca_file: Option<PathBuf>,
    /// With `--cluster`: the nodes' room lease in milliseconds (`--lease-ms` of the server, at least 300); a dead
    /// node's rooms are taken over a lease to a lease and a half after the kill.
    #[arg(long, default_value_t = 2000)]
    pub lease_ms: u64,
    /// With `--cluster`: the fraction of games whose two players connect to different nodes (default 0.5).
    #[arg(long, value_parser = crate::plan::parse_fraction)]
    pub cross_node: Option<f64>,
}

/// The largest `--cluster`.
pub const MAX_NODES: usize = 32;

impl CrashArgs {
    /// The number of nodes of a cluster run (`None`: the single-node test), once the flags that go with
    /// `--cluster` are checked: a Postgres database, at least two nodes, a lease the server takes.
    pub fn nodes(&self) -> anyhow::Result<Option<usize>> {
        let Some(n) = self.cluster else {
            anyhow::ensure!(
                self.database_url.is_none(),
                "--database-url goes with --cluster: the single-node crash test makes its own SQLite file"
            );
            anyhow::ensure!(
                self.cross_node.is_none(),
                "--cross-node goes with --cluster: a single node has no other node"
            );
            return Ok(None);
        };
        anyhow::ensure!(
            (2..=MAX_NODES).contains(&n),
            "--cluster takes 2 to {MAX_NODES} nodes (one is killed while the others serve its rooms), not {n}"
        );
        let Some(url) = &self.database_url else {
            bail!("--cluster needs --database-url postgres://… (the nodes share one Postgres database)");
        };
        anyhow::ensure!(
            url.starts_with("postgres://") || url.starts_with("postgresql://"),
            "--cluster needs a Postgres database (--database-url postgres://…): SQLite serves a single node only"
        );
        anyhow::ensure!(
            self.lease_ms >= 300,
            "--lease-ms must be at least 300 (the server's lower bound), not {}",
            self.lease_ms
        );
        Ok(Some(n))
    }
}

/// A server process on a fixed port and database (with `args`: a cluster node's further flags).
pub(crate) struct Server {
    pub(crate) bin: PathBuf,
    pub(crate) port: u16,
    pub(crate) db: String,
    pub(crate) log: PathBuf,
    pub(crate) args: Vec<String>,
    /// Environment variables of the server besides the ones every run sets (secrets: not in `args`).
    pub(crate) env: Vec<(String, String)>,
    /// The server's `RUST_LOG`.
    pub(crate) rust_log: String,
    pub(crate) child: Option<Child>,
    pub(crate) starts: u32,
}

impl Server {
    /// Starts the process and waits until it answers `/api/health`.
    pub(crate) async fn start(&mut self) -> anyhow::Result<()> {
        self.starts += 1;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)?;
        let child = Command::new(&self.bin)
            .args(["--bind", &format!("127.0.0.1:{}", self.port)])
            .args(["--database-url", &self.db])
            .args(&self.args)
            .env("RUST_LOG", &self.rust_log)
            // Every player of the run is a new guest from 127.0.0.1: the per-address limit on new guests would
            // refuse most of them.
            .env("GUEST_BURST_PER_IP", "1000000")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", self.bin.display()))?;
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(30);
        let health = format!("http://127.0.0.1:{}/api/health", self.port);
        loop {
            if let Ok(r) = reqwest::get(&health).await {
                if r.status().is_success() {
                    return Ok(());
                }
            }
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                bail!(
                    "the server exited at start ({status}); see {}",
                    self.log.display()
                );
            }
            if Instant::now() > deadline {
                bail!("the server did not answer /api/health within 30 s");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL: no shutdown code runs, exactly like a power cut for the process.
    pub(crate) async fn kill(&mut self) -> anyhow::Result<()> {
        if let Some(mut child) = self.child.take() {
            child.start_kill()?;
            child.wait().await?;
        }
        Ok(())
    }
}

/// The games a crash test plays against `urls` (one server, or a cluster's nodes with `cross_node`): a short
/// ramp, rematches and reconnects on, the clients' own checks instead of `--verify` (the crash test checks the
/// database itself afterwards).
pub(crate) fn play_args(args: &CrashArgs, urls: Vec<String>, cross_node: Option<f64>) -> RunArgs {
    RunArgs {
        urls,
        cross_node,
        games: args.games,
        spectators: args.spectators,
        think_ms: args.think_ms,
        ramp_secs: 1.0,
        room_ramp_secs: 1.0,
        hold_secs: 0.5,
        duration_secs: args.duration_secs,
        drain_secs: 3.0,
        game: args.game.clone(),
        rule_set: "freestyle".into(),
        workers: 1,
        source_ips: 0,
        rematch: true,
        reconnect: true,
        seed: args.seed,
        verify: false,
        verify_db: None,
    }
}

pub(crate) fn free_port() -> anyhow::Result<u16> {
    let l = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(l.local_addr()?.port())
}

/// Runs the crash test; returns the failures found (empty: passed).
pub async fn crash(args: &CrashArgs) -> anyhow::Result<Vec<String>> {
    let dir = tempfile::Builder::new().prefix("gomoku-crash-").tempdir()?;
    let db_path = dir.path().join("crash.db");
    let bin = args
        .server_bin
        .clone()
        .or_else(sibling_server)
        .context("no server binary: build it (cargo build -p server) or pass --server-bin")?;
    let mut server = Server {
        bin,
        port: free_port()?,
        db: format!("sqlite://{}", db_path.display()),
        log: dir.path().join("server.log"),
        args: Vec::new(),
        env: Vec::new(),
        rust_log: "warn".into(),
        child: None,
        starts: 0,
    };
    server.start().await?;
    let run = play_args(
        args,
        vec![format!("ws://127.0.0.1:{}/ws", server.port)],
        None,
    );
    let start = Instant::now();
    let slice = start_slice(&run, Mode::Game, start, 0, 1)?;
    let ctx = slice.ctx.clone();
    let t = ctx.timeline;

    // Kill times: spread over the play phase, at least 2 s apart, the last 8 s before the end so the games
    // visibly play on after it.
    let mut rng = StdRng::seed_from_u64(args.seed);
    let window = (t.end - Duration::from_secs(8)).saturating_duration_since(t.seated);
    let mut kills: Vec<Duration> = Vec::new();
    let slot = window / args.kills.max(1) as u32;
    for k in 0..args.kills {
        let jitter = slot.mul_f64(rng.random_range(0.1..0.9));
        kills.push(slot * k as u32 + jitter);
    }
    let mut failures = Vec::new();
    for (k, at) in kills.iter().enumerate() {
        tokio::time::sleep_until((t.seated + *at).into()).await;
        let before = ctx.rec.progress();
        server.kill().await?;
        eprintln!(
            "[{:>5.1}s] kill -9 #{} ({} moves acknowledged so far, {} games started)",
            start.elapsed().as_secs_f64(),
            k + 1,
            before.moves,
            before.games_started
        );
        // Sometimes restart at once, sometimes after a pause: clients must cope with refused connections too.
        tokio::time::sleep(Duration::from_millis(rng.random_range(0..800))).await;
        if let Err(e) = server.start().await {
            failures.push(format!("restart #{} failed: {e:#}", k + 1));
            break;
        }
        eprintln!("[{:>5.1}s] restarted", start.elapsed().as_secs_f64());
    }
    let moves_after_last_kill = ctx.rec.progress().moves;
    let report = slice.finish().await?;
    let p = report.measured.progress;
    eprintln!(
        "played: {} games started, {} finished, {} moves acknowledged; client-side errors {:?}",
        p.games_started, p.games_finished, p.moves, report.measured.errors
    );
    if p.moves <= moves_after_last_kill {
        failures.push("no move was acknowledged after the last restart".into());
    }
    failures.extend(report.conflicts.iter().map(|c| format!("conflict: {c}")));
    for code in ["replica_desync", "snapshot_unplayable", "version_gap"] {
        if let Some(n) = report.measured.errors.get(code) {
            failures.push(format!("{n} × {code}"));
        }
    }

    let seen = ctx.ledger.games();
    let target = Target::parse(&run.urls[0])?;
    let mut gone = Vec::new();
    failures.extend(resumable(&target, &seen, &mut gone).await);

    server.kill().await?;
    let store = store::open(&server.db).await?;
    let v = verify::verify(&seen, &Source::Db(store.clone())).await;
    eprintln!(
        "durability: {} games, {} acknowledged actions checked; missing games {}, missing actions {}, \
         changed actions {}, missing results {}",
        v.games, v.stones, v.games_missing, v.stones_missing, v.stones_mismatched, v.results_missing
    );
    failures.extend(v.failures.iter().cloned());
    if !v.ok() && v.failures.is_empty() {
        failures.push("the durability check failed".into());
    }
    failures.extend(ended_unseen(&*store, &gone).await?);
    failures.extend(duplicates(&*store, &seen, |_| true).await?);
    if server.starts < args.kills as u32 + 1 {
        failures.push(format!(
            "the server was started {} times, expected {}",
            server.starts,
            args.kills + 1
        ));
    }
    if args.keep {
        let kept = dir.keep();
        eprintln!("kept {}", kept.display());
    }
    Ok(failures)
}

/// Every game without a result must be the current game of its room and resumable: its player can rejoin and
/// gets the game in play with the stones seen so far. Earlier games of a room must all have ended. A game whose
/// room is gone goes into `gone`, for [`ended_unseen`] to check against the store once the server is stopped.
pub(crate) async fn resumable(
    target: &Target,
    seen: &BTreeMap<i64, SeenGame>,
    gone: &mut Vec<i64>,
) -> Vec<String> {
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut latest: BTreeMap<&str, i64> = BTreeMap::new();
    for (id, g) in seen {
        let e = latest.entry(g.room.as_str()).or_insert(*id);
        *e = (*e).max(*id);
    }
    for (id, g) in seen {
        if g.result.is_some() {
            continue;
        }
        if latest.get(g.room.as_str()) != Some(id) {
            failures.push(format!(
                "game {id} in room {} never ended but its room moved on",
                g.room
            ));
            continue;
        }
        checked += 1;
        match rejoin(target, g).await {
            Ok(Rejoin::Gone) => gone.push(*id),
            Ok(Rejoin::Room(RoomState::Playing, Some(gid), played)) if gid == *id => {
                let seen_n = g.actions.len();
                if played < seen_n {
                    failures.push(format!(
                        "game {id} resumed with {played} actions, {seen_n} were seen"
                    ));
                }
            }
            Ok(Rejoin::Room(RoomState::Over, Some(gid), _)) if gid == *id => {}
            Ok(Rejoin::Room(state, gid, _)) => failures.push(format!(
                "game {id} is not resumable: its room says {state:?}, game {gid:?}"
            )),
            Err(e) => failures.push(format!("game {id} is not resumable: {e:#}")),
        }
    }
    eprintln!(
        "resumable: {checked} unfinished games rejoined as their player, {} problems",
        failures.len()
    );
    failures
}

/// What a player rejoining a game's room finds.
enum Rejoin {
    /// The room: its state, game id and stone count.
    Room(RoomState, Option<i64>, usize),
    /// No such room (`unknown_room`).
    Gone,
}

/// A game whose room was gone at the end is fine only if its result is stored: it ended just before a kill, which
/// took the `game_over` with it (a result is stored before it is announced, never the other way round).
pub(crate) async fn ended_unseen(
    store: &dyn store::Store,
    gone: &[i64],
) -> anyhow::Result<Vec<String>> {
    let mut failures = Vec::new();
    for &id in gone {
        match store.game(id).await? {
            Some(record) if record.end.is_some() => {}
            _ => failures.push(format!(
                "game {id} is not resumable: its room is gone and it has no stored result"
            )),
        }
    }
    if !gone.is_empty() {
        eprintln!(
            "ended unseen: {} games whose game_over a kill took had their result stored; {} had none",
            gone.len() - failures.len(),
            failures.len()
        );
    }
    Ok(failures)
}

/// Rejoins a game's room as one of its players.
async fn rejoin(target: &Target, g: &SeenGame) -> anyhow::Result<Rejoin> {
    let token = g.tokens.first().context("no player token was seen")?;
    let mut ws = conn::connect(target, None).await?;
    let hello = ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: Some(token.clone()),
    };
    conn::send(&mut ws, &hello, Some(1)).await?;
    let join = ClientMessage::Join {
        room: g.room.clone(),
        role: JoinRole::Player,
        since: None,
    };
    conn::send(&mut ws, &join, Some(2)).await?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .context("no snapshot within 5 s")?
            .context("closed")??;
        let Message::Text(text) = msg else { continue };
        match conn::parse(text.as_str())?.msg {
            ServerMessage::Room { room } => {
                // Every action, in every game (the view lists them; a room without a game has none).
                let played = room.view.as_ref().map_or(0, |view| view.actions().len());
                return Ok(Rejoin::Room(room.state, room.game_id, played));
            }
            ServerMessage::Error { code, .. } if code == protocol::code::UNKNOWN_ROOM => {
                return Ok(Rejoin::Gone)
            }
            ServerMessage::Error { code, message, .. } => bail!("{code}: {message}"),
            _ => {}
        }
    }
}

/// No room may hold two unfinished games, and every unfinished stored game must be one the clients know; only
/// the rooms `ours` admits are looked at (a cluster's database may hold other runs' games).
pub(crate) async fn duplicates(
    store: &dyn store::Store,
    seen: &BTreeMap<i64, SeenGame>,
    ours: impl Fn(&str) -> bool,
) -> anyhow::Result<Vec<String>> {
    let mut failures = Vec::new();
    let mut by_room: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for g in store.unfinished_games().await? {
        if !ours(&g.game.room) {
            continue;
        }
        by_room.entry(g.game.room.clone()).or_default().push(g.id);
        if !seen.contains_key(&g.id) {
            failures.push(format!(
                "stored unfinished game {} (room {}) was never announced to a client",
                g.id, g.game.room
            ));
        }
    }
    for (room, ids) in by_room {
        if ids.len() > 1 {
            failures.push(format!("room {room} has several unfinished games: {ids:?}"));
        }
    }
    Ok(failures)
}

/// The server binary next to this loadgen binary (both are built into the same target folder).
pub fn sibling_server() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let p = exe.parent()?.join("server");
    Path::exists(&p).then_some(p)
}
