//! Insect chess (昆虫棋) rooms over real WebSockets with the typed client, added as the fourth game through the one
//! list (issue #32): south (the seam's black) moves first, a refused move is a typed error, a capture is
//! announced with the insects it concerns, a piece on the enemy's food wins, and the record and its export read
//! back the moves.

use crate::common;

use common::*;
use protocol::{GameChange, GameDetail, GameSpec, GameView, RoomEvent, TimeControl};
use rules::Color;
use testkit::game_table::{notations, GameTable};

fn insect() -> GameSpec {
    GameSpec::Insect(protocol::InsectSpec {})
}

/// Twenty plies whose last, `e9-e8`, captures (found by random playouts of the rules crate).
const TO_A_CAPTURE: [&str; 20] = [
    "e2-e3", "e10-e9", "e3-e4", "a11-a10", "e4-d4", "a10-b10", "b1-b2", "f11-f10", "c2-c3",
    "e9-e8", "c3-d3", "e8-f8", "d4-d8", "f8-e8", "g1-g2", "e8-e9", "d3-e3", "f10-g10", "d8-e8",
    "e9-e8",
];

/// Seventeen plies after which south's piece stands on north's food, `d11`.
const TO_THE_FOOD: [&str; 17] = [
    "e2-e3", "e10-e9", "g1-g2", "c10-b10", "e3-e4", "e9-f9", "e4-e8", "a11-a10", "e8-d8", "f9-f10",
    "g2-g3", "f10-e10", "d8-d9", "e10-f10", "d9-d10", "a10-a11", "d10-d11",
];

#[tokio::test]
async fn south_moves_first_a_refused_move_is_typed_and_a_capture_is_announced() {
    let (server, _db) = TestServer::start().await;
    let mut t = GameTable::open(&server, insect(), TimeControl::None).await;
    assert_eq!(
        t.replica.to_act,
        Some(Color::Black),
        "south, the seam's black, moves first"
    );
    let snap = t.snapshot().await;
    let Some(GameView::Insect(view)) = &snap.view else {
        panic!("an insect snapshot carries its view: {snap:?}");
    };
    assert_eq!(view.board.len(), 77);
    // Rank 11 first: north's set-up (lower case) on top, south's (upper case) at the bottom.
    assert_eq!(&view.board[..7], "ld3cs".replace('3', "...").as_str());
    assert_eq!(&view.board[70..], "SC...DL");
    assert!(view.legal.contains(&"e2-e3".to_owned()));

    // Moving the other side's piece, or from an empty square, is a typed refusal.
    assert_eq!(t.play("e10-e9").await, Err("not_your_piece".into()));
    assert_eq!(t.play("e1-e2").await, Err("no_piece".into()));
    assert_eq!(t.play("e2-e4").await, Err("not_a_step".into()));

    t.play_line(&TO_A_CAPTURE[..19]).await;
    let taken = t.play(TO_A_CAPTURE[19]).await.unwrap();
    let RoomEvent::Action {
        action,
        by: Color::White,
        change: GameChange::Insect(change),
        to_act: Some(Color::Black),
        ..
    } = taken
    else {
        panic!("north's capture as an action event, not {taken:?}");
    };
    assert_eq!(action, "e9-e8");
    assert!(change.captured.is_some(), "{change:?}");
    assert_eq!((change.ply, change.no_capture), (20, 0));
    assert_eq!(notations(t.game()), TO_A_CAPTURE);
}

#[tokio::test]
async fn a_piece_on_the_enemy_food_wins_and_the_record_exports_the_moves() {
    let (server, _db) = TestServer::start().await;
    let mut t = GameTable::open(&server, insect(), TimeControl::None).await;
    t.play_line(&TO_THE_FOOD[..16]).await;
    t.play(TO_THE_FOOD[16]).await.unwrap();
    let result = t.follow_to_end().await;
    assert_eq!(result.reason, "food");
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(
        result.detail,
        Some(GameDetail::Insect(protocol::InsectOutcome {
            rule: "food".into()
        }))
    );
    // Nobody is to move after the end.
    assert_eq!(t.replica.to_act, None);

    let (status, record) = server.get_json(&format!("/api/games/{}", t.record)).await;
    assert_eq!(status, 200);
    assert_eq!(record["game"]["game"], "insect");
    assert_eq!(record["result"]["reason"], "food");
    let (status, head, body) = server.get(&format!("/api/games/{}/export", t.record)).await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/plain"), "{head}");
    assert!(head.contains(".txt"), "{head}");
    let (tags, moves) = body
        .split_once("\n\n")
        .expect("tags, a blank line, the moves");
    assert!(
        tags.starts_with("[Event \"Casual game\"]\n[Site \"test\"]\n[Date \""),
        "{body}"
    );
    assert!(tags.contains("[Round \"-\"]\n[South \""), "{body}");
    assert!(
        tags.contains("[Result \"1-0\"]\n[Game \"insect\"]\n"),
        "{body}"
    );
    assert_eq!(moves, format!("{} 1-0\n", TO_THE_FOOD.join(" ")));
}
