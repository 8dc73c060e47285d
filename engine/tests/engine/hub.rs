//! The Hub protocol (Scan's) for draughts: the `hub-draughts` binary spoken to as a GUI speaks to it, and the
//! `draughts-match` harness driving it as an outside engine (and a broken engine losing by its own fault).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use engine::hub::{parse_line, parse_move};
use rules::draughts::Game;
use serde_json::Value;

/// Far beyond any answer here, even on a loaded machine: a hung engine fails the test instead of hanging it.
const PATIENCE: Duration = Duration::from_secs(120);

struct HubProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl HubProcess {
    fn start(args: &[&str]) -> HubProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hub-draughts"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("hub-draughts starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        HubProcess {
            child,
            stdin,
            lines,
        }
    }

    fn say(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first whose command is `command`.
    fn until(&self, command: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no {command} after {seen:?}"));
            let is = parse_line(&line).is_some_and(|l| l.command == command);
            seen.push(line);
            if is {
                return seen;
            }
        }
    }
}

impl Drop for HubProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_engine_declares_itself_initialises_and_answers_a_legal_move_for_a_position_and_moves() {
    let mut hub = HubProcess::start(&["hub", "--level", "2"]);
    hub.say("hub");
    let hello = hub.until("wait");
    assert!(hello[0].starts_with("id name="), "{hello:?}");
    assert!(hello.iter().any(|l| l.starts_with("param name=variant")));
    hub.say("set-param name=level value=3");
    hub.say("init");
    hub.until("ready");
    hub.say("new-game");
    hub.say("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"");
    hub.say("level move-time=0.2");
    hub.say("go think");
    let answer = hub.until("done");
    let done = parse_line(answer.last().unwrap()).unwrap();
    // The capture 28x19 is forced (taking the man on 23).
    assert_eq!(done.get("move"), Some("28x19x23"), "{answer:?}");
    let mut game = Game::new();
    for m in ["32-28", "19-23"] {
        let mv = parse_move(game.position(), m).unwrap();
        game.play(&mv).unwrap();
    }
    let mv = parse_move(game.position(), done.get("move").unwrap()).unwrap();
    game.play(&mv).unwrap();
    if let Some(reply) = done.get("ponder") {
        assert!(parse_move(game.position(), reply).is_ok(), "{answer:?}");
    }
    // A bad position is an error line, and the engine goes on.
    hub.say("pos pos=Wxyz");
    assert!(hub.until("error")[0].starts_with("error message="));
    hub.say("ping");
    hub.until("pong");
    hub.say("quit");
    let status = hub.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn stop_and_ping_reach_a_search_in_progress() {
    let mut hub = HubProcess::start(&["--level", "8"]);
    hub.say("hub");
    hub.until("wait");
    hub.say("init");
    hub.until("ready");
    hub.say("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    // Level 8's own cap is 8 s; the engine is told it may take all of it.
    hub.say("level infinite");
    hub.say("go analyze");
    hub.say("ping");
    let pong = hub.until("pong");
    assert!(
        pong.iter().all(|l| !l.starts_with("done")),
        "pong came during the search: {pong:?}"
    );
    hub.say("stop");
    let answer = hub.until("done");
    let done = parse_line(answer.last().unwrap()).unwrap();
    let game = Game::new();
    assert!(parse_move(game.position(), done.get("move").unwrap()).is_ok());
}

fn harness(args: &[&str]) -> (Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_draughts-match"))
        .args(args)
        .output()
        .expect("draughts-match runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    let v: Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim())
        .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", out.stdout));
    (v, stderr)
}

fn n(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}"))
}

#[test]
fn the_harness_plays_our_hub_binary_as_an_outside_engine_to_the_end_of_each_game() {
    let player = format!("cmd:{} hub --level 1", env!("CARGO_BIN_EXE_hub-draughts"));
    let (v, stderr) = harness(&["2", &player, "2", "50", "3", "--ms", "50", "--json"]);
    assert_eq!(n(&v, "games"), 2, "{v}");
    assert_eq!(n(&v, "wins") + n(&v, "losses") + n(&v, "draws"), 2, "{v}");
    for k in ["timeouts_a", "timeouts_b", "illegal_a", "illegal_b"] {
        assert_eq!(n(&v, k), 0, "{k}: {v} {stderr}");
    }
    // Every game went to its end by the rules, none to the harness's cap.
    assert_eq!(n(&v, "capped"), 0, "{v}");
    assert!(n(&v, "plies") > 2 * 2, "{v}");
}

/// A `/bin/sh` Hub engine in a temporary folder of its own, removed when dropped.
struct Script {
    dir: PathBuf,
    player: String,
}

impl Script {
    fn new(name: &str, body: &str) -> Script {
        let dir = std::env::temp_dir().join(format!("hub-harness-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.sh"));
        std::fs::write(&path, body).unwrap();
        Script {
            player: format!("cmd:sh {}", path.display()),
            dir,
        }
    }
}

impl Drop for Script {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn an_outside_engine_that_plays_an_illegal_move_or_falls_silent_loses_by_its_own_fault() {
    // Says the handshake, then always the same quiet move: legal for White at the start only.
    let illegal = Script::new(
        "illegal",
        "while read line; do case \"$line\" in hub) echo 'id name=bad'; echo wait;; init) echo ready;; go*) echo 'done move=1-2';; esac; done\n",
    );
    let (v, stderr) = harness(&["1", &illegal.player, "2", "50", "1", "--ms", "50", "--json"]);
    assert_eq!((n(&v, "wins"), n(&v, "illegal_b")), (2, 2), "{v} {stderr}");
    assert!(stderr.contains("illegal"), "{stderr}");
    // Never answers `go`.
    let silent = Script::new(
        "silent",
        "while read line; do case \"$line\" in hub) echo wait;; init) echo ready;; esac; done\n",
    );
    let (v, stderr) = harness(&["1", &silent.player, "2", "50", "1", "--ms", "50", "--json"]);
    assert_eq!((n(&v, "wins"), n(&v, "timeouts_b")), (2, 2), "{v} {stderr}");
}
