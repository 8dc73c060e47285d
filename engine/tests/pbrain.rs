//! The `pbrain-gomoku` binary driven as a child process over stdin and stdout, as a Gomocup manager would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    fn start(level: u8) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-gomoku"))
            .args(["--level", &level.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the brain starts");
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
        Brain {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no answer to {line:?}"))
    }

    fn silent(&self) -> bool {
        self.lines.recv_timeout(Duration::from_millis(200)).is_err()
    }
}

fn coords(answer: &str) -> (u8, u8) {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("{answer:?} is a move"));
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn a_game_starts_and_the_brain_answers_moves() {
    let mut b = Brain::start(2);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO timeout_turn 1000");
    b.send("INFO rule 1");
    assert!(b.silent(), "INFO has no answer");
    let first = coords(&b.ask("BEGIN"));
    assert_eq!(first, (7, 7), "the first stone goes to the centre");
    let reply = coords(&b.ask("TURN 8,8"));
    assert!(reply != (7, 7) && reply != (8, 8));
    assert!(b.ask("ABOUT").starts_with("name="));
    b.send("END");
    assert!(b.child.wait().unwrap().success());
}

#[test]
fn the_brain_blocks_a_four_given_by_board() {
    let mut b = Brain::start(8);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO timeout_turn 2000");
    b.send("BOARD");
    for stone in [
        "5,5,2", "0,0,1", "6,5,2", "0,14,1", "7,5,2", "14,0,1", "8,5,2", "14,14,1",
    ] {
        b.send(stone);
    }
    let answer = coords(&b.ask("DONE"));
    assert!(
        answer == (4, 5) || answer == (9, 5),
        "{answer:?} blocks the four"
    );
    b.send("END");
}

#[test]
fn takeback_restart_and_renju_rules_are_understood() {
    let mut b = Brain::start(1);
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO rule 4");
    let (x, y) = coords(&b.ask("TURN 7,7"));
    assert_eq!(b.ask(&format!("TAKEBACK {x},{y}")), "OK");
    assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
    assert!(
        b.ask("TAKEBACK 7,7").starts_with("ERROR"),
        "nothing left to take back"
    );
    coords(&b.ask("BEGIN"));
    assert_eq!(b.ask("RESTART"), "OK");
    coords(&b.ask("BEGIN"));
    b.send("END");
    assert!(b.child.wait().unwrap().success());
}

#[test]
fn malformed_lines_get_an_error_and_the_brain_stays_up() {
    let mut b = Brain::start(1);
    assert!(b.ask("BEGIN").starts_with("ERROR"), "BEGIN before START");
    assert!(
        b.ask("START 20").starts_with("ERROR"),
        "20x20 is not offered"
    );
    assert!(b.ask("START fifteen").starts_with("ERROR"));
    assert!(b.ask("RECTSTART 15,19").starts_with("ERROR"));
    assert!(
        b.ask("RECTSTART 271,271").starts_with("ERROR"),
        "no wrap-around to 15"
    );
    assert_eq!(b.ask("RECTSTART 15,15"), "OK");
    assert!(b.ask("TURN 99,3").starts_with("ERROR"));
    assert!(b.ask("TURN seven").starts_with("ERROR"));
    assert!(b.ask("INFO timeout_turn soon").starts_with("ERROR"));
    assert!(b.ask("FROBNICATE").starts_with("UNKNOWN"));
    b.send("BOARD");
    assert!(b.ask("1,2,7").starts_with("ERROR"));
    assert!(b.ask("nonsense").starts_with("ERROR"));
    let answer = coords(&b.ask("DONE"));
    assert_eq!(answer, (7, 7));
    assert!(b.ask("TURN 7,7").starts_with("ERROR"), "occupied");
    coords(&b.ask("TURN 8,8"));
    b.send("END");
    assert!(b.child.wait().unwrap().success());
}
