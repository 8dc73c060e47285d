//! International draughts rooms over real WebSockets with the typed client: white moves first, a mandatory
//! two-piece capture, a draw offer accepted, takeback, a restart mid-game, the record and its PDN export, and a
//! rated game landing in the draughts pool's leaderboard and the players' profiles.

use crate::common;

use common::*;
use protocol::{
    ClientMessage, ColourChoice, DraughtsVariant, GameChange, GameSpec, GameView, OfferKind,
    RoomEvent, ServerMessage, TimeControl,
};
use rules::Color;
use store::{Finish, GameEnd, NewGame, PlayerRef, SeatsAtEnd, StoredAction, User};
use testkit::game_table::{create_game, notations, rated, GameTable};

fn draughts() -> GameSpec {
    GameSpec::Draughts(protocol::DraughtsSpec {
        variant: DraughtsVariant::International,
    })
}

/// Four moves after which white's only move is the two-piece capture `26x17x28` (over 21 and 22).
const TO_A_DOUBLE_CAPTURE: [&str; 4] = ["31-26", "16-21", "33-29", "17-22"];

fn rules_game(t: &GameTable) -> rules::draughts::Game {
    match t.game() {
        games::AnyGame::Draughts(g) => g.rules_game().clone(),
        other => panic!("a draughts game, not {other:?}"),
    }
}

#[tokio::test]
async fn white_moves_first_a_double_capture_is_mandatory_and_a_draw_offer_ends_the_game() {
    let (server, _db) = TestServer::start().await;
    let mut t = GameTable::open(&server, draughts(), TimeControl::None).await;
    assert_eq!(t.replica.to_act, Some(Color::White));
    let joiner = t.white.name.clone();
    assert_eq!(t.mover().name, joiner, "the joiner holds white");
    t.play_line(&TO_A_DOUBLE_CAPTURE).await;
    // The capture is mandatory: a quiet move is refused, and so is the capture's short form's wrong route.
    assert_eq!(t.play("32-28").await, Err("illegal_move".into()));
    let taken = t.play("26x17x28").await.unwrap();
    let RoomEvent::Action {
        action,
        by: Color::White,
        change: GameChange::Draughts(change),
        to_act: Some(Color::Black),
        ..
    } = taken
    else {
        panic!("the capture as an action event, not {taken:?}");
    };
    assert_eq!(action, "26x17x28");
    assert_eq!(
        (change.path, change.captured, change.crowned),
        (vec![26, 17, 28], vec![21, 22], false)
    );
    let snap = t.snapshot().await;
    let Some(GameView::Draughts(view)) = &snap.view else {
        panic!("a draughts snapshot carries its view");
    };
    assert_eq!((&view.board[20..22], &view.board[27..28]), ("..", "w"));

    // Black offers a draw; white accepts.
    t.play_line(&["18-23"]).await;
    let room = t.room.clone();
    let offered = t
        .send(false, ClientMessage::OfferDraw { room: room.clone() })
        .await;
    assert!(matches!(
        offered,
        ServerMessage::Event {
            event: RoomEvent::Offered {
                offer: OfferKind::Draw,
                by: Color::Black
            },
            ..
        }
    ));
    t.send(
        true,
        ClientMessage::AnswerDraw {
            room: room.clone(),
            accept: true,
        },
    )
    .await;
    let result = t.follow_to_end().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("draw_agreed", None)
    );

    let (_, record) = server.get_json(&format!("/api/games/{}", t.record)).await;
    assert_eq!(record["game"]["game"], "draughts");
    assert_eq!(
        record["notation"],
        serde_json::json!(["31-26", "16-21", "33-29", "17-22", "26x17x28", "18-23"])
    );
    assert_eq!(record["result"]["reason"], "draw_agreed");
    assert_eq!(record["white"]["name"], t.white.name);

    let (status, head, pdn) = server.get(&format!("/api/games/{}/export", t.record)).await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/plain"), "{head}");
    assert!(
        pdn.contains(&format!("[White \"{}\"]", t.white.name)),
        "{pdn}"
    );
    assert!(
        pdn.contains(&format!("[Black \"{}\"]", t.black.name)),
        "{pdn}"
    );
    assert!(pdn.contains("[Result \"1-1\"]"), "{pdn}");
    // The seven tags of PDN's roster, in their order, before the game type.
    let names: Vec<&str> = pdn
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(|l| l[1..].split_once(' ').unwrap().0)
        .collect();
    assert_eq!(
        names[..8],
        ["Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"],
        "{pdn}"
    );
    assert!(head.contains(".pdn\""), "{head}");
    assert!(
        pdn.contains("1. 31-26 16-21 2. 33-29 17-22 3. 26x17x28 18-23 1-1"),
        "{pdn}"
    );
    let imported = rules::draughts::Game::from_pdn(&pdn).expect("the export imports");
    assert_eq!(imported.moves(), rules_game(&t).moves());
}

#[tokio::test]
async fn a_draughts_takeback_restores_the_position_for_the_side_that_asked() {
    let (server, _db) = TestServer::start().await;
    let mut t = GameTable::open(&server, draughts(), TimeControl::None).await;
    t.play_line(&["32-28", "19-23"]).await;
    // Black moved last; white (to act) accepts its request.
    let (_, taken) = t.take_back().await;
    let RoomEvent::ActionsTakenBack {
        at,
        view: GameView::Draughts(view),
        to_act,
        ..
    } = taken
    else {
        panic!("actions_taken_back with the draughts view, not {taken:?}");
    };
    assert_eq!((at, to_act, view.ply), (1, Some(Color::Black), 1));
    assert_eq!(notations(t.game()), ["32-28"]);
    t.play_line(&["18-23"]).await;
    assert_eq!(notations(t.game()), ["32-28", "18-23"]);
}

#[tokio::test]
async fn a_draughts_takeback_before_ones_first_move_is_a_typed_error() {
    let (server, _db) = TestServer::start().await;
    let mut t = GameTable::open(&server, draughts(), TimeControl::None).await;
    let room = t.room.clone();
    // Black has not moved yet (white moves first).
    let e = t
        .send(false, ClientMessage::RequestTakeback { room: room.clone() })
        .await;
    assert_eq!(error_code(e), "nothing_to_take_back");
    t.play_line(&["32-28"]).await;
    let e = t.send(true, ClientMessage::RequestTakeback { room }).await;
    assert_eq!(
        error_code(e),
        "nothing_to_take_back",
        "still none of black's"
    );
}

#[tokio::test]
async fn a_restarted_server_resumes_a_draughts_game_and_its_clocks() {
    let db = Db::sqlite();
    let tc = TimeControl::Fischer {
        base_ms: 60_000,
        increment_ms: 0,
    };
    let server = TestServer::start_on(&db, test_config()).await;
    let mut t = GameTable::open(&server, draughts(), tc).await;
    server.advance(std::time::Duration::from_secs(3));
    t.play_line(&TO_A_DOUBLE_CAPTURE).await;
    let before = t.replica.game.clone();
    let (server, mut t) = t.restart(server, &db).await;
    assert_eq!(t.replica.game, before);
    assert_eq!(t.replica.to_act, Some(Color::White));
    let snap = t.snapshot().await;
    let clocks = snap.clocks.expect("a clocked game");
    assert_eq!(clocks.running, Some(Color::White));
    assert_eq!(
        clocks.white.remaining_ms, 57_000,
        "white's first move took 3 s"
    );
    assert_eq!(clocks.black.remaining_ms, 60_000);
    t.play_line(&["26x17x28"]).await;
    assert_eq!(notations(t.game()).len(), 5);
    server.stop().await;
}

/// A finished rated draughts game between two users, written to the store as a room would.
async fn rated_draughts_game(
    server: &TestServer,
    white: &User,
    black: &User,
    winner: Option<Color>,
    at: i64,
) {
    let store = &server.state.store;
    let player = |u: &User| PlayerRef {
        name: u.name.clone(),
        user_id: Some(u.id),
    };
    let id = store
        .create_game(&NewGame {
            public_id: store::new_public_id(),
            room: format!("r{at}"),
            kind: "draughts".into(),
            config: "variant=international".into(),
            pool: ratings::Pool::new("draughts", "international"),
            time_control: "{\"kind\":\"none\"}".into(),
            public: true,
            rated: true,
            black: player(black),
            white: player(white),
            started_at: at,
        })
        .await
        .unwrap();
    for (seq, text) in ["32-28", "19-23"].into_iter().enumerate() {
        store
            .append_actions(&[(
                id,
                StoredAction {
                    seq: seq as u32,
                    text: text.into(),
                    ply: Some(seq as u32 + 1),
                    used_ms: 0,
                    remaining_ms: None,
                    at,
                },
            )])
            .await
            .unwrap();
    }
    store
        .finish_game(
            id,
            &Finish {
                end: GameEnd {
                    winner: winner.map(server::stored::side),
                    aborted: false,
                    reason: if winner.is_some() {
                        "resign"
                    } else {
                        "draw_agreed"
                    }
                    .into(),
                    ended_at: at + 1,
                },
                seats: SeatsAtEnd::AsStarted,
                rater: server::stored::RATER,
            },
        )
        .await
        .unwrap()
        .expect("finished once");
}

#[tokio::test]
async fn a_rated_draughts_game_lands_in_the_draughts_pool_its_leaderboard_and_profiles() {
    let (server, _db) = TestServer::start().await;
    let ann = server.registered("Ann").await;
    let ben = server.registered("Ben").await;
    let store = server.state.store.clone();
    let mut users = vec![
        store.user_by_name("Ann").await.unwrap().unwrap(),
        store.user_by_name("Ben").await.unwrap().unwrap(),
    ];
    for name in ["Cid", "Dee"] {
        users.push(store.create_user(name, "not-a-real-hash", 0).await.unwrap());
    }
    // A round robin, so that the four are listed (established after 10 games in a new pool, then each meets the
    // other three established), played in the last hour: the leaderboard lists active players.
    let mut at = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
        - 3_600_000;
    for round in 0..8 {
        for i in 0..4 {
            for j in i + 1..4 {
                at += 10;
                let winner = match (i * 7 + j * 3 + round) % 3 {
                    0 => Some(Color::Black),
                    1 => Some(Color::White),
                    _ => None,
                };
                let (w, b) = if round % 2 == 0 { (i, j) } else { (j, i) };
                rated_draughts_game(&server, &users[w], &users[b], winner, at).await;
            }
        }
    }
    let (_, board) = server
        .get_json("/api/leaderboard?pool=draughts/international")
        .await;
    let games_of = |board: &serde_json::Value, name: &str| {
        board["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .map(|e| e["games"].as_u64().unwrap())
    };
    assert_eq!(games_of(&board, "Ann"), Some(24), "{board}");

    // Ann creates a rated room and takes black; Ben holds white and moves first.
    let create = rated(create_game(
        draughts(),
        TimeControl::None,
        ColourChoice::Black,
    ));
    let mut t = GameTable::seat(&server, ann.client, ben.client, create).await;
    t.play_line(&["32-28", "19-23", "28x19", "14x23"]).await;
    let room = t.room.clone();
    // White (Ben) to act resigns.
    t.send(true, ClientMessage::Resign { room }).await;
    let result = t.follow_to_end().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("resign", Some(Color::Black))
    );
    let ratings = result.ratings.expect("a rated game changes ratings");
    assert_eq!(ratings[0].name, "Ann", "black's first");
    assert!(ratings[0].after > ratings[0].before);

    let (status, board) = server
        .get_json("/api/leaderboard?pool=draughts/international")
        .await;
    assert_eq!(status, 200);
    assert_eq!(board["pool"], "draughts/international");
    assert_eq!(games_of(&board, "Ann"), Some(25));
    assert_eq!(games_of(&board, "Ben"), Some(25));
    let (_, renju) = server.get_json("/api/leaderboard?pool=renju").await;
    assert_eq!(
        renju["entries"],
        serde_json::json!([]),
        "no other pool moved"
    );
    let (status, _) = server.get_json("/api/leaderboard?pool=draughts").await;
    assert_eq!(status, 400, "a pool is named in full");

    let (_, profile) = server.get_json("/api/players/Ann").await;
    assert_eq!(rating_pools(&profile), ["draughts/international"]);
    let latest = &profile["games"][0];
    assert_eq!(latest["public_id"], t.record.as_str());
    assert_eq!(latest["pool"], "draughts/international");
    assert_eq!(
        latest["game"],
        serde_json::json!({"game": "draughts", "variant": "international"})
    );
    assert!(latest.get("rules").is_none());
    assert_eq!(latest["black"]["name"], "Ann");
    assert_eq!(latest["winner_name"], "Ann");
}
