//! External engines (`--engine NAME=PATH`, repeatable): a Gomocup brain in a process of its own, spoken to over
//! the Piskvork protocol on its stdin and stdout, seated as a computer player.
//!
//! Each game gets its own process (started on the engine's first move, killed when the game's player ends or the
//! position changes under a move it is thinking about: the next move starts a fresh one). Before each move the
//! whole position goes over as `BOARD … DONE` (stones 1 own, 2 the opponent's), so a takeback needs nothing of the
//! engine. It gets `INFO timeout_turn` and must answer `x,y` within it (and a second of grace); its memory is
//! capped with `setrlimit(RLIMIT_AS)` in the child where the OS has it (`INFO max_memory` tells it too). An engine
//! that does not start, answers garbage, plays an illegal move, stays silent or dies loses the game: the computer
//! says why in the room's chat and resigns; the server and the room go on. External engines play freestyle,
//! standard and renju without an opening rule (the Piskvork protocol has no swap or fifth-move options).

use std::fmt;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use engine::piskvork;
use rules::{Action, Game, RuleSet};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long an engine may take to answer `START`.
const START_WAIT: Duration = Duration::from_secs(5);
/// Grace beyond `timeout_turn` before a silent engine loses.
const GRACE: Duration = Duration::from_secs(1);
/// The longest line an engine may send.
const MAX_LINE: usize = 4096;

/// A configured external engine: `NAME=PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its name (1–13 lower-case letters, digits, `_` or `-`): the `engine` of `play_computer`, and its account
    /// `engine-NAME`.
    pub name: String,
    /// The program to run (no arguments).
    pub path: PathBuf,
}

/// Reads `NAME=PATH` (a clap value parser).
pub fn parse_engine(s: &str) -> Result<EngineSpec, String> {
    let (name, path) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=PATH"))?;
    let name_ok = (1..=13).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if !name_ok {
        return Err(format!(
            "engine name `{name}`: 1 to 13 lower-case letters, digits, `_` or `-`"
        ));
    }
    if path.is_empty() {
        return Err(format!("engine `{name}` has no path"));
    }
    Ok(EngineSpec {
        name: name.to_owned(),
        path: PathBuf::from(path),
    })
}

/// Why an external engine lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The program could not be started.
    Spawn(String),
    /// It did not answer in time.
    Silent,
    /// It answered something that is not the protocol.
    Garbage(String),
    /// It played a move the rules refuse.
    Illegal(String),
    /// Its process ended.
    Died,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Spawn(e) => write!(f, "could not be started ({e})"),
            Failure::Silent => f.write_str("did not answer in time"),
            Failure::Garbage(line) => write!(f, "answered garbage: {line:?}"),
            Failure::Illegal(why) => write!(f, "played an illegal move ({why})"),
            Failure::Died => f.write_str("stopped running"),
        }
    }
}

/// What a game's engine process is told once.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// The board's side.
    pub size: u8,
    /// The rule set.
    pub rule_set: RuleSet,
    /// The memory cap, in bytes.
    pub max_memory: u64,
}

/// One engine process.
pub struct Piskvork {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Piskvork {
    /// Starts the engine and says `START`, then the game's `INFO`.
    pub async fn start(spec: &EngineSpec, setup: Setup) -> Result<Piskvork, Failure> {
        let mut command = Command::new(&spec.path);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        cap_memory(&mut command, setup.max_memory);
        let mut child = command.spawn().map_err(|e| Failure::Spawn(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Failure::Spawn("no pipes".into()));
        };
        let mut engine = Piskvork {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
        };
        engine.say(&format!("START {}", setup.size)).await?;
        let answer = engine.answer(START_WAIT).await?;
        if answer != "OK" {
            return Err(Failure::Garbage(answer));
        }
        engine
            .say(&format!(
                "INFO rule {}",
                piskvork::rule_code(setup.rule_set)
            ))
            .await?;
        engine
            .say(&format!("INFO max_memory {}", setup.max_memory))
            .await?;
        engine.say("INFO timeout_match 0").await?;
        Ok(engine)
    }

    /// The engine's stone for the side to act in `game` (a game without an opening rule), within `turn`.
    pub async fn best(&mut self, game: &Game, turn: Duration) -> Result<Action, Failure> {
        let rules::Status::Ongoing { to_act, .. } = game.status() else {
            return Err(Failure::Illegal("the game is over".into()));
        };
        self.say(&format!("INFO timeout_turn {}", turn.as_millis()))
            .await?;
        self.say(&piskvork::board_command(game, to_act)).await?;
        let line = self.answer(turn + GRACE).await?;
        let point = piskvork::parse_move(&line).ok_or_else(|| Failure::Garbage(line.clone()))?;
        let action = Action::Place { point };
        game.check(action)
            .map_err(|e| Failure::Illegal(format!("{point}: {e}")))?;
        Ok(action)
    }

    async fn say(&mut self, text: &str) -> Result<(), Failure> {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .await
            .map_err(|_| Failure::Died)?;
        self.stdin.flush().await.map_err(|_| Failure::Died)
    }

    /// The next line that is not `MESSAGE`, `DEBUG` or empty, within `wait`.
    async fn answer(&mut self, wait: Duration) -> Result<String, Failure> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let line = tokio::time::timeout_at(deadline, self.lines.next_line())
                .await
                .map_err(|_| Failure::Silent)?
                .map_err(|e| Failure::Garbage(e.to_string()))?
                .ok_or(Failure::Died)?;
            let line = line.trim();
            if line.len() > MAX_LINE {
                return Err(Failure::Garbage(line[..64].to_owned()));
            }
            if piskvork::is_chatter(line) {
                continue;
            }
            return Ok(line.to_owned());
        }
    }

    /// Ends the process (it is killed when dropped, too).
    pub async fn stop(mut self) {
        let _ = self.say("END").await;
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }
}

/// Caps the child's address space (Linux and other Unixes), so an engine cannot take the server's memory.
#[cfg(unix)]
fn cap_memory(command: &mut Command, bytes: u64) {
    // SAFETY: the closure runs in the child between fork and exec and calls only setrlimit, a plain system call
    // that allocates nothing and takes no lock.
    unsafe {
        command.pre_exec(move || rlimit::setrlimit(rlimit::Resource::AS, bytes, bytes));
    }
}

#[cfg(not(unix))]
fn cap_memory(_command: &mut Command, _bytes: u64) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_is_name_equals_path() {
        let spec = parse_engine("pbrain=/usr/local/bin/pbrain-gomoku").unwrap();
        assert_eq!(spec.name, "pbrain");
        assert_eq!(spec.path, PathBuf::from("/usr/local/bin/pbrain-gomoku"));
        for bad in ["pbrain", "=x", "Big=x", "a b=x", "fourteen-chars=x", "ok="] {
            assert!(parse_engine(bad).is_err(), "{bad}");
        }
        assert!(parse_engine("thirteen-char=x").is_ok());
    }
}
