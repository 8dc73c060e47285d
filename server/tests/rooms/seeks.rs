//! Seeks with a rating range (issue #18): a waiting room admits to its free seat only players rated inside its
//! range (1500 for guests and players new to the pool); the lobby shows the range.

use crate::common;

use common::*;
use protocol::{code, ClientMessage, JoinRole, RatingRange, ServerMessage, TimeControl};

fn seek(range: Option<RatingRange>) -> ClientMessage {
    match create_room(freestyle(), TimeControl::None) {
        ClientMessage::CreateRoom {
            rules,
            game,
            time_control,
            rated,
            public,
            colour,
            ..
        } => ClientMessage::CreateRoom {
            rules,
            game,
            time_control,
            rated,
            public,
            colour,
            rating_range: range,
        },
        _ => unreachable!(),
    }
}

fn range(min: u16, max: u16) -> Option<RatingRange> {
    Some(RatingRange { min, max })
}

async fn open_seek(server: &TestServer, r: Option<RatingRange>) -> String {
    let mut creator = server.client().await;
    let id = match creator.request(seek(r)).await {
        ServerMessage::Room { room } => room.id,
        other => panic!("expected a room, got {other:?}"),
    };
    // The creator stays seated for the rest of the test.
    std::mem::forget(creator);
    id
}

async fn try_join(server: &TestServer, room: &str) -> ServerMessage {
    let mut c = server.client().await;
    c.request(ClientMessage::Join {
        room: room.into(),
        role: JoinRole::Player,
        since: None,
    })
    .await
}

#[tokio::test]
async fn only_ratings_inside_the_range_take_the_free_seat_and_its_bounds_are_inclusive() {
    let (server, _db) = TestServer::start().await;
    // A guest counts as 1500: just above the range, just below, and on both bounds.
    for (r, admitted) in [
        (range(1501, 2000), false),
        (range(1000, 1499), false),
        (range(1500, 1500), true),
        (range(1200, 1500), true),
        (range(1500, 1800), true),
    ] {
        let room = open_seek(&server, r).await;
        let reply = try_join(&server, &room).await;
        if admitted {
            assert!(
                matches!(reply, ServerMessage::Room { .. }),
                "{r:?}: {reply:?}"
            );
        } else {
            assert_eq!(error_code(reply), code::OUTSIDE_RATING_RANGE, "{r:?}");
        }
    }
}

#[tokio::test]
async fn a_spectator_watches_a_seek_whatever_the_range() {
    let (server, _db) = TestServer::start().await;
    let room = open_seek(&server, range(2000, 2400)).await;
    let mut watcher = server.client().await;
    let snap = watcher.join(&room, JoinRole::Spectator).await;
    assert_eq!(snap.id, room);
    // The seat stays free for someone inside the range.
    assert_eq!(
        error_code(try_join(&server, &room).await),
        code::OUTSIDE_RATING_RANGE
    );
}

#[tokio::test]
async fn a_range_out_of_order_or_over_the_ceiling_is_refused() {
    let (server, _db) = TestServer::start().await;
    let mut c = server.client().await;
    for bad in [range(1800, 1700), range(0, 4001), range(4001, 4001)] {
        assert_eq!(
            error_code(c.request(seek(bad)).await),
            code::BAD_RATING_RANGE,
            "{bad:?}"
        );
    }
    // The widest range is accepted.
    assert!(matches!(
        c.request(seek(range(0, RatingRange::CEILING))).await,
        ServerMessage::Room { .. }
    ));
}

#[tokio::test]
async fn the_lobby_shows_each_seeks_range_and_none_for_an_open_room() {
    let (server, _db) = TestServer::start().await;
    let ann = server.registered("Ann").await;
    let mut ann = ann.client;
    let ranged = match ann.request(seek(range(1300, 1700))).await {
        ServerMessage::Room { room } => room.id,
        other => panic!("expected a room, got {other:?}"),
    };
    let open = open_seek(&server, None).await;
    let (_, listed) = server.get_json("/api/rooms").await;
    let of = |id: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        of(&ranged)["rating_range"],
        serde_json::json!({"min": 1300, "max": 1700})
    );
    assert!(of(&open).get("rating_range").is_none());
    // The seeker's rating and tier are on the listing's player.
    assert_eq!(of(&ranged)["players"][0]["rating"], 1500.0);
    assert!(of(&ranged)["players"][0]["tier"].is_string());
}
