//! External engines (`--engine NAME=PATH`, repeatable): a Gomocup brain in a process of its own, spoken to over
//! the Piskvork protocol on its stdin and stdout, seated as a computer player.
//!
//! Each game gets its own process (started on the engine's first move; killed and reaped when the game's player
//! ends, which it does once its person has left, or when the position changes under a move it is thinking about:
//! the next move starts a fresh one). Before each move the whole position goes over as `BOARD … DONE` (stones 1
//! own, 2 the opponent's), so a takeback needs nothing of the engine. It gets `INFO timeout_turn` and must answer
//! `x,y` within it (and a second of grace). The process runs under limits the server sets in the child before
//! `exec` ([`ProcessLimits`]: `setrlimit` of its address space, CPU time, processes of its user and core dumps,
//! and optionally another user); `INFO max_memory` tells it its memory. An engine that does not start, answers
//! garbage, plays an illegal move, stays silent, dies or goes over its CPU time loses the game: the computer says
//! why in the room's chat and resigns; the server and the room go on. External engines play freestyle, standard
//! and renju without an opening rule (the Piskvork protocol has no swap or fifth-move options).

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
    /// Its process ended (of itself, or for want of memory: an allocation over the cap fails, and the engine
    /// exits or crashes as it handles that).
    Died,
    /// Its process went over its CPU time (`RLIMIT_CPU`, seconds) and the system stopped it.
    OverCpu(u64),
    /// A signal ended its process (not one the server sent).
    Killed(i32),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Spawn(e) => write!(f, "could not be started ({e})"),
            Failure::Silent => f.write_str("did not answer in time"),
            Failure::Garbage(line) => write!(f, "answered garbage: {line:?}"),
            Failure::Illegal(why) => write!(f, "played an illegal move ({why})"),
            Failure::Died => f.write_str("stopped running"),
            Failure::OverCpu(secs) => write!(f, "went over its CPU time limit ({secs} s)"),
            Failure::Killed(signal) => write!(f, "was stopped by signal {signal}"),
        }
    }
}

/// The limits an engine's process runs under, set in the child before `exec` (`--engine-memory-mib`,
/// `--engine-cpu-secs`, `--engine-max-processes`, `--engine-user`). Each is lowered to the server's own hard limit
/// when that is lower (an unprivileged server cannot raise it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessLimits {
    /// Address space, in bytes (`RLIMIT_AS`): an allocation beyond it fails.
    pub memory: u64,
    /// CPU time, in seconds, over the process's life (a game, or until a takeback restarts it): at the limit the
    /// system sends `SIGXCPU`, a second later `SIGKILL` (`RLIMIT_CPU`).
    pub cpu_secs: u64,
    /// Processes and threads of the engine's user, all together, beyond which the engine cannot start another
    /// (`RLIMIT_NPROC`: the kernel counts every process of the user, the server's own threads too when they share
    /// it, and does not apply it to root; see `user`).
    pub processes: u64,
    /// The user and group to run the engine as (the server must be root to give one); `None`: the server's.
    pub user: Option<(u32, u32)>,
}

/// What a game's engine process is told once, and what it runs under.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// The board's side.
    pub size: u8,
    /// The rule set.
    pub rule_set: RuleSet,
    /// The process's limits.
    pub limits: ProcessLimits,
}

/// Reads `UID` or `UID:GID` (a clap value parser; the group is the user's number when not given).
pub fn parse_user(s: &str) -> Result<(u32, u32), String> {
    let number = |n: &str| {
        n.parse::<u32>()
            .map_err(|_| format!("`{s}` is not UID or UID:GID (numbers)"))
    };
    match s.split_once(':') {
        Some((uid, gid)) => Ok((number(uid)?, number(gid)?)),
        None => number(s).map(|uid| (uid, uid)),
    }
}

/// One engine process.
pub struct Piskvork {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    cpu_secs: u64,
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
        limit(&mut command, &setup.limits);
        let mut child = command.spawn().map_err(|e| Failure::Spawn(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Failure::Spawn("no pipes".into()));
        };
        let mut engine = Piskvork {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            cpu_secs: setup.limits.cpu_secs,
        };
        match engine.start_game(setup).await {
            Ok(()) => Ok(engine),
            Err(e) => {
                let failure = engine.fail(e).await;
                engine.stop().await;
                Err(failure)
            }
        }
    }

    /// Says `START` and the game's `INFO`.
    async fn start_game(&mut self, setup: Setup) -> Result<(), Failure> {
        self.say(&format!("START {}", setup.size)).await?;
        let answer = self.answer(START_WAIT).await?;
        if answer != "OK" {
            return Err(Failure::Garbage(answer));
        }
        self.say(&format!(
            "INFO rule {}",
            piskvork::rule_code(setup.rule_set)
        ))
        .await?;
        self.say(&format!("INFO max_memory {}", setup.limits.memory))
            .await?;
        self.say("INFO timeout_match 0").await
    }

    /// A failure as the engine's end explains it: a process that is gone says how it ended (its CPU time, a
    /// signal), once the system has told (within a second).
    async fn fail(&mut self, failure: Failure) -> Failure {
        if failure != Failure::Died {
            return failure;
        }
        match tokio::time::timeout(GRACE, self.child.wait()).await {
            Ok(Ok(status)) => ended_by(status, self.cpu_secs),
            _ => failure,
        }
    }

    /// The engine's stone for the side to act in `game` (a game without an opening rule), within `turn`.
    pub async fn best(&mut self, game: &Game, turn: Duration) -> Result<Action, Failure> {
        match self.think(game, turn).await {
            Ok(action) => Ok(action),
            Err(e) => Err(self.fail(e).await),
        }
    }

    async fn think(&mut self, game: &Game, turn: Duration) -> Result<Action, Failure> {
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

    /// Ends the process: killed, then reaped (waited for), so nothing of it is left. (Dropped, it is killed too,
    /// and reaped by the runtime in the background.)
    pub async fn stop(mut self) {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }
}

/// Why a process that ended did: `SIGXCPU` is its CPU time; another signal is named.
#[cfg(unix)]
fn ended_by(status: std::process::ExitStatus, cpu_secs: u64) -> Failure {
    use std::os::unix::process::ExitStatusExt;
    match status.signal() {
        Some(libc::SIGXCPU) => Failure::OverCpu(cpu_secs),
        Some(signal) => Failure::Killed(signal),
        None => Failure::Died,
    }
}

#[cfg(not(unix))]
fn ended_by(_status: std::process::ExitStatus, _cpu_secs: u64) -> Failure {
    Failure::Died
}

/// The `(soft, hard)` limit of `resource` to set in an engine's process: `wanted`, or the server's own hard
/// limit when that is lower (only root may raise a hard limit). The CPU time's hard limit is a second above
/// the soft one: `SIGXCPU` first, `SIGKILL` for an engine that ignores it.
#[cfg(unix)]
fn bounded(resource: rlimit::Resource, wanted: u64, hard_extra: u64) -> (u64, u64) {
    let hard_now = resource.get().map_or(rlimit::INFINITY, |(_, hard)| hard);
    let soft = wanted.min(hard_now);
    (soft, soft.saturating_add(hard_extra).min(hard_now))
}

/// Runs the engine under `limits` (Linux and other Unixes): its address space, CPU time, its user's processes and
/// no core files, and as another user when one is given, so that an engine cannot take the server's memory, CPU
/// or process table.
#[cfg(unix)]
fn limit(command: &mut Command, limits: &ProcessLimits) {
    use rlimit::Resource;
    if let Some((uid, gid)) = limits.user {
        command.uid(uid).gid(gid);
    }
    let set = [
        (Resource::AS, bounded(Resource::AS, limits.memory, 0)),
        (Resource::CPU, bounded(Resource::CPU, limits.cpu_secs, 1)),
        (
            Resource::NPROC,
            bounded(Resource::NPROC, limits.processes, 0),
        ),
        (Resource::CORE, (0, 0)),
    ];
    // SAFETY: the closure runs in the child between fork and exec and calls only setrlimit, a plain system call
    // that allocates nothing and takes no lock (the values were worked out before the fork).
    unsafe {
        command.pre_exec(move || {
            for (resource, (soft, hard)) in set {
                rlimit::setrlimit(resource, soft, hard)?;
            }
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn limit(_command: &mut Command, _limits: &ProcessLimits) {}

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

    #[test]
    fn an_engine_user_is_a_uid_and_perhaps_a_gid() {
        assert_eq!(parse_user("65534"), Ok((65534, 65534)));
        assert_eq!(parse_user("1000:100"), Ok((1000, 100)));
        for bad in ["", "nobody", "1:", ":1", "1:2:3", "-1"] {
            assert!(parse_user(bad).is_err(), "{bad}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_limit_is_never_above_the_servers_own_hard_limit() {
        use rlimit::Resource;
        let (_, hard) = Resource::NOFILE.get().unwrap();
        assert_eq!(bounded(Resource::NOFILE, u64::MAX, 0), (hard, hard));
        assert_eq!(bounded(Resource::NOFILE, 10, 0), (10, 10));
        let (soft, hard) = bounded(Resource::CPU, 5, 1);
        assert_eq!(soft, 5.min(hard));
        assert!(hard >= soft && hard <= 6);
    }
}
