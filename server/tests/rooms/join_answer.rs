//! What `join` answers, as docs/protocol.md says: the room's snapshot, already showing the joiner seated and the
//! game started, and no `player_joined` or `game_started` of the joiner's own; the others get both events.

use crate::common;

use common::*;
use protocol::{JoinRole, RoomEvent, RoomState, ServerMessage, TimeControl};
use rules::Color;

#[tokio::test]
async fn a_join_is_answered_by_the_snapshot_and_the_others_get_the_events() {
    let (server, _db) = TestServer::start().await;
    let mut creator = server.client().await;
    let room = creator.create(freestyle(), TimeControl::None).await.id;
    let mut joiner = server.client().await;

    let snap = joiner.join(&room, JoinRole::Player).await;

    assert_eq!(snap.you, Some(Color::White));
    assert_eq!(snap.state, RoomState::Playing, "the join started the game");
    assert_eq!(
        snap.seats.white.as_ref().map(|s| s.id.clone()),
        Some(joiner.id.clone())
    );
    let (_, joined) = creator.event().await;
    assert!(
        matches!(
            joined,
            RoomEvent::PlayerJoined {
                colour: Color::White,
                ..
            }
        ),
        "{joined:?}"
    );
    let (_, started) = creator.event().await;
    assert!(
        matches!(started, RoomEvent::GameStarted { .. }),
        "{started:?}"
    );
    // The joiner's next frame is the creator's first move, not an event about its own join.
    creator.place(&room, "h8", 1).await.unwrap();
    match joiner.recv().await.msg {
        ServerMessage::Event {
            event: RoomEvent::Move { ply: 1, .. },
            ..
        } => {}
        other => panic!("the joiner got {other:?} before the first move"),
    }
}
