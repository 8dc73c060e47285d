//! Computer analysis of finished games (issue #33): the job on both stores (queued, then stored; a second
//! request instant; cancelled; one at a time; the daily limit at its boundary), the HTTP errors, the analysis
//! board's engine, and a marked mistake in a game of each kind.

use std::sync::atomic::{AtomicBool, AtomicU32};
use std::time::{Duration, Instant};

use engine::brain::{Brain, RandomBrain};
use games::{AnyAction, AnyConfig, AnyGame, Game, GameKind};
use serde_json::{json, Value};
use server::analysis::report::{Judgment, Reason};
use server::analysis::runner::{run, Task};
use server::Config;
use store::{Finish, GameEnd, GameId, NewGame, PlayerRef, SeatsAtEnd, Store, StoredAction};
use testkit::accounts::{test_config, App, Db};
use testkit::on_both_stores;

/// A finished (resigned) game of `config` with these actions, stored straight in the store; its public id.
async fn stored_game(
    store: &dyn Store,
    config: AnyConfig,
    actions: &[AnyAction],
    finished: bool,
) -> (GameId, String) {
    let public_id = store::new_public_id();
    let stored = config.stored();
    let id = store
        .create_game(&NewGame {
            public_id: public_id.clone(),
            room: format!("r-{public_id}"),
            kind: stored.game.to_owned(),
            pool: server::stored::pool(&config),
            config: stored.text.clone(),
            time_control: "{\"kind\":\"none\"}".into(),
            public: true,
            rated: false,
            black: PlayerRef {
                name: "ann".into(),
                user_id: None,
            },
            white: PlayerRef {
                name: "bob".into(),
                user_id: None,
            },
            started_at: 1,
        })
        .await
        .expect("create game");
    let mut game = AnyGame::new(config, server::stored::first_seat(config));
    let mut rows = Vec::new();
    for (seq, action) in actions.iter().enumerate() {
        game.apply(action.clone()).expect("a legal action");
        rows.push((
            id,
            StoredAction {
                seq: seq as u32,
                text: action.encode(),
                ply: AnyGame::is_move(action).then(|| game.ply()),
                used_ms: 0,
                remaining_ms: None,
                at: 2 + seq as i64,
            },
        ));
    }
    if !rows.is_empty() {
        store.append_actions(&rows).await.expect("append");
    }
    if finished {
        store
            .finish_game(
                id,
                &Finish {
                    end: GameEnd {
                        winner: None,
                        aborted: false,
                        reason: "draw_agreed".into(),
                        ended_at: 1_000,
                    },
                    seats: SeatsAtEnd::AsStarted,
                    rater: server::stored::RATER,
                },
            )
            .await
            .expect("finish")
            .expect("finished once");
    }
    (id, public_id)
}

fn config(kind: &str, text: &str) -> AnyConfig {
    AnyConfig::decode(kind, text).expect("a configuration")
}

fn freestyle() -> AnyConfig {
    config(
        "gomoku",
        "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none",
    )
}

fn moves(config: AnyConfig, texts: &[&str]) -> Vec<AnyAction> {
    let mut game = AnyGame::new(config, server::stored::first_seat(config));
    texts
        .iter()
        .map(|t| {
            let a = game.parse_action(t).expect("notation");
            game.apply(a.clone()).expect("legal");
            a
        })
        .collect()
}

/// Black makes an open three (h8 i8 j8); white plays elsewhere (allows a VCF), black too (misses it).
const MISSED_VCF: [&str; 8] = ["h8", "a15", "i8", "a14", "j8", "a12", "o1", "k8"];

/// A random game of `kind` from its default configuration: `plies` actions at most.
fn random_game(kind: GameKind, seed: u64, plies: usize) -> (AnyConfig, Vec<AnyAction>) {
    let config = kind.default_config();
    let mut game = AnyGame::new(config, server::stored::first_seat(config));
    let mut brain = RandomBrain::new(seed);
    let mut actions = Vec::new();
    while actions.len() < plies {
        let Some(a) = brain.choose(&game, Duration::ZERO, &AtomicBool::new(false)) else {
            break;
        };
        game.apply(a.clone()).expect("listed actions play");
        actions.push(a);
    }
    (config, actions)
}

fn analysis_config(ms: u64) -> Config {
    Config {
        analysis_ms_per_position: ms,
        ..test_config()
    }
}

async fn send(app: &App, method: reqwest::Method, path: &str, token: Option<&str>) -> (u16, Value) {
    let mut request = app.http.request(method, app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn ask(app: &App, public_id: &str, token: &str) -> (u16, Value) {
    let path = format!("/api/games/{public_id}/analysis");
    send(app, reqwest::Method::POST, &path, Some(token)).await
}

async fn look(app: &App, public_id: &str) -> Value {
    let path = format!("/api/games/{public_id}/analysis");
    let (status, body) = send(app, reqwest::Method::GET, &path, None).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Waits (a minute at most) until the analysis of a game reaches `status`.
async fn until_status(app: &App, public_id: &str, status: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let body = look(app, public_id).await;
        if body["status"] == status {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "still {body} waiting for {status}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn requested_analysis_is_queued_then_stored_and_a_second_request_is_instant(db: Db) {
    let Some(app) = App::start(db, analysis_config(20)).await else {
        return;
    };
    let token = app.register("annalyst", "correct horse battery").await;
    let config = freestyle();
    let (id, public_id) = stored_game(
        app.store.as_ref(),
        config,
        &moves(config, &MISSED_VCF),
        true,
    )
    .await;
    let (status, body) = ask(&app, &public_id, &token).await;
    assert_eq!(status, 202, "{body}");
    assert!(["queued", "running"].contains(&body["status"].as_str().unwrap()));
    assert_eq!(body["total"], 9);
    let done = until_status(&app, &public_id, "done").await;
    let result = &done["result"];
    assert_eq!(result["positions"].as_array().unwrap().len(), 9);
    assert_eq!(result["moves"].as_array().unwrap().len(), 8);
    assert!(app.store.analysis(id).await.unwrap().is_some(), "stored");
    // A second request answers at once from the store, and takes none of the player's requests.
    let (status, again) = ask(&app, &public_id, &token).await;
    assert_eq!(status, 200);
    assert_eq!(again["status"], "done");
    assert_eq!(again["result"], done["result"]);
    app.stop().await;
}

async fn a_cancelled_analysis_stores_nothing(db: Db) {
    let Some(app) = App::start(db, analysis_config(60_000)).await else {
        return;
    };
    let token = app.register("canceller", "correct horse battery").await;
    let config = freestyle();
    let (id, public_id) = stored_game(
        app.store.as_ref(),
        config,
        &moves(config, &MISSED_VCF),
        true,
    )
    .await;
    assert_eq!(ask(&app, &public_id, &token).await.0, 202);
    let path = format!("/api/games/{public_id}/analysis");
    let other = app.register("bystander", "correct horse battery").await;
    let (status, body) = send(&app, reqwest::Method::DELETE, &path, Some(&other)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("not_requester"))
    );
    let (status, body) = send(&app, reqwest::Method::DELETE, &path, Some(&token)).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("cancelled")));
    assert_eq!(look(&app, &public_id).await["status"], "none");
    assert!(app.store.analysis(id).await.unwrap().is_none());
    let (status, body) = send(&app, reqwest::Method::DELETE, &path, Some(&token)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("no_analysis_job"))
    );
    app.stop().await;
}

async fn one_analysis_runs_at_a_time_and_the_next_starts_when_it_ends(db: Db) {
    let Some(app) = App::start(db, analysis_config(60_000)).await else {
        return;
    };
    let token = app.register("queuer", "correct horse battery").await;
    let config = freestyle();
    let actions = moves(config, &MISSED_VCF);
    let (_, first) = stored_game(app.store.as_ref(), config, &actions, true).await;
    let (_, second) = stored_game(app.store.as_ref(), config, &actions, true).await;
    assert_eq!(ask(&app, &first, &token).await.0, 202);
    until_status(&app, &first, "running").await;
    let (status, body) = ask(&app, &second, &token).await;
    assert_eq!(status, 202);
    assert_eq!(
        (body["status"].as_str(), body["ahead"].as_u64()),
        (Some("queued"), Some(0))
    );
    assert_eq!(
        look(&app, &second).await["status"],
        "queued",
        "waits its turn"
    );
    let path = format!("/api/games/{first}/analysis");
    assert_eq!(
        send(&app, reqwest::Method::DELETE, &path, Some(&token))
            .await
            .0,
        200
    );
    until_status(&app, &second, "running").await;
    let path = format!("/api/games/{second}/analysis");
    assert_eq!(
        send(&app, reqwest::Method::DELETE, &path, Some(&token))
            .await
            .0,
        200
    );
    app.stop().await;
}

async fn the_daily_limit_refuses_one_more_request_until_a_day_has_passed(db: Db) {
    let limit = 2;
    let config = Config {
        analysis_per_day: limit,
        ..analysis_config(60_000)
    };
    let Some(app) = App::start(db, config).await else {
        return;
    };
    let token = app.register("greedy", "correct horse battery").await;
    let gomoku = freestyle();
    let actions = moves(gomoku, &MISSED_VCF[..2]);
    let mut games = Vec::new();
    for _ in 0..=limit + 1 {
        games.push(
            stored_game(app.store.as_ref(), gomoku, &actions, true)
                .await
                .1,
        );
    }
    for game in &games[..limit as usize] {
        assert_eq!(ask(&app, game, &token).await.0, 202, "within the limit");
    }
    let (status, body) = ask(&app, &games[limit as usize], &token).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["code"], "analysis_limit");
    assert_eq!(body["limit"], limit);
    app.clock
        .advance(Duration::from_secs(24 * 3600) + Duration::from_millis(1));
    let (status, body) = ask(&app, &games[limit as usize], &token).await;
    assert_eq!(status, 202, "a day later: {body}");
    app.stop().await;
}

on_both_stores!(
    requested_analysis_is_queued_then_stored_and_a_second_request_is_instant,
    a_cancelled_analysis_stores_nothing,
    one_analysis_runs_at_a_time_and_the_next_starts_when_it_ends,
    the_daily_limit_refuses_one_more_request_until_a_day_has_passed,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_errors_are_typed() {
    let app = App::start(Db::Sqlite, analysis_config(60_000))
        .await
        .unwrap();
    let token = app.register("typist", "correct horse battery").await;
    let config = freestyle();
    let (_, finished) = stored_game(
        app.store.as_ref(),
        config,
        &moves(config, &MISSED_VCF),
        true,
    )
    .await;
    let (_, live) = stored_game(
        app.store.as_ref(),
        config,
        &moves(config, &MISSED_VCF),
        false,
    )
    .await;
    let path = format!("/api/games/{finished}/analysis");
    let (status, body) = send(&app, reqwest::Method::POST, &path, None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_authenticated"))
    );
    let (status, body) = ask(&app, "no-such-game", &token).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_game")));
    let (status, body) = ask(&app, &live, &token).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("game_not_finished"))
    );
    assert_eq!(look(&app, &finished).await["status"], "none");
    app.stop().await;
}

async fn evaluate(app: &App, body: Value) -> (u16, Value) {
    let response = app.post("/api/analysis/evaluate", &body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_engine_answers_every_game_with_a_legal_best_move_and_line() {
    let app = App::start(Db::Sqlite, test_config()).await.unwrap();
    for kind in GameKind::ALL {
        let (config, actions) = random_game(kind, 7, 6);
        let texts: Vec<String> = actions.iter().map(AnyAction::notation).collect();
        let stored = config.stored();
        let (status, body) = evaluate(
            &app,
            json!({"game": kind.as_str(), "config": stored.text, "actions": texts, "ms": 100}),
        )
        .await;
        assert_eq!(status, 200, "{kind:?}: {body}");
        let mut game = AnyGame::new(config, server::stored::first_seat(config));
        for a in &actions {
            game.apply(a.clone()).unwrap();
        }
        let best = game.parse_action(body["best"].as_str().unwrap()).unwrap();
        assert!(
            game.clone().apply(best).is_ok(),
            "{kind:?}: the best move plays"
        );
        let line = body["line"].as_array().unwrap();
        assert!(
            !line.is_empty() && line[0] == body["best"],
            "{kind:?}: {body}"
        );
        for text in line {
            let a = game.parse_action(text.as_str().unwrap()).unwrap();
            game.apply(a).expect("the line plays");
        }
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_engine_refuses_bad_positions_with_typed_errors() {
    let app = App::start(Db::Sqlite, test_config()).await.unwrap();
    let cases = [
        (json!({"game": "chess", "actions": []}), "unknown_game"),
        (
            json!({"game": "gomoku", "actions": ["h8", "h8"]}),
            "illegal_action",
        ),
        (
            json!({"game": "othello", "actions": ["zz"]}),
            "invalid_action",
        ),
        (
            json!({"game": "gomoku", "config": "size=99", "actions": []}),
            "invalid_config",
        ),
        (json!({"game": "gomoku"}), "invalid_body"),
    ];
    for (body, code) in cases {
        let (status, answer) = evaluate(&app, body.clone()).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (400, Some(code)),
            "{body}"
        );
    }
    let too_many = vec!["h8"; server::http::MAX_EVALUATE_ACTIONS + 1];
    let (status, answer) = evaluate(&app, json!({"game": "gomoku", "actions": too_many})).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (400, Some("too_many_actions"))
    );
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_engine_is_rate_limited_per_address_at_its_boundary() {
    let per_minute = 3;
    let config = Config {
        analysis_evaluates_per_minute: per_minute,
        ..test_config()
    };
    let app = App::start(Db::Sqlite, config).await.unwrap();
    let body = json!({"game": "othello", "actions": [], "ms": 5});
    for _ in 0..per_minute {
        assert_eq!(
            evaluate(&app, body.clone()).await.0,
            200,
            "within the limit"
        );
    }
    let response = app.post("/api/analysis/evaluate", &body).await;
    assert_eq!(response.status().as_u16(), 429);
    assert!(response.headers().contains_key("retry-after"));
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["code"], "rate_limited");
    app.stop().await;
}

/// Runs the analysis job's work on a game, straight (no server).
fn analysed(
    config: AnyConfig,
    actions: Vec<AnyAction>,
    ms: u64,
) -> server::analysis::report::Analysis {
    let task = Task {
        kind: config.kind(),
        config,
        actions,
    };
    run(&task, ms, &AtomicBool::new(false), &AtomicU32::new(0), 0).expect("analysed")
}

use games::GameConfig as _;

#[test]
fn a_gomoku_player_who_allows_then_misses_a_vcf_is_marked() {
    let config = freestyle();
    let a = analysed(config, moves(config, &MISSED_VCF), 200);
    // Move 6 (white's a12) left black's open three alone; move 7 (black's o1) did not make the four.
    let allowed = &a.moves[5];
    assert_eq!(
        (allowed.judgment, allowed.reason),
        (Some(Judgment::Blunder), Some(Reason::AllowedVcf)),
        "{allowed:?}"
    );
    let missed = &a.moves[6];
    assert_eq!(
        (missed.judgment, missed.reason),
        (Some(Judgment::Blunder), Some(Reason::MissedVcf)),
        "{missed:?}"
    );
    assert!(a.positions[6].vcf, "black has a VCF before move 7");
    assert!(["g8", "k8"].contains(&a.positions[6].best.as_deref().unwrap()));
    // Before black's threats nobody is marked.
    assert!(
        a.moves[..4].iter().all(|m| m.judgment.is_none()),
        "{:?}",
        &a.moves[..4]
    );
}

/// A random game marks at least one mistake of the game's own kind.
fn random_game_marks(kind: GameKind, plies: usize, reasons: &[Reason]) {
    let (config, actions) = random_game(kind, 11, plies);
    let a = analysed(config, actions, 40);
    let marked: Vec<_> = a
        .moves
        .iter()
        .filter(|m| m.judgment >= Some(Judgment::Mistake))
        .collect();
    assert!(
        marked
            .iter()
            .any(|m| m.reason.is_some_and(|r| reasons.contains(&r))),
        "{kind:?}: {:?}",
        a.moves
    );
}

#[test]
fn an_othello_game_of_random_moves_has_a_marked_disc_loss_near_the_end() {
    random_game_marks(GameKind::Othello, 100, &[Reason::DiscLoss]);
}

#[test]
fn a_draughts_game_of_random_moves_has_a_marked_material_loss() {
    random_game_marks(GameKind::Draughts, 40, &[Reason::MaterialLoss]);
}

#[test]
fn an_insect_chess_game_of_random_moves_against_the_engine_has_a_marked_evaluation_drop() {
    // Random insects seldom meet; against the engine (its top level, the second side) they are taken.
    let config = GameKind::Insect.default_config();
    let mut game = AnyGame::new(config, server::stored::first_seat(config));
    let mut random = RandomBrain::new(3);
    let mut engine = engine::brain::make(GameKind::Insect, "engine", 4, 3).unwrap();
    let mut actions = Vec::new();
    let no = AtomicBool::new(false);
    while actions.len() < 200 {
        let brain: &mut dyn Brain = if actions.len() % 2 == 0 {
            &mut random
        } else {
            engine.as_mut()
        };
        let Some(a) = brain.choose(&game, Duration::from_millis(30), &no) else {
            break;
        };
        game.apply(a.clone()).unwrap();
        actions.push(a);
    }
    let a = analysed(config, actions, 40);
    assert!(
        a.moves.iter().any(|m| m.judgment >= Some(Judgment::Mistake)
            && m.reason.is_some_and(
                |r| [Reason::EvalDrop, Reason::MissedWin, Reason::AllowedWin].contains(&r)
            )),
        "{:?}",
        a.positions
            .iter()
            .map(|p| (p.score, p.to_act.clone()))
            .collect::<Vec<_>>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draughts_export_carries_its_analysis_as_pdn_comments() {
    let app = App::start(Db::Sqlite, analysis_config(20)).await.unwrap();
    let token = app.register("pdnreader", "correct horse battery").await;
    let (config, actions) = random_game(GameKind::Draughts, 11, 40);
    let (_, public_id) = stored_game(app.store.as_ref(), config, &actions, true).await;
    let export = format!("/api/games/{public_id}/export");
    let plain = app.get(&export, None).await.text().await.unwrap();
    assert!(
        !plain.contains('{'),
        "no comments before the analysis: {plain}"
    );
    assert_eq!(ask(&app, &public_id, &token).await.0, 202);
    let done = until_status(&app, &public_id, "done").await;
    let annotated = app.get(&export, None).await.text().await.unwrap();
    assert!(
        annotated.contains("{Computer analysis: engine 8"),
        "{annotated}"
    );
    // The tags and every move are kept; each judged move gets its comment.
    let strip = |text: &str| -> String {
        let mut out = String::new();
        let mut depth = 0;
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => out.push(c),
                _ => {}
            }
        }
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert_eq!(strip(&annotated), strip(&plain));
    let judged = done["result"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["judgment"].is_null())
        .count();
    assert!(judged > 0, "random moves are judged");
    assert_eq!(
        annotated.matches("material_loss").count() + annotated.matches("_win").count(),
        judged
    );
    app.stop().await;
}

/// The exact disc difference of an Othello position for `side`, solved afresh (the final count once over).
fn solved_for(game: &AnyGame, side: rules::Color) -> i32 {
    let AnyGame::Othello(othello) = game else {
        panic!("an Othello game");
    };
    let position = othello.rules_game().position();
    let solution = engine::othello::Engine::new(1)
        .solve(position, None, &AtomicBool::new(false))
        .expect("solved without a budget");
    if position.to_move() == side {
        solution.score
    } else {
        -solution.score
    }
}

#[test]
fn othellos_last_moves_are_judged_by_the_discs_the_solver_counts_down_to_the_final_board() {
    // Random moves to the end of the board: the last ten moves are well within the solver's reach.
    let (config, actions) = random_game(GameKind::Othello, 5, 200);
    let mut game = AnyGame::new(config, server::stored::first_seat(config));
    let mut positions = vec![game.clone()];
    for a in &actions {
        game.apply(a.clone()).unwrap();
        positions.push(game.clone());
    }
    assert!(game.status().is_over(), "the random game is played out");
    let a = analysed(config, actions.clone(), 60);

    let empties = |g: &AnyGame| {
        let AnyGame::Othello(o) = g else {
            unreachable!()
        };
        (!(o.rules_game().position().black() | o.rules_game().position().white())).count_ones()
    };
    let mut checked = 0;
    let mut marked = 0;
    for (i, action) in actions.iter().enumerate() {
        let (Some(mover), true) = (positions[i].to_act(), AnyGame::is_move(action)) else {
            continue;
        };
        if empties(&positions[i]) > 10 {
            continue;
        }
        let loss = solved_for(&positions[i], mover) - solved_for(&positions[i + 1], mover);
        let judged = &a.moves[i];
        let expected = [2, 4, 8]
            .iter()
            .rposition(|&x| loss >= x)
            .map(|k| [Judgment::Inaccuracy, Judgment::Mistake, Judgment::Blunder][k]);
        assert_eq!(
            (judged.judgment, judged.loss),
            (expected, expected.map(|_| loss)),
            "move {} ({}): the solver says {loss} discs lost; {judged:?}",
            i + 1,
            judged.notation
        );
        if expected.is_some() {
            assert_eq!(judged.reason, Some(Reason::DiscLoss), "{judged:?}");
            marked += 1;
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked} moves within the solver's reach");
    assert!(marked >= 1, "a random ending loses discs somewhere");
    // The last move is judged against the final board's count, never as a won or lost game.
    let last = a.moves.iter().rposition(|m| m.mover.is_some()).unwrap();
    assert!(
        a.moves[last].reason != Some(Reason::AllowedWin)
            && a.moves[last].reason != Some(Reason::MissedWin),
        "{:?}",
        a.moves[last]
    );
}
