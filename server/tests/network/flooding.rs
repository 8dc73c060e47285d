//! Rooms and the lobby cannot be flooded: a room cap for the server, a cap on rooms one address keeps waiting,
//! waiting rooms that close, a lobby that sends only its newest rooms, and an event log bounded in chat text.
//! Over real sockets from one address (127.0.0.1), as the attack came.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, JoinRole, RoomEvent, ServerMessage, TimeControl};
use server::Config;

async fn server_with(config: Config) -> (TestServer, Db) {
    let db = Db::sqlite();
    let server = TestServer::start_on(&db, config).await;
    (server, db)
}

/// A fresh guest creates a casual public room: its id, or the error code.
async fn create_as_new_guest(server: &TestServer) -> (Client, Result<String, String>) {
    let mut c = server.client().await;
    let reply = c.request(create_room(freestyle(), TimeControl::None)).await;
    let outcome = match reply {
        ServerMessage::Room { room } => Ok(room.id),
        ServerMessage::Error { code, .. } => Err(code),
        other => panic!("{other:?}"),
    };
    (c, outcome)
}

#[tokio::test]
async fn one_address_keeps_at_most_the_limit_of_rooms_waiting_for_a_player() {
    let (server, _db) = server_with(Config {
        max_waiting_rooms_per_ip: 3,
        ..test_config()
    })
    .await;
    let mut creators = Vec::new();
    for _ in 0..3 {
        let (c, room) = create_as_new_guest(&server).await;
        creators.push((c, room.expect("under the limit")));
    }

    let (_, fourth) = create_as_new_guest(&server).await;
    assert_eq!(fourth, Err("too_many_rooms".into()));

    // A room whose game started no longer waits: its place is free again.
    let mut joiner = server.client().await;
    joiner.join(&creators[0].1, JoinRole::Player).await;
    let (_, again) = create_as_new_guest(&server).await;
    assert!(again.is_ok(), "{again:?}");
    let (_, over) = create_as_new_guest(&server).await;
    assert_eq!(over, Err("too_many_rooms".into()));
}

#[tokio::test]
async fn the_server_holds_at_most_its_room_limit() {
    let (server, _db) = server_with(Config {
        max_rooms: 2,
        ..test_config()
    })
    .await;
    let (_a, first) = create_as_new_guest(&server).await;
    let (b, second) = create_as_new_guest(&server).await;
    assert!(first.is_ok() && second.is_ok());

    let (_, third) = create_as_new_guest(&server).await;
    assert_eq!(third, Err("too_many_rooms".into()));

    // A room that closes frees its place.
    let mut b = b;
    b.request(ClientMessage::Leave {
        room: second.unwrap(),
    })
    .await;
    let (_, fourth) = create_as_new_guest(&server).await;
    assert!(fourth.is_ok(), "{fourth:?}");
}

#[tokio::test]
async fn a_waiting_room_closes_after_the_waiting_time_though_its_creator_stays() {
    let (server, _db) = server_with(Config {
        waiting_room_secs: 60,
        ..test_config()
    })
    .await;
    let (mut creator, room) = create_as_new_guest(&server).await;
    let room = room.unwrap();
    let mut watcher = server.client().await;

    server.advance(Duration::from_secs(59));
    // Still open a second before the deadline.
    watcher.join(&room, JoinRole::Spectator).await;
    server.advance(Duration::from_secs(1));

    let (_, closed) = creator
        .event_where(|e| matches!(e, RoomEvent::RoomClosed { .. }))
        .await;
    assert_eq!(
        closed,
        RoomEvent::RoomClosed {
            reason: "expired".into()
        }
    );
    let (_, seen) = watcher
        .event_where(|e| matches!(e, RoomEvent::RoomClosed { .. }))
        .await;
    assert_eq!(seen, closed);
    let reply = watcher
        .request(ClientMessage::Join {
            room: room.clone(),
            role: JoinRole::Spectator,
            since: None,
        })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Error { code, .. } if code == "unknown_room"),
        "{reply:?}"
    );
    let (_, listed) = server.get_json("/api/rooms").await;
    assert_eq!(listed, serde_json::json!([]));
}

#[tokio::test]
async fn a_room_whose_game_started_does_not_expire() {
    let (server, _db) = server_with(Config {
        waiting_room_secs: 60,
        ..test_config()
    })
    .await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;

    server.advance(Duration::from_secs(600));

    t.play(true, &["h8", "a1"], 1).await;
}

/// The ids of a `lobby` frame's rooms and its total.
fn lobby_of(msg: ServerMessage) -> (Vec<String>, Option<u32>) {
    match msg {
        ServerMessage::Lobby { rooms, total, .. } => {
            (rooms.into_iter().map(|r| r.id).collect(), total)
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_lobby_sends_only_its_newest_rooms_and_keeps_subscribers_to_them() {
    let (server, _db) = server_with(Config {
        lobby_rooms: 2,
        ..test_config()
    })
    .await;
    let mut rooms = Vec::new();
    for _ in 0..3 {
        let (c, room) = create_as_new_guest(&server).await;
        rooms.push((c, room.unwrap()));
    }
    let id = |i: usize, rooms: &Vec<(Client, String)>| rooms[i].1.clone();
    let mut looker = server.client().await;

    let whole = lobby_of(looker.request(ClientMessage::SubscribeLobby {}).await);

    assert_eq!(whole, (vec![id(2, &rooms), id(1, &rooms)], Some(3)));
    // The quick-pairing counts follow the snapshot (docs/protocol.md, Quick pairing).
    assert!(matches!(
        looker.recv().await.msg,
        ServerMessage::QuickCounts { .. }
    ));
    let (_, listed) = server.get_json("/api/rooms").await;
    assert_eq!(listed.as_array().unwrap().len(), 2);

    // A newer room pushes the oldest shown one out.
    let (c, newest) = create_as_new_guest(&server).await;
    rooms.push((c, newest.unwrap()));
    match looker.recv().await.msg {
        ServerMessage::LobbyRoom { room } => assert_eq!(room.id, id(3, &rooms)),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        looker.recv().await.msg,
        ServerMessage::LobbyRoomRemoved { id: id(1, &rooms) }
    );

    // A shown room that goes lets the next newest in.
    let room = id(3, &rooms);
    rooms[3].0.request(ClientMessage::Leave { room }).await;
    assert_eq!(
        looker.recv().await.msg,
        ServerMessage::LobbyRoomRemoved { id: id(3, &rooms) }
    );
    match looker.recv().await.msg {
        ServerMessage::LobbyRoom { room } => assert_eq!(room.id, id(1, &rooms)),
        other => panic!("{other:?}"),
    }

    // A room that is not shown changes silently: the next frame is about a shown one.
    let mut joiner = server.client().await;
    joiner.join(&id(0, &rooms), JoinRole::Player).await;
    let room = id(2, &rooms);
    rooms[2].0.request(ClientMessage::Leave { room }).await;
    assert_eq!(
        looker.recv().await.msg,
        ServerMessage::LobbyRoomRemoved { id: id(2, &rooms) }
    );
    match looker.recv().await.msg {
        ServerMessage::LobbyRoom { room } => {
            assert_eq!(room.id, id(0, &rooms));
            assert_eq!(room.players.len(), 2, "its state as it is now");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_event_log_keeps_a_bounded_amount_of_chat_text() {
    let (server, _db) = server_with(Config {
        chat_log_bytes: 1000,
        ..test_config()
    })
    .await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    let before = t
        .black
        .join(&t.room.clone(), JoinRole::Player)
        .await
        .version;
    let text = "x".repeat(400);
    for _ in 0..3 {
        t.black
            .act(ClientMessage::Chat {
                room: t.room.clone(),
                text: text.clone(),
            })
            .await
            .unwrap();
    }
    let mut late = server.client().await;
    let join = |since: u64| ClientMessage::Join {
        room: t.room.clone(),
        role: JoinRole::Spectator,
        since: Some(since),
    };

    // Three messages of 400 characters are over the 1000 bytes: the first is no longer kept.
    let from_first = late.request(join(before)).await;
    assert!(
        matches!(from_first, ServerMessage::Room { .. }),
        "{from_first:?}"
    );
    let from_second = late.request(join(before + 1)).await;

    match from_second {
        ServerMessage::CatchUp { events, .. } => {
            let versions: Vec<u64> = events.iter().map(|e| e.version).collect();
            assert_eq!(versions[..2], [before + 2, before + 3]);
        }
        other => panic!("{other:?}"),
    }
}
