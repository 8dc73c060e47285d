//! The manager's side of the Hub protocol, synchronous: one outside Hub engine process per game.
//!
//! The process is started at its first move and told `hub`; it declares itself (`id`, `param` lines, read past)
//! and says `wait`; it is told `init` and must say `ready`, within [`START_WAIT`] in all. For each move it gets
//! the game from its start (`pos pos=START moves="…"`, every move, so that it sees repetitions and the draw
//! counters), `level move-time=SECONDS` and `go think`; `info` lines are read past, and the answer must be
//! `done move=…` within the move time and a second of grace, a move the rules accept. At the end of the game it
//! gets `quit` and is killed.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use engine::hub;
use rules::draughts::{Game, Move};

/// How long an engine may take from `hub` to `ready` (it may load tables).
const START_WAIT: Duration = Duration::from_secs(10);
/// Grace beyond the move time before a silent engine loses.
const GRACE: Duration = Duration::from_secs(1);

/// Why an outside engine lost on its own account rather than on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It did not answer in time.
    Silent,
    /// It answered something that is not a move, or an `error`.
    Garbage(String),
    /// Its move is one the rules refuse.
    Illegal(String),
    /// Its process could not start or stopped running.
    Died(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Silent => f.write_str("did not answer in time"),
            Failure::Garbage(line) => write!(f, "answered garbage: {line:?}"),
            Failure::Illegal(why) => write!(f, "played an illegal move ({why})"),
            Failure::Died(why) => write!(f, "stopped running ({why})"),
        }
    }
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

/// Starts `words` and stops it straight away: whether the command runs at all, checked once before a match.
pub fn probe(words: &[String]) -> Result<(), String> {
    let mut child = spawn(words).map_err(|e| e.to_string())?;
    let _ = child.kill();
    let _ = child.wait();
    Ok(())
}

/// An outside Hub engine seated in one game.
pub struct HubEngine {
    words: Vec<String>,
    move_time: Duration,
    process: Option<Process>,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl HubEngine {
    /// An engine for one game, given `move_time` a move.
    pub fn new(words: Vec<String>, move_time: Duration) -> HubEngine {
        HubEngine {
            words,
            move_time,
            process: None,
        }
    }

    /// The engine's move in `game`, one the rules accept.
    pub fn act(&mut self, game: &Game) -> Result<Move, Failure> {
        let process = match &mut self.process {
            Some(p) => p,
            None => self.process.insert(Process::start(&self.words)?),
        };
        process.ask(game, self.move_time)
    }
}

impl Process {
    fn start(words: &[String]) -> Result<Process, Failure> {
        let mut child = spawn(words).map_err(|e| Failure::Died(format!("could not start: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Failure::Died("no pipes".into()));
        };
        let (tx, lines) = sync_channel(64);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
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
        let deadline = Instant::now() + START_WAIT;
        process.say("hub")?;
        process.until("wait", deadline)?;
        process.say("init")?;
        process.until("ready", deadline)?;
        Ok(process)
    }

    fn ask(&mut self, game: &Game, move_time: Duration) -> Result<Move, Failure> {
        let moves: Vec<String> = game.moves().iter().map(hub::move_text).collect();
        self.say(&format!(
            "pos pos={} moves={}",
            hub::position_text(game.start()),
            hub::quote(&moves.join(" "))
        ))?;
        self.say(&format!("level move-time={:.3}", move_time.as_secs_f64()))?;
        self.say("go think")?;
        let done = self.until("done", Instant::now() + move_time + GRACE)?;
        let text = done
            .get("move")
            .ok_or_else(|| Failure::Garbage("done without move=".into()))?;
        hub::parse_move(game.position(), text).map_err(Failure::Illegal)
    }

    fn say(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{text}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::Died(format!("cannot be written to: {e}")))
    }

    /// Reads lines until one whose command is `command` (`info`, `id`, `param`, `pong` and unknown lines are
    /// read past; `error` is garbage), by `deadline`.
    fn until(&mut self, command: &str, deadline: Instant) -> Result<hub::Line, Failure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(text) => {
                    let Some(line) = hub::parse_line(&text) else {
                        continue;
                    };
                    if line.command == command {
                        return Ok(line);
                    }
                    if line.command == "error" {
                        return Err(Failure::Garbage(text));
                    }
                }
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
        let _ = self.say("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
