//! Room ownership in a cluster (issue #22), against Postgres when `TEST_DATABASE_URL` is set (a fresh schema per
//! test): two stores stand for two nodes on one database; a node whose lease was taken can never write.

use crate::two_nodes;

use std::time::Duration;

use store::{GameId, NewGame, PlayerRef, RoomOpening, StoreError, StoredAction};
use two_nodes::{drop_schema, two_nodes};

fn game_in(room: &str) -> NewGame {
    let player = |name: &str| PlayerRef {
        name: name.to_owned(),
        user_id: None,
    };
    NewGame {
        public_id: store::new_public_id(),
        room: room.to_owned(),
        kind: "gomoku".to_owned(),
        config: "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none".to_owned(),
        pool: ratings::Pool::new("gomoku", "freestyle"),
        time_control: r#"{"kind":"none"}"#.to_owned(),
        public: true,
        rated: false,
        black: player("guest-aaaaaa"),
        white: player("guest-bbbbbb"),
        started_at: 1_000,
    }
}

fn action(seq: u32) -> StoredAction {
    StoredAction {
        seq,
        text: ["h8", "h9", "i8"][seq as usize].to_owned(),
        ply: Some(seq),
        used_ms: 0,
        remaining_ms: None,
        at: 1_000 + i64::from(seq),
    }
}

#[tokio::test]
async fn a_room_with_a_live_lease_cannot_be_claimed_by_another_node() {
    let (a, b, admin, schema) = nodes_or_skip!();
    let first = a.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    assert_eq!(first.epoch, 1);
    assert_eq!(b.claim_room("r1", "nb", 60_000).await.unwrap(), None);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn an_expired_lease_is_taken_over_under_the_next_epoch() {
    let (a, b, admin, schema) = nodes_or_skip!();
    a.claim_room("r1", "na", 50).await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(120)).await;
    let taken = b.claim_room("r1", "nb", 60_000).await.unwrap().unwrap();
    assert_eq!((taken.node.as_str(), taken.epoch), ("nb", 2));
    // The old owner's renewal finds the room lost.
    assert_eq!(
        a.renew_rooms("na", 60_000).await.unwrap(),
        ["r1".to_owned()]
    );
    assert!(b.renew_rooms("nb", 60_000).await.unwrap().is_empty());
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_live_node_finds_the_rooms_whose_lease_expired_and_forgets_only_those() {
    let (a, b, admin, schema) = nodes_or_skip!();
    // Node a's lease (50 ms, set as it registers with its first claim) runs out; node b's holds.
    a.claim_room("dead", "na", 50).await.unwrap().unwrap();
    a.claim_room("dead-too", "na", 60_000)
        .await
        .unwrap()
        .unwrap();
    b.claim_room("alive", "nb", 60_000).await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(120)).await;
    // A later claim did not lengthen node a's lease: both its rooms expired.
    assert_eq!(
        b.expired_rooms(100).await.unwrap(),
        ["dead".to_owned(), "dead-too".to_owned()]
    );
    assert_eq!(b.expired_rooms(1).await.unwrap(), ["dead".to_owned()]);
    assert!(b.expired_rooms(0).await.unwrap().is_empty());
    // Forgetting a room whose lease holds does nothing; an expired one's row goes.
    b.forget_expired_room("alive").await.unwrap();
    assert!(b.claim_room("alive", "nb", 60_000).await.unwrap().is_some());
    b.forget_expired_room("dead").await.unwrap();
    assert_eq!(b.expired_rooms(100).await.unwrap(), ["dead-too".to_owned()]);
    // A forgotten room starts again at epoch 1 for whoever claims it.
    assert_eq!(
        b.claim_room("dead", "nb", 60_000)
            .await
            .unwrap()
            .unwrap()
            .epoch,
        1
    );
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_renewal_keeps_every_room_of_the_node_and_writes_none_of_their_rows() {
    let (a, b, admin, schema) = nodes_or_skip!();
    let rooms = ["r1", "r2", "r3"];
    let mut games = Vec::new();
    for room in rooms {
        a.claim_room(room, "na", 1_000).await.unwrap().unwrap();
        games.push(a.create_game(&game_in(room)).await.unwrap());
    }
    let versions = || async {
        let pool = sqlx::PgPool::connect(&admin).await.unwrap();
        let rows: Vec<(String, String)> = sqlx::query_as(&format!(
            "SELECT room, xmin::text FROM {schema}.room_owners ORDER BY room"
        ))
        .fetch_all(&pool)
        .await
        .unwrap();
        pool.close().await;
        rows
    };
    let before = versions().await;
    assert_eq!(before.len(), 3);
    // Two renewals 600 ms apart carry the 1 s lease past its first end.
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_millis(600)).await;
        assert!(a.renew_rooms("na", 1_000).await.unwrap().is_empty());
    }
    assert!(b.expired_rooms(100).await.unwrap().is_empty());
    for &game in &games {
        a.append_actions(&[(game, action(0))]).await.unwrap();
    }
    // The renewals wrote the node's row only: no room's row has a new version.
    assert_eq!(versions().await, before);
    // Without renewals the lease runs out, for every room at once.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(
        b.expired_rooms(100).await.unwrap(),
        rooms.map(str::to_owned)
    );
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_node_whose_lease_ran_out_loses_its_rooms_registers_anew_and_claims_again() {
    let (a, _b, admin, schema) = nodes_or_skip!();
    a.claim_room("r1", "na", 60).await.unwrap().unwrap();
    let game = a.create_game(&game_in("r1")).await.unwrap();
    tokio::time::sleep(Duration::from_millis(150)).await;
    // Its own lease ran out: it may claim nothing, and write nothing.
    assert_eq!(
        a.claim_room("r2", "na", 60_000).await,
        Err(StoreError::Fenced("r2".to_owned()))
    );
    assert_eq!(
        a.append_actions(&[(game, action(0))]).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    // The renewal finds every room lost, and registers again (with the renewal's lease).
    assert_eq!(
        a.renew_rooms("na", 60_000).await.unwrap(),
        ["r1".to_owned()]
    );
    let again = a.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    assert_eq!((again.epoch, again.incarnation), (2, 2));
    a.append_actions(&[(game, action(0))]).await.unwrap();
    assert!(a.renew_rooms("na", 60_000).await.unwrap().is_empty());
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_drained_nodes_rooms_are_free_at_once_and_its_writes_refused() {
    let (a, b, admin, schema) = nodes_or_skip!();
    a.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    a.claim_room("r2", "na", 60_000).await.unwrap().unwrap();
    let game = a.create_game(&game_in("r1")).await.unwrap();
    b.claim_room("theirs", "nb", 60_000).await.unwrap().unwrap();
    assert_eq!(a.hand_over_rooms("na").await.unwrap(), 2);
    assert_eq!(
        b.expired_rooms(100).await.unwrap(),
        ["r1".to_owned(), "r2".to_owned()]
    );
    assert_eq!(
        a.append_actions(&[(game, action(0))]).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    let taken = b.claim_room("r1", "nb", 60_000).await.unwrap().unwrap();
    assert_eq!(taken.epoch, 2);
    b.append_actions(&[(game, action(0))]).await.unwrap();
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_stale_epochs_append_is_refused_as_fenced() {
    let (a, b, admin, schema) = nodes_or_skip!();
    a.claim_room("r1", "na", 80).await.unwrap().unwrap();
    let game: GameId = a.create_game(&game_in("r1")).await.unwrap();
    a.append_actions(&[(game, action(0))]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(150)).await;
    // The lease ran out: even before anyone takes the room, its old owner may not write.
    assert_eq!(
        a.append_actions(&[(game, action(1))]).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    b.claim_room("r1", "nb", 60_000).await.unwrap().unwrap();
    assert_eq!(
        a.append_actions(&[(game, action(1))]).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    // Claiming again later does not revive the old claim's writes: a's lease ran out, so it claims nothing
    // until a renewal registers it again, and then b's lease holds the room.
    assert_eq!(
        a.claim_room("r1", "na", 60_000).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    assert_eq!(
        a.renew_rooms("na", 60_000).await.unwrap(),
        ["r1".to_owned()]
    );
    assert_eq!(a.claim_room("r1", "na", 60_000).await.unwrap(), None);
    b.append_actions(&[(game, action(1))]).await.unwrap();
    let stored = b.game(game).await.unwrap().unwrap();
    assert_eq!(stored.actions.len(), 2);
    assert_eq!(StoreError::Fenced("r1".into()).code(), "fenced");
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_stale_nodes_takeback_is_refused_as_fenced_and_deletes_nothing() {
    let (a, b, admin, schema) = nodes_or_skip!();
    a.claim_room("r1", "na", 80).await.unwrap().unwrap();
    let game: GameId = a.create_game(&game_in("r1")).await.unwrap();
    let moves = [(game, action(0)), (game, action(1)), (game, action(2))];
    a.append_actions(&moves).await.unwrap();
    tokio::time::sleep(Duration::from_millis(150)).await;
    // The lease ran out without node a noticing (no renewal yet): its takeback is refused like any write.
    assert_eq!(
        a.truncate_actions(game, 1).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    // Node b claims the room: the old owner is still refused, under its stale epoch.
    b.claim_room("r1", "nb", 60_000).await.unwrap().unwrap();
    assert_eq!(
        a.truncate_actions(game, 1).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    let stored = b.game(game).await.unwrap().unwrap();
    assert_eq!(stored.actions, moves.map(|(_, a)| a));
    // The live owner takes back, and the game goes on from the kept action.
    b.truncate_actions(game, 1).await.unwrap();
    assert_eq!(b.game(game).await.unwrap().unwrap().actions, [action(0)]);
    b.append_actions(&[(game, action(1))]).await.unwrap();
    assert_eq!(b.game(game).await.unwrap().unwrap().actions.len(), 2);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_takeback_through_the_batch_writer_is_fenced_like_its_moves() {
    let (a, b, admin, schema) = nodes_or_skip!();
    // A restarted process of node na (store b) claims the room again: the earlier process (store a) is fenced at
    // once, and its batch writer's takeback with it.
    a.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    let game: GameId = a.create_game(&game_in("r1")).await.unwrap();
    a.append_actions(&[(game, action(0)), (game, action(1))])
        .await
        .unwrap();
    b.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    let stale = store::BatchWriter::spawn(a.clone());
    assert_eq!(
        stale.truncate_actions(game, 0).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    assert_eq!(b.game(game).await.unwrap().unwrap().actions.len(), 2);
    let live = store::BatchWriter::spawn(b.clone());
    live.truncate_actions(game, 1).await.unwrap();
    assert_eq!(b.game(game).await.unwrap().unwrap().actions, [action(0)]);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_clustered_store_refuses_writes_to_rooms_it_never_claimed() {
    let (a, _b, admin, schema) = nodes_or_skip!();
    a.claim_room("mine", "na", 60_000).await.unwrap().unwrap();
    assert_eq!(
        a.create_game(&game_in("theirs")).await,
        Err(StoreError::Fenced("theirs".to_owned()))
    );
    let game = a.create_game(&game_in("mine")).await.unwrap();
    a.append_actions(&[(game, action(0))]).await.unwrap();
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_restarted_process_of_a_node_claims_its_rooms_again_and_fences_the_earlier_one_at_once() {
    let (a, b, admin, schema) = nodes_or_skip!();
    let first = a.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    let game = a.create_game(&game_in("r1")).await.unwrap();
    // The same node on another store (a restarted process, within the earlier one's lease) claims the room
    // again: it registered the node's next incarnation, which ended the earlier one's lease.
    let again = b.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    assert_eq!((again.epoch, again.incarnation), (2, first.incarnation + 1));
    assert_eq!(
        a.append_actions(&[(game, action(0))]).await,
        Err(StoreError::Fenced("r1".to_owned()))
    );
    b.append_actions(&[(game, action(0))]).await.unwrap();
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_released_room_can_be_claimed_at_once() {
    let (a, b, admin, schema) = nodes_or_skip!();
    let fence = a.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    a.release_room(&fence).await.unwrap();
    let next = b.claim_room("r1", "nb", 60_000).await.unwrap().unwrap();
    assert_eq!(next.epoch, 1);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn sqlite_keeps_no_ownership() {
    let store = store::open("sqlite::memory:").await.unwrap();
    assert_eq!(
        store.claim_room("r1", "na", 1_000).await,
        Err(StoreError::NoOwnership)
    );
}

/// The fence of an opening that must have gone through.
fn opened(answer: Result<RoomOpening, StoreError>) -> store::Fence {
    match answer {
        Ok(RoomOpening::Opened(fence)) => fence,
        other => panic!("expected the room opened, got {other:?}"),
    }
}

#[tokio::test]
async fn a_players_open_rooms_are_counted_on_every_node_up_to_the_limit() {
    let (a, b, admin, schema) = nodes_or_skip!();
    let first = opened(a.open_room("na-1", "na", "p1", 60_000, 2).await);
    assert_eq!((first.node.as_str(), first.epoch), ("na", 1));
    opened(b.open_room("nb-1", "nb", "p1", 60_000, 2).await);
    // The limit-th room is the last: on either node.
    assert_eq!(
        a.open_room("na-2", "na", "p1", 60_000, 2).await,
        Ok(RoomOpening::AtLimit { open: 2 })
    );
    assert_eq!(
        b.open_room("nb-2", "nb", "p1", 60_000, 2).await,
        Ok(RoomOpening::AtLimit { open: 2 })
    );
    // Nothing was written for a refused room: it is free to claim, and counts for nobody.
    assert!(a.claim_room("na-2", "na", 60_000).await.unwrap().is_some());
    // Another player is not concerned.
    opened(b.open_room("nb-3", "nb", "p2", 60_000, 2).await);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_released_room_no_longer_counts_and_an_opened_room_is_fenced_as_claimed() {
    let (a, _b, admin, schema) = nodes_or_skip!();
    let fence = opened(a.open_room("na-1", "na", "p1", 60_000, 1).await);
    // The opening is this store's claim: it writes the room's games.
    let game = a.create_game(&game_in("na-1")).await.unwrap();
    a.append_actions(&[(game, action(0))]).await.unwrap();
    assert!(matches!(
        a.open_room("na-2", "na", "p1", 60_000, 1).await,
        Ok(RoomOpening::AtLimit { open: 1 })
    ));
    a.release_room(&fence).await.unwrap();
    opened(a.open_room("na-2", "na", "p1", 60_000, 1).await);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_stopped_nodes_rooms_count_while_taken_over_and_stop_counting_once_forgotten() {
    let (a, b, admin, schema) = nodes_or_skip!();
    opened(a.open_room("na-game", "na", "p1", 50, 2).await);
    opened(a.open_room("na-waiting", "na", "p1", 50, 2).await);
    tokio::time::sleep(Duration::from_millis(120)).await;
    // Node a is gone: b takes over the room with a game (still the player's) and forgets the other.
    let taken = b
        .claim_room("na-game", "nb", 60_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(taken.epoch, 2);
    assert!(matches!(
        b.open_room("nb-1", "nb", "p1", 60_000, 2).await,
        Ok(RoomOpening::AtLimit { open: 2 })
    ));
    b.forget_expired_room("na-waiting").await.unwrap();
    opened(b.open_room("nb-1", "nb", "p1", 60_000, 2).await);
    // The room taken over keeps counting until it closes on its new owner.
    assert!(matches!(
        b.open_room("nb-2", "nb", "p1", 60_000, 2).await,
        Ok(RoomOpening::AtLimit { open: 2 })
    ));
    b.release_room(&taken).await.unwrap();
    opened(b.open_room("nb-2", "nb", "p1", 60_000, 2).await);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn nodes_racing_to_open_rooms_for_one_player_open_exactly_the_limit() {
    let (a, b, admin, schema) = nodes_or_skip!();
    let mut tries = Vec::new();
    for i in 0..20 {
        let (store, node) = if i % 2 == 0 { (&a, "na") } else { (&b, "nb") };
        let store = store.clone();
        tries.push(tokio::spawn(async move {
            store
                .open_room(&format!("{node}-{i}"), node, "p1", 60_000, 3)
                .await
        }));
    }
    let mut opened_rooms = 0;
    for t in tries {
        match t.await.unwrap() {
            Ok(RoomOpening::Opened(_)) => opened_rooms += 1,
            Ok(RoomOpening::AtLimit { open }) => assert_eq!(open, 3),
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(opened_rooms, 3);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn a_restarted_nodes_leftover_rooms_expire_at_once_and_its_new_ones_are_held() {
    let (a, b, admin, schema) = nodes_or_skip!();
    // An earlier process of node na (store b) left a room; the running one (store a) opens another: registering,
    // it ended the earlier process's lease.
    opened(b.open_room("na-old", "na", "p1", 60_000, 1).await);
    opened(a.open_room("na-new", "na", "p2", 60_000, 1).await);
    // The leftover is expired (to be forgotten, and its player free); the new room is held, and renewed.
    assert_eq!(a.expired_rooms(100).await.unwrap(), ["na-old".to_owned()]);
    assert!(a.renew_rooms("na", 60_000).await.unwrap().is_empty());
    assert_eq!(a.expired_rooms(100).await.unwrap(), ["na-old".to_owned()]);
    drop_schema(&admin, &schema).await;
}

#[tokio::test]
async fn sqlite_keeps_no_cluster_limits() {
    let store = store::open("sqlite::memory:").await.unwrap();
    assert_eq!(
        store.open_room("r1", "na", "p1", 1_000, 1).await,
        Err(StoreError::NoOwnership)
    );
    let shape = store::BucketShape {
        burst: 1.0,
        per_ms: 0.0,
    };
    let take = store::BucketUse {
        need: 1.0,
        cost: 1.0,
    };
    assert_eq!(
        store.use_bucket("k", shape, take).await,
        Err(StoreError::NoOwnership)
    );
    assert_eq!(
        store.bucket_tokens("k", shape).await,
        Err(StoreError::NoOwnership)
    );
    assert_eq!(store.sweep_buckets().await, Err(StoreError::NoOwnership));
}

#[tokio::test]
async fn renewals_and_write_batches_on_the_same_rooms_never_deadlock() {
    let (a, _b, admin, schema) = nodes_or_skip!();
    // Rooms claimed in the reverse of their order, so that their rows lie in the table against the room order.
    const ROOMS: usize = 600;
    let names: Vec<String> = (0..ROOMS).map(|i| format!("r{i:04}")).collect();
    for room in names.iter().rev() {
        a.claim_room(room, "na", 60_000).await.unwrap().unwrap();
    }
    let mut games = Vec::new();
    for room in &names {
        games.push(a.create_game(&game_in(room)).await.unwrap());
    }
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let renewer = {
        let (a, done) = (a.clone(), done.clone());
        tokio::spawn(async move {
            let mut renewals = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let lost = a.renew_rooms("na", 60_000).await.expect("a renewal");
                assert!(lost.is_empty(), "lost {lost:?}");
                renewals += 1;
            }
            renewals
        })
    };
    // Two writers, each batch two games far apart (the batch locks their rooms' rows in room order).
    let mut writers = Vec::new();
    for half in 0..2 {
        let (a, games) = (a.clone(), games.clone());
        writers.push(tokio::spawn(async move {
            for seq in 0..3 {
                for i in (half..ROOMS / 2).step_by(2) {
                    let pair = [(games[i], action(seq)), (games[ROOMS - 1 - i], action(seq))];
                    a.append_actions(&pair).await.expect("a write batch");
                }
            }
        }));
    }
    for w in writers {
        w.await.unwrap();
    }
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(renewer.await.unwrap() > 0);
    drop_schema(&admin, &schema).await;
}
