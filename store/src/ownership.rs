//! Room ownership in a cluster (issue #22): a Postgres row per room naming its owner node, the epoch of its
//! claim and the end of its lease, and the fence every game write of a clustered store passes.
//!
//! A node claims a room that has no row or whose lease has expired (the epoch goes up by one), renews the
//! leases of the rooms it holds, and deletes the row when the room closes. The store remembers the epoch of each
//! room it claimed; each write batch locks the rows of its games' rooms (`FOR SHARE`, so a takeover waits for the
//! write to commit) and is refused with [`crate::StoreError::Fenced`] unless every one still names this node,
//! under the epoch it claimed, within its lease. Lease times are the database's clock.
//!
//! A room opened on a node for a player ([`crate::Store::open_room`]) is claimed with the player's name in its row:
//! the rows are the player's open rooms on every node, counted and inserted under a per-player advisory lock so
//! that two nodes racing cannot both pass the limit. The count follows the rows: a closed room's is deleted, and a
//! stopped node's rooms are taken over (still open) or forgotten (closed) by the live nodes.

use std::collections::HashMap;
use std::sync::Mutex;

use sqlx::postgres::Postgres;
use sqlx::Row;

use crate::{GameId, StoreError, Write};

/// A node's claim on a room: which node, under which epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The room.
    pub room: String,
    /// The owner node.
    pub node: String,
    /// The claim's epoch: one more than the claim before it.
    pub epoch: i64,
}

/// The database's clock in milliseconds.
pub(crate) const NOW_MS: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::int8";

/// Claims a room that has no row, whose lease has expired, or that this node already holds (a restored room's
/// task claims it again, under a new epoch); `None` when another node's lease still holds.
pub(crate) fn claim_sql() -> String {
    format!(
        "INSERT INTO room_owners (room, node, epoch, lease_until) VALUES ($1, $2, 1, {NOW_MS} + $3) \
         ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node, epoch = room_owners.epoch + 1, \
         lease_until = EXCLUDED.lease_until \
         WHERE room_owners.lease_until <= {NOW_MS} OR room_owners.node = EXCLUDED.node \
         RETURNING epoch"
    )
}

/// Renews the leases of the rooms in `$3` that node `$1` still holds (has not lost). Only the rooms this store
/// claimed: a row the node's earlier process left (a restart within the lease), or one whose release failed,
/// is left to expire and be forgotten rather than renewed for ever.
///
/// The rows are locked in room order, as every write batch locks its rooms' rows ([`check`]): a renewal and a
/// batch locking the same rows in different orders would deadlock, and Postgres would abort one of them. (An
/// aborted renewal is a node that cannot renew: it refuses game actions as if cut off, and at a whole lease
/// it gives its rooms up.)
pub(crate) fn renew_sql() -> String {
    format!(
        "WITH held AS (SELECT room FROM room_owners \
         WHERE node = $1 AND room = ANY($3) AND lease_until > {NOW_MS} ORDER BY room FOR UPDATE) \
         UPDATE room_owners o SET lease_until = {NOW_MS} + $2 FROM held WHERE o.room = held.room \
         RETURNING o.room, o.epoch"
    )
}

/// Rooms renewed per statement: each renewal statement holds its rows' locks (and so delays the write batches
/// of those rooms) only while it renews this many.
pub(crate) const RENEW_CHUNK: usize = 1_000;

/// Ends every lease of node `$1` now (a drain), its rows locked in room order as in [`renew_sql`].
pub(crate) const HAND_OVER: &str = "WITH held AS (SELECT room FROM room_owners WHERE node = $1 \
    ORDER BY room FOR UPDATE) \
    UPDATE room_owners o SET lease_until = 0 FROM held WHERE o.room = held.room";

/// Claims a new room for node `$2` as [`claim_sql`] does, naming its player `$4` (run after [`LOCK_PLAYER`] and
/// [`COUNT_PLAYER`] in the same transaction).
pub(crate) fn open_sql() -> String {
    format!(
        "INSERT INTO room_owners (room, node, epoch, lease_until, player) VALUES ($1, $2, 1, {NOW_MS} + $3, $4) \
         ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node, epoch = room_owners.epoch + 1, \
         lease_until = EXCLUDED.lease_until, player = EXCLUDED.player \
         WHERE room_owners.lease_until <= {NOW_MS} OR room_owners.node = EXCLUDED.node \
         RETURNING epoch"
    )
}

/// Serialises the room openings of player `$1` until the transaction ends: the count and the insert after it are
/// then one step for every node. (Two 32-bit keys, the first naming this use, so other advisory locks, such as
/// sqlx's migration lock on one 64-bit key, never meet it; two players whose names hash alike only wait for
/// each other.)
pub(crate) const LOCK_PLAYER: &str = "SELECT pg_advisory_xact_lock(22, hashtext($1))";

/// The rooms player `$1` has open, on any node.
pub(crate) const COUNT_PLAYER: &str = "SELECT count(*) FROM room_owners WHERE player = $1";

/// What opening a room for a player came to ([`crate::Store::open_room`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomOpening {
    /// The room is this node's, under this claim.
    Opened(Fence),
    /// The player already has `open` rooms, at least the limit: nothing was written.
    AtLimit {
        /// The player's open rooms on all nodes.
        open: u32,
    },
}

/// The epochs a clustered store claimed, by room; `node` is set by its first claim.
#[derive(Debug, Default)]
pub(crate) struct Claims {
    node: Mutex<Option<String>>,
    epochs: Mutex<HashMap<String, i64>>,
}

impl Claims {
    /// Whether this store writes as a cluster node (it claimed a room once).
    pub(crate) fn node(&self) -> Option<String> {
        self.node.lock().expect("claims lock").clone()
    }

    pub(crate) fn claimed(&self, fence: &Fence) {
        *self.node.lock().expect("claims lock") = Some(fence.node.clone());
        self.epochs
            .lock()
            .expect("claims lock")
            .insert(fence.room.clone(), fence.epoch);
    }

    pub(crate) fn released(&self, room: &str) {
        self.epochs.lock().expect("claims lock").remove(room);
    }

    pub(crate) fn forget_all(&self) {
        self.epochs.lock().expect("claims lock").clear();
    }

    /// After a renewal of the rooms `asked` (as [`Claims::epochs`] gave them), which came back `kept`: forgets and
    /// returns the asked rooms that did not come back with the epoch asked (they were lost). Only the asked rooms
    /// are judged: a room claimed while the renewal ran was not in it, and is not lost; a room released and
    /// claimed again meanwhile has a new epoch and is kept.
    pub(crate) fn renewed(
        &self,
        asked: &HashMap<String, i64>,
        kept: &HashMap<String, i64>,
    ) -> Vec<String> {
        let mut epochs = self.epochs.lock().expect("claims lock");
        let lost: Vec<String> = asked
            .iter()
            .filter(|(room, epoch)| kept.get(*room) != Some(epoch))
            .filter(|(room, epoch)| epochs.get(*room) == Some(epoch))
            .map(|(room, _)| room.clone())
            .collect();
        for room in &lost {
            epochs.remove(room);
        }
        lost
    }

    /// The rooms claimed and their epochs (to renew).
    pub(crate) fn epochs(&self) -> HashMap<String, i64> {
        self.epochs.lock().expect("claims lock").clone()
    }

    fn epoch(&self, room: &str) -> Option<i64> {
        self.epochs.lock().expect("claims lock").get(room).copied()
    }
}

/// Checks, inside the batch's transaction, that `node` still owns the room of every game the batch writes under
/// the epoch it claimed, and locks those rows until the commit.
pub(crate) async fn check(
    tx: &mut sqlx::Transaction<'static, Postgres>,
    claims: &Claims,
    node: &str,
    batch: &[Write],
) -> Result<(), StoreError> {
    let mut rooms: Vec<String> = Vec::new();
    let mut games: Vec<GameId> = Vec::new();
    for w in batch {
        match w {
            Write::Create(game) => rooms.push(game.room.clone()),
            Write::Append(game, _) | Write::Finish(game, _) => games.push(*game),
        }
    }
    if !games.is_empty() {
        let found: Vec<String> =
            sqlx::query_scalar("SELECT DISTINCT room FROM games WHERE id = ANY($1)")
                .bind(&games)
                .fetch_all(&mut **tx)
                .await?;
        rooms.extend(found);
    }
    rooms.sort();
    rooms.dedup();
    if rooms.is_empty() {
        return Ok(());
    }
    let rows = sqlx::query(&format!(
        "SELECT room, node, epoch, lease_until > {NOW_MS} AS live FROM room_owners \
         WHERE room = ANY($1) ORDER BY room FOR SHARE"
    ))
    .bind(&rooms)
    .fetch_all(&mut **tx)
    .await?;
    let mut held = HashMap::new();
    for row in rows {
        let room: String = row.try_get("room")?;
        let owner: String = row.try_get("node")?;
        let epoch: i64 = row.try_get("epoch")?;
        let live: bool = row.try_get("live")?;
        held.insert(room, (owner, epoch, live));
    }
    for room in &rooms {
        let ok = match (held.get(room), claims.epoch(room)) {
            (Some((owner, epoch, live)), Some(mine)) => owner == node && *epoch == mine && *live,
            _ => false,
        };
        if !ok {
            return Err(StoreError::Fenced(room.clone()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fence(room: &str, epoch: i64) -> crate::Fence {
        crate::Fence {
            room: room.to_owned(),
            node: "n1".to_owned(),
            epoch,
        }
    }

    #[test]
    fn a_renewal_judges_only_the_rooms_it_asked_about() {
        let claims = Claims::default();
        claims.claimed(&fence("kept", 1));
        claims.claimed(&fence("taken", 1));
        claims.claimed(&fence("again", 1));
        let asked = claims.epochs();
        // While the renewal runs: a new room is claimed, and "again" is released and claimed anew.
        claims.claimed(&fence("new", 1));
        claims.released("again");
        claims.claimed(&fence("again", 2));
        // The renewal kept "kept"; "taken" went to another node; "again" came back under its old epoch or not
        // at all, either way its new claim stands.
        let kept = HashMap::from([("kept".to_owned(), 1)]);
        assert_eq!(claims.renewed(&asked, &kept), vec!["taken".to_owned()]);
        let mut left: Vec<String> = claims.epochs().into_keys().collect();
        left.sort();
        assert_eq!(left, ["again", "kept", "new"]);
    }
}
