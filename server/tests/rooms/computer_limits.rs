//! Nobody can take the computer away from everyone (issue #35): a person idle against it loses the game (aborted,
//! as its games are casual) after the idle time, the computer leaves a finished game nobody rematches, each
//! player and each address plays only so many games against it at once, and a busy computer says when to try
//! again. The fair order of searches is tested on the pool itself (`server::computer::pool`).

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use protocol::{
    ClientMessage, ColourChoice, JoinRole, RoomEvent, RoomState, ServerMessage, TimeControl,
};
use rules::Color;
use server::Config;

fn play_computer(tc: TimeControl) -> ClientMessage {
    play(tc, ColourChoice::Black, 1)
}

fn play(tc: TimeControl, colour: ColourChoice, level: u8) -> ClientMessage {
    ClientMessage::PlayComputer {
        rules: Some(freestyle()),
        game: None,
        time_control: tc,
        public: false,
        colour,
        level,
        engine: None,
    }
}

/// Starts a game against the computer (the person at black): the room's id once the game has started.
async fn start(c: &mut Client, tc: TimeControl) -> String {
    let room = match c.request(play_computer(tc)).await {
        ServerMessage::Room { room } => room.id,
        other => panic!("expected the room, got {other:?}"),
    };
    c.event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;
    room
}

/// The refusal of one more `play_computer`: code, and `retry_after_ms`.
async fn refused(c: &mut Client) -> (String, Option<u64>) {
    match c.request(play_computer(TimeControl::None)).await {
        ServerMessage::Error {
            code,
            retry_after_ms,
            ..
        } => (code, retry_after_ms),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Waits (real time) until `cond` holds.
async fn until(what: &str, cond: impl Fn() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !cond() {
        assert!(Instant::now() < deadline, "{what} within {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A server on the hand-driven clock, the idle time 300 s, the computer seeded.
async fn idle_server(db: &Db) -> TestServer {
    TestServer::start_on(
        db,
        Config {
            idle_claim_secs: 300,
            computer_seed: Some(17),
            ..test_config()
        },
    )
    .await
}

/// Asks the room for a fresh snapshot: its state now (the room has handled everything before).
async fn state_of(c: &mut Client, room: &str) -> RoomState {
    c.join(room, JoinRole::Player).await.state
}

async fn idle_game_is_aborted(tc: TimeControl) {
    let db = Db::sqlite();
    let server = idle_server(&db).await;
    let mut human = server.client().await;
    let room = start(&mut human, tc).await;
    human.place(&room, "h8", 1).await.unwrap();
    human
        .event_where(|e| {
            matches!(
                e,
                RoomEvent::Move {
                    colour: Color::White,
                    ..
                }
            )
        })
        .await;

    // A move restarts the idle time; 299 s of it leave the game on.
    server.advance(Duration::from_secs(299));
    human.place(&room, "a1", 3).await.unwrap();
    human
        .event_where(|e| {
            matches!(
                e,
                RoomEvent::Move {
                    colour: Color::White,
                    ..
                }
            )
        })
        .await;
    server.advance(Duration::from_secs(299));
    assert_eq!(state_of(&mut human, &room).await, RoomState::Playing);

    server.advance(Duration::from_secs(1));
    let result = human.game_over().await;
    assert_eq!(
        (result.winner, result.reason.as_str()),
        (None, "aborted"),
        "{result:?}"
    );
    assert_eq!(state_of(&mut human, &room).await, RoomState::Over);
}

#[tokio::test]
async fn a_person_idle_against_the_computer_for_the_idle_time_has_the_game_aborted() {
    idle_game_is_aborted(TimeControl::None).await;
}

#[tokio::test]
async fn a_long_clock_does_not_let_a_person_hold_the_computer_for_hours() {
    // Three hours on the clock: the computer still stops waiting after the idle time.
    idle_game_is_aborted(TimeControl::Fischer {
        base_ms: 3 * 3600 * 1000,
        increment_ms: 0,
    })
    .await;
}

#[tokio::test]
async fn the_idle_time_counts_against_a_person_playing_white_too() {
    let db = Db::sqlite();
    let server = idle_server(&db).await;
    let mut human = server.client().await;
    let room = match human
        .request(play(TimeControl::None, ColourChoice::White, 1))
        .await
    {
        ServerMessage::Room { room } => room.id,
        other => panic!("{other:?}"),
    };
    // The computer opens; then the person is to act, and it is the person's idle time that counts.
    human
        .event_where(|e| {
            matches!(
                e,
                RoomEvent::Move {
                    colour: Color::Black,
                    ..
                }
            )
        })
        .await;
    server.advance(Duration::from_secs(299));
    assert_eq!(state_of(&mut human, &room).await, RoomState::Playing);
    server.advance(Duration::from_secs(1));
    assert_eq!(human.game_over().await.reason, "aborted");
}

#[tokio::test]
async fn the_computer_leaves_a_finished_game_nobody_rematches_after_the_idle_time() {
    let db = Db::sqlite();
    let server = idle_server(&db).await;
    let mut human = server.client().await;
    let room = start(&mut human, TimeControl::None).await;
    human
        .act(ClientMessage::Resign { room: room.clone() })
        .await
        .unwrap();
    let computer = server.state.computer.clone();
    assert_eq!(computer.games(), 1);

    server.advance(Duration::from_secs(299));
    // Nothing to wait for but the computer's own timer: give it a moment to (wrongly) leave.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        computer.games(),
        1,
        "the computer still waits for a rematch"
    );

    server.advance(Duration::from_secs(1));
    let (_, left) = human
        .event_where(|e| matches!(e, RoomEvent::PlayerLeft { .. }))
        .await;
    assert!(
        matches!(
            left,
            RoomEvent::PlayerLeft {
                colour: Color::White,
                ..
            }
        ),
        "{left:?}"
    );
    until("the computer's game is over", || computer.games() == 0).await;
    // The person is still there, and may play the computer again.
    let again = start(&mut human, TimeControl::None).await;
    assert_ne!(again, room);
}

#[tokio::test]
async fn a_rematch_within_the_idle_time_keeps_the_computer() {
    let db = Db::sqlite();
    let server = idle_server(&db).await;
    let mut human = server.client().await;
    let room = start(&mut human, TimeControl::None).await;
    human
        .act(ClientMessage::Resign { room: room.clone() })
        .await
        .unwrap();
    server.advance(Duration::from_secs(299));
    human
        .act(ClientMessage::OfferRematch { room: room.clone() })
        .await
        .unwrap();
    human
        .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;
    server.advance(Duration::from_secs(1));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(state_of(&mut human, &room).await, RoomState::Playing);
    assert_eq!(server.state.computer.games(), 1);
}

async fn caps_server(per_player: usize, per_ip: usize) -> TestServer {
    TestServer::start_real_time_fresh(Config {
        computer_seed: Some(17),
        computer_max_games_per_player: per_player,
        computer_max_games_per_ip: per_ip,
        ..test_config()
    })
    .await
}

#[tokio::test]
async fn a_player_plays_at_most_the_per_player_cap_of_games_against_the_computer() {
    let server = caps_server(2, 100).await;
    let mut human = server.client().await;
    let first = start(&mut human, TimeControl::None).await;
    start(&mut human, TimeControl::None).await;
    assert_eq!(
        refused(&mut human).await,
        ("too_many_computer_games".to_owned(), None),
        "the third game at once"
    );
    // Another player is not held back.
    let mut other = server.client().await;
    start(&mut other, TimeControl::None).await;
    // Once one game is over and the computer gone, there is room for one more.
    human
        .request(ClientMessage::Leave {
            room: first.clone(),
        })
        .await;
    let computer = server.state.computer.clone();
    let me = human.id.clone();
    until("the game is given back", || computer.games_of(&me) == 1).await;
    start(&mut human, TimeControl::None).await;
    assert_eq!(refused(&mut human).await.0, "too_many_computer_games");
}

#[tokio::test]
async fn an_address_plays_at_most_the_per_address_cap_of_games_whoever_asks() {
    // Every test client comes from 127.0.0.1.
    let server = caps_server(2, 4).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    let mut c = server.client().await;
    let a1 = start(&mut a, TimeControl::None).await;
    start(&mut a, TimeControl::None).await;
    start(&mut b, TimeControl::None).await;
    start(&mut b, TimeControl::None).await;
    assert_eq!(server.state.computer.games(), 4);
    assert_eq!(
        refused(&mut c).await,
        ("too_many_computer_games".to_owned(), None),
        "the fifth game from the address, from a player who has none"
    );
    // `invite_computer` counts the same way.
    let waiting = c.create(freestyle(), TimeControl::None).await;
    let invite = c
        .request(ClientMessage::InviteComputer {
            room: waiting.id.clone(),
            level: 1,
            engine: None,
        })
        .await;
    assert_eq!(error_code(invite), "too_many_computer_games");

    a.request(ClientMessage::Leave { room: a1 }).await;
    let computer = server.state.computer.clone();
    until("the game is given back", || computer.games() == 3).await;
    start(&mut c, TimeControl::None).await;
    assert_eq!(refused(&mut c).await.0, "too_many_computer_games");
}

#[tokio::test]
async fn a_full_games_limit_says_when_to_try_again() {
    let server = TestServer::start_real_time_fresh(Config {
        computer_seed: Some(17),
        computer_max_games: 1,
        ..test_config()
    })
    .await;
    let mut first = server.client().await;
    let room = start(&mut first, TimeControl::None).await;
    let mut second = server.client().await;
    let (code, retry) = refused(&mut second).await;
    assert_eq!(code, "computer_busy");
    assert_eq!(retry, Some(30_000), "no game ended yet: the first guess");

    // Once games have ended, the estimate follows how long they last, shared among those being played.
    first.request(ClientMessage::Leave { room }).await;
    let computer = server.state.computer.clone();
    until("the game is given back", || computer.games() == 0).await;
    start(&mut first, TimeControl::None).await;
    let (code, retry) = refused(&mut second).await;
    assert_eq!(code, "computer_busy");
    let retry = retry.expect("a retry-after");
    assert!((1_000..=300_000).contains(&retry), "{retry}");
}

#[tokio::test]
async fn a_saturated_computer_says_when_to_try_again() {
    let server = TestServer::start_real_time_fresh(Config {
        computer_seed: Some(17),
        computer_threads: Some(1),
        computer_max_queued: 0,
        ..test_config()
    })
    .await;
    let mut first = server.client().await;
    let room = match first
        .request(play(TimeControl::None, ColourChoice::Black, 8))
        .await
    {
        ServerMessage::Room { room } => room.id,
        other => panic!("{other:?}"),
    };
    first.place(&room, "h8", 1).await.unwrap();
    let computer = server.state.computer.clone();
    until("the computer searches", || computer.pool().saturated()).await;
    let mut second = server.client().await;
    let (code, retry) = refused(&mut second).await;
    assert_eq!(code, "computer_busy");
    let retry = retry.expect("a retry-after");
    assert!((1_000..=60_000).contains(&retry), "{retry}");
    first.act(ClientMessage::Resign { room }).await.unwrap();
}
