//! loadgen end to end: a short run against the real server (in-process, port 0, fresh SQLite file) plays games,
//! measures them, and proves every acknowledged stone stored, both through the HTTP API and the database itself.

use loadgen::plan::RunArgs;
use loadgen::run::{self, Mode};
use testkit::test_server::{test_config, Db, TestServer};

/// Starts the server (the kit's test server on tokio's clock: loadgen's think time is real) on a fresh SQLite file.
async fn start_server() -> (TestServer, Db) {
    let db = Db::sqlite();
    let server = TestServer::start_real_time(&db, test_config()).await;
    (server, db)
}

fn short_run(url: String) -> RunArgs {
    RunArgs {
        urls: vec![url],
        cross_node: None,
        games: 4,
        spectators: 1,
        think_ms: 20,
        ramp_secs: 0.2,
        room_ramp_secs: 0.2,
        hold_secs: 0.1,
        duration_secs: 2.0,
        drain_secs: 1.0,
        game: "gomoku".into(),
        rule_set: "renju".into(),
        workers: 1,
        source_ips: 2,
        rematch: true,
        reconnect: false,
        seed: 5,
        verify: true,
        verify_db: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_run_plays_measures_and_finds_every_stone_stored_over_http() {
    let (server, _db) = start_server().await;
    let args = short_run(server.ws_url());
    let report = run::run(&args, Mode::Game, None, true).await.unwrap();

    assert!(report.clean(), "{report}");
    assert_eq!(report.connections_peak, 12);
    assert!(report.games_started >= 4, "{report}");
    assert!(report.moves >= 20, "{report}");
    assert_eq!(report.opponent.samples, report.moves);
    assert_eq!(
        report.spectator.samples, report.moves,
        "one spectator per game sees every stone"
    );
    let v = report.verification.as_ref().unwrap();
    assert_eq!(v.games, report.games_started);
    assert!(v.stones >= report.moves);
    // The server runs in this process, which loadgen finds from the listening port.
    let memory = report.memory.as_ref().unwrap();
    assert_eq!(memory.pid, std::process::id());
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_durability_check_can_read_the_database_itself() {
    let (server, db) = start_server().await;
    let args = RunArgs {
        verify: false,
        verify_db: Some(format!("sqlite://{}", db.url)),
        ..short_run(server.ws_url())
    };
    let report = run::run(&args, Mode::Game, None, true).await.unwrap();
    assert!(report.clean(), "{report}");
    let v = report.verification.as_ref().unwrap();
    assert!(v.ok() && v.stones >= report.moves && v.games >= 4, "{v:?}");
    drop(server);
}

/// A short run of `game` (othello or draughts) with the HTTP check or, with `db`, the database check.
async fn other_game_run(game: &str, through_db: bool) {
    let (server, db) = start_server().await;
    let mut args = RunArgs {
        game: game.into(),
        duration_secs: 3.0,
        ..short_run(server.ws_url())
    };
    if through_db {
        args.verify = false;
        args.verify_db = Some(format!("sqlite://{}", db.url));
    }
    let report = run::run(&args, Mode::Game, None, true).await.unwrap();
    assert!(report.clean(), "{game}: {report}");
    assert!(report.games_started >= 4, "{game}: {report}");
    assert!(report.moves >= 20, "{game}: {report}");
    assert_eq!(report.opponent.samples, report.moves, "{game}: {report}");
    assert_eq!(report.spectator.samples, report.moves, "{game}: {report}");
    let v = report.verification.as_ref().unwrap();
    assert!(v.ok() && v.games >= 4, "{game}: {v:?}");
    // Every move the players made is checked (Othello's forced passes are checked too, and counted there).
    assert!(v.stones >= report.moves, "{game}: {v:?}");
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_othello_run_plays_and_finds_every_action_stored_over_http() {
    other_game_run("othello", false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_draughts_run_plays_and_finds_every_action_stored_in_the_database() {
    other_game_run("draughts", true).await;
}

#[test]
fn an_unknown_game_is_refused_before_the_run() {
    let args = RunArgs {
        game: "chess".into(),
        ..short_run("ws://127.0.0.1:1/ws".into())
    };
    let e = args.game().unwrap_err();
    assert!(e.to_string().contains("unknown game chess"), "{e}");
}
