//! Matches (#34) over real WebSockets with the typed client: a challenge proposes a match of N games, the room
//! starts each next game itself with the colours exchanged, the running score and the result are served by
//! `GET /api/matches/{id}`, a restart in the middle resumes the match (SQLite and Postgres), the proposal's
//! bounds; and the ladder points a rated game moves (both stores).

use crate::common;

use client::Replica;
use common::*;
use protocol::{
    ClientMessage, ColourChoice, GameSpec, JoinRole, OthelloScoring, RoomEvent, ServerMessage,
    TimeControl,
};
use rules::Color;
use testkit::game_table::{create_game, rated, GameTable};
use testkit::postgres::FreshSchema;

/// The shortest Othello game: a wipe-out after nine plies, won by black.
const WIPE_OUT: [&str; 9] = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"];

fn othello() -> GameSpec {
    GameSpec::Othello(protocol::OthelloSpec {
        scoring: OthelloScoring::Japanese,
    })
}

fn proposal(to: &str, game: GameSpec, games: Option<u32>) -> ClientMessage {
    ClientMessage::Challenge {
        to: to.into(),
        rules: None,
        game: Some(game),
        time_control: TimeControl::None,
        rated: false,
        colour: ColourChoice::Black,
        games,
    }
}

async fn paired_room(c: &mut Client) -> String {
    loop {
        if let ServerMessage::Paired { room, .. } = c.recv().await.msg {
            return room;
        }
    }
}

/// `alice` challenges `bob` to a casual match of `games` Othello games and takes black in the first; `bob`
/// accepts; a spectator follows the room.
async fn open_match(
    server: &TestServer,
    mut alice: Client,
    mut bob: Client,
    games: u32,
) -> GameTable {
    let reply = alice
        .request(proposal(&bob.name, othello(), Some(games)))
        .await;
    let ServerMessage::Challenge { challenge } = reply else {
        panic!("a challenge, not {reply:?}");
    };
    assert_eq!(challenge.games, Some(games));
    let accepted = bob
        .request(ClientMessage::AnswerChallenge {
            id: challenge.id,
            accept: true,
            reason: None,
        })
        .await;
    assert!(
        matches!(accepted, ServerMessage::Ack { .. }),
        "{accepted:?}"
    );
    let room = paired_room(&mut alice).await;
    assert_eq!(paired_room(&mut bob).await, room);
    let mut watcher = server.client().await;
    let seen = watcher.join(&room, JoinRole::Spectator).await;
    assert!(seen.match_id.is_some(), "the room names its match");
    let replica = Replica::from_snapshot(&seen, None).expect("the snapshot replays");
    GameTable {
        room,
        black: alice,
        white: bob,
        game_id: seen.game_id.expect("the first game started"),
        record: seen.record.expect("a record"),
        watcher,
        replica,
    }
}

/// Follows the room to its next game's start: (black's name, white's name, game id).
async fn next_game(t: &mut GameTable) -> (String, String, i64) {
    loop {
        if let RoomEvent::GameStarted {
            black,
            white,
            game_id,
            ..
        } = t.follow_one().await
        {
            return (black.name, white.name, game_id);
        }
    }
}

async fn match_json(server: &TestServer, id: i64) -> serde_json::Value {
    let (status, body) = server.get_json(&format!("/api/matches/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn a_two_game_othello_match_alternates_colours_and_adds_up_the_score() {
    let (server, _db) = TestServer::start().await;
    let alice = server.registered("alice").await.client;
    let bob = server.registered("bob").await.client;
    let mut t = open_match(&server, alice, bob, 2).await;
    let match_id = t.snapshot().await.match_id.expect("a match");

    t.play_line(&WIPE_OUT).await;
    let first = t.follow_to_end().await;
    assert_eq!(first.winner_name.as_deref(), Some("alice"));
    let after_one = match_json(&server, match_id).await;
    assert_eq!(after_one["played"], 1);
    assert_eq!(after_one["result"], "playing");

    let (black, white, second_game) = next_game(&mut t).await;
    assert_eq!(
        (black.as_str(), white.as_str()),
        ("bob", "alice"),
        "colours alternate"
    );
    assert_ne!(second_game, t.game_id);
    t.play_line(&["f5", "d6"]).await;
    assert_eq!(t.mover().name, "bob");
    let room = t.room.clone();
    t.send(true, ClientMessage::Resign { room }).await;
    let second = t.follow_to_end().await;
    assert_eq!(
        (second.winner, second.winner_name.as_deref()),
        (Some(Color::White), Some("alice"))
    );

    // Every game played: no third one starts.
    let snap = t.snapshot().await;
    assert_eq!(snap.game_id, Some(second_game));
    assert!(snap.result.is_some());

    let m = match_json(&server, match_id).await;
    assert_eq!(m["games"], 2);
    assert_eq!(m["game"], "othello");
    assert_eq!(m["room"], t.room.as_str());
    assert_eq!(m["played"], 2);
    assert_eq!(m["players"][0]["name"], "alice");
    assert_eq!(m["players"][0]["points"], 2.0);
    assert_eq!(m["players"][1]["name"], "bob");
    assert_eq!(m["players"][1]["points"], 0.0);
    assert_eq!(m["result"], "first");
    assert_eq!(m["winner"], "alice");
    let list = m["game_list"].as_array().expect("games");
    assert_eq!(list.len(), 2);
    assert_eq!(
        (
            &list[0]["black"],
            &list[0]["winner"],
            &list[0]["score_after"]
        ),
        (
            &"alice".into(),
            &"alice".into(),
            &serde_json::json!([1.0, 0.0])
        )
    );
    assert_eq!(
        (
            &list[1]["black"],
            &list[1]["reason"],
            &list[1]["score_after"]
        ),
        (
            &"bob".into(),
            &"resign".into(),
            &serde_json::json!([2.0, 0.0])
        )
    );
    assert_eq!(list[0]["id"], t.record.as_str());
}

/// A match of two games on `db`: the server restarts during the second game, which goes on in the same room
/// and the same match; the result counts both games.
async fn a_restart_resumes_the_match(db: Db) {
    let server = TestServer::start_on(&db, test_config()).await;
    let alice = server.registered("alice").await.client;
    let bob = server.registered("bob").await.client;
    let mut t = open_match(&server, alice, bob, 2).await;
    let match_id = t.snapshot().await.match_id.expect("a match");
    t.play_line(&WIPE_OUT).await;
    t.follow_to_end().await;
    let (_, _, second_game) = next_game(&mut t).await;
    t.play_line(&["f5"]).await;
    t.game_id = second_game;
    t.record = t.snapshot().await.record.expect("a record");

    let (server, mut t) = t.restart(server, &db).await;
    let snap = t.snapshot().await;
    assert_eq!(
        snap.match_id,
        Some(match_id),
        "the room is still the match's"
    );
    t.play_line(&["d6"]).await;
    let room = t.room.clone();
    t.send(true, ClientMessage::Resign { room }).await;
    let result = t.follow_to_end().await;
    assert_eq!(result.winner_name.as_deref(), Some("alice"));
    let snap = t.snapshot().await;
    assert_eq!(
        snap.game_id,
        Some(second_game),
        "the match is over: no third game"
    );

    let m = match_json(&server, match_id).await;
    assert_eq!(
        (m["played"].as_u64(), m["result"].as_str()),
        (Some(2), Some("first"))
    );
    assert_eq!(m["players"][0]["points"], 2.0);
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_resumes_a_match_on_sqlite() {
    a_restart_resumes_the_match(Db::sqlite()).await;
}

#[tokio::test]
async fn a_restarted_server_resumes_a_match_on_postgres() {
    let Some(schema) = FreshSchema::of_test_database("matches").await else {
        eprintln!("TEST_DATABASE_URL is not set: the Postgres variant runs in CI (.ci/run)");
        return;
    };
    let mut db = Db::postgres().expect("set");
    db.url = schema.url.clone();
    a_restart_resumes_the_match(db).await;
    schema.drop().await;
}

#[tokio::test]
async fn a_match_has_one_to_twenty_games_and_an_even_number_except_in_gomoku() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    server.registered("bob").await;
    for games in [0, 3, 21] {
        let reply = alice.request(proposal("bob", othello(), Some(games))).await;
        assert_eq!(error_code(reply), "invalid_field", "{games} Othello games");
    }
    let reply = alice
        .request(proposal("bob", GameSpec::from(freestyle()), Some(21)))
        .await;
    assert_eq!(error_code(reply), "invalid_field");
    let reply = alice.request(proposal("bob", othello(), Some(20))).await;
    let ServerMessage::Challenge { challenge } = reply else {
        panic!("a challenge, not {reply:?}");
    };
    assert_eq!(challenge.games, Some(20));
    let reply = alice
        .request(proposal("bob", GameSpec::from(freestyle()), Some(3)))
        .await;
    assert!(
        matches!(reply, ServerMessage::Challenge { .. }),
        "{reply:?}"
    );
    // One game is today's challenge: no match.
    let reply = alice.request(proposal("bob", othello(), Some(1))).await;
    let ServerMessage::Challenge { challenge } = reply else {
        panic!("a challenge, not {reply:?}");
    };
    assert_eq!(challenge.games, None);
}

#[tokio::test]
async fn an_unknown_match_is_not_found() {
    let (server, _db) = TestServer::start().await;
    for path in ["/api/matches/7", "/api/matches/x"] {
        let (status, body) = server.get_json(path).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("no_such_match"))
        );
    }
}

/// A rated Othello game on `db`: the winner's ladder goes to 2 (新手, Newcomer), the loser's to -2 (菜鸟,
/// Rookie), on the profile.
async fn a_rated_game_moves_the_ladder(db: Db) {
    let server = TestServer::start_on(&db, test_config()).await;
    let ann = server.registered("Ann").await;
    let ben = server.registered("Ben").await;
    let create = rated(create_game(
        othello(),
        TimeControl::None,
        ColourChoice::Black,
    ));
    let mut t = GameTable::seat(&server, ann.client, ben.client, create).await;
    t.play_line(&WIPE_OUT).await;
    t.follow_to_end().await;
    for (name, points, code, zh) in [
        ("Ann", 2, "newcomer", "新手"),
        ("Ben", -2, "rookie", "菜鸟"),
    ] {
        let (_, profile) = server.get_json(&format!("/api/players/{name}")).await;
        let ladder = &profile["ratings"][0]["ladder"];
        assert_eq!(ladder["kind"], "points");
        assert_eq!(ladder["points"], points, "{name}");
        assert_eq!(ladder["title_code"], code);
        assert_eq!(ladder["title_zh"], zh);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_rated_game_moves_the_ladder_on_sqlite() {
    a_rated_game_moves_the_ladder(Db::sqlite()).await;
}

#[tokio::test]
async fn a_rated_game_moves_the_ladder_on_postgres() {
    let Some(schema) = FreshSchema::of_test_database("ladders").await else {
        eprintln!("TEST_DATABASE_URL is not set: the Postgres variant runs in CI (.ci/run)");
        return;
    };
    let mut db = Db::postgres().expect("set");
    db.url = schema.url.clone();
    a_rated_game_moves_the_ladder(db).await;
    schema.drop().await;
}
