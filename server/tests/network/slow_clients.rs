//! A client that does not read its events never slows the room: it is resynchronised with a snapshot once it
//! has room again, or closed when it stays behind. (Driven through a room handle with hand-made outboxes, so the
//! queue sizes are exact.)

use std::sync::Arc;
use std::time::Duration;

use protocol::{decode, ColourChoice, JoinRole, ServerMessage, TimeControl};
use rules::Rules;
use server::identity::Identity;
use server::room::{Act, Settings};
use server::time::ManualClock;
use server::ws::outbox::{Out, Outbox};
use server::{AppState, Config};
use tokio::sync::{mpsc, Notify};

struct Fake {
    outbox: Outbox,
    rx: mpsc::Receiver<Out>,
    kicked: Arc<Notify>,
}

fn fake(id: u64, capacity: usize) -> Fake {
    let (tx, rx) = mpsc::channel(capacity);
    let kicked = Arc::new(Notify::new());
    Fake {
        outbox: Outbox::new(id, tx, kicked.clone()),
        rx,
        kicked,
    }
}

fn guest(name: &str) -> Identity {
    Identity {
        id: format!("g{name}"),
        name: name.into(),
        user_id: None,
    }
}

fn message(out: Out) -> ServerMessage {
    match out {
        Out::Text(t) => decode::<ServerMessage>(&t, usize::MAX).unwrap().msg,
        Out::Close(code, _) => panic!("closed with {code}"),
    }
}

#[tokio::test]
async fn a_client_behind_gets_a_snapshot_when_it_has_room_and_is_closed_when_it_stays_behind() {
    let dir = tempfile::tempdir().unwrap();
    let store = store::open(&dir.path().join("t.db").to_string_lossy())
        .await
        .unwrap();
    let clock = ManualClock::new();
    let config = Config {
        slow_client_secs: 10,
        ..Config::default()
    };
    let state = AppState::with_clock(config, store, clock.clone())
        .await
        .unwrap();
    let settings = Settings {
        config: games::AnyConfig::Gomoku(Rules::freestyle().into()),
        time_control: TimeControl::None,
        rated: false,
        public: true,
        colour: ColourChoice::Black,
        rating_range: None,
    };
    let a = guest("guest-a");
    let room = state
        .rooms
        .create(&state, settings, &a, std::net::Ipv4Addr::LOCALHOST.into())
        .await
        .unwrap();
    let mut black = fake(1, 64);
    room.join(a, black.outbox.clone(), JoinRole::Player, None, None)
        .await
        .unwrap();
    // Two spectators with room for exactly one message: the join snapshot fills it.
    let mut slow = fake(2, 1);
    room.join(
        guest("guest-s"),
        slow.outbox.clone(),
        JoinRole::Spectator,
        None,
        None,
    )
    .await
    .unwrap();
    let stuck = fake(3, 1);
    room.join(
        guest("guest-t"),
        stuck.outbox.clone(),
        JoinRole::Spectator,
        None,
        None,
    )
    .await
    .unwrap();
    let white = fake(4, 64);
    room.join(
        guest("guest-b"),
        white.outbox.clone(),
        JoinRole::Player,
        None,
        None,
    )
    .await
    .unwrap();
    let place = Act::Notation {
        text: "h8".into(),
        at: 0,
    };
    room.act(1, None, place).await.unwrap();

    // The slow spectator reads its first message; the next event arrives as a whole snapshot instead.
    assert!(matches!(
        message(slow.rx.recv().await.unwrap()),
        ServerMessage::Room { .. }
    ));
    room.act(
        4,
        None,
        Act::Notation {
            text: "a1".into(),
            at: 1,
        },
    )
    .await
    .unwrap();
    let ServerMessage::Room { room: snapshot } = message(slow.rx.recv().await.unwrap()) else {
        panic!("expected a resync snapshot")
    };
    let Some(view) = &snapshot.view else {
        panic!("a snapshot of a started game carries its view")
    };
    assert_eq!(view.actions(), ["h8", "a1"]);
    // The players were never held up.
    // Each as its wire type, the event's kind and the action's notation, so the whole sequence is compared.
    let mut seen = Vec::new();
    while let Ok(out) = black.rx.try_recv() {
        let v: serde_json::Value =
            serde_json::from_str(&protocol::encode(&message(out), None)).unwrap();
        let event = &v["event"];
        seen.push(
            [&v["t"], &event["kind"], &event["count"], &event["action"]]
                .into_iter()
                .filter(|x| !x.is_null())
                .map(|x| x.to_string().trim_matches('"').to_owned())
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    assert_eq!(
        seen,
        [
            "room",
            "event spectators 1",
            "event spectators 2",
            "event player_joined",
            "event game_started",
            "event action h8",
            "event action a1",
        ],
        "the black player got every event, in order, while the spectators fell behind"
    );

    // The other one never reads: after the slow-client limit it is closed.
    clock.advance(Duration::from_secs(11));
    tokio::time::timeout(Duration::from_secs(5), stuck.kicked.notified())
        .await
        .expect("the stuck client is kicked");
}
