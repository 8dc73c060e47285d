//! Fair play (issue #38 item 5) end to end over the real app: a rated Othello game is played over WebSockets, one
//! player choosing every move with the judge's own engine and the other the first legal move; when it ends the
//! job stores each player's agreement with the engine, and the engine's player (only) is flagged in the
//! moderators' queue with the evidence. SQLite always, Postgres when `TEST_DATABASE_URL` is set.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use games::{Game, GameKind};
use protocol::{ColourChoice, GameSpec, OthelloScoring, TimeControl};
use rules::Color;
use server::fairplay::REPORTER;
use server::Config;
use store::fairplay::FAIR_PLAY_REASON;
use testkit::game_table::{create_game, rated, GameTable};
use testkit::test_server::{test_config, TestServer};

/// The judge's level and time a position, and the engine player's: level 3 searches to a fixed depth well within the
/// time, so the judge and the engine player choose alike whatever the machine's speed.
const LEVEL: u8 = 3;
const MS: u64 = 2_000;

/// One game is the window (`window` games in the second test), and a game's judged moves are enough: the
/// statistic's boundary has its own tests (`server/src/fairplay/statistic.rs`).
fn config(window: u32) -> Config {
    Config {
        fair_play_ms_per_position: MS,
        fair_play_level: LEVEL,
        fair_play_window: window,
        fair_play_min_moves: 12,
        fair_play_alpha: 0.05,
        ..test_config()
    }
}

enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(testkit::postgres::FreshSchema),
}

async fn start(postgres: bool, window: u32) -> Option<(TestServer, Db)> {
    let (url, db) = if postgres {
        let schema = testkit::postgres::FreshSchema::of_test_database("fairplay").await?;
        (schema.url.clone(), Db::Postgres(schema))
    } else {
        let dir = tempfile::tempdir().expect("temporary folder");
        let url = format!("sqlite://{}/test.db", dir.path().display());
        (url, Db::Sqlite(dir))
    };
    let store = store::open(&url).await.expect("open the store");
    Some((
        TestServer::start_with_store(store, config(window)).await,
        db,
    ))
}

async fn stop(server: TestServer, db: Db) {
    server.stop().await;
    match db {
        Db::Postgres(schema) => schema.drop().await,
        Db::Sqlite(dir) => drop(dir),
    }
}

/// Waits until the job has finished with `n` rated games (bounded: judging one game takes a second or two).
async fn judged(server: &TestServer, n: u64) {
    let mut finished = server.state.fair_play.finished();
    tokio::time::timeout(Duration::from_secs(300), finished.wait_for(|&k| k >= n))
        .await
        .expect("the fair-play job finishes in time")
        .expect("the job runs");
}

/// A GET with a bearer token: the status and the JSON body.
async fn get_as(server: &TestServer, path: &str, token: &str) -> (u16, serde_json::Value) {
    let response = reqwest::Client::new()
        .get(server.url(path))
        .bearer_auth(token)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (
        status,
        response.json().await.unwrap_or(serde_json::Value::Null),
    )
}

/// A rated Othello room with `black` and `white` seated.
async fn rated_table(
    server: &TestServer,
    black: testkit::table::Client,
    white: testkit::table::Client,
) -> GameTable {
    let othello = GameSpec::Othello(protocol::OthelloSpec {
        scoring: OthelloScoring::Japanese,
    });
    let create = rated(create_game(othello, TimeControl::None, ColourChoice::Black));
    GameTable::seat(server, black, white, create).await
}

/// Ann (black) plays the engine's choice at every move, Ben the first legal action, to the end. Ann's engine sees
/// what the judge will see, in the same order (every position from the end of the book on, so that its tables
/// fill alike), at the judge's time a position.
async fn play_engine_against_first_legal(t: &mut GameTable) {
    let mut brain = server::fairplay::judge_brain(GameKind::Othello, LEVEL).expect("a brain");
    let book = server::fairplay::judge::book_plies(GameKind::Othello);
    let cancel = AtomicBool::new(false);
    let mut seen = 0;
    while t.replica.result.is_none() {
        let game = t.game().clone();
        if game.status().is_over() {
            t.follow_to_end().await;
            break;
        }
        // The positions the room played on its own (forced passes) since the last look, as the judge sees them.
        let positions =
            server::fairplay::judge::positions(game.config(), &game.actions()).expect("it replays");
        let mut best = None;
        for position in &positions[seen..] {
            if position.ply() + 1 >= book && !position.status().is_over() {
                best = brain
                    .analyse(position, Duration::from_millis(MS), &cancel)
                    .map(|e| e.best);
            }
        }
        seen = positions.len();
        let action = if game.to_act() == Some(Color::Black) {
            best.unwrap_or_else(|| game.legal_actions()[0].clone())
        } else {
            game.legal_actions()
                .into_iter()
                .next()
                .expect("a legal action")
        };
        t.play(&action.notation())
            .await
            .unwrap_or_else(|code| panic!("{} refused: {code}", action.notation()));
    }
}

async fn a_player_who_plays_the_engines_moves_is_flagged_for_the_moderators_only(postgres: bool) {
    let Some((server, db)) = start(postgres, 1).await else {
        eprintln!("TEST_DATABASE_URL is not set: the Postgres case was not run");
        return;
    };
    let ann = server.registered("ann").await;
    let ben = server.registered("ben").await;
    let mia = server.registered("mia").await;
    server::community::admin::grant(
        server.state.store.as_ref(),
        "mia",
        server::community::Role::Moderator,
    )
    .await
    .expect("granted");
    let mut t = rated_table(&server, ann.client, ben.client).await;

    play_engine_against_first_legal(&mut t).await;
    judged(&server, 1).await;

    let tables = server.state.store.fair_play().expect("fair play's table");
    let rows = tables.agreements_of_game(t.game_id).await.unwrap();
    assert_eq!(rows.len(), 2, "one row per player: {rows:?}");
    let (ann_row, ben_row) = (&rows[0], &rows[1]);
    assert_eq!(
        (ann_row.user_id, ben_row.user_id),
        (ann.user_id, ben.user_id)
    );
    assert_eq!(ann_row.pool, "othello/standard");
    assert_eq!(ann_row.rating, 1500);
    assert!(ann_row.judged >= 12, "{ann_row:?}");
    assert!(ann_row.top1 <= ann_row.top3 && ann_row.top3 <= ann_row.judged);
    assert_eq!(
        ann_row.top1, ann_row.judged,
        "the engine's player plays the judge's choices: {ann_row:?}"
    );
    assert!(
        ben_row.top1 * 2 < ben_row.judged,
        "the first legal move is seldom the engine's: {ben_row:?}"
    );

    let queue = get_as(&server, "/api/mod/reports?status=open", &mia.token).await;
    assert_eq!(queue.0, 200);
    let reports = queue.1.as_array().expect("a list").clone();
    assert_eq!(reports.len(), 1, "Ann alone is flagged: {reports:?}");
    let flag = &reports[0];
    assert_eq!(flag["reason"], FAIR_PLAY_REASON);
    assert_eq!(flag["target"], "ann");
    assert_eq!(flag["reporter"], REPORTER);
    assert_eq!(flag["game"], t.record.as_str());
    let summary = &flag["evidence"][0];
    assert_eq!(summary["kind"], "fair_play");
    assert_eq!(summary["judged"], ann_row.judged);
    assert_eq!(summary["top1"], ann_row.top1);
    assert!(summary["p_value"].as_f64().unwrap() <= 0.05);
    assert_eq!(flag["evidence"][1]["game"], t.record.as_str());

    // Never on a public page: a player cannot read the queue, and nobody's own reports list shows it.
    let refused = get_as(&server, "/api/mod/reports?status=open", &ann.token).await;
    assert_eq!(refused.0, 403);
    let own = get_as(&server, "/api/me/reports", &ann.token).await;
    assert_eq!(own.1, serde_json::json!([]));
    let (status, _, profile) = server.get("/api/players/ann").await;
    assert_eq!(status, 200);
    assert!(!profile.contains(FAIR_PLAY_REASON), "{profile}");
    stop(server, db).await;
}

async fn a_flag_is_not_filed_again_until_a_whole_new_window_is_over_the_threshold(postgres: bool) {
    let Some((server, db)) = start(postgres, 2).await else {
        eprintln!("TEST_DATABASE_URL is not set: the Postgres case was not run");
        return;
    };
    let store: Arc<dyn store::Store> = server.state.store.clone();
    let ann = store
        .create_user("ann", "not-a-real-hash", 0)
        .await
        .unwrap();
    let ben = store
        .create_user("ben", "not-a-real-hash", 0)
        .await
        .unwrap();
    let mut flags = Vec::new();
    for n in 1..=3 {
        let black = server.registered_as(ann.clone()).await.client;
        let white = server.registered_as(ben.clone()).await.client;
        let mut t = rated_table(&server, black, white).await;
        play_engine_against_first_legal(&mut t).await;
        judged(&server, n).await;
        let open = store
            .community()
            .unwrap()
            .reports(Some("open"), 10)
            .await
            .unwrap();
        flags.push(open.len());
    }

    // Game 1 flags Ann; game 2's window (games 1 and 2) holds the flagged game; game 3's (2 and 3) is all newer.
    assert_eq!(flags, vec![1, 1, 2]);
    let fair_play = store.fair_play().unwrap();
    assert_eq!(fair_play.latest_flag_at(ben.id).await.unwrap(), None);
    assert_eq!(
        fair_play
            .agreements(ann.id, "othello/standard", 10)
            .await
            .unwrap()
            .len(),
        3
    );
    stop(server, db).await;
}

macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(false).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(true).await;
                }
            )*
        }
    };
}

on_both_stores!(
    a_player_who_plays_the_engines_moves_is_flagged_for_the_moderators_only,
    a_flag_is_not_filed_again_until_a_whole_new_window_is_over_the_threshold,
);
