//! The Postgres store, chosen by a `postgres://…` URL.
//!
//! Transactions run at READ COMMITTED. Ending a game is made exactly-once by the conditional `UPDATE … WHERE
//! ended_at IS NULL` (a second ending waits for the first's row lock, then sees the game ended), and concurrent
//! games of the same player cannot lose a rating update because the rating rows are read `FOR UPDATE`, always in
//! ascending user order.

use sqlx::postgres::{PgPool, PgPoolOptions, PgRow, Postgres};

use crate::StoreError;

/// A [`crate::Store`] in a Postgres database.
#[derive(Clone, Debug)]
pub struct PostgresStore {
    pool: PgPool,
}

/// Rating rows are locked while a game is rated so that two games of one player are rated one after the other.
const LOCK_RATINGS: &str = " FOR UPDATE";

/// Batches written at once on the pool: while one waits for its commit (a WAL flush on the server) and the
/// network, the next is already being sent. Each batch holds different games (see
/// [`crate::Store::batches_in_flight`]), so they never wait on each other's rows.
const BATCHES_IN_FLIGHT: usize = 3;

impl PostgresStore {
    /// Connects to the database at `url` and runs the migrations.
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .connect(url)
            .await?;
        sqlx::migrate!("../migrations/postgres").run(&pool).await?;
        Ok(PostgresStore { pool })
    }

    fn reader(&self) -> &PgPool {
        &self.pool
    }

    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, Postgres>, StoreError> {
        Ok(self.pool.begin().await?)
    }

    /// Closes the pool, waiting for its connections to finish.
    async fn close_pools(&self) {
        self.pool.close().await;
    }
}

crate::common::store_impl!(PostgresStore, Postgres, PgRow);
