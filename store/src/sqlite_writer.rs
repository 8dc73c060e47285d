//! SQLite's game writes ([`crate::Store::write_batch`]) on a thread of their own that owns one connection.
//!
//! Through sqlx, every statement of a batch was a hand-off to sqlx's worker thread and back (a channel message
//! and a thread wake each way), and the batch's statements changed text with the number of games, so SQLite
//! parsed them again for every batch. Profiled at saturation (docs/benchmarks.md), that was a third of the
//! server's CPU per move. Here a batch is one hand-off: the thread runs it with statements prepared once and
//! cached (one row per statement: no parse, no statement journal), and answers once. What the batch writes is
//! decided by `write.rs`, as for the sqlx stores; this thread only runs its statements.
//!
//! The rest of the store (accounts, sessions, reads) stays on sqlx. Both write to the same file, so every write
//! transaction of the process takes the store's write gate first (`SqliteStore::begin_write`): they never meet
//! SQLite's busy lock, which would make one of them sleep. In-memory databases are one connection only, so they
//! keep the sqlx path.

use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc as std_mpsc;
use std::sync::Mutex;
use std::time::Duration;

use ratings::Rating;
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use tokio::sync::oneshot;

use crate::append::{self, Head, HeadCache, Retry, Row};
use crate::write::{
    self, EndColumns, Ended, GameColumns, HistoryRow, NewRating, Rated, RatingUpdate, Statements,
};
use crate::{codec, statements};
use crate::{GameId, Millis, StoreError, UserId, Write, Written};

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

/// A batch and where its answer goes.
type Job = (
    Vec<Write>,
    oneshot::Sender<Result<Vec<Written>, StoreError>>,
);

/// The handle to the writer thread.
pub(crate) struct SqliteWriter {
    jobs: Mutex<Option<std_mpsc::Sender<Job>>>,
    stopped: Mutex<Option<oneshot::Receiver<()>>>,
}

impl std::fmt::Debug for SqliteWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteWriter").finish_non_exhaustive()
    }
}

impl SqliteWriter {
    /// Opens a connection to the (migrated) database file at `path` and starts the thread.
    pub(crate) fn open(path: &Path, busy_timeout: Duration) -> Result<SqliteWriter, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(busy_timeout)?;
        // The same settings as the sqlx connections (see `sqlite.rs`); WAL is a property of the file, set when the
        // store opened it, so it is not set again here.
        conn.execute_batch(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;",
        )?;
        conn.set_prepared_statement_cache_capacity(32);
        let (jobs, rx) = std_mpsc::channel::<Job>();
        let (stopped_tx, stopped) = oneshot::channel();
        std::thread::Builder::new()
            .name("sqlite-writer".to_owned())
            .spawn(move || {
                let mut conn = conn;
                let sql = Sql::new();
                // The committed head (next seq) of each live game the thread has written: every write of
                // `actions`, takebacks included, goes through this thread.
                let cache = HeadCache::default();
                while let Ok((batch, reply)) = rx.recv() {
                    let _ = reply.send(write_batch(&mut conn, &sql, &cache, &batch));
                }
                // Closing the last connection checkpoints the WAL.
                drop(conn);
                let _ = stopped_tx.send(());
            })
            .map_err(|e| StoreError::Database(format!("cannot start the writer thread: {e}")))?;
        Ok(SqliteWriter {
            jobs: Mutex::new(Some(jobs)),
            stopped: Mutex::new(Some(stopped)),
        })
    }

    /// Runs one batch in one transaction on the writer thread (the caller holds the write gate).
    pub(crate) async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Written>, StoreError> {
        let (reply, answer) = oneshot::channel();
        let sent = match &*self.jobs.lock().expect("writer jobs lock") {
            Some(jobs) => jobs.send((batch.to_vec(), reply)).is_ok(),
            None => false,
        };
        if !sent {
            return Err(StoreError::Database("the store is closed".to_owned()));
        }
        answer
            .await
            .map_err(|_| StoreError::Database("the writer thread stopped".to_owned()))?
    }

    /// Stops the thread after the batches already sent and waits for its connection to close.
    pub(crate) async fn close(&self) {
        self.jobs.lock().expect("writer jobs lock").take();
        let stopped = self.stopped.lock().expect("writer stop lock").take();
        if let Some(stopped) = stopped {
            let _ = stopped.await;
        }
    }
}

/// Statement texts built once (the statement cache is keyed by text).
struct Sql {
    head: String,
    insert: String,
}

impl Sql {
    fn new() -> Sql {
        Sql {
            head: format!("{}= ?1", append::HEADS_SELECT),
            insert: format!(
                "{}VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                append::INSERT_COLUMNS
            ),
        }
    }
}

/// One batch in one `BEGIN IMMEDIATE` transaction, planned by `write.rs`; nothing is committed on any error.
fn write_batch(
    conn: &mut Connection,
    sql: &Sql,
    cache: &HeadCache,
    batch: &[Write],
) -> Result<Vec<Written>, StoreError> {
    if batch.is_empty() {
        return Ok(Vec::new());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let (answers, heads) = write::run_ready(write::write_batch(
        &mut Rusqlite { tx: &tx, sql },
        Some(cache),
        batch,
    ))?;
    tx.commit()?;
    cache.committed(heads, batch, &answers);
    Ok(answers)
}

/// The writer thread's statements: each a cached prepared statement, one row at a time (in process a statement
/// costs no round trip, and a fixed text is never parsed again). SQLite's one writer needs no row locks.
struct Rusqlite<'a> {
    tx: &'a Transaction<'a>,
    sql: &'a Sql,
}

impl Statements for Rusqlite<'_> {
    async fn insert_game(&mut self, g: &GameColumns<'_>) -> Result<GameId, StoreError> {
        let mut insert = self.tx.prepare_cached(statements::INSERT_GAME)?;
        Ok(insert.query_row(
            params![
                g.room,
                g.kind,
                g.config,
                g.pool,
                g.time_control,
                g.public,
                g.rated,
                g.black_name,
                g.black_user_id,
                g.white_name,
                g.white_user_id,
                g.started_at,
                g.public_id
            ],
            |row| row.get(0),
        )?)
    }

    async fn heads(&mut self, games: &[GameId]) -> Result<HashMap<GameId, Head>, StoreError> {
        let mut head = self.tx.prepare_cached(&self.sql.head)?;
        let mut heads = HashMap::with_capacity(games.len());
        for &game in games {
            let found = head
                .query_row([game], |row| {
                    Ok(Head {
                        next: row.get("next")?,
                    })
                })
                .optional()?;
            if let Some(found) = found {
                heads.insert(game, found);
            }
        }
        Ok(heads)
    }

    async fn stored_actions(
        &mut self,
        retries: &[Retry],
    ) -> Result<HashMap<(GameId, i64), String>, StoreError> {
        let mut read = self
            .tx
            .prepare_cached("SELECT action FROM actions WHERE game_id = ?1 AND seq = ?2")?;
        let mut stored = HashMap::with_capacity(retries.len());
        for retry in retries {
            let action: Option<String> = read
                .query_row(params![retry.game, retry.seq], |row| row.get(0))
                .optional()?;
            if let Some(action) = action {
                stored.insert((retry.game, retry.seq), action);
            }
        }
        Ok(stored)
    }

    async fn insert_actions(&mut self, rows: Vec<Row>) -> Result<(), StoreError> {
        let mut insert = self.tx.prepare_cached(&self.sql.insert)?;
        for row in &rows {
            insert.execute(params![
                row.game,
                row.seq,
                row.action,
                row.ply,
                row.used_ms,
                row.remaining_black_ms,
                row.remaining_white_ms,
                row.at
            ])?;
        }
        Ok(())
    }

    async fn delete_actions(&mut self, game: GameId, keep: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(statements::DELETE_ACTIONS_FROM)?
            .execute(params![game, keep])?;
        Ok(())
    }

    async fn end_game(
        &mut self,
        game: GameId,
        end: &EndColumns<'_>,
    ) -> Result<Option<Ended>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(statements::END_GAME)?
            .query_row(
                params![
                    end.ended_at,
                    end.winner,
                    end.aborted,
                    end.reason,
                    end.swapped,
                    game
                ],
                |row| {
                    Ok(Ended {
                        rated: row.get(0)?,
                        black_user_id: row.get(1)?,
                        white_user_id: row.get(2)?,
                        pool: row.get(3)?,
                    })
                },
            )
            .optional()?)
    }

    async fn game_exists(&mut self, game: GameId) -> Result<bool, StoreError> {
        let found: Option<GameId> = self
            .tx
            .prepare_cached(statements::GAME_EXISTS)?
            .query_row([game], |row| row.get(0))
            .optional()?;
        Ok(found.is_some())
    }

    async fn ensure_rating(&mut self, r: &NewRating<'_>) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(statements::ENSURE_RATING)?
            .execute(params![
                r.user,
                r.pool,
                r.rating.rating,
                r.rating.deviation,
                r.rating.volatility,
                r.tier,
                r.at
            ])?;
        Ok(())
    }

    async fn ratings_of(
        &mut self,
        pool: &str,
        [low, high]: [UserId; 2],
    ) -> Result<HashMap<UserId, Rated>, StoreError> {
        let mut read = self.tx.prepare_cached(statements::RATINGS_OF_TWO)?;
        let rows = read.query_map(params![pool, low, high], |row| {
            Ok((
                row.get::<_, UserId>(0)?,
                Rated {
                    rating: Rating::new(row.get(1)?, row.get(2)?, row.get(3)?),
                    standing: ratings::established::Standing {
                        games: codec::count(row.get(4)?),
                        established: row.get(5)?,
                        established_opponents: codec::count(row.get(6)?),
                    },
                },
            ))
        })?;
        let mut current = HashMap::new();
        for row in rows {
            let (user, rated) = row?;
            current.insert(user, rated);
        }
        Ok(current)
    }

    async fn established_in_pool(&mut self, pool: &str, limit: u32) -> Result<u32, StoreError> {
        let count: i64 = self
            .tx
            .prepare_cached(statements::ESTABLISHED_IN_POOL)?
            .query_row(params![pool, limit], |row| row.get(0))?;
        Ok(codec::count(count))
    }

    async fn add_established_opponent(
        &mut self,
        user: UserId,
        pool: &str,
        opponent: UserId,
    ) -> Result<bool, StoreError> {
        let added = self
            .tx
            .prepare_cached(statements::ADD_ESTABLISHED_OPPONENT)?
            .execute(params![user, pool, opponent])?;
        Ok(added == 1)
    }

    async fn update_rating(&mut self, u: &RatingUpdate<'_>) -> Result<(), StoreError> {
        let (win, loss, draw) = u.tally;
        self.tx
            .prepare_cached(statements::UPDATE_RATING)?
            .execute(params![
                u.after.rating,
                u.after.deviation,
                u.after.volatility,
                win,
                loss,
                draw,
                u.tier,
                u.at,
                u.established,
                u.established_opponents,
                u.user,
                u.pool
            ])?;
        Ok(())
    }

    async fn ensure_ladder(
        &mut self,
        user: UserId,
        game: &str,
        at: Millis,
    ) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(statements::ENSURE_LADDER)?
            .execute(params![user, game, at])?;
        Ok(())
    }

    async fn ladders_of(
        &mut self,
        game: &str,
        [low, high]: [UserId; 2],
    ) -> Result<HashMap<UserId, i64>, StoreError> {
        let mut read = self.tx.prepare_cached(statements::LADDERS_OF_TWO)?;
        let rows = read.query_map(params![game, low, high], |row| {
            Ok((row.get::<_, UserId>(0)?, row.get::<_, i64>(1)?))
        })?;
        let mut points = HashMap::new();
        for row in rows {
            let (user, p) = row?;
            points.insert(user, p);
        }
        Ok(points)
    }

    async fn update_ladder(
        &mut self,
        user: UserId,
        game: &str,
        points: i64,
        at: Millis,
    ) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(statements::UPDATE_LADDER)?
            .execute(params![points, at, user, game])?;
        Ok(())
    }

    async fn insert_rating_change(&mut self, h: &HistoryRow<'_>) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(statements::INSERT_RATING_CHANGE)?
            .execute(params![
                h.game,
                h.user,
                h.pool,
                h.before.rating,
                h.before.deviation,
                h.before.volatility,
                h.after.rating,
                h.after.deviation,
                h.after.volatility,
                h.tier,
                h.at
            ])?;
        Ok(())
    }
}
