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
async fn an_engines_memory_is_capped_in_its_process() {
    let dir = tempfile::tempdir().unwrap();
    // The engine answers its address-space limit (in KiB), which is garbage and tells the cap: 512 MiB.
    let path = fake(dir.path(), "ulimit", "echo \"limit $(ulimit -v)\"");
    loses_with_a_reason("ulimit", path, "limit 524288").await;
}
