//! The events' tables (issue #34): arenas, Swiss tournaments and round robins, their entrants, and the games
//! (and byes) they paired with their results.
//!
//! The server keeps nothing about an event that is not here: a restarted server replays these rows into the
//! event's standings and pairings (`server/src/events/`). Each method is one transaction, so an action is either
//! wholly stored or not at all.

use async_trait::async_trait;

use crate::{Millis, StoreError, UserId};

/// An event's id.
pub type EventId = i64;
/// A stored pairing's id.
pub type PairingId = i64;

/// An event about to be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEvent {
    /// Its name.
    pub name: String,
    /// `arena`, `swiss` or `round_robin`.
    pub kind: String,
    /// The game and its rules, as the server's JSON.
    pub game: String,
    /// The clock, as the server's JSON.
    pub time_control: String,
    /// Swiss: the rounds; round robin: the schedule's, set when it starts; arena: 0.
    pub rounds: u32,
    /// Arena: how long it runs, in milliseconds; 0 otherwise.
    pub duration_ms: i64,
    /// Whether its games are rated.
    pub rated: bool,
    /// When it starts.
    pub starts_at: Millis,
    /// The argon2id PHC string of a private event's password.
    pub password_hash: Option<String>,
    /// Who made it.
    pub creator_name: String,
    /// The maker's account, if any.
    pub creator_user_id: Option<UserId>,
    /// When it was made.
    pub created_at: Millis,
}

/// A stored event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRecord {
    /// Its id.
    pub id: EventId,
    /// As made (the rounds of a round robin as set when it started).
    pub new: NewEvent,
    /// `upcoming`, `running` or `finished`.
    pub status: String,
    /// When it started.
    pub started_at: Option<Millis>,
    /// When it finished.
    pub finished_at: Option<Millis>,
}

/// An entrant about to be stored (its number is the next free one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEntrant {
    /// The name it plays under.
    pub name: String,
    /// Its account, if any.
    pub user_id: Option<UserId>,
    /// The server's identity key.
    pub player_key: String,
    /// Its rating in the event's pool when it joined (rounded).
    pub rating: i64,
    /// Rounds already paired when it joined.
    pub joined_round: u32,
    /// When.
    pub joined_at: Millis,
}

/// A stored entrant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Its number in the event (1, 2, … in the order they joined).
    pub number: u32,
    /// As it joined.
    pub new: NewEntrant,
    /// Whether it withdrew (or left).
    pub withdrawn: bool,
}

/// A pairing about to be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPairing {
    /// Swiss and round robin: the round; arena: 0.
    pub round: u32,
    /// The board (1 first).
    pub board: u32,
    /// The entrant who moves first.
    pub first: u32,
    /// The other entrant; `None` for a bye.
    pub second: Option<u32>,
    /// The result when it is known as it is paired (a bye, a forfeit).
    pub result: Option<String>,
    /// When.
    pub created_at: Millis,
}

/// A stored pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRecord {
    /// Its id.
    pub id: PairingId,
    /// As paired.
    pub new: NewPairing,
    /// The room its game is played in, once opened.
    pub room: Option<String>,
    /// The game's id, once opened.
    pub game_id: Option<i64>,
    /// When its result was stored.
    pub ended_at: Option<Millis>,
}

/// The events' storage.
#[async_trait]
pub trait EventStore: Send + Sync {
    /// Stores a new event (`upcoming`); returns its id.
    async fn create_event(&self, new: &NewEvent) -> Result<EventId, StoreError>;
    /// An event by id.
    async fn event(&self, id: EventId) -> Result<Option<EventRecord>, StoreError>;
    /// The latest `limit` events of a status, soonest start first for `upcoming`, latest first otherwise.
    async fn events_with_status(
        &self,
        status: &str,
        limit: u32,
    ) -> Result<Vec<EventRecord>, StoreError>;
    /// Sets an event's status (`running` sets `started_at` and the rounds, `finished` sets `finished_at`).
    async fn set_event_status(
        &self,
        id: EventId,
        status: &str,
        rounds: u32,
        at: Millis,
    ) -> Result<(), StoreError>;
    /// Adds an entrant under the next free number and returns it; refused (`StoreError::Database`) when
    /// the player is entered already.
    async fn add_entrant(&self, event: EventId, new: &NewEntrant) -> Result<u32, StoreError>;
    /// Marks an entrant withdrawn or back.
    async fn set_withdrawn(
        &self,
        event: EventId,
        number: u32,
        withdrawn: bool,
    ) -> Result<(), StoreError>;
    /// Removes an entrant of an event that has not started.
    async fn remove_entrant(&self, event: EventId, number: u32) -> Result<(), StoreError>;
    /// An event's entrants by number.
    async fn entrants(&self, event: EventId) -> Result<Vec<Entrant>, StoreError>;
    /// Stores pairings (a round, or an arena's wave) in one transaction; returns their ids in order.
    async fn add_pairings(
        &self,
        event: EventId,
        pairings: &[NewPairing],
    ) -> Result<Vec<PairingId>, StoreError>;
    /// Notes the room and game a pairing is played in.
    async fn set_pairing_game(
        &self,
        id: PairingId,
        room: &str,
        game_id: i64,
    ) -> Result<(), StoreError>;
    /// Stores a pairing's result (once: a pairing that has one keeps it; returns whether this one was stored).
    async fn set_pairing_result(
        &self,
        id: PairingId,
        result: &str,
        at: Millis,
    ) -> Result<bool, StoreError>;
    /// An event's pairings in the order they were made.
    async fn pairings(&self, event: EventId) -> Result<Vec<PairingRecord>, StoreError>;
}

/// Implements [`EventStore`] for `$store` over database `$db` with rows of type `$row` (as `store_impl!`).
macro_rules! events_impl {
    ($store:ty, $db:ty, $row:ty) => {
        const _: () = {
            use async_trait::async_trait;
            use sqlx::Row;

            use crate::events::{
                Entrant, EventId, EventRecord, EventStore, NewEntrant, NewEvent, NewPairing, PairingId, PairingRecord,
            };
            use crate::{Millis, StoreError};

            const EVENT_COLUMNS: &str = "id, name, kind, game, time_control, rounds, duration_ms, rated, starts_at, \
                password_hash, creator_name, creator_user_id, status, started_at, finished_at, created_at";

            fn count(v: i64) -> u32 {
                u32::try_from(v).unwrap_or(0)
            }

            fn event_row(row: &$row) -> Result<EventRecord, StoreError> {
                Ok(EventRecord {
                    id: row.try_get("id")?,
                    new: NewEvent {
                        name: row.try_get("name")?,
                        kind: row.try_get("kind")?,
                        game: row.try_get("game")?,
                        time_control: row.try_get("time_control")?,
                        rounds: count(row.try_get("rounds")?),
                        duration_ms: row.try_get("duration_ms")?,
                        rated: row.try_get("rated")?,
                        starts_at: row.try_get("starts_at")?,
                        password_hash: row.try_get("password_hash")?,
                        creator_name: row.try_get("creator_name")?,
                        creator_user_id: row.try_get("creator_user_id")?,
                        created_at: row.try_get("created_at")?,
                    },
                    status: row.try_get("status")?,
                    started_at: row.try_get("started_at")?,
                    finished_at: row.try_get("finished_at")?,
                })
            }

            fn entrant_row(row: &$row) -> Result<Entrant, StoreError> {
                Ok(Entrant {
                    number: count(row.try_get("number")?),
                    new: NewEntrant {
                        name: row.try_get("name")?,
                        user_id: row.try_get("user_id")?,
                        player_key: row.try_get("player_key")?,
                        rating: row.try_get("rating")?,
                        joined_round: count(row.try_get("joined_round")?),
                        joined_at: row.try_get("joined_at")?,
                    },
                    withdrawn: row.try_get("withdrawn")?,
                })
            }

            fn pairing_row(row: &$row) -> Result<PairingRecord, StoreError> {
                let second: Option<i64> = row.try_get("second_number")?;
                Ok(PairingRecord {
                    id: row.try_get("id")?,
                    new: NewPairing {
                        round: count(row.try_get("round")?),
                        board: count(row.try_get("board")?),
                        first: count(row.try_get("first_number")?),
                        second: second.map(count),
                        result: row.try_get("result")?,
                        created_at: row.try_get("created_at")?,
                    },
                    room: row.try_get("room")?,
                    game_id: row.try_get("game_id")?,
                    ended_at: row.try_get("ended_at")?,
                })
            }

            #[async_trait]
            impl EventStore for $store {
                async fn create_event(&self, new: &NewEvent) -> Result<EventId, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let id: EventId = sqlx::query_scalar(
                        "INSERT INTO events (name, kind, game, time_control, rounds, duration_ms, rated, starts_at, \
                         password_hash, creator_name, creator_user_id, status, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'upcoming', $12) RETURNING id",
                    )
                    .bind(&new.name)
                    .bind(&new.kind)
                    .bind(&new.game)
                    .bind(&new.time_control)
                    .bind(i64::from(new.rounds))
                    .bind(new.duration_ms)
                    .bind(new.rated)
                    .bind(new.starts_at)
                    .bind(&new.password_hash)
                    .bind(&new.creator_name)
                    .bind(new.creator_user_id)
                    .bind(new.created_at)
                    .fetch_one(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(id)
                }

                async fn event(&self, id: EventId) -> Result<Option<EventRecord>, StoreError> {
                    let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE id = $1");
                    sqlx::query(&sql).bind(id).fetch_optional(self.reader()).await?.as_ref().map(event_row).transpose()
                }

                async fn events_with_status(&self, status: &str, limit: u32) -> Result<Vec<EventRecord>, StoreError> {
                    let order = if status == "upcoming" { "starts_at, id" } else { "id DESC" };
                    let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE status = $1 ORDER BY {order} LIMIT $2");
                    let rows = sqlx::query(&sql)
                        .bind(status)
                        .bind(i64::from(limit))
                        .fetch_all(self.reader())
                        .await?;
                    rows.iter().map(event_row).collect()
                }

                async fn set_event_status(
                    &self,
                    id: EventId,
                    status: &str,
                    rounds: u32,
                    at: Millis,
                ) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let sql = if status == "finished" {
                        "UPDATE events SET status = $1, rounds = $2, finished_at = $3 WHERE id = $4"
                    } else {
                        "UPDATE events SET status = $1, rounds = $2, started_at = $3 WHERE id = $4"
                    };
                    sqlx::query(sql)
                        .bind(status)
                        .bind(i64::from(rounds))
                        .bind(at)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn add_entrant(&self, event: EventId, new: &NewEntrant) -> Result<u32, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let taken: Option<i64> = sqlx::query_scalar(
                        "SELECT number FROM event_entrants WHERE event_id = $1 AND player_key = $2",
                    )
                    .bind(event)
                    .bind(&new.player_key)
                    .fetch_optional(&mut *tx)
                    .await?;
                    if taken.is_some() {
                        return Err(StoreError::Database("this player is entered already".to_owned()));
                    }
                    let last: Option<i64> =
                        sqlx::query_scalar("SELECT MAX(number) FROM event_entrants WHERE event_id = $1")
                            .bind(event)
                            .fetch_one(&mut *tx)
                            .await?;
                    let number = last.unwrap_or(0) + 1;
                    sqlx::query(
                        "INSERT INTO event_entrants (event_id, number, name, user_id, player_key, rating, \
                         joined_round, withdrawn, joined_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    )
                    .bind(event)
                    .bind(number)
                    .bind(&new.name)
                    .bind(new.user_id)
                    .bind(&new.player_key)
                    .bind(new.rating)
                    .bind(i64::from(new.joined_round))
                    .bind(false)
                    .bind(new.joined_at)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(count(number))
                }

                async fn set_withdrawn(&self, event: EventId, number: u32, withdrawn: bool) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("UPDATE event_entrants SET withdrawn = $1 WHERE event_id = $2 AND number = $3")
                        .bind(withdrawn)
                        .bind(event)
                        .bind(i64::from(number))
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn remove_entrant(&self, event: EventId, number: u32) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("DELETE FROM event_entrants WHERE event_id = $1 AND number = $2")
                        .bind(event)
                        .bind(i64::from(number))
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn entrants(&self, event: EventId) -> Result<Vec<Entrant>, StoreError> {
                    let rows = sqlx::query(
                        "SELECT number, name, user_id, player_key, rating, joined_round, withdrawn, joined_at \
                         FROM event_entrants WHERE event_id = $1 ORDER BY number",
                    )
                    .bind(event)
                    .fetch_all(self.reader())
                    .await?;
                    rows.iter().map(entrant_row).collect()
                }

                async fn add_pairings(
                    &self,
                    event: EventId,
                    pairings: &[NewPairing],
                ) -> Result<Vec<PairingId>, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let mut ids = Vec::with_capacity(pairings.len());
                    for p in pairings {
                        let ended_at = p.result.as_ref().map(|_| p.created_at);
                        let id: PairingId = sqlx::query_scalar(
                            "INSERT INTO event_pairings (event_id, round, board, first_number, second_number, result, \
                             created_at, ended_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                        )
                        .bind(event)
                        .bind(i64::from(p.round))
                        .bind(i64::from(p.board))
                        .bind(i64::from(p.first))
                        .bind(p.second.map(i64::from))
                        .bind(&p.result)
                        .bind(p.created_at)
                        .bind(ended_at)
                        .fetch_one(&mut *tx)
                        .await?;
                        ids.push(id);
                    }
                    tx.commit().await?;
                    Ok(ids)
                }

                async fn set_pairing_game(&self, id: PairingId, room: &str, game_id: i64) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("UPDATE event_pairings SET room = $1, game_id = $2 WHERE id = $3")
                        .bind(room)
                        .bind(game_id)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn set_pairing_result(&self, id: PairingId, result: &str, at: Millis) -> Result<bool, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let stored = sqlx::query(
                        "UPDATE event_pairings SET result = $1, ended_at = $2 WHERE id = $3 AND result IS NULL",
                    )
                    .bind(result)
                    .bind(at)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                        == 1;
                    tx.commit().await?;
                    Ok(stored)
                }

                async fn pairings(&self, event: EventId) -> Result<Vec<PairingRecord>, StoreError> {
                    let rows = sqlx::query(
                        "SELECT id, round, board, first_number, second_number, room, game_id, result, created_at, \
                         ended_at FROM event_pairings WHERE event_id = $1 ORDER BY id",
                    )
                    .bind(event)
                    .fetch_all(self.reader())
                    .await?;
                    rows.iter().map(pairing_row).collect()
                }
            }
        };
    };
}

pub(crate) use events_impl;
