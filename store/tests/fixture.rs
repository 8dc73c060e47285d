//! A database written by the store as it was before issue #15 (`store/tests/data/`, see its README) opens, its
//! migrations run forward in place, and the store API reads every game, action, result, rating, leaderboard,
//! profile and session back exactly as that store did (`data/v1.json`). SQLite always; Postgres when
//! `TEST_DATABASE_URL` is set (the dump is loaded into a fresh schema of that database, dropped afterwards).

#[path = "fixture/dump.rs"]
mod dump;

use rules::Color;
use serde_json::Value;
use store::{Finish, GameEnd, Rater, SeatsAtEnd, Store};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

fn expected() -> Value {
    let text = std::fs::read_to_string(format!("{DATA}/v1.json")).expect("v1.json");
    serde_json::from_str(&text).expect("v1.json is JSON")
}

/// What the migration added: every v1 game is a `gomoku` game in the pool named after its rule set, and an
/// unfinished v1 game is rated in that pool when it ends now. Game 10 is bob (black) against dee after an
/// accepted swap, so dee holds black at the end.
async fn check_migrated_columns(store: &dyn Store) {
    let mut id = 1;
    while let Some(record) = store.game(id).await.expect("game") {
        assert_eq!(record.game.kind, "gomoku", "game {id}");
        let rule_set = format!("{:?}", record.game.rules.rule_set()).to_lowercase();
        assert_eq!(record.game.pool.name(), rule_set, "game {id}");
        id += 1;
    }
    let finish = Finish {
        end: GameEnd {
            winner: Some(Color::Black),
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

/// Compares two dumps game by game first, so a difference names the game it is in.
fn assert_same(read: &Value, want: &Value) {
    let (read_games, want_games) = (read["games"].as_array(), want["games"].as_array());
    assert_eq!(
        read_games.map(Vec::len),
        want_games.map(Vec::len),
        "number of games"
    );
    for (r, w) in read_games
        .into_iter()
        .flatten()
        .zip(want_games.into_iter().flatten())
    {
        assert_eq!(r, w, "game {}", w["id"]);
    }
    assert_eq!(read, want);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_database_of_the_first_release_reads_back_identically_after_the_migrations() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = dir.path().join("v1.sqlite");
    std::fs::copy(format!("{DATA}/v1.sqlite"), &path).expect("copy the fixture");
    let store = store::open(&format!("sqlite://{}", path.display()))
        .await
        .expect("open and migrate the fixture");
    let read = dump::dump(store.as_ref()).await;
    check_migrated_columns(store.as_ref()).await;
    store.close().await;
    assert_same(&read, &expected());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_of_the_first_release_reads_back_identically_after_the_migrations() {
    let Ok(admin_url) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: the Postgres fixture test was not run");
        return;
    };
    let schema = format!("fixture_{}", std::process::id());
    // The dump names its schema `fixture_v1`; psql's meta-commands (`\restrict`) are not SQL.
    let sql: String = std::fs::read_to_string(format!("{DATA}/v1.postgres.sql"))
        .expect("v1.postgres.sql")
        .lines()
        .filter(|line| !line.starts_with('\\'))
        .map(|line| line.replace("fixture_v1", &schema) + "\n")
        .collect();
    let admin = sqlx::PgPool::connect(&admin_url).await.expect("connect");
    sqlx::raw_sql(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
        .execute(&admin)
        .await
        .expect("drop an old schema");
    sqlx::raw_sql(&sql)
        .execute(&admin)
        .await
        .expect("load the dump");
    let separator = if admin_url.contains('?') { '&' } else { '?' };
    let url = format!("{admin_url}{separator}options=-c%20search_path%3D{schema}");
    let store = store::open(&url)
        .await
        .expect("open and migrate the fixture");
    let read = dump::dump(store.as_ref()).await;
    check_migrated_columns(store.as_ref()).await;
    store.close().await;
    sqlx::raw_sql(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&admin)
        .await
        .expect("drop the schema");
    admin.close().await;
    assert_same(&read, &expected());
}
