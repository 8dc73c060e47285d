//! Disconnection, grace periods, reconnecting with a version, and resuming games after a restart.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, JoinRole, RoomEvent, RoomState, ServerMessage, TimeControl};
use rules::Color;

fn is_disconnected(e: &RoomEvent) -> bool {
    matches!(e, RoomEvent::PlayerDisconnected { .. })
}

#[tokio::test]
async fn a_reconnecting_player_gets_the_missed_events_and_plays_on() {
    let (server, _db) = TestServer::start().await;
    let t = Table::open(&server, freestyle(), TimeControl::None).await;
    let Table {
        room,
        mut black,
        mut white,
        ..
    } = t;
    black.place(&room, "h8", 1).await.unwrap();
    white.place(&room, "a1", 2).await.unwrap();
    let seen = white.join(&room, JoinRole::Player).await.version;
    let (name, token) = (white.name.clone(), white.token.clone());
    white.drop_connection();

    let (_, gone) = black.event_where(is_disconnected).await;
    assert_eq!(
        gone,
        RoomEvent::PlayerDisconnected {
            colour: Color::White,
            name: name.clone(),
            grace_ms: 60_000
        }
    );
    black.place(&room, "h9", 3).await.unwrap();

    let mut white = Client::hello(server.addr, Some(&token)).await;
    assert_eq!(white.name, name, "the token resumes the same guest");
    let reply = white
        .request(ClientMessage::Join {
            room: room.clone(),
            role: JoinRole::Player,
            since: Some(seen),
        })
        .await;
    let ServerMessage::CatchUp { events, .. } = reply else {
        panic!("{reply:?}")
    };
    let versions: Vec<u64> = events.iter().map(|e| e.version).collect();
    assert_eq!(versions, (seen + 1..=seen + 3).collect::<Vec<_>>());
    assert!(is_disconnected(&events[0].event));
    assert!(matches!(events[1].event, RoomEvent::Move { ply: 3, .. }));
    assert!(matches!(
        events[2].event,
        RoomEvent::PlayerReconnected {
            colour: Color::White,
            ..
        }
    ));
    black
        .event_where(|e| matches!(e, RoomEvent::PlayerReconnected { .. }))
        .await;
    white.place(&room, "a2", 4).await.unwrap();
}

#[tokio::test]
async fn a_session_cookie_on_the_upgrade_request_stands_in_for_a_hello_token() {
    let (server, _db) = TestServer::start().await;
    let first = server.client().await;
    let cookie = format!("gomoku_session={}", first.token);
    let mut again = Client::connect_with_cookie(server.addr, &cookie).await;
    let reply = again
        .request(ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token: None,
        })
        .await;
    let ServerMessage::Welcome { you, token, .. } = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(you.name, first.name);
    assert_eq!(token, "", "a cookie's secret is not handed to scripts");
}

#[tokio::test]
async fn a_reconnect_too_old_for_the_event_log_gets_a_snapshot() {
    let db = Db::sqlite();
    let config = server::Config {
        event_log: 3,
        ..test_config()
    };
    let server = TestServer::start_on(&db, config).await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "a1", "h9", "a2", "h10"], 1).await;
    let room = t.room.clone();
    let reply = t
        .white
        .request(ClientMessage::Join {
            room,
            role: JoinRole::Player,
            since: Some(1),
        })
        .await;
    let ServerMessage::Room { room } = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(room.moves.len(), 5);
    assert_eq!(room.you, Some(Color::White));
}

#[tokio::test]
async fn a_player_who_stays_away_past_the_grace_period_loses() {
    let (server, _db) = TestServer::start().await;
    let Table {
        room,
        mut black,
        mut white,
        game_id,
    } = Table::open(&server, freestyle(), TimeControl::None).await;
    black.place(&room, "h8", 1).await.unwrap();
    white.place(&room, "a1", 2).await.unwrap();
    white.drop_connection();
    black.event_where(is_disconnected).await;

    server.advance(Duration::from_secs(59));
    let _ = black.request(ClientMessage::Ping {}).await;
    let snap = black.join(&room, JoinRole::Player).await;
    assert_eq!(
        snap.state,
        RoomState::Playing,
        "still within the grace period"
    );
    assert_eq!(snap.seats.white.unwrap().grace_ms, Some(1_000));

    server.advance(Duration::from_secs(2));
    let result = black.game_over().await;
    assert_eq!(result.reason, "abandoned");
    assert_eq!(result.winner, Some(Color::Black));
    let (_, record) = server.get_json(&format!("/api/games/{game_id}")).await;
    assert_eq!(record["result"]["reason"], "abandoned");
    assert_eq!(record["result"]["aborted"], false);
}

#[tokio::test]
async fn a_game_abandoned_before_two_moves_is_aborted_without_result() {
    let (server, _db) = TestServer::start().await;
    let Table {
        room,
        mut black,
        white,
        game_id,
    } = Table::open(&server, freestyle(), TimeControl::None).await;
    black.place(&room, "h8", 1).await.unwrap();
    white.drop_connection();
    black.event_where(is_disconnected).await;
    server.advance(Duration::from_secs(61));
    let result = black.game_over().await;
    assert_eq!(result.reason, "aborted");
    assert_eq!(result.winner, None);
    let (_, record) = server.get_json(&format!("/api/games/{game_id}")).await;
    assert_eq!(record["result"]["aborted"], true);
}

#[tokio::test]
async fn a_player_back_within_the_grace_period_keeps_the_seat() {
    let (server, _db) = TestServer::start().await;
    let Table {
        room,
        mut black,
        white,
        ..
    } = Table::open(&server, freestyle(), TimeControl::None).await;
    black.place(&room, "h8", 1).await.unwrap();
    let token = white.token.clone();
    white.drop_connection();
    black.event_where(is_disconnected).await;
    server.advance(Duration::from_secs(30));
    let mut white = Client::hello(server.addr, Some(&token)).await;
    white.join(&room, JoinRole::Player).await;
    black
        .event_where(|e| matches!(e, RoomEvent::PlayerReconnected { .. }))
        .await;
    server.advance(Duration::from_secs(60));
    white.place(&room, "a1", 2).await.unwrap();
    let snap = black.join(&room, JoinRole::Player).await;
    assert_eq!(snap.state, RoomState::Playing);
}

async fn restart_resumes_the_game(db: Db) {
    let tc = TimeControl::Fischer {
        base_ms: 60_000,
        increment_ms: 0,
    };
    let server = TestServer::start_on(&db, test_config()).await;
    let Table {
        room,
        mut black,
        mut white,
        game_id,
    } = Table::open(&server, freestyle(), tc).await;
    server.advance(Duration::from_secs(5));
    black.place(&room, "h8", 1).await.unwrap();
    white.place(&room, "a1", 2).await.unwrap();
    black.place(&room, "h9", 3).await.unwrap();
    white.place(&room, "a2", 4).await.unwrap();
    let (black_token, white_token) = (black.token.clone(), white.token.clone());
    server.stop().await;
    // The sockets were closed by the server with "going away".
    assert_eq!(black.ended().await, Ended::Closed(Some(1001)));

    let server = TestServer::start_on(&db, test_config()).await;
    let mut black = Client::hello(server.addr, Some(&black_token)).await;
    let snap = black.join(&room, JoinRole::Player).await;
    assert_eq!(snap.game_id, Some(game_id));
    assert_eq!(snap.moves, ["h8", "a1", "h9", "a2"].map(p).to_vec());
    assert_eq!(snap.you, Some(Color::Black));
    assert_eq!(snap.to_act, Some(Color::Black));
    let clocks = snap.clocks.unwrap();
    assert_eq!(
        clocks.black.remaining_ms, 55_000,
        "the downtime is charged to nobody"
    );
    assert_eq!(clocks.white.remaining_ms, 60_000);
    assert_eq!(clocks.running, Some(Color::Black));
    assert!(!snap.seats.white.unwrap().connected);

    let mut white = Client::hello(server.addr, Some(&white_token)).await;
    white.join(&room, JoinRole::Player).await;
    black.place(&room, "h10", 5).await.unwrap();
    white.place(&room, "a3", 6).await.unwrap();
    black.place(&room, "h11", 7).await.unwrap();
    white.place(&room, "a4", 8).await.unwrap();
    black.place(&room, "h12", 9).await.unwrap();
    let result = white.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("five", Some(Color::Black))
    );
    let (_, record) = server.get_json(&format!("/api/games/{game_id}")).await;
    assert_eq!(record["moves"].as_array().unwrap().len(), 9);
    assert_eq!(record["result"]["reason"], "five");
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_resumes_unfinished_games_on_sqlite() {
    restart_resumes_the_game(Db::sqlite()).await;
}

#[tokio::test]
async fn a_restarted_server_resumes_unfinished_games_on_postgres() {
    let Some(db) = Db::postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the Postgres variant runs in CI (.ci/run)");
        return;
    };
    restart_resumes_the_game(db).await;
}

#[tokio::test]
async fn a_game_decided_but_not_finished_before_a_crash_is_finished_at_start() {
    let db = Db::sqlite();
    {
        // As a crash would leave it: the winning stone stored, the result not.
        let store = store::open(&db.url).await.unwrap();
        let player = |name: &str| store::PlayerRef {
            name: name.into(),
            user_id: None,
        };
        let game = store::NewGame {
            public_id: store::new_public_id(),
            room: "crashed1".into(),
            kind: server::gomoku::KIND.into(),
            config: server::gomoku::config_text(&rules::Rules::freestyle()),
            pool: server::gomoku::FREESTYLE,
            time_control: r#"{"kind":"none"}"#.into(),
            public: true,
            rated: false,
            black: player("guest-b"),
            white: player("guest-w"),
            started_at: 0,
        };
        let id = store.create_game(&game).await.unwrap();
        let stones = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"];
        let batch: Vec<_> = stones
            .iter()
            .enumerate()
            .map(|(seq, s)| {
                let action = rules::Action::place(p(s));
                (
                    id,
                    store::StoredAction {
                        seq: seq as u32,
                        text: server::gomoku::action_text(&action),
                        ply: server::gomoku::move_number(&action, seq as u32 + 1),
                        used_ms: 0,
                        remaining_ms: None,
                        at: 0,
                    },
                )
            })
            .collect();
        store.append_actions(&batch).await.unwrap();
    }
    let server = TestServer::start_on(&db, test_config()).await;
    let mut looker = server.client().await;
    let snap = looker.join("crashed1", JoinRole::Spectator).await;
    assert_eq!(snap.state, RoomState::Over);
    let result = snap.result.unwrap();
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("five", Some(Color::Black))
    );
    let (_, record) = server
        .get_json(&format!("/api/games/{}", snap.game_id.unwrap()))
        .await;
    assert_eq!(record["result"]["reason"], "five");
}

#[tokio::test]
async fn a_private_room_stays_private_after_a_restart() {
    let db = Db::sqlite();
    let server = TestServer::start_on(&db, test_config()).await;
    let mut host = server.client().await;
    let reply = host
        .request(ClientMessage::CreateRoom {
            rules: Some(freestyle()),
            game: None,
            time_control: TimeControl::None,
            rated: false,
            public: false,
            colour: protocol::ColourChoice::Black,
            rating_range: None,
        })
        .await;
    let ServerMessage::Room { room } = reply else {
        panic!("{reply:?}")
    };
    let mut guest = server.client().await;
    guest.join(&room.id, JoinRole::Player).await;
    host.place(&room.id, "h8", 1).await.unwrap();
    let host_token = host.token.clone();
    server.stop().await;

    let server = TestServer::start_on(&db, test_config()).await;
    let (_, listed) = server.get_json("/api/rooms").await;
    assert_eq!(
        listed,
        serde_json::json!([]),
        "a restored private room is not listed"
    );
    let mut host = Client::hello(server.addr, Some(&host_token)).await;
    let snap = host.join(&room.id, JoinRole::Player).await;
    assert!(!snap.public);
    assert_eq!(snap.moves, [p("h8")].to_vec());
    server.stop().await;
}
