//! Failover (issue #22): a cluster node killed with SIGKILL mid-game — no shutdown, its leases simply stop being
//! renewed — has its rooms taken over by a live node once the leases expire; the players reconnect to that node,
//! find the game with every acknowledged move, and finish it there. Members that the live node relayed to the
//! dead node's room are closed with 1012 once it takes the room over, and find the game on joining again.
//!
//! The node to kill is the real server binary in a child process, the survivor runs in this test process. Outside CI the test is skipped, with a message, when NATS or Postgres (`TEST_DATABASE_URL`) is not
//! there; under CI a missing one fails it.

use crate::common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use protocol::{JoinRole, RoomEvent, TimeControl};
use server::Config;

use testkit::cluster::*;

/// Lease of both nodes: short, so the takeover comes within a second or two.
const LEASE_MS: u64 = 1_000;

fn health(addr: SocketAddr) -> bool {
    let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_secs(1)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    if s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    answer.starts_with(b"HTTP/1.1 200")
}

/// The real server binary as cluster node `id` in a child process (so it can be killed), once it answers.
async fn start_killable(database: &str, id: &str) -> (Child, SocketAddr) {
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut node = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["--bind", &addr.to_string()])
        .args(["--database-url", database])
        .envs(nats().env())
        .args(["--node-id", id])
        .args(["--lease-ms", &LEASE_MS.to_string()])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the node to kill");
    let started = Instant::now();
    while !health(addr) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the node to kill did not come up"
        );
        if let Some(status) = node.try_wait().unwrap() {
            panic!("the node to kill stopped: {status}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (node, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_game_is_taken_over_by_a_live_node_with_every_acknowledged_move() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let killed_id = node_id('k');
    let (mut killed, addr) = start_killable(&database, &killed_id).await;
    let survivor = TestServer::start_node(Config {
        lease_ms: LEASE_MS,
        ..node_config(&database, &node_id('s'))
    })
    .await;

    // Both players on the node that will die; a game under way there.
    let mut black = Client::hello(addr, None).await;
    let mut white = Client::hello(addr, None).await;
    let room = black.create(freestyle(), TimeControl::None).await.id;
    assert!(room.starts_with(&format!("{killed_id}-")), "{room}");
    let joined = white.join(&room, JoinRole::Player).await;
    let game_id = joined.game_id.expect("the game started");
    let moves = ["h8", "a1", "h9", "a2", "h10", "a3"];
    for (i, point) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut black } else { &mut white };
        mover
            .place(&room, point, i as u32 + 1)
            .await
            .unwrap_or_else(|code| panic!("{point} refused: {code}"));
    }

    // SIGKILL: no graceful shutdown, no release of the room.
    let killed_at = Instant::now();
    killed.kill().expect("kill -9");
    killed.wait().unwrap();
    let (black_token, white_token) = (black.token.clone(), white.token.clone());
    black.drop_connection();
    white.drop_connection();

    // The players reconnect to the surviving node: once the lease expires it owns the room, with every move.
    let (mut black, snap) = rejoin(survivor.addr, &black_token, &room, None).await;
    let (mut white, _) = rejoin(survivor.addr, &white_token, &room, None).await;
    eprintln!(
        "the room answered on the surviving node {:?} after the kill (lease {LEASE_MS} ms)",
        killed_at.elapsed()
    );
    assert_eq!(snap.game_id, Some(game_id));
    assert_eq!(snap.you, Some(rules::Color::Black));
    let played: Vec<String> = snap.moves.iter().map(|p| p.to_string()).collect();
    assert_eq!(played, moves, "every acknowledged move survived");

    // The game goes on and ends there: black completes five in a column.
    let last = ["h11", "a4", "h12"];
    for (i, point) in last.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut black } else { &mut white };
        mover
            .place(&room, point, (moves.len() + i) as u32 + 1)
            .await
            .unwrap_or_else(|code| panic!("{point} refused after the takeover: {code}"));
    }
    let result = white.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("five", Some(rules::Color::Black))
    );
    let (_, record) = survivor.get_json(&format!("/api/games/{game_id}")).await;
    assert_eq!(record["actions"].as_array().unwrap().len(), 9);
    assert_eq!(record["result"]["reason"], "five");

    survivor.stop().await;
    drop_database(&admin, &database).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn members_a_live_node_relays_to_a_killed_nodes_room_are_closed_with_1012_once_the_room_is_taken_over(
) {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let killed_id = node_id('m');
    let (mut killed, addr) = start_killable(&database, &killed_id).await;
    let survivor = TestServer::start_node(Config {
        lease_ms: LEASE_MS,
        ..node_config(&database, &node_id('t'))
    })
    .await;

    // Black on the node that will die, which owns the room; white and a spectator on the survivor, relayed.
    let mut black = Client::hello(addr, None).await;
    let room = black.create(freestyle(), TimeControl::None).await.id;
    let mut white = Client::hello(survivor.addr, None).await;
    white.join(&room, JoinRole::Player).await;
    let mut watcher = Client::hello(survivor.addr, None).await;
    watcher.join(&room, JoinRole::Spectator).await;
    black.place(&room, "h8", 1).await.unwrap();
    white.place(&room, "a1", 2).await.unwrap();

    killed.kill().expect("kill -9");
    killed.wait().unwrap();
    let (black_token, white_token) = (black.token.clone(), white.token.clone());
    black.drop_connection();
    let (mut black, _) = rejoin(survivor.addr, &black_token, &room, None).await;

    // The survivor took the room over: the members its relay held for the dead owner are told to come again
    // (the new owner never knew them, and would never send them the room's events).
    assert_eq!(white.ended().await, close_code(1012));
    assert_eq!(watcher.ended().await, close_code(1012));
    let (mut white, snap) = rejoin(survivor.addr, &white_token, &room, None).await;
    assert_eq!(snap.you, Some(rules::Color::White));
    assert_eq!(snap.moves.len(), 2);
    let mut watcher = Client::hello(survivor.addr, None).await;
    watcher.join(&room, JoinRole::Spectator).await;
    black.place(&room, "h9", 3).await.unwrap();
    for who in [&mut white, &mut watcher] {
        let (_, event) = who
            .event_where(|e| matches!(e, RoomEvent::Move { .. }))
            .await;
        assert!(matches!(event, RoomEvent::Move { ply: 3, .. }), "{event:?}");
    }

    survivor.stop().await;
    drop_database(&admin, &database).await;
}
