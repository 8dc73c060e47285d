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

/// Guests from `source` create public waiting rooms until the address is refused (each guest until it is): the
/// rooms' ids, and the guests, who keep them open.
async fn flood_rooms_from(server: &TestServer, source: &str) -> (Vec<String>, Vec<Client>) {
    let mut rooms = Vec::new();
    let mut guests = Vec::new();
    loop {
        let mut c = server.client_from(source, None).await;
        let mut made = 0;
        loop {
            match c.request(create_room(freestyle(), TimeControl::None)).await {
                ServerMessage::Room { room } => {
                    rooms.push(room.id);
                    made += 1;
                }
                ServerMessage::Error { code, .. } => {
                    assert_eq!(code, "too_many_rooms");
                    break;
                }
                other => panic!("{other:?}"),
            }
        }
        guests.push(c);
        if made == 0 {
            return (rooms, guests);
        }
    }
}

/// The ids `GET /api/rooms` lists, in its order.
async fn listed(server: &TestServer) -> Vec<String> {
    let (status, body) = server.get_json("/api/rooms").await;
    assert_eq!(status, 200);
    body.as_array()
        .expect("a list")
        .iter()
        .map(|r| r["id"].as_str().expect("an id").to_owned())
        .collect()
}

/// A registered player with one finished rated game, connected from 127.0.0.1.
async fn rated_player(server: &TestServer, name: &str) -> Client {
    let store = &server.state.store;
    let me = store.create_user(name, "not-a-real-hash", 0).await.unwrap();
    let other = store
        .create_user(&format!("{name}x"), "not-a-real-hash", 0)
        .await
        .unwrap();
    testkit::records::rated_game(
        store.as_ref(),
        rules::Rules::freestyle(),
        &me,
        &other,
        Some(rules::Color::Black),
        1,
    )
    .await;
    server.registered_as(me).await.client
}

#[tokio::test]
async fn five_flooding_addresses_at_their_limits_leave_a_rated_players_room_in_the_lobby() {
    // The default limits: 100 rooms shown, 20 waiting rooms per address, 5 shown per address.
    let (server, _db) = server_with(test_config()).await;
    let mut player = rated_player(&server, "regular").await;
    let real = match player
        .request(create_room(freestyle(), TimeControl::None))
        .await
    {
        ServerMessage::Room { room } => room.id,
        other => panic!("{other:?}"),
    };
    // Five addresses of five different /24s (the range cap aside).
    let mut floods = Vec::new();
    for n in 1..=5 {
        floods.push(flood_rooms_from(&server, &format!("127.0.{n}.1")).await);
    }
    for (rooms, _) in &floods {
        assert_eq!(rooms.len(), 20, "each address at its waiting-room limit");
    }

    let shown = listed(&server).await;

    assert_eq!(shown.first(), Some(&real), "the rated player's room first");
    for (rooms, _) in &floods {
        let of_address = shown.iter().filter(|id| rooms.contains(id)).count();
        assert_eq!(of_address, 5, "five of each address's twenty rooms shown");
    }
    assert_eq!(shown.len(), 1 + 5 * 5);
    // A subscriber's whole lobby is the same list, and says how many rooms are listed in all.
    let mut looker = server.client().await;
    let whole = lobby_of(looker.request(ClientMessage::SubscribeLobby {}).await);
    assert_eq!(whole, (shown, Some(101)));
}

#[tokio::test]
async fn one_address_has_at_most_its_lobby_share_shown_and_the_next_room_is_joinable_by_link() {
    let (server, _db) = server_with(Config {
        lobby_rooms_per_ip: 3,
        ..test_config()
    })
    .await;
    let mut looker = server.client().await;
    lobby_of(looker.request(ClientMessage::SubscribeLobby {}).await);
    let mut made = Vec::new();
    for _ in 0..3 {
        let (c, room) = create_as_new_guest(&server).await;
        made.push((c, room.unwrap()));
    }
    let shown = listed(&server).await;
    assert_eq!(shown.len(), 3, "three shown: at the limit");

    // The fourth room from the address is open, but not shown: a subscriber hears of it only as the newest of the
    // address's three, which pushes the oldest out.
    let (_c, fourth) = create_as_new_guest(&server).await;
    let fourth = fourth.unwrap();
    let shown = listed(&server).await;
    assert_eq!(shown.len(), 3);
    assert!(shown.contains(&fourth));
    assert!(!shown.contains(&made[0].1), "the oldest is no longer shown");
    // Drain the pushes: the frames concern the newest room coming in and the oldest leaving.
    match looker.recv().await.msg {
        ServerMessage::QuickCounts { .. } => {}
        other => panic!("{other:?}"),
    }
    for _ in 0..3 {
        match looker.recv().await.msg {
            ServerMessage::LobbyRoom { room } => {
                assert!(made.iter().any(|(_, id)| *id == room.id))
            }
            other => panic!("{other:?}"),
        }
    }
    match looker.recv().await.msg {
        ServerMessage::LobbyRoom { room } => assert_eq!(room.id, fourth),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        looker.recv().await.msg,
        ServerMessage::LobbyRoomRemoved {
            id: made[0].1.clone()
        }
    );
    // The room that is not shown is joined by its link all the same.
    let mut friend = server.client_from("127.0.0.2", None).await;
    let joined = friend.join(&made[0].1, JoinRole::Player).await;
    assert_eq!(joined.state, protocol::RoomState::Playing, "{joined:?}");
}

#[tokio::test]
async fn an_address_range_has_at_most_its_lobby_share_shown() {
    let (server, _db) = server_with(Config {
        lobby_rooms_per_ip: 2,
        lobby_rooms_per_range: 3,
        ..test_config()
    })
    .await;
    // Two addresses of one /24 make two rooms each; a third address elsewhere makes one.
    let mut keep = Vec::new();
    let mut ids = Vec::new();
    for source in ["127.0.5.1", "127.0.5.2"] {
        for _ in 0..2 {
            let mut c = server.client_from(source, None).await;
            match c.request(create_room(freestyle(), TimeControl::None)).await {
                ServerMessage::Room { room } => ids.push(room.id),
                other => panic!("{other:?}"),
            }
            keep.push(c);
        }
    }
    let mut other = server.client_from("127.0.6.1", None).await;
    let elsewhere = match other
        .request(create_room(freestyle(), TimeControl::None))
        .await
    {
        ServerMessage::Room { room } => room.id,
        other => panic!("{other:?}"),
    };

    let shown = listed(&server).await;

    let of_range = shown.iter().filter(|id| ids.contains(id)).count();
    assert_eq!(of_range, 3, "three of the range's four rooms: {shown:?}");
    assert!(!shown.contains(&ids[0]), "the range's oldest is not shown");
    assert!(shown.contains(&elsewhere));
}
