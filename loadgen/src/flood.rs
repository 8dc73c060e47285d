//! Floods for the abuse benchmarks: one kind of abuse at a steady rate for a while, counting how the server
//! answered each attempt. Run it beside `loadgen run` to see whether a flood at (or over) a limit moves a running
//! game's latency (`scripts/flood-bench.sh`).
//!
//! Every kind only ever targets a loopback [`Target`], and every loop is bounded by `--secs`.

use std::collections::BTreeMap;
use std::fmt;
use std::net::IpAddr;
use std::time::Duration;

use anyhow::Context;
use futures_util::StreamExt;
use protocol::{ClientMessage, RulesSpec, ServerMessage, TimeControl};
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::conn::{self, Target, Ws};

/// What to flood the server with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FloodKind {
    /// Token-less `hello`s: each asks for a new guest identity, then the socket closes.
    Guests,
    /// `create_room` of public waiting rooms, from guests that each create rooms until refused.
    Rooms,
    /// `POST /api/login` with a wrong password for one account name.
    Logins,
    /// TCP connections that send an HTTP request's headers one line at a time, never finishing them.
    Slowloris,
    /// Chat messages in one room, from one spectator.
    Chat,
    /// `play_computer` games that the guest never moves in, from guests that each open games until refused.
    Computer,
    /// `challenge`s of one registered victim (who stays connected), from guests that each challenge until refused.
    Challenges,
    /// `POST /api/register` of new accounts.
    Registrations,
    /// WebSockets that all say `hello` with one guest's token, each kept open to the end.
    Sockets,
    /// As `rooms`, then counts how many of the flood's rooms the lobby shows (`GET /api/rooms`) before closing
    /// them: spread over `--source-ips` addresses, the burying of issue #35.
    Lobby,
}

/// Flags of `loadgen flood`.
#[derive(Clone, Debug, clap::Args)]
pub struct FloodArgs {
    /// The server's WebSocket URL (loopback only).
    #[arg(long, default_value = "ws://127.0.0.1:8080/ws")]
    pub url: String,
    /// The kind of abuse.
    #[arg(long, value_enum)]
    pub kind: FloodKind,
    /// Attempts per second (for slowloris: new half-open connections per second).
    #[arg(long, default_value_t = 20.0)]
    pub rate: f64,
    /// How long to flood, in seconds.
    #[arg(long, default_value_t = 20.0)]
    pub secs: f64,
    /// The attacker's (first) loopback source address; kept apart from `loadgen run`'s 127.0.0.x players so
    /// per-address limits meet only the attacker.
    #[arg(long, default_value = "127.0.2.1")]
    pub source_ip: std::net::Ipv4Addr,
    /// Spread the attempts over this many consecutive source addresses from `--source-ip` (at most 250), one
    /// after the other, as that many attackers.
    #[arg(long, default_value_t = 1)]
    pub source_ips: usize,
    /// Slowloris: the most half-open connections held at once.
    #[arg(long, default_value_t = 1000)]
    pub max_open: usize,
    /// Slowloris: seconds between the header lines each connection trickles.
    #[arg(long, default_value_t = 5.0)]
    pub trickle_secs: f64,
    /// Logins: how long one attempt waits for its answer before it counts as `request_failed`. A password check
    /// is slow on purpose, and slower still on a loaded machine.
    #[arg(long, default_value_t = 10.0)]
    pub answer_secs: f64,
}

impl FloodArgs {
    /// The source address of the `n`-th attempt.
    fn source(&self, n: u64) -> Option<IpAddr> {
        let [a, b, c, d] = self.source_ip.octets();
        let step = (n % self.source_ips.clamp(1, 250) as u64) as u8;
        Some(IpAddr::V4(std::net::Ipv4Addr::new(
            a,
            b,
            c,
            d.wrapping_add(step),
        )))
    }
}

/// How the server answered a flood.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FloodReport {
    /// The kind flooded.
    pub kind: Option<FloodKind>,
    /// Attempts made.
    pub attempts: u64,
    /// Outcome of each attempt by name (`accepted`, an error code, an HTTP status, `closed_by_server`, …).
    pub outcomes: BTreeMap<String, u64>,
    /// Seconds the flood ran.
    pub secs: f64,
    /// Slowloris: seconds from opening to the server's close, of every connection the server closed (sorted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub closed_after_secs: Vec<f64>,
    /// Figures beside the outcomes (challenges: the notices the victim received).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, u64>,
    /// Lobby: what the lobby showed at the flood's end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lobby: Option<LobbyShare>,
}

/// How much of the lobby a room flood held at its end.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct LobbyShare {
    /// The flood's rooms open at the end.
    pub flood_rooms: u64,
    /// Of them, those the lobby showed.
    pub flood_shown: u64,
    /// All rooms the lobby showed.
    pub shown: u64,
}

impl FloodReport {
    fn count(&mut self, outcome: impl Into<String>) {
        *self.outcomes.entry(outcome.into()).or_default() += 1;
    }

    /// A figure beside the attempts' outcomes (not one of them).
    fn count_extra(&mut self, what: &str, n: u64) {
        self.extra.insert(what.to_owned(), n);
    }
}

impl fmt::Display for FloodReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind.map(|k| format!("{k:?}")).unwrap_or_default();
        writeln!(
            f,
            "flood {kind}: {} attempts in {:.1} s ({:.1}/s)",
            self.attempts,
            self.secs,
            self.attempts as f64 / self.secs.max(1e-9)
        )?;
        for (outcome, n) in &self.outcomes {
            writeln!(f, "  {outcome:<24} {n}")?;
        }
        for (what, n) in &self.extra {
            writeln!(f, "  {what:<24} {n}")?;
        }
        if let Some(l) = self.lobby {
            writeln!(
                f,
                "  lobby at the end: {} of the flood's {} rooms shown, of {} shown in all",
                l.flood_shown, l.flood_rooms, l.shown
            )?;
        }
        if !self.closed_after_secs.is_empty() {
            let q = |p: f64| {
                let i = ((self.closed_after_secs.len() - 1) as f64 * p).round() as usize;
                self.closed_after_secs[i]
            };
            writeln!(
                f,
                "  closed by the server after: min {:.1} s, median {:.1} s, max {:.1} s",
                q(0.0),
                q(0.5),
                q(1.0)
            )?;
        }
        Ok(())
    }
}

/// Runs one flood to its end and says how the server answered.
pub async fn flood(args: &FloodArgs) -> anyhow::Result<FloodReport> {
    anyhow::ensure!(
        args.rate > 0.0 && args.rate <= 10_000.0,
        "--rate must be in (0, 10000]"
    );
    anyhow::ensure!(
        args.secs > 0.0 && args.secs <= 600.0,
        "--secs must be in (0, 600]"
    );
    anyhow::ensure!(
        args.source_ip.is_loopback(),
        "--source-ip must be a loopback address"
    );
    let target = Target::parse(&args.url)?;
    let started = Instant::now();
    let mut report = match args.kind {
        FloodKind::Guests => guests(&target, args).await?,
        FloodKind::Rooms => rooms(&target, args).await?,
        FloodKind::Logins => logins(&target, args).await?,
        FloodKind::Slowloris => slowloris(&target, args).await?,
        FloodKind::Chat => chat(&target, args).await?,
        FloodKind::Computer => computer(&target, args).await?,
        FloodKind::Challenges => challenges(&target, args).await?,
        FloodKind::Registrations => registrations(&target, args).await?,
        FloodKind::Sockets => sockets(&target, args).await?,
        FloodKind::Lobby => lobby(&target, args).await?,
    };
    report.kind = Some(args.kind);
    report.secs = started.elapsed().as_secs_f64();
    Ok(report)
}

/// A ticker at the flood's rate that ends after `--secs`.
struct Pace {
    interval: tokio::time::Interval,
    end: Instant,
}

impl Pace {
    fn new(args: &FloodArgs) -> Pace {
        let mut interval = tokio::time::interval(Duration::from_secs_f64(1.0 / args.rate));
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Pace {
            interval,
            end: Instant::now() + Duration::from_secs_f64(args.secs),
        }
    }

    /// Waits for the next attempt's turn; `false` once the flood's time is over.
    async fn next(&mut self) -> bool {
        self.interval.tick().await;
        Instant::now() < self.end
    }
}

/// The first server message that is not an event, within 5 s.
async fn answer(ws: &mut Ws) -> Option<ServerMessage> {
    let deadline = Instant::now() + Duration::from_secs(5);
    while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(deadline, ws.next()).await {
        if let Message::Text(text) = msg {
            if let Ok(frame) = conn::parse(&text) {
                match frame.msg {
                    ServerMessage::Event { .. }
                    | ServerMessage::Lobby { .. }
                    | ServerMessage::LobbyOnline { .. }
                    | ServerMessage::LobbyRoom { .. }
                    | ServerMessage::LobbyRoomRemoved { .. } => continue,
                    other => return Some(other),
                }
            }
        }
    }
    None
}

/// How an answer is counted: `accepted` for a welcome or a success, the error code for an error.
fn outcome(answer: Option<&ServerMessage>) -> String {
    match answer {
        None => "no_answer".into(),
        Some(ServerMessage::Error { code, .. }) => code.to_string(),
        Some(_) => "accepted".into(),
    }
}

async fn hello(ws: &mut Ws, token: Option<String>) -> anyhow::Result<Option<ServerMessage>> {
    conn::send(
        ws,
        &ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token,
        },
        None,
    )
    .await?;
    Ok(answer(ws).await)
}

async fn guests(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    let mut report = FloodReport::default();
    let mut pace = Pace::new(args);
    while pace.next().await {
        report.attempts += 1;
        match conn::connect(target, args.source(report.attempts)).await {
            Ok(mut ws) => {
                let got = hello(&mut ws, None).await.ok().flatten();
                report.count(outcome(got.as_ref()));
                let _ = ws.close(None).await;
            }
            Err(_) => report.count("connect_failed"),
        }
    }
    Ok(report)
}

fn freestyle() -> RulesSpec {
    RulesSpec {
        size: 15,
        rule_set: rules::RuleSet::Freestyle,
        forbidden_policy: Default::default(),
        opening: Default::default(),
    }
}

fn waiting_room() -> ClientMessage {
    ClientMessage::CreateRoom {
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::default(),
        rated: false,
        public: true,
        colour: Default::default(),
        rating_range: None,
    }
}

async fn rooms(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    let (report, _, creators) = guests_asking(target, args, |_| waiting_room()).await;
    close_all(creators).await;
    Ok(report)
}

/// Closes every socket.
async fn close_all(sockets: Vec<Ws>) {
    for mut ws in sockets {
        let _ = ws.close(None).await;
    }
}

/// Guests that each send `msg(n)` (the `n`-th attempt) until one is refused, the next attempt then coming from a
/// new guest: the report, the ids of the rooms the accepted attempts opened, and every guest's socket, kept open
/// (rooms and games stay only while their creators are connected).
async fn guests_asking(
    target: &Target,
    args: &FloodArgs,
    msg: impl Fn(u64) -> ClientMessage,
) -> (FloodReport, Vec<String>, Vec<Ws>) {
    let mut report = FloodReport::default();
    let mut rooms = Vec::new();
    let mut pace = Pace::new(args);
    let mut guests: Vec<Ws> = Vec::new();
    let mut current: Option<Ws> = None;
    while pace.next().await {
        report.attempts += 1;
        if current.is_none() {
            match conn::connect(target, args.source(report.attempts)).await {
                Ok(mut ws) => match hello(&mut ws, None).await.ok().flatten() {
                    Some(ServerMessage::Welcome { .. }) => current = Some(ws),
                    other => {
                        report.count(format!("hello:{}", outcome(other.as_ref())));
                        continue;
                    }
                },
                Err(_) => {
                    report.count("connect_failed");
                    continue;
                }
            }
        }
        let ws = current.as_mut().expect("connected above");
        let got = match conn::send(ws, &msg(report.attempts), None).await {
            Ok(()) => answer(ws).await,
            Err(_) => None,
        };
        if let Some(ServerMessage::Room { room }) = &got {
            rooms.push(room.id.clone());
        }
        let result = outcome(got.as_ref());
        if result != "accepted" {
            // This guest is done (a cap, a rate limit, or a closed socket): the next attempt uses a new one.
            guests.extend(current.take());
        }
        report.count(result);
    }
    guests.extend(current);
    (report, rooms, guests)
}

async fn lobby(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    let (mut report, rooms, creators) = guests_asking(target, args, |_| waiting_room()).await;
    let shown = listed_rooms(target).await;
    close_all(creators).await;
    let shown = shown?;
    report.lobby = Some(LobbyShare {
        flood_rooms: rooms.len() as u64,
        flood_shown: rooms.iter().filter(|id| shown.contains(*id)).count() as u64,
        shown: shown.len() as u64,
    });
    Ok(report)
}

/// The ids of the rooms the lobby shows (`GET /api/rooms`).
async fn listed_rooms(target: &Target) -> anyhow::Result<Vec<String>> {
    let body: serde_json::Value = reqwest::get(format!("{}/api/rooms", target.http_base()))
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(body
        .as_array()
        .context("GET /api/rooms answers a list")?
        .iter()
        .filter_map(|r| r["id"].as_str().map(str::to_owned))
        .collect())
}

async fn computer(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    // The guest plays black and never moves: the computer waits, its games stay open.
    let (report, _, players) = guests_asking(target, args, |_| ClientMessage::PlayComputer {
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::default(),
        public: false,
        colour: Default::default(),
        level: 8,
        engine: None,
    })
    .await;
    close_all(players).await;
    Ok(report)
}

/// A name no earlier run took (3–20 letters or digits).
fn fresh_name(prefix: &str) -> String {
    format!("{prefix}{:08}", rand::random::<u32>() % 100_000_000)
}

/// Registers an account from `source`: its session token, or the HTTP status that refused it.
async fn register(
    client: &reqwest::Client,
    target: &Target,
    name: &str,
) -> anyhow::Result<Result<String, u16>> {
    let body = serde_json::json!({
        "username": name,
        "password": format!("flood-{}-long-enough", rand::random::<u64>()),
        "issue_token": true,
    });
    let resp = client
        .post(format!("{}/api/register", target.http_base()))
        .json(&body)
        .send()
        .await?;
    let status = resp.status().as_u16();
    if status != 201 {
        return Ok(Err(status));
    }
    let v: serde_json::Value = resp.json().await?;
    Ok(Ok(v["token"]
        .as_str()
        .context("a registration answers its token")?
        .to_owned()))
}

async fn challenges(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    // The victim registers from an address of its own and stays connected, its socket drained.
    let victim_ip = IpAddr::V4(std::net::Ipv4Addr::from_bits(
        args.source_ip.to_bits().wrapping_add(249),
    ));
    let http = reqwest::Client::builder()
        .local_address(victim_ip)
        .build()?;
    let name = fresh_name("victim");
    let token = register(&http, target, &name)
        .await?
        .map_err(|status| anyhow::anyhow!("could not register the victim: HTTP {status}"))?;
    let mut victim = conn::connect(target, Some(victim_ip)).await?;
    match hello(&mut victim, Some(token)).await? {
        Some(ServerMessage::Welcome { .. }) => {}
        other => anyhow::bail!("the victim was not welcomed: {other:?}"),
    }
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    let (heard, mut notices) = tokio::sync::watch::channel(0u64);
    let drain = tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                msg = victim.next() => match msg {
                    Some(Ok(Message::Text(text))) => {
                        if matches!(conn::parse(&text).map(|f| f.msg), Ok(ServerMessage::Challenge { .. })) {
                            heard.send_modify(|n| *n += 1);
                        }
                    }
                    Some(Ok(_)) => {}
                    _ => break,
                },
            }
        }
        let _ = victim.close(None).await;
    });
    let (mut report, _, challengers) = guests_asking(target, args, |_| ClientMessage::Challenge {
        to: name.clone(),
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::default(),
        rated: false,
        colour: Default::default(),
        games: None,
    })
    .await;
    // The last notices may still be on their way: wait (a while at most) for one per accepted challenge.
    let accepted = report.outcomes.get("accepted").copied().unwrap_or(0);
    let _ =
        tokio::time::timeout(Duration::from_secs(5), notices.wait_for(|n| *n >= accepted)).await;
    let _ = stop.send(());
    let _ = drain.await;
    let notices = *notices.borrow();
    close_all(challengers).await;
    // What reached the victim: one notice per challenge on its one tab.
    report.count_extra("victim_notices", notices);
    Ok(report)
}

async fn registrations(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    let clients = (0..args.source_ips.max(1) as u64)
        .map(|n| {
            reqwest::Client::builder()
                .timeout(Duration::from_secs_f64(args.answer_secs))
                .local_address(args.source(n))
                .build()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let target = target.clone();
    let mut tasks = tokio::task::JoinSet::new();
    let mut pace = Pace::new(args);
    let mut attempts = 0u64;
    while pace.next().await {
        attempts += 1;
        let client = clients[(attempts as usize) % clients.len()].clone();
        let target = target.clone();
        tasks.spawn(async move {
            match register(&client, &target, &fresh_name("flood")).await {
                Ok(Ok(_)) => "http_201".to_owned(),
                Ok(Err(status)) => format!("http_{status}"),
                Err(_) => "request_failed".to_owned(),
            }
        });
    }
    let mut report = FloodReport {
        attempts,
        ..FloodReport::default()
    };
    while let Some(outcome) = tasks.join_next().await {
        report.count(outcome.unwrap_or_else(|_| "task_failed".to_owned()));
    }
    Ok(report)
}

async fn sockets(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    let mut first = conn::connect(target, args.source(0)).await?;
    let token = match hello(&mut first, None).await? {
        Some(ServerMessage::Welcome { token, .. }) => token,
        other => anyhow::bail!("the guest was not welcomed: {other:?}"),
    };
    let mut report = FloodReport::default();
    let mut open = vec![first];
    let mut pace = Pace::new(args);
    while pace.next().await {
        report.attempts += 1;
        match conn::connect(target, args.source(report.attempts)).await {
            Ok(mut ws) => {
                let got = hello(&mut ws, Some(token.clone())).await.ok().flatten();
                let result = outcome(got.as_ref());
                if result == "accepted" {
                    open.push(ws);
                } else {
                    let _ = ws.close(None).await;
                }
                report.count(result);
            }
            Err(_) => report.count("connect_failed"),
        }
    }
    report.count_extra("sockets_held", open.len() as u64);
    close_all(open).await;
    Ok(report)
}

async fn logins(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    // One client per source address, each keeping its connections alive as a browser would.
    let clients = (0..args.source_ips.max(1) as u64)
        .map(|n| {
            reqwest::Client::builder()
                .timeout(Duration::from_secs_f64(args.answer_secs))
                .local_address(args.source(n))
                .build()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let url = format!("{}/api/login", target.http_base());
    // Attempts go out at the rate whatever the answers take (a password check is slow on purpose), as an
    // attacker's would; each answer is counted when it comes.
    let mut tasks = tokio::task::JoinSet::new();
    let mut pace = Pace::new(args);
    let mut attempts = 0u64;
    while pace.next().await {
        attempts += 1;
        let client = clients[(attempts as usize) % clients.len()].clone();
        let url = url.clone();
        tasks.spawn(async move {
            let body =
                serde_json::json!({ "username": "flood-victim", "password": "not the password" });
            match client.post(&url).json(&body).send().await {
                Ok(resp) => format!("http_{}", resp.status().as_u16()),
                Err(_) => "request_failed".to_owned(),
            }
        });
    }
    let mut report = FloodReport {
        attempts,
        ..FloodReport::default()
    };
    while let Some(outcome) = tasks.join_next().await {
        report.count(outcome.unwrap_or_else(|_| "task_failed".to_owned()));
    }
    Ok(report)
}

async fn slowloris(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    let report = std::sync::Arc::new(std::sync::Mutex::new(FloodReport::default()));
    let mut pace = Pace::new(args);
    let end = pace.end;
    let open = std::sync::Arc::new(tokio::sync::Semaphore::new(args.max_open));
    let trickle = Duration::from_secs_f64(args.trickle_secs.max(0.1));
    let mut tasks = tokio::task::JoinSet::new();
    while pace.next().await {
        let Ok(permit) = open.clone().try_acquire_owned() else {
            continue;
        };
        let source = {
            let mut report = report.lock().expect("report");
            report.attempts += 1;
            args.source(report.attempts)
        };
        let addr = target.addr;
        let report = report.clone();
        tasks.spawn(async move {
            let _permit = permit;
            let outcome = trickle_request(addr, source, trickle, end).await;
            let mut report = report.lock().expect("report");
            match outcome {
                Ok(Some(after)) => {
                    report.count("closed_by_server");
                    report.closed_after_secs.push(after);
                }
                Ok(None) => report.count("held_to_the_end"),
                Err(_) => report.count("connect_failed"),
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    let mut report = std::sync::Arc::try_unwrap(report)
        .map_err(|_| anyhow::anyhow!("slowloris tasks still hold the report"))?
        .into_inner()
        .expect("report");
    report.closed_after_secs.sort_by(f64::total_cmp);
    Ok(report)
}

/// One slowloris connection: a request line, then a header line every `trickle`, never the blank line. Says
/// after how many seconds the server closed it, or `None` when it was still open at `end`.
async fn trickle_request(
    addr: std::net::SocketAddr,
    source: Option<IpAddr>,
    trickle: Duration,
    end: Instant,
) -> anyhow::Result<Option<f64>> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    if let Some(ip) = source {
        socket.bind(std::net::SocketAddr::new(ip, 0))?;
    }
    let mut stream: TcpStream = socket.connect(addr).await.context("connect")?;
    let opened = Instant::now();
    let closed = |opened: Instant| Ok(Some(opened.elapsed().as_secs_f64()));
    if stream
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n")
        .await
        .is_err()
    {
        return closed(opened);
    }
    let mut buf = [0u8; 512];
    let mut line = 0u64;
    loop {
        let next = (Instant::now() + trickle).min(end);
        match tokio::time::timeout_at(next, stream.read(&mut buf)).await {
            // The server answered (a 408, say) or closed: either way it gave up on us.
            Ok(Ok(0)) | Ok(Err(_)) => return closed(opened),
            Ok(Ok(_)) => continue,
            Err(_) => {}
        }
        if Instant::now() >= end {
            return Ok(None);
        }
        line += 1;
        if stream
            .write_all(format!("X-Trickle-{line}: a\r\n").as_bytes())
            .await
            .is_err()
        {
            return closed(opened);
        }
    }
}

async fn chat(target: &Target, args: &FloodArgs) -> anyhow::Result<FloodReport> {
    let mut report = FloodReport::default();
    // A host with a waiting room, and one spectator who chats in it.
    let mut host = conn::connect(target, args.source(0)).await?;
    hello(&mut host, None).await?;
    conn::send(&mut host, &waiting_room(), None).await?;
    let room = loop {
        match answer(&mut host).await {
            Some(ServerMessage::Room { room }) => break room.id.clone(),
            Some(ServerMessage::Welcome { .. }) => continue,
            other => anyhow::bail!("could not create the chat room: {other:?}"),
        }
    };
    let mut talker = conn::connect(target, args.source(1)).await?;
    hello(&mut talker, None).await?;
    conn::send(
        &mut talker,
        &ClientMessage::Join {
            room: room.clone(),
            role: protocol::JoinRole::Spectator,
            since: None,
        },
        None,
    )
    .await?;
    answer(&mut talker).await;
    // Chat has no reply of its own: each message gets a rid, and an error echoing it is counted; the others are
    // counted as sent. The host's socket is drained so it never counts as slow.
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    let drain = tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                msg = host.next() => if msg.is_none() { break },
            }
        }
        host
    });
    let mut pace = Pace::new(args);
    let mut rid = 0u64;
    while pace.next().await {
        report.attempts += 1;
        rid += 1;
        let msg = ClientMessage::Chat {
            room: room.clone(),
            text: format!("flood {rid}"),
        };
        if conn::send(&mut talker, &msg, Some(rid)).await.is_err() {
            report.count("closed_by_server");
            break;
        }
        report.count("sent");
        while let Ok(Some(Ok(Message::Text(text)))) =
            tokio::time::timeout(Duration::from_millis(1), talker.next()).await
        {
            if let Ok(frame) = conn::parse(&text) {
                if let ServerMessage::Error { code, .. } = frame.msg {
                    report.count(format!("error:{code}"));
                }
            }
        }
    }
    let _ = stop.send(());
    if let Ok(mut host) = drain.await {
        let _ = host.close(None).await;
    }
    let _ = talker.close(None).await;
    Ok(report)
}
