//! Private games stay private over real HTTP and sockets: records are found by an unguessable public id, the
//! sequential integer id reaches public games only, and profiles list private games to their own player only.

use crate::common;

use common::*;
use protocol::{ClientMessage, ColourChoice, JoinRole, RoomEvent, ServerMessage, TimeControl};

/// `black` opens a casual room (listed or private) and `white` sits down; returns the room, the game's integer
/// id and its public id as the players were told them.
async fn play_in(black: &mut Client, white: &mut Client, public: bool) -> (String, i64, String) {
    let reply = black
        .request(ClientMessage::CreateRoom {
            rules: Some(freestyle()),
            game: None,
            time_control: TimeControl::None,
            rated: false,
            public,
            colour: ColourChoice::Black,
            rating_range: None,
        })
        .await;
    let ServerMessage::Room { room } = reply else {
        panic!("{reply:?}")
    };
    let joined = white.join(&room.id, JoinRole::Player).await;
    let (_, started) = black
        .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;
    let RoomEvent::GameStarted {
        game_id, record, ..
    } = started
    else {
        unreachable!()
    };
    assert_eq!(joined.game_id, Some(game_id));
    assert_eq!(joined.record, record, "the snapshot names the same record");
    (
        room.id,
        game_id,
        record.expect("the players are told the public id"),
    )
}

async fn get_as(server: &TestServer, path: &str, token: Option<&str>) -> (u16, serde_json::Value) {
    let mut request = reqwest::Client::new().get(server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("http");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}

#[tokio::test]
async fn a_private_games_record_is_not_served_by_its_sequential_id() {
    let (server, _db) = TestServer::start().await;
    let (mut a, mut b) = (server.client().await, server.client().await);
    let (_, game_id, record) = play_in(&mut a, &mut b, false).await;

    let (by_number, body) = server.get_json(&format!("/api/games/{game_id}")).await;
    let (by_public_id, shown) = server.get_json(&format!("/api/games/{record}")).await;

    assert_eq!(by_number, 404);
    assert_eq!(body["code"], "unknown_game");
    assert_eq!(by_public_id, 200);
    assert_eq!(shown["public_id"], record.as_str());
    assert_eq!(shown["black"]["name"], a.name.as_str());
    assert_eq!(
        shown["room"],
        serde_json::Value::Null,
        "a shared record does not give the room away"
    );
}

#[tokio::test]
async fn a_public_games_record_is_served_by_either_id() {
    let (server, _db) = TestServer::start().await;
    let (mut a, mut b) = (server.client().await, server.client().await);
    let (_, game_id, record) = play_in(&mut a, &mut b, true).await;

    let (by_number, numbered) = server.get_json(&format!("/api/games/{game_id}")).await;
    let (by_public_id, named) = server.get_json(&format!("/api/games/{record}")).await;

    assert_eq!((by_number, by_public_id), (200, 200));
    assert_eq!(numbered, named);
}

#[tokio::test]
async fn public_ids_are_long_random_and_only_whole_ones_are_found() {
    let (server, _db) = TestServer::start().await;
    let (mut a, mut b) = (server.client().await, server.client().await);
    let (room, _, first) = play_in(&mut a, &mut b, false).await;
    a.act(ClientMessage::Resign { room: room.clone() })
        .await
        .unwrap();
    a.act(ClientMessage::OfferRematch { room: room.clone() })
        .await
        .unwrap();
    let second = match b.act(ClientMessage::OfferRematch { room }).await.unwrap() {
        RoomEvent::GameStarted { record, .. } => record.unwrap(),
        other => panic!("{other:?}"),
    };

    assert_eq!(first.len(), store::PUBLIC_ID_LEN);
    assert_ne!(first, second);
    let (status, _) = server
        .get_json(&format!("/api/games/{}", &first[..first.len() - 1]))
        .await;
    assert_eq!(status, 404);
    let (status, _) = server
        .get_json(&format!("/api/games/{}", "x".repeat(65)))
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_profile_lists_private_games_to_their_player_only() {
    let (server, _db) = TestServer::start().await;
    let Registered {
        client: mut ann,
        token: ann_token,
        ..
    } = server.registered("ann").await;
    let Registered {
        client: mut bob,
        token: bob_token,
        ..
    } = server.registered("bob").await;
    let (_, public_game, _) = play_in(&mut ann, &mut bob, true).await;
    let (_, private_game, _) = play_in(&mut bob, &mut ann, false).await;
    let ids = |body: &serde_json::Value| -> Vec<i64> {
        body["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect()
    };

    let (_, to_ann) = get_as(&server, "/api/players/ann", Some(&ann_token)).await;
    let (_, to_bob) = get_as(&server, "/api/players/ann", Some(&bob_token)).await;
    let (_, to_anyone) = get_as(&server, "/api/players/ann", None).await;
    let (_, page_to_anyone) = get_as(&server, "/api/players/ann/games?limit=5", None).await;
    let (_, page_to_ann) =
        get_as(&server, "/api/players/ann/games?limit=5", Some(&ann_token)).await;

    assert_eq!(ids(&to_ann), [private_game, public_game]);
    assert_eq!(
        ids(&to_bob),
        [public_game],
        "not even to the other player of it, on her profile"
    );
    assert_eq!(ids(&to_anyone), [public_game]);
    assert_eq!(ids(&page_to_anyone), [public_game]);
    assert_eq!(ids(&page_to_ann), [private_game, public_game]);
    assert!(!to_anyone
        .to_string()
        .contains(&format!("\"id\":{private_game}")));
    let (_, bobs_own) = get_as(&server, "/api/players/bob", Some(&bob_token)).await;
    assert_eq!(ids(&bobs_own), [private_game, public_game]);
}

#[tokio::test]
async fn a_private_rooms_id_is_as_hard_to_guess_as_a_game_id() {
    let (server, _db) = TestServer::start().await;
    let (mut a, mut b) = (server.client().await, server.client().await);
    let (room, _, record) = play_in(&mut a, &mut b, false).await;

    // 32 letters of five bits each: 16 of them are 80 bits, as in the game's public id (16 of 32).
    const ALPHABET: &str = "abcdefghijkmnpqrstuvwxyz23456789";
    assert!(room.chars().all(|c| ALPHABET.contains(c)), "{room}");
    assert_eq!(room.len() * 5, 80, "a room id of {room:?}");
    assert_eq!(room.len(), record.len(), "room {room:?}, game {record:?}");
}
