//! Group commit of game writes: the moves, new games and results of many rooms made durable by one transaction.
//!
//! Every room must have its move committed before it announces it, but a transaction (and its fsync) per move
//! would serialise all rooms behind the disk. Rooms instead send their writes to one writer task, which takes
//! everything waiting (up to [`MAX_BATCH`]), writes it with one [`Store::write_batch`] call and then answers
//! each room. Under load a batch holds many rooms' moves; when idle a move is written alone without delay.
//! Starting and ending a game go the same way: on a busy server games start and end hundreds of times a second,
//! and as transactions of their own they took most of SQLite's commits (one writer, one fsync each). So do
//! takebacks: every write of a game's actions goes through the one write plan, and in a cluster through its fence.
//!
//! A store whose transactions can overlap ([`Store::batches_in_flight`] > 1, Postgres) gets the next batch
//! while earlier ones are still committing. That keeps each game's order: a room waits for each write's
//! answer before it sends the next, so a game has at most one write anywhere in the writer.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use tokio::task::{JoinHandle, JoinSet};

use crate::{Finish, Finished, GameId, NewGame, Store, StoreError, StoredAction, Write, Written};

/// The most actions written in one transaction.
pub(crate) const MAX_BATCH: usize = 512;

/// Requests waiting for the writer before [`BatchWriter::append`] itself waits (back-pressure on the rooms).
const QUEUE: usize = 4 * MAX_BATCH;

// Nearly every request is a write (most of them one move), a flush is rare: boxing the write to shrink the flush
// would allocate once per move instead.
#[allow(clippy::large_enum_variant)]
enum Request {
    Write {
        write: Write,
        reply: oneshot::Sender<Result<Written, StoreError>>,
    },
    Flush(oneshot::Sender<()>),
}

/// A cheap, cloneable handle to the writer task. The task ends once every handle is dropped, after writing
/// everything it was sent.
#[derive(Clone, Debug)]
pub struct BatchWriter {
    requests: mpsc::Sender<Request>,
    /// Told of every rated game this writer ends ([`BatchWriter::on_rated`]).
    rated: Option<mpsc::Sender<RatedEnd>>,
}

/// A rated game that a [`BatchWriter`] ended: its id and both players' rating changes (black's first).
pub type RatedEnd = (GameId, [crate::RatingChange; 2]);

fn stopped() -> StoreError {
    StoreError::Database("the batch writer has stopped".to_owned())
}

fn unexpected(answer: &Written) -> StoreError {
    StoreError::Database(format!("the store answered a write with {answer:?}"))
}

impl BatchWriter {
    /// Starts the writer task on the current tokio runtime.
    pub fn spawn(store: Arc<dyn Store>) -> BatchWriter {
        BatchWriter::spawn_with_task(store).0
    }

    /// Starts the writer task and also returns its join handle, for a graceful shutdown: drop every
    /// [`BatchWriter`], then await the handle to know the last batch is committed.
    pub fn spawn_with_task(store: Arc<dyn Store>) -> (BatchWriter, JoinHandle<()>) {
        let (requests, receiver) = mpsc::channel(QUEUE);
        let task = tokio::spawn(run(store, receiver));
        (
            BatchWriter {
                requests,
                rated: None,
            },
            task,
        )
    }

    /// Starts the writer on a thread of its own, polled by that thread, and returns its join handle
    /// (as [`BatchWriter::spawn_with_task`]). The server uses this: a batch is a chain of statements, each a hand-off
    /// to the database driver and back, and on the shared runtime every hand-back waited in the run queue behind
    /// the rooms and connections, so under load the chain, not the database, set the commit rate.
    pub fn spawn_on_own_thread(store: Arc<dyn Store>) -> (BatchWriter, JoinHandle<()>) {
        let (requests, receiver) = mpsc::channel(QUEUE);
        let (done, finished) = oneshot::channel::<()>();
        // The thread polls the writer itself, but on the caller's runtime (`Handle::block_on`): connections the
        // store opens from here belong to that runtime's I/O driver like all the others, so they stay usable
        // from anywhere (and after this thread ends). Batches written concurrently (Postgres) are spawned
        // onto that runtime. A plain thread, not `spawn_blocking`: a runtime being dropped waits for its
        // blocking tasks, and this one ends only when the last handle is dropped, wherever that handle lives.
        let runtime = tokio::runtime::Handle::current();
        let started = std::thread::Builder::new()
            .name("batch-writer".to_owned())
            .spawn(move || {
                runtime.block_on(run(store, receiver));
                drop(done);
            });
        if let Err(e) = started {
            // Every write is then answered with "the batch writer has stopped".
            tracing::error!(error = %e, "cannot start the batch writer's thread");
        }
        let task = tokio::spawn(async move {
            let _ = finished.await;
        });
        (
            BatchWriter {
                requests,
                rated: None,
            },
            task,
        )
    }

    /// Makes one action durable. Resolves once the transaction holding it has committed (so the move may be
    /// announced), or with the error of writing it: [`StoreError::OutOfOrder`] or [`StoreError::NoSuchGame`]
    /// concern this action only, never the other rooms' actions of the same batch.
    pub async fn append(&self, game: GameId, action: StoredAction) -> Result<(), StoreError> {
        self.write(Write::Append(game, action)).await.map(|_| ())
    }

    /// Records a game that starts now ([`Store::create_game`]) in the next batch, and returns its id once
    /// committed.
    pub async fn create_game(&self, game: NewGame) -> Result<GameId, StoreError> {
        match self.write(Write::Create(game)).await? {
            Written::Created(id) => Ok(id),
            other => Err(unexpected(&other)),
        }
    }

    /// Takes back a game's actions from seq `keep` on ([`Store::truncate_actions`]) in the next batch, once
    /// committed; [`StoreError::Fenced`] in cluster mode when this node no longer owns the game's room.
    pub async fn truncate_actions(&self, game: GameId, keep: u32) -> Result<(), StoreError> {
        match self.write(Write::Truncate(game, keep)).await? {
            Written::Truncated => Ok(()),
            other => Err(unexpected(&other)),
        }
    }

    /// Ends a game ([`Store::finish_game`]) in the next batch, once committed. A rated game's end is then
    /// told to [`BatchWriter::on_rated`]'s channel.
    pub async fn finish_game(
        &self,
        game: GameId,
        finish: Finish,
    ) -> Result<Option<Finished>, StoreError> {
        match self.write(Write::Finish(game, finish)).await? {
            Written::Finished(finished) => {
                self.tell_rated(game, finished.as_ref());
                Ok(finished)
            }
            other => Err(unexpected(&other)),
        }
    }

    /// This writer, telling `to` of every rated game it ends from now on (the server's fair-play job). The
    /// channel is bounded and never waited for: a full one loses the news, with a warning in the log.
    pub fn on_rated(mut self, to: mpsc::Sender<RatedEnd>) -> BatchWriter {
        self.rated = Some(to);
        self
    }

    fn tell_rated(&self, game: GameId, finished: Option<&Finished>) {
        let (Some(to), Some(changes)) =
            (&self.rated, finished.and_then(|f| f.rating_changes.clone()))
        else {
            return;
        };
        if let Err(e) = to.try_send((game, changes)) {
            tracing::warn!(game, error = %e, "a rated game's end was not passed on");
        }
    }

    async fn write(&self, write: Write) -> Result<Written, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Write { write, reply })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Waits until every action sent before this call has been written (or has failed).
    pub async fn flush(&self) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Flush(reply))
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())
    }
}

async fn run(store: Arc<dyn Store>, mut receiver: mpsc::Receiver<Request>) {
    let in_flight = store.batches_in_flight().max(1);
    let mut writes = JoinSet::new();
    let mut pending = Vec::with_capacity(MAX_BATCH);
    loop {
        while writes.try_join_next().is_some() {}
        if writes.len() >= in_flight {
            writes.join_next().await;
            continue;
        }
        // `recv_many` returns 0 only once every sender is gone and the queue is empty: nothing is left unwritten.
        if receiver.recv_many(&mut pending, MAX_BATCH).await == 0 {
            break;
        }
        let (batch, flushes) = split(&mut pending);
        if flushes.is_empty() && in_flight > 1 {
            writes.spawn(write(store.clone(), batch));
        } else {
            // Written right here: with one batch at a time (nothing is then in flight), so that on the writer's
            // own thread the whole chain of statements is polled by that thread and never waits in a runtime's
            // queue; and before answering a flush, which promises that everything sent before it is written,
            // including the batches still in flight.
            while writes.join_next().await.is_some() {}
            write(store.clone(), batch).await;
            for reply in flushes {
                let _ = reply.send(());
            }
        }
    }
    while writes.join_next().await.is_some() {}
}

/// The writes of the requests taken from the queue (with the rooms to answer), and the flushes among them.
type Batch = Vec<(Write, oneshot::Sender<Result<Written, StoreError>>)>;

fn split(pending: &mut Vec<Request>) -> (Batch, Vec<oneshot::Sender<()>>) {
    let mut batch = Vec::with_capacity(pending.len());
    let mut flushes = Vec::new();
    for request in pending.drain(..) {
        match request {
            Request::Write { write, reply } => batch.push((write, reply)),
            Request::Flush(reply) => flushes.push(reply),
        }
    }
    (batch, flushes)
}

async fn write(store: Arc<dyn Store>, batch: Batch) {
    if batch.is_empty() {
        return;
    }
    let (batch, mut replies): (Vec<_>, Vec<_>) = batch.into_iter().unzip();
    match store.write_batch(&batch).await {
        Ok(answers) if answers.len() == replies.len() => {
            for (reply, answer) in replies.into_iter().zip(answers) {
                // A room that stopped waiting no longer needs the answer.
                let _ = reply.send(Ok(answer));
            }
        }
        Ok(answers) => {
            // Not a store of this crate: answer nobody wrongly.
            let e = StoreError::Database(format!(
                "the store answered {} writes of {}",
                answers.len(),
                replies.len()
            ));
            for reply in replies {
                let _ = reply.send(Err(e.clone()));
            }
        }
        Err(e) if batch.len() == 1 => {
            if let Some(reply) = replies.pop() {
                let _ = reply.send(Err(e));
            }
        }
        Err(e) => {
            // The transaction rolled back as a whole; write each alone so that one room's bad write (or a
            // transient failure) is answered to that room only. Retrying is exact because nothing of the batch
            // was committed, and appends and takebacks are idempotent.
            tracing::warn!(error = %e, size = batch.len(), "batched write failed; writing one by one");
            for (item, reply) in batch.into_iter().zip(replies) {
                let answer = store
                    .write_batch(std::slice::from_ref(&item))
                    .await
                    .and_then(|mut a| {
                        a.pop().ok_or_else(|| {
                            StoreError::Database("the store answered no write".to_owned())
                        })
                    });
                let _ = reply.send(answer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use async_trait::async_trait;
    use tokio::sync::Notify;

    use super::*;
    use crate::{
        Finish, Finished, GameEnd, GameRecord, HistoryPoint, Millis, NewGame, PoolStanding,
        SessionOwner, User, UserId,
    };

    /// A store that records each `write_batch` call (`c` a creation, `f3` the end of game 3, `a3:7` seq 7 of
    /// game 3, `t3:2` a takeback of game 3 to two actions), holds the first one until released (so that requests
    /// pile up behind it), and refuses any batch holding an action with seq 999.
    #[derive(Default)]
    struct Recorder {
        calls: Mutex<Vec<Vec<String>>>,
        release: Notify,
        in_flight: usize,
    }

    fn unused() -> StoreError {
        StoreError::Database("not used by the batch writer".to_owned())
    }

    #[async_trait]
    impl Store for Recorder {
        async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Written>, StoreError> {
            let first = {
                let mut calls = self.calls.lock().unwrap();
                calls.push(
                    batch
                        .iter()
                        .map(|w| match w {
                            Write::Create(_) => "c".to_owned(),
                            Write::Append(g, a) => format!("a{g}:{}", a.seq),
                            Write::Finish(g, _) => format!("f{g}"),
                            Write::Truncate(g, keep) => format!("t{g}:{keep}"),
                        })
                        .collect(),
                );
                calls.len() == 1
            };
            if first {
                self.release.notified().await;
            }
            let mut next_id = 100;
            batch
                .iter()
                .map(|w| match w {
                    Write::Append(_, a) if a.seq == 999 => Err(StoreError::OutOfOrder),
                    Write::Append(..) => Ok(Written::Appended),
                    Write::Create(_) => {
                        next_id += 1;
                        Ok(Written::Created(next_id))
                    }
                    Write::Finish(..) => Ok(Written::Finished(None)),
                    Write::Truncate(..) => Ok(Written::Truncated),
                })
                .collect()
        }
        async fn append_actions(&self, _: &[(GameId, StoredAction)]) -> Result<(), StoreError> {
            Err(unused())
        }
        async fn create_game(&self, _: &NewGame) -> Result<GameId, StoreError> {
            Err(unused())
        }
        async fn truncate_actions(&self, _: GameId, _: u32) -> Result<(), StoreError> {
            Err(unused())
        }
        async fn finish_game(&self, _: GameId, _: &Finish) -> Result<Option<Finished>, StoreError> {
            Err(unused())
        }
        async fn game(&self, _: GameId) -> Result<Option<GameRecord>, StoreError> {
            Err(unused())
        }
        async fn game_by_public_id(&self, _: &str) -> Result<Option<GameRecord>, StoreError> {
            Err(unused())
        }
        async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
            Err(unused())
        }
        async fn create_user(&self, _: &str, _: &str, _: Millis) -> Result<User, StoreError> {
            Err(unused())
        }
        async fn user_by_name(&self, _: &str) -> Result<Option<User>, StoreError> {
            Err(unused())
        }
        async fn user_by_id(&self, _: UserId) -> Result<Option<User>, StoreError> {
            Err(unused())
        }
        async fn create_match(&self, _: &crate::NewMatch) -> Result<crate::MatchId, StoreError> {
            Err(unused())
        }
        async fn match_by_id(
            &self,
            _: crate::MatchId,
        ) -> Result<Option<crate::MatchRecord>, StoreError> {
            Err(unused())
        }
        async fn match_of_room(&self, _: &str) -> Result<Option<crate::MatchRecord>, StoreError> {
            Err(unused())
        }
        async fn match_games(&self, _: &str) -> Result<Vec<crate::MatchGame>, StoreError> {
            Err(unused())
        }
        async fn create_session(
            &self,
            _: &[u8],
            _: &SessionOwner,
            _: Millis,
        ) -> Result<(), StoreError> {
            Err(unused())
        }
        async fn session(&self, _: &[u8], _: Millis) -> Result<Option<SessionOwner>, StoreError> {
            Err(unused())
        }
        async fn create_guest_session(
            &self,
            _: &[u8],
            _: &crate::Guest,
            _: Millis,
            _: Millis,
        ) -> Result<bool, StoreError> {
            Err(unused())
        }
        async fn extend_session(&self, _: &[u8], _: Millis, _: Millis) -> Result<bool, StoreError> {
            Err(unused())
        }
        async fn live_guest(&self, _: &str, _: Millis) -> Result<Option<crate::Guest>, StoreError> {
            Err(unused())
        }
        async fn delete_session(&self, _: &[u8]) -> Result<(), StoreError> {
            Err(unused())
        }
        async fn set_password_hash(&self, _: UserId, _: &str) -> Result<(), StoreError> {
            Err(unused())
        }
        async fn user_by_skeleton(&self, _: &str) -> Result<Option<User>, StoreError> {
            Err(unused())
        }
        async fn delete_user_sessions(&self, _: UserId) -> Result<Vec<Vec<u8>>, StoreError> {
            Err(unused())
        }
        async fn delete_expired_sessions(&self, _: Millis) -> Result<u64, StoreError> {
            Err(unused())
        }
        async fn change_password(
            &self,
            _: UserId,
            _: &str,
            _: Option<&[u8]>,
        ) -> Result<Vec<Vec<u8>>, StoreError> {
            Err(unused())
        }
        async fn create_password_reset(
            &self,
            _: UserId,
            _: &[u8],
            _: Millis,
        ) -> Result<(), StoreError> {
            Err(unused())
        }
        async fn take_password_reset(
            &self,
            _: UserId,
            _: &[u8],
            _: Millis,
        ) -> Result<bool, StoreError> {
            Err(unused())
        }
        async fn standings(&self, _: UserId) -> Result<Vec<PoolStanding>, StoreError> {
            Err(unused())
        }
        async fn leaderboard(
            &self,
            _: ratings::Pool,
            _: &crate::BoardRule,
            _: u32,
            _: u32,
        ) -> Result<Vec<PoolStanding>, StoreError> {
            Err(unused())
        }
        async fn rating_history(&self, _: UserId) -> Result<Vec<HistoryPoint>, StoreError> {
            Err(unused())
        }
        async fn games_of(
            &self,
            _: UserId,
            _: Option<GameId>,
            _: u32,
        ) -> Result<Vec<GameRecord>, StoreError> {
            Err(unused())
        }
        async fn public_games_of(
            &self,
            _: UserId,
            _: Option<GameId>,
            _: u32,
        ) -> Result<Vec<GameRecord>, StoreError> {
            Err(unused())
        }
        async fn games_filtered(
            &self,
            _: UserId,
            _: Option<GameId>,
            _: u32,
            _: bool,
            _: &crate::GameFilter,
        ) -> Result<Vec<GameRecord>, StoreError> {
            Err(unused())
        }
        fn batches_in_flight(&self) -> usize {
            self.in_flight
        }
        async fn close(&self) {}
    }

    fn action(seq: u32) -> StoredAction {
        StoredAction {
            seq,
            text: "keep".to_owned(),
            ply: None,
            used_ms: 0,
            remaining_ms: None,
            at: 0,
        }
    }

    /// Appends seq `seq` of `game` from a room task of its own, which resolves with the writer's answer.
    fn append_from_room(
        writer: &BatchWriter,
        game: GameId,
        seq: u32,
    ) -> JoinHandle<Result<(), StoreError>> {
        let writer = writer.clone();
        tokio::spawn(async move { writer.append(game, action(seq)).await })
    }

    /// Lets the spawned tasks run until each is blocked (no timers: the runtime is single-threaded).
    async fn settle() {
        for _ in 0..100 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn requests_waiting_behind_a_write_go_out_together_in_the_next_one() {
        let store = Arc::new(Recorder::default());
        let writer = BatchWriter::spawn(store.clone());
        let first = append_from_room(&writer, 1, 0);
        settle().await;
        let rooms: Vec<_> = (2..=101)
            .map(|game| append_from_room(&writer, game, 0))
            .collect();
        settle().await;
        store.release.notify_one();
        first.await.unwrap().unwrap();
        for room in rooms {
            room.await.unwrap().unwrap();
        }
        let calls = store.calls.lock().unwrap().clone();
        assert_eq!(
            calls.len(),
            2,
            "one write for the first move, one for the hundred behind it"
        );
        assert_eq!(calls[1].len(), 100);
    }

    fn new_game() -> NewGame {
        let player = |name: &str| crate::PlayerRef {
            name: name.to_owned(),
            user_id: None,
        };
        NewGame {
            public_id: crate::new_public_id(),
            room: "r".to_owned(),
            kind: "gomoku".to_owned(),
            config: "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none".to_owned(),
            pool: ratings::Pool::new("gomoku", "freestyle"),
            time_control: "{}".to_owned(),
            public: false,
            rated: false,
            black: player("b"),
            white: player("w"),
            started_at: 0,
        }
    }

    fn end() -> Finish {
        Finish {
            end: GameEnd {
                winner: None,
                aborted: true,
                reason: "abandoned".to_owned(),
                ended_at: 0,
            },
            seats: crate::SeatsAtEnd::AsStarted,
            rater: crate::Rater(ratings::glicko2::rate_game),
        }
    }

    #[tokio::test]
    async fn games_created_ended_and_taken_back_share_the_commit_of_the_moves_waiting_with_them() {
        let store = Arc::new(Recorder::default());
        let writer = BatchWriter::spawn(store.clone());
        let first = append_from_room(&writer, 1, 0);
        settle().await;
        let created = tokio::spawn({
            let writer = writer.clone();
            async move { writer.create_game(new_game()).await }
        });
        let moved = append_from_room(&writer, 2, 5);
        let ended = tokio::spawn({
            let writer = writer.clone();
            async move { writer.finish_game(3, end()).await }
        });
        let taken_back = tokio::spawn({
            let writer = writer.clone();
            async move { writer.truncate_actions(4, 2).await }
        });
        settle().await;
        store.release.notify_one();
        first.await.unwrap().unwrap();
        assert_eq!(created.await.unwrap(), Ok(101));
        assert_eq!(moved.await.unwrap(), Ok(()));
        assert_eq!(ended.await.unwrap(), Ok(None));
        assert_eq!(taken_back.await.unwrap(), Ok(()));
        let calls = store.calls.lock().unwrap().clone();
        assert_eq!(calls, [vec!["a1:0"], vec!["c", "a2:5", "f3", "t4:2"]]);
    }

    #[tokio::test]
    async fn a_refused_batch_is_retried_one_by_one_so_only_the_bad_room_hears_of_it() {
        let store = Arc::new(Recorder::default());
        let writer = BatchWriter::spawn(store.clone());
        let first = append_from_room(&writer, 1, 0);
        settle().await;
        let good = append_from_room(&writer, 2, 0);
        let bad = append_from_room(&writer, 3, 999);
        let also_good = append_from_room(&writer, 4, 7);
        settle().await;
        store.release.notify_one();
        first.await.unwrap().unwrap();
        assert_eq!(good.await.unwrap(), Ok(()));
        assert_eq!(bad.await.unwrap(), Err(StoreError::OutOfOrder));
        assert_eq!(also_good.await.unwrap(), Ok(()));
        let calls = store.calls.lock().unwrap().clone();
        assert_eq!(calls[1], ["a2:0", "a3:999", "a4:7"]);
        assert_eq!(calls[2..], [["a2:0"], ["a3:999"], ["a4:7"]]);
    }

    #[tokio::test]
    async fn flush_returns_after_everything_sent_before_it_is_written() {
        let store = Arc::new(Recorder::default());
        let writer = BatchWriter::spawn(store.clone());
        let first = append_from_room(&writer, 1, 0);
        settle().await;
        let flushed = tokio::spawn({
            let writer = writer.clone();
            async move { writer.flush().await }
        });
        settle().await;
        assert!(!flushed.is_finished(), "the first write is still held");
        store.release.notify_one();
        flushed.await.unwrap().unwrap();
        first.await.unwrap().unwrap();
        assert_eq!(store.calls.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn with_two_batches_in_flight_the_next_commits_while_the_first_waits_but_flush_waits_for_both(
    ) {
        let store = Arc::new(Recorder {
            in_flight: 2,
            ..Recorder::default()
        });
        let writer = BatchWriter::spawn(store.clone());
        let first = append_from_room(&writer, 1, 0);
        settle().await;
        let second = append_from_room(&writer, 2, 0);
        settle().await;
        assert!(
            second.is_finished(),
            "the second batch did not wait for the first"
        );
        assert_eq!(second.await.unwrap(), Ok(()));
        let flushed = tokio::spawn({
            let writer = writer.clone();
            async move { writer.flush().await }
        });
        settle().await;
        assert!(!first.is_finished());
        assert!(
            !flushed.is_finished(),
            "flush waits for the batch still in flight"
        );
        store.release.notify_one();
        flushed.await.unwrap().unwrap();
        assert!(first.is_finished());
        first.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn the_task_ends_when_the_last_handle_is_dropped() {
        let store = Arc::new(Recorder::default());
        store.release.notify_one();
        let (writer, task) = BatchWriter::spawn_with_task(store.clone());
        writer.append(1, action(0)).await.unwrap();
        drop(writer);
        task.await.unwrap();
        assert_eq!(store.calls.lock().unwrap().len(), 1);
    }
}
