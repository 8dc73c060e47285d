//! The SQL both databases share, written once.
//!
//! Both schemas have the same tables and columns and both drivers accept `$1`-style parameters, so the queries
//! are identical; what differs is how a write transaction begins (SQLite: `BEGIN IMMEDIATE` on the single writer
//! connection) and how rating rows are locked (Postgres: `FOR UPDATE`). sqlx's concrete types differ per
//! database, so this macro writes the [`crate::Store`] implementation for each: the caller provides
//! `self.reader()`, `self.begin_write()`, `heads` and `insert_actions` (the two statements whose form differs),
//! `head_cache` and `write_batch_routed` (where a game write goes), the `LOCK_RATINGS` suffix,
//! `LOCK_ANALYSIS_PLAYER` and `BATCHES_IN_FLIGHT`. The game writes are planned by `write.rs`; here they are only executed
//! (`SqlxStatements`).

/// Implements [`crate::Store`] for `$store` over database `$db` with rows of type `$row`.
macro_rules! store_impl {
    ($store:ty, $db:ty, $row:ty) => {
        use std::collections::HashMap;

        use async_trait::async_trait;
        use ratings::{Pool, Rating};
        use sqlx::Row;

        use crate::{append, statements, write};
        use crate::codec::{self, corrupt};
        use crate::write::{EndColumns, Ended, GameColumns, HistoryRow, NewRating, Rated, RatingUpdate};
        use crate::{
            Finish, Finished, GameEnd, GameId, GameRecord, Guest, HistoryPoint, Millis, NewGame, PlayerRef,
            PoolStanding, RatingChange, SeatsAtEnd, SessionOwner, Store, StoredAction, User, UserId, Write, Written,
        };

        const GAME_COLUMNS: &str = "id, room, game, config, pool, time_control, public, rated, black_name, black_user_id, white_name, white_user_id, started_at, ended_at, \
            winner, aborted, reason, swapped, public_id";

        /// A game row: the game, its end, and whether colours were swapped (known once it ended).
        struct GameRow {
            id: GameId,
            game: NewGame,
            end: Option<GameEnd>,
            swapped: bool,
        }

        fn game_row(row: &$row) -> Result<GameRow, StoreError> {
            let ended_at: Option<i64> = row.try_get("ended_at")?;
            let end = match ended_at {
                None => None,
                Some(ended_at) => {
                    let winner: Option<String> = row.try_get("winner")?;
                    Some(GameEnd {
                        winner: winner.as_deref().map(codec::side_parse).transpose()?,
                        aborted: row.try_get("aborted")?,
                        reason: row.try_get::<Option<String>, _>("reason")?.unwrap_or_default(),
                        ended_at,
                    })
                }
            };
            Ok(GameRow {
                id: row.try_get("id")?,
                game: NewGame {
                    public_id: row.try_get::<Option<String>, _>("public_id")?.unwrap_or_default(),
                    room: row.try_get("room")?,
                    kind: row.try_get("game")?,
                    config: row.try_get("config")?,
                    pool: codec::pool_parse(row.try_get("pool")?)?,
                    time_control: row.try_get("time_control")?,
                    public: row.try_get("public")?,
                    rated: row.try_get("rated")?,
                    black: PlayerRef {
                        name: row.try_get("black_name")?,
                        user_id: row.try_get("black_user_id")?,
                    },
                    white: PlayerRef {
                        name: row.try_get("white_name")?,
                        user_id: row.try_get("white_user_id")?,
                    },
                    started_at: row.try_get("started_at")?,
                },
                end,
                swapped: row.try_get("swapped")?,
            })
        }

        const MATCH_COLUMNS: &str = "id, room, game, games, rated, first_name, first_user_id, second_name, \
            second_user_id, created_at";

        fn match_row(row: &$row) -> Result<crate::MatchRecord, StoreError> {
            Ok(crate::MatchRecord {
                id: row.try_get("id")?,
                new: crate::NewMatch {
                    room: row.try_get("room")?,
                    game: row.try_get("game")?,
                    games: codec::count(row.try_get("games")?),
                    rated: row.try_get("rated")?,
                    first: PlayerRef {
                        name: row.try_get("first_name")?,
                        user_id: row.try_get("first_user_id")?,
                    },
                    second: PlayerRef {
                        name: row.try_get("second_name")?,
                        user_id: row.try_get("second_user_id")?,
                    },
                    created_at: row.try_get("created_at")?,
                },
            })
        }

        fn action_row(row: &$row) -> Result<StoredAction, StoreError> {
            let seq: i64 = row.try_get("seq")?;
            let black: Option<i64> = row.try_get("remaining_black_ms")?;
            let white: Option<i64> = row.try_get("remaining_white_ms")?;
            Ok(StoredAction {
                seq: u32::try_from(seq).map_err(|e| corrupt("action seq", e))?,
                text: row.try_get("action")?,
                ply: codec::ply_parse(row.try_get("ply")?)?,
                used_ms: row.try_get("used_ms")?,
                remaining_ms: black.zip(white).map(|(b, w)| [b, w]),
                at: row.try_get("at")?,
            })
        }

        fn user_row(row: &$row) -> Result<User, StoreError> {
            Ok(User {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
                password_hash: row.try_get("password_hash")?,
                created_at: row.try_get("created_at")?,
            })
        }

        fn standing_row(row: &$row) -> Result<PoolStanding, StoreError> {
            Ok(PoolStanding {
                user_id: row.try_get("user_id")?,
                name: row.try_get("name")?,
                pool: codec::pool_parse(row.try_get("pool")?)?,
                rating: Rating::new(
                    row.try_get("rating")?,
                    row.try_get("deviation")?,
                    row.try_get("volatility")?,
                ),
                games: codec::count(row.try_get("games")?),
                wins: codec::count(row.try_get("wins")?),
                losses: codec::count(row.try_get("losses")?),
                draws: codec::count(row.try_get("draws")?),
                established: row.try_get("established")?,
                established_opponents: codec::count(row.try_get("established_opponents")?),
                last_game_at: row.try_get("updated_at")?,
                ladder_points: row.try_get("ladder_points")?,
            })
        }

        const STANDING_COLUMNS: &str = "r.user_id, u.name, r.pool, r.rating, r.deviation, r.volatility, r.games, \
            r.wins, r.losses, r.draws, r.established, r.established_opponents, r.updated_at, \
            COALESCE(l.points, 0) AS ladder_points";

        /// The standing's game's ladder row (`ratings::ladder`): a pool names its game before a `/`, and a pool
        /// without one is Gomoku's (`ratings::Pool::name`).
        const JOIN_LADDER: &str = "LEFT JOIN ladders l ON l.user_id = r.user_id AND \
            (r.pool LIKE l.game || '/%' OR (l.game = 'gomoku' AND r.pool NOT LIKE '%/%'))";

        impl $store {
            /// Loads the full records of these game rows: actions and rating changes.
            async fn records(&self, rows: Vec<GameRow>) -> Result<Vec<GameRecord>, StoreError> {
                let mut records = Vec::with_capacity(rows.len());
                for row in rows {
                    records.push(self.record(row).await?);
                }
                Ok(records)
            }

            async fn record(&self, row: GameRow) -> Result<GameRecord, StoreError> {
                let actions = sqlx::query(
                    "SELECT seq, action, ply, used_ms, remaining_black_ms, remaining_white_ms, at \
                     FROM actions WHERE game_id = $1 ORDER BY seq",
                )
                .bind(row.id)
                .fetch_all(self.reader())
                .await?
                .iter()
                .map(action_row)
                .collect::<Result<Vec<_>, _>>()?;
                let changes = sqlx::query(
                    "SELECT user_id, pool, rating_before, deviation_before, volatility_before, rating_after, \
                     deviation_after, volatility_after FROM rating_changes WHERE game_id = $1",
                )
                .bind(row.id)
                .fetch_all(self.reader())
                .await?;
                let mut by_user = HashMap::new();
                for c in &changes {
                    let user_id: UserId = c.try_get("user_id")?;
                    by_user.insert(
                        user_id,
                        RatingChange {
                            user_id,
                            pool: codec::pool_parse(c.try_get("pool")?)?,
                            before: Rating::new(
                                c.try_get("rating_before")?,
                                c.try_get("deviation_before")?,
                                c.try_get("volatility_before")?,
                            ),
                            after: Rating::new(
                                c.try_get("rating_after")?,
                                c.try_get("deviation_after")?,
                                c.try_get("volatility_after")?,
                            ),
                        },
                    );
                }
                // `swapped` is what the caller said at the end ([`SeatsAtEnd`]).
                let seats = if row.swapped { SeatsAtEnd::Exchanged } else { SeatsAtEnd::AsStarted };
                let (black_end, white_end) = seats.arrange(row.game.black.user_id, row.game.white.user_id);
                let rating_changes = match (
                    black_end.and_then(|u| by_user.remove(&u)),
                    white_end.and_then(|u| by_user.remove(&u)),
                ) {
                    (Some(b), Some(w)) => Some([b, w]),
                    _ => None,
                };
                Ok(GameRecord {
                    id: row.id,
                    game: row.game,
                    actions,
                    end: row.end,
                    rating_changes,
                })
            }

            /// A user's games, newest first, below `before`; private ones only when `private`.
            async fn games_listed(
                &self,
                user: UserId,
                before: Option<GameId>,
                limit: u32,
                private: bool,
            ) -> Result<Vec<GameRecord>, StoreError> {
                self.games_listed_filtered(user, before, limit, private, &crate::GameFilter::default())
                    .await
            }

            /// [`Self::games_listed`] keeping only the games that pass `filter`.
            async fn games_listed_filtered(
                &self,
                user: UserId,
                before: Option<GameId>,
                limit: u32,
                private: bool,
                filter: &crate::GameFilter,
            ) -> Result<Vec<GameRecord>, StoreError> {
                // The outcome is the player's: the winning colour against the seat they held.
                let outcome = match filter.outcome {
                    None => "",
                    Some(crate::Outcome::Win) => {
                        " AND ((winner = 'black' AND black_user_id = $1) OR (winner = 'white' AND white_user_id = $1))"
                    }
                    Some(crate::Outcome::Loss) => {
                        " AND ((winner = 'black' AND white_user_id = $1) OR (winner = 'white' AND black_user_id = $1))"
                    }
                    Some(crate::Outcome::Draw) => {
                        " AND winner IS NULL AND ended_at IS NOT NULL AND NOT aborted"
                    }
                };
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE (black_user_id = $1 OR white_user_id = $1) \
                     AND id < $2 AND (public = $4 OR public) AND ($5 IS NULL OR pool = $5) \
                     AND ($6 IS NULL OR rated = $6) AND ($7 IS NULL OR (ended_at IS NOT NULL) = $7){outcome} \
                     ORDER BY id DESC LIMIT $3"
                );
                let rows = sqlx::query(&sql)
                    .bind(user)
                    .bind(before.unwrap_or(GameId::MAX))
                    .bind(i64::from(limit))
                    .bind(!private)
                    .bind(filter.pool.as_ref().map(|p| p.to_string()))
                    .bind(filter.rated)
                    .bind(filter.finished)
                    .fetch_all(self.reader())
                    .await?;
                let rows = rows.iter().map(game_row).collect::<Result<Vec<_>, _>>()?;
                self.records(rows).await
            }

            /// [`Store::write_batch`] in one sqlx transaction, and the store's head cache (if any) told what
            /// became of the batch's games.
            async fn write_batch_sqlx(&self, batch: &[Write]) -> Result<Vec<Written>, StoreError> {
                if batch.is_empty() {
                    return Ok(Vec::new());
                }
                match (self.write_batch_tx(batch).await, self.head_cache()) {
                    (Ok((answers, heads)), Some(cache)) => {
                        cache.committed(heads, batch, &answers);
                        Ok(answers)
                    }
                    (Ok((answers, _)), None) => Ok(answers),
                    // The commit itself may have failed after the database applied it (a lost connection):
                    // read these games' heads again next time.
                    (Err(e), Some(cache)) => {
                        cache.forget_batch(batch);
                        Err(e)
                    }
                    (Err(e), None) => Err(e),
                }
            }

            /// The transaction of [`Self::write_batch_sqlx`], planned by `write.rs`; also returns the heads it
            /// left.
            async fn write_batch_tx(
                &self,
                batch: &[Write],
            ) -> Result<(Vec<Written>, HashMap<GameId, append::Head>), StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                let done = write::write_batch(&mut SqlxStatements(&mut tx), self.head_cache(), batch).await?;
                tx.commit().await?;
                Ok(done)
            }
        }

        /// The game-write statements over one sqlx write transaction of this store.
        struct SqlxStatements<'t>(&'t mut sqlx::Transaction<'static, $db>);

        impl write::Statements for SqlxStatements<'_> {
            async fn insert_game(&mut self, g: &GameColumns<'_>) -> Result<GameId, StoreError> {
                Ok(sqlx::query_scalar(statements::INSERT_GAME)
                    .bind(g.room)
                    .bind(g.kind)
                    .bind(g.config)
                    .bind(&g.pool)
                    .bind(g.time_control)
                    .bind(g.public)
                    .bind(g.rated)
                    .bind(g.black_name)
                    .bind(g.black_user_id)
                    .bind(g.white_name)
                    .bind(g.white_user_id)
                    .bind(g.started_at)
                    .bind(g.public_id)
                    .fetch_one(&mut **self.0)
                    .await?)
            }

            async fn heads(&mut self, games: &[GameId]) -> Result<HashMap<GameId, append::Head>, StoreError> {
                <$store>::heads(self.0, games).await
            }

            async fn stored_actions(
                &mut self,
                retries: &[append::Retry],
            ) -> Result<HashMap<(GameId, i64), String>, StoreError> {
                let mut stored = HashMap::with_capacity(retries.len());
                for chunk in retries.chunks(append::MAX_KEYS) {
                    // Row values against a VALUES list: a chain of ORs would hit SQLite's expression depth.
                    let mut query = sqlx::QueryBuilder::<$db>::new(
                        "SELECT game_id, seq, action FROM actions WHERE (game_id, seq) IN (",
                    );
                    query.push_values(chunk, |mut values, retry| {
                        values.push_bind(retry.game).push_bind(retry.seq);
                    });
                    query.push(")");
                    for row in query.build().persistent(false).fetch_all(&mut **self.0).await? {
                        stored.insert(
                            (row.try_get::<GameId, _>("game_id")?, row.try_get::<i64, _>("seq")?),
                            row.try_get::<String, _>("action")?,
                        );
                    }
                }
                Ok(stored)
            }

            async fn insert_actions(&mut self, rows: Vec<append::Row>) -> Result<(), StoreError> {
                <$store>::insert_actions(self.0, rows).await
            }

            async fn delete_actions(&mut self, game: GameId, keep: i64) -> Result<(), StoreError> {
                sqlx::query(statements::DELETE_ACTIONS_FROM)
                    .bind(game)
                    .bind(keep)
                    .execute(&mut **self.0)
                    .await?;
                Ok(())
            }

            async fn end_game(&mut self, game: GameId, end: &EndColumns<'_>) -> Result<Option<Ended>, StoreError> {
                let row = sqlx::query(statements::END_GAME)
                    .bind(end.ended_at)
                    .bind(end.winner)
                    .bind(end.aborted)
                    .bind(end.reason)
                    .bind(end.swapped)
                    .bind(game)
                    .fetch_optional(&mut **self.0)
                    .await?;
                row.map(|row| {
                    Ok(Ended {
                        rated: row.try_get("rated")?,
                        black_user_id: row.try_get("black_user_id")?,
                        white_user_id: row.try_get("white_user_id")?,
                        pool: row.try_get("pool")?,
                    })
                })
                .transpose()
            }

            async fn game_exists(&mut self, game: GameId) -> Result<bool, StoreError> {
                let found: Option<GameId> = sqlx::query_scalar(statements::GAME_EXISTS)
                    .bind(game)
                    .fetch_optional(&mut **self.0)
                    .await?;
                Ok(found.is_some())
            }

            async fn ensure_rating(&mut self, r: &NewRating<'_>) -> Result<(), StoreError> {
                sqlx::query(statements::ENSURE_RATING)
                    .bind(r.user)
                    .bind(r.pool)
                    .bind(r.rating.rating)
                    .bind(r.rating.deviation)
                    .bind(r.rating.volatility)
                    .bind(r.tier)
                    .bind(r.at)
                    .execute(&mut **self.0)
                    .await?;
                Ok(())
            }

            async fn ratings_of(&mut self, pool: &str, [low, high]: [UserId; 2]) -> Result<HashMap<UserId, Rated>, StoreError> {
                let sql = format!("{}{LOCK_RATINGS}", statements::RATINGS_OF_TWO);
                let rows = sqlx::query(&sql)
                    .bind(pool)
                    .bind(low)
                    .bind(high)
                    .fetch_all(&mut **self.0)
                    .await?;
                let mut current = HashMap::new();
                for row in &rows {
                    current.insert(
                        row.try_get::<UserId, _>("user_id")?,
                        Rated {
                            rating: Rating::new(row.try_get("rating")?, row.try_get("deviation")?, row.try_get("volatility")?),
                            standing: ratings::established::Standing {
                                games: codec::count(row.try_get("games")?),
                                established: row.try_get("established")?,
                                established_opponents: codec::count(row.try_get("established_opponents")?),
                            },
                        },
                    );
                }
                Ok(current)
            }

            async fn established_in_pool(&mut self, pool: &str, limit: u32) -> Result<u32, StoreError> {
                let count: i64 = sqlx::query_scalar(statements::ESTABLISHED_IN_POOL)
                    .bind(pool)
                    .bind(i64::from(limit))
                    .fetch_one(&mut **self.0)
                    .await?;
                Ok(codec::count(count))
            }

            async fn add_established_opponent(&mut self, user: UserId, pool: &str, opponent: UserId) -> Result<bool, StoreError> {
                let done = sqlx::query(statements::ADD_ESTABLISHED_OPPONENT)
                    .bind(user)
                    .bind(pool)
                    .bind(opponent)
                    .execute(&mut **self.0)
                    .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn update_rating(&mut self, u: &RatingUpdate<'_>) -> Result<(), StoreError> {
                let (win, loss, draw) = u.tally;
                sqlx::query(statements::UPDATE_RATING)
                    .bind(u.after.rating)
                    .bind(u.after.deviation)
                    .bind(u.after.volatility)
                    .bind(win)
                    .bind(loss)
                    .bind(draw)
                    .bind(u.tier)
                    .bind(u.at)
                    .bind(u.established)
                    .bind(u.established_opponents)
                    .bind(u.user)
                    .bind(u.pool)
                    .execute(&mut **self.0)
                    .await?;
                Ok(())
            }

            async fn ensure_ladder(&mut self, user: UserId, game: &str, at: Millis) -> Result<(), StoreError> {
                sqlx::query(statements::ENSURE_LADDER)
                    .bind(user)
                    .bind(game)
                    .bind(at)
                    .execute(&mut **self.0)
                    .await?;
                Ok(())
            }

            async fn ladders_of(&mut self, game: &str, [low, high]: [UserId; 2]) -> Result<HashMap<UserId, i64>, StoreError> {
                let sql = format!("{}{LOCK_RATINGS}", statements::LADDERS_OF_TWO);
                let rows = sqlx::query(&sql)
                    .bind(game)
                    .bind(low)
                    .bind(high)
                    .fetch_all(&mut **self.0)
                    .await?;
                let mut points = HashMap::new();
                for row in &rows {
                    points.insert(row.try_get::<UserId, _>("user_id")?, row.try_get::<i64, _>("points")?);
                }
                Ok(points)
            }

            async fn update_ladder(&mut self, user: UserId, game: &str, points: i64, at: Millis) -> Result<(), StoreError> {
                sqlx::query(statements::UPDATE_LADDER)
                    .bind(points)
                    .bind(at)
                    .bind(user)
                    .bind(game)
                    .execute(&mut **self.0)
                    .await?;
                Ok(())
            }

            async fn insert_rating_change(&mut self, h: &HistoryRow<'_>) -> Result<(), StoreError> {
                sqlx::query(statements::INSERT_RATING_CHANGE)
                    .bind(h.game)
                    .bind(h.user)
                    .bind(h.pool)
                    .bind(h.before.rating)
                    .bind(h.before.deviation)
                    .bind(h.before.volatility)
                    .bind(h.after.rating)
                    .bind(h.after.deviation)
                    .bind(h.after.volatility)
                    .bind(h.tier)
                    .bind(h.at)
                    .execute(&mut **self.0)
                    .await?;
                Ok(())
            }
        }

        impl $store {
            /// Gives every user without a look-alike key (registered before keys existed, or before the key's
            /// latest version cleared them: migration `20261204001600`) their [`crate::name_skeleton`], in id order.
            /// Where two such users look alike, the later one keeps no key (`NULL`, which the unique index admits)
            /// and is logged: both names keep working, and new look-alikes of either are refused through the
            /// earlier one's key. Several servers opening one database at once may run this together: a row
            /// another has filled is left alone, and a key another server gave meanwhile counts as a clash.
            /// Returns how many users got a key.
            async fn backfill_name_skeletons(&self) -> Result<u64, StoreError> {
                let rows: Vec<(UserId, String)> =
                    sqlx::query_as("SELECT id, name FROM users WHERE name_skeleton IS NULL ORDER BY id")
                        .fetch_all(self.reader())
                        .await?;
                let mut filled = 0;
                for (id, name) in rows {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let key = crate::name_skeleton(&name);
                    let clash: Option<UserId> =
                        sqlx::query_scalar("SELECT id FROM users WHERE name_skeleton = $1 AND id <> $2")
                            .bind(&key)
                            .bind(id)
                            .fetch_optional(&mut *tx)
                            .await?;
                    if let Some(other) = clash {
                        tracing::warn!(user = id, looks_like = other, "an existing username looks like another");
                        continue;
                    }
                    let updated = sqlx::query("UPDATE users SET name_skeleton = $1 WHERE id = $2 AND name_skeleton IS NULL")
                        .bind(&key)
                        .bind(id)
                        .execute(&mut *tx)
                        .await;
                    match updated {
                        Ok(done) if done.rows_affected() == 1 => {
                            tx.commit().await?;
                            filled += 1;
                        }
                        Ok(_) => {}
                        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                            tracing::warn!(user = id, "an existing username looks like another");
                        }
                        Err(e) => return Err(e.into()),
                    }
                }
                Ok(filled)
            }
        }

        #[async_trait]
        impl Store for $store {
            async fn save_analysis(
                &self,
                game: GameId,
                engine: &str,
                body: &str,
                at: Millis,
            ) -> Result<(), StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                sqlx::query(
                    "INSERT INTO game_analyses (game_id, engine, body, created_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (game_id) DO UPDATE SET engine = excluded.engine, body = excluded.body, \
                     created_at = excluded.created_at",
                )
                .bind(game)
                .bind(engine)
                .bind(body)
                .bind(at)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn analysis(&self, game: GameId) -> Result<Option<crate::StoredAnalysis>, StoreError> {
                let row: Option<(String, String, i64)> = sqlx::query_as(
                    "SELECT engine, body, created_at FROM game_analyses WHERE game_id = $1",
                )
                .bind(game)
                .fetch_optional(self.reader())
                .await?;
                Ok(row.map(|(engine, body, created_at)| crate::StoredAnalysis {
                    game,
                    engine,
                    body,
                    created_at,
                }))
            }

            async fn take_analysis_request(
                &self,
                player: &str,
                game: GameId,
                now: Millis,
                since: Millis,
                limit: u32,
            ) -> Result<bool, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                // The count and the insert in one statement, in one transaction, after the player's lock (where
                // the database needs one): without it two requests at the limit both count the rows before
                // either's insert and both pass.
                if let Some(lock) = LOCK_ANALYSIS_PLAYER {
                    sqlx::query(lock).bind(player).execute(&mut *tx).await?;
                }
                let taken = sqlx::query(
                    "INSERT INTO analysis_requests (player, game_id, requested_at) \
                     SELECT $1, $2, $3 WHERE (SELECT COUNT(*) FROM analysis_requests \
                     WHERE player = $1 AND requested_at > $4) < $5",
                )
                .bind(player)
                .bind(game)
                .bind(now)
                .bind(since)
                .bind(i64::from(limit))
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    == 1;
                tx.commit().await?;
                Ok(taken)
            }

            fn community(&self) -> Option<&dyn crate::CommunityStore> {
                Some(self)
            }

            fn fair_play(&self) -> Option<&dyn crate::FairPlayStore> {
                Some(self)
            }

            fn events(&self) -> Option<&dyn crate::EventStore> {
                Some(self)
            }

            // The game writes are batches of one, so each store has one code path for them.
            async fn create_game(&self, game: &NewGame) -> Result<GameId, StoreError> {
                match self.write_batch_routed(&[Write::Create(game.clone())]).await?.pop() {
                    Some(Written::Created(id)) => Ok(id),
                    _ => Err(StoreError::Database("a created game went missing".to_owned())),
                }
            }

            async fn append_actions(&self, batch: &[(GameId, StoredAction)]) -> Result<(), StoreError> {
                let writes: Vec<Write> = batch.iter().map(|(game, action)| Write::Append(*game, action.clone())).collect();
                self.write_batch_routed(&writes).await.map(drop)
            }

            async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Written>, StoreError> {
                self.write_batch_routed(batch).await
            }

            async fn truncate_actions(&self, game: GameId, keep: u32) -> Result<(), StoreError> {
                match self.write_batch_routed(&[Write::Truncate(game, keep)]).await?.pop() {
                    Some(Written::Truncated) => Ok(()),
                    _ => Err(StoreError::Database("a takeback went missing".to_owned())),
                }
            }

            async fn finish_game(&self, game: GameId, finish: &Finish) -> Result<Option<Finished>, StoreError> {
                match self.write_batch_routed(&[Write::Finish(game, finish.clone())]).await?.pop() {
                    Some(Written::Finished(finished)) => Ok(finished),
                    _ => Err(StoreError::Database("a finished game went missing".to_owned())),
                }
            }

            async fn game(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
                let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
                match sqlx::query(&sql).bind(id).fetch_optional(self.reader()).await? {
                    Some(row) => Ok(Some(self.record(game_row(&row)?).await?)),
                    None => Ok(None),
                }
            }

            async fn game_by_public_id(&self, public_id: &str) -> Result<Option<GameRecord>, StoreError> {
                let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE public_id = $1");
                match sqlx::query(&sql).bind(public_id).fetch_optional(self.reader()).await? {
                    Some(row) => Ok(Some(self.record(game_row(&row)?).await?)),
                    None => Ok(None),
                }
            }

            async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
                let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE ended_at IS NULL ORDER BY id");
                let rows = sqlx::query(&sql).fetch_all(self.reader()).await?;
                let rows = rows.iter().map(game_row).collect::<Result<Vec<_>, _>>()?;
                self.records(rows).await
            }

            async fn create_user(&self, name: &str, password_hash: &str, now: Millis) -> Result<User, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                // Either unique key may refuse the row; the same transaction then asks which one did.
                let id: Option<UserId> = sqlx::query_scalar(
                    "INSERT INTO users (name, name_key, name_skeleton, password_hash, created_at) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id",
                )
                .bind(name)
                .bind(name.to_lowercase())
                .bind(crate::name_skeleton(name))
                .bind(password_hash)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(id) = id else {
                    let taken: Option<UserId> = sqlx::query_scalar("SELECT id FROM users WHERE name_key = $1")
                        .bind(name.to_lowercase())
                        .fetch_optional(&mut *tx)
                        .await?;
                    return Err(if taken.is_some() {
                        StoreError::UsernameTaken
                    } else {
                        StoreError::UsernameConfusable
                    });
                };
                tx.commit().await?;
                Ok(User {
                    id,
                    name: name.to_owned(),
                    password_hash: password_hash.to_owned(),
                    created_at: now,
                })
            }

            async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
                sqlx::query("SELECT id, name, password_hash, created_at FROM users WHERE name_key = $1")
                    .bind(name.to_lowercase())
                    .fetch_optional(self.reader())
                    .await?
                    .as_ref()
                    .map(user_row)
                    .transpose()
            }

            async fn set_password_hash(&self, user: UserId, password_hash: &str) -> Result<(), StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
                    .bind(password_hash)
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn user_by_skeleton(&self, name: &str) -> Result<Option<User>, StoreError> {
                sqlx::query("SELECT id, name, password_hash, created_at FROM users WHERE name_skeleton = $1")
                    .bind(crate::name_skeleton(name))
                    .fetch_optional(self.reader())
                    .await?
                    .as_ref()
                    .map(user_row)
                    .transpose()
            }

            async fn challenge_policy(&self, user: UserId) -> Result<String, StoreError> {
                let row: Option<(String,)> = sqlx::query_as("SELECT challenges FROM users WHERE id = $1")
                    .bind(user)
                    .fetch_optional(self.reader())
                    .await?;
                Ok(row.map_or_else(|| "all".to_owned(), |r| r.0))
            }

            async fn set_challenge_policy(&self, user: UserId, policy: &str) -> Result<(), StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                sqlx::query("UPDATE users SET challenges = $1 WHERE id = $2")
                    .bind(policy)
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn user_by_id(&self, id: UserId) -> Result<Option<User>, StoreError> {
                sqlx::query("SELECT id, name, password_hash, created_at FROM users WHERE id = $1")
                    .bind(id)
                    .fetch_optional(self.reader())
                    .await?
                    .as_ref()
                    .map(user_row)
                    .transpose()
            }

            async fn create_session(
                &self,
                token_hash: &[u8],
                owner: &SessionOwner,
                expires_at: Millis,
            ) -> Result<(), StoreError> {
                let (user_id, guest_id, guest_name) = match owner {
                    SessionOwner::User(user) => (Some(user.id), None, None),
                    SessionOwner::Guest(g) => (None, Some(g.id.as_str()), Some(g.name.as_str())),
                };
                let (_gate, mut tx) = self.begin_write().await?;
                sqlx::query(
                    "INSERT INTO sessions (token_hash, user_id, guest_id, guest_name, expires_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(token_hash)
                .bind(user_id)
                .bind(guest_id)
                .bind(guest_name)
                .bind(expires_at)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn session(&self, token_hash: &[u8], now: Millis) -> Result<Option<SessionOwner>, StoreError> {
                let row = sqlx::query(
                    "SELECT s.guest_id, s.guest_name, u.id, u.name, u.password_hash, u.created_at \
                     FROM sessions s LEFT JOIN users u ON u.id = s.user_id \
                     WHERE s.token_hash = $1 AND s.expires_at > $2",
                )
                .bind(token_hash)
                .bind(now)
                .fetch_optional(self.reader())
                .await?;
                let Some(row) = row else { return Ok(None) };
                let guest: Option<String> = row.try_get("guest_name")?;
                let user_id: Option<UserId> = row.try_get("id")?;
                Ok(match (guest, user_id) {
                    (Some(name), _) => {
                        let id: Option<String> = row.try_get("guest_id")?;
                        let id = id.ok_or_else(|| corrupt("guest session", "no guest id"))?;
                        Some(SessionOwner::Guest(Guest { id, name }))
                    }
                    (None, Some(_)) => Some(SessionOwner::User(user_row(&row)?)),
                    (None, None) => None,
                })
            }

            async fn create_guest_session(
                &self,
                token_hash: &[u8],
                guest: &Guest,
                expires_at: Millis,
                now: Millis,
            ) -> Result<bool, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                // One statement, so two guests racing for a name cannot both win it: the unique name index makes
                // the second an update, which happens only when the holder's session has expired.
                let stored = sqlx::query(
                    "INSERT INTO sessions (token_hash, guest_id, guest_name, expires_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (guest_name) DO UPDATE SET token_hash = excluded.token_hash, \
                     guest_id = excluded.guest_id, expires_at = excluded.expires_at \
                     WHERE sessions.expires_at <= $5",
                )
                .bind(token_hash)
                .bind(&guest.id)
                .bind(&guest.name)
                .bind(expires_at)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    == 1;
                tx.commit().await?;
                Ok(stored)
            }

            async fn extend_session(
                &self,
                token_hash: &[u8],
                expires_at: Millis,
                now: Millis,
            ) -> Result<bool, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                // A session already lasting longer is left alone (and still counts as found).
                let found = sqlx::query(
                    "UPDATE sessions SET expires_at = CASE WHEN expires_at < $2 THEN $2 ELSE expires_at END \
                     WHERE token_hash = $1 AND expires_at > $3",
                )
                .bind(token_hash)
                .bind(expires_at)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    == 1;
                tx.commit().await?;
                Ok(found)
            }

            async fn live_guest(&self, name: &str, now: Millis) -> Result<Option<Guest>, StoreError> {
                let row = sqlx::query(
                    "SELECT guest_id, guest_name FROM sessions WHERE guest_name = $1 AND expires_at > $2",
                )
                .bind(name)
                .bind(now)
                .fetch_optional(self.reader())
                .await?;
                let Some(row) = row else { return Ok(None) };
                let id: Option<String> = row.try_get("guest_id")?;
                Ok(Some(Guest {
                    id: id.ok_or_else(|| corrupt("guest session", "no guest id"))?,
                    name: row.try_get("guest_name")?,
                }))
            }

            async fn delete_session(&self, token_hash: &[u8]) -> Result<(), StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                    .bind(token_hash)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn delete_user_sessions(&self, user: UserId) -> Result<Vec<Vec<u8>>, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                let hashes: Vec<Vec<u8>> =
                    sqlx::query_scalar("DELETE FROM sessions WHERE user_id = $1 RETURNING token_hash")
                        .bind(user)
                        .fetch_all(&mut *tx)
                        .await?;
                tx.commit().await?;
                Ok(hashes)
            }

            async fn change_password(
                &self,
                user: UserId,
                password_hash: &str,
                keep: Option<&[u8]>,
            ) -> Result<Vec<Vec<u8>>, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
                    .bind(password_hash)
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM password_resets WHERE user_id = $1")
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
                // An empty hash matches no session: every one goes when none is kept.
                let hashes: Vec<Vec<u8>> = sqlx::query_scalar(
                    "DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash",
                )
                .bind(user)
                .bind(keep.unwrap_or_default())
                .fetch_all(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(hashes)
            }

            async fn create_password_reset(
                &self,
                user: UserId,
                code_hash: &[u8],
                expires_at: Millis,
            ) -> Result<(), StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                sqlx::query(
                    "INSERT INTO password_resets (user_id, code_hash, expires_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (user_id) DO UPDATE SET code_hash = excluded.code_hash, \
                     expires_at = excluded.expires_at",
                )
                .bind(user)
                .bind(code_hash)
                .bind(expires_at)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn take_password_reset(
                &self,
                user: UserId,
                code_hash: &[u8],
                now: Millis,
            ) -> Result<bool, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                let taken = sqlx::query(
                    "DELETE FROM password_resets WHERE user_id = $1 AND code_hash = $2 AND expires_at > $3",
                )
                .bind(user)
                .bind(code_hash)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    == 1;
                tx.commit().await?;
                Ok(taken)
            }

            async fn delete_expired_sessions(&self, now: Millis) -> Result<u64, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                let n = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                tx.commit().await?;
                Ok(n)
            }

            async fn standings(&self, user: UserId) -> Result<Vec<PoolStanding>, StoreError> {
                let sql = format!(
                    "SELECT {STANDING_COLUMNS} FROM ratings r JOIN users u ON u.id = r.user_id {JOIN_LADDER} \
                     WHERE r.user_id = $1 AND r.games > 0"
                );
                let rows = sqlx::query(&sql).bind(user).fetch_all(self.reader()).await?;
                let mut standings = rows.iter().map(standing_row).collect::<Result<Vec<_>, _>>()?;
                standings.sort_by(|a, b| a.pool.cmp(&b.pool));
                Ok(standings)
            }

            async fn leaderboard(
                &self,
                pool: Pool,
                rule: &crate::BoardRule,
                limit: u32,
                offset: u32,
            ) -> Result<Vec<PoolStanding>, StoreError> {
                // `r.established` is the condition of the partial index `ratings_board`, written alike so both
                // databases can prove the index applies; it walks the pool's established players best first.
                let sql = format!(
                    "SELECT {STANDING_COLUMNS} FROM ratings r JOIN users u ON u.id = r.user_id {JOIN_LADDER} \
                     WHERE r.pool = $1 AND r.established AND r.games >= $2 AND r.established_opponents >= $3 \
                     AND r.deviation <= $4 AND r.updated_at >= $5 \
                     ORDER BY r.rating DESC, r.user_id LIMIT $6 OFFSET $7"
                );
                let rows = sqlx::query(&sql)
                    .bind(pool.name().as_ref())
                    .bind(i64::from(rule.min_games))
                    .bind(i64::from(rule.min_opponents))
                    .bind(rule.max_deviation)
                    .bind(rule.active_since)
                    .bind(i64::from(limit))
                    .bind(i64::from(offset))
                    .fetch_all(self.reader())
                    .await?;
                rows.iter().map(standing_row).collect()
            }

            async fn rating_history(&self, user: UserId) -> Result<Vec<HistoryPoint>, StoreError> {
                let rows = sqlx::query(
                    "SELECT game_id, pool, at, rating_after, deviation_after FROM rating_changes \
                     WHERE user_id = $1 ORDER BY at, game_id",
                )
                .bind(user)
                .fetch_all(self.reader())
                .await?;
                rows.iter()
                    .map(|row| {
                        Ok(HistoryPoint {
                            game_id: row.try_get("game_id")?,
                            pool: codec::pool_parse(row.try_get("pool")?)?,
                            at: row.try_get("at")?,
                            rating: row.try_get("rating_after")?,
                            deviation: row.try_get("deviation_after")?,
                        })
                    })
                    .collect()
            }

            async fn games_of(
                &self,
                user: UserId,
                before: Option<GameId>,
                limit: u32,
            ) -> Result<Vec<GameRecord>, StoreError> {
                self.games_listed(user, before, limit, true).await
            }

            async fn public_games_of(
                &self,
                user: UserId,
                before: Option<GameId>,
                limit: u32,
            ) -> Result<Vec<GameRecord>, StoreError> {
                self.games_listed(user, before, limit, false).await
            }

            async fn games_filtered(
                &self,
                user: UserId,
                before: Option<GameId>,
                limit: u32,
                private: bool,
                filter: &crate::GameFilter,
            ) -> Result<Vec<GameRecord>, StoreError> {
                self.games_listed_filtered(user, before, limit, private, filter).await
            }

            async fn create_match(&self, new: &crate::NewMatch) -> Result<crate::MatchId, StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                let id: crate::MatchId = sqlx::query_scalar(
                    "INSERT INTO matches (room, game, games, rated, first_name, first_user_id, second_name, \
                     second_user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                )
                .bind(&new.room)
                .bind(&new.game)
                .bind(i64::from(new.games))
                .bind(new.rated)
                .bind(&new.first.name)
                .bind(new.first.user_id)
                .bind(&new.second.name)
                .bind(new.second.user_id)
                .bind(new.created_at)
                .fetch_one(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(id)
            }

            async fn match_by_id(&self, id: crate::MatchId) -> Result<Option<crate::MatchRecord>, StoreError> {
                let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1");
                sqlx::query(&sql).bind(id).fetch_optional(self.reader()).await?.as_ref().map(match_row).transpose()
            }

            async fn match_of_room(&self, room: &str) -> Result<Option<crate::MatchRecord>, StoreError> {
                let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE room = $1 ORDER BY id DESC LIMIT 1");
                sqlx::query(&sql).bind(room).fetch_optional(self.reader()).await?.as_ref().map(match_row).transpose()
            }

            async fn match_games(&self, room: &str) -> Result<Vec<crate::MatchGame>, StoreError> {
                let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE room = $1 ORDER BY id");
                let rows = sqlx::query(&sql).bind(room).fetch_all(self.reader()).await?;
                rows.iter()
                    .map(|row| {
                        let r = game_row(row)?;
                        Ok(crate::MatchGame {
                            id: r.id,
                            public_id: r.game.public_id,
                            black: r.game.black,
                            white: r.game.white,
                            swapped: r.swapped,
                            end: r.end,
                            started_at: r.game.started_at,
                        })
                    })
                    .collect()
            }

            fn batches_in_flight(&self) -> usize {
                BATCHES_IN_FLIGHT
            }

            async fn claim_room(&self, room: &str, node: &str, lease_ms: i64) -> Result<Option<crate::Fence>, StoreError> {
                self.claim(room, node, lease_ms).await
            }

            async fn renew_rooms(&self, node: &str, lease_ms: i64) -> Result<Vec<String>, StoreError> {
                self.renew(node, lease_ms).await
            }

            async fn release_room(&self, fence: &crate::Fence) -> Result<(), StoreError> {
                self.release(fence).await
            }

            async fn expired_rooms(&self, limit: u32) -> Result<Vec<String>, StoreError> {
                self.expired(limit).await
            }

            async fn forget_expired_room(&self, room: &str) -> Result<(), StoreError> {
                self.forget_expired(room).await
            }

            async fn hand_over_rooms(&self, node: &str) -> Result<u64, StoreError> {
                self.hand_over(node).await
            }

            async fn open_room(
                &self,
                room: &str,
                node: &str,
                player: &str,
                lease_ms: i64,
                limit: u32,
            ) -> Result<crate::RoomOpening, StoreError> {
                self.open_for(room, node, player, lease_ms, limit).await
            }

            async fn use_bucket(
                &self,
                key: &str,
                shape: crate::BucketShape,
                want: crate::BucketUse,
            ) -> Result<crate::BucketAnswer, StoreError> {
                self.bucket_use(key, shape, want).await
            }

            async fn bucket_tokens(&self, key: &str, shape: crate::BucketShape) -> Result<f64, StoreError> {
                self.bucket_level(key, shape).await
            }

            async fn sweep_buckets(&self) -> Result<u64, StoreError> {
                self.bucket_sweep().await
            }

            async fn close(&self) {
                self.close_pools().await;
            }
        }
    };
}

pub(crate) use store_impl;
