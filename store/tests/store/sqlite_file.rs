//! How the SQLite store treats its file: created with its folder, WAL mode, reopened without loss.

use store::{NewGame, PlayerRef, StoredAction};

fn game() -> NewGame {
    let guest = |name: &str| PlayerRef {
        name: name.to_owned(),
        user_id: None,
    };
    NewGame {
        public_id: store::new_public_id(),
        room: "r1".to_owned(),
        kind: "gomoku".to_owned(),
        config: "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none".to_owned(),
        pool: ratings::Pool::new("gomoku", "freestyle"),
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
        text: "h8".to_owned(),
        ply: Some(1),
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

#[tokio::test]
async fn a_database_from_before_the_append_order_migration_keeps_its_actions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let url = format!("sqlite://{}?mode=rwc", path.display());
    // The schema as it was before 20261129000003: only the first two migrations.
    {
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        let mut old = sqlx::migrate!("../migrations/sqlite");
        let first_two = old.migrations[..2].to_vec();
        assert!(first_two.iter().all(|m| m.version < 20261129000003));
        old.migrations = first_two.into();
        old.run(&pool).await.unwrap();
        sqlx::query(
            "INSERT INTO games (id, room, board_size, rule_set, forbidden_policy, opening, time_control, rated, \
             black_name, white_name, started_at) \
             VALUES (7, 'r1', 15, 'freestyle', 'lose', 'none', '{\"kind\":\"none\"}', 0, 'a', 'b', 1)",
        )
        .execute(&pool)
        .await
        .unwrap();
        for (seq, point) in [(0, "h8"), (1, "h9"), (2, "j9")] {
            sqlx::query(
                "INSERT INTO actions (game_id, seq, action, ply, point, used_ms, at) VALUES (7, $1, $2, $3, $4, 0, 2)",
            )
            .bind(seq)
            .bind(format!(r#"{{"action":"place","point":"{point}"}}"#))
            .bind(seq + 1)
            .bind(point)
            .execute(&pool)
            .await
            .unwrap();
        }
        pool.close().await;
    }
    let store = store::open(path.to_str().unwrap()).await.unwrap();
    let record = store.game(7).await.unwrap().expect("the game survived");
    // Every migration ran: the configuration is made from the old rules columns, and the actions keep the
    // JSON they were stored in, with their plies.
    assert_eq!(
        record.game.config,
        "size=15,rule_set=freestyle,forbidden_policy=lose,opening=none"
    );
    let actions: Vec<(u32, &str, Option<u32>)> = record
        .actions
        .iter()
        .map(|a| (a.seq, a.text.as_str(), a.ply))
        .collect();
    assert_eq!(
        actions,
        [
            (0, r#"{"action":"place","point":"h8"}"#, Some(1)),
            (1, r#"{"action":"place","point":"h9"}"#, Some(2)),
            (2, r#"{"action":"place","point":"j9"}"#, Some(3)),
        ]
    );
    // The unique (game, seq) index holds: a retry is a no-op, a gap is refused, the next seq is stored.
    let again = StoredAction {
        seq: 2,
        ..record.actions[2].clone()
    };
    store.append_actions(&[(7, again)]).await.unwrap();
    let gap = StoredAction { seq: 9, ..h8() };
    assert_eq!(
        store.append_actions(&[(7, gap)]).await,
        Err(store::StoreError::OutOfOrder)
    );
    let next = StoredAction {
        seq: 3,
        text: "a1".to_owned(),
        ply: Some(4),
        ..h8()
    };
    store.append_actions(&[(7, next)]).await.unwrap();
    let record = store.game(7).await.unwrap().unwrap();
    assert_eq!(record.actions.len(), 4);
    let duplicate = sqlx::SqlitePool::connect(&url).await.unwrap();
    let refused = sqlx::query(
        "INSERT INTO actions (game_id, seq, action, used_ms, at) VALUES (7, 3, 'x', 0, 0)",
    )
    .execute(&duplicate)
    .await;
    assert!(refused.is_err(), "(game_id, seq) is unique");
}

#[tokio::test]
async fn users_from_before_look_alike_keys_get_theirs_when_the_store_opens() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/users.db", dir.path().display());
    let store = store::open(&url).await.unwrap();
    for name in ["Alice", "bob", "AIice"] {
        // "AIice" could only exist from before: arranged by clearing keys in between.
        if name == "AIice" {
            clear_skeletons(&url).await;
        }
        store.create_user(name, "$argon2id$x", 1).await.unwrap();
    }
    clear_skeletons(&url).await;
    drop(store);

    let store = store::open(&url).await.unwrap();

    assert_eq!(
        store.user_by_skeleton("A1ice").await.unwrap().unwrap().name,
        "Alice",
        "the earlier of two look-alikes keeps the key"
    );
    assert_eq!(
        store.user_by_skeleton("b0b").await.unwrap().unwrap().name,
        "bob"
    );
    assert!(
        store.user_by_name("AIice").await.unwrap().is_some(),
        "both names keep working"
    );
    assert_eq!(
        store.create_user("A1ice", "$argon2id$x", 2).await,
        Err(store::StoreError::UsernameConfusable)
    );
}

#[tokio::test]
async fn keys_of_the_first_look_alike_rules_are_replaced_and_old_look_alikes_both_keep_working() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("keys_v1.db").display());
    let store = store::open(&url).await.unwrap();
    // Under the first rules `vvill` and `Alice_` were names of their own: arranged by clearing keys in between.
    for name in ["will", "Alice"] {
        store.create_user(name, "$argon2id$x", 1).await.unwrap();
    }
    clear_skeletons(&url).await;
    for name in ["vvill", "Alice_", "adm1n"] {
        store.create_user(name, "$argon2id$x", 2).await.unwrap();
    }
    drop(store);
    let conn = sqlx::SqlitePool::connect(&url).await.unwrap();
    // The first rules' keys of these names are their lower case; the second rules' migration is still to come.
    sqlx::query("UPDATE users SET name_skeleton = lower(name)")
        .execute(&conn)
        .await
        .unwrap();
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = 20261204001600")
        .execute(&conn)
        .await
        .unwrap();
    conn.close().await;

    let store = store::open(&url).await.unwrap();

    for (look_alike, earlier) in [("VViII", "will"), ("alice__", "Alice"), ("ADMIN", "adm1n")] {
        assert_eq!(
            store
                .user_by_skeleton(look_alike)
                .await
                .unwrap()
                .map(|u| u.name),
            Some(earlier.to_owned()),
            "{look_alike}"
        );
    }
    for name in ["vvill", "Alice_", "will", "Alice"] {
        assert!(
            store.user_by_name(name).await.unwrap().is_some(),
            "{name} keeps working"
        );
    }
    for name in ["vvi1l", "_Alice", "admin"] {
        assert_eq!(
            store.create_user(name, "$argon2id$x", 3).await,
            Err(store::StoreError::UsernameConfusable),
            "{name}"
        );
    }
}

/// Makes every user look as if registered before the `name_skeleton` column existed.
async fn clear_skeletons(url: &str) {
    let conn = sqlx::SqlitePool::connect(url).await.unwrap();
    sqlx::query("UPDATE users SET name_skeleton = NULL")
        .execute(&conn)
        .await
        .unwrap();
    conn.close().await;
}

#[tokio::test]
async fn a_game_written_today_stores_the_callers_texts_and_leaves_the_old_rules_columns_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("texts.db");
    let store = store::open(path.to_str().unwrap()).await.unwrap();
    let id = store.create_game(&game()).await.unwrap();
    store.append_actions(&[(id, h8())]).await.unwrap();
    store.close().await;
    let conn = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let row: (String, String, Option<i64>, Option<String>) =
        sqlx::query_as("SELECT game, config, board_size, rule_set FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&conn)
            .await
            .unwrap();
    assert_eq!(
        row,
        (
            "gomoku".to_owned(),
            "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none".to_owned(),
            None,
            None
        )
    );
    let action: (String, Option<i64>, Option<String>) =
        sqlx::query_as("SELECT action, ply, point FROM actions WHERE game_id = $1")
            .bind(id)
            .fetch_one(&conn)
            .await
            .unwrap();
    assert_eq!(action, ("h8".to_owned(), Some(1), None));
    // The rebuild of 20261201000600 left every reference in place.
    let broken: Vec<(String,)> = sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check")
        .fetch_all(&conn)
        .await
        .unwrap();
    assert!(broken.is_empty(), "{broken:?}");
    let references: Vec<(String,)> =
        sqlx::query_as("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list('actions')")
            .fetch_all(&conn)
            .await
            .unwrap();
    assert_eq!(references, [("games".to_owned(),)]);
}
