//! loadgen against a cluster (issue #22): a run spread over three nodes reports same-node and cross-node latency
//! and finds every acknowledged move stored; the crash test on three nodes, with a random node killed with SIGKILL
//! and restarted several times, passes; and the flags that go with several nodes are checked at their bounds.
//!
//! The cluster tests need NATS (`TEST_NATS_URL` and its credentials, else 127.0.0.1:4222) and Postgres
//! (`TEST_DATABASE_URL`, beside which each test makes a database of its own), as the server's cluster tests do: outside CI (`CI` unset) they are skipped, with a
//! message, when either is missing; under CI a missing one fails them. The crash test runs the server binary
//! next to loadgen's (`cargo test --workspace` builds it; alone: `cargo build -p server` first), or `SERVER_BIN`.

use std::path::PathBuf;
use std::process::Command;

use loadgen::crash::CrashArgs;
use loadgen::plan::{parse_fraction, RunArgs};
use loadgen::run::{self, Mode};
use testkit::cluster::{drop_database, fresh_database, nats, node_config, services};
use testkit::test_server::TestServer;

/// The two cluster runs take their turns: each runs three nodes and their players on the machine's few cores, and
/// a node starved of the CPU for half a second takes itself for cut off.
static ONE_CLUSTER_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Node ids unique to this test process (the NATS server may be shared).
fn node_id(letter: char) -> String {
    format!("l{}{letter}", std::process::id() % 100_000)
}

/// The server binary beside loadgen's, or the one `SERVER_BIN` names (a target folder that several checkouts
/// build into may hold another checkout's).
fn server_bin() -> PathBuf {
    let bin = std::env::var_os("SERVER_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_loadgen")).with_file_name("server"),
        PathBuf::from,
    );
    assert!(
        bin.exists(),
        "{} is missing: build it with `cargo build -p server` (cargo test --workspace does)",
        bin.display()
    );
    bin
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_over_three_nodes_reports_same_and_cross_node_latency_and_finds_every_move_stored() {
    let admin = match services().await {
        Ok(url) => url,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let _turn = ONE_CLUSTER_AT_A_TIME.lock().await;
    let database = fresh_database(&admin).await;
    let mut nodes = Vec::new();
    for letter in ['a', 'b', 'c'] {
        nodes.push(TestServer::start_node(node_config(&database, &node_id(letter))).await);
    }
    let args = RunArgs {
        urls: nodes.iter().map(|n| n.ws_url()).collect(),
        cross_node: None,
        games: 6,
        spectators: 1,
        think_ms: 30,
        ramp_secs: 0.3,
        room_ramp_secs: 0.3,
        hold_secs: 0.2,
        duration_secs: 3.0,
        drain_secs: 1.0,
        game: "gomoku".into(),
        rule_set: "freestyle".into(),
        workers: 1,
        source_ips: 2,
        rematch: true,
        reconnect: false,
        seed: 3,
        verify: false,
        verify_db: Some(database.clone()),
    };
    let report = run::run(&args, Mode::Game, None, true).await.unwrap();

    assert!(report.clean(), "{report}");
    assert_eq!(report.cross_node, 0.5, "the default with several nodes");
    assert_eq!(report.connections_peak, 18, "{report}");
    assert!(report.moves >= 30, "{report}");
    let (same, cross) = (report.opponent_same_node, report.opponent_cross_node);
    assert!(same.samples > 0 && cross.samples > 0, "{report}");
    assert_eq!(same.samples + cross.samples, report.opponent.samples);
    assert_eq!(report.opponent.samples, report.moves, "{report}");
    // Every spectator, on a node of its own, saw every stone.
    assert_eq!(report.spectator.samples, report.moves, "{report}");
    let text = report.to_string();
    assert!(
        text.contains("same node") && text.contains("cross node"),
        "{text}"
    );
    let json = serde_json::to_value(&report).unwrap();
    assert!(json["opponent_cross_node"]["p99_ms"].as_f64().unwrap() > 0.0);
    let v = report.verification.as_ref().unwrap();
    assert!(v.ok() && v.games >= 6 && v.stones >= report.moves, "{v:?}");

    // The rooms were created on every node: each node owns two of the six.
    let pool = sqlx::PgPool::connect(&database).await.unwrap();
    let rooms: Vec<String> = sqlx::query_scalar("SELECT DISTINCT room FROM games")
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(rooms.len(), 6, "{rooms:?}");
    for letter in ['a', 'b', 'c'] {
        let prefix = format!("{}-", node_id(letter));
        let on = rooms.iter().filter(|r| r.starts_with(&prefix)).count();
        assert_eq!(on, 2, "node {letter}'s rooms among {rooms:?}");
    }

    for node in nodes {
        node.stop().await;
    }
    drop_database(&admin, &database).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_crash_test_on_three_nodes_with_three_kills_finds_nothing_lost_or_owned_twice() {
    let admin = match services().await {
        Ok(url) => url,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let _turn = ONE_CLUSTER_AT_A_TIME.lock().await;
    let database = fresh_database(&admin).await;
    let args = CrashArgs {
        server_bin: Some(server_bin()),
        games: 8,
        kills: 3,
        duration_secs: 24.0,
        think_ms: 150,
        spectators: 1,
        seed: 11,
        game: "gomoku".into(),
        keep: false,
        cluster: Some(3),
        database_url: Some(database.clone()),
        nats_url: nats().url,
        nats_user: nats().user,
        nats_password: nats().password,
        nats_ca_file: nats().ca_file.map(PathBuf::from),
        lease_ms: 1500,
        cross_node: None,
    };
    assert_eq!(args.nodes().unwrap(), Some(3));
    let run = loadgen::cluster::crash(&args, 3).await.unwrap();

    assert!(run.failures.is_empty(), "{:#?}", run.failures);
    assert_eq!((run.nodes, run.kills), (3, 3));
    assert!(
        run.claims >= 1,
        "a killed node's rooms were claimed again: {run:?}"
    );
    assert!(run.moves > run.moves_at_last_restart, "{run:?}");
    assert!(run.checked >= run.moves, "{run:?}");
    drop_database(&admin, &database).await;
}

/// Runs the loadgen binary with `args`; its exit code and stderr.
fn loadgen(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .args(args)
        .output()
        .expect("run loadgen");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_cross_node_fraction_from_zero_to_one_is_taken_and_one_outside_is_refused() {
    assert_eq!(parse_fraction("0"), Ok(0.0));
    assert_eq!(parse_fraction("1"), Ok(1.0));
    assert_eq!(parse_fraction("0.25"), Ok(0.25));
    for bad in ["-0.001", "1.001", "NaN", "half"] {
        assert!(parse_fraction(bad).is_err(), "{bad}");
    }
    let two = [
        "--url",
        "ws://127.0.0.1:9/ws",
        "--url",
        "ws://127.0.0.1:10/ws",
    ];
    for bad in ["--cross-node=1.5", "--cross-node=-0.1"] {
        let mut a = vec!["run"];
        a.extend(two);
        a.push(bad);
        let (code, err) = loadgen(&a);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("the cross-node fraction must be from 0 to 1"),
            "{err}"
        );
    }
    // Saturation and the crash test read it the same way.
    let (code, err) = loadgen(&["saturate", "--cross-node", "2"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("from 0 to 1"), "{err}");
}

#[test]
fn a_cross_node_fraction_needs_two_nodes_and_urls_are_checked_before_the_run() {
    let (code, err) = loadgen(&["run", "--url", "ws://127.0.0.1:9/ws", "--cross-node", "0.5"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("needs at least two --url"), "{err}");
    let (code, err) = loadgen(&["run", "--url", "ws://127.0.0.1:9/ws,ws://127.0.0.1:9/ws"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("given twice"), "{err}");
    let (code, err) = loadgen(&["run", "--url", "ws://127.0.0.1:9/ws,ws://10.0.0.1:9/ws"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("only targets loopback"), "{err}");
}

#[test]
fn the_crash_test_refuses_a_cluster_on_sqlite_and_cluster_flags_without_one() {
    let sqlite = [
        "crash",
        "--cluster",
        "3",
        "--database-url",
        "sqlite:///tmp/x.db",
    ];
    let (code, err) = loadgen(&sqlite);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--cluster needs a Postgres database"), "{err}");
    let (code, err) = loadgen(&["crash", "--cluster", "3"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--cluster needs --database-url"), "{err}");
    let pg = "postgres://postgres@127.0.0.1:5432/x";
    for n in ["1", "33"] {
        let (code, err) = loadgen(&["crash", "--cluster", n, "--database-url", pg]);
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains("--cluster takes 2 to 32 nodes"), "{n}: {err}");
    }
    let (code, err) = loadgen(&[
        "crash",
        "--cluster",
        "2",
        "--database-url",
        pg,
        "--lease-ms",
        "299",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--lease-ms must be at least 300"), "{err}");
    let (code, err) = loadgen(&["crash", "--database-url", pg]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--database-url goes with --cluster"), "{err}");
}

#[test]
fn the_cluster_flags_are_taken_at_their_bounds() {
    let args = |nodes: usize, lease_ms: u64| CrashArgs {
        server_bin: None,
        games: 1,
        kills: 1,
        duration_secs: 1.0,
        think_ms: 1,
        spectators: 0,
        seed: 1,
        game: "gomoku".into(),
        keep: false,
        cluster: Some(nodes),
        database_url: Some("postgresql://postgres@127.0.0.1/x".into()),
        nats_url: "nats://127.0.0.1:4222".into(),
        nats_user: None,
        nats_password: None,
        nats_ca_file: None,
        lease_ms,
        cross_node: Some(1.0),
    };
    assert_eq!(args(2, 300).nodes().unwrap(), Some(2));
    assert_eq!(args(32, 300).nodes().unwrap(), Some(32));
    assert!(args(33, 300).nodes().is_err());
    assert!(args(2, 299).nodes().is_err());
    let single = CrashArgs {
        cluster: None,
        database_url: None,
        cross_node: None,
        ..args(2, 300)
    };
    assert_eq!(single.nodes().unwrap(), None);
}
