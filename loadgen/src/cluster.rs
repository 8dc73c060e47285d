//! The crash test on a cluster (issue #22): several server nodes on one Postgres database and one NATS server,
//! games with their players spread over the nodes, and a random node killed with SIGKILL at random moments and
//! restarted on the same database after a pause, while the other nodes take its rooms over and the clients
//! reconnect to any live node and play on. Afterwards everything the single-node test checks ([`crate::crash`])
//! must hold, and more that only a cluster can break: no stored game may have an action twice or out of turn
//! (each game's stored actions replay as a legal game, numbered without gaps), no game may have been stored under
//! two rooms, and no room may have had two owners: its ownership epoch, watched all along, never goes back and
//! never names two nodes.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use games::{AnyConfig, AnyGame, Seat};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sqlx::postgres::PgPoolOptions;

use crate::conn::Target;
use crate::crash::{self, CrashArgs, Server};
use crate::ledger::SeenGame;
use crate::run::{start_slice, Mode};
use crate::verify::{self, Source};

/// How often the owners of the run's rooms are read while it plays.
const WATCH_EVERY: Duration = Duration::from_millis(100);

/// What a cluster run did besides the checks: the numbers its report prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterRun {
    /// Nodes of the cluster.
    pub nodes: usize,
    /// Kills done (each followed by a restart of the killed node).
    pub kills: usize,
    /// Moves acknowledged to their players in all.
    pub moves: u64,
    /// Moves acknowledged by the time the last killed node was back (the run must go on past it).
    pub moves_at_last_restart: u64,
    /// Games the clients saw.
    pub games: usize,
    /// Acknowledged moves (stones or actions) checked against the database.
    pub checked: u64,
    /// Times a room was seen owned by another node than before (taken over after a kill).
    pub owner_changes: u64,
    /// Times a room's ownership epoch was seen to go up: a claim after a kill, by another node (a takeover) or
    /// by the restarted node itself.
    pub claims: u64,
    /// Rooms whose ownership was watched.
    pub rooms_watched: usize,
    /// What went wrong (empty: passed).
    pub failures: Vec<String>,
}

/// The ownership of one room as the watcher last read it, and what it found wrong.
#[derive(Debug, Default)]
struct Owners {
    last: HashMap<String, (i64, String)>,
    /// Every (room, epoch) seen, with the node it named.
    epochs: HashMap<(String, i64), String>,
    changes: u64,
    claims: u64,
    failures: Vec<String>,
}

impl Owners {
    /// One reading of room `room`: owned by `node` under `epoch`.
    fn saw(&mut self, room: &str, node: &str, epoch: i64) {
        match self.epochs.get(&(room.to_owned(), epoch)).cloned() {
            Some(n) if n != node => self.fail(format!(
                "room {room} had two owners under epoch {epoch}: {n} and {node}"
            )),
            Some(_) => {}
            None => {
                self.epochs
                    .insert((room.to_owned(), epoch), node.to_owned());
            }
        }
        if let Some((e, n)) = self.last.get(room).cloned() {
            if epoch < e {
                self.fail(format!(
                    "room {room}'s ownership went back from epoch {e} ({n}) to {epoch} ({node})"
                ));
            }
            if n != node {
                self.changes += 1;
            }
            if epoch > e {
                self.claims += 1;
            }
        }
        self.last.insert(room.to_owned(), (epoch, node.to_owned()));
    }

    fn fail(&mut self, what: String) {
        if self.failures.len() < 20 {
            self.failures.push(what);
        }
    }
}

/// Reads the owners of the rooms whose ids start with `prefix` every [`WATCH_EVERY`] until `stop` is set.
async fn watch_owners(
    pool: sqlx::PgPool,
    prefix: String,
    owners: Arc<Mutex<Owners>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
) {
    let like = format!("{prefix}%");
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let rows: Result<Vec<(String, String, i64)>, _> =
            sqlx::query_as("SELECT room, node, epoch FROM room_owners WHERE room LIKE $1")
                .bind(&like)
                .fetch_all(&pool)
                .await;
        // A read that fails (the database busy) is simply the next one's to make.
        if let Ok(rows) = rows {
            let mut o = owners.lock().expect("owners lock");
            for (room, node, epoch) in rows {
                o.saw(&room, &node, epoch);
            }
        }
        tokio::time::sleep(WATCH_EVERY).await;
    }
}

/// A short random run id, so that this run's node ids (and so its room ids) are its own in a shared database
/// and NATS server.
fn run_id(rng: &mut StdRng) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    (0..6)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Runs the crash test on `nodes` nodes (`args` checked by [`CrashArgs::nodes`]).
pub async fn crash(args: &CrashArgs, nodes: usize) -> anyhow::Result<ClusterRun> {
    let database = args
        .database_url
        .clone()
        .context("--cluster needs --database-url")?;
    let dir = tempfile::Builder::new()
        .prefix("gomoku-cluster-crash-")
        .tempdir()?;
    let bin = args
        .server_bin
        .clone()
        .or_else(crash::sibling_server)
        .context("no server binary: build it (cargo build -p server) or pass --server-bin")?;
    let mut rng = StdRng::seed_from_u64(args.seed);
    // Fresh ids each run (not from the seed: two runs on one database must not share rooms).
    let id = run_id(&mut StdRng::from_os_rng());
    let prefix = format!("c{id}");
    let mut servers = Vec::with_capacity(nodes);
    for i in 0..nodes {
        let node_id = format!("{prefix}n{i}");
        servers.push(Server {
            bin: bin.clone(),
            port: crash::free_port()?,
            db: database.clone(),
            log: dir.path().join(format!("{node_id}.log")),
            args: vec![
                "--nats-url".into(),
                args.nats_url.clone(),
                "--node-id".into(),
                node_id,
                "--lease-ms".into(),
                args.lease_ms.to_string(),
                // Every player is a new guest from a few loopback addresses, each opening rooms.
                "--max-waiting-rooms-per-ip".into(),
                "1000000".into(),
            ]
            .into_iter()
            .chain(
                args.nats_user
                    .iter()
                    .flat_map(|u| ["--nats-user".to_owned(), u.clone()]),
            )
            .chain(
                args.nats_ca_file
                    .iter()
                    .flat_map(|c| ["--nats-ca-file".to_owned(), c.display().to_string()]),
            )
            .collect(),
            env: args
                .nats_password
                .iter()
                .map(|p| ("NATS_PASSWORD".to_owned(), p.clone()))
                .collect(),
            // The takeovers, claims and lost leases (kept with --keep).
            rust_log: "info".into(),
            child: None,
            starts: 0,
        });
    }
    for s in &mut servers {
        s.start().await?;
    }
    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect(&database)
        .await
        .context("opening the database to watch the rooms' owners")?;
    let owners = Arc::new(Mutex::new(Owners::default()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = tokio::spawn(watch_owners(
        pool.clone(),
        prefix.clone(),
        owners.clone(),
        stop.clone(),
    ));

    let run = crate::crash::play_args(
        args,
        servers
            .iter()
            .map(|s| format!("ws://127.0.0.1:{}/ws", s.port))
            .collect(),
        args.cross_node,
    );
    run.cross_fraction()?;
    let start = Instant::now();
    let slice = start_slice(&run, Mode::Game, start, 0, 1)?;
    let ctx = slice.ctx.clone();
    let t = ctx.timeline;

    // Kill times: one in each of `kills` equal slots of the play phase, early in its slot so that the restart
    // (after a pause of up to a lease and a half) and the takeover fall inside it; the last slot ends three
    // leases (at least 8 s) before the end, so that the games visibly play on after the last restart.
    let lease = Duration::from_millis(args.lease_ms);
    let tail = (lease * 3).max(Duration::from_secs(8));
    let window = (t.end.checked_sub(tail))
        .map(|e| e.saturating_duration_since(t.seated))
        .unwrap_or_default();
    let slot = window / args.kills.max(1) as u32;
    anyhow::ensure!(
        args.kills == 0 || slot >= lease * 2,
        "--duration-secs {} is too short for {} kills with a {} ms lease: each kill needs two leases, and \
         the last {:.0} s are played without one",
        args.duration_secs,
        args.kills,
        args.lease_ms,
        tail.as_secs_f64()
    );
    let mut failures = Vec::new();
    let mut kills = 0;
    let mut killed = vec![0u32; nodes];
    for k in 0..args.kills {
        let at = t.seated + slot * k as u32 + slot.mul_f64(rng.random_range(0.05..0.3));
        tokio::time::sleep_until(at.into()).await;
        let victim = rng.random_range(0..nodes);
        let before = ctx.rec.progress();
        servers[victim].kill().await?;
        kills += 1;
        killed[victim] += 1;
        eprintln!(
            "[{:>5.1}s] kill -9 #{} of node {victim} ({} moves acknowledged so far, {} games started)",
            start.elapsed().as_secs_f64(),
            k + 1,
            before.moves,
            before.games_started
        );
        // Restarted sometimes before its lease has run out (it claims its rooms back), sometimes after
        // another node took them over.
        tokio::time::sleep(lease.mul_f64(rng.random_range(0.0..1.5))).await;
        if let Err(e) = servers[victim].start().await {
            failures.push(format!("restart #{} of node {victim} failed: {e:#}", k + 1));
            break;
        }
        eprintln!(
            "[{:>5.1}s] node {victim} restarted",
            start.elapsed().as_secs_f64()
        );
    }
    let moves_at_last_restart = ctx.rec.progress().moves;
    // Where each room's play stood once the last kill's rooms were taken over (two leases after the restart):
    // every room must have moved on from there by the end.
    let settled = Instant::now() + lease * 2;
    let before_end = t.end.checked_sub(Duration::from_secs(2)).unwrap_or(t.end);
    let mut standing = None;
    if settled < before_end {
        tokio::time::sleep_until(settled.into()).await;
        standing = Some(by_room(&ctx.ledger.games()));
    }
    let report = slice.finish().await?;
    let p = report.measured.progress;
    eprintln!(
        "played: {} games started, {} finished, {} moves acknowledged; place → opponent p99 {:.1} ms same node, \
         {:.1} ms cross node; client-side errors {:?}",
        p.games_started,
        p.games_finished,
        p.moves,
        report.measured.opponent_same.summary().p99_ms,
        report.measured.opponent_cross.summary().p99_ms,
        report.measured.errors
    );
    if args.kills > 0 && p.moves <= moves_at_last_restart {
        failures.push("no move was acknowledged after the last restart".into());
    }
    failures.extend(report.conflicts.iter().map(|c| format!("conflict: {c}")));
    for code in ["replica_desync", "snapshot_unplayable", "version_gap"] {
        if let Some(n) = report.measured.errors.get(code) {
            failures.push(format!("{n} × {code}"));
        }
    }

    let seen = ctx.ledger.games();
    if let Some(standing) = &standing {
        let now = by_room(&seen);
        let stalled: Vec<&String> = standing
            .iter()
            .filter(|(room, at)| now.get(*room).is_none_or(|n| n <= *at))
            .map(|(room, _)| room)
            .collect();
        eprintln!(
            "play on: {} of {} rooms moved on after the last takeover",
            standing.len() - stalled.len(),
            standing.len()
        );
        let o = owners.lock().expect("owners lock");
        for room in stalled.iter().take(20) {
            let (game, moves) = standing[*room];
            let owner = match o.last.get(room.as_str()) {
                Some((epoch, node)) => format!("last seen owned by {node} under epoch {epoch}"),
                None => "never seen owned".into(),
            };
            failures.push(format!(
                "room {room} made no move after the last takeover (game {game} at {moves} moves; {owner})"
            ));
        }
    }
    let target = Target::parse(&run.urls[0])?;
    let mut gone = Vec::new();
    failures.extend(crash::resumable(&target, &seen, &mut gone).await);

    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = watcher.await;
    for s in &mut servers {
        s.kill().await?;
    }
    let store = store::open(&database).await?;
    let v = verify::verify(&seen, &Source::Db(store.clone())).await;
    eprintln!(
        "durability: {} games, {} acknowledged moves checked; missing games {}, missing moves {}, \
         changed moves {}, missing results {}, games in another room {}",
        v.games,
        v.stones,
        v.games_missing,
        v.stones_missing,
        v.stones_mismatched,
        v.results_missing,
        v.rooms_mismatched
    );
    failures.extend(v.failures.iter().cloned());
    if !v.ok() && v.failures.is_empty() {
        failures.push("the durability check failed".into());
    }
    let ours = |room: &str| room.starts_with(&prefix);
    failures.extend(crash::ended_unseen(&*store, &gone).await?);
    failures.extend(crash::duplicates(&*store, &seen, ours).await?);
    failures.extend(stored_once(&*store, &seen).await?);
    let owners = std::mem::take(&mut *owners.lock().expect("owners lock"));
    eprintln!(
        "ownership: {} rooms watched, {} claims after kills ({} by another node), {} problems",
        owners.last.len(),
        owners.claims,
        owners.changes,
        owners.failures.len()
    );
    if args.kills > 0 && owners.claims == 0 {
        failures.push("no room was claimed again: the kills were never taken over".into());
    }
    failures.extend(owners.failures.iter().cloned());
    for (i, s) in servers.iter().enumerate() {
        if s.starts != 1 + killed[i] {
            failures.push(format!(
                "node {i} was started {} times, killed {} times",
                s.starts, killed[i]
            ));
        }
    }
    pool.close().await;
    if args.keep {
        let kept = dir.keep();
        eprintln!("kept {}", kept.display());
    }
    Ok(ClusterRun {
        nodes,
        kills,
        moves: p.moves,
        moves_at_last_restart,
        games: seen.len(),
        checked: v.stones,
        owner_changes: owners.changes,
        claims: owners.claims,
        rooms_watched: owners.last.len(),
        failures,
    })
}

/// Each room's latest game and how many of its moves the clients saw.
fn by_room(seen: &BTreeMap<i64, SeenGame>) -> HashMap<String, (i64, usize)> {
    let mut rooms: HashMap<String, (i64, usize)> = HashMap::new();
    for (id, g) in seen {
        let moves = g.actions.iter().flatten().count();
        let e = rooms.entry(g.room.clone()).or_insert((*id, moves));
        if *id > e.0 {
            *e = (*id, moves);
        }
    }
    rooms
}

/// Every game the clients saw is stored once and in turn: its actions numbered 0, 1, 2, … without a gap or a
/// repeat, replaying as a legal game (a stone stored twice, or a move of the side not to act, would not), and
/// none beyond what the clients were told (a move written by an owner whose lease had gone, and announced to
/// nobody, would be).
async fn stored_once(
    store: &dyn store::Store,
    seen: &BTreeMap<i64, SeenGame>,
) -> anyhow::Result<Vec<String>> {
    let mut failures = Vec::new();
    for (id, g) in seen {
        let Some(rec) = store.game(*id).await? else {
            continue; // the durability check reports it
        };
        if let Some((i, a)) = rec
            .actions
            .iter()
            .enumerate()
            .find(|(i, a)| a.seq as usize != *i)
        {
            failures.push(format!(
                "game {id}: its stored action {i} is numbered {} (a gap or a repeat)",
                a.seq
            ));
            continue;
        }
        let config = match AnyConfig::decode(&rec.game.kind, &rec.game.config) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!(
                    "game {id}: its stored configuration does not read: {e}"
                ));
                continue;
            }
        };
        let texts: Vec<&str> = rec.actions.iter().map(|a| a.text.as_str()).collect();
        if let Err(e) = AnyGame::replay_stored(config, Seat::Zero, &texts) {
            failures.push(format!(
                "game {id}: its stored actions do not replay (action {}: {:?})",
                e.index, e.reason
            ));
            continue;
        }
        // The clients count every action by its index, in every game.
        let (told, stored) = (g.actions.len(), rec.actions.len());
        if stored > told {
            failures.push(format!(
                "game {id}: {stored} moves stored, the clients were told of {told}"
            ));
        }
    }
    Ok(failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owner_change_under_a_higher_epoch_is_fine() {
        let mut o = Owners::default();
        o.saw("r", "a", 1);
        o.saw("r", "a", 1);
        o.saw("r", "b", 2);
        o.saw("r", "a", 3);
        assert!(o.failures.is_empty(), "{:?}", o.failures);
        assert_eq!((o.changes, o.claims), (2, 2));
    }

    #[test]
    fn an_epoch_going_back_or_naming_two_nodes_fails() {
        let mut o = Owners::default();
        o.saw("r", "a", 2);
        o.saw("r", "b", 1);
        assert_eq!(o.failures.len(), 1, "{:?}", o.failures);
        let mut o = Owners::default();
        o.saw("r", "a", 2);
        o.saw("r", "b", 2);
        assert!(o.failures[0].contains("two owners"), "{:?}", o.failures);
    }
}
