//! `loadgen`: drives the game server with simulated games over real WebSockets and reports throughput, latency,
//! errors, memory and durability; also serves and drives a bare echo server as the baseline, finds the saturated
//! move rate, and runs the kill -9 crash test.

use clap::{Parser, Subcommand};

use loadgen::plan::RunArgs;
use loadgen::run::{self, Mode};
use loadgen::{cluster, crash, echo, flood, pair, report, saturate};

#[derive(Parser)]
#[command(
    name = "loadgen",
    version,
    about = "Load generator for the Gomoku / Renju server"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays games against the game server and reports; exits with status 2 when any error occurred, clients
    /// were told contradicting histories, or the durability check (`--verify`, `--verify-db`) failed.
    Run {
        #[command(flatten)]
        run: RunArgs,
        /// The server's process id, for memory figures (default: the process listening on the target port).
        #[arg(long)]
        server_pid: Option<u32>,
        /// Print the report as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Drives an echo server (`loadgen echo-server`) with the same connection pattern, for the baseline.
    Echo {
        #[command(flatten)]
        run: RunArgs,
        /// The echo server's process id, for memory figures (default: found from the port).
        #[arg(long)]
        server_pid: Option<u32>,
        /// Print the report as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Serves a minimal tokio-tungstenite echo server (the baseline) until killed.
    EchoServer {
        /// Where to listen (loopback).
        #[arg(long, default_value = "127.0.0.1:9001")]
        bind: std::net::SocketAddr,
        /// WebSocket read buffer per connection, bytes.
        #[arg(long, default_value_t = 4096)]
        buffer: usize,
    },
    /// Finds the highest sustained rate of durable moves (no think time, rising concurrency) and its ratio to
    /// the echo ceiling measured in the same run.
    Saturate {
        #[command(flatten)]
        args: saturate::SaturateArgs,
        /// Print the result as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Kills the server with SIGKILL at random moments while games run, restarts it on the same database, and
    /// checks that nothing acknowledged was lost (exit status 1 when something was); with `--cluster N`, on N
    /// nodes sharing a Postgres database, a random node each time.
    Crash(crash::CrashArgs),
    /// Floods the server with one kind of abuse (guests, rooms, logins, slowloris, chat) at a steady rate and
    /// counts how it answered; run beside `loadgen run` to see what a flood does to a running game.
    Flood {
        #[command(flatten)]
        args: flood::FloodArgs,
        /// Print the result as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Games against the computer at a person's pace (issue #17's capacity): the people's move latency and the
    /// computer's answer times; exits with status 2 when an error other than `computer_busy` occurred.
    Versus {
        #[command(flatten)]
        args: loadgen::versus::VersusArgs,
        /// Print the result as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Quick pairing under load: guests connect over a ramp and seek presets, some cancel or disconnect first;
    /// reports the time to pair and exits with status 2 when anyone was paired twice or after leaving, the two
    /// sides of a pairing disagree, someone pairable was left waiting, or the queues did not end empty.
    Pair {
        #[command(flatten)]
        args: pair::PairArgs,
        /// Print the report as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// The greedy picker every load test plays, as a Gomocup brain on stdin and stdout (Piskvork protocol), for
    /// the match harness: `match --b "cmd:loadgen greedy-brain --seed 3"`.
    GreedyBrain {
        /// Seed of the picker's random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// One worker process of a run with `--workers` (started by loadgen itself).
    #[command(hide = true)]
    Worker {
        #[arg(long)]
        index: usize,
        #[arg(long)]
        of: usize,
        #[arg(long)]
        start_unix_ms: u64,
        #[arg(long, value_enum)]
        mode: Mode,
        /// The run's flags as JSON.
        #[arg(long)]
        args: String,
    },
}

/// Raises the open-file soft limit to the hard limit: every connection is a descriptor.
fn raise_fd_limit() {
    if let Ok((soft, hard)) = rlimit::Resource::NOFILE.get() {
        if soft < hard {
            let _ = rlimit::Resource::NOFILE.set(hard, hard);
        }
    }
}

fn print(report: &report::Report, json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print!("{report}");
    }
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    raise_fd_limit();
    let cli = Cli::parse();
    match cli.command {
        Command::Run {
            run,
            server_pid,
            json,
        } => {
            let report = run::run(&run, Mode::Game, server_pid, false).await?;
            print(&report, json)?;
            if !report.clean() {
                std::process::exit(2);
            }
        }
        Command::Echo {
            run,
            server_pid,
            json,
        } => {
            let report = run::run(&run, Mode::Echo, server_pid, false).await?;
            print(&report, json)?;
        }
        Command::EchoServer { bind, buffer } => {
            anyhow::ensure!(
                bind.ip().is_loopback(),
                "the echo server listens on loopback only"
            );
            let listener = tokio::net::TcpListener::bind(bind).await?;
            println!("echo server: ws://{}/", listener.local_addr()?);
            echo::serve(listener, buffer).await?;
        }
        Command::Saturate { args, json } => {
            let result = saturate::saturate(&args).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&result)?);
            } else {
                print!("{result}");
            }
        }
        Command::Crash(args) => {
            let failures = match args.nodes()? {
                None => crash::crash(&args).await?,
                Some(nodes) => {
                    let run = cluster::crash(&args, nodes).await?;
                    eprintln!(
                        "cluster of {} nodes, {} kills: {} games, {} moves acknowledged ({} after the last \
                         restart), {} checked in the database; {} rooms watched, {} claimed again after kills \
                         ({} by another node)",
                        run.nodes,
                        run.kills,
                        run.games,
                        run.moves,
                        run.moves - run.moves_at_last_restart,
                        run.checked,
                        run.rooms_watched,
                        run.claims,
                        run.owner_changes
                    );
                    run.failures
                }
            };
            if failures.is_empty() {
                println!("crash test passed");
            } else {
                println!("crash test FAILED:");
                for f in &failures {
                    println!("  {f}");
                }
                std::process::exit(1);
            }
        }
        Command::GreedyBrain { seed } => {
            let mut brain = loadgen::greedy_brain::brain(seed);
            // The manager closing stdin or stdout ends the brain; that is not an error.
            let _ = engine::piskvork::serve(
                &mut brain,
                std::io::stdin().lock(),
                std::io::stdout().lock(),
            );
        }
        Command::Versus { args, json } => {
            let report = loadgen::versus::run(args).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                println!(
                    "{} games vs level {} ({}), a move every {} ms: {} started, {} finished (computer won {}, \
                     person {}), {} refused busy, {} moves; move ack p50 {:.1} / p99 {:.1} / max {:.1} ms; computer reply p50 {:.0} / p99 {:.0} ms; \
                     errors {:?}",
                    report.games,
                    report.level,
                    report.rules,
                    report.think_ms,
                    report.started,
                    report.finished,
                    report.computer_won,
                    report.person_won,
                    report.refused_busy,
                    report.moves,
                    report.move_ack.p50,
                    report.move_ack.p99,
                    report.move_ack.max,
                    report.computer_reply.p50,
                    report.computer_reply.p99,
                    report.errors
                );
            }
            if !report.errors.is_empty() {
                std::process::exit(2);
            }
        }
        Command::Flood { args, json } => {
            let result = flood::flood(&args).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&result)?);
            } else {
                print!("{result}");
            }
        }
        Command::Pair { args, json } => {
            let report = pair::pair(&args, false).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{report}");
            }
            if !report.clean() {
                std::process::exit(2);
            }
        }
        Command::Worker {
            index,
            of,
            start_unix_ms,
            mode,
            args,
        } => {
            let args: RunArgs = serde_json::from_str(&args)?;
            run::worker(args, mode, start_unix_ms, index, of).await?;
        }
    }
    Ok(())
}
