//! Rating farming over real sockets: a rated game counts only once both sides moved, and only so many rated
//! games between the same two accounts count in a window.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, ColourChoice, GameResult, JoinRole, RoomEvent, ServerMessage};
use server::Config;
use store::UserId;

/// Two registered players at a rated table; `black` created it and holds black.
struct Rated {
    room: String,
    black: Client,
    white: Client,
    ids: [UserId; 2],
}

impl Rated {
    async fn open(server: &TestServer) -> Rated {
        let Registered {
            client: mut black,
            user_id: a,
            ..
        } = server.registered("alice").await;
        let Registered {
            client: mut white,
            user_id: b,
            ..
        } = server.registered("bob").await;
        let reply = black
            .request(ClientMessage::CreateRoom {
                rules: Some(freestyle()),
                game: None,
                time_control: protocol::TimeControl::None,
                rated: true,
                public: false,
                colour: ColourChoice::Black,
                rating_range: None,
            })
            .await;
        let ServerMessage::Room { room } = reply else {
            panic!("{reply:?}")
        };
        white.join(&room.id, JoinRole::Player).await;
        black
            .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
            .await;
        Rated {
            room: room.id,
            black,
            white,
            ids: [a, b],
        }
    }

    /// Places `stones` stones (black first), then black resigns; the result as white hears it.
    async fn play_and_resign(&mut self, stones: u32) -> GameResult {
        let room = self.room.clone();
        for ply in 1..=stones {
            let (mover, column) = if ply % 2 == 1 {
                (&mut self.black, "h")
            } else {
                (&mut self.white, "a")
            };
            mover
                .place(&room, &format!("{column}{}", ply.div_ceil(2)), ply)
                .await
                .expect("a stone");
        }
        self.black
            .act(ClientMessage::Resign { room: room.clone() })
            .await
            .expect("resigned");
        self.white.game_over().await
    }

    /// Both ask for a rematch; the colours change hands. Returns the new game's `unrated`.
    async fn rematch(&mut self) -> Option<String> {
        let room = self.room.clone();
        self.black
            .act(ClientMessage::OfferRematch { room: room.clone() })
            .await
            .expect("offered");
        let started = self
            .white
            .act(ClientMessage::OfferRematch { room })
            .await
            .expect("accepted");
        self.black
            .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
            .await;
        std::mem::swap(&mut self.black, &mut self.white);
        self.ids.swap(0, 1);
        match started {
            RoomEvent::GameStarted { unrated, .. } => unrated,
            other => panic!("{other:?}"),
        }
    }

    /// How many rated games the store counts for the player now holding black.
    async fn rated_games(&self, server: &TestServer) -> u32 {
        let standings = server.state.store.standings(self.ids[0]).await.unwrap();
        standings.iter().map(|s| s.games).sum()
    }
}

#[tokio::test]
async fn a_rated_game_resigned_before_both_sides_moved_is_aborted_and_leaves_ratings_alone() {
    let (server, _db) = TestServer::start().await;
    let mut t = Rated::open(&server).await;

    let result = t.play_and_resign(1).await;

    assert_eq!(result.reason, "aborted");
    assert_eq!(result.winner, None);
    assert_eq!(result.ratings, None);
    assert_eq!(result.unrated.as_deref(), Some("too_few_moves"));
    assert_eq!(t.rated_games(&server).await, 0);
}

#[tokio::test]
async fn a_rated_game_resigned_once_both_sides_moved_is_rated() {
    let (server, _db) = TestServer::start().await;
    let mut t = Rated::open(&server).await;

    let result = t.play_and_resign(2).await;

    assert_eq!(result.reason, "resign");
    assert!(result.ratings.is_some(), "{result:?}");
    assert_eq!(result.unrated, None);
    assert_eq!(t.rated_games(&server).await, 1);
}

#[tokio::test]
async fn a_draw_agreed_before_both_sides_moved_is_aborted() {
    let (server, _db) = TestServer::start().await;
    let mut t = Rated::open(&server).await;
    let room = t.room.clone();
    t.black.place(&room, "h8", 1).await.unwrap();
    t.black
        .act(ClientMessage::OfferDraw { room: room.clone() })
        .await
        .unwrap();

    t.white
        .act(ClientMessage::AnswerDraw { room, accept: true })
        .await
        .unwrap();

    let result = t.black.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.unrated.as_deref()),
        ("aborted", Some("too_few_moves"))
    );
    assert_eq!(t.rated_games(&server).await, 0);
}

#[tokio::test]
async fn a_casual_game_resigned_at_once_keeps_its_result() {
    let (server, _db) = TestServer::start().await;
    let mut t = Table::open(&server, freestyle(), protocol::TimeControl::None).await;

    t.black
        .act(ClientMessage::Resign {
            room: t.room.clone(),
        })
        .await
        .unwrap();

    let result = t.white.game_over().await;
    assert_eq!(result.reason, "resign");
    assert_eq!(result.unrated, None);
}

#[tokio::test]
async fn only_the_limit_of_rated_games_between_two_accounts_counts_in_the_window() {
    let db = Db::sqlite();
    let config = Config {
        rated_repeat_limit: 2,
        rated_repeat_window_secs: 3600,
        ..test_config()
    };
    let server = TestServer::start_on(&db, config).await;
    let mut t = Rated::open(&server).await;
    // An aborted game gives its place back.
    assert_eq!(t.play_and_resign(1).await.reason, "aborted");
    assert_eq!(t.rematch().await, None);
    assert!(t.play_and_resign(2).await.ratings.is_some());
    assert_eq!(t.rematch().await, None);
    assert!(t.play_and_resign(2).await.ratings.is_some());

    // The third within the hour is played unrated, and says so from the start.
    server.advance(Duration::from_secs(3599));
    assert_eq!(t.rematch().await.as_deref(), Some("repeated_pairing"));
    let third = t.play_and_resign(2).await;
    assert_eq!(third.reason, "resign");
    assert_eq!(third.ratings, None);
    assert_eq!(third.unrated.as_deref(), Some("repeated_pairing"));
    assert_eq!(t.rated_games(&server).await, 2);

    // An hour after the first counted game, one place is free again.
    server.advance(Duration::from_secs(1));
    assert_eq!(t.rematch().await, None);
    assert!(t.play_and_resign(2).await.ratings.is_some());
    assert_eq!(t.rated_games(&server).await, 3);
}

#[tokio::test]
async fn two_accounts_trading_quick_wins_never_reach_the_leaderboard() {
    let (server, _db) = TestServer::start().await;
    let mut t = Rated::open(&server).await;
    // The attack: game after game, each resigned at once (here after the two stones that make it count at all).
    // Sixteen rated games between two players settle both ratings enough for the leaderboard when all count.
    for game in 0..16 {
        // Paced under the connections' message rate limit.
        server.advance(Duration::from_secs(5));
        if game > 0 {
            t.rematch().await;
        }
        t.play_and_resign(2).await;
    }

    let (status, board) = server
        .get_json("/api/leaderboard?pool=freestyle&limit=50&offset=0")
        .await;

    assert_eq!(status, 200);
    assert_eq!(board["entries"], serde_json::json!([]));
    assert_eq!(
        t.rated_games(&server).await,
        3,
        "the default limit of a day"
    );
}
