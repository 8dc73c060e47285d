//! The SQLite store: the embedded default, one file under `./data/`.
//!
//! WAL mode (readers never block the writer), foreign keys on, `synchronous = FULL` (a committed transaction
//! survives a power cut, not only a killed process), and a busy timeout. Writes go through a pool of exactly one
//! connection and start with `BEGIN IMMEDIATE`, so write transactions never interleave and never fail half-way
//! with a busy snapshot; reads use a separate pool of several connections.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    Sqlite, SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};

use crate::StoreError;

/// A [`crate::Store`] in a SQLite file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    reader: SqlitePool,
    writer: SqlitePool,
}

/// SQLite adds no row locks: the single writer connection already serialises writers.
const LOCK_RATINGS: &str = "";

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
            .busy_timeout(BUSY_TIMEOUT);
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
                .connect_with(options)
                .await?
        };
        Ok(SqliteStore { reader, writer })
    }

    fn reader(&self) -> &SqlitePool {
        &self.reader
    }

    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, Sqlite>, StoreError> {
        Ok(self.writer.begin_with("BEGIN IMMEDIATE").await?)
    }

    /// Closes both pools, waiting for their connections to finish (a clean WAL checkpoint on the way out).
    async fn close_pools(&self) {
        self.reader.close().await;
        self.writer.close().await;
    }
}

crate::common::store_impl!(SqliteStore, Sqlite, SqliteRow);
