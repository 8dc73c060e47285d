//! Othello rooms over real WebSockets with the typed client: a whole game with a forced pass while a spectator
//! follows it with its replica, the rules' endings and scorings in the result, takeback, resignation and a
//! rematch with colours exchanged, a clock running out, catch-up, a restart mid-game, and the record and its
//! export in Othello's own notation.

use crate::common;

use std::time::Duration;

use common::*;
use games::{AnyGame, AnyLegal, Game as _};
use protocol::{
    ClientMessage, GameDetail, GameSpec, GameView, JoinRole, OfferKind, OthelloScoring, RoomEvent,
    ServerMessage, TimeControl,
};
use rules::Color;
use testkit::game_table::{create_game, notations, rated, GameTable};

fn othello(scoring: OthelloScoring) -> GameSpec {
    GameSpec::Othello(protocol::OthelloSpec { scoring })
}

/// Two guests at a casual, untimed Othello table scored by `scoring`, a spectator following.
async fn casual(server: &TestServer, scoring: OthelloScoring) -> GameTable {
    GameTable::open(server, othello(scoring), TimeControl::None).await
}

/// Eight discs after which black has no move and white has one: black must pass.
const TO_A_PASS: [&str; 8] = ["d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1"];

/// The shortest game: a wipe-out after nine plies (black 13, white 0, 51 squares empty).
const WIPE_OUT: [&str; 9] = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"];

/// Plays the first listed square for whoever must place until the rules end the game (passes are the room's).
async fn play_out(t: &mut GameTable) -> protocol::GameResult {
    while t.replica.result.is_none() && t.game().to_act().is_some() {
        let AnyLegal::Othello(legal) = t.game().legal() else {
            panic!("an Othello game lists Othello moves");
        };
        let square = legal.places[0].to_string();
        t.play(&square)
            .await
            .unwrap_or_else(|code| panic!("{square} refused: {code}"));
    }
    t.follow_to_end().await
}

fn rules_game(game: &AnyGame) -> &rules::othello::Game {
    match game {
        AnyGame::Othello(g) => g.rules_game(),
        other => panic!("an Othello game, not {other:?}"),
    }
}

#[tokio::test]
async fn an_othello_game_is_played_to_its_end_with_a_forced_pass_while_a_spectator_follows() {
    let (server, _db) = TestServer::start().await;
    let mut t = casual(&server, OthelloScoring::Japanese).await;
    t.play_line(&TO_A_PASS).await;
    assert_eq!(
        notations(t.game())[8],
        "pass",
        "the room passed for black at once"
    );
    assert_eq!(t.replica.to_act, Some(Color::White));
    // Black passing again is refused: white is to act.
    let e = t.send(false, act(&t.room, "pass", 9)).await;
    assert_eq!(error_code(e), "not_your_turn");

    let result = play_out(&mut t).await;

    let game = t.game().clone();
    let outcome = game
        .status()
        .outcome()
        .cloned()
        .expect("the rules ended it");
    assert_eq!(result.reason, outcome.reason);
    assert!(
        ["board_full", "no_moves", "wipe_out"].contains(&result.reason.as_str()),
        "{result:?}"
    );
    assert_eq!(result.winner, outcome.winner);
    let score = rules_game(&game)
        .position()
        .score()
        .result_text(rules::othello::Scoring::Japanese);
    let Some(GameDetail::Othello(protocol::OthelloOutcome {
        score: shown,
        scoring,
        scored,
        ..
    })) = &result.detail
    else {
        panic!("an Othello result carries its discs and score: {result:?}");
    };
    assert_eq!((shown, *scoring), (&score, OthelloScoring::Japanese));
    assert_eq!(u32::from(scored.black) + u32::from(scored.white), 64);

    // Both players heard the same end as the spectator.
    assert_eq!(t.black.game_over().await, result);
    assert_eq!(t.white.game_over().await, result);

    let (status, record) = server.get_json(&format!("/api/games/{}", t.record)).await;
    assert_eq!(status, 200);
    assert_eq!(record["game"]["game"], "othello");
    assert!(record.get("rules").is_none() && record.get("moves").is_none());
    let listed: Vec<String> = record["notation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(listed, notations(&game));
    assert_eq!(record["actions"][8]["notation"], "pass");
    assert_eq!(record["result"]["reason"], result.reason);
    assert_eq!(record["result"]["detail"]["score"], score);

    let (status, head, body) = server.get(&format!("/api/games/{}/export", t.record)).await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/plain"), "{head}");
    let (tags, moves) = body
        .split_once("\n\n")
        .expect("tags, a blank line, the moves");
    assert_eq!(moves, format!("{}\n", rules_game(&game).transcript()));
    assert!(moves.starts_with("d3c3b3b2f5a3a1c1"), "{body}");
    // The header: the PGN roster with the players by colour, the result, the scoring and the final discs.
    assert!(
        tags.starts_with("[Event \"Casual game\"]\n[Site \"test\"]\n[Date \""),
        "{body}"
    );
    assert!(
        tags.contains(&format!("[Black \"{}\"]", t.black.name)),
        "{body}"
    );
    assert!(
        tags.contains(&format!("[White \"{}\"]", t.white.name)),
        "{body}"
    );
    assert!(tags.contains("[Scoring \""), "{body}");
    assert!(tags.contains("[Discs \""), "{body}");
    let imported = rules::othello::Game::from_record(&body).expect("the export imports");
    assert_eq!(
        imported.moves(),
        rules_game(&game).moves(),
        "passes restored"
    );
}

#[tokio::test]
async fn a_wipe_out_ends_the_room_with_its_reason_and_the_european_score() {
    let (server, _db) = TestServer::start().await;
    let mut t = casual(&server, OthelloScoring::European).await;
    t.play_line(&WIPE_OUT).await;
    let result = t.follow_to_end().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("wipe_out", Some(Color::Black))
    );
    assert_eq!(result.winner_name.as_deref(), Some(t.black.name.as_str()));
    assert!(matches!(
        &result.detail,
        Some(GameDetail::Othello(protocol::OthelloOutcome { score, scoring: OthelloScoring::European, discs, .. }))
            if score == "black 39–25" && discs.black == 13 && discs.white == 0
    ));
    let e = t.black.request(act(&t.room, "a1", 9)).await;
    assert_eq!(error_code(e), "game_over");
}

#[tokio::test]
async fn an_othello_takeback_restores_the_position_and_the_replica_follows_it() {
    let (server, _db) = TestServer::start().await;
    let mut t = casual(&server, OthelloScoring::Japanese).await;
    t.play_line(&["f5", "d6"]).await;
    // White moved last: it asks (black is to act), black accepts.
    let (asked, taken) = t.take_back().await;
    assert!(matches!(
        asked,
        ServerMessage::Event {
            event: RoomEvent::Offered {
                offer: OfferKind::Takeback,
                by: Color::White
            },
            ..
        }
    ));
    let RoomEvent::ActionsTakenBack {
        at,
        ply,
        view: GameView::Othello(view),
        to_act,
        ..
    } = taken
    else {
        panic!("actions_taken_back with the Othello view, not {taken:?}");
    };
    assert_eq!((at, ply, to_act), (1, 1, Some(Color::White)));
    assert_eq!(view.actions, ["f5"]);
    assert_eq!(view.legal, ["f4", "d6", "f6"]);
    assert_eq!(notations(t.game()), ["f5"]);
    assert_eq!(t.replica.to_act, Some(Color::White));
    // The store forgot d6 too; white plays another reply.
    let (_, record) = server.get_json(&format!("/api/games/{}", t.record)).await;
    assert_eq!(record["notation"], serde_json::json!(["f5"]));
    t.play("f4").await.unwrap();
    assert_eq!(notations(t.game()), ["f5", "f4"]);
    let snap = t.snapshot().await;
    assert_eq!(
        snap.view.as_ref().map(GameView::actions),
        Some(&["f5".to_owned(), "f4".to_owned()][..])
    );
}

#[tokio::test]
async fn a_resigned_othello_game_is_followed_by_a_rematch_with_colours_exchanged() {
    let (server, _db) = TestServer::start().await;
    let mut t = casual(&server, OthelloScoring::Japanese).await;
    let (creator, joiner) = (t.black.name.clone(), t.white.name.clone());
    t.play_line(&["f5"]).await;
    let room = t.room.clone();
    t.send(true, ClientMessage::Resign { room: room.clone() })
        .await;
    let result = t.follow_to_end().await;
    assert_eq!(
        (result.reason.as_str(), result.winner, result.detail),
        ("resign", Some(Color::Black), None)
    );
    t.black
        .request(ClientMessage::OfferRematch { room: room.clone() })
        .await;
    t.white
        .request(ClientMessage::AnswerRematch {
            room: room.clone(),
            accept: true,
        })
        .await;
    let started = loop {
        if let e @ RoomEvent::GameStarted { .. } = t.follow_one().await {
            break e;
        }
    };
    let RoomEvent::GameStarted {
        black,
        white,
        to_act,
        view: Some(GameView::Othello(view)),
        ..
    } = started
    else {
        panic!("game_started with the Othello view, not {started:?}");
    };
    assert_eq!((black.name, white.name), (joiner.clone(), creator));
    assert_eq!(
        (to_act, view.to_act),
        (Some(Color::Black), Some(Color::Black))
    );
    assert!(view.actions.is_empty());
    assert_eq!(
        t.mover().name,
        joiner,
        "the joiner holds black now and moves first"
    );
    t.play_line(&["f5", "d6"]).await;
    assert_eq!(notations(t.game()), ["f5", "d6"]);
}

#[tokio::test]
async fn an_othello_clock_that_runs_out_ends_the_game_on_time() {
    let (server, _db) = TestServer::start().await;
    let tc = TimeControl::Fischer {
        base_ms: 1_000,
        increment_ms: 0,
    };
    let mut t = GameTable::open(&server, othello(OthelloScoring::Japanese), tc).await;
    t.play_line(&["f5"]).await;
    server.advance(Duration::from_millis(1_500));
    let result = t.follow_to_end().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("timeout", Some(Color::Black))
    );
}

#[tokio::test]
async fn a_spectator_reconnecting_with_its_version_catches_up_on_the_actions_it_missed() {
    let (server, _db) = TestServer::start().await;
    let mut t = casual(&server, OthelloScoring::Japanese).await;
    t.play_line(&["f5"]).await;
    let before = t.replica.clone();
    t.play_line(&["d6", "c3", "d3"]).await;
    let answer = t
        .watcher
        .request(ClientMessage::Join {
            room: t.room.clone(),
            role: JoinRole::Spectator,
            since: Some(before.version),
        })
        .await;
    let ServerMessage::CatchUp { events, .. } = answer else {
        panic!("a catch_up, not {answer:?}");
    };
    let mut caught = before;
    caught.catch_up(caught.version, &events).unwrap();
    assert_eq!(
        notations(caught.game.as_ref().unwrap()),
        ["f5", "d6", "c3", "d3"]
    );
    assert_eq!(caught.game, t.replica.game);
}

#[tokio::test]
async fn a_restarted_server_resumes_an_othello_game_where_it_stood() {
    let db = Db::sqlite();
    let tc = TimeControl::Fischer {
        base_ms: 60_000,
        increment_ms: 0,
    };
    let server = TestServer::start_on(&db, test_config()).await;
    let mut t = GameTable::open(&server, othello(OthelloScoring::European), tc).await;
    t.play_line(&TO_A_PASS).await;
    let before = t.replica.game.clone();
    let (server, mut t) = t.restart(server, &db).await;
    assert_eq!(
        t.replica.game, before,
        "the same position, the pass included"
    );
    assert_eq!(t.replica.to_act, Some(Color::White));
    assert!(matches!(
        t.replica.spec,
        Some(GameSpec::Othello(protocol::OthelloSpec {
            scoring: OthelloScoring::European
        }))
    ));
    let result = play_out(&mut t).await;
    assert!(result.detail.is_some(), "{result:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_rated_othello_game_changes_ratings_in_the_othello_pool_only() {
    let (server, _db) = TestServer::start().await;
    let ann = server.registered("Ann").await;
    let ben = server.registered("Ben").await;
    let create = rated(create_game(
        othello(OthelloScoring::Japanese),
        TimeControl::None,
        protocol::ColourChoice::Black,
    ));
    let mut t = GameTable::seat(&server, ann.client, ben.client, create).await;
    t.play_line(&WIPE_OUT).await;
    let result = t.follow_to_end().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("wipe_out", Some(Color::Black))
    );
    let ratings = result.ratings.expect("a rated game changes ratings");
    assert_eq!(ratings[0].name, "Ann", "black's first");
    assert!(ratings[0].after > ratings[0].before);
    assert!(ratings[1].after < ratings[1].before);

    let (status, board) = server
        .get_json("/api/leaderboard?pool=othello/standard")
        .await;
    assert_eq!(status, 200);
    assert_eq!(board["pool"], "othello/standard");
    for pool in ["renju", "freestyle", "draughts/international"] {
        let (_, other) = server
            .get_json(&format!("/api/leaderboard?pool={pool}"))
            .await;
        assert_eq!(other["entries"], serde_json::json!([]), "{pool} moved");
    }
    let (_, profile) = server.get_json("/api/players/Ben").await;
    assert_eq!(rating_pools(&profile), ["othello/standard"]);
    let latest = &profile["games"][0];
    assert_eq!(latest["public_id"], t.record.as_str());
    assert_eq!(latest["pool"], "othello/standard");
    assert_eq!(latest["winner_name"], "Ann");
}
