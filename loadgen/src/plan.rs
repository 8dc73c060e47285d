//! The shape of a run: how many games, spectators and workers, the think time, and the timeline every process
//! of the run follows (connect, hold idle, open rooms, hold, play, drain).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use games::GameKind;
use protocol::{GameSpec, RulesSpec};
use rules::{ForbiddenPolicy, Opening, RuleSet};
use serde::{Deserialize, Serialize};

/// The flags of a run (`run`, `echo`, and the workers they start).
#[derive(Args, Clone, Debug, Serialize, Deserialize)]
pub struct RunArgs {
    /// The server's WebSocket URL (loopback only); several (repeated or comma separated) are the nodes of a
    /// cluster, over which the games' players and spectators are spread (`--cross-node`).
    #[arg(
        long = "url",
        value_delimiter = ',',
        default_value = "ws://127.0.0.1:8080/ws"
    )]
    pub urls: Vec<String>,
    /// With several `--url`s: the fraction of games whose two players connect to different nodes (the others
    /// have both on one node); default 0.5 with several URLs, 0 with one.
    #[arg(long, value_parser = parse_fraction)]
    #[serde(default)]
    pub cross_node: Option<f64>,
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
    /// The game of the rooms, by its name: gomoku (with `--rule-set`) or any other game of the list, in its default
    /// configuration.
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

/// Reads `--cross-node`: a fraction from 0 to 1.
pub fn parse_fraction(s: &str) -> Result<f64, String> {
    let f: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number (a fraction from 0 to 1)"))?;
    if (0.0..=1.0).contains(&f) {
        Ok(f)
    } else {
        Err(format!(
            "the cross-node fraction must be from 0 to 1, not {s}"
        ))
    }
}

/// Which node each client of a game connects to first: an index into the run's URLs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The creator's node (the room's owner while no node dies).
    pub creator: usize,
    /// The joiner's node.
    pub joiner: usize,
}

impl Placement {
    /// Whether the two players are on different nodes.
    pub fn cross(&self) -> bool {
        self.creator != self.joiner
    }
}

impl RunArgs {
    /// Connections of the whole run.
    pub fn connections(&self) -> usize {
        self.games * (2 + self.spectators)
    }

    /// The nodes' URLs, checked: at least one, each a loopback `ws://` URL, none twice.
    pub fn targets(&self) -> anyhow::Result<Vec<crate::conn::Target>> {
        anyhow::ensure!(!self.urls.is_empty(), "no --url given");
        let mut targets: Vec<crate::conn::Target> = Vec::with_capacity(self.urls.len());
        for url in &self.urls {
            let t = crate::conn::Target::parse(url)?;
            anyhow::ensure!(
                !targets.iter().any(|o| o.addr == t.addr),
                "--url {url} is given twice"
            );
            targets.push(t);
        }
        Ok(targets)
    }

    /// The fraction of games with their players on different nodes: `--cross-node`, checked against the
    /// number of URLs (one URL has no other node).
    pub fn cross_fraction(&self) -> anyhow::Result<f64> {
        let f = self
            .cross_node
            .unwrap_or(if self.urls.len() > 1 { 0.5 } else { 0.0 });
        anyhow::ensure!(
            (0.0..=1.0).contains(&f),
            "the cross-node fraction must be from 0 to 1, not {f}"
        );
        anyhow::ensure!(
            f == 0.0 || self.urls.len() > 1,
            "--cross-node {f} needs at least two --url (one per node)"
        );
        Ok(f)
    }

    /// Where game `g`'s players connect. Creators go round the nodes (game `g` on node `g % n`); of each node's
    /// games every so many have their joiner on another node, so that the fraction `cross_fraction` of every
    /// node's games is cross-node, and those joiners go round the other nodes in turn: every node holds the
    /// same number of players and owns the same number of rooms.
    pub fn placement(&self, g: usize) -> Placement {
        let n = self.urls.len().max(1);
        let f = self.cross_fraction().unwrap_or(0.0);
        let creator = g % n;
        let k = (g / n) as f64;
        // The k-th game of a node is cross-node when ⌊(k+1)f⌋ > ⌊kf⌋; `before` cross games came before it.
        let before = (k * f).floor();
        let cross = n > 1 && ((k + 1.0) * f).floor() > before;
        let joiner = if cross {
            (creator + 1 + (before as usize) % (n - 1)) % n
        } else {
            creator
        };
        Placement { creator, joiner }
    }

    /// The node spectator `s` (from 0) of game `g` connects to first: round the nodes from the creator's next.
    pub fn spectator_node(&self, g: usize, s: usize) -> usize {
        let n = self.urls.len().max(1);
        (self.placement(g).creator + 1 + s) % n
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
        let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.as_str()).collect();
        match self.game.parse::<GameKind>() {
            Ok(GameKind::Gomoku) => Ok(None),
            Ok(kind) => Ok(Some(GameSpec::from(kind.default_config()))),
            Err(_) => anyhow::bail!("unknown game {} ({})", self.game, names.join(", ")),
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

    fn placed(urls: usize, cross: Option<f64>) -> RunArgs {
        let mut args = Cli::parse_from(["x"]).run;
        args.urls = (0..urls)
            .map(|i| format!("ws://127.0.0.1:{}/ws", 9000 + i))
            .collect();
        args.cross_node = cross;
        args
    }

    #[test]
    fn the_cross_node_fraction_of_games_spreads_evenly_over_the_nodes() {
        for (urls, f) in [(3, 0.5), (2, 0.5), (3, 0.2), (4, 1.0), (3, 0.0)] {
            let args = placed(urls, Some(f));
            let games = 600;
            let mut players = vec![0usize; urls];
            let mut owned = vec![0usize; urls];
            let mut cross = 0;
            for g in 0..games {
                let p = args.placement(g);
                owned[p.creator] += 1;
                players[p.creator] += 1;
                players[p.joiner] += 1;
                cross += usize::from(p.cross());
            }
            assert_eq!(
                cross,
                (games as f64 * f).round() as usize,
                "{urls} nodes, {f}"
            );
            assert!(owned.iter().all(|&o| o == games / urls), "{owned:?}");
            assert!(
                players.iter().all(|&p| p == 2 * games / urls),
                "{urls} nodes, {f}: {players:?}"
            );
        }
    }

    #[test]
    fn one_url_places_everyone_on_it_and_several_default_to_half_cross_node() {
        let one = placed(1, None);
        assert_eq!(one.cross_fraction().unwrap(), 0.0);
        assert!((0..10).all(|g| !one.placement(g).cross() && one.spectator_node(g, 1) == 0));
        assert_eq!(placed(3, None).cross_fraction().unwrap(), 0.5);
        let e = placed(1, Some(0.5)).cross_fraction().unwrap_err();
        assert!(e.to_string().contains("at least two --url"), "{e}");
        assert!(placed(1, Some(0.0)).cross_fraction().is_ok());
        let spectators: Vec<usize> = (0..3)
            .map(|s| placed(3, None).spectator_node(0, s))
            .collect();
        assert_eq!(spectators, [1, 2, 0]);
    }

    #[test]
    fn several_urls_come_repeated_or_comma_separated() {
        let a = Cli::parse_from([
            "x",
            "--url",
            "ws://127.0.0.1:1/ws",
            "--url",
            "ws://127.0.0.1:2/ws",
        ])
        .run;
        let b = Cli::parse_from(["x", "--url", "ws://127.0.0.1:1/ws,ws://127.0.0.1:2/ws"]).run;
        assert_eq!(a.urls, b.urls);
        assert_eq!(a.targets().unwrap().len(), 2);
        assert!(Cli::try_parse_from(["x", "--cross-node", "1.01"]).is_err());
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
