//! Draw offers, takebacks, resignation and rematches, with their anti-spam rules.

use crate::common;

use common::*;
use protocol::{ClientMessage, JoinRole, OfferKind, RoomEvent, RoomState, TimeControl};
use rules::Color;

#[tokio::test]
async fn an_accepted_draw_offer_ends_the_game_drawn() {
    let (server, _db) = TestServer::start().await;
    let Table {
        room,
        mut black,
        mut white,
        ..
    } = Table::open(&server, freestyle(), TimeControl::None).await;
    black.place(&room, "h8", 1).await.unwrap();
    let offered = black
        .act(ClientMessage::OfferDraw { room: room.clone() })
        .await
        .unwrap();
    assert_eq!(
        offered,
        RoomEvent::Offered {
            offer: OfferKind::Draw,
            by: Color::Black
        }
    );
    assert_eq!(
        black
            .act(ClientMessage::OfferDraw { room: room.clone() })
            .await,
        Err("offer_pending".into())
    );
    assert_eq!(
        black
            .act(ClientMessage::AnswerDraw {
                room: room.clone(),
                accept: true
            })
            .await,
        Err("no_offer".into())
    );
    white
        .act(ClientMessage::AnswerDraw {
            room: room.clone(),
            accept: true,
        })
        .await
        .unwrap();
    let result = black.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("draw_agreed", None)
    );
}

#[tokio::test]
async fn a_declined_offer_cannot_be_repeated_before_two_more_stones() {
    let (server, _db) = TestServer::start().await;
    let Table {
        room,
        mut black,
        mut white,
        ..
    } = Table::open(&server, freestyle(), TimeControl::None).await;
    black.place(&room, "h8", 1).await.unwrap();
    black
        .act(ClientMessage::OfferDraw { room: room.clone() })
        .await
        .unwrap();
    white
        .act(ClientMessage::AnswerDraw {
            room: room.clone(),
            accept: false,
        })
        .await
        .unwrap();
    assert_eq!(
        black
            .act(ClientMessage::OfferDraw { room: room.clone() })
            .await,
        Err("offer_too_soon".into())
    );
    white.place(&room, "a1", 2).await.unwrap();
    assert_eq!(
        black
            .act(ClientMessage::OfferDraw { room: room.clone() })
            .await,
        Err("offer_too_soon".into())
    );
    black.place(&room, "h9", 3).await.unwrap();
    black
        .act(ClientMessage::OfferDraw { room: room.clone() })
        .await
        .unwrap();
}

#[tokio::test]
async fn a_takeback_undoes_the_requesters_move_and_the_reply_after_it() {
    let (server, _db) = TestServer::start().await;
    let Table {
        room,
        mut black,
        mut white,
        game_id,
    } = Table::open(&server, freestyle(), TimeControl::None).await;
    assert_eq!(
        black
            .act(ClientMessage::RequestTakeback { room: room.clone() })
            .await,
        Err("nothing_to_take_back".into())
    );
    black.place(&room, "h8", 1).await.unwrap();
    white.place(&room, "a1", 2).await.unwrap();
    black.place(&room, "h9", 3).await.unwrap();
    white.place(&room, "a2", 4).await.unwrap();
    black
        .act(ClientMessage::RequestTakeback { room: room.clone() })
        .await
        .unwrap();
    white
        .act(ClientMessage::AnswerTakeback {
            room: room.clone(),
            accept: true,
        })
        .await
        .unwrap();
    let (_, back) = black
        .event_where(|e| matches!(e, RoomEvent::TakenBack { .. }))
        .await;
    let RoomEvent::TakenBack {
        ply, moves, to_act, ..
    } = back
    else {
        unreachable!()
    };
    assert_eq!(ply, 2);
    assert_eq!(moves, vec![p("h8"), p("a1")]);
    assert_eq!(to_act, Some(Color::Black));
    let (_, record) = server.get_json(&format!("/api/games/{game_id}")).await;
    assert_eq!(
        record["actions"].as_array().unwrap().len(),
        2,
        "the store forgot them too"
    );
    black.place(&room, "j9", 3).await.unwrap();
}

#[tokio::test]
async fn resigning_loses_and_a_rematch_exchanges_colours() {
    let (server, _db) = TestServer::start().await;
    let Table {
        room,
        mut black,
        mut white,
        game_id,
    } = Table::open(&server, freestyle(), TimeControl::None).await;
    assert_eq!(
        black
            .act(ClientMessage::OfferRematch { room: room.clone() })
            .await,
        Err("game_not_over".into())
    );
    black.place(&room, "h8", 1).await.unwrap();
    let over = white
        .act(ClientMessage::Resign { room: room.clone() })
        .await
        .unwrap();
    let RoomEvent::GameOver { result, .. } = over else {
        panic!("{over:?}")
    };
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("resign", Some(Color::Black))
    );

    black
        .act(ClientMessage::OfferRematch { room: room.clone() })
        .await
        .unwrap();
    let started = white
        .act(ClientMessage::OfferRematch { room: room.clone() })
        .await
        .unwrap();
    let RoomEvent::GameStarted {
        game_id: second,
        black: new_black,
        white: new_white,
        ..
    } = started
    else {
        panic!("{started:?}")
    };
    assert_ne!(second, game_id);
    assert_eq!(new_black.name, white.name);
    assert_eq!(new_white.name, black.name);
    let snap = white.join(&room, JoinRole::Player).await;
    assert_eq!(
        (snap.state, snap.you),
        (RoomState::Playing, Some(Color::Black))
    );
    white.place(&room, "h8", 1).await.unwrap();
}

#[tokio::test]
async fn leaving_a_running_game_resigns_it_and_the_room_stays_over() {
    let (server, _db) = TestServer::start().await;
    let Table {
        room,
        mut black,
        mut white,
        ..
    } = Table::open(&server, freestyle(), TimeControl::None).await;
    black.place(&room, "h8", 1).await.unwrap();
    white
        .request(ClientMessage::Leave { room: room.clone() })
        .await;
    let result = black.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("resign", Some(Color::Black))
    );
    // The room does not wait for a new opponent: another game is a new room (tests/rooms/finished_rooms.rs).
    let snap = black.join(&room, JoinRole::Player).await;
    assert_eq!(snap.state, RoomState::Over);
}

#[tokio::test]
async fn closed_rooms_no_longer_count_against_a_connection() {
    let db = Db::sqlite();
    let config = server::Config {
        max_rooms_per_connection: 1,
        ..test_config()
    };
    let server = TestServer::start_on(&db, config).await;
    let mut watcher = server.client().await;
    let mut host = server.client().await;
    let snap = host.create(freestyle(), TimeControl::None).await;
    watcher.join(&snap.id, JoinRole::Spectator).await;
    let too_many = watcher
        .request(create_room(freestyle(), TimeControl::None))
        .await;
    assert!(
        matches!(too_many, protocol::ServerMessage::Error { code, .. } if code == "too_many_rooms")
    );
    // The host leaves: the room closes under the watcher, who may now open a room of its own.
    host.request(ClientMessage::Leave {
        room: snap.id.clone(),
    })
    .await;
    let _ = host.request(ClientMessage::Ping {}).await;
    let own = watcher.create(freestyle(), TimeControl::None).await;
    assert_eq!(own.state, RoomState::Waiting);
}
