//! The HTTP side: health, the web client, game records, metrics.

use crate::common;

use common::*;
use protocol::TimeControl;

#[tokio::test]
async fn health_answers_ok() {
    let (server, _db) = TestServer::start().await;
    let (status, body) = server.get_json("/api/health").await;
    assert_eq!(status, 200);
    assert_eq!(body, serde_json::json!({ "status": "ok" }));
}

#[tokio::test]
async fn the_web_client_is_served_at_the_root_and_for_client_routes() {
    let (server, _db) = TestServer::start().await;
    let (status, head, body) = server.get("/").await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(body.to_ascii_lowercase().contains("<html"));
    let (status, _, room_page) = server.get("/room/abcd1234").await;
    assert_eq!(status, 200);
    assert_eq!(room_page, body);
    assert_eq!(server.get("/no/such/file.js").await.0, 404);
    assert_eq!(server.get("/api/no-such-endpoint").await.0, 404);
}

#[tokio::test]
async fn an_unknown_game_is_a_404_with_a_code() {
    let (server, _db) = TestServer::start().await;
    let (status, body) = server.get_json("/api/games/999999").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "unknown_game");
    assert_eq!(server.get_json("/api/games/not-a-number").await.0, 404);
}

#[tokio::test]
async fn a_live_game_record_shows_its_moves_so_far() {
    let (server, _db) = TestServer::start().await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "g7"], 1).await;
    let (status, record) = server.get_json(&format!("/api/games/{}", t.game_id)).await;
    assert_eq!(status, 200);
    assert_eq!(record["moves"], serde_json::json!(["h8", "g7"]));
    assert_eq!(
        record["actions"][1]["action"],
        serde_json::json!({"action": "place", "point": "g7"})
    );
    assert_eq!(record["result"], serde_json::Value::Null);
    assert_eq!(record["rules"]["rule_set"], "freestyle");
}

#[tokio::test]
async fn metrics_count_connections_games_and_moves() {
    let (server, _db) = TestServer::start().await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "a1", "h9"], 1).await;
    let (status, head, text) = server.get("/metrics").await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/plain"));
    for line in [
        "gomoku_connections 2",
        "gomoku_rooms 1",
        "gomoku_games_started_total 1",
        "gomoku_games_finished_total 0",
        "gomoku_moves_total 3",
        "gomoku_store_write_seconds_count 3",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    assert!(text.contains("gomoku_action_seconds_bucket{le=\"+Inf\"}"));
}

#[tokio::test]
async fn shutdown_closes_sockets_with_going_away() {
    let (server, _db) = TestServer::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    server.stop().await;
    assert_eq!(a.ended().await, Ended::Closed(Some(1001)));
    assert_eq!(b.ended().await, Ended::Closed(Some(1001)));
}
