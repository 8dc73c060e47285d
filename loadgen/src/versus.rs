//! Games against the computer at a person's pace (issue #17's capacity figure): each simulated person starts a
//! game against the computer at one level, answers each of its moves after a think time, and measures how long
//! the server takes to acknowledge the person's move (the latency a player feels) and how long the computer then
//! takes to answer. A game that ends is followed by a new one until the run's end; a `computer_busy` or
//! `too_many_computer_games` refusal is counted (the server's limit on computer games, per address or in all, or
//! its search queue), not retried at once.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use client::{Connection, Next, Replica};
use hdrhistogram::Histogram;
use protocol::{ClientMessage, ColourChoice, RoomEvent, RulesSpec, ServerMessage, TimeControl};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rules::{Color, ForbiddenPolicy, Game, Opening, RuleSet};
use serde::Serialize;

use crate::picker::Position;

/// What one run asks for.
#[derive(Clone, Debug, clap::Args)]
pub struct VersusArgs {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Simultaneous games against the computer.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// The computer's level (1–8).
    #[arg(long, default_value_t = 1)]
    pub level: u8,
    /// `freestyle` or `renju`.
    #[arg(long, default_value = "freestyle")]
    pub rules: String,
    /// The person's think time before each move, in milliseconds (jittered by ±20%).
    #[arg(long, default_value_t = 5_000)]
    pub think_ms: u64,
    /// Seconds over which the games start.
    #[arg(long, default_value_t = 10)]
    pub ramp_secs: u64,
    /// Seconds the run lasts from its start (games still going at the end are left unfinished).
    #[arg(long, default_value_t = 60)]
    pub duration_secs: u64,
    /// Seeds the people's moves and think times.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A latency summary in milliseconds.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Millis {
    /// Samples.
    pub count: u64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest.
    pub max: f64,
}

fn millis(h: &Histogram<u64>) -> Millis {
    let ms = |us: u64| us as f64 / 1000.0;
    Millis {
        count: h.len(),
        p50: ms(h.value_at_quantile(0.5)),
        p90: ms(h.value_at_quantile(0.9)),
        p99: ms(h.value_at_quantile(0.99)),
        max: ms(h.max()),
    }
}

/// What a run measured.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VersusReport {
    /// Simultaneous games asked for.
    pub games: usize,
    /// The computer's level.
    pub level: u8,
    /// The rule set.
    pub rules: String,
    /// Think time per move (ms).
    pub think_ms: u64,
    /// Games the server started.
    pub started: u64,
    /// Games played to their end within the run.
    pub finished: u64,
    /// Of those, the computer's wins (the person plays loadgen's greedy picker: a five, a block, else a
    /// random point near the stones).
    pub computer_won: u64,
    /// The person's wins.
    pub person_won: u64,
    /// `play_computer` answered `computer_busy` or `too_many_computer_games` (the server's limits; every
    /// simulated person comes from the one address, so the per-address cap applies to them all).
    pub refused_busy: u64,
    /// Other errors (codes and transport failures), by description.
    pub errors: Vec<(String, u64)>,
    /// The people's moves acknowledged.
    pub moves: u64,
    /// From a person's `place` to its acknowledgement.
    pub move_ack: Millis,
    /// From that acknowledgement to the computer's answering move.
    pub computer_reply: Millis,
}

#[derive(Default)]
struct Shared {
    move_ack: Option<Histogram<u64>>,
    reply: Option<Histogram<u64>>,
    started: u64,
    finished: u64,
    computer_won: u64,
    person_won: u64,
    refused_busy: u64,
    moves: u64,
    errors: std::collections::BTreeMap<String, u64>,
}

impl Shared {
    fn record(h: &mut Option<Histogram<u64>>, d: Duration) {
        let h =
            h.get_or_insert_with(|| Histogram::new_with_bounds(1, 600_000_000, 3).expect("bounds"));
        let _ = h.record((d.as_micros() as u64).max(1));
    }

    fn error(&mut self, what: impl Into<String>) {
        *self.errors.entry(what.into()).or_default() += 1;
    }
}

/// Runs the games and reports.
pub async fn run(args: VersusArgs) -> anyhow::Result<VersusReport> {
    let rule_set = match args.rules.as_str() {
        "freestyle" => RuleSet::Freestyle,
        "renju" => RuleSet::Renju,
        other => anyhow::bail!("--rules is freestyle or renju, not {other}"),
    };
    let shared = Arc::new(Mutex::new(Shared::default()));
    let start = Instant::now();
    let end = start + Duration::from_secs(args.duration_secs);
    let mut tasks = Vec::new();
    for g in 0..args.games {
        let at = start
            + Duration::from_millis(args.ramp_secs * 1000 * g as u64 / args.games.max(1) as u64);
        let (args, shared) = (args.clone(), shared.clone());
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(at.into()).await;
            let mut rng = StdRng::seed_from_u64(args.seed.wrapping_mul(1_000_003) + g as u64);
            // One person, one connection and one guest for all its games (a new one after a failure).
            let mut link: Option<(Connection, String)> = None;
            while Instant::now() < end {
                if link.is_none() {
                    match connect(&args.addr).await {
                        Ok(l) => link = Some(l),
                        Err(e) => {
                            shared.lock().expect("shared").error(e);
                            tokio::time::sleep(Duration::from_secs(1)).await;
                            continue;
                        }
                    }
                }
                let (conn, me) = link.as_mut().expect("connected");
                match person(conn, me, &args, rule_set, end, &shared, &mut rng).await {
                    Ok(Ended::Finished) => {}
                    Ok(Ended::Busy) => tokio::time::sleep(Duration::from_secs(1)).await,
                    Ok(Ended::TimeUp) => break,
                    Err(e) => {
                        shared.lock().expect("shared").error(e);
                        link = None;
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let s = shared.lock().expect("shared");
    let empty = Histogram::<u64>::new(3).expect("histogram");
    Ok(VersusReport {
        games: args.games,
        level: args.level,
        rules: args.rules.clone(),
        think_ms: args.think_ms,
        started: s.started,
        finished: s.finished,
        computer_won: s.computer_won,
        person_won: s.person_won,
        refused_busy: s.refused_busy,
        errors: s.errors.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        moves: s.moves,
        move_ack: millis(s.move_ack.as_ref().unwrap_or(&empty)),
        computer_reply: millis(s.reply.as_ref().unwrap_or(&empty)),
    })
}

enum Ended {
    Finished,
    Busy,
    TimeUp,
}

fn frame_of(next: Next) -> Result<protocol::Frame<ServerMessage>, String> {
    match next {
        Next::Frame(f) => Ok(f),
        other => Err(format!("transport: {}", describe(&other))),
    }
}

fn describe(next: &Next) -> &'static str {
    match next {
        Next::Frame(_) => "frame",
        Next::Closed(_) => "closed",
        Next::Dropped => "dropped",
        Next::Silent => "silent",
        Next::Binary(_) => "binary",
        Next::Undecodable { .. } => "undecodable",
    }
}

/// A person's connection, said hello as a new guest: the connection and the guest's name.
async fn connect(addr: &str) -> Result<(Connection, String), String> {
    let mut conn = Connection::open(format!("ws://{addr}/ws"))
        .await
        .map_err(|e| format!("connect: {e}"))?
        .with_wait(Duration::from_secs(60));
    let hello = ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: None,
    };
    match conn.request(&hello).await {
        Ok(ServerMessage::Welcome { you, .. }) => Ok((conn, you.name)),
        Ok(other) => Err(format!("hello answered {other:?}")),
        Err(n) => Err(format!("hello: {}", describe(&n))),
    }
}

/// One game of a person against the computer, to its end or the run's (the finished room is left).
async fn person(
    conn: &mut Connection,
    me: &str,
    args: &VersusArgs,
    rule_set: RuleSet,
    end: Instant,
    shared: &Mutex<Shared>,
    rng: &mut StdRng,
) -> Result<Ended, String> {
    let spec = RulesSpec {
        size: 15,
        rule_set,
        forbidden_policy: ForbiddenPolicy::Reject,
        opening: Opening::None,
    };
    let play = ClientMessage::PlayComputer {
        rules: Some(spec),
        game: None,
        time_control: TimeControl::None,
        public: false,
        colour: ColourChoice::Black,
        level: args.level,
        engine: None,
    };
    let snap = match conn.request(&play).await {
        Ok(ServerMessage::Room { room }) => room,
        Ok(ServerMessage::Error { code, .. })
            if code == protocol::code::COMPUTER_BUSY
                || code == protocol::code::TOO_MANY_COMPUTER_GAMES =>
        {
            shared.lock().expect("shared").refused_busy += 1;
            return Ok(Ended::Busy);
        }
        Ok(ServerMessage::Error { code, .. }) => return Err(code),
        Ok(other) => return Err(format!("play_computer answered {other:?}")),
        Err(n) => return Err(format!("play_computer: {}", describe(&n))),
    };
    let rules = spec.to_rules().map_err(|e| e.to_string())?;
    let room = snap.id.clone();
    let mut replica = Replica::from_snapshot(&snap, Some(me)).map_err(|e| e.to_string())?;
    let mut position = Position::new(Game::new(rules));
    let mut started = false;
    // When the computer's answer is awaited: from the acknowledgement of the person's move.
    let mut awaiting: Option<Instant> = None;
    let mut think_until = Instant::now();
    loop {
        if replica.state == protocol::RoomState::Over || replica.result.is_some() {
            {
                let mut s = shared.lock().expect("shared");
                s.finished += 1;
                match replica.result.as_ref().and_then(|r| r.winner) {
                    Some(Color::White) => s.computer_won += 1,
                    Some(Color::Black) => s.person_won += 1,
                    None => {}
                }
            }
            // Leaving frees the room (the computer leaves with its person); the answer is an ack.
            let leave = ClientMessage::Leave { room: room.clone() };
            conn.request(&leave)
                .await
                .map_err(|n| format!("leave: {}", describe(&n)))?;
            return Ok(Ended::Finished);
        }
        if Instant::now() >= end {
            return Ok(Ended::TimeUp);
        }
        if replica.state == protocol::RoomState::Playing && !started {
            started = true;
            shared.lock().expect("shared").started += 1;
        }
        if replica.my_turn() && replica.you == Some(Color::Black) {
            tokio::time::sleep_until(think_until.into()).await;
            let Some(point) = position.pick(Color::Black, rng) else {
                return Err("no move to pick".into());
            };
            let place = ClientMessage::Act {
                room: room.clone(),
                action: point.to_string(),
                at: replica.next_at().unwrap_or(0),
            };
            let sent = Instant::now();
            let rid = conn.send(&place).await.map_err(|e| format!("send: {e}"))?;
            let reply = conn
                .reply_to(rid)
                .await
                .map_err(|n| format!("move: {}", describe(&n)))?;
            let acked = Instant::now();
            match reply {
                ServerMessage::Event { version, event, .. } => {
                    {
                        let mut s = shared.lock().expect("shared");
                        Shared::record(&mut s.move_ack, acked - sent);
                        s.moves += 1;
                    }
                    follow(&mut replica, &mut position, version, &event)?;
                    awaiting = Some(acked);
                }
                ServerMessage::Error { code, .. } => return Err(format!("move refused: {code}")),
                other => return Err(format!("move answered {other:?}")),
            }
            continue;
        }
        // The computer's turn (or the game not started yet): the next frame.
        let f = frame_of(conn.next().await)?;
        // Another room's events (the last game's, after leaving it) are not this game's.
        if let ServerMessage::Event {
            room: r,
            version,
            event,
        } = f.msg
        {
            if r != room {
                continue;
            }
            let computer_moved = matches!(
                event,
                RoomEvent::Action {
                    by: Color::White,
                    ..
                }
            );
            follow(&mut replica, &mut position, version, &event)?;
            if computer_moved {
                if let Some(since) = awaiting.take() {
                    Shared::record(&mut shared.lock().expect("shared").reply, since.elapsed());
                }
                let jitter = args.think_ms / 5;
                let think = args.think_ms - jitter + rng.random_range(0..=2 * jitter);
                think_until = Instant::now() + Duration::from_millis(think);
            }
        }
    }
}

/// Applies an event to the replica and the picker's position.
fn follow(
    replica: &mut Replica,
    position: &mut Position,
    version: u64,
    event: &RoomEvent,
) -> Result<(), String> {
    replica
        .apply(version, event)
        .map_err(|e| format!("replica: {e}"))?;
    if let RoomEvent::Action {
        change: protocol::GameChange::Gomoku(change),
        ..
    } = event
    {
        if let Some(point) = change.placed {
            position
                .place(point)
                .map_err(|e| format!("position: {e}"))?;
        }
    }
    Ok(())
}
