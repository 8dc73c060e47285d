//! Server-side clocks: Fischer and byo-yomi, flag fall, driven by a hand-moved clock.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, RoomEvent, SideClock, TimeControl};
use rules::Color;
use server::Config;

fn clocks_of(e: &RoomEvent) -> protocol::Clocks {
    match e {
        RoomEvent::Move {
            clocks: Some(c), ..
        } => *c,
        other => panic!("no clocks in {other:?}"),
    }
}

#[tokio::test]
async fn fischer_adds_the_increment_and_the_flag_falls_at_zero() {
    let (server, _db) = TestServer::start().await;
    let tc = TimeControl::Fischer {
        base_ms: 10_000,
        increment_ms: 2_000,
    };
    let Table {
        room,
        mut black,
        mut white,
        game_id,
    } = Table::open(&server, freestyle(), tc).await;
    server.advance(Duration::from_secs(3));
    let moved = black.place(&room, "h8", 1).await.unwrap();
    let c = clocks_of(&moved);
    assert_eq!(c.black.remaining_ms, 9_000);
    assert_eq!(c.white.remaining_ms, 10_000);
    assert_eq!(c.running, Some(Color::White));

    server.advance(Duration::from_millis(9_999));
    let _ = white.request(ClientMessage::Ping {}).await;
    server.advance(Duration::from_millis(1));
    let result = black.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("timeout", Some(Color::Black))
    );
    // A move after the flag fell changes nothing.
    assert_eq!(white.place(&room, "a1", 2).await, Err("game_over".into()));
    let (_, record) = server.get_json(&format!("/api/games/{game_id}")).await;
    assert_eq!(record["result"]["reason"], "timeout");
    assert_eq!(record["actions"][0]["used_ms"], 3_000);
}

#[tokio::test]
async fn byo_yomi_keeps_a_period_used_in_time_and_flags_after_the_last() {
    let (server, _db) = TestServer::start().await;
    let tc = TimeControl::ByoYomi {
        base_ms: 2_000,
        periods: 2,
        period_ms: 3_000,
    };
    let Table {
        room,
        mut black,
        mut white,
        ..
    } = Table::open(&server, freestyle(), tc).await;
    // Black spends the main time and 2 s of the first period: the period is kept whole.
    server.advance(Duration::from_secs(4));
    let c = clocks_of(&black.place(&room, "h8", 1).await.unwrap());
    assert_eq!(
        c.black,
        SideClock {
            remaining_ms: 3_000,
            periods: Some(2),
            byo_yomi: true,
            first_move_ms: None,
        }
    );
    // White spends main time, one whole period and most of the next: one period is lost.
    server.advance(Duration::from_millis(2_000 + 3_000 + 2_900));
    let c = clocks_of(&white.place(&room, "a1", 2).await.unwrap());
    assert_eq!(
        c.white,
        SideClock {
            remaining_ms: 3_000,
            periods: Some(1),
            byo_yomi: true,
            first_move_ms: None,
        }
    );
    // Black lets both periods run out.
    server.advance(Duration::from_secs(3));
    let _ = black.request(ClientMessage::Ping {}).await;
    server.advance(Duration::from_secs(3));
    let result = white.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("timeout", Some(Color::White))
    );
}

#[tokio::test]
async fn clocks_follow_the_players_through_a_swap() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(
        rules::RuleSet::Renju,
        rules::ForbiddenPolicy::Reject,
        rules::Opening::SwapAfterThree,
    );
    let tc = TimeControl::Fischer {
        base_ms: 60_000,
        increment_ms: 0,
    };
    let Table {
        room,
        mut black,
        mut white,
        ..
    } = Table::open(&server, rules, tc).await;
    server.advance(Duration::from_secs(10));
    black.place(&room, "h8", 1).await.unwrap();
    white.place(&room, "h9", 2).await.unwrap();
    black.place(&room, "j10", 3).await.unwrap();
    let decided = white
        .act(ClientMessage::DecideSwap {
            room: room.clone(),
            swap: true,
        })
        .await
        .unwrap();
    let RoomEvent::SwapDecided {
        clocks: Some(c), ..
    } = decided
    else {
        panic!("{decided:?}")
    };
    // The creator used 10 s and now holds white.
    assert_eq!(c.white.remaining_ms, 50_000);
    assert_eq!(c.black.remaining_ms, 60_000);
    assert_eq!(c.running, Some(Color::White));
}

#[tokio::test]
async fn each_first_action_has_its_allowance_before_the_clock_runs() {
    let server = TestServer::start_fresh(Config {
        first_move_secs: 20,
        ..test_config()
    })
    .await;
    let tc = TimeControl::Fischer {
        base_ms: 10_000,
        increment_ms: 1_000,
    };
    let Table {
        room,
        mut black,
        mut white,
        game_id,
    } = Table::open(&server, freestyle(), tc).await;
    // 15 s into black's first move: the allowance runs, the main time does not.
    server.advance(Duration::from_secs(15));
    let mut watcher = server.client().await;
    let snap = watcher.join(&room, protocol::JoinRole::Spectator).await;
    let c = snap.clocks.expect("a clocked room");
    assert_eq!(
        (c.black.remaining_ms, c.black.first_move_ms),
        (10_000, Some(5_000))
    );
    assert_eq!(
        (c.white.remaining_ms, c.white.first_move_ms),
        (10_000, Some(20_000))
    );
    // Black moves 3 s past the allowance: charged 3 s, then the increment.
    server.advance(Duration::from_secs(8));
    let c = clocks_of(&black.place(&room, "h8", 1).await.unwrap());
    assert_eq!((c.black.remaining_ms, c.black.first_move_ms), (8_000, None));
    // White's first move inside its allowance costs nothing.
    server.advance(Duration::from_secs(19));
    let c = clocks_of(&white.place(&room, "a1", 2).await.unwrap());
    assert_eq!(
        (c.white.remaining_ms, c.white.first_move_ms),
        (11_000, None)
    );
    // From the second action on, the clock runs at once: black's flag falls 8 s later.
    server.advance(Duration::from_millis(7_999));
    let _ = white.request(ClientMessage::Ping {}).await;
    server.advance(Duration::from_millis(1));
    let result = white.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("timeout", Some(Color::White))
    );
    let (_, record) = server.get_json(&format!("/api/games/{game_id}")).await;
    assert_eq!(record["actions"][0]["used_ms"], 3_000);
    assert_eq!(record["actions"][1]["used_ms"], 0);
}

#[tokio::test]
async fn a_player_who_never_makes_a_first_move_flags_after_allowance_and_main_time() {
    let server = TestServer::start_fresh(Config {
        first_move_secs: 20,
        ..test_config()
    })
    .await;
    let tc = TimeControl::Fischer {
        base_ms: 10_000,
        increment_ms: 0,
    };
    let Table { mut white, .. } = Table::open(&server, freestyle(), tc).await;
    server.advance(Duration::from_millis(29_999));
    let _ = white.request(ClientMessage::Ping {}).await;
    server.advance(Duration::from_millis(1));
    let result = white.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        ("timeout", Some(Color::White))
    );
}
