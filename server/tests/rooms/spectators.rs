//! Watching: spectators see every event in order; the lobby lists rooms and pushes changes.

use crate::common;

use common::*;
use protocol::{ClientMessage, JoinRole, RoomEvent, RoomState, ServerMessage, TimeControl};

#[tokio::test]
async fn a_spectator_receives_every_event_in_order_and_ends_with_the_players_position() {
    let (server, _db) = TestServer::start().await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    let room = t.room.clone();
    let mut watcher = server.client().await;
    let start = watcher.join(&room, JoinRole::Spectator).await;
    assert_eq!(start.you, None);
    assert_eq!(start.spectators, 1);

    t.play(
        true,
        &["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"],
        1,
    )
    .await;
    let mut versions = Vec::new();
    let mut moves = Vec::new();
    loop {
        let (v, e) = watcher.event().await;
        versions.push(v);
        match e {
            RoomEvent::Move { point, .. } => moves.push(point),
            RoomEvent::GameOver { result, .. } => {
                assert_eq!(result.reason, "five");
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    let expected: Vec<u64> = (start.version + 1..=start.version + 10).collect();
    assert_eq!(versions, expected, "every event, in order, none missed");
    let final_view = t.black.join(&room, JoinRole::Player).await;
    assert_eq!(moves, final_view.moves);
    assert_eq!(
        watcher.join(&room, JoinRole::Spectator).await.moves,
        final_view.moves
    );
}

#[tokio::test]
async fn spectators_can_chat_but_not_play_and_players_see_the_count() {
    let (server, _db) = TestServer::start().await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    let room = t.room.clone();
    let mut watcher = server.client().await;
    watcher.join(&room, JoinRole::Spectator).await;
    let (_, count) = t
        .black
        .event_where(|e| matches!(e, RoomEvent::Spectators { .. }))
        .await;
    assert_eq!(count, RoomEvent::Spectators { count: 1 });
    // A spectator's chat is the spectators' channel: the sender's copy answers it; players see it when they ask.
    let said = watcher
        .request(ClientMessage::Chat {
            room: room.clone(),
            text: "nice".into(),
        })
        .await;
    let ServerMessage::SpectatorChat { line, .. } = &said else {
        panic!("the spectators' chat: {said:?}");
    };
    assert!(line.is_some(), "the line is kept, with its id");
    assert_eq!(
        said,
        ServerMessage::SpectatorChat {
            room: room.clone(),
            from: watcher.name.clone(),
            text: "nice".into(),
            line: *line,
        }
    );
    assert_eq!(
        watcher
            .act(ClientMessage::Chat {
                room: room.clone(),
                text: " ".into()
            })
            .await,
        Err("bad_chat".into())
    );
    assert_eq!(
        watcher.place(&room, "h8", 1).await,
        Err("not_a_player".into())
    );
    watcher.close().await;
    let (_, count) = t
        .black
        .event_where(|e| matches!(e, RoomEvent::Spectators { .. }))
        .await;
    assert_eq!(count, RoomEvent::Spectators { count: 0 });
}

#[tokio::test]
async fn the_lobby_lists_waiting_and_playing_rooms_and_pushes_changes() {
    let (server, _db) = TestServer::start().await;
    let mut looker = server.client().await;
    let reply = looker.request(ClientMessage::SubscribeLobby {}).await;
    assert_eq!(
        reply,
        ServerMessage::Lobby {
            rooms: vec![],
            online: 1,
            total: Some(0),
        }
    );
    // The quick-pairing counts follow the snapshot: every preset, nobody waiting or playing.
    let ServerMessage::QuickCounts { presets } = looker.recv().await.msg else {
        panic!("expected quick_counts after the lobby snapshot")
    };
    assert!(presets.iter().all(|p| p.waiting == 0 && p.playing == 0));
    assert_eq!(presets.last().map(|p| p.preset.as_str()), Some("custom"));

    let mut a = server.client().await;
    let snap = a.create(freestyle(), TimeControl::None).await;
    let ServerMessage::LobbyRoom { room } = looker.recv().await.msg else {
        panic!()
    };
    assert_eq!(
        (room.id.as_str(), room.state),
        (snap.id.as_str(), RoomState::Waiting)
    );
    assert_eq!(room.players.len(), 1);
    let (_, listed) = server.get_json("/api/rooms").await;
    assert_eq!(listed[0]["id"], snap.id.as_str());
    assert_eq!(listed[0]["state"], "waiting");

    let mut b = server.client().await;
    b.join(&snap.id, JoinRole::Player).await;
    let playing = loop {
        if let ServerMessage::LobbyRoom { room } = looker.recv().await.msg {
            if room.state == RoomState::Playing {
                break room;
            }
        }
    };
    assert_eq!(playing.players.len(), 2);

    b.act(ClientMessage::Resign {
        room: snap.id.clone(),
    })
    .await
    .unwrap();
    loop {
        if let ServerMessage::LobbyRoomRemoved { id } = looker.recv().await.msg {
            assert_eq!(id, snap.id);
            break;
        }
    }
    let (_, listed) = server.get_json("/api/rooms").await;
    assert_eq!(listed, serde_json::json!([]));
}

#[tokio::test]
async fn private_rooms_stay_out_of_the_lobby_but_can_be_joined_by_id() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    let reply = a
        .request(ClientMessage::CreateRoom {
            rules: Some(freestyle()),
            game: None,
            time_control: TimeControl::None,
            rated: false,
            public: false,
            colour: protocol::ColourChoice::White,
            rating_range: None,
        })
        .await;
    let ServerMessage::Room { room } = reply else {
        panic!("{reply:?}")
    };
    assert!(!room.public);
    assert_eq!(room.you, Some(rules::Color::White));
    let (_, listed) = server.get_json("/api/rooms").await;
    assert_eq!(listed, serde_json::json!([]));
    let mut b = server.client().await;
    let joined = b.join(&room.id, JoinRole::Player).await;
    assert_eq!(joined.you, Some(rules::Color::Black));
    assert_eq!(joined.state, RoomState::Playing);
}

#[tokio::test]
async fn a_spectator_of_a_waiting_room_can_take_the_free_seat() {
    let (server, _db) = TestServer::start().await;
    let mut host = server.client().await;
    let snap = host.create(freestyle(), TimeControl::None).await;
    let mut guest = server.client().await;
    assert_eq!(
        guest.join(&snap.id, JoinRole::Spectator).await.spectators,
        1
    );
    let seated = guest.join(&snap.id, JoinRole::Player).await;
    assert_eq!(seated.you, Some(rules::Color::White));
    assert_eq!(seated.state, RoomState::Playing);
    assert_eq!(seated.spectators, 0);
    // A second spectator of the now full room stays a spectator.
    let mut other = server.client().await;
    other.join(&snap.id, JoinRole::Spectator).await;
    let reply = other
        .request(ClientMessage::Join {
            room: snap.id.clone(),
            role: JoinRole::Player,
            since: None,
        })
        .await;
    assert!(matches!(reply, ServerMessage::Error { code, .. } if code == "room_full"));
    assert_eq!(
        other.join(&snap.id, JoinRole::Spectator).await.spectators,
        1
    );
}

#[tokio::test]
async fn the_lobby_counts_distinct_players_online_and_pushes_changes() {
    let (server, _db) = TestServer::start().await;
    let mut looker = server.client().await;
    let first = server.client().await;
    // A second connection of the same player (same token) is still one player.
    let same = Client::hello(server.addr, Some(&first.token)).await;
    let reply = looker.request(ClientMessage::SubscribeLobby {}).await;
    let ServerMessage::Lobby { online, .. } = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(online, 2, "the looker and one other player");

    drop(first);
    drop(same);
    loop {
        if let ServerMessage::LobbyOnline { online } = looker.recv().await.msg {
            if online == 1 {
                break;
            }
        }
    }
}
