//! The shape of a run: how many games, spectators and workers, the think time, and the timeline every process
//! of the run follows (connect, hold idle, open rooms, hold, play, drain).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use protocol::{DraughtsVariant, GameSpec, OthelloScoring, RulesSpec};
use rules::{ForbiddenPolicy, Opening, RuleSet};
use serde::{Deserialize, Serialize};

/// The flags of a run (`run`, `echo`, and the workers they start).
#[derive(Args, Clone, Debug, Serialize, Deserialize)]
pub struct RunArgs {
    /// The server's WebSocket URL (loopback only).
    #[arg(long, default_value = "ws://127.0.0.1:8080/ws")]
    pub url: String,
    /// Concurrent games (two player connections each).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Spectator connections per game.
    #[arg(long, default_value_t = 0)]
    pub spectators: usize,
    /// Think time before each move, in milliseconds (each game then plays one move per think time).
    #[arg(long, default_value_t = 2000)]
    pub think_ms: u64,
    /// Seconds over which connections are opened.
    #[arg(long, default_value_t = 5.0)]
    pub ramp_secs: f64,
    /// Seconds over which rooms are created and joined, after the connections are open.
    #[arg(long, default_value_t = 5.0)]
    pub room_ramp_secs: f64,
    /// Seconds to hold still after each ramp (the memory samples are taken at its end).
    #[arg(long, default_value_t = 2.0)]
    pub hold_secs: f64,
    /// Seconds of play.
    #[arg(long, default_value_t = 30.0)]
    pub duration_secs: f64,
    /// Seconds to wait for in-flight replies after play stops.
    #[arg(long, default_value_t = 2.0)]
    pub drain_secs: f64,
    /// Rule set of the rooms: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    pub rule_set: String,
    /// The game of the rooms: gomoku (with `--rule-set`), othello or draughts.
    #[arg(long, default_value = "gomoku")]
    #[serde(default = "default_game")]
    pub game: String,
    /// Worker processes to spread the games over (each holds at most ~19,000 sockets: the open-file limit).
    #[arg(long, default_value_t = 1)]
    pub workers: usize,
    /// Loopback source addresses to spread connections over (127.0.0.1, .2, …); 0 picks one per 400 connections,
    /// under the server's default per-address limit.
    #[arg(long, default_value_t = 0)]
    pub source_ips: usize,
    /// After a game ends, both players ask for a rematch so the load stays steady.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub rematch: bool,
    /// Reconnect (hello with the token, join with the last version) when the connection drops.
    #[arg(long, default_value_t = false)]
    pub reconnect: bool,
    /// Seed of the move choices and jitter.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// After the run, check through `GET /api/games/{id}` that every acknowledged stone is stored in order.
    #[arg(long, default_value_t = false)]
    pub verify: bool,
    /// Check the stored games by opening this database instead of asking the server (implies `--verify`).
    #[arg(long)]
    pub verify_db: Option<String>,
}

fn default_game() -> String {
    "gomoku".into()
}

impl RunArgs {
    /// Connections of the whole run.
    pub fn connections(&self) -> usize {
        self.games * (2 + self.spectators)
    }

    /// The rules every room plays.
    pub fn rules(&self) -> anyhow::Result<RulesSpec> {
        let rule_set = match self.rule_set.as_str() {
            "freestyle" => RuleSet::Freestyle,
            "standard" => RuleSet::Standard,
            "renju" => RuleSet::Renju,
            other => anyhow::bail!("unknown rule set {other}"),
        };
        Ok(RulesSpec {
            size: 15,
            rule_set,
            forbidden_policy: ForbiddenPolicy::Reject,
            opening: Opening::None,
        })
    }

    /// The game of every room when it is not Gomoku (`None`: Gomoku under [`RunArgs::rules`]).
    pub fn game(&self) -> anyhow::Result<Option<GameSpec>> {
        match self.game.as_str() {
            "gomoku" => Ok(None),
            "othello" => Ok(Some(GameSpec::Othello {
                scoring: OthelloScoring::Japanese,
            })),
            "draughts" => Ok(Some(GameSpec::Draughts {
                variant: DraughtsVariant::International,
            })),
            other => anyhow::bail!("unknown game {other} (gomoku, othello or draughts)"),
        }
    }

    /// Source addresses to spread over.
    pub fn spread(&self) -> usize {
        if self.source_ips > 0 {
            self.source_ips
        } else {
            self.connections().div_ceil(400).clamp(1, 250)
        }
    }

    /// The timeline, starting at `start`.
    pub fn timeline(&self, start: Instant) -> Timeline {
        let secs = Duration::from_secs_f64;
        let connected = start + secs(self.ramp_secs + self.hold_secs);
        let seated = connected + secs(self.room_ramp_secs + self.hold_secs);
        let end = seated + secs(self.duration_secs);
        Timeline {
            start,
            ramp: secs(self.ramp_secs),
            connected,
            room_ramp: secs(self.room_ramp_secs),
            seated,
            end,
            closed: end + secs(self.drain_secs),
        }
    }
}

/// When things happen in a run. Every worker process derives it from the same wall-clock start.
#[derive(Clone, Copy, Debug)]
pub struct Timeline {
    /// Connections start opening.
    pub start: Instant,
    /// Connections open over this long.
    pub ramp: Duration,
    /// All connections should be open and idle: the idle memory sample, then rooms start opening.
    pub connected: Instant,
    /// Rooms open over this long.
    pub room_ramp: Duration,
    /// All rooms should be seated: the room memory sample, then play starts.
    pub seated: Instant,
    /// Play stops.
    pub end: Instant,
    /// Connections close.
    pub closed: Instant,
}

impl Timeline {
    /// When game `g` of `games` opens its connections.
    pub fn connect_at(&self, g: usize, games: usize) -> Instant {
        self.start + self.ramp.mul_f64(g as f64 / games.max(1) as f64)
    }

    /// When game `g` of `games` opens its room.
    pub fn room_at(&self, g: usize, games: usize) -> Instant {
        self.connected + self.room_ramp.mul_f64(g as f64 / games.max(1) as f64)
    }
}

/// Milliseconds since the Unix epoch now.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The local `Instant` of a wall-clock time in Unix milliseconds (so worker processes share one timeline).
pub fn instant_of(unix: u64) -> Instant {
    let now = unix_ms();
    let now_i = Instant::now();
    if unix >= now {
        now_i + Duration::from_millis(unix - now)
    } else {
        now_i - Duration::from_millis(now - unix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    #[test]
    fn the_timeline_follows_the_flags() {
        let cli = Cli::parse_from([
            "x",
            "--ramp-secs",
            "10",
            "--room-ramp-secs",
            "4",
            "--hold-secs",
            "1",
            "--duration-secs",
            "20",
        ]);
        let t0 = Instant::now();
        let t = cli.run.timeline(t0);
        assert_eq!(t.connected - t0, Duration::from_secs(11));
        assert_eq!(t.seated - t0, Duration::from_secs(16));
        assert_eq!(t.end - t0, Duration::from_secs(36));
        assert_eq!(t.connect_at(50, 100) - t0, Duration::from_secs(5));
        assert_eq!(t.room_at(1, 4) - t.connected, Duration::from_secs(1));
    }

    #[test]
    fn source_addresses_keep_under_the_per_address_limit() {
        let cli = Cli::parse_from(["x", "--games", "9500"]);
        assert_eq!(cli.run.connections(), 19_000);
        assert_eq!(cli.run.spread(), 48);
        let json = serde_json::to_string(&cli.run).unwrap();
        let back: RunArgs = serde_json::from_str(&json).unwrap();
        assert_eq!(back.games, 9500);
    }
}
