//! The cluster as the rooms see it (issue #31 item 5): [`Ownership`] over the store's leases and fences,
//! [`Routing`] over NATS (the owner's fan-out, serving rooms to the other nodes, relays to theirs, the shared
//! lobby). The room knows only the traits.

use std::sync::Arc;

use async_trait::async_trait;
use protocol::LobbyRoom;
use store::{Fence, RoomOpening, StoreError};

use super::{Cluster, Partition};
use crate::lobby::Listing;
use crate::room::fanout::{Fanout, LocalFanout};
use crate::room::{Claim, Opening, Ownership, Reach, RoomHandle, Rooms, Routing};

impl Cluster {
    /// This node as the rooms reach it.
    pub(crate) fn reach(&self) -> Reach {
        Reach {
            ownership: Arc::new(self.clone()),
            routing: Arc::new(self.clone()),
        }
    }
}

#[async_trait]
impl Ownership for Cluster {
    fn id_prefix(&self) -> String {
        format!("{}-", self.node())
    }

    fn writable(&self) -> Result<(), &'static str> {
        Cluster::writable(self).map_err(Partition::reason)
    }

    fn fenced(&self) -> &'static str {
        Partition::Store.reason()
    }

    async fn open(&self, room: &str, player: &str, limit: u32) -> Result<Opening, StoreError> {
        Ok(match Cluster::open(self, room, player, limit).await? {
            RoomOpening::Opened(fence) => Opening::Opened(Some(fence)),
            RoomOpening::AtLimit { open } => Opening::AtLimit { open },
        })
    }

    async fn claim(&self, room: &str) -> Result<Claim, StoreError> {
        Ok(match Cluster::claim(self, room).await? {
            Some(fence) => Claim::Ours(Some(fence)),
            None => Claim::Elsewhere,
        })
    }

    fn release(&self, room: &str, fence: Option<Fence>) {
        Cluster::release(self, room, fence);
    }
}

#[async_trait]
impl Routing for Cluster {
    fn fanout(&self, room: Arc<str>, local: LocalFanout) -> Box<dyn Fanout> {
        Box::new(self.owned_fanout(room, local))
    }

    async fn serve(&self, handle: RoomHandle) {
        Cluster::serve(self, handle).await;
    }

    fn moved_here(&self, id: &str) {
        Cluster::moved_here(self, id);
    }

    fn relay(&self, id: Arc<str>, rooms: Rooms) -> Option<RoomHandle> {
        Some(Cluster::relay(self, id, rooms))
    }

    fn lobby_upsert(&self, room: LobbyRoom, listing: Listing) {
        Cluster::lobby_upsert(self, room, listing);
    }

    fn lobby_remove(&self, id: &str) {
        Cluster::lobby_remove(self, id);
    }
}
