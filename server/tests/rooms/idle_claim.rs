//! A game without a clock cannot be stalled: once the side to act has not acted for the idle time, the other
//! player claims the win (as correspondence sites allow). Over real sockets, on the injected clock.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, ColourChoice, JoinRole, RoomEvent, ServerMessage, TimeControl};
use rules::Color;
use server::Config;

fn claim(room: &str) -> ClientMessage {
    ClientMessage::ClaimWin { room: room.into() }
}

async fn untimed_table() -> (TestServer, Db, Table) {
    let db = Db::sqlite();
    let server = TestServer::start_on(
        &db,
        Config {
            idle_claim_secs: 300,
            ..test_config()
        },
    )
    .await;
    let t = Table::open(&server, freestyle(), TimeControl::None).await;
    (server, db, t)
}

#[tokio::test]
async fn the_win_is_claimed_once_the_opponent_has_been_idle_for_the_idle_time() {
    let (server, _db, mut t) = untimed_table().await;
    t.play(true, &["h8", "a1", "h9"], 1).await;

    server.advance(Duration::from_secs(299));
    assert_eq!(
        t.black.act(claim(&t.room)).await,
        Err("claim_too_soon".into())
    );
    server.advance(Duration::from_secs(1));
    let over = t.black.act(claim(&t.room)).await.unwrap();

    let RoomEvent::GameOver { result, .. } = over else {
        panic!("{over:?}")
    };
    assert_eq!(
        (result.winner, result.reason.as_str()),
        (Some(Color::Black), "idle")
    );
    assert_eq!(t.white.game_over().await.reason, "idle");
}

/// Issue #36: a client offers the claim only once it can succeed, so the snapshot says when that is: a spectator
/// who arrives after 100 s of idling reads 200 s, and the claim is refused a millisecond before the time it read
/// and won at it.
#[tokio::test]
async fn the_snapshot_tells_how_long_until_the_win_may_be_claimed_to_the_millisecond() {
    let (server, _db, mut t) = untimed_table().await;
    t.play(true, &["h8", "a1", "h9"], 1).await;
    server.advance(Duration::from_secs(100));

    let mut watcher = server.client().await;
    let snap = watcher.join(&t.room, JoinRole::Spectator).await;
    assert_eq!(snap.idle_claim_ms, Some(300_000));
    assert_eq!(snap.claim_win_in_ms, Some(200_000));

    server.advance(Duration::from_millis(199_999));
    assert_eq!(
        t.black.act(claim(&t.room)).await,
        Err("claim_too_soon".into())
    );
    let snap = t.black.join(&t.room, JoinRole::Player).await;
    assert_eq!(snap.claim_win_in_ms, Some(1));
    server.advance(Duration::from_millis(1));
    let snap = t.white.join(&t.room, JoinRole::Player).await;
    assert_eq!(snap.claim_win_in_ms, Some(0));
    let over = t.black.act(claim(&t.room)).await.unwrap();
    assert!(matches!(over, RoomEvent::GameOver { .. }), "{over:?}");
    let snap = watcher.join(&t.room, JoinRole::Spectator).await;
    assert_eq!(snap.claim_win_in_ms, None, "nothing to claim once over");
}

/// Right after a move the player who made it waits the whole idle time (black after its own stone, issue #36),
/// and a game with a clock has no idle time at all.
#[tokio::test]
async fn a_move_starts_the_wait_in_the_snapshot_afresh_and_a_clock_has_none() {
    let (server, _db, mut t) = untimed_table().await;
    t.play(true, &["h8"], 1).await;
    server.advance(Duration::from_secs(250));
    t.play(false, &["a1"], 2).await;
    let snap = t.white.join(&t.room, JoinRole::Player).await;
    assert_eq!(snap.claim_win_in_ms, Some(300_000));

    let tc = TimeControl::Fischer {
        base_ms: 600_000,
        increment_ms: 0,
    };
    let mut timed = Table::open(&server, freestyle(), tc).await;
    timed.play(true, &["h8"], 1).await;
    let snap = timed.black.join(&timed.room, JoinRole::Player).await;
    assert_eq!((snap.idle_claim_ms, snap.claim_win_in_ms), (None, None));
}

#[tokio::test]
async fn a_move_restarts_the_idle_time() {
    let (server, _db, mut t) = untimed_table().await;
    t.play(true, &["h8"], 1).await;
    server.advance(Duration::from_secs(299));
    t.play(false, &["a1"], 2).await;

    server.advance(Duration::from_secs(299));

    assert_eq!(
        t.white.act(claim(&t.room)).await,
        Err("claim_too_soon".into())
    );
}

#[tokio::test]
async fn the_player_to_act_has_nothing_to_claim() {
    let (server, _db, mut t) = untimed_table().await;
    t.play(true, &["h8"], 1).await;
    server.advance(Duration::from_secs(3600));

    // White is to act: it is white who stalls, not black.
    assert_eq!(t.white.act(claim(&t.room)).await, Err("no_claim".into()));
    assert_eq!(
        t.black
            .act(ClientMessage::Resign {
                room: t.room.clone()
            })
            .await
            .map(|_| ()),
        Ok(()),
        "the game was still on"
    );
}

#[tokio::test]
async fn a_game_with_a_clock_has_nothing_to_claim() {
    let db = Db::sqlite();
    let server = TestServer::start_on(&db, test_config()).await;
    let tc = TimeControl::Fischer {
        base_ms: 600_000,
        increment_ms: 0,
    };
    let mut t = Table::open(&server, freestyle(), tc).await;
    t.play(true, &["h8"], 1).await;

    assert_eq!(t.black.act(claim(&t.room)).await, Err("no_claim".into()));
}

#[tokio::test]
async fn a_stalled_rated_game_is_won_and_rated() {
    let db = Db::sqlite();
    let server = TestServer::start_on(&db, test_config()).await;
    let mut players = Vec::new();
    for name in ["alice", "bob"] {
        players.push(server.registered(name).await.client);
    }
    let (mut alice, mut bob) = (players.remove(0), players.remove(0));
    let reply = alice
        .request(ClientMessage::CreateRoom {
            rules: Some(freestyle()),
            game: None,
            time_control: TimeControl::None,
            rated: true,
            public: false,
            colour: ColourChoice::Black,
            rating_range: None,
        })
        .await;
    let ServerMessage::Room { room } = reply else {
        panic!("{reply:?}")
    };
    bob.join(&room.id, JoinRole::Player).await;
    alice.place(&room.id, "h8", 1).await.unwrap();
    bob.place(&room.id, "a1", 2).await.unwrap();
    alice.place(&room.id, "h9", 3).await.unwrap();
    // Bob, losing, stops moving.
    server.advance(Duration::from_secs(server.state.config.idle_claim_secs));

    let over = alice.act(claim(&room.id)).await.unwrap();

    let RoomEvent::GameOver { result, .. } = over else {
        panic!("{over:?}")
    };
    assert_eq!(result.winner_name.as_deref(), Some("alice"));
    assert!(result.ratings.is_some(), "{result:?}");
}
