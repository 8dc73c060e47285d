//! A room after its game: it offers a rematch to its two players only, even once one of them has left; a game with
//! anyone else is a new room (issue #14, item 4).

use crate::common;

use common::*;
use protocol::{ClientMessage, JoinRole, RoomEvent, RoomState, ServerMessage, TimeControl};
use rules::Color;

/// A finished freestyle game (black resigned) that white has then left; black is still seated.
async fn finished_and_left(server: &TestServer) -> Table {
    let mut table = Table::open(server, freestyle(), TimeControl::None).await;
    let room = table.room.clone();
    table.black.place(&room, "h8", 1).await.unwrap();
    let resigned = table
        .black
        .act(ClientMessage::Resign { room: room.clone() })
        .await;
    assert!(
        matches!(resigned, Ok(RoomEvent::GameOver { .. })),
        "{resigned:?}"
    );
    table.white.game_over().await;
    let left = table
        .white
        .request(ClientMessage::Leave { room: room.clone() })
        .await;
    assert!(matches!(left, ServerMessage::Ack { .. }), "{left:?}");
    table
}

#[tokio::test]
async fn a_newcomer_cannot_take_the_seat_a_player_left_in_a_finished_room() {
    let (server, _db) = TestServer::start().await;
    let table = finished_and_left(&server).await;
    let mut newcomer = server.client().await;
    let reply = newcomer
        .request(ClientMessage::Join {
            room: table.room.clone(),
            role: JoinRole::Player,
            since: None,
        })
        .await;
    assert_eq!(error_code(reply), "room_full");
}

#[tokio::test]
async fn the_player_who_stays_in_a_finished_room_keeps_the_colour_they_ended_with() {
    let (server, _db) = TestServer::start().await;
    let mut table = finished_and_left(&server).await;
    let room = table.room.clone();
    let snap = table.black.join(&room, JoinRole::Player).await;
    assert_eq!(
        (snap.state, snap.you),
        (RoomState::Over, Some(Color::Black))
    );
}

#[tokio::test]
async fn a_finished_room_a_player_left_is_not_listed_in_the_lobby() {
    let (server, _db) = TestServer::start().await;
    let table = finished_and_left(&server).await;
    let mut looker = server.client().await;
    let lobby = looker.request(ClientMessage::SubscribeLobby {}).await;
    let ServerMessage::Lobby { rooms, .. } = lobby else {
        panic!("expected the lobby, got {lobby:?}");
    };
    assert!(
        rooms.iter().all(|r| r.id != table.room),
        "{:?}",
        rooms.iter().map(|r| &r.id).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn a_rematch_offer_after_the_opponent_left_is_refused_as_opponent_left() {
    let (server, _db) = TestServer::start().await;
    let mut table = finished_and_left(&server).await;
    let room = table.room.clone();
    let reply = table
        .black
        .request(ClientMessage::OfferRematch { room })
        .await;
    assert_eq!(error_code(reply), "opponent_left");
}
