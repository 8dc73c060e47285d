//! Whole games over real sockets, under each rule set, forbidden-move policy and opening rule.

use crate::common;

use common::*;
use protocol::{ClientMessage, JoinRole, RoomEvent, RoomPhase, ServerMessage, TimeControl};
use rules::{Color, ForbiddenKind, ForbiddenPolicy, Opening, RuleSet};

#[tokio::test]
async fn a_freestyle_game_is_won_by_five_in_a_row_and_stored() {
    let (server, _db) = TestServer::start().await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4"], 1)
        .await;
    let winning = t.black.place(&t.room, "h12", 9).await.unwrap();
    assert!(matches!(
        winning,
        RoomEvent::Move {
            to_act: None,
            phase: RoomPhase::None,
            ..
        }
    ));
    let result = t.black.game_over().await;
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(result.reason, "five");
    assert_eq!(
        result.line.unwrap(),
        ["h8", "h9", "h10", "h11", "h12"].map(p).to_vec()
    );
    assert_eq!(
        t.white.game_over().await.winner_name.as_deref(),
        Some(t.black.name.as_str())
    );

    let (status, record) = server.get_json(&format!("/api/games/{}", t.game_id)).await;
    assert_eq!(status, 200);
    assert_eq!(record["moves"].as_array().unwrap().len(), 9);
    assert_eq!(record["result"]["reason"], "five");
    assert_eq!(record["result"]["winner"], "black");
    assert_eq!(record["black"]["name"], t.black.name.as_str());
}

#[tokio::test]
async fn under_standard_rules_an_overline_does_not_win() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(RuleSet::Standard, ForbiddenPolicy::Reject, Opening::None);
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    // Black: h8 h9 h10 _ h12 h13, then h11 makes six.
    t.play(
        true,
        &[
            "h8", "a1", "h9", "a3", "h10", "a5", "h12", "a7", "h13", "a9",
        ],
        1,
    )
    .await;
    let six = t.black.place(&t.room, "h11", 11).await.unwrap();
    assert!(
        matches!(
            six,
            RoomEvent::Move {
                to_act: Some(Color::White),
                ..
            }
        ),
        "{six:?}"
    );
}

/// Black f8 g8 h6 h7, white far away: h8 then makes two open threes (a double three).
const DOUBLE_THREE_SETUP: [&str; 8] = ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"];

#[tokio::test]
async fn renju_lose_policy_ends_the_game_on_a_forbidden_move() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(RuleSet::Renju, ForbiddenPolicy::Lose, Opening::None);
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    t.play(true, &DOUBLE_THREE_SETUP, 1).await;
    t.black.place(&t.room, "h8", 9).await.unwrap();
    let result = t.white.game_over().await;
    assert_eq!(result.winner, Some(Color::White));
    assert_eq!(result.reason, "forbidden_move");
    let f = result.forbidden.unwrap();
    assert_eq!((f.point, f.kind), (p("h8"), ForbiddenKind::DoubleThree));
}

#[tokio::test]
async fn renju_reject_policy_refuses_a_forbidden_move_and_play_goes_on() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(RuleSet::Renju, ForbiddenPolicy::Reject, Opening::None);
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    t.play(true, &DOUBLE_THREE_SETUP[..7], 1).await;
    // White's move: black's forbidden points come with it.
    let before = t.white.place(&t.room, "a7", 8).await.unwrap();
    let RoomEvent::Move { forbidden, .. } = before else {
        panic!("{before:?}")
    };
    assert!(forbidden
        .iter()
        .any(|f| f.point == p("h8") && f.kind == ForbiddenKind::DoubleThree));
    assert_eq!(
        t.black.place(&t.room, "h8", 9).await,
        Err("forbidden_double_three".into())
    );
    // Nothing changed: the same ply is still black's to play.
    t.play(
        true,
        &["c12", "a9", "d12", "a11", "e12", "a13", "f12", "a15", "g12"],
        9,
    )
    .await;
    let result = t.black.game_over().await;
    assert_eq!(result.reason, "five");
    assert_eq!(result.winner, Some(Color::Black));
}

#[tokio::test]
async fn renju_claim_policy_lets_white_claim_a_forbidden_stone() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(RuleSet::Renju, ForbiddenPolicy::Claim, Opening::None);
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    t.play(true, &DOUBLE_THREE_SETUP, 1).await;
    let stands = t.black.place(&t.room, "h8", 9).await.unwrap();
    assert!(matches!(
        stands,
        RoomEvent::Move {
            claimable: Some(ForbiddenKind::DoubleThree),
            ..
        }
    ));
    let room = t.room.clone();
    let claim = t.white.send(ClientMessage::ClaimForbidden { room }).await;
    match t.white.reply_to(claim).await {
        ServerMessage::Event {
            event: RoomEvent::GameOver { result, .. },
            ..
        } => {
            assert_eq!(result.reason, "forbidden_claimed");
            assert_eq!(result.winner, Some(Color::White));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(t.black.game_over().await.reason, "forbidden_claimed");
}

#[tokio::test]
async fn renju_claim_lapses_when_white_plays_on() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(RuleSet::Renju, ForbiddenPolicy::Claim, Opening::None);
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    t.play(true, &DOUBLE_THREE_SETUP, 1).await;
    t.black.place(&t.room, "h8", 9).await.unwrap();
    t.white.place(&t.room, "a9", 10).await.unwrap();
    t.black.place(&t.room, "o15", 11).await.unwrap();
    let room = t.room.clone();
    assert_eq!(
        t.white.act(ClientMessage::ClaimForbidden { room }).await,
        Err("nothing_to_claim".into())
    );
}

#[tokio::test]
async fn swap_after_three_exchanges_the_players_colours() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(
        RuleSet::Renju,
        ForbiddenPolicy::Reject,
        Opening::SwapAfterThree,
    );
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    assert_eq!(
        t.black.place(&t.room, "a1", 1).await,
        Err("must_play_centre".into())
    );
    t.play(true, &["h8", "h9", "j10"], 1).await;
    let room = t.room.clone();
    // The white player decides to swap: they now hold black; the creator holds white and plays move 4.
    let decided = t
        .white
        .act(ClientMessage::DecideSwap {
            room: room.clone(),
            swap: true,
        })
        .await
        .unwrap();
    let RoomEvent::SwapDecided {
        swapped: true,
        black,
        white,
        to_act,
        ..
    } = decided
    else {
        panic!("{decided:?}")
    };
    assert_eq!(black, t.white.name);
    assert_eq!(white, t.black.name);
    assert_eq!(to_act, Some(Color::White));
    assert_eq!(
        t.white.place(&room, "g8", 4).await,
        Err("not_your_turn".into())
    );
    // From here the creator plays white (even plies), the joiner black (odd plies).
    t.play(true, &["a1", "k11", "a2", "g7", "a3", "i9"], 4)
        .await;
    let result = t.black.game_over().await;
    assert_eq!(result.reason, "five");
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(
        result.winner_name.unwrap(),
        t.white.name,
        "the joiner won with black"
    );
    let snap = t.black.join(&room, JoinRole::Player).await;
    assert!(snap.swapped);
    assert_eq!(snap.you, Some(Color::White));

    // The record names the players by the colours they held at the end, as the room did, and says who won.
    let record_id = snap.record.clone().expect("the game's record id");
    let (status, record) = server.get_json(&format!("/api/games/{record_id}")).await;
    assert_eq!(status, 200);
    assert_eq!(record["swapped"], true);
    assert_eq!(
        record["black"]["name"],
        t.white.name.as_str(),
        "the joiner swapped to black"
    );
    assert_eq!(record["white"]["name"], t.black.name.as_str());
    assert_eq!(record["result"]["winner"], "black");
    assert_eq!(record["result"]["winner_name"], t.white.name.as_str());
    assert_eq!(
        record["result"]["line"],
        serde_json::to_value(result.line.unwrap()).unwrap(),
        "the winning line, as game_over gave it"
    );
}

#[tokio::test]
async fn fifth_move_two_options_lets_white_choose() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(
        RuleSet::Renju,
        ForbiddenPolicy::Reject,
        Opening::SwapAfterThreeFifthTwoOptions,
    );
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    t.play(true, &["h8", "h9", "j10"], 1).await;
    let room = t.room.clone();
    t.white
        .act(ClientMessage::DecideSwap {
            room: room.clone(),
            swap: false,
        })
        .await
        .unwrap();
    t.white.place(&room, "g10", 4).await.unwrap();
    assert_eq!(
        t.black.place(&room, "k11", 5).await,
        Err("fifth_proposal_required".into())
    );
    let proposed = t
        .black
        .act(ClientMessage::ProposeFifth {
            room: room.clone(),
            points: [p("k11"), p("a1")],
        })
        .await
        .unwrap();
    assert!(matches!(proposed, RoomEvent::FifthProposed { .. }));
    assert_eq!(
        t.white
            .act(ClientMessage::ChooseFifth {
                room: room.clone(),
                point: p("b2")
            })
            .await,
        Err("not_a_fifth_option".into())
    );
    let chosen = t
        .white
        .act(ClientMessage::ChooseFifth {
            room: room.clone(),
            point: p("k11"),
        })
        .await
        .unwrap();
    assert!(matches!(
        chosen,
        RoomEvent::Move {
            colour: Color::Black,
            ply: 5,
            to_act: Some(Color::White),
            ..
        }
    ));
    // White (the joiner) plays on and wins along row 1.
    t.play(
        false,
        &["a1", "l12", "b1", "a15", "c1", "b15", "d1", "c15", "e1"],
        6,
    )
    .await;
    let result = t.black.game_over().await;
    assert_eq!(result.winner, Some(Color::White));
}

#[tokio::test]
async fn a_repeated_place_is_acknowledged_not_replayed_and_an_old_ply_is_stale() {
    let (server, _db) = TestServer::start().await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "a1"], 1).await;
    assert_eq!(t.black.place(&t.room, "h8", 1).await, Err("ack".into()));
    assert_eq!(
        t.white.place(&t.room, "h8", 1).await,
        Err("stale_ply".into())
    );
    assert_eq!(
        t.black.place(&t.room, "b2", 1).await,
        Err("stale_ply".into())
    );
    assert_eq!(
        t.black.place(&t.room, "b2", 7).await,
        Err("stale_ply".into())
    );
    let snap = t.black.join(&t.room.clone(), JoinRole::Player).await;
    assert_eq!(snap.moves, vec![p("h8"), p("a1")]);
}

#[tokio::test]
async fn a_rated_game_shows_ratings_on_the_seats_and_rating_changes_at_the_end() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let mut bob = server.registered("bob").await.client;
    assert_eq!(alice.name, "alice");
    let reply = alice
        .request(ClientMessage::CreateRoom {
            rules: Some(freestyle()),
            game: None,
            time_control: TimeControl::None,
            rated: true,
            public: true,
            colour: protocol::ColourChoice::Black,
            rating_range: None,
        })
        .await;
    let ServerMessage::Room { room } = reply else {
        panic!("{reply:?}")
    };
    let joined = bob.join(&room.id, JoinRole::Player).await;
    let seat = joined.seats.black.unwrap();
    assert_eq!((seat.name.as_str(), seat.guest), ("alice", false));
    assert_eq!(seat.rating, Some(1500.0));
    assert_eq!(seat.provisional, Some(true));
    // A new player's 1500 has its tier at once (issue #36), marked provisional.
    assert_eq!(seat.tier.as_deref(), Some("Amateur"));

    let id = room.id.clone();
    for (ply, (mover, point)) in [
        (true, "h8"),
        (false, "a1"),
        (true, "h9"),
        (false, "a2"),
        (true, "h10"),
        (false, "a3"),
        (true, "h11"),
        (false, "a4"),
        (true, "h12"),
    ]
    .into_iter()
    .enumerate()
    {
        let c = if mover { &mut alice } else { &mut bob };
        c.place(&id, point, ply as u32 + 1).await.unwrap();
    }
    let result = bob.game_over().await;
    let ratings = result.ratings.expect("a rated game reports rating changes");
    assert_eq!(ratings[0].name, "alice");
    assert_eq!(ratings[0].before, 1500.0);
    assert!(ratings[0].after > 1500.0 && ratings[1].after < 1500.0);
    assert!(ratings[0].tier.is_some());
    let after = alice.join(&id, JoinRole::Player).await;
    let alice_seat = after.seats.black.unwrap();
    assert_eq!(alice_seat.rating, Some(ratings[0].after.round()));
    // The result carries what the seat card shows now, so a client that saw it needs no new snapshot.
    assert_eq!(alice_seat.tier, ratings[0].tier);
    assert_eq!(alice_seat.provisional, ratings[0].provisional);
    assert_eq!(
        ratings[0].provisional,
        Some(true),
        "one game leaves a new player provisional"
    );
}

/// The answer to a request, as `Ok(version)` for an `ack` and `Err(reply)` for anything else.
async fn acked(client: &mut Client, msg: ClientMessage) -> Result<u64, ServerMessage> {
    match client.request(msg).await {
        ServerMessage::Ack {
            version: Some(v), ..
        } => Ok(v),
        other => Err(other),
    }
}

#[tokio::test]
async fn opening_decisions_are_safe_to_retry() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(
        RuleSet::Renju,
        ForbiddenPolicy::Reject,
        Opening::SwapAfterThreeFifthTwoOptions,
    );
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    t.play(true, &["h8", "h9", "j10"], 1).await;
    let room = t.room.clone();
    let swap = ClientMessage::DecideSwap {
        room: room.clone(),
        swap: false,
    };
    t.white.act(swap.clone()).await.unwrap();
    // The answer was lost; the same decision again is acknowledged at the room's version, and changes nothing.
    let (version, _) = t
        .black
        .event_where(|e| matches!(e, RoomEvent::SwapDecided { .. }))
        .await;
    assert_eq!(acked(&mut t.white, swap).await, Ok(version));
    assert_eq!(
        t.white
            .act(ClientMessage::DecideSwap {
                room: room.clone(),
                swap: true,
            })
            .await,
        Err("no_swap_pending".into()),
        "a different decision is no retry"
    );
    t.white.place(&room, "g10", 4).await.unwrap();
    let propose = ClientMessage::ProposeFifth {
        room: room.clone(),
        points: [p("k11"), p("a1")],
    };
    t.black.act(propose.clone()).await.unwrap();
    let (version, _) = t
        .white
        .event_where(|e| matches!(e, RoomEvent::FifthProposed { .. }))
        .await;
    assert_eq!(acked(&mut t.black, propose).await, Ok(version));
    let choose = ClientMessage::ChooseFifth {
        room: room.clone(),
        point: p("k11"),
    };
    t.white.act(choose.clone()).await.unwrap();
    let (version, _) = t
        .black
        .event_where(|e| matches!(e, RoomEvent::Move { ply: 5, .. }))
        .await;
    assert_eq!(acked(&mut t.white, choose).await, Ok(version));
    let snap = t.black.join(&room, JoinRole::Player).await;
    assert_eq!(snap.moves.len(), 5, "no retry played anything");
    assert!(!snap.swapped);
}

#[tokio::test]
async fn a_forbidden_claim_is_safe_to_retry_after_it_ended_the_game() {
    let (server, _db) = TestServer::start().await;
    let rules = common::rules(RuleSet::Renju, ForbiddenPolicy::Claim, Opening::None);
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    t.play(true, &DOUBLE_THREE_SETUP, 1).await;
    t.black.place(&t.room, "h8", 9).await.unwrap();
    let claim = ClientMessage::ClaimForbidden {
        room: t.room.clone(),
    };
    assert!(matches!(
        t.white.act(claim.clone()).await,
        Ok(RoomEvent::GameOver { .. })
    ));
    let (version, _) = t
        .black
        .event_where(|e| matches!(e, RoomEvent::GameOver { .. }))
        .await;
    assert_eq!(acked(&mut t.white, claim).await, Ok(version));
}
