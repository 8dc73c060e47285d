//! A result is announced only once it is stored: a store that refuses to record a game's end, on demand.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use common::*;
use protocol::{ClientMessage, JoinRole, RoomEvent, RoomState, TimeControl};
use rules::Color;
use store::{
    Finish, Finished, GameEnd, GameId, GameRecord, Guest, HistoryPoint, Millis, NewGame,
    PoolStanding, SessionOwner, Store, StoreError, StoredAction, User, UserId, Write, Written,
};

/// The real store, except that while told to it refuses every write that ends a game (as a full disk or a lost
/// database connection would), and counts the refusals.
struct FlakyStore {
    inner: Arc<dyn Store>,
    failing: AtomicBool,
    refused: AtomicUsize,
}

impl FlakyStore {
    fn wrap(inner: Arc<dyn Store>) -> Arc<FlakyStore> {
        Arc::new(FlakyStore {
            inner,
            failing: AtomicBool::new(false),
            refused: AtomicUsize::new(0),
        })
    }

    fn fail_finishes(&self, fail: bool) {
        self.failing.store(fail, Ordering::SeqCst);
    }

    fn refused(&self) -> usize {
        self.refused.load(Ordering::SeqCst)
    }

    fn refuse(&self) -> Result<(), StoreError> {
        if self.failing.load(Ordering::SeqCst) {
            self.refused.fetch_add(1, Ordering::SeqCst);
            return Err(StoreError::Database(
                "the disk is full (on demand)".to_owned(),
            ));
        }
        Ok(())
    }
}

#[async_trait]
impl Store for FlakyStore {
    async fn create_game(&self, game: &NewGame) -> Result<GameId, StoreError> {
        self.inner.create_game(game).await
    }
    async fn append_actions(&self, batch: &[(GameId, StoredAction)]) -> Result<(), StoreError> {
        self.inner.append_actions(batch).await
    }
    async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Written>, StoreError> {
        if batch.iter().any(|w| matches!(w, Write::Finish(..))) {
            self.refuse()?;
        }
        self.inner.write_batch(batch).await
    }
    async fn truncate_actions(&self, game: GameId, keep: u32) -> Result<(), StoreError> {
        self.inner.truncate_actions(game, keep).await
    }
    async fn finish_game(
        &self,
        game: GameId,
        finish: &Finish,
    ) -> Result<Option<Finished>, StoreError> {
        self.refuse()?;
        self.inner.finish_game(game, finish).await
    }
    async fn game(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        self.inner.game(id).await
    }
    async fn game_by_public_id(&self, public_id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.inner.game_by_public_id(public_id).await
    }
    async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.inner.unfinished_games().await
    }
    async fn create_user(
        &self,
        name: &str,
        password_hash: &str,
        now: Millis,
    ) -> Result<User, StoreError> {
        self.inner.create_user(name, password_hash, now).await
    }
    async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        self.inner.user_by_name(name).await
    }
    async fn set_password_hash(&self, user: UserId, password_hash: &str) -> Result<(), StoreError> {
        self.inner.set_password_hash(user, password_hash).await
    }
    async fn user_by_skeleton(&self, name: &str) -> Result<Option<User>, StoreError> {
        self.inner.user_by_skeleton(name).await
    }
    async fn user_by_id(&self, id: UserId) -> Result<Option<User>, StoreError> {
        self.inner.user_by_id(id).await
    }
    async fn create_match(&self, new: &store::NewMatch) -> Result<store::MatchId, StoreError> {
        self.inner.create_match(new).await
    }
    async fn match_by_id(
        &self,
        id: store::MatchId,
    ) -> Result<Option<store::MatchRecord>, StoreError> {
        self.inner.match_by_id(id).await
    }
    async fn match_of_room(&self, room: &str) -> Result<Option<store::MatchRecord>, StoreError> {
        self.inner.match_of_room(room).await
    }
    async fn match_games(&self, room: &str) -> Result<Vec<store::MatchGame>, StoreError> {
        self.inner.match_games(room).await
    }
    async fn create_session(
        &self,
        token_hash: &[u8],
        owner: &SessionOwner,
        expires_at: Millis,
    ) -> Result<(), StoreError> {
        self.inner
            .create_session(token_hash, owner, expires_at)
            .await
    }
    async fn session(
        &self,
        token_hash: &[u8],
        now: Millis,
    ) -> Result<Option<SessionOwner>, StoreError> {
        self.inner.session(token_hash, now).await
    }
    async fn create_guest_session(
        &self,
        token_hash: &[u8],
        guest: &Guest,
        expires_at: Millis,
        now: Millis,
    ) -> Result<bool, StoreError> {
        self.inner
            .create_guest_session(token_hash, guest, expires_at, now)
            .await
    }
    async fn extend_session(
        &self,
        token_hash: &[u8],
        expires_at: Millis,
        now: Millis,
    ) -> Result<bool, StoreError> {
        self.inner.extend_session(token_hash, expires_at, now).await
    }
    async fn live_guest(&self, name: &str, now: Millis) -> Result<Option<Guest>, StoreError> {
        self.inner.live_guest(name, now).await
    }
    async fn delete_session(&self, token_hash: &[u8]) -> Result<(), StoreError> {
        self.inner.delete_session(token_hash).await
    }
    async fn delete_user_sessions(&self, user: UserId) -> Result<Vec<Vec<u8>>, StoreError> {
        self.inner.delete_user_sessions(user).await
    }
    async fn delete_expired_sessions(&self, now: Millis) -> Result<u64, StoreError> {
        self.inner.delete_expired_sessions(now).await
    }
    async fn change_password(
        &self,
        user: UserId,
        password_hash: &str,
        keep: Option<&[u8]>,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        self.inner.change_password(user, password_hash, keep).await
    }
    async fn create_password_reset(
        &self,
        user: UserId,
        code_hash: &[u8],
        expires_at: Millis,
    ) -> Result<(), StoreError> {
        self.inner
            .create_password_reset(user, code_hash, expires_at)
            .await
    }
    async fn take_password_reset(
        &self,
        user: UserId,
        code_hash: &[u8],
        now: Millis,
    ) -> Result<bool, StoreError> {
        self.inner.take_password_reset(user, code_hash, now).await
    }
    async fn standings(&self, user: UserId) -> Result<Vec<PoolStanding>, StoreError> {
        self.inner.standings(user).await
    }
    async fn leaderboard(
        &self,
        pool: ratings::Pool,
        rule: &store::BoardRule,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<PoolStanding>, StoreError> {
        self.inner.leaderboard(pool, rule, limit, offset).await
    }
    async fn rating_history(&self, user: UserId) -> Result<Vec<HistoryPoint>, StoreError> {
        self.inner.rating_history(user).await
    }
    async fn games_of(
        &self,
        user: UserId,
        before: Option<GameId>,
        limit: u32,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.inner.games_of(user, before, limit).await
    }
    async fn public_games_of(
        &self,
        user: UserId,
        before: Option<GameId>,
        limit: u32,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.inner.public_games_of(user, before, limit).await
    }
    async fn games_filtered(
        &self,
        user: UserId,
        before: Option<GameId>,
        limit: u32,
        private: bool,
        filter: &store::GameFilter,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.inner
            .games_filtered(user, before, limit, private, filter)
            .await
    }
    fn batches_in_flight(&self) -> usize {
        self.inner.batches_in_flight()
    }
    async fn close(&self) {
        self.inner.close().await
    }
}

/// A server on a fresh SQLite file whose store refuses game endings on demand.
async fn flaky_server(db: &Db) -> (TestServer, Arc<FlakyStore>) {
    let store = FlakyStore::wrap(store::open(&db.url).await.expect("open store"));
    let server = TestServer::start_with_store(store.clone(), test_config()).await;
    (server, store)
}

fn resign(room: &str) -> ClientMessage {
    ClientMessage::Resign { room: room.into() }
}

async fn stored_end(server: &TestServer, game: GameId) -> Option<GameEnd> {
    server
        .state
        .store
        .game(game)
        .await
        .expect("read the game")
        .expect("the game is stored")
        .end
}

/// Lets the room handle everything due on its (manual) clock.
async fn settle(server: &TestServer, room: &str) {
    let handle = server.state.rooms.get(room).expect("the room is open");
    assert!(handle.barrier().await, "the room task is running");
}

/// The game over `watcher` hears and the stored end agree: `reason`, won by `winner`.
async fn announced_and_stored(
    server: &TestServer,
    watcher: &mut Client,
    game_id: i64,
    reason: &str,
    winner: Color,
) {
    let result = watcher.game_over().await;
    assert_eq!(
        (result.reason.as_str(), result.winner),
        (reason, Some(winner))
    );
    let end = stored_end(server, game_id).await.expect("stored as ended");
    assert_eq!(
        (end.reason.as_str(), end.winner),
        (reason, Some(server::stored::side(winner)))
    );
}

#[tokio::test]
async fn a_resign_that_cannot_be_stored_is_refused_and_the_game_goes_on() {
    let db = Db::sqlite();
    let (server, store) = flaky_server(&db).await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "a1"], 1).await;

    store.fail_finishes(true);
    assert_eq!(
        t.black.act(resign(&t.room)).await.map(|_| ()),
        Err("internal".to_owned()),
        "a resign whose result is not stored is answered with internal"
    );
    assert_eq!(stored_end(&server, t.game_id).await, None);

    // Nobody heard of a game over: the next thing both hear is black's next stone.
    t.play(true, &["h9"], 3).await;
    loop {
        let (_, heard) = t.white.event().await;
        assert!(
            !matches!(heard, RoomEvent::GameOver { .. }),
            "white hears no result: {heard:?}"
        );
        if matches!(heard, RoomEvent::Move { ply: 3, .. }) {
            break;
        }
    }
    let mut watcher = server.client().await;
    let snap = watcher.join(&t.room, JoinRole::Spectator).await;
    assert_eq!((snap.state, snap.result), (RoomState::Playing, None));

    // Once the store recovers, resigning again ends the game, and the record says so.
    store.fail_finishes(false);
    let over = t
        .black
        .act(resign(&t.room))
        .await
        .expect("the resign is stored");
    assert!(matches!(over, RoomEvent::GameOver { .. }), "{over:?}");
    announced_and_stored(&server, &mut t.white, t.game_id, "resign", Color::White).await;
    server.stop().await;
}

#[tokio::test]
async fn a_five_whose_result_cannot_be_stored_is_announced_once_it_is_stored() {
    let db = Db::sqlite();
    let (server, store) = flaky_server(&db).await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4"], 1)
        .await;

    store.fail_finishes(true);
    // The winning stone itself is stored and announced; its result is not stored yet.
    t.play(true, &["h12"], 9).await;
    let (_, heard) = t
        .white
        .event_where(|e| matches!(e, RoomEvent::Move { ply: 9, .. }))
        .await;
    assert!(matches!(heard, RoomEvent::Move { .. }));
    assert_eq!(
        t.white.place(&t.room, "a5", 10).await.map(|_| ()),
        Err("result_pending".to_owned()),
        "no move is taken while the result is being stored"
    );
    assert_eq!(store.refused(), 1, "one attempt so far");
    assert_eq!(stored_end(&server, t.game_id).await, None);
    let mut watcher = server.client().await;
    let snap = watcher.join(&t.room, JoinRole::Spectator).await;
    assert_eq!(snap.result, None, "no result is shown before it is stored");

    // The room retries on its clock, not on its own.
    server.advance(Duration::from_secs(1));
    settle(&server, &t.room).await;
    assert_eq!(store.refused(), 2, "one more attempt once its time came");
    assert_eq!(stored_end(&server, t.game_id).await, None);

    store.fail_finishes(false);
    server.advance(Duration::from_secs(60));
    settle(&server, &t.room).await;
    for client in [&mut t.black, &mut t.white, &mut watcher] {
        let result = client.game_over().await;
        assert_eq!(
            (result.reason.as_str(), result.winner),
            ("five", Some(Color::Black))
        );
    }
    let end = stored_end(&server, t.game_id)
        .await
        .expect("stored as ended");
    assert_eq!(
        (end.reason.as_str(), end.winner),
        ("five", Some(store::Side::Black))
    );

    // Exactly one announcement: after the result, the next event is the chat line sent after it.
    server.advance(Duration::from_secs(60));
    settle(&server, &t.room).await;
    let chat = ClientMessage::Chat {
        room: t.room.clone(),
        text: "gg".into(),
    };
    t.black.act(chat).await.expect("chat after the game");
    for client in [&mut t.white, &mut watcher] {
        let (_, next) = client.event().await;
        assert!(matches!(next, RoomEvent::Chat { .. }), "{next:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_restart_after_a_refused_resign_resumes_the_game() {
    let db = Db::sqlite();
    let (server, store) = flaky_server(&db).await;
    let mut t = Table::open(&server, freestyle(), TimeControl::None).await;
    t.play(true, &["h8", "a1"], 1).await;
    store.fail_finishes(true);
    assert_eq!(
        t.black.act(resign(&t.room)).await.map(|_| ()),
        Err("internal".to_owned())
    );
    let token = t.black.token.clone();
    server.stop().await;

    let server = TestServer::start_on(&db, test_config()).await;
    let mut black = Client::hello(server.addr, Some(&token)).await;
    let snap = black.join(&t.room, JoinRole::Player).await;
    assert_eq!(snap.game_id, Some(t.game_id));
    assert_eq!((snap.state, snap.result), (RoomState::Playing, None));
    assert_eq!(snap.moves, ["h8", "a1"].map(p).to_vec());
    assert_eq!(snap.to_act, Some(Color::Black));
    black
        .place(&t.room, "h9", 3)
        .await
        .expect("the game goes on");
    server.stop().await;
}

#[tokio::test]
async fn a_forbidden_claim_that_cannot_be_stored_is_refused_and_can_be_made_again() {
    let db = Db::sqlite();
    let (server, store) = flaky_server(&db).await;
    let rules = common::rules(
        rules::RuleSet::Renju,
        rules::ForbiddenPolicy::Claim,
        rules::Opening::None,
    );
    let mut t = Table::open(&server, rules, TimeControl::None).await;
    // Black's h8 makes a double three, which white may claim.
    t.play(
        true,
        &["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7", "h8"],
        1,
    )
    .await;
    let claim = ClientMessage::ClaimForbidden {
        room: t.room.clone(),
    };

    store.fail_finishes(true);
    assert_eq!(
        t.white.act(claim.clone()).await.map(|_| ()),
        Err("internal".to_owned())
    );
    let record = server.state.store.game(t.game_id).await.unwrap().unwrap();
    assert_eq!(
        (record.actions.len(), record.end),
        (9, None),
        "the claim is withdrawn from the record too"
    );

    store.fail_finishes(false);
    let over = t.white.act(claim).await.expect("the claim is stored");
    assert!(matches!(over, RoomEvent::GameOver { .. }), "{over:?}");
    announced_and_stored(
        &server,
        &mut t.black,
        t.game_id,
        "forbidden_claimed",
        Color::White,
    )
    .await;
    server.stop().await;
}
