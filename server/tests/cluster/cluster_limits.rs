//! Limits that hold for a whole cluster (issue #22), with two nodes in this test process on one fresh Postgres
//! database and the NATS server on 127.0.0.1:4222: a player's open rooms are counted on every node, and failed
//! logins for an account are counted wherever they land.
//!
//! Outside CI (`CI` unset) the tests are skipped, with a message, when NATS or Postgres (`TEST_DATABASE_URL`) is
//! not there; under CI a missing one fails them.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, ServerMessage, TimeControl};
use serde_json::{json, Value};
use server::Config;

use testkit::cluster::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_at_the_room_limit_on_one_node_is_refused_a_room_on_another_until_one_closes() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let limited = |node: char| Config {
        max_rooms_per_player: 2,
        ..node_config(&database, &node_id(node))
    };
    let a = TestServer::start_node(limited('g')).await;
    let b = TestServer::start_node(limited('h')).await;

    // The player opens the limit's rooms on node a, then asks node b for one more.
    let mut on_a = a.client().await;
    let first = on_a.create(freestyle(), TimeControl::None).await.id;
    on_a.create(freestyle(), TimeControl::None).await;
    let mut on_b = Client::hello(b.addr, Some(&on_a.token)).await;
    let refused = on_b
        .request(create_room(freestyle(), TimeControl::None))
        .await;

    assert_eq!(error_code(refused), "too_many_rooms");
    // Another player on node b is not concerned.
    b.client()
        .await
        .create(freestyle(), TimeControl::None)
        .await;

    // One of the player's rooms closes on node a (they leave it): node b opens the next one.
    on_a.request(ClientMessage::Leave { room: first }).await;
    let deadline = std::time::Instant::now() + WAIT;
    let room = loop {
        match on_b
            .request(create_room(freestyle(), TimeControl::None))
            .await
        {
            ServerMessage::Room { room } => break room,
            ServerMessage::Error { code, .. } if code == "too_many_rooms" => {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the closed room still counts"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            other => panic!("expected a room, got {other:?}"),
        }
    };
    assert!(
        room.id.starts_with(&format!("{}-", node_id('h'))),
        "{}",
        room.id
    );
    // And the player is at the limit again, on either node.
    let again = on_a
        .request(create_room(freestyle(), TimeControl::None))
        .await;
    assert_eq!(error_code(again), "too_many_rooms");

    b.stop().await;
    a.stop().await;
    drop_database(&admin, &database).await;
}

/// Posts a login to a node: the status, the `Retry-After` header if any, and the JSON body.
async fn login(node: &TestServer, name: &str, password: &str) -> (u16, Option<String>, Value) {
    let response = reqwest::Client::new()
        .post(node.url("/api/login"))
        .json(&json!({"username": name, "password": password}))
        .send()
        .await
        .expect("login request");
    let status = response.status().as_u16();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().expect("a text header").to_owned());
    let body = response.json().await.expect("a JSON body");
    (status, retry, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_logins_spread_over_two_nodes_meet_the_account_limit_at_its_burst() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    // Three failures guard the name; the address and the address with the name allow far more.
    let limited = |node: char| Config {
        password_memory_kib: 64,
        login_burst_per_account: 3,
        login_per_minute_per_account: 1.0,
        login_burst_per_address_account: 100,
        login_per_minute_per_address_account: 1.0,
        login_burst_per_ip: 100,
        ..node_config(&database, &node_id(node))
    };
    let a = TestServer::start_node(limited('i')).await;
    let b = TestServer::start_node(limited('j')).await;
    let registered = reqwest::Client::new()
        .post(a.url("/api/register"))
        .json(&json!({"username": "olga", "password": "correct horse battery staple"}))
        .send()
        .await
        .expect("register");
    assert_eq!(registered.status().as_u16(), 201);

    let mut answers = Vec::new();
    for (node, guess) in [(&a, "guess-one"), (&b, "guess-two"), (&a, "guess-three")] {
        answers.push(login(node, "olga", guess).await);
    }
    let over = login(&b, "Olga", "guess-four").await;
    let over_on_a = login(&a, "olga", "guess-five").await;

    // The burst-th failure is answered as any failure; the next one, on either node, is the limit's answer.
    for (status, retry, body) in &answers {
        assert_eq!(*status, 401);
        assert_eq!(*retry, None);
        assert_eq!(body["code"], "invalid_credentials");
    }
    for (status, retry, body) in [&over, &over_on_a] {
        assert_eq!(*status, 429);
        assert_eq!(body["code"], "rate_limited");
        assert_eq!(body["message"], "too many attempts; try again later");
        // Until the address's record for the name is clean again: three attempts at one a minute (less the
        // seconds the test took).
        let secs: u64 = retry.as_deref().expect("Retry-After").parse().unwrap();
        assert!((170..=180).contains(&secs), "{secs}");
    }

    b.stop().await;
    a.stop().await;
    drop_database(&admin, &database).await;
}
