//! Issue #36: every game is public unless made private on purpose. Quick-paired and challenge games are in the
//! lobby's live games while they are played, on both players' profiles as "playing now" (with the room to watch),
//! and once over in both players' archives (`finished=true`); a room created private stays out of all of them.
//! Over real sockets and HTTP.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, ColourChoice, JoinRole, ServerMessage, TimeControl};
use rules::Color;
use serde_json::Value;

async fn get(server: &TestServer, path: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .get(server.url(path))
        .send()
        .await
        .expect("http");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}

/// `GET /api/rooms` once `pred` holds of it (the lobby task hears of rooms as they change; asked until then).
async fn lobby_once(server: &TestServer, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    for _ in 0..200 {
        let (status, rooms) = get(server, "/api/rooms").await;
        assert_eq!(status, 200);
        let rooms = rooms.as_array().cloned().unwrap_or_default();
        if pred(&rooms) {
            return rooms;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the lobby never got there");
}

fn has_room(rooms: &[Value], room: &str) -> bool {
    rooms.iter().any(|r| r["id"] == room)
}

/// The rooms of a list of game summaries.
fn rooms_of(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|g| g["room"].as_str().unwrap().to_owned())
        .collect()
}

/// Waits for `paired`: the room and the colour.
async fn paired(c: &mut Client) -> (String, Color) {
    loop {
        if let ServerMessage::Paired { room, colour, .. } = c.recv().await.msg {
            return (room, colour);
        }
    }
}

/// Both seated players, black first, from their `paired` answers.
async fn seated(mut a: Client, mut b: Client) -> (String, Client, Client) {
    let (room, colour_a) = paired(&mut a).await;
    let (room_b, _) = paired(&mut b).await;
    assert_eq!(room, room_b);
    if colour_a == Color::Black {
        (room, a, b)
    } else {
        (room, b, a)
    }
}

/// What anyone (no session) reads of `name`'s profile: the rooms playing now and of the latest games.
async fn profile_rooms(server: &TestServer, name: &str) -> (Vec<String>, Vec<String>) {
    let (status, p) = get(server, &format!("/api/players/{name}")).await;
    assert_eq!(status, 200, "{p}");
    (rooms_of(&p["playing"]), rooms_of(&p["games"]))
}

/// The rooms of `name`'s games list under `query`, as anyone reads it.
async fn listed(server: &TestServer, name: &str, query: &str) -> Vec<String> {
    let (status, page) = get(server, &format!("/api/players/{name}/games?{query}")).await;
    assert_eq!(status, 200, "{page}");
    rooms_of(&page["games"])
}

#[tokio::test]
async fn a_quick_paired_game_is_live_in_the_lobby_and_on_both_profiles_then_in_both_archives() {
    let (server, _db) = TestServer::start().await;
    let a = server.registered("alice").await.client;
    let b = server.registered("bob").await.client;
    let (mut a, mut b) = (a, b);
    for c in [&mut a, &mut b] {
        let seek = ClientMessage::SeekQuick {
            preset: "freestyle-5+3".into(),
            rules: None,
            game: None,
            time_control: None,
            rated: true,
        };
        assert!(matches!(c.request(seek).await, ServerMessage::Ack { .. }));
    }
    let (room, mut black, mut white) = seated(a, b).await;
    black.place(&room, "h8", 1).await.unwrap();

    // The lobby's live games list it, with both players and their ratings.
    let rooms = lobby_once(&server, |rooms| has_room(rooms, &room)).await;
    let entry = rooms.iter().find(|r| r["id"] == room.as_str()).unwrap();
    assert_eq!(entry["state"], "playing");
    assert_eq!(entry["rated"], true);
    let mut names: Vec<&str> = entry["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["alice", "bob"]);
    assert!(entry["players"][0]["rating"].is_number(), "{entry}");
    // Both profiles, to anyone: playing now, with the room to watch; not yet in the archive.
    for name in ["alice", "bob"] {
        let (playing, latest) = profile_rooms(&server, name).await;
        assert_eq!(playing, vec![room.clone()], "{name}");
        assert_eq!(latest, vec![room.clone()], "{name}");
        assert_eq!(
            listed(&server, name, "finished=false").await,
            vec![room.clone()]
        );
        assert!(listed(&server, name, "finished=true").await.is_empty());
    }

    // Both sides move (a rated game ended before that is aborted), then black resigns.
    white.place(&room, "a1", 2).await.unwrap();
    black
        .act(ClientMessage::Resign { room: room.clone() })
        .await
        .unwrap();
    assert_eq!(white.game_over().await.reason, "resign");

    // Over: no longer playing, in both archives with the filters, and gone from the live games.
    for name in ["alice", "bob"] {
        let (playing, _) = profile_rooms(&server, name).await;
        assert!(playing.is_empty(), "{name}");
        assert_eq!(
            listed(&server, name, "finished=true").await,
            vec![room.clone()]
        );
        assert_eq!(
            listed(&server, name, "finished=true&rated=true&pool=freestyle").await,
            vec![room.clone()]
        );
        assert!(listed(&server, name, "finished=false").await.is_empty());
    }
    let black_name = black.name.clone();
    let white_name = white.name.clone();
    assert_eq!(
        listed(&server, &white_name, "result=win").await,
        vec![room.clone()]
    );
    assert!(listed(&server, &black_name, "result=win").await.is_empty());
    lobby_once(&server, |rooms| !has_room(rooms, &room)).await;
}

#[tokio::test]
async fn an_accepted_challenge_opens_a_public_game_anyone_can_watch() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let mut bob = server.registered("bob").await.client;
    let challenge = ClientMessage::Challenge {
        to: "bob".into(),
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::None,
        rated: false,
        colour: ColourChoice::Black,
        games: None,
    };
    let ServerMessage::Challenge { challenge } = alice.request(challenge).await else {
        panic!("a challenge")
    };
    let accept = ClientMessage::AnswerChallenge {
        id: challenge.id,
        accept: true,
        reason: None,
    };
    assert!(matches!(
        bob.request(accept).await,
        ServerMessage::Ack { .. }
    ));
    let (room, _black, _white) = seated(alice, bob).await;

    let rooms = lobby_once(&server, |rooms| has_room(rooms, &room)).await;
    assert_eq!(
        rooms.iter().find(|r| r["id"] == room.as_str()).unwrap()["state"],
        "playing"
    );
    // A spectator sits in by the room id, as the lobby's Watch link does.
    let mut watcher = server.client().await;
    let snap = watcher.join(&room, JoinRole::Spectator).await;
    assert!(snap.public);
    assert_eq!(snap.you, None);
    for name in ["alice", "bob"] {
        assert_eq!(profile_rooms(&server, name).await.0, vec![room.clone()]);
    }
}

#[tokio::test]
async fn a_room_created_private_stays_out_of_the_lobby_and_other_peoples_view_of_profiles() {
    let (server, _db) = TestServer::start().await;
    let registered = server.registered("alice").await;
    let token = registered.token.clone();
    let mut alice = registered.client;
    let mut bob = server.registered("bob").await.client;
    let create = ClientMessage::CreateRoom {
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::None,
        rated: false,
        public: false,
        colour: ColourChoice::Black,
        rating_range: None,
    };
    let ServerMessage::Room { room } = alice.request(create).await else {
        panic!("a room")
    };
    bob.join(&room.id, JoinRole::Player).await;
    alice.place(&room.id, "h8", 1).await.unwrap();

    assert!(!has_room(&lobby_once(&server, |_| true).await, &room.id));
    assert_eq!(profile_rooms(&server, "alice").await, (vec![], vec![]));
    // Alice herself sees it.
    let own = reqwest::Client::new()
        .get(server.url("/api/players/alice"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(rooms_of(&own["playing"]), vec![room.id.clone()]);
}

#[tokio::test]
async fn the_games_list_takes_limits_from_one_to_a_hundred_and_a_finished_filter_of_true_or_false()
{
    let (server, _db) = TestServer::start().await;
    server.registered("alice").await;
    for (query, status) in [
        ("limit=1", 200),
        ("limit=100", 200),
        ("limit=0", 400),
        ("limit=101", 400),
        ("finished=true", 200),
        ("finished=false", 200),
        ("finished=yes", 400),
        ("before=0", 200),
        ("before=-1", 200),
    ] {
        let (got, body) = get(&server, &format!("/api/players/alice/games?{query}")).await;
        assert_eq!(got, status, "{query}: {body}");
        if status == 400 {
            assert_eq!(body["code"], "invalid_query", "{query}");
        } else {
            assert_eq!(body["games"], serde_json::json!([]), "{query}");
            assert_eq!(body["next_before"], Value::Null, "{query}");
        }
    }
}
