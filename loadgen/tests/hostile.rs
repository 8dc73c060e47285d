//! Hostile input over real sockets against the real server (in-process, port 0, fresh SQLite file): a barrage of
//! 10,000 random and mutated frames while two honest clients play a game, and the limits (connections overall
//! and per address, frame size, message rate, rooms per player).

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use loadgen::conn::{self, Target, Ws};
use loadgen::picker::pick;
use protocol::{
    ClientMessage, ColourChoice, Frame, JoinRole, RoomEvent, RulesSpec, ServerMessage, TimeControl,
};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rules::{Action, Color, ForbiddenPolicy, Game, Opening, Point, RuleSet, Rules};
use server::time::ManualClock;
use server::{AppState, Config};
use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

/// How long any one answer may take before the test calls it missing.
const WAIT: Duration = Duration::from_secs(10);

/// The real server on 127.0.0.1:0 with a fresh database.
struct TestServer {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
    _dir: tempfile::TempDir,
}

impl TestServer {
    /// Starts a server; with `manual_clock` its rate limits only refill when the test says (never, here), so the
    /// limit tests count exactly.
    async fn start(config: Config, manual_clock: bool) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let url = dir.path().join("hostile.db").to_string_lossy().into_owned();
        let store = store::open(&url).await.unwrap();
        let state = if manual_clock {
            AppState::with_clock(config, store, ManualClock::new()).await
        } else {
            AppState::new(config, store).await
        }
        .unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server::run(listener, state, async move {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            stop: Some(stop),
            task: Some(task),
            _dir: dir,
        }
    }

    fn target(&self) -> Target {
        Target::parse(&format!("ws://{}/ws", self.addr)).unwrap()
    }

    async fn connect(&self) -> Ws {
        conn::connect(&self.target(), None).await.unwrap()
    }

    async fn connect_from(&self, ip: &str) -> Ws {
        let ip: IpAddr = ip.parse().unwrap();
        conn::connect(&self.target(), Some(ip)).await.unwrap()
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(Duration::from_secs(20), self.task.take().unwrap())
            .await
            .expect("the server stops in time")
            .unwrap()
            .unwrap();
    }
}

fn config() -> Config {
    Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        ..Config::default()
    }
}

/// What came back from the server.
// Replies live for one match statement; boxing the message would only add noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum Reply {
    Msg(Frame<ServerMessage>),
    /// A close frame, with its code.
    Closed(Option<u16>),
    /// The socket ended without a close frame.
    Dropped,
    /// Nothing within [`WAIT`].
    Silent,
}

async fn next(ws: &mut Ws) -> Reply {
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await {
            Err(_) => return Reply::Silent,
            Ok(None) | Ok(Some(Err(_))) => return Reply::Dropped,
            Ok(Some(Ok(Message::Close(f)))) => {
                return Reply::Closed(f.map(|f| u16::from(f.code)));
            }
            Ok(Some(Ok(Message::Text(t)))) => {
                let frame = protocol::decode::<ServerMessage>(t.as_str(), usize::MAX)
                    .expect("the server sends protocol frames");
                return Reply::Msg(frame);
            }
            Ok(Some(Ok(_))) => continue,
        }
    }
}

async fn send(ws: &mut Ws, msg: &ClientMessage, rid: u64) {
    conn::send(ws, msg, Some(rid)).await.unwrap();
}

/// Waits for the message answering `rid`, skipping room events and other traffic.
async fn answer(ws: &mut Ws, rid: u64) -> ServerMessage {
    loop {
        match next(ws).await {
            Reply::Msg(f) if f.rid == Some(rid) => return f.msg,
            Reply::Msg(_) => continue,
            other => panic!("no answer to request {rid}: {other:?}"),
        }
    }
}

async fn hello(ws: &mut Ws) -> String {
    let msg = ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: None,
    };
    send(ws, &msg, 1).await;
    match answer(ws, 1).await {
        ServerMessage::Welcome { you, .. } => you.name,
        other => panic!("expected welcome, got {other:?}"),
    }
}

fn freestyle() -> RulesSpec {
    RulesSpec {
        size: 15,
        rule_set: RuleSet::Freestyle,
        forbidden_policy: ForbiddenPolicy::Reject,
        opening: Opening::None,
    }
}

fn create_room() -> ClientMessage {
    ClientMessage::CreateRoom {
        rules: freestyle(),
        time_control: TimeControl::None,
        rated: false,
        public: true,
        colour: ColourChoice::Black,
    }
}

async fn create(ws: &mut Ws, rid: u64) -> String {
    send(ws, &create_room(), rid).await;
    match answer(ws, rid).await {
        ServerMessage::Room { room } => room.id,
        other => panic!("expected a room snapshot, got {other:?}"),
    }
}

async fn join(ws: &mut Ws, room: &str, rid: u64) {
    let msg = ClientMessage::Join {
        room: room.to_owned(),
        role: JoinRole::Player,
        since: None,
    };
    send(ws, &msg, rid).await;
    match answer(ws, rid).await {
        ServerMessage::Room { .. } | ServerMessage::Event { .. } => {}
        other => panic!("join refused: {other:?}"),
    }
}

/// Waits on `ws` for the `move` event of `ply`; returns its point. Any error on an honest socket fails the test.
async fn wait_move(ws: &mut Ws, ply: u32) -> Point {
    loop {
        match next(ws).await {
            Reply::Msg(Frame {
                msg:
                    ServerMessage::Event {
                        event: RoomEvent::Move { ply: p, point, .. },
                        ..
                    },
                ..
            }) if p == ply => return point,
            Reply::Msg(Frame {
                msg: ServerMessage::Error { code, message },
                ..
            }) => panic!("honest client got error {code}: {message}"),
            Reply::Msg(_) => continue,
            other => panic!("honest client lost its socket: {other:?}"),
        }
    }
}

async fn wait_game_over(ws: &mut Ws) -> String {
    loop {
        match next(ws).await {
            Reply::Msg(Frame {
                msg:
                    ServerMessage::Event {
                        event: RoomEvent::GameOver { result, .. },
                        ..
                    },
                ..
            }) => return result.reason,
            Reply::Msg(Frame {
                msg: ServerMessage::Error { code, message },
                ..
            }) => panic!("honest client got error {code}: {message}"),
            Reply::Msg(_) => continue,
            other => panic!("honest client lost its socket: {other:?}"),
        }
    }
}

/// Two honest players play a freestyle game to its end, a stone every few milliseconds; the room id is published
/// for the attackers as soon as it exists. Returns the game id, the stones played and the result reason.
async fn honest_game(
    target: Target,
    room_tx: watch::Sender<Option<String>>,
) -> (i64, Vec<Point>, String) {
    let mut black = conn::connect(&target, None).await.unwrap();
    let mut white = conn::connect(&target, None).await.unwrap();
    hello(&mut black).await;
    hello(&mut white).await;
    let room = create(&mut black, 2).await;
    room_tx.send_replace(Some(room.clone()));
    join(&mut white, &room, 2).await;
    let game_id = loop {
        match next(&mut black).await {
            Reply::Msg(Frame {
                msg:
                    ServerMessage::Event {
                        event: RoomEvent::GameStarted { game_id, .. },
                        ..
                    },
                ..
            }) => break game_id,
            Reply::Msg(_) => continue,
            other => panic!("the honest game did not start: {other:?}"),
        }
    };
    let mut rng = StdRng::seed_from_u64(42);
    let mut game = Game::new(Rules::freestyle());
    let mut rid = 10;
    while let Some(colour) = game.to_act() {
        let point = pick(&game, colour, &mut rng).expect("a legal stone");
        let ply = game.ply() as u32 + 1;
        let (mover, other) = if colour == Color::Black {
            (&mut black, &mut white)
        } else {
            (&mut white, &mut black)
        };
        rid += 1;
        let msg = ClientMessage::Place {
            room: room.clone(),
            point,
            ply,
        };
        send(mover, &msg, rid).await;
        assert_eq!(wait_move(mover, ply).await, point);
        assert_eq!(wait_move(other, ply).await, point);
        game.apply(Action::Place { point }).unwrap();
        // Slow enough that the game spans the barrage.
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    let reason = wait_game_over(&mut black).await;
    assert_eq!(wait_game_over(&mut white).await, reason);
    (game_id, game.moves().to_vec(), reason)
}

/// A hostile payload.
enum Payload {
    Text(String),
    Binary(Vec<u8>),
}

/// A valid client message, as JSON text, for mutation.
fn valid(rng: &mut StdRng, room: &str) -> String {
    let msgs = [
        ClientMessage::Place {
            room: room.to_owned(),
            point: "h8".parse().unwrap(),
            ply: rng.random_range(0..300),
        },
        ClientMessage::Chat {
            room: room.to_owned(),
            text: "hi".into(),
        },
        ClientMessage::Join {
            room: room.to_owned(),
            role: JoinRole::Player,
            since: Some(3),
        },
        create_room(),
        ClientMessage::ProposeFifth {
            room: room.to_owned(),
            points: ["a1".parse().unwrap(), "b2".parse().unwrap()],
        },
    ];
    protocol::encode(msgs.choose(rng).unwrap(), Some(rng.random_range(0..1000)))
}

/// One hostile frame. Each is one that a correct server must refuse: with an `error`, or by closing. `greeted`
/// says whether the connection said hello (a first hello with the right version would be welcome).
fn hostile(rng: &mut StdRng, honest_room: &str, greeted: bool) -> Payload {
    let text = match rng.random_range(0..100) {
        // Garbage: random bytes made text.
        0..=11 => {
            let n = rng.random_range(1..200);
            let bytes: Vec<u8> = (0..n).map(|_| rng.random()).collect();
            let s = String::from_utf8_lossy(&bytes).into_owned();
            if s.trim().is_empty() {
                "\u{1}".into()
            } else {
                s
            }
        }
        // Truncated JSON.
        12..=23 => {
            let v = valid(rng, honest_room);
            let cut = rng.random_range(1..v.len() - 1);
            v.chars().take(cut).collect()
        }
        // Huge numbers.
        24..=31 => {
            let n = [
                "1e400",
                "18446744073709551616",
                "4294967296",
                "-1",
                "99999999999999999999999999999999",
                "1.5",
            ]
            .choose(rng)
            .unwrap();
            match rng.random_range(0..3) {
                0 => format!(r#"{{"t":"place","room":"{honest_room}","point":"h8","ply":{n}}}"#),
                // 4294967296 is a fine request id: only numbers no u64 holds are wrong there.
                1 if *n != "4294967296" => format!(r#"{{"t":"ping","rid":{n}}}"#),
                _ => format!(r#"{{"t":"hello","version":{n}}}"#),
            }
        }
        // Deep nesting.
        32..=37 => {
            let depth = rng.random_range(129..5000);
            let (open, close) = if rng.random_bool(0.5) {
                ("[", "]")
            } else {
                (r#"{"a":"#, "}")
            };
            format!("{}1{}", open.repeat(depth), close.repeat(depth))
        }
        // Wrong types and shapes.
        38..=51 => [
            r#"{"t":"place","room":5,"point":true,"ply":"x"}"#.to_owned(),
            r#"{"t":7}"#.to_owned(),
            r#"{"t":null,"room":"x"}"#.to_owned(),
            r#"[]"#.to_owned(),
            r#""place""#.to_owned(),
            r#"null"#.to_owned(),
            r#"{"t":"place","room":"x","point":"z99","ply":1}"#.to_owned(),
            r#"{"t":"place","room":"x","point":"h8"}"#.to_owned(),
            r#"{"t":"join","room":["x"]}"#.to_owned(),
            r#"{"t":"create_room","rules":{"rule_set":"chess"}}"#.to_owned(),
            r#"{"t":"chat","room":"x","text":{"a":1}}"#.to_owned(),
            r#"{"t":"propose_fifth","room":"x","points":["a1"]}"#.to_owned(),
            format!(
                r#"{{"t":"hello","version":1,"token":{}}}"#,
                rng.random::<u32>()
            ),
        ]
        .choose(rng)
        .unwrap()
        .clone(),
        // Unknown message types.
        52..=57 => format!(
            r#"{{"t":"launch_{}","rid":{}}}"#,
            rng.random::<u16>(),
            rng.random::<u16>()
        ),
        // Valid messages for a room the attacker has no part in (the honest game), or no room at all.
        58..=79 => {
            let room = if rng.random_bool(0.7) {
                honest_room.to_owned()
            } else {
                format!("nope{}", rng.random::<u16>())
            };
            let msgs = [
                ClientMessage::Place {
                    room: room.clone(),
                    point: "a1".parse().unwrap(),
                    ply: rng.random_range(1..300),
                },
                ClientMessage::Resign { room: room.clone() },
                ClientMessage::OfferDraw { room: room.clone() },
                ClientMessage::ClaimForbidden { room: room.clone() },
                ClientMessage::RequestTakeback { room: room.clone() },
                ClientMessage::AnswerDraw {
                    room: room.clone(),
                    accept: true,
                },
                ClientMessage::Chat {
                    room: room.clone(),
                    text: "spam".into(),
                },
                ClientMessage::DecideSwap {
                    room: room.clone(),
                    swap: true,
                },
                ClientMessage::Join {
                    room: room.clone(),
                    role: JoinRole::Player,
                    since: None,
                },
            ];
            protocol::encode(msgs.choose(rng).unwrap(), Some(rng.random_range(0..1000)))
        }
        // Oversize: over the limit (answered), or far over it (the connection is closed).
        80..=83 => {
            let n = if rng.random_bool(0.8) {
                20_000
            } else {
                300_000
            };
            format!(r#"{{"t":"chat","room":"x","text":"{}"}}"#, "a".repeat(n))
        }
        // A second hello, or bad versions.
        84..=89 => {
            let versions: &[u32] = if greeted { &[0, 1, 999] } else { &[0, 999] };
            format!(
                r#"{{"t":"hello","version":{}}}"#,
                versions.choose(rng).unwrap()
            )
        }
        // Binary frames.
        _ => {
            let n = rng.random_range(0..300);
            return Payload::Binary((0..n).map(|_| rng.random()).collect());
        }
    };
    Payload::Text(text)
}

/// A payload as shown in a failure message.
fn shown(p: &Payload) -> String {
    match p {
        Payload::Text(t) => format!("text {:?}", t.chars().take(80).collect::<String>()),
        Payload::Binary(b) => format!("{} binary bytes", b.len()),
    }
}

/// What the attackers saw.
#[derive(Debug, Default)]
struct Tally {
    frames: usize,
    errors: BTreeMap<String, usize>,
    closes: BTreeMap<u16, usize>,
    failures: Vec<String>,
}

impl Tally {
    fn merge(&mut self, o: Tally) {
        self.frames += o.frames;
        for (k, v) in o.errors {
            *self.errors.entry(k).or_default() += v;
        }
        for (k, v) in o.closes {
            *self.closes.entry(k).or_default() += v;
        }
        self.failures.extend(o.failures);
    }
}

/// Sends `frames` hostile frames, one at a time, each waiting for its answer; reconnects when closed.
async fn attacker(target: Target, room: String, frames: usize, seed: u64) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut ws: Option<Ws> = None;
    let mut greeted = false;
    for i in 0..frames {
        if ws.is_none() {
            let mut fresh = conn::connect(&target, None).await.unwrap();
            // Most attackers say hello first so their frames reach the room code; some never do.
            greeted = rng.random_bool(0.85);
            if greeted {
                hello(&mut fresh).await;
            }
            ws = Some(fresh);
        }
        let socket = ws.as_mut().unwrap();
        let payload = hostile(&mut rng, &room, greeted);
        let sent = match &payload {
            Payload::Text(t) => socket.send(Message::text(t.clone())).await,
            Payload::Binary(b) => socket.send(Message::binary(b.clone())).await,
        };
        let last = payload;
        tally.frames += 1;
        if sent.is_err() {
            // The server closed while we wrote (a frame far over the limit): the close must still say why.
            match next(socket).await {
                Reply::Closed(Some(code)) => *tally.closes.entry(code).or_default() += 1,
                other => tally
                    .failures
                    .push(format!("frame {i}: write failed, then {other:?}")),
            }
            ws = None;
            continue;
        }
        loop {
            match next(socket).await {
                Reply::Msg(Frame {
                    msg: ServerMessage::Error { code, .. },
                    ..
                }) => {
                    *tally.errors.entry(code).or_default() += 1;
                    break;
                }
                // Room traffic (a snapshot of a room we were told about, spectator counts) is not an answer.
                Reply::Msg(Frame { rid: None, .. }) => continue,
                Reply::Msg(f) => {
                    tally
                        .failures
                        .push(format!("frame {i} was accepted: {:?}", f.msg));
                    break;
                }
                Reply::Closed(Some(code)) => {
                    *tally.closes.entry(code).or_default() += 1;
                    ws = None;
                    break;
                }
                other => {
                    tally
                        .failures
                        .push(format!("frame {i} ({}): {other:?}", shown(&last)));
                    ws = None;
                    break;
                }
            }
        }
    }
    tally
}

/// Two attackers seated in their own game send game actions that are wrong for its state: stale and future plies,
/// occupied points, moves out of turn, answers to offers never made, phase actions out of phase.
async fn sparring(target: Target, frames: usize, seed: u64) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut black = conn::connect(&target, None).await.unwrap();
    let mut white = conn::connect(&target, None).await.unwrap();
    hello(&mut black).await;
    hello(&mut white).await;
    let room = create(&mut black, 2).await;
    join(&mut white, &room, 2).await;
    for (ws, ply, point) in [(&mut black, 1, "h8"), (&mut white, 2, "a1")] {
        let msg = ClientMessage::Place {
            room: room.clone(),
            point: point.parse().unwrap(),
            ply,
        };
        send(ws, &msg, 3).await;
        wait_move(ws, ply).await;
    }
    // Black is to play ply 3.
    let mut tally = Tally::default();
    let mut rid = 100;
    for i in 0..frames {
        rid += 1;
        let r = room.clone();
        let (ws, msg) = match rng.random_range(0..11) {
            0 => (
                &mut black,
                ClientMessage::Place {
                    room: r,
                    point: "c3".parse().unwrap(),
                    ply: [1, 2, 4, 99, 0][rng.random_range(0..5)],
                },
            ),
            1 => (
                &mut black,
                ClientMessage::Place {
                    room: r,
                    point: "h8".parse().unwrap(),
                    ply: 3,
                },
            ),
            2 => (
                &mut white,
                ClientMessage::Place {
                    room: r,
                    point: "c3".parse().unwrap(),
                    ply: 3,
                },
            ),
            3 => (
                &mut white,
                ClientMessage::DecideSwap {
                    room: r,
                    swap: rng.random(),
                },
            ),
            4 => (
                &mut black,
                ClientMessage::ChooseFifth {
                    room: r,
                    point: "c3".parse().unwrap(),
                },
            ),
            5 => (
                &mut black,
                ClientMessage::ProposeFifth {
                    room: r,
                    points: ["c3".parse().unwrap(), "d4".parse().unwrap()],
                },
            ),
            6 => (&mut white, ClientMessage::ClaimForbidden { room: r }),
            7 => (
                &mut black,
                ClientMessage::AnswerDraw {
                    room: r,
                    accept: true,
                },
            ),
            8 => (
                &mut white,
                ClientMessage::AnswerTakeback {
                    room: r,
                    accept: true,
                },
            ),
            9 => (&mut black, ClientMessage::OfferRematch { room: r }),
            _ => (
                &mut white,
                ClientMessage::AnswerRematch {
                    room: r,
                    accept: true,
                },
            ),
        };
        send(ws, &msg, rid).await;
        tally.frames += 1;
        match answer(ws, rid).await {
            ServerMessage::Error { code, .. } => *tally.errors.entry(code).or_default() += 1,
            other => tally.failures.push(format!(
                "sparring frame {i} ({msg:?}) was accepted: {other:?}"
            )),
        }
    }
    tally
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_hostile_frames_leave_the_server_up_and_the_honest_game_intact() {
    let server = TestServer::start(
        Config {
            // Attackers here are measured on what they send, not throttled before it is read.
            msg_rate: 100_000.0,
            msg_burst: 100_000,
            abuse_limit: 25,
            // Each reconnecting attacker is a new guest from 127.0.0.1; the guest limit has tests of its own.
            guest_burst_per_ip: 1_000_000,
            ..config()
        },
        false,
    )
    .await;
    let target = server.target();
    let (room_tx, mut room_rx) = watch::channel(None);
    let honest = tokio::spawn(honest_game(target.clone(), room_tx));
    let room = room_rx
        .wait_for(|r| r.is_some())
        .await
        .unwrap()
        .clone()
        .unwrap();

    const ATTACKERS: usize = 38;
    const EACH: usize = 250;
    const SPARRING: usize = 500;
    let mut tasks = Vec::new();
    for a in 0..ATTACKERS {
        tasks.push(tokio::spawn(attacker(
            target.clone(),
            room.clone(),
            EACH,
            a as u64,
        )));
    }
    tasks.push(tokio::spawn(sparring(target.clone(), SPARRING, 99)));
    let mut tally = Tally::default();
    for t in tasks {
        tally.merge(t.await.unwrap());
    }
    let barrage_over = std::time::Instant::now();
    let (game_id, stones, reason) = honest.await.unwrap();
    eprintln!(
        "{} hostile frames; errors {:?}; closes {:?}; the honest game ({} stones) ended {:?} after the barrage",
        tally.frames,
        tally.errors,
        tally.closes,
        stones.len(),
        barrage_over.elapsed()
    );

    assert!(
        tally.failures.is_empty(),
        "{} failures, first: {:#?}",
        tally.failures.len(),
        &tally.failures[..tally.failures.len().min(10)]
    );
    assert_eq!(tally.frames, ATTACKERS * EACH + SPARRING);
    let answered: usize =
        tally.errors.values().sum::<usize>() + tally.closes.values().sum::<usize>();
    assert_eq!(
        answered, tally.frames,
        "every bad frame gets an error or a close: {tally:?}"
    );
    assert!(!tally.errors.contains_key("internal"), "{tally:?}");
    for code in [
        "bad_json",
        "invalid_field",
        "unknown_type",
        "too_large",
        "binary_frame",
        "hello_required",
        "already_hello",
        "unknown_room",
        "stale_ply",
        "occupied",
        "not_your_turn",
        "no_offer",
    ] {
        assert!(
            tally.errors.contains_key(code),
            "no {code} among {:?}",
            tally.errors
        );
    }
    assert!(
        tally.closes.keys().all(|&c| c == 1008 || c == 1009),
        "{:?}",
        tally.closes
    );
    assert!(
        tally.closes.get(&1008).is_some_and(|&n| n > 0),
        "abusers are closed with 1008: {:?}",
        tally.closes
    );

    // The honest game ended normally and is stored exactly as played.
    assert!(
        ["five", "board_full"].contains(&reason.as_str()),
        "{reason}"
    );
    let record: serde_json::Value =
        reqwest::get(format!("http://{}/api/games/{game_id}", server.addr))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    let stored: Vec<Point> = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(
            |a| match serde_json::from_value::<Action>(a["action"].clone()).unwrap() {
                Action::Place { point } => point,
                other => panic!("unexpected stored action {other:?}"),
            },
        )
        .collect();
    assert_eq!(stored, stones);
    assert!(!record["result"].is_null());

    // Still up: health answers and a new client is served.
    let health = reqwest::get(format!("http://{}/api/health", server.addr))
        .await
        .unwrap();
    assert!(health.status().is_success());
    let mut ws = server.connect().await;
    hello(&mut ws).await;
    drop(ws);
    server.stop().await;
}

/// Opens a connection and says hello; `Err` with the refusal's error code and close code when refused.
async fn try_hello(ws: &mut Ws) -> Result<(), (String, Option<u16>)> {
    let msg = ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: None,
    };
    let _ = conn::send(ws, &msg, Some(1)).await;
    let mut code = String::new();
    loop {
        match next(ws).await {
            Reply::Msg(Frame {
                msg: ServerMessage::Welcome { .. },
                ..
            }) => return Ok(()),
            Reply::Msg(Frame {
                msg: ServerMessage::Error { code: c, .. },
                ..
            }) => code = c,
            Reply::Msg(_) => {}
            Reply::Closed(close) => return Err((code, close)),
            other => panic!("neither welcome nor a close: {other:?}"),
        }
    }
}

/// Polls until a refused address is admitted again (the server frees a place when a closed socket's task ends).
async fn admitted_eventually(server: &TestServer, ip: &str) -> Ws {
    for _ in 0..100 {
        let mut ws = server.connect_from(ip).await;
        if try_hello(&mut ws).await.is_ok() {
            return ws;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never admitted again");
}

#[tokio::test]
async fn connections_over_the_overall_limit_are_refused_with_a_code_until_one_closes() {
    let server = TestServer::start(
        Config {
            max_connections: 3,
            ..config()
        },
        true,
    )
    .await;
    let mut open = Vec::new();
    for ip in ["127.0.0.1", "127.0.0.2", "127.0.0.3"] {
        let mut ws = server.connect_from(ip).await;
        try_hello(&mut ws).await.unwrap();
        open.push(ws);
    }
    let mut extra = server.connect_from("127.0.0.4").await;
    let (code, close) = try_hello(&mut extra).await.unwrap_err();
    assert_eq!(code, "too_many_connections");
    assert_eq!(close, Some(1013));

    let mut first = open.remove(0);
    first.close(None).await.unwrap();
    while let Some(Ok(_)) = first.next().await {}
    let _again = admitted_eventually(&server, "127.0.0.4").await;
    drop(open);
    server.stop().await;
}

#[tokio::test]
async fn connections_over_the_per_address_limit_are_refused_while_other_addresses_are_served() {
    let server = TestServer::start(
        Config {
            max_connections_per_ip: 2,
            ..config()
        },
        true,
    )
    .await;
    let mut a1 = server.connect_from("127.0.0.1").await;
    let mut a2 = server.connect_from("127.0.0.1").await;
    try_hello(&mut a1).await.unwrap();
    try_hello(&mut a2).await.unwrap();
    let mut a3 = server.connect_from("127.0.0.1").await;
    let (code, close) = try_hello(&mut a3).await.unwrap_err();
    assert_eq!(code, "too_many_connections");
    assert_eq!(close, Some(1013));
    let mut b = server.connect_from("127.0.0.2").await;
    try_hello(&mut b).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_frame_over_the_size_limit_gets_too_large_and_one_at_the_limit_is_served() {
    let server = TestServer::start(
        Config {
            max_frame_bytes: 1024,
            ..config()
        },
        true,
    )
    .await;
    let mut ws = server.connect().await;
    hello(&mut ws).await;
    let ping = r#"{"t":"ping","rid":7}"#;
    let at_limit = format!("{ping}{}", " ".repeat(1024 - ping.len()));
    ws.send(Message::text(at_limit)).await.unwrap();
    assert!(matches!(answer(&mut ws, 7).await, ServerMessage::Pong {}));
    let over = format!("{ping}{}", " ".repeat(1025 - ping.len()));
    ws.send(Message::text(over)).await.unwrap();
    match next(&mut ws).await {
        Reply::Msg(Frame {
            msg: ServerMessage::Error { code, .. },
            ..
        }) => assert_eq!(code, "too_large"),
        other => panic!("expected too_large, got {other:?}"),
    }
    // Far over the limit the frame is not even read: the connection closes with a code.
    let _ = ws.send(Message::text("x".repeat(300_000))).await;
    match next(&mut ws).await {
        Reply::Closed(Some(code)) => assert!(code == 1008 || code == 1009, "{code}"),
        other => panic!("expected a close with a code, got {other:?}"),
    }
    server.stop().await;
}

#[tokio::test]
async fn a_flood_is_rate_limited_and_then_closed_with_1008() {
    // On a clock that never moves the buckets never refill, so the counts are exact.
    let server = TestServer::start(
        Config {
            msg_rate: 5.0,
            msg_burst: 10,
            abuse_limit: 3,
            ..config()
        },
        true,
    )
    .await;
    let mut ws = server.connect().await;
    hello(&mut ws).await; // one message of the burst
    for rid in 100..130u64 {
        let _ = conn::send(&mut ws, &ClientMessage::Ping {}, Some(rid)).await;
    }
    let (mut pongs, mut limited) = (0, 0);
    let close = loop {
        match next(&mut ws).await {
            Reply::Msg(Frame {
                msg: ServerMessage::Pong {},
                ..
            }) => pongs += 1,
            Reply::Msg(Frame {
                msg: ServerMessage::Error { code, .. },
                ..
            }) => {
                assert_eq!(code, "rate_limited");
                limited += 1;
            }
            Reply::Msg(other) => panic!("unexpected {other:?}"),
            Reply::Closed(code) => break code,
            other => panic!("expected a close, got {other:?}"),
        }
    };
    assert_eq!(pongs, 9, "the burst minus the hello");
    assert_eq!(limited, 4, "three violations allowed, the fourth closes");
    assert_eq!(close, Some(1008));
    server.stop().await;
}

#[tokio::test]
async fn a_player_cannot_hold_more_rooms_than_allowed() {
    let server = TestServer::start(
        Config {
            max_rooms_per_player: 2,
            ..config()
        },
        true,
    )
    .await;
    let mut ws = server.connect().await;
    hello(&mut ws).await;
    create(&mut ws, 2).await;
    create(&mut ws, 3).await;
    send(&mut ws, &create_room(), 4).await;
    match answer(&mut ws, 4).await {
        ServerMessage::Error { code, .. } => assert_eq!(code, "too_many_rooms"),
        other => panic!("a third room was created: {other:?}"),
    }
    server.stop().await;
}
