//! Fair play's table (issue #38 item 5): after every rated game, how each player's moves agreed with the
//! engine's choices, one row per game and player. The server's `fairplay` module writes the rows, reads a
//! player's last ones in a pool for its statistic, and files a flag as a report (reason `fair_play`).

use async_trait::async_trait;

use crate::{GameId, Millis, StoreError, UserId};

/// The report reason of a fair-play flag (a report made by the server, never by a player).
pub const FAIR_PLAY_REASON: &str = "fair_play";

/// One player's agreement with the engine in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// The game.
    pub game: GameId,
    /// The player.
    pub user_id: UserId,
    /// The rating pool's name (`freestyle`, `othello`, …).
    pub pool: String,
    /// The player's rating before the game, rounded.
    pub rating: i64,
    /// Moves that counted (not forced, not book, not in a position already decided).
    pub judged: i64,
    /// Of those, the engine's first choice.
    pub top1: i64,
    /// Of those, the engine's first choice or a move as good within the near margin (`docs/fairplay.md`).
    pub top3: i64,
    /// The evaluation loss summed over `loss_moves` moves, in hundredths of the game's unit.
    pub loss_sum: i64,
    /// The judged moves the loss sums.
    pub loss_moves: i64,
    /// When it was stored.
    pub created_at: Millis,
}

impl Agreement {
    /// The average evaluation loss per move of `loss_moves`, in hundredths of the game's unit (0 with none).
    pub fn average_loss(&self) -> f64 {
        if self.loss_moves == 0 {
            0.0
        } else {
            self.loss_sum as f64 / self.loss_moves as f64
        }
    }
}

/// Fair play's storage; both stores implement it over the same SQL (`fairplay_impl!`).
#[async_trait]
pub trait FairPlayStore: Send + Sync {
    /// Stores a row (again for the same game and player: the first one stays).
    async fn save_agreement(&self, row: &Agreement) -> Result<(), StoreError>;
    /// A player's rows of one pool, newest game first, at most `limit`.
    async fn agreements(
        &self,
        user: UserId,
        pool: &str,
        limit: u32,
    ) -> Result<Vec<Agreement>, StoreError>;
    /// The rows of one game.
    async fn agreements_of_game(&self, game: GameId) -> Result<Vec<Agreement>, StoreError>;
    /// When the latest fair-play report about `user` was made, whatever its status.
    async fn latest_flag_at(&self, user: UserId) -> Result<Option<Millis>, StoreError>;
}

/// Implements [`FairPlayStore`] for `$store` over database `$db` with rows of type `$row` (as `store_impl!`).
macro_rules! fairplay_impl {
    ($store:ty, $db:ty, $row:ty) => {
        const _: () = {
            use async_trait::async_trait;
            use sqlx::Row;

            use crate::fairplay::{Agreement, FairPlayStore, FAIR_PLAY_REASON};
            use crate::{GameId, Millis, StoreError, UserId};

            const COLUMNS: &str = "game_id, user_id, pool, rating, judged, top1, top3, loss_sum, loss_moves, \
                created_at FROM fair_play_games";

            fn agreement_row(row: &$row) -> Result<Agreement, StoreError> {
                Ok(Agreement {
                    game: row.try_get("game_id")?,
                    user_id: row.try_get("user_id")?,
                    pool: row.try_get("pool")?,
                    rating: row.try_get("rating")?,
                    judged: row.try_get("judged")?,
                    top1: row.try_get("top1")?,
                    top3: row.try_get("top3")?,
                    loss_sum: row.try_get("loss_sum")?,
                    loss_moves: row.try_get("loss_moves")?,
                    created_at: row.try_get("created_at")?,
                })
            }

            #[async_trait]
            impl FairPlayStore for $store {
                async fn save_agreement(&self, r: &Agreement) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query(
                        "INSERT INTO fair_play_games (game_id, user_id, pool, rating, judged, top1, top3, \
                         loss_sum, loss_moves, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                         ON CONFLICT DO NOTHING",
                    )
                    .bind(r.game)
                    .bind(r.user_id)
                    .bind(&r.pool)
                    .bind(r.rating)
                    .bind(r.judged)
                    .bind(r.top1)
                    .bind(r.top3)
                    .bind(r.loss_sum)
                    .bind(r.loss_moves)
                    .bind(r.created_at)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn agreements(
                    &self,
                    user: UserId,
                    pool: &str,
                    limit: u32,
                ) -> Result<Vec<Agreement>, StoreError> {
                    let rows = sqlx::query(&format!(
                        "SELECT {COLUMNS} WHERE user_id = $1 AND pool = $2 ORDER BY game_id DESC LIMIT $3"
                    ))
                    .bind(user)
                    .bind(pool)
                    .bind(i64::from(limit))
                    .fetch_all(self.reader())
                    .await?;
                    rows.iter().map(agreement_row).collect()
                }

                async fn agreements_of_game(&self, game: GameId) -> Result<Vec<Agreement>, StoreError> {
                    let rows = sqlx::query(&format!("SELECT {COLUMNS} WHERE game_id = $1 ORDER BY user_id"))
                        .bind(game)
                        .fetch_all(self.reader())
                        .await?;
                    rows.iter().map(agreement_row).collect()
                }

                async fn latest_flag_at(&self, user: UserId) -> Result<Option<Millis>, StoreError> {
                    let row: Option<(Option<Millis>,)> = sqlx::query_as(
                        "SELECT MAX(created_at) FROM reports WHERE target_id = $1 AND reason = $2",
                    )
                    .bind(user)
                    .bind(FAIR_PLAY_REASON)
                    .fetch_optional(self.reader())
                    .await?;
                    Ok(row.and_then(|r| r.0))
                }
            }
        };
    };
}

pub(crate) use fairplay_impl;
