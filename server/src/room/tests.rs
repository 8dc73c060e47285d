//! A room's behaviour without sockets: a room over an in-memory SQLite store and a hand-driven clock, its members'
//! outboxes read directly, its methods called as its task would.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use games::{AnyAction, AnyConfig, Game, GameKind};
use protocol::{
    code, ColourChoice, Frame, GameChange, GameView, JoinRole, RoomEvent, RoomState, RulesSpec,
    ServerMessage, TimeControl, VersionedEvent,
};
use rules::{Point, Rules};
use store::{BatchWriter, Store};
use tokio::sync::{mpsc, watch, Notify};

use super::env::{RoomEnv, RoomLimits};
use super::fanout::{Actor, EventLog, Fanout};
use super::task::Room;
use super::{Act, Rooms, Settings};
use crate::config::Config;
use crate::identity::Identity;
use crate::lobby::LobbyHandle;
use crate::metrics::Metrics;
use crate::time::ManualClock;
use crate::ws::outbox::{Out, Outbox};

/// A room, its environment's store and clock, and the members' receiving ends.
struct Harness {
    room: Room,
    store: Arc<dyn Store>,
    clock: Arc<ManualClock>,
}

/// One member's connection: its outbox (given to the room) and what arrived in it.
struct Conn {
    outbox: Outbox,
    rx: mpsc::Receiver<Out>,
}

impl Conn {
    fn new(id: u64, capacity: usize) -> Conn {
        let (tx, rx) = mpsc::channel(capacity);
        Conn {
            outbox: Outbox::new(id, tx, Arc::new(Notify::new())),
            rx,
        }
    }

    fn id(&self) -> u64 {
        self.outbox.id
    }

    /// Every frame queued so far, decoded.
    fn frames(&mut self) -> Vec<Frame<ServerMessage>> {
        let mut frames = Vec::new();
        while let Ok(out) = self.rx.try_recv() {
            let Out::Text(text) = out else {
                panic!("a room closed a connection");
            };
            frames.push(protocol::decode(text.as_str(), usize::MAX).expect("a server frame"));
        }
        frames
    }

    /// The versioned events among the frames queued so far.
    fn events(&mut self) -> Vec<(u64, RoomEvent)> {
        self.frames()
            .into_iter()
            .filter_map(|f| match f.msg {
                ServerMessage::Event { version, event, .. } => Some((version, event)),
                _ => None,
            })
            .collect()
    }
}

fn player(n: u64) -> Identity {
    Identity {
        id: format!("g{n}"),
        name: format!("guest-{n}"),
        user_id: None,
    }
}

fn settings() -> Settings {
    Settings {
        config: AnyConfig::Gomoku(Rules::standard().into()),
        time_control: TimeControl::None,
        rated: false,
        public: true,
        colour: ColourChoice::Black,
        rating_range: None,
    }
}

/// A room environment over a store and a hand-driven clock.
fn env_over(store: &Arc<dyn Store>, clock: &Arc<ManualClock>) -> RoomEnv {
    RoomEnv {
        store: store.clone(),
        writer: BatchWriter::spawn_on_own_thread(store.clone()).0,
        clock: clock.clone(),
        limits: RoomLimits::of(&Config::default()),
        lobby: LobbyHandle::spawn(crate::lobby::LobbyLimits::rooms(16)),
        rooms: Rooms::default(),
        metrics: Arc::new(Metrics::default()),
        shutdown: Arc::new(watch::Sender::new(false)),
        reach: super::Reach::single(),
    }
}

async fn harness() -> Harness {
    harness_with(settings()).await
}

async fn harness_with(settings: Settings) -> Harness {
    let store = store::open("sqlite::memory:")
        .await
        .expect("an in-memory SQLite store");
    let clock = ManualClock::new();
    let env = env_over(&store, &clock);
    let room = Room::new("testroom".into(), settings, None, None, env);
    Harness { room, store, clock }
}

/// Black (creator, seat 0) and white sit down: the game starts.
async fn started() -> (Harness, Conn, Conn) {
    started_with(settings()).await
}

/// As [`started`], in a room with these settings.
async fn started_with(settings: Settings) -> (Harness, Conn, Conn) {
    let mut h = harness_with(settings).await;
    let (mut black, mut white) = (Conn::new(1, 64), Conn::new(2, 64));
    join(&mut h, 1, &black, JoinRole::Player).await;
    join(&mut h, 2, &white, JoinRole::Player).await;
    black.frames();
    white.frames();
    (h, black, white)
}

/// Player `n` joins with `conn` as `role`, without a request id or `since`; the join must succeed.
async fn join(h: &mut Harness, n: u64, conn: &Conn, role: JoinRole) {
    h.room
        .join(player(n), conn.outbox.clone(), role, None, None)
        .await
        .unwrap_or_else(|e| panic!("player {n} joins as {role:?}: {e:?}"));
}

fn point(text: &str) -> Point {
    text.parse().expect("a point")
}

/// The stone an `action` event announces: its colour, the stones on the board after it and its point.
fn placed(event: &RoomEvent) -> Option<(rules::Color, u32, Point)> {
    match event {
        RoomEvent::Action {
            by,
            change: GameChange::Gomoku(c),
            ..
        } => c.placed.map(|p| (*by, c.ply, p)),
        _ => None,
    }
}

/// A Gomoku snapshot's position (its generic `view`).
fn gomoku_view(snapshot: &protocol::RoomSnapshot) -> &protocol::GomokuPosition {
    match &snapshot.view {
        Some(GameView::Gomoku(p)) => p,
        other => panic!("a Gomoku view, not {other:?}"),
    }
}

async fn place(h: &mut Harness, conn: &Conn, at: &str, ply: u32) -> Result<(), super::RoomError> {
    h.room
        .act(
            conn.id(),
            None,
            Act::Ply {
                action: AnyAction::Gomoku(rules::Action::Place { point: point(at) }),
                ply,
            },
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_joining_start_a_game_both_hear_of() {
    let mut h = harness().await;
    let (mut black, mut white) = (Conn::new(1, 64), Conn::new(2, 64));
    h.room
        .join(
            player(1),
            black.outbox.clone(),
            JoinRole::Player,
            None,
            Some(7),
        )
        .await
        .unwrap();
    let first = black.frames();
    assert!(
        matches!(&first[..], [Frame { rid: Some(7), msg: ServerMessage::Room { room } }]
        if room.state == RoomState::Waiting)
    );

    h.room
        .join(
            player(2),
            white.outbox.clone(),
            JoinRole::Player,
            None,
            Some(8),
        )
        .await
        .unwrap();

    let creator_heard = black.events();
    assert!(matches!(creator_heard[0].1, RoomEvent::PlayerJoined { .. }));
    let RoomEvent::GameStarted {
        game_id,
        black: b,
        white: w,
        ..
    } = &creator_heard[1].1
    else {
        panic!("the creator hears game_started, not {:?}", creator_heard[1]);
    };
    assert_eq!((b.name.as_str(), w.name.as_str()), ("guest-1", "guest-2"));
    // The joiner's answer is the room as it now stands: the game it started.
    let answer = white.frames();
    let [Frame {
        rid: Some(8),
        msg: ServerMessage::Room { room },
    }] = &answer[..]
    else {
        panic!("the joiner gets one snapshot, not {answer:?}");
    };
    assert_eq!(room.state, RoomState::Playing);
    assert_eq!(room.game_id, Some(*game_id));
    assert_eq!(room.version, creator_heard[1].0);
    let stored = h
        .store
        .game(*game_id)
        .await
        .unwrap()
        .expect("the game is stored");
    assert_eq!(stored.game.black.name, "guest-1");
    assert!(stored.end.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_stored_and_fanned_out_with_increasing_versions() {
    let (mut h, mut black, mut white) = started().await;
    let before = h.room.fanout.version();

    place(&mut h, &black, "h8", 1).await.unwrap();
    place(&mut h, &white, "h9", 2).await.unwrap();

    let game = h.room.live.as_ref().unwrap().id;
    let stored = h.store.game(game).await.unwrap().unwrap();
    assert_eq!(stored.actions.len(), 2);
    for conn in [&mut black, &mut white] {
        let events = conn.events();
        let versions: Vec<u64> = events.iter().map(|(v, _)| *v).collect();
        assert_eq!(versions, vec![before + 1, before + 2]);
        assert!(placed(&events[0].1) == Some((rules::Color::Black, 1, point("h8"))));
        assert!(placed(&events[1].1) == Some((rules::Color::White, 2, point("h9"))));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_ply_is_refused_and_the_same_stone_again_is_acknowledged() {
    let (mut h, mut black, white) = started().await;
    place(&mut h, &black, "h8", 1).await.unwrap();
    place(&mut h, &white, "h9", 2).await.unwrap();
    black.frames();

    let stale = place(&mut h, &black, "j10", 2).await.unwrap_err();
    assert_eq!(stale.code, code::STALE_PLY);
    let ahead = place(&mut h, &black, "j10", 5).await.unwrap_err();
    assert_eq!(ahead.code, code::STALE_PLY);

    // The first stone again, for its own ply: a retry whose answer was lost, acknowledged at the room's version.
    place(&mut h, &black, "h8", 1).await.unwrap();
    let version = h.room.fanout.version();
    assert!(
        matches!(&black.frames()[..], [Frame { msg: ServerMessage::Ack { version: Some(v), .. }, .. }]
        if *v == version)
    );
    assert_eq!(h.room.live.as_ref().unwrap().ply(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_ends_the_game_with_the_result_stored() {
    let (mut h, mut black, mut white) = started().await;
    place(&mut h, &black, "h8", 1).await.unwrap();
    place(&mut h, &white, "h9", 2).await.unwrap();

    h.room.act(black.id(), Some(3), Act::Resign).await.unwrap();

    let game = h.room.live.as_ref().unwrap().id;
    let end = h
        .store
        .game(game)
        .await
        .unwrap()
        .unwrap()
        .end
        .expect("the end is stored");
    assert_eq!(end.reason, "resign");
    assert_eq!(end.winner, Some(store::Side::White));
    let heard = white.events();
    assert!(
        matches!(&heard.last().unwrap().1, RoomEvent::GameOver { result, .. }
        if result.reason == "resign" && result.winner == Some(rules::Color::White))
    );
    // The resigner's copy answers its request.
    let mine = black.frames();
    assert!(matches!(
        mine.last(),
        Some(Frame {
            rid: Some(3),
            msg: ServerMessage::Event {
                event: RoomEvent::GameOver { .. },
                ..
            }
        })
    ));
    assert_eq!(h.room.room_state(), RoomState::Over);
    let again = place(&mut h, &white, "j10", 3).await.unwrap_err();
    assert_eq!(again.code, code::GAME_OVER);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_does_not_come_back_within_the_grace_period_forfeits() {
    let (mut h, black, mut white) = started().await;
    place(&mut h, &black, "h8", 1).await.unwrap();
    place(&mut h, &white, "h9", 2).await.unwrap();
    white.frames();

    h.room.disconnected(black.id());
    let grace = h.room.env.limits.grace;
    assert!(
        matches!(&white.events()[..], [(_, RoomEvent::PlayerDisconnected { grace_ms, .. })]
        if *grace_ms == grace.as_millis() as u64)
    );
    let deadline = h.room.next_deadline().expect("the grace deadline");

    h.clock.advance(grace - Duration::from_millis(1));
    h.room.on_deadline().await;
    assert_eq!(h.room.room_state(), RoomState::Playing, "not yet");

    h.clock.advance(Duration::from_millis(1));
    assert!(deadline <= h.room.env.clock.now());
    h.room.on_deadline().await;

    let game = h.room.live.as_ref().unwrap().id;
    let end = h
        .store
        .game(game)
        .await
        .unwrap()
        .unwrap()
        .end
        .expect("stored");
    assert_eq!(
        (end.reason.as_str(), end.winner),
        ("abandoned", Some(store::Side::White))
    );
    let heard: Vec<RoomEvent> = white.events().into_iter().map(|(_, e)| e).collect();
    assert!(
        matches!(&heard[..], [RoomEvent::GameOver { result, .. }, RoomEvent::PlayerLeft { name, .. }]
        if result.reason == "abandoned" && name == "guest-1")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catching_up_since_a_version_returns_exactly_the_missed_events() {
    let (mut h, black, mut white) = started().await;
    place(&mut h, &black, "h8", 1).await.unwrap();
    let seen = h.room.fanout.version();
    h.room.disconnected(white.id());
    white.frames();
    // White comes back on a new connection that last saw `seen`: it missed its own disconnection, and its
    // reconnection is announced before the answer.
    let mut again = Conn::new(3, 64);
    h.room
        .join(
            player(2),
            again.outbox.clone(),
            JoinRole::Player,
            Some(seen),
            Some(4),
        )
        .await
        .unwrap();
    let frames = again.frames();
    let [Frame {
        rid: Some(4),
        msg: ServerMessage::CatchUp { events, .. },
    }] = &frames[..]
    else {
        panic!("a catch-up, not {frames:?}");
    };
    let expected: Vec<VersionedEvent> = vec![
        VersionedEvent {
            version: seen + 1,
            event: RoomEvent::PlayerDisconnected {
                colour: rules::Color::White,
                name: "guest-2".to_owned(),
                grace_ms: h.room.env.limits.grace.as_millis() as u64,
            },
        },
        VersionedEvent {
            version: seen + 2,
            event: RoomEvent::PlayerReconnected {
                colour: rules::Color::White,
                name: "guest-2".to_owned(),
            },
        },
    ];
    assert_eq!(events, &expected);
    // A version the room never reached gets a snapshot.
    let mut late = Conn::new(4, 64);
    h.room
        .join(
            player(9),
            late.outbox.clone(),
            JoinRole::Spectator,
            Some(h.room.fanout.version() + 5),
            None,
        )
        .await
        .unwrap();
    assert!(matches!(
        &late.frames()[..],
        [Frame {
            msg: ServerMessage::Room { .. },
            ..
        }]
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_after_moves_holds_the_moves_and_whose_turn_it_is() {
    let (mut h, black, white) = started().await;
    for (i, at) in ["h8", "h9", "j10"].into_iter().enumerate() {
        let conn = if i % 2 == 0 { &black } else { &white };
        place(&mut h, conn, at, i as u32 + 1).await.unwrap();
    }

    let snapshot = h.room.snapshot(Some(1), false);

    assert_eq!(
        gomoku_view(&snapshot).moves,
        vec![point("h8"), point("h9"), point("j10")]
    );
    assert!(
        snapshot.moves.is_empty(),
        "the position is in the view only"
    );
    assert_eq!(snapshot.to_act, Some(rules::Color::White));
    assert_eq!(snapshot.you, Some(rules::Color::White));
    assert_eq!(snapshot.version, h.room.fanout.version());
    assert_eq!(snapshot.rules, Some(RulesSpec::from(Rules::standard())));
    assert_eq!(snapshot.seats.black.unwrap().name, "guest-1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_is_counted_and_cannot_act() {
    let (mut h, mut black, _white) = started().await;
    let mut watcher = Conn::new(5, 64);
    join(&mut h, 5, &watcher, JoinRole::Spectator).await;
    assert!(matches!(
        &black.events()[..],
        [(_, RoomEvent::Spectators { count: 1 })]
    ));
    assert!(
        matches!(&watcher.frames()[..], [Frame { msg: ServerMessage::Room { room }, .. }] if room.spectators == 1)
    );

    let refused = h
        .room
        .act(watcher.id(), None, Act::Resign)
        .await
        .unwrap_err();
    assert_eq!(refused.code, code::NOT_A_PLAYER);

    h.room.leave(watcher.id(), Some(6)).await.unwrap();
    assert!(matches!(
        &black.events()[..],
        [(_, RoomEvent::Spectators { count: 0 })]
    ));
    // The leaver hears only the answer to its request, not the count its leaving changed.
    assert!(matches!(
        &watcher.frames()[..],
        [Frame {
            rid: Some(6),
            msg: ServerMessage::Ack { .. }
        }]
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_whose_queue_is_full_is_resynchronised_with_a_snapshot() {
    let (mut h, black, mut white) = started().await;
    let mut slow = Conn::new(6, 1);
    join(&mut h, 6, &slow, JoinRole::Spectator).await; // its snapshot fills the queue
    white.frames();

    place(&mut h, &black, "h8", 1).await.unwrap();
    assert!(h.room.fanout.is_behind(slow.id()), "the move did not fit");
    place(&mut h, &white, "h9", 2).await.unwrap();
    assert_eq!(slow.frames().len(), 1, "only the snapshot it had room for");

    h.room.on_deadline().await;

    assert!(!h.room.fanout.is_behind(slow.id()));
    let frames = slow.frames();
    assert!(
        matches!(&frames[..], [Frame { msg: ServerMessage::Room { room }, .. }]
        if gomoku_view(room).moves == vec![point("h8"), point("h9")])
    );
    assert_eq!(white.events().len(), 2, "the others missed nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_nobody_joins_expires_and_closes() {
    let mut h = harness().await;
    let mut creator = Conn::new(1, 64);
    join(&mut h, 1, &creator, JoinRole::Player).await;
    creator.frames();

    h.clock.advance(h.room.env.limits.waiting_room);
    h.room.on_deadline().await;

    assert!(
        matches!(&creator.events()[..], [(_, RoomEvent::RoomClosed { reason })] if reason == "expired")
    );
    assert!(h.room.closed);
}

#[test]
fn the_event_log_keeps_the_newest_events_within_its_bounds() {
    let chat = |text: &str| RoomEvent::Chat {
        from: "a".to_owned(),
        spectator: false,
        text: text.to_owned(),
        line: None,
    };
    let mut log = EventLog::new(3, 10);
    for _ in 0..4 {
        log.push(RoomEvent::Spectators { count: 1 });
    }
    assert_eq!(log.version(), 4);
    assert_eq!(log.since(0), None, "event 1 is gone");
    assert_eq!(log.since(1).map(|e| e.len()), Some(3));
    assert_eq!(log.since(4), Some(Vec::new()));
    assert_eq!(log.since(5), None, "a version never reached");

    // Chat text counts against its own budget: a long line pushes older ones out.
    log.push(chat("12345678"));
    assert_eq!(log.since(3).map(|e| e.len()), Some(2));
    log.push(chat("1"));
    let kept: Vec<u64> = log.since(5).unwrap().iter().map(|e| e.version).collect();
    assert_eq!(
        kept,
        vec![6],
        "9 + 2 bytes are over 10: the first chat line went"
    );
    log.restart_at(1_000);
    assert_eq!(log.push(RoomEvent::Spectators { count: 2 }), 1_001);
}

/// What a [`Recording`] fan-out was asked to do.
#[derive(Default)]
struct Calls {
    attached: Vec<u64>,
    sent: Vec<(u64, ServerMessage)>,
    emitted: Vec<(RoomEvent, Option<u64>)>,
}

/// A fan-out that delivers nothing and records every call (as a fan-out across nodes would take them).
struct Recording {
    log: EventLog,
    calls: Arc<Mutex<Calls>>,
}

impl Fanout for Recording {
    fn attach(&mut self, outbox: Outbox) {
        self.calls.lock().unwrap().attached.push(outbox.id);
    }
    fn detach(&mut self, _conn: u64) {}
    fn version(&self) -> u64 {
        self.log.version()
    }
    fn restart_at(&mut self, version: u64) {
        self.log.restart_at(version);
    }
    fn catch_up(&self, since: u64) -> Option<Vec<VersionedEvent>> {
        self.log.since(since)
    }
    fn send_to(&mut self, conn: u64, msg: &ServerMessage, _rid: Option<u64>) {
        self.calls.lock().unwrap().sent.push((conn, msg.clone()));
    }
    fn send_quiet(&mut self, conn: u64, msg: &ServerMessage, rid: Option<u64>) {
        self.send_to(conn, msg, rid);
    }
    fn send_unversioned(&mut self, to: &[u64], msg: &ServerMessage, _mine: Option<(u64, u64)>) {
        for &conn in to {
            self.send_to(conn, msg, None);
        }
    }
    fn emit(&mut self, event: RoomEvent, _actor: Actor, skip: Option<u64>) -> Vec<u64> {
        self.log.push(event.clone());
        self.calls.lock().unwrap().emitted.push((event, skip));
        Vec::new()
    }
    fn is_behind(&self, _conn: u64) -> bool {
        false
    }
    fn any_behind(&self) -> bool {
        false
    }
    fn behind(&self) -> Vec<(u64, std::time::Instant)> {
        Vec::new()
    }
    fn can_resync(&self, _conn: u64) -> bool {
        true
    }
    fn resync(&mut self, conn: u64, snapshot: &ServerMessage, rid: Option<u64>) {
        self.send_to(conn, snapshot, rid);
    }
    fn kick(&mut self, _conn: u64) {}
    fn close_local(&mut self, _code: u16, _reason: &'static str) {}
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_reaches_its_members_only_through_its_fanout() {
    let mut h = harness().await;
    let calls = Arc::new(Mutex::new(Calls::default()));
    h.room.fanout = Box::new(Recording {
        log: EventLog::new(100, 1_000),
        calls: calls.clone(),
    });
    let (mut black, mut white) = (Conn::new(1, 64), Conn::new(2, 64));

    join(&mut h, 1, &black, JoinRole::Player).await;
    join(&mut h, 2, &white, JoinRole::Player).await;
    place(&mut h, &black, "h8", 1).await.unwrap();

    assert!(
        black.frames().is_empty() && white.frames().is_empty(),
        "nothing went past the fan-out"
    );
    let calls = calls.lock().unwrap();
    assert_eq!(calls.attached, vec![1, 2]);
    let emitted: Vec<&str> = calls
        .emitted
        .iter()
        .map(|(e, _)| match e {
            RoomEvent::PlayerJoined { .. } => "player_joined",
            RoomEvent::GameStarted { .. } => "game_started",
            RoomEvent::Action { .. } => "action",
            _ => "other",
        })
        .collect();
    assert_eq!(
        emitted,
        vec!["player_joined", "player_joined", "game_started", "action"]
    );
    // Each joiner is skipped in the events its own joining caused, and answered with a snapshot of its own.
    assert_eq!(calls.emitted[1].1, Some(2));
    assert_eq!(calls.emitted[2].1, Some(2));
    let snapshots: Vec<(u64, u64)> = calls
        .sent
        .iter()
        .filter_map(|(conn, m)| match m {
            ServerMessage::Room { room } => Some((*conn, room.version)),
            _ => None,
        })
        .collect();
    assert_eq!(snapshots, vec![(1, 1), (2, 3)]);
    assert_eq!(h.room.fanout.version(), 4);
}

/// A Gomoku action in its notation, as the generic `act` gives it.
fn gomoku(text: &str) -> AnyAction {
    GameKind::Gomoku
        .parse_action(text)
        .expect("a Gomoku action")
}

async fn act_at(h: &mut Harness, conn: &Conn, text: &str, at: u32) -> Result<(), super::RoomError> {
    h.room
        .act(
            conn.id(),
            Some(40 + u64::from(at)),
            Act::Game {
                action: gomoku(text),
                at,
            },
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generic_gomoku_action_plays_and_is_announced_as_a_move() {
    let (mut h, mut black, mut white) = started().await;

    act_at(&mut h, &black, "h8", 0).await.unwrap();
    place(&mut h, &white, "h9", 2).await.unwrap();
    act_at(&mut h, &black, "j10", 2).await.unwrap();

    let game = h.room.live.as_ref().unwrap().id;
    let stored = h.store.game(game).await.unwrap().unwrap();
    let stored: Vec<(&str, Option<u32>)> = stored
        .actions
        .iter()
        .map(|a| (a.text.as_str(), a.ply))
        .collect();
    assert_eq!(stored, [("h8", Some(1)), ("h9", Some(2)), ("j10", Some(3))]);
    let heard = white.events();
    assert_eq!(
        placed(&heard[0].1),
        Some((rules::Color::Black, 1, point("h8")))
    );
    assert!(matches!(
        &heard[0].1,
        RoomEvent::Action {
            at: 0,
            to_act: Some(rules::Color::White),
            ..
        }
    ));
    assert_eq!(
        placed(&heard[2].1),
        Some((rules::Color::Black, 3, point("j10")))
    );
    // The actor's copy of its move answers its request.
    assert!(matches!(
        &black.frames()[0],
        Frame {
            rid: Some(40),
            msg: ServerMessage::Event {
                event: RoomEvent::Action { at: 0, .. },
                ..
            }
        }
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generic_action_again_at_its_own_count_is_acknowledged_without_playing() {
    let (mut h, mut black, white) = started().await;
    act_at(&mut h, &black, "h8", 0).await.unwrap();
    act_at(&mut h, &white, "h9", 1).await.unwrap();
    black.frames();
    let version = h.room.fanout.version();

    act_at(&mut h, &black, "h8", 0).await.unwrap();

    assert!(
        matches!(&black.frames()[..], [Frame { rid: Some(40), msg: ServerMessage::Ack { version: Some(v), .. } }]
        if *v == version)
    );
    assert_eq!(h.room.fanout.version(), version, "nothing was announced");
    assert_eq!(h.room.live.as_ref().unwrap().ply(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generic_action_at_a_stale_count_is_refused() {
    let (mut h, black, white) = started().await;
    act_at(&mut h, &black, "h8", 0).await.unwrap();
    act_at(&mut h, &white, "h9", 1).await.unwrap();

    // Another action where black played h8, the opponent's action at its count, a count not reached yet.
    for (conn, text, at) in [(&black, "j10", 0), (&black, "h9", 1), (&black, "j10", 3)] {
        let e = act_at(&mut h, conn, text, at).await.unwrap_err();
        assert_eq!(e.code, code::STALE_PLY, "{text} at {at}");
    }
    let e = act_at(&mut h, &white, "h8", 0).await.unwrap_err();
    assert_eq!(
        e.code,
        code::STALE_PLY,
        "black's action is no retry of white's"
    );
    assert_eq!(h.room.live.as_ref().unwrap().game.action_count(), 2);
    // At the count, it plays.
    act_at(&mut h, &black, "j10", 2).await.unwrap();
    assert_eq!(h.room.live.as_ref().unwrap().ply(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_games_action_is_refused_as_the_wrong_game() {
    let (mut h, black, _white) = started().await;
    let othello = GameKind::Othello.parse_action("f5").unwrap();

    let e = h
        .room
        .act(
            black.id(),
            None,
            Act::Game {
                action: othello,
                at: 0,
            },
        )
        .await
        .unwrap_err();

    assert_eq!(e.code, "wrong_game");
    assert_eq!(h.room.live.as_ref().unwrap().game.action_count(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swap_through_the_generic_action_exchanges_the_colours_the_room_shows() {
    let swap = Settings {
        config: AnyConfig::Gomoku(
            Rules::standard()
                .with_opening(rules::Opening::SwapAfterThree)
                .into(),
        ),
        ..settings()
    };
    let (mut h, black, mut white) = started_with(swap).await;
    for (i, at) in ["h8", "h9", "j10"].into_iter().enumerate() {
        let conn = if i % 2 == 0 { &black } else { &white };
        act_at(&mut h, conn, at, i as u32).await.unwrap();
    }
    white.events();

    act_at(&mut h, &white, "swap", 3).await.unwrap();

    assert!(matches!(
        &white.events()[..],
        [(_, RoomEvent::Action { action, change: GameChange::Gomoku(c), .. })]
        if action == "swap" && c.swapped == Some(true)
    ));
    let game = h.room.live.as_ref().unwrap().id;
    let stored = h.store.game(game).await.unwrap().unwrap();
    let last = stored.actions.last().unwrap();
    assert_eq!((last.text.as_str(), last.ply), ("swap", None), "no move");
    let snapshot = h.room.snapshot(Some(1), false);
    assert!(gomoku_view(&snapshot).swapped);
    assert_eq!(snapshot.you, Some(rules::Color::Black));
    assert_eq!(snapshot.seats.black.unwrap().name, "guest-2");
    assert_eq!(snapshot.seats.white.unwrap().name, "guest-1");
    // The same decision again is a retry; the creator (seat 0) now holds white and places the fourth stone.
    act_at(&mut h, &white, "swap", 3).await.unwrap();
    let e = act_at(&mut h, &white, "k11", 4).await.unwrap_err();
    assert_eq!(e.code, "not_your_turn");
    act_at(&mut h, &black, "k11", 4).await.unwrap();
    assert_eq!(
        placed(&white.events().last().unwrap().1),
        Some((rules::Color::White, 4, point("k11")))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restored_game_after_a_swap_knows_who_holds_each_colour_and_who_took_each_action() {
    let swap = Settings {
        config: AnyConfig::Gomoku(
            Rules::standard()
                .with_opening(rules::Opening::SwapAfterThree)
                .into(),
        ),
        ..settings()
    };
    let (mut h, black, white) = started_with(swap).await;
    for (i, at) in ["h8", "h9", "j10", "swap", "k11"].into_iter().enumerate() {
        let conn = if i % 2 == 0 { &black } else { &white };
        // After the swap, seat 0 (the creator) holds white and places the fourth stone.
        let conn = if i == 4 { &black } else { conn };
        act_at(&mut h, conn, at, i as u32).await.unwrap();
    }
    let game = h.room.live.as_ref().unwrap().id;
    let record = h.store.game(game).await.unwrap().unwrap();

    let restored = Room::restore(record, [player(1), player(2)], env_over(&h.store, &h.clock))
        .expect("the game replays");

    let live = restored.live.as_ref().unwrap();
    assert_eq!(live.actors, [0, 1, 0, 1, 0]);
    assert_eq!(live.colour_of(0), rules::Color::White);
    assert_eq!(live.seat_of(rules::Color::Black), 1);
    assert_eq!(live.seats_at_end(), store::SeatsAtEnd::Exchanged);
    assert_eq!(live.to_act(), Some(rules::Color::Black));
    assert_eq!(live.ply(), 4);
    let snapshot = restored.snapshot(Some(1), false);
    assert!(gomoku_view(&snapshot).swapped);
    assert_eq!(snapshot.seats.black.unwrap().name, "guest-2");
    assert_eq!(snapshot.you, Some(rules::Color::Black));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_othello_room_plays_through_the_same_room_in_the_generic_form() {
    let othello = Settings {
        config: AnyConfig::decode("othello", "scoring=japanese").unwrap(),
        ..settings()
    };
    let (mut h, mut black, mut white) = started_with(othello).await;

    h.room
        .act(
            black.id(),
            Some(5),
            Act::Game {
                action: GameKind::Othello.parse_action("f5").unwrap(),
                at: 0,
            },
        )
        .await
        .unwrap();

    assert!(
        matches!(&white.events()[..], [(_, RoomEvent::Action { at: 0, by: rules::Color::Black, action, to_act: Some(rules::Color::White), .. })]
        if action == "f5")
    );
    assert!(matches!(
        &black.frames()[..],
        [Frame {
            rid: Some(5),
            msg: ServerMessage::Event {
                event: RoomEvent::Action { .. },
                ..
            }
        }]
    ));
    let game = h.room.live.as_ref().unwrap().id;
    let stored = h.store.game(game).await.unwrap().unwrap();
    assert_eq!(
        (stored.game.kind.as_str(), stored.game.config.as_str()),
        ("othello", "scoring=japanese")
    );
    assert_eq!(stored.actions[0].text, "f5");
    let snapshot = h.room.snapshot(Some(1), false);
    assert_eq!(snapshot.rules, None);
    assert!(matches!(
        snapshot.game,
        Some(protocol::GameSpec::Othello(protocol::OthelloSpec { .. }))
    ));
    let Some(view) = &snapshot.view else {
        panic!("an Othello snapshot carries its view");
    };
    assert_eq!(view.actions(), ["f5"]);
    assert!(snapshot.moves.is_empty());
    assert_eq!(snapshot.to_act, Some(rules::Color::White));
    // A Gomoku action is another game's.
    let e = act_at(&mut h, &white, "h8", 1).await.unwrap_err();
    assert_eq!(e.code, "wrong_game");
    // The room's own endings work as for any game.
    h.room.act(white.id(), None, Act::Resign).await.unwrap();
    let end = h.store.game(game).await.unwrap().unwrap().end.unwrap();
    assert_eq!(
        (end.reason.as_str(), end.winner),
        ("resign", Some(store::Side::Black))
    );
}

/// An action of the room's game by its notation, as the wire's `act` sends it.
async fn act_text(
    h: &mut Harness,
    conn: &Conn,
    text: &str,
    at: u32,
) -> Result<(), super::RoomError> {
    h.room
        .act(
            conn.id(),
            None,
            Act::Notation {
                text: text.to_owned(),
                at,
            },
        )
        .await
}

fn fischer(base_ms: u64, increment_ms: u64) -> TimeControl {
    TimeControl::Fischer {
        base_ms,
        increment_ms,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forced_othello_pass_is_taken_by_the_room_at_once_and_costs_no_time() {
    let othello = Settings {
        config: AnyConfig::decode("othello", "scoring=japanese").unwrap(),
        time_control: fischer(60_000, 2_000),
        ..settings()
    };
    let (mut h, mut black, mut white) = started_with(othello).await;
    // After these eight discs black has no move and white has: black must pass.
    let line = ["d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1"];
    for (at, square) in line.iter().enumerate() {
        h.clock.advance(Duration::from_secs(1));
        let mover = if at % 2 == 0 { &black } else { &white };
        act_text(&mut h, mover, square, at as u32).await.unwrap();
    }
    let heard = white.events();
    black.frames();
    let clocks_of = |e: &RoomEvent| match e {
        RoomEvent::Action { clocks, .. } => clocks.expect("a clocked game"),
        other => panic!("an action event, not {other:?}"),
    };
    let [.., (v_c1, c1), (v_pass, pass)] = &heard[..] else {
        panic!("the last move and the pass, not {heard:?}");
    };
    assert_eq!(*v_pass, v_c1 + 1, "the pass follows the move at once");
    assert!(
        matches!(pass, RoomEvent::Action { at: 8, by: rules::Color::Black, action, to_act: Some(rules::Color::White), .. } if action == "pass"),
        "{pass:?}"
    );
    let (before, after) = (clocks_of(c1), clocks_of(pass));
    assert_eq!(
        after.black, before.black,
        "no time used and no increment earned"
    );
    assert_eq!(after.running, Some(rules::Color::White));
    let live = h.room.live.as_ref().unwrap();
    assert_eq!(live.actors.last(), Some(&0), "the pass is black's (seat 0)");
    assert_eq!(
        live.clock.as_ref().unwrap().running(),
        Some(1),
        "white's clock runs"
    );
    let stored = h.store.game(live.id).await.unwrap().unwrap();
    let last = stored.actions.last().unwrap();
    assert_eq!((last.text.as_str(), last.used_ms), ("pass", 0));
    // Black sending the pass itself (its answer lost, say) is a retry of the same action: acknowledged.
    act_text(&mut h, &black, "pass", 8).await.unwrap();
    assert!(matches!(
        &black.frames()[..],
        [Frame {
            msg: ServerMessage::Ack { .. },
            ..
        }]
    ));
    // White plays on, and black is to move again.
    act_text(&mut h, &white, "e3", 9).await.unwrap();
    assert_eq!(
        h.room.live.as_ref().unwrap().to_act(),
        Some(rules::Color::Black)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_draughts_white_moves_first_and_its_clock_runs_for_the_seat_holding_white() {
    for (creator, first_seat) in [(ColourChoice::Black, 1), (ColourChoice::White, 0)] {
        let draughts = Settings {
            config: AnyConfig::decode("draughts", "variant=international").unwrap(),
            time_control: fischer(60_000, 0),
            colour: creator,
            ..settings()
        };
        let (mut h, mut seat0, mut seat1) = started_with(draughts).await;
        let live = h.room.live.as_ref().unwrap();
        assert_eq!(live.to_act(), Some(rules::Color::White));
        assert_eq!(live.seat_of(rules::Color::White), first_seat);
        assert_eq!(live.clock.as_ref().unwrap().running(), Some(first_seat));
        let snapshot = h.room.snapshot(Some(first_seat), false);
        assert_eq!(snapshot.you, Some(rules::Color::White));
        assert_eq!(snapshot.to_act, Some(rules::Color::White));
        assert_eq!(snapshot.clocks.unwrap().running, Some(rules::Color::White));
        let stored = h.store.game(live.id).await.unwrap().unwrap();
        let white_name = format!("guest-{}", first_seat + 1);
        assert_eq!(
            stored.game.white.name, white_name,
            "stored under its colour"
        );
        let (first, second) = if first_seat == 0 {
            (&mut seat0, &mut seat1)
        } else {
            (&mut seat1, &mut seat0)
        };
        let e = act_text(&mut h, second, "19-23", 0).await.unwrap_err();
        assert_eq!(e.code, "not_your_turn", "black does not move first");
        act_text(&mut h, first, "32-28", 0).await.unwrap();
        let heard = second.events();
        assert!(
            matches!(&heard[..], [(_, RoomEvent::Action { by: rules::Color::White, to_act: Some(rules::Color::Black), clocks: Some(c), .. })] if c.running == Some(rules::Color::Black)),
            "{heard:?}"
        );
        first.frames();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draughts_game_starts_with_the_generic_view_in_game_started() {
    let draughts = Settings {
        config: AnyConfig::decode("draughts", "variant=international").unwrap(),
        ..settings()
    };
    let mut h = harness_with(draughts).await;
    let (mut black, white) = (Conn::new(1, 64), Conn::new(2, 64));
    for (n, conn) in [(1, &black), (2, &white)] {
        join(&mut h, n, conn, JoinRole::Player).await;
    }
    let heard = black.events();
    let Some((
        _,
        RoomEvent::GameStarted {
            to_act,
            view: Some(protocol::GameView::Draughts(view)),
            forbidden,
            ..
        },
    )) = heard.last()
    else {
        panic!("game_started with the draughts view, not {heard:?}");
    };
    assert_eq!(*to_act, Some(rules::Color::White));
    assert_eq!(view.to_act, Some(rules::Color::White));
    assert_eq!(view.legal.len(), 9, "white's nine opening moves");
    assert!(forbidden.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draughts_draw_by_a_rule_finishes_the_room_with_the_rules_reason_and_detail() {
    let draughts = Settings {
        config: AnyConfig::decode("draughts", "variant=international").unwrap(),
        ..settings()
    };
    let (mut h, mut black, mut white) = started_with(draughts).await;
    // Kings only, from a set-up position (the room's games start from the initial one; the rule is the game's).
    let live = h.room.live.as_mut().unwrap();
    let AnyConfig::Draughts(config) = live.game.config() else {
        unreachable!()
    };
    let start = rules::draughts::Position::from_fen("W:WK47,K49:BK2,K4").unwrap();
    live.game = games::AnyGame::Draughts(games::Draughts::from_position(
        config,
        live.game.first_seat(),
        start,
    ));
    let cycle = ["47-41", "2-7", "41-47", "7-2"];
    for (at, mv) in cycle.iter().chain(&cycle).enumerate() {
        let mover = if at % 2 == 0 { &white } else { &black };
        act_text(&mut h, mover, mv, at as u32).await.unwrap();
        let result = h.room.live.as_ref().unwrap().result.clone();
        assert_eq!(
            result.is_some(),
            at == 7,
            "drawn at the eighth ply, not {at}"
        );
    }
    let heard = black.events();
    white.frames();
    let Some((_, RoomEvent::GameOver { result, .. })) = heard.last() else {
        panic!("game_over last, not {heard:?}");
    };
    assert_eq!((result.reason.as_str(), result.winner), ("threefold", None));
    assert_eq!(
        result.detail,
        Some(protocol::GameDetail::Draughts(protocol::DraughtsOutcome {
            rule: "threefold".into()
        }))
    );
    let game = h.room.live.as_ref().unwrap().id;
    let end = h.store.game(game).await.unwrap().unwrap().end.unwrap();
    assert_eq!((end.reason.as_str(), end.winner), ("threefold", None));
}
