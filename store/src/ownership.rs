//! Room ownership in a cluster (issue #22): a Postgres row per room naming its owner node, the node's incarnation
//! and the epoch of its claim; a lease per node; and the fence every game write of a clustered store passes.
//!
//! A node process registers once ([`REGISTER`]): a new incarnation of its node id, with a lease it renews
//! ([`RENEW`]) every third of a lease, one row whatever the number of its rooms. Registering ends the lease of the
//! node id's previous process at once (a restart does not wait a lease to write). A room is held while the lease
//! of the incarnation that claimed it is live; a node claims a room that has no row, whose holder's lease is not
//! live, or that it holds itself (a restored room's task claims it again), the epoch going up by one. The store
//! remembers the epoch and incarnation of each room it claimed; each write batch locks the rows of its games'
//! rooms (`FOR SHARE`, so a takeover waits for the write to commit) and is refused with
//! [`crate::StoreError::Fenced`] unless every one still names this node, under the epoch and incarnation it
//! claimed, and that incarnation's lease is live (every game write: creations, appends, takebacks, endings).
//! Lease times are the database's clock.
//!
//! A renewal that finds the node's lease ran out (a partition, a stall longer than a lease, a drain) loses every
//! room the store claimed, and registers a new incarnation: the node takes part again, its old rooms going to
//! whichever node claims them first. (One lease per node replaced one per room, renewed row by row, whose
//! thousands of row writes a second met the game writes' row locks; see the migration `20261203000100`.)
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

/// A node's claim on a room: which node, under which epoch, in which of the node's incarnations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The room.
    pub room: String,
    /// The owner node.
    pub node: String,
    /// The claim's epoch: one more than the claim before it.
    pub epoch: i64,
    /// The owner node's process (its registration) that claimed the room: the room is held while its lease is.
    pub incarnation: i64,
}

/// The database's clock in milliseconds.
pub(crate) const NOW_MS: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::int8";

/// Registers a process of node `$1` with a lease of `$2` ms: the next incarnation of the node id, whose
/// registration ends the previous one's lease.
pub(crate) fn register_sql() -> String {
    format!(
        "INSERT INTO node_leases (node, incarnation, lease_until) VALUES ($1, 1, {NOW_MS} + $2) \
         ON CONFLICT (node) DO UPDATE SET incarnation = node_leases.incarnation + 1, \
         lease_until = EXCLUDED.lease_until RETURNING incarnation"
    )
}

/// Renews the lease of incarnation `$2` of node `$1` by `$3` ms if it is still live; no row when it is not.
pub(crate) fn renew_sql() -> String {
    format!(
        "UPDATE node_leases SET lease_until = {NOW_MS} + $3 \
         WHERE node = $1 AND incarnation = $2 AND lease_until > {NOW_MS} RETURNING incarnation"
    )
}

/// Whether incarnation `$2` of node `$1` holds a live lease.
pub(crate) fn live_sql() -> String {
    format!(
        "SELECT EXISTS (SELECT 1 FROM node_leases \
         WHERE node = $1 AND incarnation = $2 AND lease_until > {NOW_MS})"
    )
}

/// The condition, on a `room_owners` row `o`, that the incarnation holding it has no live lease.
fn unheld(o: &str) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM node_leases l WHERE l.node = {o}.node \
         AND l.incarnation = {o}.incarnation AND l.lease_until > {NOW_MS})"
    )
}

/// Claims room `$1` for incarnation `$3` of node `$2` (whose lease must be live) when it has no row, its holder's
/// lease is not live, or this node holds it (a restored room's task claims it again, under a new epoch); no row
/// while another node's lease holds it, or when this node's own lease is not live.
pub(crate) fn claim_sql() -> String {
    format!(
        "INSERT INTO room_owners (room, node, epoch, incarnation) \
         SELECT $1, $2, 1, $3 WHERE EXISTS (SELECT 1 FROM node_leases \
         WHERE node = $2 AND incarnation = $3 AND lease_until > {NOW_MS}) \
         ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node, epoch = room_owners.epoch + 1, \
         incarnation = EXCLUDED.incarnation \
         WHERE room_owners.node = EXCLUDED.node OR {} \
         RETURNING epoch",
        unheld("room_owners")
    )
}

/// Claims a new room for node `$2` as [`claim_sql`] does, naming its player `$4` (run after [`LOCK_PLAYER`] and
/// [`COUNT_PLAYER`] in the same transaction).
pub(crate) fn open_sql() -> String {
    format!(
        "INSERT INTO room_owners (room, node, epoch, incarnation, player) \
         SELECT $1, $2, 1, $3, $4 WHERE EXISTS (SELECT 1 FROM node_leases \
         WHERE node = $2 AND incarnation = $3 AND lease_until > {NOW_MS}) \
         ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node, epoch = room_owners.epoch + 1, \
         incarnation = EXCLUDED.incarnation, player = EXCLUDED.player \
         WHERE room_owners.node = EXCLUDED.node OR {} \
         RETURNING epoch",
        unheld("room_owners")
    )
}

/// Rooms whose holder's lease is not live, at most `$1`.
pub(crate) fn expired_sql() -> String {
    format!(
        "SELECT o.room FROM room_owners o WHERE {} ORDER BY o.room LIMIT $1",
        unheld("o")
    )
}

/// Deletes room `$1`'s row if its holder's lease is (still) not live.
pub(crate) fn forget_sql() -> String {
    format!(
        "DELETE FROM room_owners o WHERE o.room = $1 AND {}",
        unheld("o")
    )
}

/// Ends the lease of incarnation `$2` of node `$1` now (a drain): its rooms are free to claim.
pub(crate) const HAND_OVER: &str =
    "UPDATE node_leases SET lease_until = 0 WHERE node = $1 AND incarnation = $2";

/// The rooms incarnation `$2` of node `$1` holds.
pub(crate) const COUNT_HELD: &str =
    "SELECT count(*) FROM room_owners WHERE node = $1 AND incarnation = $2";

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

/// A room's claim as the store remembers it: the epoch and the incarnation it was claimed under.
pub(crate) type Claim = (i64, i64);

/// What a clustered store claimed: its node (set by its registration), the incarnation it registered, and the
/// claim of each room.
#[derive(Debug, Default)]
pub(crate) struct Claims {
    node: Mutex<Option<String>>,
    incarnation: Mutex<Option<i64>>,
    epochs: Mutex<HashMap<String, Claim>>,
    /// Held while registering, so that two first claims at once register one incarnation.
    pub(crate) registering: tokio::sync::Mutex<()>,
}

impl Claims {
    /// Whether this store writes as a cluster node (it registered once).
    pub(crate) fn node(&self) -> Option<String> {
        self.node.lock().expect("claims lock").clone()
    }

    /// The incarnation this store registered last, if it did.
    pub(crate) fn incarnation(&self) -> Option<i64> {
        *self.incarnation.lock().expect("claims lock")
    }

    pub(crate) fn registered(&self, node: &str, incarnation: i64) {
        *self.node.lock().expect("claims lock") = Some(node.to_owned());
        *self.incarnation.lock().expect("claims lock") = Some(incarnation);
    }

    pub(crate) fn claimed(&self, fence: &Fence) {
        self.epochs
            .lock()
            .expect("claims lock")
            .insert(fence.room.clone(), (fence.epoch, fence.incarnation));
    }

    pub(crate) fn released(&self, room: &str) {
        self.epochs.lock().expect("claims lock").remove(room);
    }

    pub(crate) fn forget_all(&self) {
        self.epochs.lock().expect("claims lock").clear();
    }

    /// After a renewal of the node's lease, which found incarnation `live` live (or none): forgets and returns the
    /// `asked` rooms (as [`Claims::epochs`] gave them before it) that were not claimed under that incarnation (they
    /// were lost: the lease they were held under ran out). Only the asked rooms are judged: a room claimed while
    /// the renewal ran was not in it, and is judged by the next; a room released and claimed again meanwhile has a
    /// new claim, which stands.
    pub(crate) fn renewed(&self, asked: &HashMap<String, Claim>, live: Option<i64>) -> Vec<String> {
        let mut epochs = self.epochs.lock().expect("claims lock");
        let lost: Vec<String> = asked
            .iter()
            .filter(|(_, (_, incarnation))| Some(*incarnation) != live)
            .filter(|(room, claim)| epochs.get(*room) == Some(claim))
            .map(|(room, _)| room.clone())
            .collect();
        for room in &lost {
            epochs.remove(room);
        }
        lost
    }

    /// The rooms claimed and their claims (to judge after a renewal).
    pub(crate) fn epochs(&self) -> HashMap<String, Claim> {
        self.epochs.lock().expect("claims lock").clone()
    }

    fn claim(&self, room: &str) -> Option<Claim> {
        self.epochs.lock().expect("claims lock").get(room).copied()
    }
}

/// Checks, inside the batch's transaction, that `node` still owns the room of every game the batch writes under
/// the epoch and incarnation it claimed, with that incarnation's lease live, and locks the rooms' rows until the
/// commit.
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
            Write::Append(game, _) | Write::Finish(game, _) | Write::Truncate(game, _) => {
                games.push(*game)
            }
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
        "SELECT o.room, o.node, o.epoch, o.incarnation, COALESCE(l.lease_until > {NOW_MS}, false) AS live \
         FROM room_owners o LEFT JOIN node_leases l ON l.node = o.node AND l.incarnation = o.incarnation \
         WHERE o.room = ANY($1) ORDER BY o.room FOR SHARE OF o"
    ))
    .bind(&rooms)
    .fetch_all(&mut **tx)
    .await?;
    let mut held = HashMap::new();
    for row in rows {
        let room: String = row.try_get("room")?;
        let owner: String = row.try_get("node")?;
        let epoch: i64 = row.try_get("epoch")?;
        let incarnation: i64 = row.try_get("incarnation")?;
        let live: bool = row.try_get("live")?;
        held.insert(room, (owner, (epoch, incarnation), live));
    }
    for room in &rooms {
        let ok = match (held.get(room), claims.claim(room)) {
            (Some((owner, claim, live)), Some(mine)) => owner == node && *claim == mine && *live,
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

    fn fence(room: &str, epoch: i64, incarnation: i64) -> crate::Fence {
        crate::Fence {
            room: room.to_owned(),
            node: "n1".to_owned(),
            epoch,
            incarnation,
        }
    }

    #[test]
    fn a_renewal_judges_only_the_rooms_it_asked_about() {
        let claims = Claims::default();
        claims.claimed(&fence("kept", 1, 2));
        claims.claimed(&fence("older", 1, 1));
        claims.claimed(&fence("again", 1, 2));
        let asked = claims.epochs();
        // While the renewal runs: a new room is claimed, and "again" is released and claimed anew.
        claims.claimed(&fence("new", 1, 1));
        claims.released("again");
        claims.claimed(&fence("again", 2, 2));
        // Incarnation 2's lease is live: "older" was held under incarnation 1, whose lease ended; the new
        // claim of "again" stands; "new" was not asked about.
        assert_eq!(claims.renewed(&asked, Some(2)), vec!["older".to_owned()]);
        let mut left: Vec<String> = claims.epochs().into_keys().collect();
        left.sort();
        assert_eq!(left, ["again", "kept", "new"]);
    }

    #[test]
    fn a_renewal_that_finds_the_lease_ran_out_loses_every_room_it_asked_about() {
        let claims = Claims::default();
        claims.claimed(&fence("a", 1, 3));
        claims.claimed(&fence("b", 4, 3));
        let asked = claims.epochs();
        claims.claimed(&fence("c", 1, 3));
        let mut lost = claims.renewed(&asked, None);
        lost.sort();
        assert_eq!(lost, ["a", "b"]);
        // "c" was claimed after the renewal asked: the next renewal, under a new incarnation, judges it.
        let asked = claims.epochs();
        assert_eq!(claims.renewed(&asked, Some(4)), ["c"]);
        assert!(claims.epochs().is_empty());
    }
}
