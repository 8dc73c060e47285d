//! SQLite's game writes ([`crate::Store::write_batch`]) on a thread of their own that owns one connection.
//!
//! Through sqlx, every statement of a batch was a hand-off to sqlx's worker thread and back (a channel message
//! and a thread wake each way), and the batch's statements changed text with the number of games, so SQLite
//! parsed them again for every batch. Profiled at saturation (docs/benchmarks.md), that was a third of the
//! server's CPU per move. Here a batch is one hand-off: the thread runs it with statements prepared once and
//! cached (one row per statement: no parse, no statement journal), and answers once.
//!
//! The rest of the store (accounts, sessions, reads) stays on sqlx. Both write to the same file, so every write
//! transaction of the process takes the store's write gate first (`SqliteStore::begin_write`): they never meet
//! SQLite's busy lock, which would make one of them sleep. In-memory databases are one connection only, so they
//! keep the sqlx path.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ratings::{glicko2, Pool, Rating, Tier};
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use tokio::sync::oneshot;

use crate::append::{self, Head, HeadCache};
use crate::{codec, ending, statements};
use crate::{
    Finished, GameEnd, GameId, Millis, NewGame, RatingChange, StoreError, StoredAction, UserId,
    Write, Written,
};

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

/// The committed head (next seq, stones on the board) of each live game the thread has written
/// ([`HeadCache`]): every write of `actions` goes through this thread except a takeback, which forgets its game
/// first ([`SqliteWriter::forget`]).
type Heads = Arc<HeadCache>;

/// The handle to the writer thread.
pub(crate) struct SqliteWriter {
    jobs: Mutex<Option<std_mpsc::Sender<Job>>>,
    stopped: Mutex<Option<oneshot::Receiver<()>>>,
    heads: Heads,
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
        let heads = Heads::default();
        let cache = heads.clone();
        std::thread::Builder::new()
            .name("sqlite-writer".to_owned())
            .spawn(move || {
                let mut conn = conn;
                let sql = Sql::new();
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
            heads,
        })
    }

    /// Drops a game's cached head (a takeback is about to delete some of its actions; the caller holds the write
    /// gate, so no batch runs meanwhile and the next one reads the head from the database).
    pub(crate) fn forget(&self, game: GameId) {
        self.heads.forget(game);
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
    finish: String,
}

impl Sql {
    fn new() -> Sql {
        Sql {
            head: format!("{}= ?1", append::HEADS_SELECT),
            insert: format!("{}VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", append::INSERT_COLUMNS),
            finish: "UPDATE games SET ended_at = ?1, winner = ?2, aborted = ?3, reason = ?4 \
                 WHERE id = ?5 AND ended_at IS NULL \
                 RETURNING board_size, rule_set, forbidden_policy, opening, rated, black_user_id, white_user_id"
                .to_owned(),
        }
    }
}

/// The same writes, in the same order, as the sqlx stores' `write_batch` (`common.rs`): creations, then the
/// appends, then the endings, answered in batch order; nothing is committed on any error.
fn write_batch(
    conn: &mut Connection,
    sql: &Sql,
    cache: &Heads,
    batch: &[Write],
) -> Result<Vec<Written>, StoreError> {
    if batch.is_empty() {
        return Ok(Vec::new());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut created = VecDeque::new();
    let mut appends = Vec::new();
    for w in batch {
        match w {
            Write::Create(game) => created.push_back(create(&tx, game)?),
            Write::Append(game, action) => appends.push((*game, action.clone())),
            Write::Finish(..) => {}
        }
    }
    let heads = if appends.is_empty() {
        HashMap::new()
    } else {
        append(&tx, sql, cache, &appends)?
    };
    let mut answers = Vec::with_capacity(batch.len());
    for w in batch {
        answers.push(match w {
            Write::Create(_) => {
                Written::Created(created.pop_front().ok_or_else(|| {
                    StoreError::Database("a created game went missing".to_owned())
                })?)
            }
            Write::Append(..) => Written::Appended,
            Write::Finish(game, end) => Written::Finished(finish(&tx, sql, *game, end)?),
        });
    }
    tx.commit()?;
    cache.committed(heads, batch, &answers);
    Ok(answers)
}

fn create(tx: &Transaction<'_>, game: &NewGame) -> Result<GameId, StoreError> {
    let (size, rule_set, policy, opening) = codec::rules_columns(&game.rules);
    let mut insert = tx.prepare_cached(statements::INSERT_GAME)?;
    Ok(insert.query_row(
        params![
            game.room,
            size,
            rule_set,
            policy,
            opening,
            game.time_control,
            game.public,
            game.rated,
            game.black.name,
            game.black.user_id,
            game.white.name,
            game.white.user_id,
            game.started_at,
            game.public_id
        ],
        |row| row.get(0),
    )?)
}

/// The checks of `append.rs` against each game's head (cached, or read), then one cached `INSERT` per row.
/// Returns the heads the batch leaves, for the cache once it is committed.
fn append(
    tx: &Transaction<'_>,
    sql: &Sql,
    cache: &Heads,
    batch: &[(GameId, StoredAction)],
) -> Result<HashMap<GameId, Head>, StoreError> {
    let (mut heads, unknown) = cache.lookup(batch);
    if !unknown.is_empty() {
        let mut head = tx.prepare_cached(&sql.head)?;
        for game in unknown {
            let found = head
                .query_row([game], |row| {
                    Ok(Head {
                        next: row.get("next")?,
                        stones: row.get("stones")?,
                    })
                })
                .optional()?;
            if let Some(found) = found {
                heads.insert(game, found);
            }
        }
    }
    let append::Plan { rows, retries } = append::plan(batch, &heads)?;
    if !retries.is_empty() {
        let mut read =
            tx.prepare_cached("SELECT action FROM actions WHERE game_id = ?1 AND seq = ?2")?;
        let mut stored = HashMap::with_capacity(retries.len());
        for retry in &retries {
            let action: Option<String> = read
                .query_row(params![retry.game, retry.seq], |row| row.get(0))
                .optional()?;
            if let Some(action) = action {
                stored.insert((retry.game, retry.seq), action);
            }
        }
        append::check_retries(&retries, &stored)?;
    }
    let mut insert = tx.prepare_cached(&sql.insert)?;
    for row in &rows {
        insert.execute(params![
            row.game,
            row.seq,
            row.action,
            row.ply,
            row.point,
            row.used_ms,
            row.remaining_black_ms,
            row.remaining_white_ms,
            row.at
        ])?;
    }
    append::advance(&mut heads, &rows);
    Ok(heads)
}

/// What ending needs of the game row the `UPDATE` returns.
struct Ended {
    swaps: bool,
    rated: bool,
    black: Option<UserId>,
    white: Option<UserId>,
    pool: Pool,
}

/// Ends a game exactly once (the conditional `UPDATE` is the gate, as in `common.rs`) and rates it when due.
fn finish(
    tx: &Transaction<'_>,
    sql: &Sql,
    game: GameId,
    end: &GameEnd,
) -> Result<Option<Finished>, StoreError> {
    let winner = if end.aborted {
        None
    } else {
        end.winner.map(codec::color_text)
    };
    let ended = tx
        .prepare_cached(&sql.finish)?
        .query_row(
            params![end.ended_at, winner, end.aborted, end.reason, game],
            |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, bool>(4)?,
                    row.get::<_, Option<UserId>>(5)?,
                    row.get::<_, Option<UserId>>(6)?,
                ))
            },
        )
        .optional()?;
    let Some((size, rule_set, policy, opening, rated, black, white)) = ended else {
        let exists: Option<GameId> = tx
            .prepare_cached(statements::GAME_EXISTS)?
            .query_row([game], |row| row.get(0))
            .optional()?;
        return match exists {
            Some(_) => Ok(None),
            None => Err(StoreError::NoSuchGame),
        };
    };
    let rules = codec::rules_from_columns(size, &rule_set, &policy, &opening)?;
    let ended = Ended {
        swaps: rules.opening().swaps_after_three(),
        rated,
        black,
        white,
        pool: Pool::of(rules.rule_set()),
    };
    let swapped = if ended.swaps {
        let mut read = tx.prepare_cached(statements::SWAP_ACTIONS)?;
        let texts = read
            .query_map([game], |row| row.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        let swaps = texts
            .iter()
            .map(|t| codec::action_parse(t))
            .collect::<Result<Vec<_>, _>>()?;
        codec::swapped_by(&swaps)
    } else {
        false
    };
    if swapped {
        tx.prepare_cached(statements::MARK_SWAPPED)?
            .execute(params![true, game])?;
    }
    let (black, white) = ending::seats_at_end(ended.black, ended.white, swapped);
    let rating_changes = match (black, white) {
        (Some(black), Some(white)) if ended.rated && !end.aborted && black != white => {
            let score_black = ending::score_black(end.winner);
            Some(rate(
                tx,
                game,
                ended.pool,
                black,
                white,
                score_black,
                end.ended_at,
            )?)
        }
        _ => None,
    };
    Ok(Some(Finished { rating_changes }))
}

/// Rates a finished game inside the transaction that ended it (as `common.rs` does; SQLite's one writer
/// needs no row locks).
fn rate(
    tx: &Transaction<'_>,
    game: GameId,
    pool: Pool,
    black: UserId,
    white: UserId,
    score_black: f64,
    at: Millis,
) -> Result<[RatingChange; 2], StoreError> {
    let default = Rating::default();
    {
        let mut ensure = tx.prepare_cached(statements::ENSURE_RATING)?;
        for user in [black, white] {
            ensure.execute(params![
                user,
                pool.as_str(),
                default.rating,
                default.deviation,
                default.volatility,
                Tier::of(&default).code(),
                at
            ])?;
        }
    }
    let mut current = HashMap::new();
    {
        let mut read = tx.prepare_cached(statements::RATINGS_OF_TWO)?;
        let rows = read.query_map(params![pool.as_str(), black, white], |row| {
            Ok((
                row.get::<_, UserId>(0)?,
                Rating::new(row.get(1)?, row.get(2)?, row.get(3)?),
            ))
        })?;
        for row in rows {
            let (user, rating) = row?;
            current.insert(user, rating);
        }
    }
    let black_before = current.get(&black).copied().unwrap_or(default);
    let white_before = current.get(&white).copied().unwrap_or(default);
    let (black_after, white_after) = glicko2::rate_game(black_before, white_before, score_black);
    let changes = [
        RatingChange {
            user_id: black,
            pool,
            before: black_before,
            after: black_after,
        },
        RatingChange {
            user_id: white,
            pool,
            before: white_before,
            after: white_after,
        },
    ];
    let mut update = tx.prepare_cached(statements::UPDATE_RATING)?;
    let mut history = tx.prepare_cached(statements::INSERT_RATING_CHANGE)?;
    for (change, score) in changes.iter().zip([score_black, 1.0 - score_black]) {
        let (win, loss, draw) = ending::tally(score);
        let tier = Tier::of(&change.after).code();
        update.execute(params![
            change.after.rating,
            change.after.deviation,
            change.after.volatility,
            win,
            loss,
            draw,
            tier,
            at,
            change.user_id,
            pool.as_str()
        ])?;
        history.execute(params![
            game,
            change.user_id,
            pool.as_str(),
            change.before.rating,
            change.before.deviation,
            change.before.volatility,
            change.after.rating,
            change.after.deviation,
            change.after.volatility,
            tier,
            at
        ])?;
    }
    Ok(changes)
}
