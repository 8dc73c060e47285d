//! How the SQLite store treats its file: created with its folder, WAL mode, reopened without loss.

use rules::{Action, Rules};
use store::{NewGame, PlayerRef, StoredAction};

fn game() -> NewGame {
    let guest = |name: &str| PlayerRef {
        name: name.to_owned(),
        user_id: None,
    };
    NewGame {
        room: "r1".to_owned(),
        rules: Rules::freestyle(),
        time_control: "null".to_owned(),
        public: true,
        rated: false,
        black: guest("guest-a"),
        white: guest("guest-b"),
        started_at: 1,
    }
}

fn h8() -> StoredAction {
    StoredAction {
        seq: 0,
        action: Action::place("h8".parse().unwrap()),
        used_ms: 10,
        remaining_ms: None,
        at: 2,
    }
}

#[tokio::test]
async fn a_plain_path_creates_the_file_and_its_folders_in_wal_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/games.db");
    let store = store::open(path.to_str().unwrap()).await.unwrap();
    store.create_game(&game()).await.unwrap();
    assert!(path.exists());
    let conn = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&conn)
        .await
        .unwrap();
    assert_eq!(mode, "wal");
}

#[tokio::test]
async fn reopening_the_file_keeps_every_committed_action() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/data/gomoku.db", dir.path().display());
    let id = {
        let store = store::open(&url).await.unwrap();
        let id = store.create_game(&game()).await.unwrap();
        store.append_actions(&[(id, h8())]).await.unwrap();
        id
    };
    // Opened again (the migrations, already applied, are not run twice).
    let store = store::open(&url).await.unwrap();
    let unfinished = store.unfinished_games().await.unwrap();
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].id, id);
    assert_eq!(unfinished[0].actions, vec![h8()]);
}

#[tokio::test]
async fn foreign_keys_are_enforced() {
    let dir = tempfile::tempdir().unwrap();
    let store = store::open(dir.path().join("fk.db").to_str().unwrap())
        .await
        .unwrap();
    let mut with_ghost = game();
    with_ghost.black.user_id = Some(424_242);
    let err = store.create_game(&with_ghost).await.unwrap_err();
    assert_eq!(err.code(), "database_error");
}

#[tokio::test]
async fn an_in_memory_database_lives_as_long_as_the_store() {
    let store = store::open("sqlite::memory:").await.unwrap();
    let id = store.create_game(&game()).await.unwrap();
    store.append_actions(&[(id, h8())]).await.unwrap();
    assert_eq!(store.game(id).await.unwrap().unwrap().actions, vec![h8()]);
}

#[test]
fn the_default_database_is_a_sqlite_file_under_data() {
    assert_eq!(store::default_url(), "sqlite://data/gomoku.db");
}

#[tokio::test]
async fn a_closed_store_refuses_further_work() {
    let dir = tempfile::tempdir().unwrap();
    let store = store::open(dir.path().join("closed.db").to_str().unwrap())
        .await
        .unwrap();
    store.create_game(&game()).await.unwrap();
    store.close().await;
    assert_eq!(
        store.create_game(&game()).await.unwrap_err().code(),
        "database_error"
    );
}
