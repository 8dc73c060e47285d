//! Whether a cluster node may act for its rooms: it must hear NATS and have renewed its leases recently.
//!
//! A node cut off from NATS cannot reach the members of its rooms on other nodes nor hear their commands; one
//! cut off from Postgres cannot store a move, and may already have lost its leases. Either way it stops taking
//! game actions for its rooms (`partitioned`), and a node without NATS also stops renewing its leases, so that the
//! nodes the players can still reach take the rooms over once the leases run out. Whatever it does, the store's
//! fence refuses every write of a room it no longer owns, so a node coming back never writes twice.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A node's view of its own reach, shared by its renewal loop and its rooms.
#[derive(Debug)]
pub(crate) struct Health {
    /// When the node started (the base of `renewed_ms`).
    start: Instant,
    /// Milliseconds after `start` of the last renewal that reached Postgres.
    renewed_ms: AtomicU64,
    /// Whether the NATS connection is up, as the renewal loop last looked.
    nats_up: AtomicBool,
    /// How long after a renewal the node still trusts its leases: two thirds of a lease, so that a node that
    /// stops trusting them still has a third of a lease before anyone else may claim the rooms.
    trust: Duration,
    /// A lease: after this long without a renewal the node's leases have surely run out.
    lease: Duration,
}

/// Why a node takes no game actions now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Partition {
    /// The NATS connection is down.
    Nats,
    /// No renewal has reached Postgres within the trusted part of a lease.
    Store,
}

impl Partition {
    /// The reason as the node's log and its players read it.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Partition::Nats => {
                "this server has lost contact with the cluster's messaging (NATS); try again in a moment or reconnect"
            }
            Partition::Store => {
                "this server has lost contact with the cluster's database; try again in a moment or reconnect"
            }
        }
    }
}

impl Health {
    /// A node that has just renewed (its claims are fresh) and hears NATS, with leases of `lease`.
    pub(crate) fn new(lease: Duration) -> Health {
        Health {
            start: Instant::now(),
            renewed_ms: AtomicU64::new(0),
            nats_up: AtomicBool::new(true),
            trust: lease * 2 / 3,
            lease,
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// A renewal (or a claim) reached Postgres just now.
    pub(crate) fn renewed(&self) {
        self.renewed_ms.store(self.now_ms(), Ordering::SeqCst);
    }

    /// What the NATS connection's state is now.
    pub(crate) fn set_nats(&self, up: bool) {
        self.nats_up.store(up, Ordering::SeqCst);
    }

    /// Whether the NATS connection was up when last looked at.
    pub(crate) fn nats_up(&self) -> bool {
        self.nats_up.load(Ordering::SeqCst)
    }

    /// Whether the last renewal is more than a lease ago: every lease the node held has run out (another node may
    /// own its rooms already).
    pub(crate) fn leases_ran_out(&self) -> bool {
        let since = self
            .now_ms()
            .saturating_sub(self.renewed_ms.load(Ordering::SeqCst));
        u128::from(since) > self.lease.as_millis()
    }

    /// `Ok` when the node may act for its rooms, else why not.
    pub(crate) fn check(&self) -> Result<(), Partition> {
        self.check_at(self.now_ms())
    }

    fn check_at(&self, now_ms: u64) -> Result<(), Partition> {
        if !self.nats_up() {
            return Err(Partition::Nats);
        }
        let since = now_ms.saturating_sub(self.renewed_ms.load(Ordering::SeqCst));
        if u128::from(since) > self.trust.as_millis() {
            return Err(Partition::Store);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_node_hearing_nats_may_act() {
        let h = Health::new(Duration::from_millis(3000));
        assert_eq!(h.check_at(0), Ok(()));
    }

    #[test]
    fn without_nats_the_node_takes_no_actions_until_it_is_back() {
        let h = Health::new(Duration::from_millis(3000));
        h.set_nats(false);
        assert_eq!(h.check_at(0), Err(Partition::Nats));
        h.set_nats(true);
        assert_eq!(h.check_at(0), Ok(()));
    }

    #[test]
    fn leases_are_trusted_for_two_thirds_of_a_lease_after_the_last_renewal() {
        let h = Health::new(Duration::from_millis(3000));
        assert_eq!(h.check_at(2000), Ok(()));
        assert_eq!(h.check_at(2001), Err(Partition::Store));
        h.renewed_ms.store(2001, Ordering::SeqCst);
        assert_eq!(h.check_at(4001), Ok(()));
        assert_eq!(h.check_at(4002), Err(Partition::Store));
    }
}
