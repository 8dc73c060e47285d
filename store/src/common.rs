//! The SQL both databases share, written once.
//!
//! Both schemas have the same tables and columns and both drivers accept `$1`-style parameters, so the queries
//! are identical; what differs is how a write transaction begins (SQLite: `BEGIN IMMEDIATE` on the single writer
//! connection) and how rating rows are locked (Postgres: `FOR UPDATE`). sqlx's concrete types differ per
//! database, so this macro writes the [`crate::Store`] implementation for each: the caller provides
//! `self.reader()`, `self.begin_write()`, the `LOCK_RATINGS` suffix and `BATCHES_IN_FLIGHT`.

/// Implements [`crate::Store`] for `$store` over database `$db` with rows of type `$row`.
macro_rules! store_impl {
    ($store:ty, $db:ty, $row:ty) => {
        use std::collections::HashMap;

        use async_trait::async_trait;
        use ratings::{glicko2, Pool, Rating, Tier};
        use sqlx::Row;

        use crate::{append, ending, statements};
        use crate::codec::{self, corrupt};
        use crate::{
            Finished, GameEnd, GameId, GameRecord, Guest, HistoryPoint, Millis, NewGame, PlayerRef, PoolStanding,
            RatingChange, SessionOwner, Store, StoredAction, User, UserId, Write, Written,
        };

        const GAME_COLUMNS: &str = "id, room, board_size, rule_set, forbidden_policy, opening, time_control, \
            public, rated, black_name, black_user_id, white_name, white_user_id, started_at, ended_at, winner, aborted, \
            reason, swapped, public_id";

        /// A game row: the game, its end, and whether colours were swapped (known once it ended).
        struct GameRow {
            id: GameId,
            game: NewGame,
            end: Option<GameEnd>,
            swapped: bool,
        }

        fn game_row(row: &$row) -> Result<GameRow, StoreError> {
            let rules = codec::rules_from_columns(
                row.try_get("board_size")?,
                row.try_get("rule_set")?,
                row.try_get("forbidden_policy")?,
                row.try_get("opening")?,
            )?;
            let ended_at: Option<i64> = row.try_get("ended_at")?;
            let end = match ended_at {
                None => None,
                Some(ended_at) => {
                    let winner: Option<String> = row.try_get("winner")?;
                    Some(GameEnd {
                        winner: winner.as_deref().map(codec::color_parse).transpose()?,
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
                    rules,
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

        fn action_row(row: &$row) -> Result<StoredAction, StoreError> {
            let seq: i64 = row.try_get("seq")?;
            let black: Option<i64> = row.try_get("remaining_black_ms")?;
            let white: Option<i64> = row.try_get("remaining_white_ms")?;
            Ok(StoredAction {
                seq: u32::try_from(seq).map_err(|e| corrupt("action seq", e))?,
                action: codec::action_parse(row.try_get("action")?)?,
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
            })
        }

        const STANDING_COLUMNS: &str = "r.user_id, u.name, r.pool, r.rating, r.deviation, r.volatility, r.games, \
            r.wins, r.losses, r.draws";

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
                    "SELECT seq, action, used_ms, remaining_black_ms, remaining_white_ms, at \
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
                let (black_end, white_end) =
                    ending::seats_at_end(row.game.black.user_id, row.game.white.user_id, row.swapped);
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
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE (black_user_id = $1 OR white_user_id = $1) \
                     AND id < $2 AND (public = $4 OR public) ORDER BY id DESC LIMIT $3"
                );
                let rows = sqlx::query(&sql)
                    .bind(user)
                    .bind(before.unwrap_or(GameId::MAX))
                    .bind(i64::from(limit))
                    .bind(!private)
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

            /// The transaction of [`Self::write_batch_sqlx`]; also returns the heads it left.
            async fn write_batch_tx(
                &self,
                batch: &[Write],
            ) -> Result<(Vec<Written>, HashMap<GameId, append::Head>), StoreError> {
                let (_gate, mut tx) = self.begin_write().await?;
                let mut created = std::collections::VecDeque::new();
                let mut appends = Vec::new();
                for w in batch {
                    match w {
                        Write::Create(game) => created.push_back(Self::create_in(&mut tx, game).await?),
                        Write::Append(game, action) => appends.push((*game, action.clone())),
                        Write::Finish(..) => {}
                    }
                }
                let heads = if appends.is_empty() {
                    HashMap::new()
                } else {
                    self.append_in(&mut tx, &appends).await?
                };
                let mut answers = Vec::with_capacity(batch.len());
                for w in batch {
                    answers.push(match w {
                        Write::Create(_) => Written::Created(created.pop_front().ok_or_else(|| {
                            StoreError::Database("a created game went missing".to_owned())
                        })?),
                        Write::Append(..) => Written::Appended,
                        Write::Finish(game, end) => Written::Finished(Self::finish_in(&mut tx, *game, end).await?),
                    });
                }
                tx.commit().await?;
                Ok((answers, heads))
            }

            /// Inserts a game row inside a write transaction.
            async fn create_in(tx: &mut sqlx::Transaction<'static, $db>, game: &NewGame) -> Result<GameId, StoreError> {
                let (size, rule_set, policy, opening) = codec::rules_columns(&game.rules);
                let id: GameId = sqlx::query_scalar(statements::INSERT_GAME)
                .bind(&game.room)
                .bind(size)
                .bind(rule_set)
                .bind(policy)
                .bind(opening)
                .bind(&game.time_control)
                .bind(game.public)
                .bind(game.rated)
                .bind(&game.black.name)
                .bind(game.black.user_id)
                .bind(&game.white.name)
                .bind(game.white.user_id)
                .bind(game.started_at)
                .bind(&game.public_id)
                .fetch_one(&mut **tx)
                .await?;
                Ok(id)
            }

            /// Appends actions inside a write transaction (see [`Store::append_actions`]); returns the heads
            /// the batch leaves its games.
            async fn append_in(
                &self,
                tx: &mut sqlx::Transaction<'static, $db>,
                batch: &[(GameId, StoredAction)],
            ) -> Result<HashMap<GameId, append::Head>, StoreError> {
                // A fixed number of statements per batch (see `append.rs`): one read of the heads the store
                // does not remember, the checks in memory, one multi-row insert; a second read only for retries
                // of committed actions.
                let (mut heads, unknown) = match self.head_cache() {
                    Some(cache) => cache.lookup(batch),
                    None => {
                        let mut games: Vec<GameId> = batch.iter().map(|(game, _)| *game).collect();
                        games.sort_unstable();
                        games.dedup();
                        (HashMap::new(), games)
                    }
                };
                if !unknown.is_empty() {
                    heads.extend(Self::heads(tx, &unknown).await?);
                }
                let append::Plan { rows, retries } = append::plan(batch, &heads)?;
                if !retries.is_empty() {
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
                        for row in query.build().persistent(false).fetch_all(&mut **tx).await? {
                            stored.insert(
                                (row.try_get::<GameId, _>("game_id")?, row.try_get::<i64, _>("seq")?),
                                row.try_get::<String, _>("action")?,
                            );
                        }
                    }
                    append::check_retries(&retries, &stored)?;
                }
                append::advance(&mut heads, &rows);
                Self::insert_actions(tx, rows).await?;
                Ok(heads)
            }

            /// Ends a game inside a write transaction (see [`Store::finish_game`]).
            async fn finish_in(
                tx: &mut sqlx::Transaction<'static, $db>,
                game: GameId,
                end: &GameEnd,
            ) -> Result<Option<Finished>, StoreError> {
                let winner = if end.aborted { None } else { end.winner.map(codec::color_text) };
                // The conditional update is the exactly-once gate: of two racing endings only one sees
                // `ended_at IS NULL` (Postgres re-checks it after waiting for the other's row lock; SQLite runs
                // one writer at a time).
                // One statement for the common game (casual, no swap opening): the update returns the row.
                let sql = format!(
                    "UPDATE games SET ended_at = $1, winner = $2, aborted = $3, reason = $4 \
                     WHERE id = $5 AND ended_at IS NULL RETURNING {GAME_COLUMNS}"
                );
                let ended = sqlx::query(&sql)
                    .bind(end.ended_at)
                    .bind(winner)
                    .bind(end.aborted)
                    .bind(&end.reason)
                    .bind(game)
                    .fetch_optional(&mut **tx)
                    .await?;
                let Some(row) = ended else {
                    let exists: Option<GameId> = sqlx::query_scalar(statements::GAME_EXISTS)
                        .bind(game)
                        .fetch_optional(&mut **tx)
                        .await?;
                    return match exists {
                        Some(_) => Ok(None),
                        None => Err(StoreError::NoSuchGame),
                    };
                };
                let stored = game_row(&row)?;
                // Only an opening with a swap can have exchanged the colours.
                let swapped = if stored.game.rules.opening().swaps_after_three() {
                    let swaps: Vec<String> = sqlx::query_scalar(statements::SWAP_ACTIONS)
                    .bind(game)
                    .fetch_all(&mut **tx)
                    .await?;
                    let swaps = swaps.iter().map(|t| codec::action_parse(t)).collect::<Result<Vec<_>, _>>()?;
                    codec::swapped_by(&swaps)
                } else {
                    false
                };
                if swapped {
                    sqlx::query(statements::MARK_SWAPPED)
                        .bind(true)
                        .bind(game)
                        .execute(&mut **tx)
                        .await?;
                }
                let (black, white) = ending::seats_at_end(stored.game.black.user_id, stored.game.white.user_id, swapped);
                let rating_changes = match (black, white) {
                    (Some(black), Some(white)) if stored.game.rated && !end.aborted && black != white => {
                        let score_black = ending::score_black(end.winner);
                        let pool = Pool::of(stored.game.rules.rule_set());
                        Some(Self::rate(tx, game, pool, black, white, score_black, end.ended_at).await?)
                    }
                    _ => None,
                };
                Ok(Some(Finished { rating_changes }))
            }

            /// Rates a finished game inside the transaction that ended it. `black`/`white` are the users seated
            /// so at the end; `score_black` is 1, 0.5 or 0.
            async fn rate(
                tx: &mut sqlx::Transaction<'static, $db>,
                game: GameId,
                pool: Pool,
                black: UserId,
                white: UserId,
                score_black: f64,
                at: Millis,
            ) -> Result<[RatingChange; 2], StoreError> {
                let default = Rating::default();
                // Make sure both rows exist so both can be locked; in ascending user order so two games of the
                // same players lock in the same order and cannot deadlock.
                let (low, high) = if black < white { (black, white) } else { (white, black) };
                for user in [low, high] {
                    sqlx::query(statements::ENSURE_RATING)
                    .bind(user)
                    .bind(pool.as_str())
                    .bind(default.rating)
                    .bind(default.deviation)
                    .bind(default.volatility)
                    .bind(Tier::of(&default).code())
                    .bind(at)
                    .execute(&mut **tx)
                    .await?;
                }
                let sql = format!("{}{LOCK_RATINGS}", statements::RATINGS_OF_TWO);
                let rows = sqlx::query(&sql)
                    .bind(pool.as_str())
                    .bind(low)
                    .bind(high)
                    .fetch_all(&mut **tx)
                    .await?;
                let mut current = HashMap::new();
                for row in &rows {
                    let user: UserId = row.try_get("user_id")?;
                    current.insert(
                        user,
                        Rating::new(row.try_get("rating")?, row.try_get("deviation")?, row.try_get("volatility")?),
                    );
                }
                let black_before = current.get(&black).copied().unwrap_or(default);
                let white_before = current.get(&white).copied().unwrap_or(default);
                let (black_after, white_after) = glicko2::rate_game(black_before, white_before, score_black);
                let changes = [
                    RatingChange { user_id: black, pool, before: black_before, after: black_after },
                    RatingChange { user_id: white, pool, before: white_before, after: white_after },
                ];
                for (change, score) in changes.iter().zip([score_black, 1.0 - score_black]) {
                    let (win, loss, draw) = ending::tally(score);
                    let tier = Tier::of(&change.after).code();
                    sqlx::query(statements::UPDATE_RATING)
                    .bind(change.after.rating)
                    .bind(change.after.deviation)
                    .bind(change.after.volatility)
                    .bind(win)
                    .bind(loss)
                    .bind(draw)
                    .bind(tier)
                    .bind(at)
                    .bind(change.user_id)
                    .bind(pool.as_str())
                    .execute(&mut **tx)
                    .await?;
                    sqlx::query(statements::INSERT_RATING_CHANGE)
                    .bind(game)
                    .bind(change.user_id)
                    .bind(pool.as_str())
                    .bind(change.before.rating)
                    .bind(change.before.deviation)
                    .bind(change.before.volatility)
                    .bind(change.after.rating)
                    .bind(change.after.deviation)
                    .bind(change.after.volatility)
                    .bind(tier)
                    .bind(at)
                    .execute(&mut **tx)
                    .await?;
                }
                Ok(changes)
            }
        }

        impl $store {
            /// Gives every user registered before look-alike keys existed their [`crate::name_skeleton`], in id
            /// order. Where two such users already look alike, the later one keeps no key (`NULL`, which the unique
            /// index admits) and is logged: both names keep working, and new look-alikes of either are refused
            /// through the earlier one's key. Returns how many users got a key.
            async fn backfill_name_skeletons(&self) -> Result<u64, StoreError> {
                let rows: Vec<(UserId, String)> =
                    sqlx::query_as("SELECT id, name FROM users WHERE name_skeleton IS NULL ORDER BY id")
                        .fetch_all(self.reader())
                        .await?;
                let mut filled = 0;
                for (id, name) in rows {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let key = crate::name_skeleton(&name);
                    let clash: Option<UserId> = sqlx::query_scalar("SELECT id FROM users WHERE name_skeleton = $1")
                        .bind(&key)
                        .fetch_optional(&mut *tx)
                        .await?;
                    if let Some(other) = clash {
                        tracing::warn!(user = id, looks_like = other, "an existing username looks like another");
                        continue;
                    }
                    sqlx::query("UPDATE users SET name_skeleton = $1 WHERE id = $2")
                        .bind(&key)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    filled += 1;
                }
                Ok(filled)
            }
        }

        #[async_trait]
        impl Store for $store {
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
                let (_gate, mut tx) = self.begin_write().await?;
                // Whatever the store remembers of the game's last action is about to be wrong.
                self.forget_head(game);
                let exists: Option<GameId> = sqlx::query_scalar(statements::GAME_EXISTS)
                    .bind(game)
                    .fetch_optional(&mut *tx)
                    .await?;
                if exists.is_none() {
                    return Err(StoreError::NoSuchGame);
                }
                sqlx::query("DELETE FROM actions WHERE game_id = $1 AND seq >= $2")
                    .bind(game)
                    .bind(i64::from(keep))
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                // And again: a batch of the game racing this takeback may have remembered a head it deleted.
                self.forget_head(game);
                Ok(())
            }

            async fn finish_game(&self, game: GameId, end: &GameEnd) -> Result<Option<Finished>, StoreError> {
                match self.write_batch_routed(&[Write::Finish(game, end.clone())]).await?.pop() {
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
                    "SELECT {STANDING_COLUMNS} FROM ratings r JOIN users u ON u.id = r.user_id \
                     WHERE r.user_id = $1 AND r.games > 0"
                );
                let rows = sqlx::query(&sql).bind(user).fetch_all(self.reader()).await?;
                let mut standings = rows.iter().map(standing_row).collect::<Result<Vec<_>, _>>()?;
                standings.sort_by_key(|s| s.pool);
                Ok(standings)
            }

            async fn leaderboard(
                &self,
                pool: Pool,
                min_games: u32,
                limit: u32,
                offset: u32,
            ) -> Result<Vec<PoolStanding>, StoreError> {
                // `deviation <= 110` is written as in the partial index `ratings_leaderboard` (and equals
                // ratings::PROVISIONAL_DEVIATION) so both databases can prove the index applies.
                let sql = format!(
                    "SELECT {STANDING_COLUMNS} FROM ratings r JOIN users u ON u.id = r.user_id \
                     WHERE r.pool = $1 AND r.deviation <= 110 AND r.games >= $2 \
                     ORDER BY r.rating DESC, r.user_id LIMIT $3 OFFSET $4"
                );
                let rows = sqlx::query(&sql)
                    .bind(pool.as_str())
                    .bind(i64::from(min_games))
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

            fn batches_in_flight(&self) -> usize {
                BATCHES_IN_FLIGHT
            }

            async fn close(&self) {
                self.close_pools().await;
            }
        }
    };
}

pub(crate) use store_impl;
