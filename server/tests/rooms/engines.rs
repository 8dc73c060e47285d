//! External Piskvork engines seated as computer players (`--engine NAME=PATH`, issue #17): our own
//! `pbrain-gomoku` as a separate process, and deliberately broken fake engines (garbage, an illegal move, silence,
//! a crash), each of which loses its game with a clear reason while the server and the room stay up.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::*;
use protocol::{ClientMessage, ColourChoice, RoomEvent, ServerMessage, TimeControl};
use rules::Color;
use server::computer::external::EngineSpec;
use server::Config;

/// Builds (if needed) and finds the engine crate's `pbrain-gomoku`.
fn pbrain() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", "engine", "--bin", "pbrain-gomoku"])
        .current_dir(&root)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "pbrain-gomoku builds");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    target.join("debug").join("pbrain-gomoku")
}

/// A fake engine: a shell script that answers `START` with `OK` and every `DONE` with `reply` (a shell
/// command).
fn fake(dir: &Path, name: &str, reply: &str) -> PathBuf {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    START*) echo OK ;;\n    DONE*) {reply} ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn spec(name: &str, path: PathBuf) -> EngineSpec {
    EngineSpec {
        name: name.to_owned(),
        path,
    }
}

fn play_engine(engine: &str) -> ClientMessage {
    ClientMessage::PlayComputer {
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::None,
        public: false,
        colour: ColourChoice::Black,
        level: 0,
        engine: Some(engine.to_owned()),
    }
}

async fn server(engines: Vec<EngineSpec>) -> TestServer {
    TestServer::start_real_time_fresh(Config {
        engines,
        engine_move_ms: 500,
        ..test_config()
    })
    .await
}

/// Starts a game against `engine` with the person at black; the engine's seat as `game_started` shows it.
async fn start(c: &mut Client, engine: &str) -> (String, protocol::Seat) {
    let room = match c.request(play_engine(engine)).await {
        ServerMessage::Room { room } => room.id,
        other => panic!("expected the room, got {other:?}"),
    };
    let (_, started) = c
        .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;
    let RoomEvent::GameStarted { white, .. } = started else {
        unreachable!()
    };
    (room, white)
}

#[tokio::test]
async fn our_own_pbrain_plays_as_a_separate_process() {
    let server = server(vec![spec("pbrain", pbrain())]).await;
    let mut human = server.client().await;
    let (room, seat) = start(&mut human, "pbrain").await;
    assert_eq!(seat.engine.as_deref(), Some("pbrain"));
    assert_eq!(seat.name, "engine-pbrain");
    assert_eq!(seat.computer, None);
    for (i, point) in ["h8", "a1", "a15"].iter().enumerate() {
        let ply = 2 * i as u32 + 1;
        human.place(&room, point, ply).await.expect("my stone");
        let (_, reply) = human
            .event_where(|e| {
                matches!(
                    e,
                    RoomEvent::Move {
                        colour: Color::White,
                        ..
                    }
                )
            })
            .await;
        assert!(
            matches!(reply, RoomEvent::Move { ply: p, .. } if p == ply + 1),
            "{reply:?}"
        );
    }
}

/// Plays h8 against a broken engine: it must lose by resignation after saying why in the chat.
async fn loses_with_a_reason(engine: &str, path: PathBuf, reason: &str) {
    let server = server(vec![spec(engine, path)]).await;
    let mut human = server.client().await;
    let (room, _) = start(&mut human, engine).await;
    human.place(&room, "h8", 1).await.expect("my stone");
    let (_, said) = human
        .event_where(|e| matches!(e, RoomEvent::Chat { .. }))
        .await;
    let RoomEvent::Chat { text, .. } = &said else {
        unreachable!()
    };
    assert!(text.contains(reason), "{engine}: {text}");
    let result = human.game_over().await;
    assert_eq!(result.winner, Some(Color::Black), "{engine}: {result:?}");
    assert_eq!(result.reason, "resign");
    // The server is up and plays on.
    let mut other = server.client().await;
    let again = other
        .request(ClientMessage::PlayComputer {
            rules: Some(freestyle()),
            game: None,
            time_control: TimeControl::None,
            public: false,
            colour: ColourChoice::Black,
            level: 1,
            engine: None,
        })
        .await;
    assert!(matches!(again, ServerMessage::Room { .. }), "{again:?}");
}

#[tokio::test]
async fn an_engine_that_answers_garbage_loses() {
    let dir = tempfile::tempdir().unwrap();
    let path = fake(dir.path(), "garbage", "echo 'I resign, human'");
    loses_with_a_reason("garbage", path, "answered garbage").await;
}

#[tokio::test]
async fn an_engine_that_plays_an_illegal_move_loses() {
    let dir = tempfile::tempdir().unwrap();
    // 7,7 is h8: the person's stone.
    let path = fake(dir.path(), "illegal", "echo 7,7");
    loses_with_a_reason("illegal", path, "illegal move").await;
}

#[tokio::test]
async fn an_engine_that_stays_silent_loses() {
    let dir = tempfile::tempdir().unwrap();
    let path = fake(dir.path(), "silent", ":");
    loses_with_a_reason("silent", path, "did not answer in time").await;
}

#[tokio::test]
async fn an_engine_that_crashes_loses() {
    let dir = tempfile::tempdir().unwrap();
    let path = fake(dir.path(), "crash", "exit 3");
    loses_with_a_reason("crash", path, "stopped running").await;
}

#[tokio::test]
async fn an_engine_that_cannot_be_started_loses() {
    let dir = tempfile::tempdir().unwrap();
    loses_with_a_reason(
        "missing",
        dir.path().join("no-such-program"),
        "could not be started",
    )
    .await;
}

#[tokio::test]
async fn unknown_engines_and_opening_rules_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(vec![spec("crash", fake(dir.path(), "crash", "exit 3"))]).await;
    let mut human = server.client().await;
    let reply = human.request(play_engine("nosuch")).await;
    assert_eq!(error_code(reply), "unknown_engine");
    let reply = human
        .request(ClientMessage::PlayComputer {
            rules: Some(rules(
                rules::RuleSet::Renju,
                rules::ForbiddenPolicy::Reject,
                rules::Opening::SwapAfterThree,
            )),
            game: None,
            time_control: TimeControl::None,
            public: false,
            colour: ColourChoice::Black,
            level: 0,
            engine: Some("crash".into()),
        })
        .await;
    assert_eq!(error_code(reply), "no_engine");
    // An external engine speaks Piskvork: Gomoku only, whatever other games the server's own computer plays.
    let reply = human
        .request(ClientMessage::PlayComputer {
            rules: None,
            game: Some(protocol::GameSpec::Draughts(protocol::DraughtsSpec {
                variant: protocol::DraughtsVariant::International,
            })),
            time_control: TimeControl::None,
            public: false,
            colour: ColourChoice::Black,
            level: 0,
            engine: Some("crash".into()),
        })
        .await;
    assert_eq!(error_code(reply), "no_engine");
    let reply = human
        .request(ClientMessage::PlayComputer {
            rules: Some(freestyle()),
            game: None,
            time_control: TimeControl::None,
            public: false,
            colour: ColourChoice::Black,
            level: 0,
            engine: None,
        })
        .await;
    assert_eq!(error_code(reply), "bad_level", "no engine and no level");
}

#[tokio::test]
async fn an_engines_memory_cpu_time_and_processes_are_capped_in_its_process() {
    let dir = tempfile::tempdir().unwrap();
    // The engine answers its limits, which is garbage and tells them: its address space (KiB: 512 MiB), its CPU
    // time (s), its user's processes (or the server's own hard limit, when lower) and core files (none).
    let path = fake(
        dir.path(),
        "ulimit",
        "echo \"limit $(ulimit -v) $(ulimit -t) $(ulimit -p) $(ulimit -c)\"",
    );
    let mut nproc = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the one struct it is given.
    assert_eq!(
        unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut nproc) },
        0
    );
    let processes = 4096.min(nproc.rlim_max);
    loses_with_a_reason("ulimit", path, &format!("limit 524288 1800 {processes} 0")).await;
}

/// A fake engine that appends its process id to `pids` in `dir` when it starts, and answers every `DONE` with
/// `reply` (a shell command).
fn recorded(dir: &Path, name: &str, reply: &str) -> PathBuf {
    let path = dir.join(name);
    let pids = dir.join("pids");
    let script = format!(
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    START*) echo $$ >> {pids}; echo OK ;;\n    DONE*) {reply} ;;\n  esac\ndone\n",
        pids = pids.display()
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The process ids the recorded engines of `dir` started with.
fn started_pids(dir: &Path) -> Vec<u32> {
    std::fs::read_to_string(dir.join("pids"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().expect("a pid"))
        .collect()
}

/// Whether a process of this id exists (a zombie, killed but not reaped, still does).
fn exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Waits (real time) until `cond` holds.
async fn until(what: &str, cond: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + WAIT;
    while !cond() {
        assert!(
            std::time::Instant::now() < deadline,
            "{what} within {WAIT:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// The next move of `colour` (skipping other events).
async fn move_of(c: &mut Client, colour: Color) -> RoomEvent {
    c.event_where(|e| matches!(e, RoomEvent::Move { colour: c, .. } if *c == colour))
        .await
        .1
}

#[tokio::test]
async fn after_a_rematch_the_engine_leaves_with_its_person_and_its_process_is_killed_and_reaped() {
    let dir = tempfile::tempdir().unwrap();
    // a15 whatever the position: legal on an empty board and beside h8.
    let path = recorded(dir.path(), "corner", "echo 0,0");
    let server = server(vec![spec("corner", path)]).await;
    let mut human = server.client().await;
    let (room, _) = start(&mut human, "corner").await;
    human.place(&room, "h8", 1).await.expect("my stone");
    move_of(&mut human, Color::White).await;
    human
        .act(ClientMessage::Resign { room: room.clone() })
        .await
        .unwrap();
    human
        .act(ClientMessage::OfferRematch { room: room.clone() })
        .await
        .unwrap();
    let (_, started) = human
        .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;
    let RoomEvent::GameStarted { black, .. } = started else {
        unreachable!()
    };
    assert_eq!(black.engine.as_deref(), Some("corner"), "colours exchanged");
    // The engine plays the rematch (it opens as black).
    move_of(&mut human, Color::Black).await;
    let pids = started_pids(dir.path());
    assert!(!pids.is_empty());
    assert!(
        pids.iter().any(|&p| exists(p)),
        "its process plays: {pids:?}"
    );
    let computer = server.state.computer.clone();
    assert_eq!(computer.games(), 1);

    human
        .request(ClientMessage::Leave { room: room.clone() })
        .await;

    until("the engine's game slot is free", || computer.games() == 0).await;
    let rooms = server.state.rooms.clone();
    until("the room closes", || rooms.get(&room).is_none()).await;
    until("every process of the engine is gone", || {
        started_pids(dir.path()).into_iter().all(|p| !exists(p))
    })
    .await;
}

#[tokio::test]
async fn when_its_person_leaves_mid_game_the_engines_process_is_killed_and_reaped_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = recorded(dir.path(), "corner", "echo 0,0");
    let server = server(vec![spec("corner", path)]).await;
    let mut human = server.client().await;
    let (room, _) = start(&mut human, "corner").await;
    human.place(&room, "h8", 1).await.expect("my stone");
    move_of(&mut human, Color::White).await;
    let pids = started_pids(dir.path());
    assert_eq!(pids.len(), 1);
    assert!(exists(pids[0]));
    human
        .request(ClientMessage::Leave { room: room.clone() })
        .await;
    let computer = server.state.computer.clone();
    until("the engine's game slot is free", || computer.games() == 0).await;
    until("its process is gone", || !exists(pids[0])).await;
}

#[tokio::test]
async fn an_engine_over_its_cpu_time_is_stopped_and_loses_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    // Thinks for ever without answering: a shell loop of builtins, no new process.
    let path = recorded(dir.path(), "spin", "while :; do :; done");
    let server = TestServer::start_real_time_fresh(Config {
        engines: vec![spec("spin", path)],
        // Time enough per move that the CPU limit, not the move time, stops it.
        engine_move_ms: 20_000,
        engine_cpu_secs: 1,
        ..test_config()
    })
    .await;
    let mut human = server.client().await;
    let (room, _) = start(&mut human, "spin").await;
    let begun = std::time::Instant::now();
    human.place(&room, "h8", 1).await.expect("my stone");
    let (_, said) = human
        .event_where(|e| matches!(e, RoomEvent::Chat { .. }))
        .await;
    let RoomEvent::Chat { text, .. } = &said else {
        unreachable!()
    };
    assert_eq!(
        text, "engine spin went over its CPU time limit (1 s): it loses the game",
        "{text}"
    );
    assert!(
        begun.elapsed() < std::time::Duration::from_secs(20),
        "stopped before its move time ran out"
    );
    let result = human.game_over().await;
    assert_eq!(
        (result.winner, result.reason.as_str()),
        (Some(Color::Black), "resign")
    );
    let pids = started_pids(dir.path());
    until("its process is gone", || pids.iter().all(|&p| !exists(p))).await;
}

/// The user the fork test runs its engine as: root is not held by `RLIMIT_NPROC`, so a test run as root gives
/// the engine the unprivileged `nobody` (whose directory it must then be able to read).
fn unprivileged_engine_user(dir: &Path) -> Option<(u32, u32)> {
    // SAFETY: geteuid only reads the process's credentials.
    let root = unsafe { libc::geteuid() } == 0;
    root.then(|| {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        (65534, 65534)
    })
}

#[tokio::test]
async fn an_engine_that_forks_beyond_the_process_cap_is_stopped_and_loses() {
    let dir = tempfile::tempdir().unwrap();
    let engine_user = unprivileged_engine_user(dir.path());
    // Starts a process before each answer, and says so (garbage) if it could.
    let path = recorded(
        dir.path(),
        "forker",
        "if /bin/true 2>/dev/null; then echo forked; else echo 0,0; fi",
    );
    let config = |processes| Config {
        engines: vec![spec("forker", path.clone())],
        engine_move_ms: 2_000,
        engine_max_processes: processes,
        engine_user,
        ..test_config()
    };
    let said = |server: TestServer| async move {
        let mut human = server.client().await;
        let (room, _) = start(&mut human, "forker").await;
        human.place(&room, "h8", 1).await.expect("my stone");
        let (_, said) = human
            .event_where(|e| matches!(e, RoomEvent::Chat { .. }))
            .await;
        let RoomEvent::Chat { text, .. } = said else {
            unreachable!()
        };
        let result = human.game_over().await;
        assert_eq!(
            (result.winner, result.reason.as_str()),
            (Some(Color::Black), "resign")
        );
        text
    };
    // At a cap of one process (the engine itself) its fork fails, and the shell it is written in stops.
    let text = said(TestServer::start_real_time_fresh(config(1)).await).await;
    assert_eq!(text, "engine forker stopped running: it loses the game");
    // With room for more, the same engine forks (and loses for saying so): the cap is what stopped it.
    let text = said(TestServer::start_real_time_fresh(config(1_000_000)).await).await;
    assert!(text.contains("answered garbage: \"forked\""), "{text}");
}
