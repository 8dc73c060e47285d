//! A database written by the store as it was before issue #15 (`store/tests/data/`, see its README) opens, its
//! migrations run forward in place, and the store API reads every game, action, result, rating, leaderboard,
//! profile and session back exactly as that store did (`data/v1.json`). SQLite always; Postgres when
//! `TEST_DATABASE_URL` is set (the dump is loaded into a fresh schema of that database, dropped afterwards).
//!
//! The store knows no rules since: it returns each game's configuration as the text the migration made of its
//! rules columns, and each action as the text stored, which for these games is the JSON of the first release.
//! So this test compares those texts with the configuration `v1.json` names and with the rows as the first
//! release wrote them, and everything else as it is; `server/tests/web/stored_games.rs` reads the same games back
//! through the server's decoding and compares them with all of `v1.json`.

#[path = "../fixture/dump.rs"]
mod dump;
#[path = "../fixture/load.rs"]
mod load;

use std::collections::HashMap;

use serde_json::Value;
use store::{Finish, GameEnd, GameRecord, Rater, SeatsAtEnd, Side, Store};

/// The store's texts as they are.
const TEXTS: dump::Reader = dump::Reader {
    config: |r: &GameRecord| Value::String(r.game.config.clone()),
    actions: |r: &GameRecord| {
        r.actions
            .iter()
            .map(|a| Value::String(a.text.clone()))
            .collect()
    },
};

/// `SwapAfterThree` as stored: `swap_after_three`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `v1.json` as this store shows it: each game's rules as the configuration text the migration makes of them
/// (`games::storage`'s), each action as the text the first release stored at its `(game, seq)`.
fn expected_texts(raw: &HashMap<(i64, i64), String>) -> Value {
    let mut want = load::expected();
    for game in want["games"].as_array_mut().expect("games") {
        let id = game["id"].as_i64().expect("game id");
        let rules = &game["rules"];
        let field = |name: &str| snake_case(rules[name].as_str().expect("a rules field"));
        let config = format!(
            "size={},rule_set={},forbidden_policy={},opening={}",
            rules["size"],
            field("rule_set"),
            field("forbidden_policy"),
            field("opening")
        );
        game["rules"] = Value::String(config);
        for action in game["actions"].as_array_mut().expect("actions") {
            let seq = action["seq"].as_i64().expect("seq");
            action["action"] = Value::String(raw[&(id, seq)].clone());
        }
    }
    want
}

/// What the migration added: every v1 game is a `gomoku` game in the pool named after its rule set, and an
/// unfinished v1 game is rated in that pool when it ends now. Game 10 is bob (black) against dee after an
/// accepted swap, so dee holds black at the end.
async fn check_migrated_columns(store: &dyn Store) {
    let mut id = 1;
    while let Some(record) = store.game(id).await.expect("game") {
        assert_eq!(record.game.kind, "gomoku", "game {id}");
        let rule_set = record
            .game
            .config
            .split(',')
            .find_map(|field| field.strip_prefix("rule_set="))
            .expect("a rule set");
        assert_eq!(record.game.pool.name(), rule_set, "game {id}");
        id += 1;
    }
    let finish = Finish {
        end: GameEnd {
            winner: Some(Side::Black),
            aborted: false,
            reason: "resign".to_owned(),
            ended_at: dump::NOW,
        },
        seats: SeatsAtEnd::Exchanged,
        rater: Rater(ratings::glicko2::rate_game),
    };
    let finished = store
        .finish_game(10, &finish)
        .await
        .expect("finish")
        .expect("first finish");
    let [black, white] = finished
        .rating_changes
        .expect("a rated game between two users");
    let dee = store.user_by_name("dee").await.expect("dee").expect("dee");
    assert_eq!(black.user_id, dee.id);
    assert_eq!(black.pool, ratings::Pool::new("gomoku", "renju"));
    assert!(black.after.rating > black.before.rating && white.after.rating < white.before.rating);
}

/// The `(game, seq, action)` rows as the first release wrote them, from `table`.
async fn raw_actions<DB: sqlx::Database>(
    db: &sqlx::Pool<DB>,
    table: &str,
) -> HashMap<(i64, i64), String>
where
    for<'r> (i64, i64, String): sqlx::FromRow<'r, DB::Row>,
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: sqlx::IntoArguments<'q, DB>,
{
    let sql = format!("SELECT game_id, seq, action FROM {table}");
    sqlx::query_as::<DB, (i64, i64, String)>(&sql)
        .fetch_all(db)
        .await
        .expect("the stored actions")
        .into_iter()
        .map(|(game, seq, text)| ((game, seq), text))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_database_of_the_first_release_reads_back_identically_after_the_migrations() {
    let (url, _dir) = load::sqlite_copy();
    let before = sqlx::SqlitePool::connect(&url).await.expect("open v1");
    let raw = raw_actions(&before, "actions").await;
    before.close().await;
    let store = store::open(&url)
        .await
        .expect("open and migrate the fixture");
    let read = dump::dump(store.as_ref(), &TEXTS).await;
    check_migrated_columns(store.as_ref()).await;
    store.close().await;
    assert!(raw.values().all(|text| text.starts_with('{')));
    load::assert_same(&read, &expected_texts(&raw));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_of_the_first_release_reads_back_identically_after_the_migrations() {
    let Some(copy) = load::PostgresCopy::load("store").await else {
        return;
    };
    let raw = raw_actions(&copy.admin, &format!("{}.actions", copy.schema())).await;
    let store = store::open(&copy.url)
        .await
        .expect("open and migrate the fixture");
    let read = dump::dump(store.as_ref(), &TEXTS).await;
    check_migrated_columns(store.as_ref()).await;
    store.close().await;
    copy.drop_schema().await;
    load::assert_same(&read, &expected_texts(&raw));
}
