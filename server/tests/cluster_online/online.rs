//! The lobby's online count across a cluster (issue #22): two nodes in this test process (alone in it, in its own
//! test binary `tests/cluster_online/`: every node
//! on the NATS server hears every other's count) on one fresh Postgres database and the NATS server on
//! 127.0.0.1:4222.
//!
//! Outside CI (`CI` unset) the test is skipped, with a message, when NATS or Postgres (`TEST_DATABASE_URL`) is not
//! there; under CI a missing one fails it.

use crate::common;

use common::*;
use protocol::{ClientMessage, ServerMessage};

use testkit::cluster::*;

/// Reads the lobby's pushes until it says `online` players.
async fn online_becomes(looker: &mut Client, online: u32) {
    tokio::time::timeout(WAIT, async {
        loop {
            if let ServerMessage::LobbyOnline { online: n } = looker.recv().await.msg {
                if n == online {
                    return;
                }
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the lobby never said {online} online"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_online_count_on_one_node_includes_the_guests_on_another_and_drops_when_they_leave() {
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let a = TestServer::start_node(node_config(&database, &node_id('o'))).await;
    let b = TestServer::start_node(node_config(&database, &node_id('n'))).await;
    let mut looker = a.client().await;
    let ServerMessage::Lobby { online, .. } =
        looker.request(ClientMessage::SubscribeLobby {}).await
    else {
        panic!("expected the lobby");
    };
    assert_eq!(online, 1, "the looker, and nobody on node b");

    // Three guests on node b, one of them twice (one player).
    let mut guests = Vec::new();
    for _ in 0..3 {
        guests.push(b.client().await);
    }
    let twice = Client::hello(b.addr, Some(&guests[0].token)).await;
    online_becomes(&mut looker, 4).await;

    // They leave node b.
    drop(twice);
    drop(guests);
    online_becomes(&mut looker, 1).await;

    b.stop().await;
    a.stop().await;
    drop_database(&admin, &database).await;
}
