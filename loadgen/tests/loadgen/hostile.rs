//! Hostile input over real sockets against the real server (in-process, port 0, fresh SQLite file): a barrage of
//! 10,000 random and mutated frames while two honest clients play a game, and the limits (connections overall
//! and per address, frame size, message rate, rooms per player).

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Duration;

use client::{Connection, Next, Replica};
use loadgen::conn::{self, Target};
use loadgen::picker::pick;
use protocol::{
    ClientMessage, ColourChoice, Frame, JoinRole, RoomEvent, RulesSpec, ServerMessage, TimeControl,
};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rules::{Action, Color, ForbiddenPolicy, Game, Opening, Point, RuleSet, Rules};
use server::Config;
use testkit::test_server::{test_config, TestServer};
use tokio::net::TcpStream;
use tokio::sync::watch;

/// A client connection as loadgen opens it (small buffers, a chosen source address), speaking through the typed
/// client; every wait is bounded by the client's wait (10 s), after which it reports [`Next::Silent`].
type Conn = Connection<TcpStream>;

/// The real server on 127.0.0.1:0 with a fresh database of its own; with `manual_clock` its rate limits only
/// refill when the test says (never, here), so the limit tests count exactly.
async fn start(config: Config, manual_clock: bool) -> TestServer {
    if manual_clock {
        TestServer::start_fresh(config).await
    } else {
        TestServer::start_real_time_fresh(config).await
    }
}

fn target(server: &TestServer) -> Target {
    Target::parse(&server.ws_url()).unwrap()
}

async fn open(target: &Target, source: Option<IpAddr>) -> Conn {
    Connection::new(conn::connect(target, source).await.unwrap())
}

async fn connect(server: &TestServer) -> Conn {
    open(&target(server), None).await
}

async fn connect_from(server: &TestServer, ip: &str) -> Conn {
    let ip: IpAddr = ip.parse().unwrap();
    open(&target(server), Some(ip)).await
}

fn config() -> Config {
    test_config()
}

/// The next frame, a close, the socket's end or silence; binary frames are skipped, and a text frame that is not
/// a server message fails the test.
async fn next(c: &mut Conn) -> Next {
    loop {
        match c.next_wire().await {
            Next::Binary(_) => continue,
            Next::Undecodable { text, error } => {
                panic!("the server sends protocol frames, not {text:?} ({error})")
            }
            other => return other,
        }
    }
}

/// Sends a message under a fresh request id; returns the id.
async fn send(c: &mut Conn, msg: &ClientMessage) -> u64 {
    c.send(msg).await.unwrap()
}

/// Waits for the message answering `rid`, keeping room events and other traffic aside.
async fn answer(c: &mut Conn, rid: u64) -> ServerMessage {
    match c.reply_to(rid).await {
        Ok(msg) => msg,
        Err(other) => panic!("no answer to request {rid}: {other:?}"),
    }
}

async fn hello(c: &mut Conn) -> String {
    let msg = ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: None,
    };
    let rid = send(c, &msg).await;
    match answer(c, rid).await {
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
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::None,
        rated: false,
        public: true,
        colour: ColourChoice::Black,
        rating_range: None,
    }
}

async fn create(c: &mut Conn) -> String {
    let rid = send(c, &create_room()).await;
    match answer(c, rid).await {
        ServerMessage::Room { room } => room.id,
        other => panic!("expected a room snapshot, got {other:?}"),
    }
}

async fn join(c: &mut Conn, room: &str) {
    let msg = ClientMessage::Join {
        room: room.to_owned(),
        role: JoinRole::Player,
        since: None,
    };
    let rid = send(c, &msg).await;
    match answer(c, rid).await {
        ServerMessage::Room { .. } | ServerMessage::Event { .. } => {}
        other => panic!("join refused: {other:?}"),
    }
}

/// The next frame as [`next`] reads it; a room event also goes into `view`, the honest client's replica of its
/// game, which must be able to follow it.
async fn next_seen(ws: &mut Conn, view: &mut Option<&mut Replica>) -> Next {
    let next = next(ws).await;
    if let (
        Next::Frame(Frame {
            msg: ServerMessage::Event { version, event, .. },
            ..
        }),
        Some(view),
    ) = (&next, view)
    {
        if let Err(e) = view.apply(*version, event) {
            panic!("an honest client's replica cannot follow {event:?}: {e}");
        }
    }
    next
}

/// Waits on `ws` for the `move` event of `ply`; returns its point. Any error on an honest socket fails the test.
async fn wait_move(ws: &mut Conn, ply: u32, mut view: Option<&mut Replica>) -> Point {
    loop {
        match next_seen(ws, &mut view).await {
            Next::Frame(Frame {
                msg:
                    ServerMessage::Event {
                        event:
                            RoomEvent::Action {
                                change: protocol::GameChange::Gomoku(change),
                                ..
                            },
                        ..
                    },
                ..
            }) if change.ply == ply && change.placed.is_some() => {
                return change.placed.expect("a stone")
            }
            Next::Frame(Frame {
                msg: ServerMessage::Error { code, message, .. },
                ..
            }) => panic!("honest client got error {code}: {message}"),
            Next::Frame(_) => continue,
            other => panic!("honest client lost its socket: {other:?}"),
        }
    }
}

async fn wait_game_over(ws: &mut Conn, view: &mut Replica) -> String {
    let mut view = Some(view);
    loop {
        match next_seen(ws, &mut view).await {
            Next::Frame(Frame {
                msg:
                    ServerMessage::Event {
                        event: RoomEvent::GameOver { result, .. },
                        ..
                    },
                ..
            }) => return result.reason,
            Next::Frame(Frame {
                msg: ServerMessage::Error { code, message, .. },
                ..
            }) => panic!("honest client got error {code}: {message}"),
            Next::Frame(_) => continue,
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
    let mut black = open(&target, None).await;
    let mut white = open(&target, None).await;
    let black_name = hello(&mut black).await;
    let white_name = hello(&mut white).await;
    let rid = send(&mut black, &create_room()).await;
    let ServerMessage::Room { room: snap } = answer(&mut black, rid).await else {
        panic!("the honest room was not created");
    };
    let room = snap.id.clone();
    let mut black_view =
        Replica::from_snapshot(&snap, Some(&black_name)).expect("a snapshot the replica follows");
    room_tx.send_replace(Some(room.clone()));
    let join_msg = ClientMessage::Join {
        room: room.clone(),
        role: JoinRole::Player,
        since: None,
    };
    let rid = send(&mut white, &join_msg).await;
    let ServerMessage::Room { room: snap } = answer(&mut white, rid).await else {
        panic!("the honest joiner got no snapshot");
    };
    let mut white_view =
        Replica::from_snapshot(&snap, Some(&white_name)).expect("a snapshot the replica follows");
    let game_id = loop {
        match next_seen(&mut black, &mut Some(&mut black_view)).await {
            Next::Frame(Frame {
                msg:
                    ServerMessage::Event {
                        event: RoomEvent::GameStarted { game_id, .. },
                        ..
                    },
                ..
            }) => break game_id,
            Next::Frame(_) => continue,
            other => panic!("the honest game did not start: {other:?}"),
        }
    };
    let mut rng = testkit::seed::rng(42);
    let mut game = Game::new(Rules::freestyle());
    while let Some(colour) = game.to_act() {
        let point = pick(&game, colour, &mut rng).expect("a legal stone");
        let ply = game.ply() as u32 + 1;
        let (mover, other, mover_view, other_view) = if colour == Color::Black {
            (&mut black, &mut white, &mut black_view, &mut white_view)
        } else {
            (&mut white, &mut black, &mut white_view, &mut black_view)
        };
        assert!(
            mover_view.my_turn() && !other_view.my_turn(),
            "{colour:?} to play ply {ply}"
        );
        assert_eq!(mover_view.next_ply(), ply);
        let msg = ClientMessage::Place {
            room: room.clone(),
            point,
            ply,
        };
        send(mover, &msg).await;
        assert_eq!(wait_move(mover, ply, Some(mover_view)).await, point);
        assert_eq!(wait_move(other, ply, Some(other_view)).await, point);
        game.apply(Action::Place { point }).unwrap();
        // Slow enough that the game spans the barrage.
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    let reason = wait_game_over(&mut black, &mut black_view).await;
    assert_eq!(wait_game_over(&mut white, &mut white_view).await, reason);
    // Both replicas, kept from the snapshot and the events alone, hold the game as played.
    for view in [&black_view, &white_view] {
        assert_eq!(view.game_id, Some(game_id));
        let Some(games::AnyGame::Gomoku(seen)) = &view.game else {
            panic!("the replica holds the Gomoku game: {view:?}");
        };
        assert_eq!(seen.rules_game().moves(), game.moves());
        assert_eq!(view.state, protocol::RoomState::Over);
        assert_eq!(
            view.result.as_ref().map(|r| r.reason.as_str()),
            Some(reason.as_str())
        );
    }
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
    let mut ws: Option<Conn> = None;
    let mut greeted = false;
    for i in 0..frames {
        if ws.is_none() {
            let mut fresh = open(&target, None).await;
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
            Payload::Text(t) => socket.send_text(t.clone()).await,
            Payload::Binary(b) => socket.send_binary(b.clone()).await,
        };
        let last = payload;
        tally.frames += 1;
        if sent.is_err() {
            // The server closed while we wrote (a frame far over the limit): the close must still say why.
            match next(socket).await {
                Next::Closed(Some(code)) => *tally.closes.entry(code).or_default() += 1,
                other => tally
                    .failures
                    .push(format!("frame {i}: write failed, then {other:?}")),
            }
            ws = None;
            continue;
        }
        loop {
            match next(socket).await {
                Next::Frame(Frame {
                    msg: ServerMessage::Error { code, .. },
                    ..
                }) => {
                    *tally.errors.entry(code).or_default() += 1;
                    break;
                }
                // Room traffic (a snapshot of a room we were told about, spectator counts) is not an answer.
                Next::Frame(Frame { rid: None, .. }) => continue,
                Next::Frame(f) => {
                    tally
                        .failures
                        .push(format!("frame {i} was accepted: {:?}", f.msg));
                    break;
                }
                Next::Closed(Some(code)) => {
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
    let mut black = open(&target, None).await;
    let mut white = open(&target, None).await;
    hello(&mut black).await;
    hello(&mut white).await;
    let room = create(&mut black).await;
    join(&mut white, &room).await;
    for (ws, ply, point) in [(&mut black, 1, "h8"), (&mut white, 2, "a1")] {
        let msg = ClientMessage::Place {
            room: room.clone(),
            point: point.parse().unwrap(),
            ply,
        };
        send(ws, &msg).await;
        wait_move(ws, ply, None).await;
    }
    // Black is to play ply 3.
    let mut tally = Tally::default();
    for i in 0..frames {
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
        let rid = send(ws, &msg).await;
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
    let server = start(
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
    let target = target(&server);
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
    // One seed for the run (TEST_SEED replays another); each attacker's and the sparring pair's derive from it.
    let seed = testkit::seed::seed(0);
    let mut tasks = Vec::new();
    for a in 0..ATTACKERS {
        tasks.push(tokio::spawn(attacker(
            target.clone(),
            room.clone(),
            EACH,
            seed.wrapping_add(a as u64),
        )));
    }
    tasks.push(tokio::spawn(sparring(
        target.clone(),
        SPARRING,
        seed.wrapping_add(99),
    )));
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
    let mut ws = connect(&server).await;
    hello(&mut ws).await;
    drop(ws);
    server.stop().await;
}

/// Opens a connection and says hello; `Err` with the refusal's error code and close code when refused.
async fn try_hello(ws: &mut Conn) -> Result<(), (String, Option<u16>)> {
    let msg = ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: None,
    };
    let _ = ws.send(&msg).await;
    let mut code = String::new();
    loop {
        match next(ws).await {
            Next::Frame(Frame {
                msg: ServerMessage::Welcome { .. },
                ..
            }) => return Ok(()),
            Next::Frame(Frame {
                msg: ServerMessage::Error { code: c, .. },
                ..
            }) => code = c,
            Next::Frame(_) => {}
            Next::Closed(close) => return Err((code, close)),
            other => panic!("neither welcome nor a close: {other:?}"),
        }
    }
}

/// Polls until a refused address is admitted again (the server frees a place when a closed socket's task ends).
async fn admitted_eventually(server: &TestServer, ip: &str) -> Conn {
    for _ in 0..100 {
        let mut ws = connect_from(server, ip).await;
        if try_hello(&mut ws).await.is_ok() {
            return ws;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never admitted again");
}

#[tokio::test]
async fn connections_over_the_overall_limit_are_refused_with_a_code_until_one_closes() {
    let server = start(
        Config {
            max_connections: 3,
            ..config()
        },
        true,
    )
    .await;
    let mut open = Vec::new();
    for ip in ["127.0.0.1", "127.0.0.2", "127.0.0.3"] {
        let mut ws = connect_from(&server, ip).await;
        try_hello(&mut ws).await.unwrap();
        open.push(ws);
    }
    let mut extra = connect_from(&server, "127.0.0.4").await;
    let (code, close) = try_hello(&mut extra).await.unwrap_err();
    assert_eq!(code, "too_many_connections");
    assert_eq!(close, Some(1013));

    let mut first = open.remove(0);
    first.close(None).await.unwrap();
    while let Next::Frame(_) = next(&mut first).await {}
    let _again = admitted_eventually(&server, "127.0.0.4").await;
    drop(open);
    server.stop().await;
}

#[tokio::test]
async fn connections_over_the_per_address_limit_are_refused_while_other_addresses_are_served() {
    let server = start(
        Config {
            max_connections_per_ip: 2,
            ..config()
        },
        true,
    )
    .await;
    let mut a1 = connect_from(&server, "127.0.0.1").await;
    let mut a2 = connect_from(&server, "127.0.0.1").await;
    try_hello(&mut a1).await.unwrap();
    try_hello(&mut a2).await.unwrap();
    let mut a3 = connect_from(&server, "127.0.0.1").await;
    let (code, close) = try_hello(&mut a3).await.unwrap_err();
    assert_eq!(code, "too_many_connections");
    assert_eq!(close, Some(1013));
    let mut b = connect_from(&server, "127.0.0.2").await;
    try_hello(&mut b).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_frame_over_the_size_limit_gets_too_large_and_one_at_the_limit_is_served() {
    let server = start(
        Config {
            max_frame_bytes: 1024,
            ..config()
        },
        true,
    )
    .await;
    let mut ws = connect(&server).await;
    hello(&mut ws).await;
    let ping = r#"{"t":"ping","rid":7}"#;
    let at_limit = format!("{ping}{}", " ".repeat(1024 - ping.len()));
    ws.send_text(at_limit).await.unwrap();
    assert!(matches!(answer(&mut ws, 7).await, ServerMessage::Pong {}));
    let over = format!("{ping}{}", " ".repeat(1025 - ping.len()));
    ws.send_text(over).await.unwrap();
    match next(&mut ws).await {
        Next::Frame(Frame {
            msg: ServerMessage::Error { code, .. },
            ..
        }) => assert_eq!(code, "too_large"),
        other => panic!("expected too_large, got {other:?}"),
    }
    // Far over the limit the frame is not even read: the connection closes with a code.
    let _ = ws.send_text("x".repeat(300_000)).await;
    match next(&mut ws).await {
        Next::Closed(Some(code)) => assert!(code == 1008 || code == 1009, "{code}"),
        other => panic!("expected a close with a code, got {other:?}"),
    }
    server.stop().await;
}

#[tokio::test]
async fn a_flood_is_rate_limited_and_then_closed_with_1008() {
    // On a clock that never moves the buckets never refill, so the counts are exact.
    let server = start(
        Config {
            msg_rate: 5.0,
            msg_burst: 10,
            abuse_limit: 3,
            ..config()
        },
        true,
    )
    .await;
    let mut ws = connect(&server).await;
    hello(&mut ws).await; // one message of the burst
    for rid in 100..130u64 {
        let _ = ws.send_as(&ClientMessage::Ping {}, Some(rid)).await;
    }
    let (mut pongs, mut limited) = (0, 0);
    let close = loop {
        match next(&mut ws).await {
            Next::Frame(Frame {
                msg: ServerMessage::Pong {},
                ..
            }) => pongs += 1,
            Next::Frame(Frame {
                msg: ServerMessage::Error { code, .. },
                ..
            }) => {
                assert_eq!(code, "rate_limited");
                limited += 1;
            }
            Next::Frame(other) => panic!("unexpected {other:?}"),
            Next::Closed(code) => break code,
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
    let server = start(
        Config {
            max_rooms_per_player: 2,
            ..config()
        },
        true,
    )
    .await;
    let mut ws = connect(&server).await;
    hello(&mut ws).await;
    create(&mut ws).await;
    create(&mut ws).await;
    let rid = send(&mut ws, &create_room()).await;
    match answer(&mut ws, rid).await {
        ServerMessage::Error { code, .. } => assert_eq!(code, "too_many_rooms"),
        other => panic!("a third room was created: {other:?}"),
    }
    server.stop().await;
}
