//! Partitions (issue #22): a node cut off from NATS, or from Postgres, stops taking game actions for its rooms
//! (`partitioned`); once its leases run out another node takes the games over with every acknowledged move and
//! the players finish there; when the link comes back, the cut-off node closes the rooms it lost (code 1012)
//! and never writes to them again. A node that drains (shutdown) hands its rooms over at once.
//!
//! Each cut is a TCP proxy between one node and the service (`testkit::cluster::Partition`). Outside CI the tests
//! are skipped, with a message, when NATS or Postgres (`TEST_DATABASE_URL`) is not there; under CI a missing one
//! fails them.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use protocol::{code, JoinRole, TimeControl};
use server::Config;

use testkit::cluster::*;

/// Lease of both nodes: short, so that takeovers come within seconds.
const LEASE_MS: u64 = 1_000;

/// Waits until the cut-off node refuses `who`'s game actions with `partitioned` (asked with a stone out of
/// turn, which a node in contact refuses with `not_your_turn` and changes nothing either way).
async fn until_partitioned(who: &mut Client, room: &str, ply: u32) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match who.place(room, "o15", ply).await {
            Err(c) if c == code::PARTITIONED => return,
            Err(c) if c == "not_your_turn" => {}
            other => panic!("expected not_your_turn, then partitioned: {other:?}"),
        }
        assert!(
            Instant::now() < deadline,
            "the node did not notice the partition within 20 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Plays `moves` alternately from ply `first`, black first.
async fn play(black: &mut Client, white: &mut Client, room: &str, moves: &[&str], first: u32) {
    for (i, point) in moves.iter().enumerate() {
        let ply = first + i as u32;
        let mover = if ply % 2 == 1 {
            &mut *black
        } else {
            &mut *white
        };
        mover
            .place(room, point, ply)
            .await
            .unwrap_or_else(|code| panic!("{point} at ply {ply} refused: {code}"));
    }
}

/// The stored game's actions, and its result's reason.
async fn stored(node: &TestServer, game: i64) -> (Vec<String>, serde_json::Value) {
    let (_, record) = node.get_json(&format!("/api/games/{game}")).await;
    let actions = record["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a["notation"].as_str().unwrap_or_default().to_owned())
        .collect();
    (actions, record["result"]["reason"].clone())
}

/// Which link a test cuts.
#[derive(Clone, Copy)]
enum Link {
    Nats,
    Postgres,
}

async fn a_cut_off_node_stops_and_its_game_goes_on_elsewhere(link: Link) {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let pg_port = database
        .rsplit_once('@')
        .and_then(|(_, rest)| rest.split('/').next())
        .expect("host:port in the database URL")
        .to_owned();
    let partition = match link {
        Link::Nats => Partition::to(&nats().host_port()).await,
        Link::Postgres => Partition::to(&pg_port).await,
    };
    let cut_id = node_id(match link {
        Link::Nats => 'n',
        Link::Postgres => 'p',
    });
    let mut cut_config = Config {
        lease_ms: LEASE_MS,
        ..node_config(&database, &cut_id)
    };
    match link {
        Link::Nats => cut_config.nats_url = Some(nats().url_via(partition.addr)),
        Link::Postgres => {
            cut_config.database_url = Some(database.replace(&pg_port, &partition.addr.to_string()))
        }
    }
    let cut = TestServer::start_node(cut_config).await;
    let other = TestServer::start_node(Config {
        lease_ms: LEASE_MS,
        ..node_config(
            &database,
            &node_id(match link {
                Link::Nats => 'm',
                Link::Postgres => 'q',
            }),
        )
    })
    .await;

    // A game under way on the node to be cut off.
    let mut black = Client::hello(cut.addr, None).await;
    let mut white = Client::hello(cut.addr, None).await;
    let room = black.create(freestyle(), TimeControl::None).await.id;
    let game = white
        .join(&room, JoinRole::Player)
        .await
        .game_id
        .expect("the game started");
    let before = ["h8", "a1", "h9", "a2"];
    play(&mut black, &mut white, &room, &before, 1).await;

    // Cut: the node refuses game actions with `partitioned`, black's move included.
    partition.cut();
    until_partitioned(&mut white, &room, 5).await;
    assert_eq!(
        black.place(&room, "h10", 5).await.err().as_deref(),
        Some(code::PARTITIONED),
        "no move on a cut-off node"
    );

    // The other node takes the game over once the lease has run out; the players reconnect there and finish.
    let (black_token, white_token) = (black.token.clone(), white.token.clone());
    let (mut black2, mut white2, snap) = loop {
        let (mut black2, snap) = rejoin(other.addr, &black_token, &room, Some(before.len())).await;
        let (mut white2, _) = rejoin(other.addr, &white_token, &room, Some(before.len())).await;
        // Until the other node has the room, a join there may still reach the cut-off node's (over NATS, when
        // the cut is Postgres's): its answers to actions that change nothing say which. The takeover closes the
        // sockets that reached the old owner that way (1012): they join again.
        let probes = (
            black2.try_place(&room, "o15", 99).await,
            white2.try_place(&room, "o15", 5).await,
        );
        match probes {
            (Err(b), Err(w)) if b == "stale_ply" && w == "not_your_turn" => {
                break (black2, white2, snap)
            }
            (Err(b), Err(w)) => {
                eprintln!("not the new owner yet ({b}, {w})");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            other => panic!("a probe changed the game: {other:?}"),
        }
    };
    assert_eq!(snap.game_id, Some(game));
    let after = ["h10", "a3", "h11", "a4", "h12"];
    play(&mut black2, &mut white2, &room, &after, 5).await;
    let result = white2.game_over().await;
    assert_eq!(result.reason, "five");

    // Healed: the cut-off node finds the room lost and closes its members there (to reconnect), and a socket on
    // it reaches the room where it is now.
    partition.heal();
    let deadline = Duration::from_secs(20);
    for who in [&mut black, &mut white] {
        let ended = tokio::time::timeout(deadline, who.ended())
            .await
            .expect("the cut-off node closed its members of the lost room");
        assert_eq!(ended, close_code(1012));
    }
    let mut watcher = Client::hello(cut.addr, None).await;
    let seen = watcher.join(&room, JoinRole::Spectator).await;
    assert_eq!(seen.moves.len(), before.len() + after.len());

    // Every acknowledged move stored once, in order; nothing written by the cut-off node after the cut.
    let (actions, reason) = stored(&other, game).await;
    let all: Vec<&str> = before.iter().chain(after.iter()).copied().collect();
    assert_eq!(actions, all);
    assert_eq!(reason, "five");

    other.stop().await;
    cut.stop().await;
    drop(partition);
    drop_database(&admin, &database).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_nats_stops_and_its_game_goes_on_elsewhere() {
    a_cut_off_node_stops_and_its_game_goes_on_elsewhere(Link::Nats).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_postgres_stops_and_its_game_goes_on_elsewhere() {
    a_cut_off_node_stops_and_its_game_goes_on_elsewhere(Link::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_node_hands_its_games_over_at_once() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    // A lease far longer than the wait below: only the hand-over can make the room answer in time.
    let lease_ms = 60_000;
    let draining = TestServer::start_node(Config {
        lease_ms,
        ..node_config(&database, &node_id('d'))
    })
    .await;
    let other = TestServer::start_node(Config {
        lease_ms,
        ..node_config(&database, &node_id('e'))
    })
    .await;
    let mut black = Client::hello(draining.addr, None).await;
    let mut white = Client::hello(draining.addr, None).await;
    let room = black.create(freestyle(), TimeControl::None).await.id;
    let game = white
        .join(&room, JoinRole::Player)
        .await
        .game_id
        .expect("the game started");
    let before = ["h8", "a1", "h9"];
    play(&mut black, &mut white, &room, &before, 1).await;
    let (black_token, white_token) = (black.token.clone(), white.token.clone());

    draining.stop().await;
    let stopped = Instant::now();
    let (mut black, snap) = rejoin(other.addr, &black_token, &room, Some(before.len())).await;
    let (mut white, _) = rejoin(other.addr, &white_token, &room, Some(before.len())).await;
    assert!(
        stopped.elapsed() < Duration::from_secs(20),
        "taken over after {:?}, not at once (the lease is {lease_ms} ms)",
        stopped.elapsed()
    );
    assert_eq!(snap.game_id, Some(game));
    play(
        &mut black,
        &mut white,
        &room,
        &["a2", "h10", "a3", "h11", "a4", "h12"],
        4,
    )
    .await;
    assert_eq!(white.game_over().await.reason, "five");
    let (actions, reason) = stored(&other, game).await;
    assert_eq!(
        actions,
        ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"]
    );
    assert_eq!(reason, "five");

    other.stop().await;
    drop_database(&admin, &database).await;
}
