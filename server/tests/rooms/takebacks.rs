//! Takebacks stop at an opening decision: after the swap (or the fifth-move proposal and choice) the colours and
//! the choice stand, so no takeback can silently hand them back.

use crate::common;

use common::*;
use protocol::{ClientMessage, JoinRole, RoomEvent, TimeControl};
use rules::{Color, ForbiddenPolicy, Opening, RuleSet};

fn swap_rules() -> protocol::RulesSpec {
    common::rules(
        RuleSet::Renju,
        ForbiddenPolicy::Reject,
        Opening::SwapAfterThree,
    )
}

fn request(room: &str) -> ClientMessage {
    ClientMessage::RequestTakeback { room: room.into() }
}

/// A Renju table after three stones where the joiner (white) swapped: the joiner now holds black, the creator
/// white. Returns the table (seat clients as they sat down) and the room id.
async fn swapped(server: &TestServer) -> (Table, String) {
    let mut t = Table::open(server, swap_rules(), TimeControl::None).await;
    t.play(true, &["h8", "h9", "j10"], 1).await;
    let room = t.room.clone();
    t.white
        .act(ClientMessage::DecideSwap {
            room: room.clone(),
            swap: true,
        })
        .await
        .unwrap();
    (t, room)
}

#[tokio::test]
async fn neither_player_can_take_back_across_the_swap_decision() {
    let (server, _db) = TestServer::start().await;
    let (mut t, room) = swapped(&server).await;

    // The swapper's own last action is the decision; the creator's is move 3, with the decision after it.
    assert_eq!(
        t.white.act(request(&room)).await,
        Err("opening_decided".into())
    );
    assert_eq!(
        t.black.act(request(&room)).await,
        Err("opening_decided".into())
    );

    let mut spectator = server.client().await;
    let snap = spectator.join(&room, JoinRole::Spectator).await;
    assert!(snap.swapped);
    assert_eq!(snap.seats.black.unwrap().id, t.white.id, "the swap stands");
    assert_eq!(snap.moves.len(), 3);
}

#[tokio::test]
async fn a_move_after_the_swap_is_taken_back_and_the_colours_stay_swapped() {
    let (server, _db) = TestServer::start().await;
    let (mut t, room) = swapped(&server).await;
    // The creator, now white, plays move 4 and takes it back; the joiner (black) accepts.
    t.black.place(&room, "g8", 4).await.unwrap();
    t.black.act(request(&room)).await.unwrap();
    t.white
        .act(ClientMessage::AnswerTakeback {
            room: room.clone(),
            accept: true,
        })
        .await
        .unwrap();
    let (_, back) = t
        .black
        .event_where(|e| matches!(e, RoomEvent::TakenBack { .. }))
        .await;
    let RoomEvent::TakenBack { ply, to_act, .. } = back else {
        unreachable!()
    };
    assert_eq!(ply, 3);
    assert_eq!(
        to_act,
        Some(Color::White),
        "white (the creator) plays move 4 again"
    );

    let mut spectator = server.client().await;
    let snap = spectator.join(&room, JoinRole::Spectator).await;
    assert!(snap.swapped);
    assert_eq!(snap.seats.black.unwrap().id, t.white.id);
    assert_eq!(snap.seats.white.unwrap().id, t.black.id);
    t.black.place(&room, "g8", 4).await.unwrap();
}
