//! The manager's side of the Piskvork protocol, synchronous: one external brain process per game.
//!
//! The process starts at the brain's first move of the game and is told `START 15`, then `INFO rule`,
//! `INFO timeout_turn`, `INFO timeout_match 0` (no match clock) and `INFO max_memory` with the match's memory
//! (`--memory`, 256 MiB by default: with 0, "no limit", a brain may size its tables inside its first move). Each
//! move goes over as the whole position (`BOARD` … `DONE`, [`engine::piskvork::board_command`]); the answer must
//! be `x,y` within the turn's time and a second of grace. `MESSAGE` and `DEBUG` lines are read past; anything
//! else that is not a move (`ERROR`, `UNKNOWN`, noise) is garbage. At the end of the game the brain gets `END`
//! and is killed.
//!
//! A thread reads the brain's stdout into a small bounded channel, so that waiting has a deadline
//! (`recv_timeout`) and a brain that floods its output is held back by the pipe rather than by our memory.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use engine::piskvork;
use rules::{Action, Color, Game};

/// How long a brain may take to answer `START` (it may load tables).
const START_WAIT: Duration = Duration::from_secs(5);
/// Grace beyond `timeout_turn` before a silent brain loses.
const GRACE: Duration = Duration::from_secs(1);
/// The longest line a brain may send; a longer one is cut there (and is garbage).
const MAX_LINE: usize = 4096;

/// Why a player lost on its own account rather than on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It did not answer in time: counted as a timeout.
    Silent,
    /// It answered something that is not a move: counted as illegal.
    Garbage(String),
    /// Its move is one the rules refuse: counted as illegal.
    Illegal(String),
    /// Its process could not start or stopped running: counted as illegal.
    Died(String),
}

impl Failure {
    /// Whether the failure counts as a timeout (otherwise it counts as an illegal move).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Failure::Silent)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Silent => f.write_str("did not answer in time"),
            Failure::Garbage(line) => write!(f, "answered garbage: {line:?}"),
            Failure::Illegal(why) => write!(f, "played an illegal move ({why})"),
            Failure::Died(why) => write!(f, "stopped running ({why})"),
        }
    }
}

/// Starts `words` (a program and its arguments) and stops it straight away: whether the command can run at all,
/// checked once before a match rather than lost game by lost game.
pub fn probe(words: &[String]) -> Result<(), String> {
    let mut child = spawn(words).map_err(|e| e.to_string())?;
    let _ = child.kill();
    let _ = child.wait();
    Ok(())
}

fn spawn(words: &[String]) -> std::io::Result<Child> {
    let (program, args) = words
        .split_first()
        .ok_or_else(|| std::io::Error::other("an empty command line"))?;
    Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
}

/// An external brain seated in one game: its command line, and its process once the game has asked for a move.
pub struct Brain {
    words: Vec<String>,
    turn: Duration,
    /// Sent as `INFO max_memory`, in bytes.
    memory: u64,
    process: Option<Process>,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    /// A brain for one game, to be given `turn` per move and `memory` bytes.
    pub fn new(words: Vec<String>, turn: Duration, memory: u64) -> Brain {
        Brain {
            words,
            turn,
            memory,
            process: None,
        }
    }

    /// The brain's stone for the side to act in `game` (a game without an opening rule), checked by the rules.
    pub fn act(&mut self, game: &Game) -> Result<Action, Failure> {
        let rules::Status::Ongoing { to_act, .. } = game.status() else {
            return Err(Failure::Illegal("asked to move in a finished game".into()));
        };
        let process = match &mut self.process {
            Some(p) => p,
            None => self
                .process
                .insert(Process::start(&self.words, game, self.turn, self.memory)?),
        };
        process.ask(game, to_act, self.turn)
    }
}

impl Process {
    fn start(
        words: &[String],
        game: &Game,
        turn: Duration,
        memory: u64,
    ) -> Result<Process, Failure> {
        let mut child = spawn(words).map_err(|e| Failure::Died(format!("could not start: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Failure::Died("no pipes".into()));
        };
        let (tx, lines) = sync_channel(16);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_line(&mut reader) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut process = Process {
            child,
            stdin,
            lines,
        };
        let rules = game.rules();
        process.say(&format!("START {}", rules.size()))?;
        let answer = process.answer(START_WAIT)?;
        if answer != "OK" {
            return Err(Failure::Garbage(answer));
        }
        process.say(&format!(
            "INFO rule {}\nINFO timeout_turn {}\nINFO timeout_match 0\nINFO max_memory {memory}",
            piskvork::rule_code(rules.rule_set()),
            turn.as_millis()
        ))?;
        Ok(process)
    }

    fn ask(&mut self, game: &Game, own: Color, turn: Duration) -> Result<Action, Failure> {
        self.say(&piskvork::board_command(game, own))?;
        let line = self.answer(turn + GRACE)?;
        let point = piskvork::parse_move(&line).ok_or(Failure::Garbage(line))?;
        let action = Action::place(point);
        game.check(action)
            .map_err(|e| Failure::Illegal(format!("{},{}: {e}", point.x(), point.y())))?;
        Ok(action)
    }

    fn say(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{text}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::Died(format!("cannot be written to: {e}")))
    }

    /// The next line that is not chatter, within `wait`.
    fn answer(&mut self, wait: Duration) -> Result<String, Failure> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if piskvork::is_chatter(&line) => continue,
                Ok(line) => return Ok(line.trim().to_owned()),
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Silent),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Died("its output ended".into()))
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.say("END");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One line of at most [`MAX_LINE`] bytes (the rest of a longer one is skipped), without its line ending;
/// `None` at the end of the output or on a read error.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut buf)
        .ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() != Some(&b'\n') && buf.len() == MAX_LINE {
        // Skip to the end of the overlong line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            match reader
                .by_ref()
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut rest)
            {
                Ok(0) => break,
                Ok(_) if rest.last() == Some(&b'\n') => break,
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
    }
    let text = String::from_utf8_lossy(&buf);
    Some(text.trim_end_matches(['\n', '\r']).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_without_endings_and_cut_when_too_long() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("7,7\r\nMESSAGE hi\n{long}\nlast");
        let mut r = std::io::Cursor::new(text.into_bytes());
        assert_eq!(read_line(&mut r).as_deref(), Some("7,7"));
        assert_eq!(read_line(&mut r).as_deref(), Some("MESSAGE hi"));
        assert_eq!(read_line(&mut r).map(|l| l.len()), Some(MAX_LINE));
        assert_eq!(read_line(&mut r).as_deref(), Some("last"));
        assert_eq!(read_line(&mut r), None);
    }

    #[test]
    fn only_silence_counts_as_a_timeout() {
        assert!(Failure::Silent.is_timeout());
        for f in [
            Failure::Garbage("hello".into()),
            Failure::Illegal("7,7: occupied".into()),
            Failure::Died("exit".into()),
        ] {
            assert!(!f.is_timeout(), "{f}");
        }
    }
}
