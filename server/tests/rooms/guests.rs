//! Guest identities over real sockets: a guest is its id, not its name (a name another guest held cannot take that
//! guest's seat); new guests are limited per address with a typed `rate_limited`; a guest's first session is short
//! until it plays; and a restarted server gives a resumed game's seats back to the same guests.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{code, ClientMessage, JoinRole, RoomEvent, ServerMessage, TimeControl};
use rules::Color;
use server::identity::hash_token;
use server::Config;
use store::Guest;

/// A server whose limit on new guests per address is `burst` at once and `per_minute` after.
async fn start_with_guest_limit(burst: u32, per_minute: f64) -> (TestServer, Db) {
    let db = Db::sqlite();
    let config = Config {
        guest_burst_per_ip: burst,
        guests_per_minute_per_ip: per_minute,
        ..test_config()
    };
    let server = TestServer::start_on(&db, config).await;
    (server, db)
}

#[tokio::test]
async fn a_guest_given_another_guests_name_cannot_take_or_play_that_guests_seat() {
    let (server, _db) = TestServer::start().await;
    let mut table = Table::open(&server, freestyle(), TimeControl::None).await;
    let a = &table.black;
    // A's session expires and is swept while A plays on; its name then goes to a new guest, C (written here as
    // the store would for a guest who drew that name).
    let store = &server.state.store;
    store.delete_session(&hash_token(&a.token)).await.unwrap();
    let c_token = "c-token";
    let c_guest = Guest {
        id: "c".repeat(20),
        name: a.name.clone(),
    };
    assert!(store
        .create_guest_session(&hash_token(c_token), &c_guest, i64::MAX / 2, 0)
        .await
        .unwrap());
    let mut c = Client::hello(server.addr, Some(c_token)).await;
    assert_eq!(c.name, a.name, "the names collide");
    assert_ne!(c.id, a.id, "the ids do not");

    let join_as_player = ClientMessage::Join {
        room: table.room.clone(),
        role: JoinRole::Player,
        since: None,
    };
    assert_eq!(error_code(c.request(join_as_player).await), code::ROOM_FULL);
    let watched = c.join(&table.room, JoinRole::Spectator).await;
    assert_eq!(watched.you, None);
    let black = watched.seats.black.expect("black is seated");
    assert_eq!((black.id, black.name), (a.id.clone(), a.name.clone()));
    assert_eq!(
        c.place(&table.room, "h8", 1).await,
        Err(code::NOT_A_PLAYER.to_owned())
    );
    let resign = ClientMessage::Resign {
        room: table.room.clone(),
    };
    assert_eq!(c.act(resign).await, Err(code::NOT_A_PLAYER.to_owned()));
    // The seat is still A's, and the game goes on.
    table.play(true, &["h8"], 1).await;
}

#[tokio::test]
async fn every_seat_and_lobby_player_carries_its_holders_id() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    assert!(a.id.starts_with('g') && a.id.len() == 21, "{}", a.id);
    assert_ne!(a.id, b.id);
    let created = a.create(freestyle(), TimeControl::None).await;
    assert_eq!(created.seats.black.map(|s| s.id), Some(a.id.clone()));
    let joined = b.join(&created.id, JoinRole::Player).await;
    let ids = (
        joined.seats.black.map(|s| s.id),
        joined.seats.white.map(|s| s.id),
    );
    assert_eq!(ids, (Some(a.id.clone()), Some(b.id.clone())));
    let (_, event) = a
        .event_where(|e| matches!(e, RoomEvent::PlayerJoined { .. }))
        .await;
    let RoomEvent::PlayerJoined { player, .. } = event else {
        unreachable!()
    };
    assert_eq!(player.id, b.id);
    let (status, rooms) = server.get_json("/api/rooms").await;
    assert_eq!(status, 200);
    let players: Vec<(&str, &str)> = rooms[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["colour"].as_str().unwrap()))
        .collect();
    assert_eq!(
        players,
        vec![(a.id.as_str(), "black"), (b.id.as_str(), "white")]
    );
}

#[tokio::test]
async fn new_guests_past_the_per_address_limit_get_rate_limited_until_the_allowance_refills() {
    let (server, _db) = start_with_guest_limit(3, 6.0).await;
    for _ in 0..3 {
        server.client().await;
    }
    let mut over = Client::connect(server.addr).await;
    let reply = over.request(hello(None)).await;
    let ServerMessage::Error { code, message, .. } = reply else {
        panic!("expected rate_limited, got {reply:?}")
    };
    assert_eq!(code, code::RATE_LIMITED);
    assert_eq!(
        message,
        "too many new guests from this address; try again in 10 s"
    );
    server.advance(Duration::from_millis(9_999));
    assert_eq!(
        error_code(over.request(hello(None)).await),
        code::RATE_LIMITED
    );
    server.advance(Duration::from_millis(1));
    // The same connection stayed open and may now say hello.
    let reply = over.request(hello(None)).await;
    assert!(
        matches!(reply, ServerMessage::Welcome { ref you, .. } if you.guest),
        "{reply:?}"
    );
}

#[tokio::test]
async fn a_rate_limited_address_still_resumes_its_guests() {
    let (server, _db) = start_with_guest_limit(1, 1.0).await;
    let first = server.client().await;
    let mut other = Client::connect(server.addr).await;
    assert_eq!(
        error_code(other.request(hello(None)).await),
        code::RATE_LIMITED
    );
    let again = Client::hello(server.addr, Some(&first.token)).await;
    assert_eq!(again.id, first.id);
}

#[tokio::test]
async fn a_guest_that_never_plays_is_a_new_guest_after_an_hour() {
    let (server, _db) = TestServer::start().await;
    let idle = server.client().await;
    server.advance(Duration::from_millis(3_599_999));
    let resumed = Client::hello(server.addr, Some(&idle.token)).await;
    assert_eq!(resumed.id, idle.id, "still valid just before the hour");
    server.advance(Duration::from_millis(1));
    let mut again = Client::connect(server.addr).await;
    assert_eq!(
        error_code(again.request(hello(Some(&idle.token))).await),
        code::INVALID_TOKEN,
        "the token expired at the hour"
    );
    let fresh = Client::hello(server.addr, None).await;
    assert_ne!(fresh.id, idle.id);
}

#[tokio::test]
async fn a_guest_that_created_or_joined_a_room_keeps_its_token_for_the_session_days() {
    let (server, _db) = TestServer::start().await;
    let mut creator = server.client().await;
    let mut joiner = server.client().await;
    let room = creator.create(freestyle(), TimeControl::None).await.id;
    joiner.join(&room, JoinRole::Spectator).await;
    server.advance(Duration::from_secs(30 * 24 * 3600 - 1));
    for guest in [&creator, &joiner] {
        let resumed = Client::hello(server.addr, Some(&guest.token)).await;
        assert_eq!(resumed.id, guest.id);
    }
    server.advance(Duration::from_secs(1));
    let mut expired = Client::connect(server.addr).await;
    assert_eq!(
        error_code(expired.request(hello(Some(&creator.token))).await),
        code::INVALID_TOKEN
    );
}

#[tokio::test]
async fn a_restarted_server_gives_each_guest_its_own_seat_back() {
    let db = Db::sqlite();
    let server = TestServer::start_on(&db, test_config()).await;
    let mut table = Table::open(&server, freestyle(), TimeControl::None).await;
    table.play(true, &["h8", "a1"], 1).await;
    let (a, b) = (
        (table.black.id.clone(), table.black.token.clone()),
        (table.white.id.clone(), table.white.token.clone()),
    );
    let room = table.room.clone();
    drop(table);
    server.stop().await;

    let server = TestServer::start_on(&db, test_config()).await;
    let mut white = Client::hello(server.addr, Some(&b.1)).await;
    assert_eq!(white.id, b.0);
    let snap = white.join(&room, JoinRole::Player).await;
    assert_eq!(snap.you, Some(Color::White));
    let seats = (
        snap.seats.black.map(|s| s.id),
        snap.seats.white.map(|s| s.id),
    );
    assert_eq!(seats, (Some(a.0.clone()), Some(b.0.clone())));
    let mut black = Client::hello(server.addr, Some(&a.1)).await;
    let snap = black.join(&room, JoinRole::Player).await;
    assert_eq!(snap.you, Some(Color::Black));
    black.place(&room, "h9", 3).await.expect("black plays on");
}
