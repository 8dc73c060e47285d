//! Cluster mode (issue #22): several identical nodes on one Postgres database and a NATS server.
//!
//! Every room has one owner node: the node that created it (its id starts with the node's id) or restored it
//! after claiming it ([`store::Store::claim_room`]); the owner renews its leases, and the store fences every game
//! write by the claim's epoch. A socket on any node reaches any room: on the owner the room's task runs as on a
//! single node, with a `ClusterFanout` (`fanout.rs`) that also publishes each versioned event once on the room's
//! subject; on any other node the room is a relay (`relay.rs`), a stand-in task behind the same [`RoomHandle`] that sends
//! the socket's commands to the owner over NATS request/reply and fans the owner's publications out to its own
//! members (bounded outboxes, a short history to catch up from, a snapshot from the owner when that is not
//! enough). A node that stops renewing (killed, or shut down) has its rooms taken over once their leases expire
//! (`adopt`). Global limits are not part of this slice.

mod audience;
pub(crate) mod fanout;
mod lobby;
mod owner;
mod relay;
pub(crate) mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use store::{Fence, Store, StoreError};
use tokio::sync::mpsc;

use crate::config::ClusterConfig;
use crate::room::fanout::LocalFanout;
use crate::room::{RoomHandle, Rooms};
use crate::time::Clock;
use crate::ws::outbox::{ConnId, Outbox};
use wire::Addr;

/// Connection ids from this one up stand, in a room on its owner, for members whose sockets are on other nodes
/// (a node's own connections count from 1 and never get near it).
const REMOTE_CONN_BASE: ConnId = 1 << 62;

/// How long a node waits for a room's owner to answer a request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a cluster node could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// NATS could not be reached.
    #[error("cannot connect to NATS at {url}: {detail}")]
    Nats {
        /// The configured URL.
        url: String,
        /// What the client said.
        detail: String,
    },
    /// The store failed (claiming the games to restore).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The members of one owned room whose sockets are on other nodes, by the stand-in connection id the room knows
/// them by.
#[derive(Debug, Default)]
pub(crate) struct RemoteMembers {
    by_conn: HashMap<ConnId, Addr>,
    by_addr: HashMap<Addr, ConnId>,
}

impl RemoteMembers {
    /// Where the socket a stand-in id stands for is.
    pub(crate) fn addr(&self, conn: ConnId) -> Option<Addr> {
        self.by_conn.get(&conn).cloned()
    }

    /// The stand-in id of a remote socket, if it joined.
    pub(crate) fn conn(&self, addr: &Addr) -> Option<ConnId> {
        self.by_addr.get(addr).copied()
    }

    /// The stand-in id of a joining remote socket (the one it has, or a new one from `next`).
    pub(crate) fn admit(&mut self, addr: Addr, next: impl FnOnce() -> ConnId) -> ConnId {
        if let Some(&conn) = self.by_addr.get(&addr) {
            return conn;
        }
        let conn = next();
        self.by_conn.insert(conn, addr.clone());
        self.by_addr.insert(addr, conn);
        conn
    }

    /// A remote socket left the room or is gone.
    pub(crate) fn forget(&mut self, addr: &Addr) {
        if let Some(conn) = self.by_addr.remove(addr) {
            self.by_conn.remove(&conn);
        }
    }
}

/// A cluster node's handle on NATS, its ownership claims and its rooms' remote members: cheap to clone.
#[derive(Clone)]
pub struct Cluster {
    inner: Arc<Inner>,
}

struct Inner {
    node: String,
    nats: async_nats::Client,
    store: Arc<dyn Store>,
    lease_ms: i64,
    clock: Clock,
    /// Events a relay keeps to catch its members up (`--event-log`).
    event_log: usize,
    /// How long a relay's member may stay behind before it is closed (`--slow-client-secs`).
    slow_client: Duration,
    next_remote: AtomicU64,
    /// Set when the node shuts down: its leases are no longer renewed, so they expire for another node to claim.
    stopped: std::sync::atomic::AtomicBool,
    /// The remote members of each room this node owns.
    owned: Mutex<HashMap<Arc<str>, Arc<Mutex<RemoteMembers>>>>,
    /// What the other nodes' lobbies are to hear of this node's public rooms.
    announcer: Arc<Mutex<lobby::Announcer>>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("node", &self.inner.node)
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// Connects to NATS and starts renewing this node's leases.
    pub async fn connect(
        config: &ClusterConfig,
        store: Arc<dyn Store>,
        clock: Clock,
        event_log: usize,
        slow_client: Duration,
    ) -> Result<Cluster, ClusterError> {
        let nats = async_nats::ConnectOptions::new()
            .name(format!("gomoku-{}", config.node_id))
            .connect(&config.nats_url)
            .await
            .map_err(|e| ClusterError::Nats {
                url: config.nats_url.clone(),
                detail: e.to_string(),
            })?;
        let cluster = Cluster {
            inner: Arc::new(Inner {
                node: config.node_id.clone(),
                nats,
                store,
                lease_ms: i64::try_from(config.lease_ms).unwrap_or(i64::MAX),
                clock,
                event_log,
                slow_client,
                next_remote: AtomicU64::new(0),
                stopped: Default::default(),
                owned: Mutex::default(),
                announcer: Arc::default(),
            }),
        };
        tokio::spawn(renew(Arc::downgrade(&cluster.inner)));
        Ok(cluster)
    }

    /// Stops renewing this node's leases (it is shutting down): its unfinished games are left for the next node
    /// that claims them once the leases expire.
    pub(crate) fn stop_renewing(&self) {
        self.inner.stopped.store(true, Ordering::SeqCst);
    }

    /// Lists the other nodes' public rooms in this node's `lobby`, and announces this node's to them.
    pub(crate) fn follow_lobby(&self, lobby: crate::lobby::LobbyHandle) {
        tokio::spawn(lobby::run(
            self.inner.nats.clone(),
            self.inner.node.clone(),
            self.inner.announcer.clone(),
            lobby,
        ));
    }

    /// A public room of this node is listed or changed: the other nodes list it too (throttled).
    pub(crate) fn lobby_upsert(&self, room: protocol::LobbyRoom) {
        self.inner
            .announcer
            .lock()
            .expect("announcer lock")
            .upsert(room);
    }

    /// A room of this node left the lobby: it leaves the other nodes' too.
    pub(crate) fn lobby_remove(&self, id: &str) {
        self.inner
            .announcer
            .lock()
            .expect("announcer lock")
            .remove(id);
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.inner.node
    }

    /// Claims a room for this node (see [`Store::claim_room`]); `None` while another node's lease holds.
    pub(crate) async fn claim(&self, room: &str) -> Result<Option<Fence>, StoreError> {
        self.inner
            .store
            .claim_room(room, &self.inner.node, self.inner.lease_ms)
            .await
    }

    /// Gives up a closed room: its ownership row goes, and its remote members with it.
    pub(crate) fn release(&self, room: &str, fence: Option<Fence>) {
        self.inner.owned.lock().expect("owned lock").remove(room);
        if let Some(fence) = fence {
            let store = self.inner.store.clone();
            tokio::spawn(async move {
                if let Err(e) = store.release_room(&fence).await {
                    tracing::warn!(room = %fence.room, error = %e, "could not release a room");
                }
            });
        }
    }

    fn remotes_of(&self, room: &Arc<str>) -> Arc<Mutex<RemoteMembers>> {
        self.inner
            .owned
            .lock()
            .expect("owned lock")
            .entry(room.clone())
            .or_default()
            .clone()
    }

    /// The fan-out of a room this node owns: `local` for its own members, NATS for the others.
    pub(crate) fn owned_fanout(&self, room: Arc<str>, local: LocalFanout) -> fanout::ClusterFanout {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(owner::publish(self.clone(), room.clone(), rx));
        fanout::ClusterFanout::new(room.clone(), local, self.remotes_of(&room), tx)
    }

    /// Serves a room this node owns to the other nodes until it closes.
    pub(crate) fn serve(&self, handle: RoomHandle) {
        let remotes = self.remotes_of(&handle.id);
        tokio::spawn(owner::serve(self.clone(), handle, remotes));
    }

    /// The stand-in for room `id` owned elsewhere, as a handle like a local room's.
    pub(crate) fn relay(&self, id: Arc<str>, rooms: Rooms) -> RoomHandle {
        relay::spawn(self.clone(), id, rooms)
    }

    /// A fresh stand-in connection id for a member on another node.
    fn next_remote_conn(&self) -> ConnId {
        REMOTE_CONN_BASE + self.inner.next_remote.fetch_add(1, Ordering::Relaxed)
    }

    /// The outbox a room is given for a remote member: never written (the cluster fan-out publishes that
    /// member's frames), so it has no writer.
    fn stand_in(&self, conn: ConnId) -> Outbox {
        let (tx, _rx) = mpsc::channel(1);
        Outbox::new(conn, tx, Arc::default())
    }

    /// This node's address for one of its connections.
    fn addr(&self, conn: ConnId) -> Addr {
        Addr {
            node: self.inner.node.clone(),
            conn,
        }
    }
}

/// Renews the node's leases every third of a lease while the cluster handle lives.
async fn renew(inner: std::sync::Weak<Inner>) {
    let period = {
        let Some(inner) = inner.upgrade() else { return };
        Duration::from_millis(u64::try_from(inner.lease_ms / 3).unwrap_or(1000).max(50))
    };
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        if inner.stopped.load(Ordering::SeqCst) {
            return;
        }
        match inner.store.renew_rooms(&inner.node, inner.lease_ms).await {
            Ok(lost) if lost.is_empty() => {}
            Ok(lost) => tracing::error!(
                ?lost,
                "rooms whose lease this node lost: their writes are refused"
            ),
            Err(e) => tracing::warn!(error = %e, "could not renew this node's leases"),
        }
    }
}

/// Rooms taken over at most per look.
const ADOPT_BATCH: u32 = 500;

/// Takes over the rooms of nodes that stopped renewing their leases (issue #22's failover): every half lease,
/// the rooms whose lease expired are claimed (one node wins each, under a new epoch that fences the old owner)
/// and their unfinished games resumed here from the store, every acknowledged action included; a room left with
/// no unfinished game is forgotten. Players reconnect (to any node) and rejoin as after a restart. Ends when the
/// node shuts down.
pub(crate) async fn adopt(state: crate::AppState) {
    let Some(cluster) = state.cluster.clone() else {
        return;
    };
    let every = Duration::from_millis(
        u64::try_from(cluster.inner.lease_ms / 2)
            .unwrap_or(500)
            .max(50),
    );
    let mut shutdown = state.shutdown.subscribe();
    loop {
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            _ = shutdown.changed() => return,
        }
        if state.shutting_down() {
            return;
        }
        if let Err(e) = adopt_once(&state, &cluster).await {
            tracing::warn!(error = %e, "could not look for rooms to take over");
        }
    }
}

async fn adopt_once(state: &crate::AppState, cluster: &Cluster) -> Result<(), StoreError> {
    let expired = state.store.expired_rooms(ADOPT_BATCH).await?;
    if expired.is_empty() {
        return Ok(());
    }
    let mut games: HashMap<String, store::GameRecord> = state
        .store
        .unfinished_games()
        .await?
        .into_iter()
        .map(|g| (g.game.room.clone(), g))
        .collect();
    let mut taken = 0;
    for room in expired {
        // A relay this node keeps to the dead owner does not stop the takeover.
        if state.rooms.owns(&room) {
            continue;
        }
        match games.remove(&room) {
            None => state.store.forget_expired_room(&room).await?,
            Some(record) => {
                // Another node may win the claim: then the room is its.
                if cluster.claim(&room).await?.is_some() {
                    state.resume(record).await;
                    taken += 1;
                }
            }
        }
    }
    if taken > 0 {
        tracing::info!(games = taken, node = %cluster.node(), "took over games from a node whose lease expired");
    }
    Ok(())
}
