//! The computer opponent (issue #17) over real sockets: a person plays it with the typed test client; the
//! computer sits in its seat through the server's own connection path.

use crate::common;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use common::*;
use engine::{Engine, Limits, TimeBudget};
use protocol::{
    ClientMessage, ColourChoice, GameSpec, JoinRole, OfferKind, OthelloScoring, RoomEvent,
    RoomSnapshot, RulesSpec, ServerMessage, TimeControl,
};
use rules::{Action, Color, Game, Point};
use server::{AppState, Config};
use testkit::game_table::rated;

fn play_computer(rules: RulesSpec, level: u8) -> ClientMessage {
    ClientMessage::PlayComputer {
        rules: Some(rules),
        game: None,
        time_control: TimeControl::None,
        public: false,
        colour: ColourChoice::Black,
        level,
        engine: None,
    }
}

/// The same `play_computer` under the time control `tc`.
fn with_tc(mut msg: ClientMessage, tc: TimeControl) -> ClientMessage {
    if let ClientMessage::PlayComputer { time_control, .. } = &mut msg {
        *time_control = tc;
    }
    msg
}

/// The same `play_computer` with the person holding `choice`.
fn with_colour(mut msg: ClientMessage, choice: ColourChoice) -> ClientMessage {
    if let ClientMessage::PlayComputer { colour, .. } = &mut msg {
        *colour = choice;
    }
    msg
}

/// The same `play_computer`, listed in the lobby.
fn listed(mut msg: ClientMessage) -> ClientMessage {
    if let ClientMessage::PlayComputer { public, .. } = &mut msg {
        *public = true;
    }
    msg
}

/// A server on the real clock (the computer's messages refill the rate limit as a person's do) with the computer
/// seeded.
async fn server(config: Config) -> TestServer {
    TestServer::start_real_time_fresh(Config {
        computer_seed: Some(17),
        ..config
    })
    .await
}

fn config() -> Config {
    test_config()
}

/// Starts a game against the computer: the snapshot, then the computer's seat as `game_started` shows it.
async fn start(c: &mut Client, msg: ClientMessage) -> (RoomSnapshot, protocol::Seat) {
    let snap = match c.request(msg).await {
        ServerMessage::Room { room } => room,
        other => panic!("expected the room, got {other:?}"),
    };
    let (_, started) = c
        .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;
    let RoomEvent::GameStarted { white, black, .. } = started else {
        unreachable!()
    };
    let computer = if snap.you == Some(Color::Black) {
        white
    } else {
        black
    };
    (snap, computer)
}

/// A new guest starts a casual freestyle game against the computer of `level` and holds black: the guest, the
/// snapshot and the computer's seat.
async fn guest_against(server: &TestServer, level: u8) -> (Client, RoomSnapshot, protocol::Seat) {
    let mut human = server.client().await;
    let (snap, computer) = start(&mut human, play_computer(freestyle(), level)).await;
    (human, snap, computer)
}

/// The person plays two stones, each answered by the computer, then resigns.
async fn two_stones_then_resign(human: &mut Client, room: &str) {
    human.place(room, "h8", 1).await.unwrap();
    next_move(human).await;
    human.place(room, "a1", 3).await.unwrap();
    next_move(human).await;
    human
        .act(ClientMessage::Resign {
            room: room.to_owned(),
        })
        .await
        .unwrap();
}

/// Waits (real time) until `cond` holds.
async fn until(what: &str, cond: impl Fn() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !cond() {
        assert!(Instant::now() < deadline, "{what} within {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The next move event (skipping others).
async fn next_move(c: &mut Client) -> (Color, Point, u32) {
    match c
        .event_where(|e| matches!(e, RoomEvent::Move { .. } | RoomEvent::GameOver { .. }))
        .await
        .1
    {
        RoomEvent::Move {
            colour, point, ply, ..
        } => (colour, point, ply),
        other => panic!("expected a move, got {other:?}"),
    }
}

fn searching(state: &AppState) -> bool {
    state
        .computer
        .pool()
        .stats()
        .running
        .load(Ordering::Relaxed)
        > 0
}

#[tokio::test]
async fn a_whole_game_against_level_1_is_played_to_its_end() {
    let server = server(config()).await;
    let (mut human, snap, computer) = guest_against(&server, 1).await;
    assert_eq!(
        computer.computer,
        Some(1),
        "the seat says computer, level 1"
    );
    assert_eq!(computer.name, "computer-1");
    assert!(!snap.rated, "games against the computer are unrated");
    // The person plays with a stronger engine of its own and the computer answers every move.
    let mut game = Game::new(freestyle().to_rules().unwrap());
    let mut mine = Engine::new(
        Limits {
            level: 5,
            max_nodes: Some(30_000),
            max_time: None,
        },
        3,
    );
    let result = loop {
        let Ok(decision) = mine.think(&game, &TimeBudget::Unlimited, &Default::default()) else {
            panic!("the game ended without game_over")
        };
        let Action::Place { point } = decision.action else {
            panic!("freestyle has only stones")
        };
        let ply = game.moves().len() as u32 + 1;
        human
            .place(&snap.id, &point.to_string(), ply)
            .await
            .expect("my stone");
        game.apply(decision.action).unwrap();
        match human
            .event_where(|e| matches!(e, RoomEvent::Move { .. } | RoomEvent::GameOver { .. }))
            .await
            .1
        {
            RoomEvent::Move {
                colour, point, ply, ..
            } => {
                assert_eq!(colour, Color::White);
                assert_eq!(ply as usize, game.moves().len() + 1);
                game.apply(Action::Place { point }).unwrap();
            }
            RoomEvent::GameOver { result, .. } => break result,
            _ => unreachable!(),
        }
        if let rules::Status::Won { .. } | rules::Status::Drawn = game.status() {
            break human.game_over().await;
        }
    };
    assert_eq!(result.reason, "five", "{result:?}");
    assert!(
        result.ratings.is_none(),
        "no rating changes against the computer"
    );
}

#[tokio::test]
async fn the_computer_accepts_a_takeback_in_a_casual_game() {
    let server = server(config()).await;
    let (mut human, snap, _) = guest_against(&server, 1).await;
    human.place(&snap.id, "h8", 1).await.unwrap();
    let (colour, _, ply) = next_move(&mut human).await;
    assert_eq!((colour, ply), (Color::White, 2));
    let asked = human
        .act(ClientMessage::RequestTakeback {
            room: snap.id.clone(),
        })
        .await
        .unwrap();
    assert!(matches!(
        asked,
        RoomEvent::Offered {
            offer: OfferKind::Takeback,
            ..
        }
    ));
    let (_, answered) = human
        .event_where(|e| matches!(e, RoomEvent::OfferAnswered { .. }))
        .await;
    assert!(
        matches!(
            answered,
            RoomEvent::OfferAnswered {
                offer: OfferKind::Takeback,
                by: Color::White,
                accept: true
            }
        ),
        "{answered:?}"
    );
    let (_, back) = human
        .event_where(|e| matches!(e, RoomEvent::TakenBack { .. }))
        .await;
    assert!(
        matches!(
            &back,
            RoomEvent::TakenBack {
                ply: 0,
                to_act: Some(Color::Black),
                ..
            }
        ),
        "my stone and the computer's reply are taken back: {back:?}"
    );
    // The game goes on from there.
    human.place(&snap.id, "j9", 1).await.unwrap();
    assert_eq!(next_move(&mut human).await.2, 2);
}

#[tokio::test]
async fn the_computer_leaves_when_its_human_leaves_and_the_room_closes() {
    let server = server(config()).await;
    let (mut human, snap, _) = guest_against(&server, 2).await;
    human.place(&snap.id, "h8", 1).await.unwrap();
    next_move(&mut human).await;
    assert_eq!(server.state.computer.games(), 1);
    let left = human
        .request(ClientMessage::Leave {
            room: snap.id.clone(),
        })
        .await;
    assert!(
        matches!(
            left,
            ServerMessage::Ack { .. } | ServerMessage::Event { .. }
        ),
        "{left:?}"
    );
    let rooms = server.state.rooms.clone();
    let id = snap.id.clone();
    until("the room closes", || rooms.get(&id).is_none()).await;
    let computer = server.state.computer.clone();
    until("the computer's game is over", || computer.games() == 0).await;
}

#[tokio::test]
async fn the_computer_leaves_a_finished_game_once_its_human_is_gone() {
    let server = server(Config {
        grace_secs: 1,
        ..config()
    })
    .await;
    let (mut human, snap, _) = guest_against(&server, 1).await;
    human
        .act(ClientMessage::Resign {
            room: snap.id.clone(),
        })
        .await
        .unwrap();
    human.close().await;
    let computer = server.state.computer.clone();
    until("the computer leaves", || computer.games() == 0).await;
    // The person's seat is kept for its grace period, as in any room; then the room closes.
    let rooms = server.state.rooms.clone();
    until("the room closes", || rooms.get(&snap.id).is_none()).await;
}

#[tokio::test]
async fn after_a_restart_the_computer_is_back_in_its_seat_and_plays_on() {
    let db = Db::sqlite();
    let cfg = Config {
        computer_seed: Some(17),
        ..test_config()
    };
    let server = TestServer::start_real_time(&db, cfg.clone()).await;
    let (mut human, snap, _) = guest_against(&server, 1).await;
    let token = human.token.clone();
    human.place(&snap.id, "h8", 1).await.unwrap();
    let (_, reply, _) = next_move(&mut human).await;
    drop(human);
    server.stop().await;

    let server = TestServer::start_real_time(&db, cfg).await;
    let mut human = Client::hello(server.addr, Some(&token)).await;
    let id = snap.id.clone();
    let computer_seated = |s: &RoomSnapshot| {
        s.seats
            .white
            .as_ref()
            .is_some_and(|w| w.computer == Some(1) && w.connected)
    };
    let mut back = human.join(&id, JoinRole::Player).await;
    let deadline = Instant::now() + WAIT;
    while !computer_seated(&back) {
        assert!(Instant::now() < deadline, "the computer sits down again");
        tokio::time::sleep(Duration::from_millis(20)).await;
        back = human.join(&id, JoinRole::Player).await;
    }
    assert_eq!(back.moves, vec![p("h8"), reply], "the game as it was");
    human.place(&id, "j10", 3).await.unwrap();
    let (colour, _, ply) = next_move(&mut human).await;
    assert_eq!((colour, ply), (Color::White, 4), "the computer plays on");
}

#[tokio::test]
async fn a_saturated_pool_refuses_new_games_with_computer_busy_and_a_resignation_cancels_the_search(
) {
    let server = server(Config {
        computer_threads: Some(1),
        computer_max_queued: 0,
        ..config()
    })
    .await;
    let mut first = server.client().await;
    let (snap, _) = start(&mut first, play_computer(freestyle(), 8)).await;
    first.place(&snap.id, "h8", 1).await.unwrap();
    let state = server.state.clone();
    until("the computer searches", || searching(&state)).await;

    let mut second = server.client().await;
    let busy = second.request(play_computer(freestyle(), 1)).await;
    assert_eq!(error_code(busy), "computer_busy");

    first
        .act(ClientMessage::Resign {
            room: snap.id.clone(),
        })
        .await
        .unwrap();
    // The pool counts a cancelled search before it leaves `running`: once nothing runs, the count is there.
    until("the search stops", || !searching(&state)).await;
    assert_eq!(
        state
            .computer
            .pool()
            .stats()
            .cancelled
            .load(Ordering::Relaxed),
        1,
        "one search, cancelled once"
    );
    let (again, _) = start(&mut second, play_computer(freestyle(), 1)).await;
    assert!(!again.rated);
}

#[tokio::test]
async fn the_games_limit_refuses_one_more_game_with_computer_busy() {
    let server = server(Config {
        computer_max_games: 1,
        ..config()
    })
    .await;
    let (status, before) = server.get_json("/api/computer").await;
    assert_eq!(status, 200);
    assert_eq!(before["busy"], false);
    assert_eq!(before["levels"].as_array().map(Vec::len), Some(8));
    assert_eq!(before["levels"][4]["en"], "Computer · level 5");
    assert_eq!(before["levels"][4]["zh"], "电脑 · 5级");
    let mut first = server.client().await;
    start(&mut first, play_computer(freestyle(), 1)).await;
    let mut second = server.client().await;
    let busy = second.request(play_computer(freestyle(), 1)).await;
    assert_eq!(error_code(busy), "computer_busy");
    let (_, after) = server.get_json("/api/computer").await;
    assert_eq!(after["busy"], true, "{after}");
    assert_eq!(after["games"], 1);
}

#[tokio::test]
async fn a_search_cancelled_by_a_takeback_is_never_played() {
    let server = server(config()).await;
    let mut human = server.client().await;
    // A minute of Fischer: the computer's allotment is about two seconds a move.
    let msg = with_tc(
        play_computer(freestyle(), 8),
        TimeControl::Fischer {
            base_ms: 60_000,
            increment_ms: 0,
        },
    );
    let (snap, _) = start(&mut human, msg).await;
    human.place(&snap.id, "h8", 1).await.unwrap();
    let state = server.state.clone();
    until("the computer searches", || searching(&state)).await;
    human
        .act(ClientMessage::RequestTakeback {
            room: snap.id.clone(),
        })
        .await
        .unwrap();
    // Everything up to the takeback: no move of the computer in between.
    loop {
        match human.event().await.1 {
            RoomEvent::TakenBack { ply, .. } => {
                assert_eq!(ply, 0);
                break;
            }
            RoomEvent::Move { colour, .. } => {
                assert_ne!(colour, Color::White, "the stale search was played")
            }
            _ => {}
        }
    }
    until("the stale search stops", || !searching(&state)).await;
    assert_eq!(
        state
            .computer
            .pool()
            .stats()
            .cancelled
            .load(Ordering::Relaxed),
        1
    );
    human.place(&snap.id, "c3", 1).await.unwrap();
    let (colour, point, ply) = next_move(&mut human).await;
    assert_eq!(
        (colour, ply),
        (Color::White, 2),
        "one reply, to the new position"
    );
    assert_ne!(point, p("c3"));
}

#[tokio::test]
async fn levels_outside_one_to_eight_are_refused_with_bad_level() {
    let server = server(config()).await;
    let mut human = server.client().await;
    for level in [0, 9, 255] {
        let reply = human.request(play_computer(freestyle(), level)).await;
        assert_eq!(error_code(reply), "bad_level", "level {level}");
    }
    let snap = human.create(freestyle(), TimeControl::None).await;
    let reply = human
        .request(ClientMessage::InviteComputer {
            room: snap.id.clone(),
            level: 0,
            engine: None,
        })
        .await;
    assert_eq!(error_code(reply), "bad_level");
    assert_eq!(server.state.computer.games(), 0);
    // Both ends of the range are levels.
    start(&mut server.client().await, play_computer(freestyle(), 8)).await;
    let reply = human
        .request(ClientMessage::InviteComputer {
            room: snap.id,
            level: 1,
            engine: None,
        })
        .await;
    assert!(matches!(reply, ServerMessage::Ack { .. }), "{reply:?}");
}

#[tokio::test]
async fn the_computer_is_invited_into_ones_waiting_room_and_plays_white() {
    let server = server(config()).await;
    let mut human = server.client().await;
    let snap = human.create(freestyle(), TimeControl::None).await;
    let mut stranger = server.client().await;
    let not_mine = stranger
        .request(ClientMessage::InviteComputer {
            room: snap.id.clone(),
            level: 3,
            engine: None,
        })
        .await;
    assert_eq!(error_code(not_mine), "not_a_player");
    let reply = human
        .request(ClientMessage::InviteComputer {
            room: snap.id.clone(),
            level: 3,
            engine: None,
        })
        .await;
    assert!(matches!(reply, ServerMessage::Ack { .. }), "{reply:?}");
    let (_, started) = human
        .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;
    let RoomEvent::GameStarted { white, .. } = started else {
        unreachable!()
    };
    assert_eq!(white.computer, Some(3));
    let full = human
        .request(ClientMessage::InviteComputer {
            room: snap.id.clone(),
            level: 3,
            engine: None,
        })
        .await;
    assert_eq!(error_code(full), "room_full");
    human.place(&snap.id, "h8", 1).await.unwrap();
    assert_eq!(next_move(&mut human).await.0, Color::White);
}

#[tokio::test]
async fn the_computer_is_not_invited_into_a_rated_room() {
    let server = server(config()).await;
    let mut human = server.registered("alice").await.client;
    let reply = human
        .request(rated(create_room(freestyle(), TimeControl::None)))
        .await;
    let ServerMessage::Room { room } = reply else {
        panic!("{reply:?}")
    };
    let reply = human
        .request(ClientMessage::InviteComputer {
            room: room.id,
            level: 3,
            engine: None,
        })
        .await;
    assert_eq!(error_code(reply), "casual_only");
}

#[tokio::test]
async fn the_computer_plays_black_and_opens_the_game_when_the_human_takes_white() {
    let server = server(config()).await;
    let mut human = server.client().await;
    let msg = with_colour(play_computer(freestyle(), 4), ColourChoice::White);
    let (snap, computer) = start(&mut human, msg).await;
    assert_eq!(snap.you, Some(Color::White));
    assert_eq!(computer.computer, Some(4));
    let (colour, _, ply) = next_move(&mut human).await;
    assert_eq!((colour, ply), (Color::Black, 1));
}

#[tokio::test]
async fn the_human_profile_lists_the_game_as_unrated_against_the_computer() {
    let server = server(config()).await;
    let registered = server.registered("bob").await;
    let token = registered.token.clone();
    let mut human = registered.client;
    let (private, _) = start(&mut human, play_computer(freestyle(), 2)).await;
    two_stones_then_resign(&mut human, &private.id).await;
    let (snap, _) = start(&mut human, listed(play_computer(freestyle(), 2))).await;
    two_stones_then_resign(&mut human, &snap.id).await;
    // Issue #36: a game against the computer is public (the default of `play_computer`): anyone reads it in the
    // player's list; one made private on purpose only its player does.
    let list_as = |token: Option<&str>| {
        let mut request = reqwest::Client::new().get(server.url("/api/players/bob/games"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        async move {
            let games: serde_json::Value = request.send().await.unwrap().json().await.unwrap();
            games["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["room"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(list_as(None).await, vec![snap.id.clone()]);
    assert_eq!(
        list_as(Some(&token)).await,
        [snap.id.clone(), private.id.clone()]
    );
    let answer = reqwest::Client::new()
        .get(server.url("/api/players/bob/games"))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let games: serde_json::Value = answer.json().await.unwrap();
    let list = games["games"]
        .as_array()
        .or(games.as_array())
        .cloned()
        .unwrap_or_default();
    let game = list.first().unwrap_or_else(|| panic!("one game: {games}"));
    assert_eq!(game["rated"], false);
    assert_eq!(game["white"]["computer"], 2, "{game}");
    assert_eq!(game["white"]["name"], "computer-2");
}

/// The person's side of a game, played by an engine of the test's own through the ordinary messages: follows the
/// room with a replica and acts whenever it is the person's turn, until the game ends or `plies` stones stand.
/// Returns the replica at the end and the game's result, if it ended.
async fn play_out(
    human: &mut Client,
    snap: &RoomSnapshot,
    level: u8,
    plies: usize,
) -> (client::Replica, Option<protocol::GameResult>) {
    // A fresh snapshot: `start` read the events after the first one.
    let snap = &human.join(&snap.id, JoinRole::Player).await;
    let mut replica = client::Replica::from_snapshot(snap, Some(&human.name)).unwrap();
    let mut mine = Engine::new(
        Limits {
            level,
            max_nodes: Some(5_000),
            max_time: None,
        },
        11,
    );
    let mut acted_at: Option<u32> = None;
    loop {
        if replica.next_ply() as usize > plies {
            return (replica, None);
        }
        let here = replica.next_at();
        if replica.my_turn() && acted_at != here {
            let Some(games::AnyGame::Gomoku(game)) = &replica.game else {
                panic!("a Gomoku room's replica holds its game: {replica:?}");
            };
            let decision = mine
                .think(
                    game.rules_game(),
                    &TimeBudget::Unlimited,
                    &Default::default(),
                )
                .unwrap();
            let msg = ClientMessage::Act {
                room: snap.id.clone(),
                action: <games::Gomoku as games::Game>::notation(&decision.action),
                at: here.expect("a game"),
            };
            human.send(msg).await;
            acted_at = here;
        }
        let msg = human.recv().await.msg;
        if std::env::var_os("SHOW_FRAMES").is_some() {
            eprintln!("{msg:?}");
        }
        match msg {
            ServerMessage::Event { version, event, .. } => {
                replica.apply(version, &event).unwrap();
                if let RoomEvent::GameOver { result, .. } = event {
                    return (replica, Some(result));
                }
            }
            ServerMessage::Error { code, message, .. } => panic!("refused: {code} {message}"),
            _ => {}
        }
    }
}

#[tokio::test]
async fn the_computer_plays_renju_through_the_swap_and_the_fifth_move_options() {
    let server = server(config()).await;
    for colour in [ColourChoice::Black, ColourChoice::White] {
        // The person's side follows the room with the typed client's replica: protocol version 2.
        let mut human = Client::hello_v2(server.addr).await;
        let renju = rules(
            rules::RuleSet::Renju,
            rules::ForbiddenPolicy::Reject,
            rules::Opening::SwapAfterThreeFifthTwoOptions,
        );
        let msg = with_colour(play_computer(renju, 3), colour);
        let (snap, _) = start(&mut human, msg).await;
        let (replica, result) = play_out(&mut human, &snap, 3, 9).await;
        assert!(
            replica.next_ply() >= 10 || result.is_some(),
            "the opening is played through: {replica:?}"
        );
    }
}

#[tokio::test]
async fn the_computer_never_loses_on_time_under_short_clocks() {
    let server = server(config()).await;
    for tc in [
        TimeControl::Fischer {
            base_ms: 5_000,
            increment_ms: 0,
        },
        TimeControl::ByoYomi {
            base_ms: 0,
            periods: 1,
            period_ms: 1_000,
        },
    ] {
        let mut human = server.client().await;
        let msg = with_tc(play_computer(freestyle(), 8), tc);
        let (snap, _) = start(&mut human, msg).await;
        let (_, result) = play_out(&mut human, &snap, 1, 24).await;
        if let Some(result) = result {
            assert!(
                !(result.reason == "timeout" && result.winner == Some(Color::Black)),
                "the computer lost on time under {tc:?}: {result:?}"
            );
        }
    }
}

#[tokio::test]
async fn the_computer_never_offers_a_rematch_but_accepts_one() {
    let server = server(config()).await;
    let (mut human, snap, _) = guest_against(&server, 1).await;
    two_stones_then_resign(&mut human, &snap.id).await;
    human
        .act(ClientMessage::OfferRematch {
            room: snap.id.clone(),
        })
        .await
        .unwrap();
    let mut offered_by_computer = false;
    loop {
        match human.event().await.1 {
            RoomEvent::Offered {
                by: Color::White, ..
            } => offered_by_computer = true,
            RoomEvent::GameStarted { black, .. } => {
                assert_eq!(
                    black.computer,
                    Some(1),
                    "colours exchanged: the computer opens"
                );
                break;
            }
            _ => {}
        }
    }
    assert!(!offered_by_computer);
    let (colour, _, ply) = next_move(&mut human).await;
    assert_eq!((colour, ply), (Color::Black, 1));
}

#[tokio::test]
async fn a_public_game_against_the_computer_is_listed_in_the_lobby_with_the_computer_flagged() {
    let server = server(config()).await;
    let mut human = server.client().await;
    let msg = listed(play_computer(freestyle(), 6));
    let (snap, _) = start(&mut human, msg).await;
    let deadline = Instant::now() + WAIT;
    loop {
        let (status, rooms) = server.get_json("/api/rooms").await;
        assert_eq!(status, 200);
        let listed = rooms
            .as_array()
            .and_then(|r| r.iter().find(|r| r["id"] == snap.id.as_str()).cloned());
        if let Some(room) = listed.filter(|r| r["players"].as_array().is_some_and(|p| p.len() == 2))
        {
            let computer = room["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["colour"] == "white")
                .cloned()
                .unwrap();
            assert_eq!(computer["computer"], 6, "{room}");
            assert!(
                computer.get("rating").is_none(),
                "no rating for the computer: {room}"
            );
            break;
        }
        assert!(Instant::now() < deadline, "listed in time: {rooms}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The next `action` event (skipping others): its count, colour and text.
async fn next_action(c: &mut Client) -> (u32, Color, String) {
    match c
        .event_where(|e| matches!(e, RoomEvent::Action { .. } | RoomEvent::GameOver { .. }))
        .await
        .1
    {
        RoomEvent::Action { at, by, action, .. } => (at, by, action),
        other => panic!("expected an action, got {other:?}"),
    }
}

fn modern(
    rule_set: rules::RuleSet,
    opening: rules::Opening,
    colour: ColourChoice,
) -> ClientMessage {
    ClientMessage::PlayComputer {
        rules: None,
        game: Some(GameSpec::Gomoku(protocol::GomokuSpec {
            size: 15,
            rule_set,
            forbidden_policy: rules::ForbiddenPolicy::Reject,
            opening,
        })),
        time_control: TimeControl::None,
        public: false,
        colour,
        level: 2,
        engine: None,
    }
}

async fn act(c: &mut Client, room: &str, action: &str, at: u32) {
    c.act(common::act(room, action, at))
        .await
        .unwrap_or_else(|code| panic!("{action} refused: {code}"));
}

#[tokio::test]
async fn under_soosorv_the_computer_lays_a_canonical_opening_and_answers_the_declaration_with_a_swap_decision(
) {
    let server = server(config()).await;
    let mut c = server.client().await;
    let (snap, _) = start(
        &mut c,
        modern(
            rules::RuleSet::Renju,
            rules::Opening::Soosorv { n: 8 },
            ColourChoice::White,
        ),
    )
    .await;
    let room = snap.id.clone();
    // The computer holds black: it places the three opening stones, one of the 26 canonical openings.
    let mut stones = Vec::new();
    for n in 0..3 {
        let (at, by, text) = next_action(&mut c).await;
        assert_eq!((at, by), (n, Color::Black), "{text}");
        stones.push(
            text.parse::<Point>()
                .unwrap_or_else(|_| panic!("a point, not {text}")),
        );
    }
    assert!(
        rules::name_opening(&stones, 15).is_some(),
        "{stones:?} is not a canonical opening"
    );
    // The person keeps white, plays move 4 far off and declares two offers; the computer decides a swap.
    act(&mut c, &room, "keep", 3).await;
    act(&mut c, &room, "a1", 4).await;
    act(&mut c, &room, "declare:2", 5).await;
    let (at, _, text) = next_action(&mut c).await;
    assert_eq!(at, 6);
    assert!(text == "swap" || text == "keep", "{text}");
    server.stop().await;
}

#[tokio::test]
async fn under_swap2_the_computer_answers_three_stones_with_a_colour_choice_and_plays_on() {
    let server = server(config()).await;
    let mut c = server.client().await;
    let (snap, _) = start(
        &mut c,
        modern(
            rules::RuleSet::Freestyle,
            rules::Opening::Swap2,
            ColourChoice::Black,
        ),
    )
    .await;
    let room = snap.id.clone();
    for (at, stone) in ["h8", "h9", "j10"].iter().enumerate() {
        act(&mut c, &room, stone, at as u32).await;
    }
    let (at, by, text) = next_action(&mut c).await;
    assert_eq!((at, by), (3, Color::White));
    assert!(text == "swap" || text == "keep", "{text}");
    // Whoever holds white now plays move 4: the computer when it kept white, the person when it took black.
    if text == "keep" {
        let (at, _, stone) = next_action(&mut c).await;
        assert_eq!(at, 4);
        assert!(stone.parse::<Point>().is_ok(), "{stone}");
    } else {
        act(&mut c, &room, "a1", 4).await;
        let (at, _, stone) = next_action(&mut c).await;
        assert_eq!(at, 5);
        assert!(stone.parse::<Point>().is_ok(), "{stone}");
    }
    server.stop().await;
}

/// Alice (black) and Bob (white) registered and seated at a rated freestyle game that has started: the room, and
/// both clients.
async fn rated_game(server: &TestServer) -> (String, Client, Client) {
    let mut alice = server.registered("alice").await.client;
    let mut bob = server.registered("bob").await.client;
    let reply = alice
        .request(rated(create_room(freestyle(), TimeControl::None)))
        .await;
    let ServerMessage::Room { room } = reply else {
        panic!("{reply:?}")
    };
    bob.join(&room.id, JoinRole::Player).await;
    alice
        .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
        .await;
    (room.id, alice, bob)
}

#[tokio::test]
async fn a_player_of_a_running_rated_game_gets_no_computer_until_it_ends() {
    let server = server(config()).await;
    let (room, mut alice, mut bob) = rated_game(&server).await;
    // Neither player, on any connection, may consult the computer while the rated game runs.
    assert_eq!(
        error_code(alice.request(play_computer(freestyle(), 8)).await),
        "in_rated_game"
    );
    assert_eq!(
        error_code(bob.request(play_computer(freestyle(), 8)).await),
        "in_rated_game"
    );
    let mut other_tab = Client::hello(server.addr, Some(&alice.token)).await;
    assert_eq!(
        error_code(other_tab.request(play_computer(freestyle(), 8)).await),
        "in_rated_game"
    );
    // Nor invite it into a casual room of their own.
    let reply = other_tab
        .request(create_room(freestyle(), TimeControl::None))
        .await;
    let ServerMessage::Room { room: casual } = reply else {
        panic!("{reply:?}")
    };
    let invite = ClientMessage::InviteComputer {
        room: casual.id,
        level: 8,
        engine: None,
    };
    assert_eq!(error_code(other_tab.request(invite).await), "in_rated_game");
    // Once the game is over, the computer is theirs again.
    let over = alice
        .act(ClientMessage::Resign { room: room.clone() })
        .await
        .unwrap();
    assert!(matches!(over, RoomEvent::GameOver { .. }), "{over:?}");
    start(&mut alice, play_computer(freestyle(), 1)).await;
    bob.game_over().await;
    start(&mut bob, play_computer(freestyle(), 1)).await;
}

#[tokio::test]
async fn a_rated_room_still_waiting_for_its_opponent_does_not_keep_the_computer_away() {
    let server = server(config()).await;
    let mut alice = server.registered("alice").await.client;
    let reply = alice
        .request(rated(create_room(freestyle(), TimeControl::None)))
        .await;
    assert!(matches!(reply, ServerMessage::Room { .. }), "{reply:?}");
    start(&mut alice, play_computer(freestyle(), 1)).await;
}

/// A game of `spec` against the computer at level 1, the person holding the first colour and always playing the
/// first of its listed actions, followed to its end: every one of the computer's actions is legal (the local game
/// applies it), the person is never kept waiting, and the result comes.
async fn played_to_the_end_against_the_computer(spec: GameSpec) -> (usize, protocol::GameResult) {
    use games::Game as _;
    // The person answers at once, every move: more messages a second than a person sends, not what is tested.
    let server = server(Config {
        msg_rate: 1000.0,
        msg_burst: 1000,
        ..config()
    })
    .await;
    let mut human = server.client().await;
    let (snap, _) = start(
        &mut human,
        ClientMessage::PlayComputer {
            rules: None,
            game: Some(spec),
            time_control: TimeControl::None,
            public: false,
            colour: ColourChoice::Black,
            level: 1,
            engine: None,
        },
    )
    .await;
    let room = snap.id.clone();
    let mut game = games::AnyGame::new(spec.to_config().unwrap(), games::Seat::Zero);
    // The person asked for Black: the first colour in Othello, the second in draughts (White, the computer,
    // opens there).
    let me = snap.you.expect("the person has a colour");
    if me != game.first_colour() {
        assert_eq!(me, Color::Black);
    }
    loop {
        if game.to_act() == Some(me) && game.forced().is_none() {
            let action = game.legal_actions().into_iter().next().unwrap();
            let at = game.action_count() as u32;
            // The reply is the person's own `action` event: the local game takes it here.
            act(&mut human, &room, &action.notation(), at).await;
            game.apply(action).unwrap();
            continue;
        }
        match human
            .event_where(|e| matches!(e, RoomEvent::Action { .. } | RoomEvent::GameOver { .. }))
            .await
            .1
        {
            RoomEvent::Action { at, action, .. } => {
                if at as usize == game.action_count() {
                    let a = game.parse_action(&action).unwrap();
                    game.apply(a)
                        .unwrap_or_else(|e| panic!("{action} at {at} is illegal: {e}"));
                }
            }
            RoomEvent::GameOver { result, .. } => return (game.action_count(), result),
            _ => unreachable!(),
        }
    }
}

#[tokio::test]
async fn the_computer_says_which_games_it_plays_and_their_strongest_levels() {
    let server = server(config()).await;
    let (status, view) = server.get_json("/api/computer").await;
    assert_eq!(status, 200);
    let plays: Vec<(String, u64)> = view["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["game"].as_str().unwrap().to_owned(),
                g["max_level"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        plays,
        [
            ("gomoku".into(), 8),
            ("othello".into(), 8),
            ("draughts".into(), 8),
            ("insect".into(), 4)
        ],
        "every game has a searching brain"
    );
}

#[tokio::test]
async fn othello_draughts_and_insect_chess_are_played_against_the_computer_to_their_end() {
    for spec in [
        GameSpec::Othello(protocol::OthelloSpec {
            scoring: OthelloScoring::Japanese,
        }),
        GameSpec::Draughts(protocol::DraughtsSpec {
            variant: protocol::DraughtsVariant::International,
        }),
        GameSpec::Insect(protocol::InsectSpec {}),
    ] {
        let (actions, result) = played_to_the_end_against_the_computer(spec).await;
        assert!(actions > 4, "{spec:?}: {actions} actions, {result:?}");
        assert!(
            !["resign", "timeout", "abandoned", "aborted"].contains(&result.reason.as_str()),
            "{spec:?} ended by the rules, not {result:?}"
        );
    }
}
