//! The community's tables (issue #38): roles, follows, blocks, stored chat lines, reports, sanctions (mutes and
//! bans, of accounts or of guests' address ranges), the moderators' audit log, notices, and closing an account.
//!
//! Every node of a cluster reads these from the one database, so a block, a mute or a ban made through any node
//! holds on all of them at the next check, without a cache to invalidate.

use async_trait::async_trait;

use crate::{Millis, StoreError, UserId};

/// A player's role.
pub const ROLES: &[&str] = &["player", "moderator", "administrator"];

/// The name a closed account's games show.
pub const DELETED_PLAYER: &str = "deleted player";

/// A chat line said in a room, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChatLine {
    /// Its id (what a moderator removes it by).
    pub id: i64,
    /// The room it was said in.
    pub room: String,
    /// The account that said it (`None` for a guest).
    pub user_id: Option<UserId>,
    /// The name it was said under.
    pub name: String,
    /// The cleaned text, as the room showed it.
    pub text: String,
    /// When.
    pub said_at: Millis,
    /// When a moderator removed it, if one did.
    pub removed_at: Option<Millis>,
    /// A guest's address range.
    pub address_range: Option<String>,
}

/// A report about to be stored.
#[derive(Clone, Debug)]
pub struct NewReport {
    /// Who reports.
    pub reporter: UserId,
    /// Whom.
    pub target: UserId,
    /// `cheating`, `chat_abuse`, `sandbagging` or `bad_name`.
    pub reason: String,
    /// The reporter's words.
    pub details: String,
    /// The room it was made from, if any.
    pub room: Option<String>,
    /// The game's public id, if any.
    pub game: Option<String>,
    /// The attached chat lines, as a JSON array.
    pub evidence: String,
    /// When.
    pub at: Millis,
}

/// A stored report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Its id.
    pub id: i64,
    /// The reporter's name.
    pub reporter: String,
    /// The reported player's id.
    pub target_id: UserId,
    /// The reported player's name.
    pub target: String,
    /// The reason code.
    pub reason: String,
    /// The reporter's words.
    pub details: String,
    /// The room it was made from.
    pub room: Option<String>,
    /// The game's public id.
    pub game: Option<String>,
    /// The attached chat lines (a JSON array).
    pub evidence: String,
    /// `open`, `resolved` or `dismissed`.
    pub status: String,
    /// When it was made.
    pub created_at: Millis,
    /// When a moderator closed it.
    pub closed_at: Option<Millis>,
}

/// One entry of the moderators' audit log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// Its id.
    pub id: i64,
    /// The moderator's name (as it was then).
    pub moderator: String,
    /// What was done (`warn`, `mute`, `remove_chat`, …).
    pub action: String,
    /// To whom (a name, or an address range).
    pub target: String,
    /// The moderator's reason.
    pub reason: String,
    /// What exactly (the mute's length, the old and new names, the removed line…).
    pub detail: String,
    /// When.
    pub at: Millis,
}

/// An audit-log entry about to be stored.
#[derive(Clone, Debug)]
pub struct NewLogEntry {
    /// The moderator.
    pub moderator_id: UserId,
    /// Their name.
    pub moderator: String,
    /// What was done.
    pub action: String,
    /// The account acted on, if an account.
    pub target_id: Option<UserId>,
    /// Its name, or the address range.
    pub target: String,
    /// Why.
    pub reason: String,
    /// What exactly.
    pub detail: String,
    /// When.
    pub at: Millis,
}

/// A mute or a ban about to be stored: of an account, or of guests from an address range.
#[derive(Clone, Debug)]
pub struct NewSanction {
    /// `mute` or `ban`.
    pub kind: String,
    /// The account.
    pub user_id: Option<UserId>,
    /// The guests' address range (`crate`'s callers' range key).
    pub address_range: Option<String>,
    /// Until when (`None`: until lifted).
    pub until: Option<Millis>,
    /// When.
    pub at: Millis,
    /// The moderator.
    pub by: UserId,
}

/// A notice from the moderators to a player (a warning).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Its id.
    pub id: i64,
    /// `warning`.
    pub kind: String,
    /// The moderators' words.
    pub text: String,
    /// When.
    pub created_at: Millis,
}

/// One player's rating in a pool as marking a cheater left it ([`CommunityStore::mark_cheater`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Restored {
    /// The pool's name.
    pub pool: String,
    /// The player (the cheater, or one of the players whose games the replay changed).
    pub user: UserId,
    /// The rating before the mark.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
}

/// The community's storage; both stores implement it over the same SQL (`community_impl!`).
#[async_trait]
pub trait CommunityStore: Send + Sync {
    /// A user's role (`player` when unknown).
    async fn role(&self, user: UserId) -> Result<String, StoreError>;
    /// Sets a user's role.
    async fn set_role(&self, user: UserId, role: &str) -> Result<(), StoreError>;
    /// When the account was closed, if it was.
    async fn closed_at(&self, user: UserId) -> Result<Option<Millis>, StoreError>;

    /// `follower` follows `followed` (again: nothing changes).
    async fn follow(
        &self,
        follower: UserId,
        followed: UserId,
        at: Millis,
    ) -> Result<(), StoreError>;
    /// Stops following.
    async fn unfollow(&self, follower: UserId, followed: UserId) -> Result<(), StoreError>;
    /// Whom a user follows: ids and names, by name.
    async fn following(&self, user: UserId) -> Result<Vec<(UserId, String)>, StoreError>;
    /// The followers to tell when `user` starts a game: none when `user` shares no games.
    async fn followers_to_tell(&self, user: UserId) -> Result<Vec<UserId>, StoreError>;
    /// Whether followers are told when the user starts a game.
    async fn share_games(&self, user: UserId) -> Result<bool, StoreError>;
    /// Sets it.
    async fn set_share_games(&self, user: UserId, share: bool) -> Result<(), StoreError>;

    /// `blocker` blocks `blocked` (again: nothing changes).
    async fn block(&self, blocker: UserId, blocked: UserId, at: Millis) -> Result<(), StoreError>;
    /// Lifts a block.
    async fn unblock(&self, blocker: UserId, blocked: UserId) -> Result<(), StoreError>;
    /// Whom a user blocks: ids and names, by name.
    async fn blocked_by(&self, user: UserId) -> Result<Vec<(UserId, String)>, StoreError>;
    /// Whether `blocker` blocks `blocked`.
    async fn blocks(&self, blocker: UserId, blocked: UserId) -> Result<bool, StoreError>;
    /// Everyone a user blocks or is blocked by.
    async fn block_relations(&self, user: UserId) -> Result<Vec<UserId>, StoreError>;

    /// Keeps a chat line; returns its id.
    async fn add_chat_line(
        &self,
        room: &str,
        user: Option<UserId>,
        name: &str,
        text: &str,
        address_range: Option<&str>,
        at: Millis,
    ) -> Result<i64, StoreError>;
    /// The last `limit` lines (oldest first) said in a room by an account, removed ones too.
    async fn chat_lines_in(
        &self,
        room: &str,
        user: UserId,
        limit: u32,
    ) -> Result<Vec<StoredChatLine>, StoreError>;
    /// Every line an account said, oldest first.
    async fn chat_lines_of(&self, user: UserId) -> Result<Vec<StoredChatLine>, StoreError>;
    /// One line.
    async fn chat_line(&self, id: i64) -> Result<Option<StoredChatLine>, StoreError>;
    /// Marks a line removed and erases its text (the moderators' audit log keeps what it said).
    async fn remove_chat_line(&self, id: i64, at: Millis) -> Result<(), StoreError>;
    /// Deletes a line kept for a chat message the room then refused.
    async fn forget_chat_line(&self, id: i64) -> Result<(), StoreError>;

    /// Stores a report; returns its id.
    async fn create_report(&self, report: &NewReport) -> Result<i64, StoreError>;
    /// How many reports a user made since `since`.
    async fn reports_since(&self, reporter: UserId, since: Millis) -> Result<u32, StoreError>;
    /// The reports a user made, newest first.
    async fn reports_by(&self, reporter: UserId) -> Result<Vec<Report>, StoreError>;
    /// Reports of a status (`None`: all), oldest first, at most `limit`.
    async fn reports(&self, status: Option<&str>, limit: u32) -> Result<Vec<Report>, StoreError>;
    /// One report.
    async fn report(&self, id: i64) -> Result<Option<Report>, StoreError>;
    /// Closes a report with a status.
    async fn close_report(
        &self,
        id: i64,
        status: &str,
        by: UserId,
        at: Millis,
    ) -> Result<(), StoreError>;

    /// Stores a mute or a ban.
    async fn add_sanction(&self, sanction: &NewSanction) -> Result<(), StoreError>;
    /// Until when the account or the range is under a sanction of `kind` at `now`: `Some(None)` for good,
    /// `Some(Some(t))` until `t`, `None` when it is not.
    async fn sanctioned(
        &self,
        kind: &str,
        user: Option<UserId>,
        range: Option<&str>,
        now: Millis,
    ) -> Result<Option<Option<Millis>>, StoreError>;
    /// Lifts every sanction of `kind` on an account.
    async fn lift_sanctions(&self, kind: &str, user: UserId) -> Result<(), StoreError>;

    /// Appends to the audit log; returns the entry's id.
    async fn log_action(&self, entry: &NewLogEntry) -> Result<i64, StoreError>;
    /// The audit log, newest first.
    async fn moderation_log(&self, limit: u32) -> Result<Vec<LogEntry>, StoreError>;

    /// Leaves a notice for a player.
    async fn add_notice(
        &self,
        user: UserId,
        kind: &str,
        text: &str,
        at: Millis,
    ) -> Result<(), StoreError>;
    /// A player's notices, newest first.
    async fn notices(&self, user: UserId) -> Result<Vec<Notice>, StoreError>;

    /// Marks an account a cheater and, in one transaction, recomputes every pool it played rated games in without
    /// them ([`crate::refund`]: the cheater's gains removed, their opponents' losses restored, every later game of
    /// the players concerned replayed with `rater`). Answers each changed rating; marking again recomputes again
    /// (and changes nothing more).
    async fn mark_cheater(
        &self,
        user: UserId,
        at: Millis,
        rater: crate::Rater,
    ) -> Result<Vec<Restored>, StoreError>;
    /// When the account was marked a cheater, if it was.
    async fn marked_cheater_at(&self, user: UserId) -> Result<Option<Millis>, StoreError>;

    /// Renames an account (its games keep the name they were played under).
    async fn rename_user(&self, user: UserId, name: &str) -> Result<(), StoreError>;
    /// Closes an account: it is renamed `deleted-<id>` and cannot sign in (no password hash verifies), its
    /// sessions, follows and blocks go, its games show [`DELETED_PLAYER`], its chat lines' texts are erased. Games
    /// and every rating row stay, so opponents' histories are untouched. Returns the closed sessions' token hashes.
    async fn close_account(&self, user: UserId, at: Millis) -> Result<Vec<Vec<u8>>, StoreError>;
}

/// Implements [`CommunityStore`] for `$store` over database `$db` with rows of type `$row` (as `store_impl!`).
macro_rules! community_impl {
    ($store:ty, $db:ty, $row:ty) => {
        const _: () = {
            use async_trait::async_trait;
            use sqlx::Row;

            use crate::community::{
                CommunityStore, LogEntry, NewLogEntry, NewReport, NewSanction, Notice, Report, Restored,
                StoredChatLine,
            };
            use crate::refund::{RatedGame, RatedSide};
            use crate::{Millis, StoreError, UserId};

            const REPORT_COLUMNS: &str = "r.id, u.name AS reporter, r.target_id, t.name AS target, r.reason, r.details, \
                r.room, r.game, r.evidence, r.status, r.created_at, r.closed_at \
                FROM reports r JOIN users u ON u.id = r.reporter_id JOIN users t ON t.id = r.target_id";

            fn report_row(row: &$row) -> Result<Report, StoreError> {
                Ok(Report {
                    id: row.try_get("id")?,
                    reporter: row.try_get("reporter")?,
                    target_id: row.try_get("target_id")?,
                    target: row.try_get("target")?,
                    reason: row.try_get("reason")?,
                    details: row.try_get("details")?,
                    room: row.try_get("room")?,
                    game: row.try_get("game")?,
                    evidence: row.try_get("evidence")?,
                    status: row.try_get("status")?,
                    created_at: row.try_get("created_at")?,
                    closed_at: row.try_get("closed_at")?,
                })
            }

            const LINE_COLUMNS: &str = "id, room, user_id, name, text, said_at, removed_at, address_range FROM chat_lines";

            fn line_row(row: &$row) -> Result<StoredChatLine, StoreError> {
                Ok(StoredChatLine {
                    id: row.try_get("id")?,
                    room: row.try_get("room")?,
                    user_id: row.try_get("user_id")?,
                    name: row.try_get("name")?,
                    text: row.try_get("text")?,
                    said_at: row.try_get("said_at")?,
                    removed_at: row.try_get("removed_at")?,
                    address_range: row.try_get("address_range")?,
                })
            }

            fn pairs(rows: Vec<(UserId, String)>) -> Vec<(UserId, String)> {
                rows
            }

            #[async_trait]
            impl CommunityStore for $store {
                async fn role(&self, user: UserId) -> Result<String, StoreError> {
                    let row: Option<(String,)> = sqlx::query_as("SELECT role FROM users WHERE id = $1")
                        .bind(user)
                        .fetch_optional(self.reader())
                        .await?;
                    Ok(row.map_or_else(|| "player".to_owned(), |r| r.0))
                }

                async fn set_role(&self, user: UserId, role: &str) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("UPDATE users SET role = $1 WHERE id = $2")
                        .bind(role)
                        .bind(user)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn closed_at(&self, user: UserId) -> Result<Option<Millis>, StoreError> {
                    let row: Option<(Option<Millis>,)> =
                        sqlx::query_as("SELECT closed_at FROM users WHERE id = $1")
                            .bind(user)
                            .fetch_optional(self.reader())
                            .await?;
                    Ok(row.and_then(|r| r.0))
                }

                async fn follow(&self, follower: UserId, followed: UserId, at: Millis) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query(
                        "INSERT INTO follows (follower, followed, created_at) VALUES ($1, $2, $3) \
                         ON CONFLICT DO NOTHING",
                    )
                    .bind(follower)
                    .bind(followed)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn unfollow(&self, follower: UserId, followed: UserId) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
                        .bind(follower)
                        .bind(followed)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn following(&self, user: UserId) -> Result<Vec<(UserId, String)>, StoreError> {
                    let rows: Vec<(UserId, String)> = sqlx::query_as(
                        "SELECT u.id, u.name FROM follows f JOIN users u ON u.id = f.followed \
                         WHERE f.follower = $1 AND u.closed_at IS NULL ORDER BY u.name_key",
                    )
                    .bind(user)
                    .fetch_all(self.reader())
                    .await?;
                    Ok(pairs(rows))
                }

                async fn followers_to_tell(&self, user: UserId) -> Result<Vec<UserId>, StoreError> {
                    let rows: Vec<(UserId,)> = sqlx::query_as(
                        "SELECT f.follower FROM follows f JOIN users u ON u.id = f.followed \
                         WHERE f.followed = $1 AND u.share_games ORDER BY f.follower",
                    )
                    .bind(user)
                    .fetch_all(self.reader())
                    .await?;
                    Ok(rows.into_iter().map(|r| r.0).collect())
                }

                async fn share_games(&self, user: UserId) -> Result<bool, StoreError> {
                    let row: Option<(bool,)> = sqlx::query_as("SELECT share_games FROM users WHERE id = $1")
                        .bind(user)
                        .fetch_optional(self.reader())
                        .await?;
                    Ok(row.is_none_or(|r| r.0))
                }

                async fn set_share_games(&self, user: UserId, share: bool) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("UPDATE users SET share_games = $1 WHERE id = $2")
                        .bind(share)
                        .bind(user)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn block(&self, blocker: UserId, blocked: UserId, at: Millis) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query(
                        "INSERT INTO blocks (blocker, blocked, created_at) VALUES ($1, $2, $3) \
                         ON CONFLICT DO NOTHING",
                    )
                    .bind(blocker)
                    .bind(blocked)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn unblock(&self, blocker: UserId, blocked: UserId) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
                        .bind(blocker)
                        .bind(blocked)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn blocked_by(&self, user: UserId) -> Result<Vec<(UserId, String)>, StoreError> {
                    let rows: Vec<(UserId, String)> = sqlx::query_as(
                        "SELECT u.id, u.name FROM blocks b JOIN users u ON u.id = b.blocked \
                         WHERE b.blocker = $1 ORDER BY u.name_key",
                    )
                    .bind(user)
                    .fetch_all(self.reader())
                    .await?;
                    Ok(pairs(rows))
                }

                async fn blocks(&self, blocker: UserId, blocked: UserId) -> Result<bool, StoreError> {
                    let row: Option<(UserId,)> =
                        sqlx::query_as("SELECT blocker FROM blocks WHERE blocker = $1 AND blocked = $2")
                            .bind(blocker)
                            .bind(blocked)
                            .fetch_optional(self.reader())
                            .await?;
                    Ok(row.is_some())
                }

                async fn block_relations(&self, user: UserId) -> Result<Vec<UserId>, StoreError> {
                    let rows: Vec<(UserId,)> = sqlx::query_as(
                        "SELECT blocked FROM blocks WHERE blocker = $1 \
                         UNION SELECT blocker FROM blocks WHERE blocked = $1",
                    )
                    .bind(user)
                    .fetch_all(self.reader())
                    .await?;
                    Ok(rows.into_iter().map(|r| r.0).collect())
                }

                async fn add_chat_line(
                    &self,
                    room: &str,
                    user: Option<UserId>,
                    name: &str,
                    text: &str,
                    address_range: Option<&str>,
                    at: Millis,
                ) -> Result<i64, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let id: i64 = sqlx::query_scalar(
                        "INSERT INTO chat_lines (room, user_id, name, text, said_at, address_range) \
                         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                    )
                    .bind(room)
                    .bind(user)
                    .bind(name)
                    .bind(text)
                    .bind(at)
                    .bind(address_range)
                    .fetch_one(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(id)
                }

                async fn chat_lines_in(
                    &self,
                    room: &str,
                    user: UserId,
                    limit: u32,
                ) -> Result<Vec<StoredChatLine>, StoreError> {
                    let sql = format!(
                        "SELECT {LINE_COLUMNS} WHERE room = $1 AND user_id = $2 ORDER BY id DESC LIMIT $3"
                    );
                    let rows = sqlx::query(&sql)
                        .bind(room)
                        .bind(user)
                        .bind(i64::from(limit))
                        .fetch_all(self.reader())
                        .await?;
                    let mut lines = rows.iter().map(line_row).collect::<Result<Vec<_>, _>>()?;
                    lines.reverse();
                    Ok(lines)
                }

                async fn chat_lines_of(&self, user: UserId) -> Result<Vec<StoredChatLine>, StoreError> {
                    let sql = format!("SELECT {LINE_COLUMNS} WHERE user_id = $1 ORDER BY id");
                    let rows = sqlx::query(&sql).bind(user).fetch_all(self.reader()).await?;
                    rows.iter().map(line_row).collect()
                }

                async fn chat_line(&self, id: i64) -> Result<Option<StoredChatLine>, StoreError> {
                    let sql = format!("SELECT {LINE_COLUMNS} WHERE id = $1");
                    sqlx::query(&sql)
                        .bind(id)
                        .fetch_optional(self.reader())
                        .await?
                        .as_ref()
                        .map(line_row)
                        .transpose()
                }

                async fn remove_chat_line(&self, id: i64, at: Millis) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("UPDATE chat_lines SET removed_at = $1, text = '' WHERE id = $2 AND removed_at IS NULL")
                        .bind(at)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn forget_chat_line(&self, id: i64) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("DELETE FROM chat_lines WHERE id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn create_report(&self, report: &NewReport) -> Result<i64, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let id: i64 = sqlx::query_scalar(
                        "INSERT INTO reports (reporter_id, target_id, reason, details, room, game, evidence, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                    )
                    .bind(report.reporter)
                    .bind(report.target)
                    .bind(&report.reason)
                    .bind(&report.details)
                    .bind(&report.room)
                    .bind(&report.game)
                    .bind(&report.evidence)
                    .bind(report.at)
                    .fetch_one(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(id)
                }

                async fn reports_since(&self, reporter: UserId, since: Millis) -> Result<u32, StoreError> {
                    let n: i64 = sqlx::query_scalar(
                        "SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND created_at >= $2",
                    )
                    .bind(reporter)
                    .bind(since)
                    .fetch_one(self.reader())
                    .await?;
                    Ok(u32::try_from(n).unwrap_or(u32::MAX))
                }

                async fn reports_by(&self, reporter: UserId) -> Result<Vec<Report>, StoreError> {
                    let sql = format!("SELECT {REPORT_COLUMNS} WHERE r.reporter_id = $1 ORDER BY r.id DESC");
                    let rows = sqlx::query(&sql).bind(reporter).fetch_all(self.reader()).await?;
                    rows.iter().map(report_row).collect()
                }

                async fn reports(&self, status: Option<&str>, limit: u32) -> Result<Vec<Report>, StoreError> {
                    let sql = format!(
                        "SELECT {REPORT_COLUMNS} WHERE ($1 IS NULL OR r.status = $1) ORDER BY r.id LIMIT $2"
                    );
                    let rows = sqlx::query(&sql)
                        .bind(status)
                        .bind(i64::from(limit))
                        .fetch_all(self.reader())
                        .await?;
                    rows.iter().map(report_row).collect()
                }

                async fn report(&self, id: i64) -> Result<Option<Report>, StoreError> {
                    let sql = format!("SELECT {REPORT_COLUMNS} WHERE r.id = $1");
                    sqlx::query(&sql)
                        .bind(id)
                        .fetch_optional(self.reader())
                        .await?
                        .as_ref()
                        .map(report_row)
                        .transpose()
                }

                async fn close_report(&self, id: i64, status: &str, by: UserId, at: Millis) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("UPDATE reports SET status = $1, closed_by = $2, closed_at = $3 WHERE id = $4")
                        .bind(status)
                        .bind(by)
                        .bind(at)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn add_sanction(&self, s: &NewSanction) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query(
                        "INSERT INTO sanctions (kind, user_id, address_range, until, created_at, created_by) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(&s.kind)
                    .bind(s.user_id)
                    .bind(&s.address_range)
                    .bind(s.until)
                    .bind(s.at)
                    .bind(s.by)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn sanctioned(
                    &self,
                    kind: &str,
                    user: Option<UserId>,
                    range: Option<&str>,
                    now: Millis,
                ) -> Result<Option<Option<Millis>>, StoreError> {
                    let rows: Vec<(Option<Millis>,)> = sqlx::query_as(
                        "SELECT until FROM sanctions WHERE kind = $1 \
                         AND ((user_id IS NOT NULL AND user_id = $2) OR (address_range IS NOT NULL AND address_range = $3)) \
                         AND (until IS NULL OR until > $4)",
                    )
                    .bind(kind)
                    .bind(user)
                    .bind(range)
                    .bind(now)
                    .fetch_all(self.reader())
                    .await?;
                    if rows.is_empty() {
                        return Ok(None);
                    }
                    if rows.iter().any(|r| r.0.is_none()) {
                        return Ok(Some(None));
                    }
                    Ok(Some(rows.iter().filter_map(|r| r.0).max()))
                }

                async fn lift_sanctions(&self, kind: &str, user: UserId) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("DELETE FROM sanctions WHERE kind = $1 AND user_id = $2")
                        .bind(kind)
                        .bind(user)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn log_action(&self, e: &NewLogEntry) -> Result<i64, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let id: i64 = sqlx::query_scalar(
                        "INSERT INTO moderation_log (moderator_id, moderator, action, target_id, target, reason, detail, at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                    )
                    .bind(e.moderator_id)
                    .bind(&e.moderator)
                    .bind(&e.action)
                    .bind(e.target_id)
                    .bind(&e.target)
                    .bind(&e.reason)
                    .bind(&e.detail)
                    .bind(e.at)
                    .fetch_one(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(id)
                }

                async fn moderation_log(&self, limit: u32) -> Result<Vec<LogEntry>, StoreError> {
                    let rows = sqlx::query(
                        "SELECT id, moderator, action, target, reason, detail, at FROM moderation_log \
                         ORDER BY id DESC LIMIT $1",
                    )
                    .bind(i64::from(limit))
                    .fetch_all(self.reader())
                    .await?;
                    rows.iter()
                        .map(|row| {
                            Ok(LogEntry {
                                id: row.try_get("id")?,
                                moderator: row.try_get("moderator")?,
                                action: row.try_get("action")?,
                                target: row.try_get("target")?,
                                reason: row.try_get("reason")?,
                                detail: row.try_get("detail")?,
                                at: row.try_get("at")?,
                            })
                        })
                        .collect()
                }

                async fn add_notice(&self, user: UserId, kind: &str, text: &str, at: Millis) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("INSERT INTO notices (user_id, kind, text, created_at) VALUES ($1, $2, $3, $4)")
                        .bind(user)
                        .bind(kind)
                        .bind(text)
                        .bind(at)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn notices(&self, user: UserId) -> Result<Vec<Notice>, StoreError> {
                    let rows: Vec<(i64, String, String, Millis)> = sqlx::query_as(
                        "SELECT id, kind, text, created_at FROM notices WHERE user_id = $1 ORDER BY id DESC",
                    )
                    .bind(user)
                    .fetch_all(self.reader())
                    .await?;
                    Ok(rows
                        .into_iter()
                        .map(|(id, kind, text, created_at)| Notice { id, kind, text, created_at })
                        .collect())
                }

                async fn mark_cheater(
                    &self,
                    user: UserId,
                    at: Millis,
                    rater: crate::Rater,
                ) -> Result<Vec<Restored>, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    sqlx::query("UPDATE users SET marked_cheater_at = $1 WHERE id = $2")
                        .bind(at)
                        .bind(user)
                        .execute(&mut *tx)
                        .await?;
                    let pools: Vec<(String,)> =
                        sqlx::query_as("SELECT DISTINCT pool FROM rating_changes WHERE user_id = $1 ORDER BY pool")
                            .bind(user)
                            .fetch_all(&mut *tx)
                            .await?;
                    let mut restored = Vec::new();
                    for (pool,) in pools {
                        // The pool's rows from the cheater's first rated game on, each with its game's result and
                        // who sat where at the end (`swapped`: the seats were exchanged by the opening).
                        let rows = sqlx::query(
                            "SELECT rc.game_id, rc.user_id, rc.at, rc.rating_before, rc.deviation_before, \
                             rc.volatility_before, rc.rating_after, rc.deviation_after, rc.volatility_after, \
                             g.winner, g.swapped, g.black_user_id, g.white_user_id \
                             FROM rating_changes rc JOIN games g ON g.id = rc.game_id \
                             WHERE rc.pool = $1 AND rc.at >= \
                             (SELECT MIN(at) FROM rating_changes WHERE pool = $1 AND user_id = $2) \
                             ORDER BY rc.at, rc.game_id, rc.user_id",
                        )
                        .bind(&pool)
                        .bind(user)
                        .fetch_all(&mut *tx)
                        .await?;
                        let mut games: Vec<RatedGame> = Vec::new();
                        let mut pending: Option<(i64, RatedSide)> = None;
                        for row in &rows {
                            let game: i64 = row.try_get("game_id")?;
                            let side = RatedSide {
                                user: row.try_get("user_id")?,
                                before: ratings::Rating::new(
                                    row.try_get("rating_before")?,
                                    row.try_get("deviation_before")?,
                                    row.try_get("volatility_before")?,
                                ),
                                after: ratings::Rating::new(
                                    row.try_get("rating_after")?,
                                    row.try_get("deviation_after")?,
                                    row.try_get("volatility_after")?,
                                ),
                            };
                            match pending.take() {
                                Some((first_game, first)) if first_game == game => {
                                    let winner: Option<String> = row.try_get("winner")?;
                                    let swapped: bool = row.try_get("swapped")?;
                                    let black: Option<UserId> = row.try_get("black_user_id")?;
                                    let white: Option<UserId> = row.try_get("white_user_id")?;
                                    let (black, white) = if swapped { (white, black) } else { (black, white) };
                                    games.push(RatedGame {
                                        game,
                                        at: row.try_get("at")?,
                                        sides: [first, side],
                                        winner: match winner.as_deref() {
                                            Some("black") => black,
                                            Some("white") => white,
                                            _ => None,
                                        },
                                    });
                                }
                                // A game with one row (never written so) is left as it is.
                                _ => pending = Some((game, side)),
                            }
                        }
                        let replay = crate::refund::without(user, &games, rater);
                        for row in &replay.rows {
                            sqlx::query(
                                "UPDATE rating_changes SET rating_before = $1, deviation_before = $2, \
                                 volatility_before = $3, rating_after = $4, deviation_after = $5, \
                                 volatility_after = $6, tier_after = $7 WHERE game_id = $8 AND user_id = $9",
                            )
                            .bind(row.before.rating)
                            .bind(row.before.deviation)
                            .bind(row.before.volatility)
                            .bind(row.after.rating)
                            .bind(row.after.deviation)
                            .bind(row.after.volatility)
                            .bind(ratings::Tier::of(&row.after).code())
                            .bind(row.game)
                            .bind(row.user)
                            .execute(&mut *tx)
                            .await?;
                        }
                        for (&who, now) in &replay.ratings {
                            let old: Option<(f64,)> =
                                sqlx::query_as("SELECT rating FROM ratings WHERE user_id = $1 AND pool = $2")
                                    .bind(who)
                                    .bind(&pool)
                                    .fetch_optional(&mut *tx)
                                    .await?;
                            let Some((old,)) = old else { continue };
                            sqlx::query(
                                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, tier = $4 \
                                 WHERE user_id = $5 AND pool = $6",
                            )
                            .bind(now.rating)
                            .bind(now.deviation)
                            .bind(now.volatility)
                            .bind(ratings::Tier::of(now).code())
                            .bind(who)
                            .bind(&pool)
                            .execute(&mut *tx)
                            .await?;
                            if old != now.rating {
                                restored.push(Restored {
                                    pool: pool.clone(),
                                    user: who,
                                    before: old,
                                    after: now.rating,
                                });
                            }
                        }
                    }
                    tx.commit().await?;
                    Ok(restored)
                }

                async fn marked_cheater_at(&self, user: UserId) -> Result<Option<Millis>, StoreError> {
                    let row: Option<(Option<Millis>,)> =
                        sqlx::query_as("SELECT marked_cheater_at FROM users WHERE id = $1")
                            .bind(user)
                            .fetch_optional(self.reader())
                            .await?;
                    Ok(row.and_then(|r| r.0))
                }

                async fn rename_user(&self, user: UserId, name: &str) -> Result<(), StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let taken: Option<(UserId,)> =
                        sqlx::query_as("SELECT id FROM users WHERE name_key = $1 AND id <> $2")
                            .bind(name.to_lowercase())
                            .bind(user)
                            .fetch_optional(&mut *tx)
                            .await?;
                    if taken.is_some() {
                        return Err(StoreError::UsernameTaken);
                    }
                    let alike: Option<(UserId,)> =
                        sqlx::query_as("SELECT id FROM users WHERE name_skeleton = $1 AND id <> $2")
                            .bind(crate::name_skeleton(name))
                            .bind(user)
                            .fetch_optional(&mut *tx)
                            .await?;
                    if alike.is_some() {
                        return Err(StoreError::UsernameConfusable);
                    }
                    sqlx::query("UPDATE users SET name = $1, name_key = $2, name_skeleton = $3 WHERE id = $4")
                        .bind(name)
                        .bind(name.to_lowercase())
                        .bind(crate::name_skeleton(name))
                        .bind(user)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn close_account(&self, user: UserId, at: Millis) -> Result<Vec<Vec<u8>>, StoreError> {
                    let (_gate, mut tx) = self.begin_write().await?;
                    let name = format!("deleted-{user}");
                    sqlx::query(
                        "UPDATE users SET name = $1, name_key = $1, name_skeleton = $1, password_hash = '!', \
                         closed_at = $2, share_games = $3 WHERE id = $4",
                    )
                    .bind(&name)
                    .bind(at)
                    .bind(false)
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
                    for sql in [
                        "UPDATE games SET black_name = $1 WHERE black_user_id = $2",
                        "UPDATE games SET white_name = $1 WHERE white_user_id = $2",
                        "UPDATE chat_lines SET name = $1, text = '' WHERE user_id = $2",
                    ] {
                        sqlx::query(sql)
                            .bind(crate::community::DELETED_PLAYER)
                            .bind(user)
                            .execute(&mut *tx)
                            .await?;
                    }
                    for sql in [
                        "DELETE FROM follows WHERE follower = $1 OR followed = $1",
                        "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
                        "DELETE FROM notices WHERE user_id = $1",
                    ] {
                        sqlx::query(sql).bind(user).execute(&mut *tx).await?;
                    }
                    let hashes: Vec<(Vec<u8>,)> =
                        sqlx::query_as("DELETE FROM sessions WHERE user_id = $1 RETURNING token_hash")
                            .bind(user)
                            .fetch_all(&mut *tx)
                            .await?;
                    tx.commit().await?;
                    Ok(hashes.into_iter().map(|h| h.0).collect())
                }
            }
        };
    };
}

pub(crate) use community_impl;
