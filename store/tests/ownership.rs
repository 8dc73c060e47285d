//! Room ownership in a cluster (issue #22), against Postgres when `TEST_DATABASE_URL` is set (a fresh schema per
//! test): two stores stand for two nodes on one database; a node whose lease was taken can never write.

use std::sync::Arc;
use std::time::Duration;

use store::{GameId, NewGame, PlayerRef, Store, StoreError, StoredAction};

/// Two stores (two nodes) on one fresh schema of `TEST_DATABASE_URL`, or `None` when it is not set.
async fn two_nodes() -> Option<(Arc<dyn Store>, Arc<dyn Store>, String, String)> {
    let admin_url = std::env::var("TEST_DATABASE_URL").ok()?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let schema = format!("ownership_{}_{nanos}", std::process::id());
    let admin = sqlx::PgPool::connect(&admin_url).await.expect("connect");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .expect("create schema");
    admin.close().await;
    let separator = if admin_url.contains('?') { '&' } else { '?' };
    let url = format!("{admin_url}{separator}options=-c%20search_path%3D{schema}");
    let a = store::open(&url).await.expect("open a");
    let b = store::open(&url).await.expect("open b");
    Some((a, b, admin_url, schema))
}

async fn drop_schema(admin_url: &str, schema: &str) {
    let admin = sqlx::PgPool::connect(admin_url).await.expect("connect");
    sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&admin)
        .await
        .expect("drop schema");
    admin.close().await;
}

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

macro_rules! nodes_or_skip {
    () => {
        match two_nodes().await {
            Some(nodes) => nodes,
            None => {
                eprintln!(
                    "skipped: TEST_DATABASE_URL is not set (room ownership is Postgres only)"
                );
                return;
            }
        }
    };
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
    a.claim_room("dead", "na", 50).await.unwrap().unwrap();
    a.claim_room("alive", "na", 60_000).await.unwrap().unwrap();
    b.claim_room("other", "nb", 60_000).await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert_eq!(b.expired_rooms(100).await.unwrap(), ["dead".to_owned()]);
    assert!(b.expired_rooms(0).await.unwrap().is_empty());
    // Forgetting a room whose lease holds does nothing; an expired one's row goes.
    b.forget_expired_room("alive").await.unwrap();
    assert_eq!(b.claim_room("alive", "nb", 60_000).await.unwrap(), None);
    b.forget_expired_room("dead").await.unwrap();
    assert!(b.expired_rooms(100).await.unwrap().is_empty());
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
    // Claiming again later does not revive the old claim's writes: a's claim now fails while b's lease holds.
    assert_eq!(a.claim_room("r1", "na", 60_000).await.unwrap(), None);
    b.append_actions(&[(game, action(1))]).await.unwrap();
    let stored = b.game(game).await.unwrap().unwrap();
    assert_eq!(stored.actions.len(), 2);
    assert_eq!(StoreError::Fenced("r1".into()).code(), "fenced");
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
async fn claiming_a_room_again_raises_the_epoch_and_fences_the_earlier_claim() {
    let (a, b, admin, schema) = nodes_or_skip!();
    a.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    let game = a.create_game(&game_in("r1")).await.unwrap();
    // The same node on another store (a restarted process) claims the room again.
    let again = b.claim_room("r1", "na", 60_000).await.unwrap().unwrap();
    assert_eq!(again.epoch, 2);
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
