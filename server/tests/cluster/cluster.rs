//! Three cluster nodes (issue #22) in this test process, on one fresh Postgres database and the NATS server on
//! 127.0.0.1:4222: players on different nodes finish a game, a spectator on the third sees every event in order,
//! and a reconnect to another node with `since` gets exactly the events it missed.
//!
//! Outside CI (`CI` unset) the test is skipped, with a message, when NATS or Postgres (`TEST_DATABASE_URL`) is not
//! there; under CI a missing one fails it.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, JoinRole, RoomEvent, ServerMessage, TimeControl};
use server::Config;

use testkit::cluster::*;

/// The versions and events a client receives until `pred` holds for one.
async fn events_until(
    client: &mut Client,
    pred: impl Fn(&RoomEvent) -> bool,
) -> Vec<(u64, RoomEvent)> {
    let mut seen = Vec::new();
    loop {
        let (v, e) = client.event().await;
        let done = pred(&e);
        seen.push((v, e));
        if done {
            return seen;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_different_nodes_finish_a_game_watched_from_a_third_and_a_reconnect_elsewhere_catches_up(
) {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let a = TestServer::start_node(node_config(&database, &node_id('a'))).await;
    let b = TestServer::start_node(node_config(&database, &node_id('b'))).await;
    let c = TestServer::start_node(node_config(&database, &node_id('c'))).await;

    // Black creates the room on node a; its id names its node.
    let mut black = a.client().await;
    let snap = black.create(freestyle(), TimeControl::None).await;
    let room = snap.id.clone();
    assert!(room.starts_with(&format!("{}-", node_id('a'))), "{room}");

    // White sits down through node b: the room is a's, reached over NATS.
    let mut white = b.client().await;
    let joined = white.join(&room, JoinRole::Player).await;
    assert_eq!(joined.you, Some(rules::Color::White));
    let game_id = joined.game_id.expect("the game started");
    black
        .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;

    // A spectator on node c.
    let mut watcher = c.client().await;
    let start = watcher.join(&room, JoinRole::Spectator).await;
    assert_eq!(start.spectators, 1);

    // A second spectator on node b, who will drop out and come back on node c.
    let mut leaver = b.client().await;
    let left_start = leaver.join(&room, JoinRole::Spectator).await;

    let moves = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"];
    let mut last_seen_by_leaver = left_start.version;
    for (i, point) in moves.iter().enumerate() {
        let ply = i as u32 + 1;
        let mover = if i % 2 == 0 { &mut black } else { &mut white };
        let event = mover
            .place(&room, point, ply)
            .await
            .unwrap_or_else(|code| panic!("{point} at ply {ply} refused: {code}"));
        assert!(
            matches!(event, RoomEvent::Move { ply: p, .. } if p == ply),
            "{event:?}"
        );
        if ply <= 4 {
            let (v, _) = leaver
                .event_where(|e| matches!(e, RoomEvent::Move { ply: p, .. } if *p == ply))
                .await;
            last_seen_by_leaver = v;
        }
        if ply == 4 {
            // Gone from node b after the fourth move.
            // The new connection speaks version 2: a version-1 connection that has not seen a room on another
            // node gets its snapshot instead of the missed events (`server/src/ws/v1.rs`: it cannot learn the
            // room's form there), which the first version allows.
            std::mem::replace(&mut leaver, testkit::table::Client::hello_v2(c.addr).await)
                .drop_connection();
        }
        if ply == 6 {
            // Back, on node c, with the last version it saw.
            let reply = leaver
                .request(ClientMessage::Join {
                    room: room.clone(),
                    role: JoinRole::Spectator,
                    since: Some(last_seen_by_leaver),
                })
                .await;
            let ServerMessage::CatchUp { events, .. } = reply else {
                panic!("expected the missed events, got {reply:?}");
            };
            let versions: Vec<u64> = events.iter().map(|e| e.version).collect();
            let expected: Vec<u64> =
                (last_seen_by_leaver + 1..=last_seen_by_leaver + versions.len() as u64).collect();
            assert_eq!(versions, expected, "exactly the missed events, in order");
            let missed_moves: Vec<u32> = events
                .iter()
                .filter_map(|e| match e.event {
                    RoomEvent::Action { at, .. } => Some(at + 1),
                    _ => None,
                })
                .collect();
            assert_eq!(missed_moves, [5, 6], "the moves made while it was away");
        }
    }

    // The watcher on node c saw every event, in order, from its snapshot to the end.
    let seen = events_until(&mut watcher, |e| matches!(e, RoomEvent::GameOver { .. })).await;
    let versions: Vec<u64> = seen.iter().map(|(v, _)| *v).collect();
    let expected: Vec<u64> = (start.version + 1..=start.version + versions.len() as u64).collect();
    assert_eq!(versions, expected, "every event, in order, none missed");
    let watched: Vec<u32> = seen
        .iter()
        .filter_map(|(_, e)| match e {
            RoomEvent::Move { ply, .. } => Some(*ply),
            _ => None,
        })
        .collect();
    assert_eq!(watched, (1..=9).collect::<Vec<u32>>());
    let RoomEvent::GameOver { result, .. } = &seen.last().unwrap().1 else {
        unreachable!()
    };
    assert_eq!(result.reason, "five");
    // Both players heard the end, each on its own node.
    assert_eq!(white.game_over().await.reason, "five");
    assert_eq!(black.game_over().await.reason, "five");
    // The returning spectator follows to the end too.
    assert_eq!(leaver.game_over().await.reason, "five");

    // The owner stored every move and the result.
    let stored = a.state.store.game(game_id).await.unwrap().expect("stored");
    assert_eq!(stored.actions.len(), moves.len());
    assert!(stored.end.is_some(), "the result is stored");

    c.stop().await;
    b.stop().await;
    a.stop().await;
    drop_database(&admin, &database).await;
}

#[tokio::test]
async fn a_room_no_node_owns_is_unknown_from_any_node() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let b = TestServer::start_node(node_config(&database, &node_id('x'))).await;
    let mut client = b.client().await;
    let reply = client
        .request(ClientMessage::Join {
            room: "nowhere-abcdefgh".into(),
            role: JoinRole::Spectator,
            since: None,
        })
        .await;
    assert_eq!(error_code(reply), "unknown_room");
    // An id no room could have (too long for one, or not a NATS subject token) is not even asked for.
    for (id, asked) in [
        ("a".repeat(64), true),
        ("a".repeat(65), false),
        ("x.y".to_owned(), false),
    ] {
        let reply = client
            .request(ClientMessage::Join {
                room: id.clone(),
                role: JoinRole::Spectator,
                since: None,
            })
            .await;
        assert_eq!(error_code(reply), "unknown_room");
        assert_eq!(b.state.rooms.get(&id).is_some(), asked, "{id}");
    }
    b.stop().await;
    drop_database(&admin, &database).await;
}

/// A new room's id reaches players at once (a quick pairing, a link): a join from another node right after the
/// creator's answer must find the room, never `unknown_room` (the room's subscription is confirmed before the
/// creator is answered). Many rooms, each joined with no pause and no retry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_is_found_from_another_node_as_soon_as_its_creator_has_its_id() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    // Two new guests a room, all from loopback.
    let lifted = |id: char| Config {
        guest_burst_per_ip: 100,
        ..node_config(&database, &node_id(id))
    };
    let a = TestServer::start_node(lifted('f')).await;
    let b = TestServer::start_node(lifted('g')).await;
    for i in 0..40 {
        let mut creator = a.client().await;
        let mut joiner = b.client().await;
        let room = creator.create(freestyle(), TimeControl::None).await.id;
        let reply = joiner
            .request(ClientMessage::Join {
                room: room.clone(),
                role: JoinRole::Player,
                since: None,
            })
            .await;
        match reply {
            ServerMessage::Room { room: snap } => assert!(snap.game_id.is_some(), "room {i}"),
            other => panic!("room {i} ({room}) from the other node: {other:?}"),
        }
    }
    a.stop().await;
    b.stop().await;
    drop_database(&admin, &database).await;
}

/// A relay that nobody on its node is in goes after about a second, but never while a socket holds its handle
/// (one that has just looked it up and is about to send a command): that command would be dropped with the
/// relay's queue and heard as `unknown_room` for a room that exists.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_relay_stays_while_a_handle_to_it_is_held_and_goes_once_none_is() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let a = TestServer::start_node(node_config(&database, &node_id('h'))).await;
    let b = TestServer::start_node(node_config(&database, &node_id('i'))).await;
    let mut creator = a.client().await;
    let room = creator.create(freestyle(), TimeControl::None).await.id;

    // Node b looks the room up (a relay starts) and holds the handle, with nobody in the room there, for well
    // over the relay's idle time (five looks 200 ms apart).
    let held = b.state.rooms.route(&room).expect("a relay to a's room");
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert!(held.barrier().await, "the relay ended under a held handle");
    assert!(
        b.state.rooms.get(&room).is_some(),
        "the relay left the registry under a held handle"
    );

    // Once the handle is dropped, the relay goes.
    drop(held);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while b.state.rooms.get(&room).is_some() {
        assert!(
            std::time::Instant::now() < deadline,
            "an idle relay nobody holds stays for good"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // And a later lookup starts a new one that reaches the room.
    let mut joiner = b.client().await;
    let joined = joiner.join(&room, JoinRole::Player).await;
    assert!(joined.game_id.is_some());
    a.stop().await;
    b.stop().await;
    drop_database(&admin, &database).await;
}

#[test]
fn the_server_refuses_cluster_mode_on_sqlite_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .arg("--bind")
        .arg("127.0.0.1:0")
        .arg("--database-url")
        .arg(dir.path().join("s.db"))
        .arg("--nats-url")
        .arg(NATS)
        .env("RUST_LOG", "error")
        .output()
        .expect("run the server");
    assert!(!out.status.success(), "it must not start");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cluster mode (--nats-url) needs a Postgres database"),
        "{stderr}"
    );
    assert!(
        !dir.path().join("s.db").exists(),
        "nothing is opened before the refusal"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_games_whose_owners_lease_expired_are_taken_over_by_a_live_node_and_only_once() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let with_lease = |node: char| Config {
        lease_ms: 1_000,
        ..node_config(&database, &node_id(node))
    };
    let a = TestServer::start_node(with_lease('p')).await;
    let mut t = Table::open(&a, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "a1"], 1).await;
    let room = t.room.clone();
    let a_store = a.state.store.clone();

    // While a renews its lease, a node starting beside it leaves a's game alone.
    let b = TestServer::start_node(with_lease('q')).await;
    assert!(b.state.rooms.is_empty(), "b restored a game a owns");

    // a stops; its lease runs out; b, still running, takes the game over (its look every half lease).
    drop(t);
    a.stop().await;
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while b.state.rooms.get(&room).is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "b did not take the game over"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A node starting now finds it owned and leaves it alone.
    let c = TestServer::start_node(with_lease('r')).await;
    assert!(
        c.state.rooms.get(&room).is_none(),
        "c restored a game b owns"
    );

    // The room is reached from c over NATS, at its new owner.
    let mut watcher = c.client().await;
    let seen = watcher.join(&room, JoinRole::Spectator).await;
    assert_eq!(seen.moves.len(), 2);

    // a's store can never write the game again.
    let stale = a_store
        .append_actions(&[(
            seen.game_id.unwrap(),
            store::StoredAction {
                seq: 2,
                text: "h9".into(),
                ply: Some(3),
                used_ms: 0,
                remaining_ms: None,
                at: 0,
            },
        )])
        .await;
    assert_eq!(stale, Err(store::StoreError::Fenced(room.clone())));
    c.stop().await;
    b.stop().await;
    drop(a_store);
    drop_database(&admin, &database).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_on_every_node_lists_every_public_room() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let a = TestServer::start_node(node_config(&database, &node_id('l'))).await;
    let b = TestServer::start_node(node_config(&database, &node_id('m'))).await;
    let mut watcher = b.client().await;
    let ServerMessage::Lobby { rooms, .. } =
        watcher.request(ClientMessage::SubscribeLobby {}).await
    else {
        panic!("expected the lobby");
    };
    assert!(rooms.is_empty());

    // A public room made on node a shows in node b's lobby.
    let mut creator = a.client().await;
    let room = creator.create(freestyle(), TimeControl::None).await.id;
    let listed = tokio::time::timeout(WAIT, async {
        loop {
            if let ServerMessage::LobbyRoom { room: r } = watcher.recv().await.msg {
                if r.id == room {
                    return r;
                }
            }
        }
    })
    .await
    .expect("listed on node b");
    assert_eq!(listed.players.len(), 1);

    // It leaves node b's lobby when it closes on node a (its creator leaves).
    creator
        .request(ClientMessage::Leave { room: room.clone() })
        .await;
    tokio::time::timeout(WAIT, async {
        loop {
            if let ServerMessage::LobbyRoomRemoved { id: r } = watcher.recv().await.msg {
                if r == room {
                    return;
                }
            }
        }
    })
    .await
    .expect("removed on node b");
    b.stop().await;
    a.stop().await;
    drop_database(&admin, &database).await;
}
