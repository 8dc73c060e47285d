//! Saturation: games with no think time at increasing concurrency, each step checked for durability, against the
//! echo ceiling measured the same way in the same run, to find the highest sustained rate of durable moves and
//! its share of what raw WebSockets do on this machine.

use std::process::Stdio;

use anyhow::Context;
use clap::Args;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::plan::RunArgs;
use crate::report::Report;
use crate::run::{self, Mode};

/// The flags of `loadgen saturate`.
#[derive(Args, Clone, Debug)]
pub struct SaturateArgs {
    /// The game server's WebSocket URL (start it with a high `MSG_RATE` and `MSG_BURST`: players here send as
    /// fast as the server answers); several (repeated or comma separated) are a cluster's nodes, over which the
    /// games are spread as by `run` (`--cross-node`), and the echo baseline then runs as many echo servers.
    #[arg(
        long = "url",
        value_delimiter = ',',
        default_value = "ws://127.0.0.1:8080/ws"
    )]
    pub urls: Vec<String>,
    /// With several `--url`s: the fraction of games whose players are on different nodes (default 0.5).
    #[arg(long, value_parser = crate::plan::parse_fraction)]
    pub cross_node: Option<f64>,
    /// Loadgen worker processes of each step (as `run --workers`): with several nodes one loadgen process may
    /// be what saturates first.
    #[arg(long, default_value_t = 1)]
    pub workers: usize,
    /// Concurrent games (echo: pairs) of each step.
    #[arg(long, value_delimiter = ',', default_value = "25,50,100,200")]
    pub levels: Vec<usize>,
    /// Seconds of play per step.
    #[arg(long, default_value_t = 10.0)]
    pub step_secs: f64,
    /// Skip the durability check of each game step (it reads every game back over HTTP).
    #[arg(long)]
    pub no_verify: bool,
    /// Check durability by opening this database instead of asking the server.
    #[arg(long)]
    pub verify_db: Option<String>,
    /// Rule set of the games.
    #[arg(long, default_value = "freestyle")]
    pub rule_set: String,
    /// The game server's process id, for memory figures (default: found from the port).
    #[arg(long)]
    pub server_pid: Option<u32>,
}

/// One concurrency level.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    /// Games (pairs).
    pub level: usize,
    /// The echo baseline at this level.
    pub echo: Report,
    /// The game server at this level.
    pub game: Report,
}

/// The result of `saturate`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Saturation {
    /// Every step.
    pub steps: Vec<Step>,
    /// Highest echo round trips per second.
    pub echo_ceiling: f64,
    /// Highest game moves per second among clean steps (no errors, every move stored).
    pub best_moves_per_sec: f64,
    /// The level that gave it.
    pub best_level: Option<usize>,
    /// `best_moves_per_sec / echo_ceiling`.
    pub ratio: f64,
}

fn step_args(args: &SaturateArgs, urls: &[String], level: usize) -> RunArgs {
    let (secs, rule_set) = (args.step_secs, args.rule_set.as_str());
    RunArgs {
        urls: urls.to_vec(),
        cross_node: args.cross_node,
        games: level,
        spectators: 0,
        think_ms: 0,
        ramp_secs: 1.0,
        room_ramp_secs: 1.0,
        hold_secs: 0.5,
        duration_secs: secs,
        drain_secs: 2.0,
        game: "gomoku".into(),
        rule_set: rule_set.to_owned(),
        workers: args.workers,
        source_ips: 0,
        rematch: true,
        reconnect: false,
        seed: level as u64,
        verify: false,
        verify_db: None,
    }
}

/// Starts one echo server, a child process of loadgen (like the game server is a process of its own); its URL.
async fn echo_server(exe: &std::path::Path) -> anyhow::Result<(Child, String)> {
    let mut echo = Command::new(exe)
        .args(["echo-server", "--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .context("starting the echo server")?;
    let mut lines = BufReader::new(echo.stdout.take().expect("piped")).lines();
    let first = lines
        .next_line()
        .await?
        .context("the echo server said nothing")?;
    let echo_url = first
        .strip_prefix("echo server: ")
        .context("unexpected echo server banner")?
        .to_owned();
    Ok((echo, echo_url))
}

/// Runs the steps, against as many echo servers as the game has nodes.
pub async fn saturate(args: &SaturateArgs) -> anyhow::Result<Saturation> {
    // The flags are checked before anything starts.
    step_args(args, &args.urls, 1).targets()?;
    step_args(args, &args.urls, 1).cross_fraction()?;
    let exe = std::env::current_exe()?;
    let mut echoes = Vec::new();
    let mut echo_urls = Vec::new();
    for _ in &args.urls {
        let (child, url) = echo_server(&exe).await?;
        echoes.push(child);
        echo_urls.push(url);
    }
    let echo_pid = echoes[0].id();

    let mut steps = Vec::new();
    for &level in &args.levels {
        let mut e = step_args(args, &echo_urls, level);
        // The echo pairs go round the echo servers; they have no rooms to place across nodes.
        e.cross_node = Some(0.0);
        let echo_report = run::run(&e, Mode::Echo, echo_pid, true).await?;
        let mut g = step_args(args, &args.urls, level);
        g.verify = !args.no_verify;
        g.verify_db = args.verify_db.clone();
        let game_report = run::run(&g, Mode::Game, args.server_pid, true).await?;
        let split = if args.urls.len() > 1 {
            format!(
                "; same node {:.2}, cross node {:.2}",
                game_report.opponent_same_node.p99_ms, game_report.opponent_cross_node.p99_ms
            )
        } else {
            String::new()
        };
        eprintln!(
            "level {level:>4}: echo {:>9.0} round trips/s (p99 {:.2} ms) | game {:>8.0} moves/s (p99 {:.2} ms{split}){}{}",
            echo_report.moves_per_sec,
            echo_report.opponent.p99_ms,
            game_report.moves_per_sec,
            game_report.opponent.p99_ms,
            if game_report.errors.is_empty() {
                String::new()
            } else {
                format!(" errors {:?}", game_report.errors)
            },
            match &game_report.verification {
                Some(v) if v.ok() => format!(", {} stones stored", v.stones),
                Some(_) => ", DURABILITY FAILED".to_owned(),
                None => String::new(),
            }
        );
        steps.push(Step {
            level,
            echo: echo_report,
            game: game_report,
        });
    }
    for mut echo in echoes {
        let _ = echo.kill().await;
    }
    let echo_ceiling = steps
        .iter()
        .map(|s| s.echo.moves_per_sec)
        .fold(0.0, f64::max);
    let best = steps
        .iter()
        .filter(|s| s.game.clean())
        .max_by(|a, b| a.game.moves_per_sec.total_cmp(&b.game.moves_per_sec));
    let best_moves_per_sec = best.map_or(0.0, |s| s.game.moves_per_sec);
    Ok(Saturation {
        echo_ceiling,
        best_moves_per_sec,
        best_level: best.map(|s| s.level),
        ratio: if echo_ceiling > 0.0 {
            best_moves_per_sec / echo_ceiling
        } else {
            0.0
        },
        steps,
    })
}

impl std::fmt::Display for Saturation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nodes = self.steps.first().map_or(1, |s| s.game.urls.len());
        if nodes > 1 {
            writeln!(
                f,
                "{nodes} nodes (and {nodes} echo servers), {:.0} % of games with their players on two nodes",
                self.steps[0].game.cross_node * 100.0
            )?;
        }
        write!(f, "level   echo rt/s  echo p99 ms   moves/s  game p99 ms")?;
        if nodes > 1 {
            write!(f, "  same p99  cross p99")?;
        }
        writeln!(f, "  errors  durable")?;
        for s in &self.steps {
            write!(
                f,
                "{:>5} {:>11.0} {:>12.2} {:>9.0} {:>12.2}",
                s.level,
                s.echo.moves_per_sec,
                s.echo.opponent.p99_ms,
                s.game.moves_per_sec,
                s.game.opponent.p99_ms,
            )?;
            if nodes > 1 {
                write!(
                    f,
                    " {:>9.2} {:>10.2}",
                    s.game.opponent_same_node.p99_ms, s.game.opponent_cross_node.p99_ms
                )?;
            }
            writeln!(
                f,
                " {:>7} {:>8}",
                s.game.errors.values().sum::<u64>(),
                match &s.game.verification {
                    Some(v) if v.ok() => "yes",
                    Some(_) => "NO",
                    None => "-",
                }
            )?;
        }
        writeln!(
            f,
            "echo ceiling {:.0} round trips/s; best durable {:.0} moves/s (level {}); ratio {:.3}",
            self.echo_ceiling,
            self.best_moves_per_sec,
            self.best_level.map_or("none".to_owned(), |l| l.to_string()),
            self.ratio
        )
    }
}
