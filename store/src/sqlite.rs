//! The SQLite store: the embedded default, one file under `./data/`.
//!
//! WAL mode (readers never block the writer), foreign keys on, `synchronous = FULL` (a committed transaction
//! survives a power cut, not only a killed process), and a busy timeout. Writes go through a pool of exactly one
//! connection and start with `BEGIN IMMEDIATE`, so write transactions never interleave and never fail half-way
//! with a busy snapshot; reads use a separate pool of several connections. The game writes of the batch writer
//! ([`crate::Store::write_batch`]) go to a thread with a connection of its own (`sqlite_writer.rs`); a gate
//! orders its transactions with the pool's.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{
    Sqlite, SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};
use sqlx::QueryBuilder;
use tokio::sync::{Mutex, OwnedMutexGuard};

// `HashMap`, `GameId`, `append` and `sqlx::Row` come in with `store_impl!` at the end of this file.
use crate::sqlite_writer::SqliteWriter;
use crate::StoreError;

/// A [`crate::Store`] in a SQLite file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    reader: SqlitePool,
    writer: SqlitePool,
    /// Held for the whole of every write transaction of this store, whichever connection runs it.
    gate: Arc<Mutex<()>>,
    /// The batch writer's thread, for a database in a file.
    batches: Option<Arc<SqliteWriter>>,
}

/// SQLite adds no row locks: the single writer connection already serialises writers.
const LOCK_RATINGS: &str = "";

/// No lock for a player's analysis requests: a write transaction (`BEGIN IMMEDIATE` under the store's gate)
/// already excludes every other writer while it counts and inserts.
const LOCK_ANALYSIS_PLAYER: Option<&str> = None;

/// One batch at a time: the single writer connection would serialise more anyway, and a batch that waits for
/// the connection only takes requests that would otherwise join a larger next batch.
const BATCHES_IN_FLIGHT: usize = 1;

/// How long a statement waits for another process holding the write lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

impl SqliteStore {
    /// Opens (creating the file and its folder when missing) the database at `url` (`sqlite://path`,
    /// `sqlite:path` or a plain path; `sqlite::memory:` for a throw-away database) and runs the migrations.
    pub async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        let options = if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url)?
        } else {
            SqliteConnectOptions::new().filename(url)
        };
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT)
            .pragma("temp_store", "memory");
        if !in_memory {
            if let Some(folder) = options.get_filename().parent() {
                if !folder.as_os_str().is_empty() {
                    std::fs::create_dir_all(folder).map_err(|e| {
                        StoreError::Database(format!("cannot create {}: {e}", folder.display()))
                    })?;
                }
            }
        }
        // An in-memory database lives as long as its one connection: keep exactly one, for ever.
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(if in_memory { 1 } else { 0 })
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options.clone())
            .await?;
        sqlx::migrate!("../migrations/sqlite").run(&writer).await?;
        let reader = if in_memory {
            writer.clone()
        } else {
            SqlitePoolOptions::new()
                .max_connections(4)
                .connect_with(options.clone())
                .await?
        };
        let batches = if in_memory {
            None
        } else {
            Some(Arc::new(SqliteWriter::open(
                options.get_filename(),
                BUSY_TIMEOUT,
            )?))
        };
        let store = SqliteStore {
            reader,
            writer,
            gate: Arc::new(Mutex::new(())),
            batches,
        };
        store.backfill_name_skeletons().await?;
        Ok(store)
    }

    fn reader(&self) -> &SqlitePool {
        &self.reader
    }

    /// A write transaction on the writer pool, with the write gate held until the guard drops (after the
    /// commit, the guard being declared with the transaction).
    async fn begin_write(
        &self,
    ) -> Result<(OwnedMutexGuard<()>, sqlx::Transaction<'static, Sqlite>), StoreError> {
        let gate = self.gate.clone().lock_owned().await;
        Ok((gate, self.writer.begin_with("BEGIN IMMEDIATE").await?))
    }

    /// The writer thread keeps its own cache; the sqlx path (in-memory databases) reads every batch's heads.
    fn head_cache(&self) -> Option<&append::HeadCache> {
        None
    }

    /// A batch goes to the writer thread when there is one (a file), else through sqlx.
    async fn write_batch_routed(
        &self,
        batch: &[crate::Write],
    ) -> Result<Vec<crate::Written>, StoreError> {
        match &self.batches {
            Some(batches) => {
                let _gate = self.gate.lock().await;
                batches.write_batch(batch).await
            }
            None => self.write_batch_sqlx(batch).await,
        }
    }

    /// The heads of these games (see `append.rs`): `IN` lists, chunked under the bind-parameter limit, each
    /// answered as one row of JSON (`[[id, next], …]`). sqlx's SQLite worker thread hands rows over
    /// one by one through a channel of 50, so a row per game would cost the batch writer a thread hand-off for
    /// every 50 games of the batch; one row costs one.
    async fn heads(
        tx: &mut sqlx::Transaction<'static, Sqlite>,
        games: &[GameId],
    ) -> Result<HashMap<GameId, append::Head>, StoreError> {
        let mut heads = HashMap::with_capacity(games.len());
        for chunk in games.chunks(append::MAX_KEYS) {
            let mut query =
                QueryBuilder::<Sqlite>::new("SELECT json_group_array(json_array(id, next)) FROM (");
            query.push(append::HEADS_SELECT).push("IN (");
            let mut ids = query.separated(", ");
            for game in chunk {
                ids.push_bind(*game);
            }
            query.push("))");
            // Not kept in the statement cache: the text changes with the number of games.
            let json: String = query
                .build_query_scalar()
                .persistent(false)
                .fetch_one(&mut **tx)
                .await?;
            let rows: Vec<(GameId, i64)> = serde_json::from_str(&json)
                .map_err(|e| StoreError::Database(format!("game heads: {e}")))?;
            for (game, next) in rows {
                heads.insert(game, append::Head { next });
            }
        }
        Ok(heads)
    }

    /// Inserts the rows with multi-row `INSERT`s of at most [`append::MAX_ROWS`] rows each. (Preparing one is
    /// cheap here: SQLite parses in-process, so a statement text per batch size costs no round trip.)
    async fn insert_actions(
        tx: &mut sqlx::Transaction<'static, Sqlite>,
        rows: Vec<append::Row>,
    ) -> Result<(), StoreError> {
        let mut rows = rows.into_iter().peekable();
        while rows.peek().is_some() {
            let mut query = QueryBuilder::<Sqlite>::new(append::INSERT_COLUMNS);
            query.push_values(rows.by_ref().take(append::MAX_ROWS), |mut values, row| {
                values
                    .push_bind(row.game)
                    .push_bind(row.seq)
                    .push_bind(row.action)
                    .push_bind(row.ply)
                    .push_bind(row.used_ms)
                    .push_bind(row.remaining_black_ms)
                    .push_bind(row.remaining_white_ms)
                    .push_bind(row.at);
            });
            query.build().persistent(false).execute(&mut **tx).await?;
        }
        Ok(())
    }

    /// Closes both pools, waiting for their connections to finish (a clean WAL checkpoint on the way out).
    /// SQLite serves a single node: no room ownership (cluster mode is refused on it at start).
    async fn claim(
        &self,
        _room: &str,
        _node: &str,
        _lease_ms: i64,
    ) -> Result<Option<crate::Fence>, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::claim`].
    async fn renew(&self, _node: &str, _lease_ms: i64) -> Result<Vec<String>, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::claim`].
    async fn release(&self, _fence: &crate::Fence) -> Result<(), StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::claim`].
    async fn expired(&self, _limit: u32) -> Result<Vec<String>, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::claim`].
    async fn forget_expired(&self, _room: &str) -> Result<(), StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::claim`].
    async fn hand_over(&self, _node: &str) -> Result<u64, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::claim`]: a single node counts its players' rooms in memory.
    async fn open_for(
        &self,
        _room: &str,
        _node: &str,
        _player: &str,
        _lease_ms: i64,
        _limit: u32,
    ) -> Result<crate::RoomOpening, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::claim`]: a single node keeps its login limits in memory.
    async fn bucket_use(
        &self,
        _key: &str,
        _shape: crate::BucketShape,
        _want: crate::BucketUse,
    ) -> Result<crate::BucketAnswer, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::bucket_use`].
    async fn bucket_level(
        &self,
        _key: &str,
        _shape: crate::BucketShape,
    ) -> Result<f64, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// See [`Self::bucket_use`].
    async fn bucket_sweep(&self) -> Result<u64, StoreError> {
        Err(StoreError::NoOwnership)
    }

    async fn close_pools(&self) {
        if let Some(batches) = &self.batches {
            batches.close().await;
        }
        self.reader.close().await;
        self.writer.close().await;
    }
}

crate::common::store_impl!(SqliteStore, Sqlite, SqliteRow);
crate::community::community_impl!(SqliteStore, Sqlite, SqliteRow);
crate::fairplay::fairplay_impl!(SqliteStore, Sqlite, SqliteRow);
crate::events::events_impl!(SqliteStore, Sqlite, SqliteRow);
