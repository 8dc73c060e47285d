//! How a room reaches beyond its process (issue #31 item 5): who may run it and write its game
//! ([`Ownership`]), and how members elsewhere reach it and it them ([`Routing`]). A server alone is [`SingleNode`]:
//! it owns every room it opens and has nobody to route to. `crate::cluster` implements both over Postgres leases
//! and NATS; the room knows only these traits, so the room and the cluster do not import each other (the cluster
//! uses the room's handles; the room never names the cluster).

use std::sync::Arc;

use async_trait::async_trait;
use protocol::LobbyRoom;
use store::{Fence, StoreError};

use super::fanout::{Fanout, LocalFanout};
use super::{RoomHandle, Rooms};
use crate::lobby::Listing;

/// The answer to opening a new room for a player (see [`Ownership::open`]).
#[derive(Debug)]
pub(crate) enum Opening {
    /// Opened here; in a cluster, claimed with this fence.
    Opened(Option<Fence>),
    /// The player already has `open` rooms open, on any node.
    AtLimit {
        /// The rooms they have open.
        open: u32,
    },
}

/// The answer to claiming a restored room (see [`Ownership::claim`]).
#[derive(Debug)]
pub(crate) enum Claim {
    /// This node runs the room; in a cluster, its writes carry this fence.
    Ours(Option<Fence>),
    /// Another node's lease on the room still holds: it is not this node's to run.
    Elsewhere,
}

/// Who may run a room and write its game.
#[async_trait]
pub(crate) trait Ownership: Send + Sync {
    /// What a new room's id starts with (a cluster node's name and `-`, so ids are unique across nodes without
    /// asking anyone); empty alone.
    fn id_prefix(&self) -> String;

    /// Whether rooms here may take game actions now; the reason players read when not (a node cut off from the
    /// cluster's messaging or its database).
    fn writable(&self) -> Result<(), &'static str>;

    /// The reason players read when the store refused a write as stale (the room's lease went elsewhere).
    fn fenced(&self) -> &'static str;

    /// Opens new room `room` for `player`, unless they already have `limit` open rooms (counted on every node in a
    /// cluster; the registry counts this node's first, so alone nothing more is checked).
    async fn open(&self, room: &str, player: &str, limit: u32) -> Result<Opening, StoreError>;

    /// Claims a room before anything of it is written (a restored room).
    async fn claim(&self, room: &str) -> Result<Claim, StoreError>;

    /// Gives up a closed room (and its fence, when it has one).
    fn release(&self, room: &str, fence: Option<Fence>);
}

/// How a room's members elsewhere reach it, and it them.
#[async_trait]
pub(crate) trait Routing: Send + Sync {
    /// The fan-out of a room run here: `local` for this process's members, and the other nodes' members too.
    fn fanout(&self, room: Arc<str>, local: LocalFanout) -> Box<dyn Fanout>;

    /// Serves a room run here to the other nodes until it closes; returns once they can reach it.
    async fn serve(&self, handle: RoomHandle);

    /// Tells the other nodes that room `id`, restored here, moved: their stand-ins close their members.
    fn moved_here(&self, id: &str);

    /// A stand-in for room `id` run elsewhere, as a handle like a local room's (`None` alone: no room is
    /// elsewhere).
    fn relay(&self, id: Arc<str>, rooms: Rooms) -> Option<RoomHandle>;

    /// The lobby entry of a public room run here changed: the other nodes' lobbies list it.
    fn lobby_upsert(&self, room: LobbyRoom, listing: Listing);

    /// A room run here left the lobby: the other nodes' lobbies drop it.
    fn lobby_remove(&self, id: &str);
}

/// A server alone: it owns every room it opens, writes whenever its store takes the write, and routes to nobody.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SingleNode;

#[async_trait]
impl Ownership for SingleNode {
    fn id_prefix(&self) -> String {
        String::new()
    }

    fn writable(&self) -> Result<(), &'static str> {
        Ok(())
    }

    fn fenced(&self) -> &'static str {
        // No fence is ever given alone, so none refuses; the words fit if a store ever did.
        "this server no longer owns the room; reconnect to reach it"
    }

    async fn open(&self, _: &str, _: &str, _: u32) -> Result<Opening, StoreError> {
        Ok(Opening::Opened(None))
    }

    async fn claim(&self, _: &str) -> Result<Claim, StoreError> {
        Ok(Claim::Ours(None))
    }

    fn release(&self, _: &str, _: Option<Fence>) {}
}

#[async_trait]
impl Routing for SingleNode {
    fn fanout(&self, _: Arc<str>, local: LocalFanout) -> Box<dyn Fanout> {
        Box::new(local)
    }

    async fn serve(&self, _: RoomHandle) {}

    fn moved_here(&self, _: &str) {}

    fn relay(&self, _: Arc<str>, _: Rooms) -> Option<RoomHandle> {
        None
    }

    fn lobby_upsert(&self, _: LobbyRoom, _: Listing) {}

    fn lobby_remove(&self, _: &str) {}
}

/// Both halves of how rooms reach beyond the process, as the registry and every room hold them.
#[derive(Clone)]
pub(crate) struct Reach {
    /// Who may run a room.
    pub(crate) ownership: Arc<dyn Ownership>,
    /// How rooms are reached.
    pub(crate) routing: Arc<dyn Routing>,
}

impl Reach {
    /// A server alone.
    pub(crate) fn single() -> Reach {
        Reach {
            ownership: Arc::new(SingleNode),
            routing: Arc::new(SingleNode),
        }
    }
}

impl std::fmt::Debug for Reach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reach").finish_non_exhaustive()
    }
}
