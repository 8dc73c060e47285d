//! Challenges (#18): a named player's connections get the notice; accepting opens a room for both, declining tells
//! the challenger why; expiry, withdrawal, the opt-out setting over HTTP, the open-challenge bound, the cooldown
//! after a decline or a withdrawal, and the rate limits per challenger and per challenged player (#35).

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ChallengeView, ClientMessage, ColourChoice, ServerMessage, TimeControl};
use rules::Color;

fn challenge(to: &str) -> ClientMessage {
    ClientMessage::Challenge {
        to: to.into(),
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::Fischer {
            base_ms: 180_000,
            increment_ms: 2_000,
        },
        rated: false,
        colour: ColourChoice::White,
        games: None,
    }
}

fn answer(id: u64, accept: bool, reason: Option<&str>) -> ClientMessage {
    ClientMessage::AnswerChallenge {
        id,
        accept,
        reason: reason.map(str::to_owned),
    }
}

fn sent(reply: ServerMessage) -> ChallengeView {
    match reply {
        ServerMessage::Challenge { challenge } => challenge,
        other => panic!("expected a challenge, got {other:?}"),
    }
}

/// The next `challenge` notice, skipping other frames.
async fn notice(c: &mut Client) -> ChallengeView {
    loop {
        if let ServerMessage::Challenge { challenge } = c.recv().await.msg {
            return challenge;
        }
    }
}

/// The next `challenge_closed`: its reason, the decline's reason and the room.
async fn closed(c: &mut Client) -> (String, Option<String>, Option<String>) {
    loop {
        if let ServerMessage::ChallengeClosed {
            reason,
            decline,
            room,
            ..
        } = c.recv().await.msg
        {
            return (reason, decline, room);
        }
    }
}

async fn paired(c: &mut Client) -> (String, Color, String) {
    loop {
        if let ServerMessage::Paired {
            room,
            colour,
            opponent,
            ..
        } = c.recv().await.msg
        {
            return (room, colour, opponent);
        }
    }
}

async fn put_setting(server: &TestServer, token: &str, accept: &str) -> u16 {
    reqwest::Client::new()
        .put(server.url("/api/me/challenges"))
        .bearer_auth(token)
        .json(&serde_json::json!({ "accept": accept }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn every_connection_of_the_challenged_player_gets_the_notice_and_accepting_opens_the_room() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let bob = server.registered("bob").await;
    let mut bob1 = bob.client;
    let mut bob2 = Client::hello(server.addr, Some(&bob.token)).await;
    let c = sent(alice.request(challenge("bob")).await);
    assert_eq!(
        (c.from.as_str(), c.to.as_str(), c.from_guest),
        ("alice", "bob", false)
    );
    assert_eq!(c.expires_in_ms, 60_000);
    assert_eq!(notice(&mut bob1).await, c);
    assert_eq!(notice(&mut bob2).await, c);
    assert!(matches!(
        bob2.request(answer(c.id, true, None)).await,
        ServerMessage::Ack { .. }
    ));
    let (room_a, colour_a, opp_a) = paired(&mut alice).await;
    let (room_b, colour_b, opp_b) = paired(&mut bob2).await;
    assert_eq!(room_a, room_b);
    assert_eq!((colour_a, colour_b), (Color::White, Color::Black));
    assert_eq!((opp_a.as_str(), opp_b.as_str()), ("bob", "alice"));
    let (reason, _, room) = closed(&mut bob1).await;
    assert_eq!((reason.as_str(), room), ("accepted", Some(room_a.clone())));
    // The game runs: black (bob) moves.
    bob2.place(&room_a, "h8", 1).await.unwrap();
}

#[tokio::test]
async fn a_decline_tells_the_challenger_why_and_a_new_challenge_waits_a_minute() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let mut bob = server.registered("bob").await.client;
    let c = sent(alice.request(challenge("bob")).await);
    notice(&mut bob).await;
    assert_eq!(
        error_code(bob.request(answer(c.id, false, Some("because"))).await),
        "invalid_field"
    );
    assert!(matches!(
        bob.request(answer(c.id, false, Some("later"))).await,
        ServerMessage::Ack { .. }
    ));
    let (reason, decline, _) = closed(&mut alice).await;
    assert_eq!(
        (reason.as_str(), decline.as_deref()),
        ("declined", Some("later"))
    );
    assert_eq!(
        error_code(alice.request(challenge("bob")).await),
        "challenge_cooldown"
    );
    server.advance(Duration::from_millis(59_999));
    assert_eq!(
        error_code(alice.request(challenge("bob")).await),
        "challenge_cooldown"
    );
    server.advance(Duration::from_millis(1));
    sent(alice.request(challenge("bob")).await);
}

#[tokio::test]
async fn an_unanswered_challenge_expires_after_a_minute() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let mut bob = server.registered("bob").await.client;
    let c = sent(alice.request(challenge("bob")).await);
    notice(&mut bob).await;
    server.advance(Duration::from_secs(60));
    let (reason, _, _) = closed(&mut alice).await;
    assert_eq!(reason, "expired");
    assert_eq!(closed(&mut bob).await.0, "expired");
    assert_eq!(
        error_code(bob.request(answer(c.id, true, None)).await),
        "unknown_challenge"
    );
}

#[tokio::test]
async fn a_player_opening_later_sees_the_open_challenges_and_a_withdrawn_one_closes() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let bob = server.registered("bob").await;
    let c = sent(alice.request(challenge("bob")).await);
    let mut late = Client::hello(server.addr, Some(&bob.token)).await;
    assert_eq!(notice(&mut late).await.id, c.id);
    assert!(matches!(
        alice
            .request(ClientMessage::CancelChallenge { id: c.id })
            .await,
        ServerMessage::Ack { .. }
    ));
    assert_eq!(closed(&mut late).await.0, "cancelled");
    // Only the challenger withdraws, and only an open challenge.
    assert_eq!(
        error_code(
            alice
                .request(ClientMessage::CancelChallenge { id: c.id })
                .await
        ),
        "unknown_challenge"
    );
}

#[tokio::test]
async fn a_player_holds_at_most_three_open_challenges() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    for name in ["bob", "carol", "dave", "erin"] {
        server.registered(name).await;
    }
    for name in ["bob", "carol", "dave"] {
        sent(alice.request(challenge(name)).await);
    }
    assert_eq!(
        error_code(alice.request(challenge("erin")).await),
        "too_many_challenges"
    );
}

#[tokio::test]
async fn only_registered_players_other_than_oneself_can_be_challenged() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let guest = server.client().await;
    assert_eq!(
        error_code(alice.request(challenge("nobody")).await),
        "unknown_player"
    );
    assert_eq!(
        error_code(alice.request(challenge(&guest.name)).await),
        "unknown_player"
    );
    assert_eq!(
        error_code(alice.request(challenge("alice")).await),
        "unknown_player"
    );
}

#[tokio::test]
async fn a_player_can_refuse_challenges_from_guests_or_from_everyone() {
    let (server, _db) = TestServer::start().await;
    let bob = server.registered("bob").await;
    let mut alice = server.registered("alice").await.client;
    let mut guest = server.client().await;
    let (status, body) = server.get_json("/api/me/challenges").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_authenticated"))
    );
    assert_eq!(put_setting(&server, &bob.token, "sometimes").await, 400);

    assert_eq!(put_setting(&server, &bob.token, "accounts").await, 200);
    assert_eq!(
        error_code(guest.request(challenge("bob")).await),
        "challenges_refused"
    );
    let c = sent(alice.request(challenge("bob")).await);
    alice
        .request(ClientMessage::CancelChallenge { id: c.id })
        .await;

    assert_eq!(put_setting(&server, &bob.token, "none").await, 200);
    assert_eq!(
        error_code(alice.request(challenge("bob")).await),
        "challenges_refused"
    );
    let r = reqwest::Client::new()
        .get(server.url("/api/me/challenges"))
        .bearer_auth(&bob.token)
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["accept"],
        "none"
    );
}

#[tokio::test]
async fn a_guest_challenges_casually_only() {
    let (server, _db) = TestServer::start().await;
    server.registered("bob").await;
    let mut guest = server.client().await;
    let rated = ClientMessage::Challenge {
        to: "bob".into(),
        rules: Some(freestyle()),
        game: None,
        time_control: TimeControl::None,
        rated: true,
        colour: ColourChoice::Random,
        games: None,
    };
    assert_eq!(error_code(guest.request(rated).await), "account_required");
    let c = sent(guest.request(challenge("bob")).await);
    assert!(c.from_guest);
}

#[tokio::test]
async fn a_challenge_is_withdrawn_when_its_challenger_leaves() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let mut bob = server.registered("bob").await.client;
    let c = sent(alice.request(challenge("bob")).await);
    notice(&mut bob).await;
    alice.close().await;
    assert_eq!(closed(&mut bob).await.0, "cancelled");
    assert_eq!(
        error_code(bob.request(answer(c.id, true, None)).await),
        "unknown_challenge"
    );
}

// --- Floods (#35, item 6) ------------------------------------------------------------------------------------------

#[tokio::test]
async fn a_withdrawn_challenge_cannot_be_renewed_to_the_same_player_for_a_minute() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let mut bob = server.registered("bob").await.client;
    server.registered("carol").await;
    let c = sent(alice.request(challenge("bob")).await);
    notice(&mut bob).await;
    alice
        .request(ClientMessage::CancelChallenge { id: c.id })
        .await;
    assert_eq!(closed(&mut bob).await.0, "cancelled");
    assert_eq!(
        error_code(alice.request(challenge("bob")).await),
        "challenge_cooldown"
    );
    // Only the pair waits: another player can be challenged at once.
    sent(alice.request(challenge("carol")).await);
    server.advance(Duration::from_millis(59_999));
    assert_eq!(
        error_code(alice.request(challenge("bob")).await),
        "challenge_cooldown"
    );
    server.advance(Duration::from_millis(1));
    assert_eq!(sent(alice.request(challenge("bob")).await).to, "bob");
}

#[tokio::test]
async fn a_challenge_withdrawn_by_closing_its_socket_waits_like_a_cancelled_one() {
    let (server, _db) = TestServer::start().await;
    let alice = server.registered("alice").await;
    let mut bob = server.registered("bob").await.client;
    let mut tab = Client::hello(server.addr, Some(&alice.token)).await;
    sent(tab.request(challenge("bob")).await);
    notice(&mut bob).await;
    tab.close().await;
    assert_eq!(closed(&mut bob).await.0, "cancelled");
    let mut again = Client::hello(server.addr, Some(&alice.token)).await;
    assert_eq!(
        error_code(again.request(challenge("bob")).await),
        "challenge_cooldown"
    );
}

/// Registers `n` players named `{prefix}{i}`.
async fn players(server: &TestServer, prefix: &str, n: usize) -> Vec<String> {
    let mut names = Vec::new();
    for i in 0..n {
        let name = format!("{prefix}{i}");
        server.registered(&name).await;
        names.push(name);
    }
    names
}

#[tokio::test]
async fn a_challenger_sends_five_challenges_at_once_then_one_every_ten_seconds() {
    let (server, _db) = TestServer::start().await;
    let mut alice = server.registered("alice").await.client;
    let names = players(&server, "p", 7).await;
    // Five challenges to five players (cancelled as they go, so the open-challenge bound stays out of the way).
    for name in &names[..5] {
        let c = sent(alice.request(challenge(name)).await);
        alice
            .request(ClientMessage::CancelChallenge { id: c.id })
            .await;
    }
    assert_eq!(
        error_code(alice.request(challenge(&names[5])).await),
        "challenge_rate_limited"
    );
    server.advance(Duration::from_millis(9_999));
    assert_eq!(
        error_code(alice.request(challenge(&names[5])).await),
        "challenge_rate_limited"
    );
    server.advance(Duration::from_millis(1));
    sent(alice.request(challenge(&names[5])).await);
    assert_eq!(
        error_code(alice.request(challenge(&names[6])).await),
        "challenge_rate_limited"
    );
}

#[tokio::test]
async fn a_player_receives_ten_challenges_at_once_then_one_every_six_seconds() {
    let (server, _db) = TestServer::start().await;
    let mut bob = server.registered("bob").await.client;
    let mut guests = Vec::new();
    for _ in 0..12 {
        guests.push(server.client().await);
    }
    for g in &mut guests[..10] {
        sent(g.request(challenge("bob")).await);
    }
    assert_eq!(
        error_code(guests[10].request(challenge("bob")).await),
        "challenge_rate_limited"
    );
    server.advance(Duration::from_millis(5_999));
    assert_eq!(
        error_code(guests[10].request(challenge("bob")).await),
        "challenge_rate_limited"
    );
    server.advance(Duration::from_millis(1));
    let last = sent(guests[10].request(challenge("bob")).await);
    assert_eq!(
        error_code(guests[11].request(challenge("bob")).await),
        "challenge_rate_limited"
    );
    // The victim's tab got the ten, then the one after the refill: nothing refused reached it.
    for g in &guests[..10] {
        assert_eq!(notice(&mut bob).await.from, g.name);
    }
    assert_eq!(notice(&mut bob).await.id, last.id);
}
