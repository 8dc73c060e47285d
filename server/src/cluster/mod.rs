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
//! (`adopt`); one that drains hands them over at once (`Cluster::hand_over`). A node cut off from NATS or Postgres
//! takes no game actions and, without NATS, renews no leases; rooms it finds lost close here (`health.rs`).
//!
//! Limits that hold for the whole cluster: a player's open rooms are their rooms' ownership rows
//! ([`Store::open_room`], counted and claimed in one step), the login limits' buckets are shared rows in the store
//! (`accounts/limiter.rs`), and the lobby's online count adds the other nodes' announced counts (`lobby.rs`).

mod audience;
pub(crate) mod fanout;
mod health;
mod lobby;
mod owner;
mod reach;
mod relay;
pub(crate) mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use store::{Fence, Store, StoreError};
use tokio::sync::mpsc;

use crate::config::{ClusterConfig, NatsAuth};
use crate::room::fanout::LocalFanout;
use crate::room::{RoomHandle, Rooms};
use crate::time::Clock;
use crate::ws::outbox::{ConnId, Outbox};
use wire::Addr;

use health::Health;
pub(crate) use health::Partition;

/// Connection ids from this one up stand, in a room on its owner, for members whose sockets are on other nodes
/// (a node's own connections count from 1 and never get near it).
const REMOTE_CONN_BASE: ConnId = 1 << 62;

/// How long a node waits for a room's owner to answer a request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a cluster node could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// NATS could not be reached.
    #[error("cannot connect to NATS at {url}{}: {detail}", over_tls(.tls))]
    Nats {
        /// The configured URL (its password hidden).
        url: String,
        /// Whether the node required TLS.
        tls: bool,
        /// What the client said.
        detail: String,
    },
    /// NATS refused this node's credentials (wrong ones, or none where NATS wants some).
    #[error(
        "NATS at {url} refused this node ({method}): {detail}; give the node the credentials NATS has for it \
         (--nats-user and NATS_PASSWORD, --nats-token, --nats-nkey-file or --nats-creds-file)"
    )]
    NatsRefused {
        /// The configured URL (its password hidden).
        url: String,
        /// The credentials the node gave ([`crate::config::NatsAuth::describe`]).
        method: &'static str,
        /// What the client said.
        detail: String,
    },
    /// A credentials or certificate file could not be read.
    #[error("cannot read {what} {path}: {detail}")]
    NatsFile {
        /// Which setting names it.
        what: &'static str,
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        detail: String,
    },
    /// The store failed (claiming the games to restore).
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn over_tls(tls: &bool) -> &'static str {
    if *tls {
        " over TLS (the node requires it)"
    } else {
        ""
    }
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
    /// Whether the node hears NATS and has renewed its leases lately (see `health.rs`).
    health: Health,
    /// Rooms whose lease a renewal found lost (another node claimed them, or they expired while the node was cut
    /// off): their tasks here are closed by the next look of [`adopt`].
    lost: Mutex<Vec<String>>,
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
        let lease = Duration::from_millis(config.lease_ms);
        if config.nats_auth == NatsAuth::None && !config.nats_url.contains('@') {
            tracing::warn!(
                "this node gives NATS no credentials: a NATS server that admits it admits anyone who reaches \
                 it, who can then act for any player (docs/security.md, \"The cluster's messaging\")"
            );
        }
        let nats = nats_options(config)
            .await?
            .connect(&config.nats_url)
            .await
            .map_err(|e| connect_error(config, &e))?;
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
                health: Health::new(lease),
                lost: Mutex::default(),
            }),
        };
        tokio::spawn(renew(Arc::downgrade(&cluster.inner)));
        Ok(cluster)
    }

    /// Hands this node's rooms over (it drains: shutdown, after the last write is committed): the renewals stop,
    /// every lease it holds ends now, and the other nodes are told to look for rooms to take over at once, so
    /// that its games go on elsewhere within moments instead of a lease. If Postgres cannot be reached, the
    /// leases simply run out as after a crash.
    pub(crate) async fn hand_over(&self) {
        self.inner.stopped.store(true, Ordering::SeqCst);
        match self.inner.store.hand_over_rooms(&self.inner.node).await {
            Ok(rooms) => {
                tracing::info!(rooms, node = %self.inner.node, "handed this node's rooms over");
                let nats = &self.inner.nats;
                let say = async {
                    nats.publish(wire::HANDOVER_SUBJECT, self.inner.node.clone().into())
                        .await
                        .map_err(|e| e.to_string())?;
                    nats.flush().await.map_err(|e| e.to_string())
                };
                // Without NATS the others find the expired leases on their next look instead.
                match tokio::time::timeout(Duration::from_secs(1), say).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => tracing::warn!(error = %e, "could not announce the hand-over"),
                    Err(_) => tracing::warn!("could not announce the hand-over in time"),
                }
            }
            Err(e) => tracing::warn!(
                error = %e,
                "could not hand the rooms over: their leases run out instead"
            ),
        }
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
    pub(crate) fn lobby_upsert(&self, room: protocol::LobbyRoom, listing: crate::lobby::Listing) {
        self.inner
            .announcer
            .lock()
            .expect("announcer lock")
            .upsert(room, listing);
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

    /// `Ok` when this node may take game actions for its rooms: it hears NATS and its last renewal reached
    /// Postgres within two thirds of a lease; else the partition that stops it.
    pub(crate) fn writable(&self) -> Result<(), Partition> {
        self.look_at_nats();
        self.inner.health.check()
    }

    fn look_at_nats(&self) -> bool {
        let up = self.inner.nats.connection_state() == async_nats::connection::State::Connected;
        self.inner.health.set_nats(up);
        up
    }

    /// Claims a room for this node (see [`Store::claim_room`]); `None` while another node's lease holds.
    pub(crate) async fn claim(&self, room: &str) -> Result<Option<Fence>, StoreError> {
        self.inner
            .store
            .claim_room(room, &self.inner.node, self.inner.lease_ms)
            .await
    }

    /// Opens new room `room` here for `player` unless they already have `limit` open rooms on any node (see
    /// [`Store::open_room`]); an opened room is claimed.
    pub(crate) async fn open(
        &self,
        room: &str,
        player: &str,
        limit: u32,
    ) -> Result<store::RoomOpening, StoreError> {
        self.inner
            .store
            .open_room(room, &self.inner.node, player, self.inner.lease_ms, limit)
            .await
    }

    /// The rooms renewals found lost since the last call.
    fn take_lost(&self) -> Vec<String> {
        std::mem::take(&mut *self.inner.lost.lock().expect("lost lock"))
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

    /// Serves a room this node owns to the other nodes until it closes. Returns once the NATS server has the
    /// room's subscription: a join from another node right after (the creator's opponent, given the new room's
    /// id) finds the room instead of `unknown_room`.
    pub(crate) async fn serve(&self, handle: RoomHandle) {
        let nats = &self.inner.nats;
        let requests = match nats.subscribe(wire::cmd_subject(&handle.id)).await {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(room = %handle.id, error = %e, "could not serve a room to the other nodes");
                return;
            }
        };
        if let Err(e) = tokio::time::timeout(REQUEST_TIMEOUT, nats.flush())
            .await
            .unwrap_or_else(|_| Err(async_nats::client::FlushErrorKind::FlushError.into()))
        {
            tracing::warn!(room = %handle.id, error = %e, "the room's subscription is not confirmed");
        }
        let remotes = self.remotes_of(&handle.id);
        tokio::spawn(owner::serve(self.clone(), handle, remotes, requests));
    }

    /// Tells every node's relay of room `id`, which this node has just restored, to close its members
    /// ([`wire::Publication::Moved`]).
    pub(crate) fn moved_here(&self, id: &str) {
        let bytes = serde_json::to_vec(&wire::Publication::Moved).expect("publications serialise");
        let (nats, subject) = (self.inner.nats.clone(), wire::out_subject(id));
        tokio::spawn(async move {
            if let Err(e) = nats.publish(subject, bytes.into()).await {
                tracing::warn!(error = %e, "could not tell the relays that a room moved here");
            }
        });
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

/// The NATS client's options for a node: its name, its ping interval, its credentials and its TLS settings.
pub(crate) async fn nats_options(
    config: &ClusterConfig,
) -> Result<async_nats::ConnectOptions, ClusterError> {
    let read = |what: &'static str, path: &std::path::Path| {
        let path = path.to_owned();
        move |e: std::io::Error| ClusterError::NatsFile {
            what,
            path,
            detail: e.to_string(),
        }
    };
    let options = match &config.nats_auth {
        NatsAuth::None => async_nats::ConnectOptions::new(),
        NatsAuth::UserPassword { user, password } => {
            async_nats::ConnectOptions::with_user_and_password(
                user.clone(),
                password.expose().to_owned(),
            )
        }
        NatsAuth::Token(token) => async_nats::ConnectOptions::with_token(token.expose().to_owned()),
        NatsAuth::NKeyFile(path) => {
            let seed = tokio::fs::read_to_string(path)
                .await
                .map_err(read("the NKey seed file", path))?;
            async_nats::ConnectOptions::with_nkey(seed.trim().to_owned())
        }
        NatsAuth::CredsFile(path) => async_nats::ConnectOptions::with_credentials_file(path)
            .await
            .map_err(read("the NATS credentials file", path))?,
    };
    let lease = Duration::from_millis(config.lease_ms);
    let mut options = options
        .name(format!("gomoku-{}", config.node_id))
        // A connection that goes silent (no reset) is found dead after two unanswered pings: within about
        // half a lease, before the leases it would let run out matter.
        .ping_interval((lease / 4).max(Duration::from_millis(100)))
        .require_tls(config.nats_tls.required);
    if let Some(ca) = &config.nats_tls.ca_file {
        // The client reads it only when it connects: a missing file is named here instead.
        tokio::fs::metadata(ca)
            .await
            .map_err(read("the NATS CA file (--nats-ca-file)", ca))?;
        options = options.add_root_certificates(ca.clone());
    }
    if let Some((cert, key)) = &config.nats_tls.client_cert {
        for (what, path) in [
            ("the NATS client certificate (--nats-client-cert)", cert),
            ("the NATS client key (--nats-client-key)", key),
        ] {
            tokio::fs::metadata(path).await.map_err(read(what, path))?;
        }
        options = options.add_client_certificate(cert.clone(), key.clone());
    }
    Ok(options)
}

/// What a failed first connection to NATS is: a refusal of the node's credentials gets its own error.
fn connect_error(config: &ClusterConfig, e: &async_nats::ConnectError) -> ClusterError {
    let url = config.nats_url_redacted();
    let detail = e.to_string();
    let refused = e.kind() == async_nats::ConnectErrorKind::AuthorizationViolation
        || detail.to_ascii_lowercase().contains("authorization");
    if refused {
        ClusterError::NatsRefused {
            url,
            method: config.nats_auth.describe(),
            detail,
        }
    } else {
        ClusterError::Nats {
            url,
            tls: config.nats_tls.required,
            detail,
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
        let cluster = Cluster {
            inner: inner.clone(),
        };
        // A node nobody can reach over NATS lets its leases run out, for the nodes the players can reach.
        let renewal = if cluster.look_at_nats() {
            // A renewal stuck on an unreachable database must not hold up the next look.
            tokio::time::timeout(period, inner.store.renew_rooms(&inner.node, inner.lease_ms))
                .await
                .unwrap_or_else(|_| Err(StoreError::Database("the renewal timed out".into())))
        } else {
            Err(StoreError::Database(
                "NATS is down: this node renews no leases".into(),
            ))
        };
        match renewal {
            Ok(lost) => {
                inner.health.renewed();
                if !lost.is_empty() {
                    tracing::error!(
                        ?lost,
                        "rooms whose lease this node lost: their writes are refused and their tasks here close"
                    );
                    inner.lost.lock().expect("lost lock").extend(lost);
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not renew this node's leases: no game actions here");
                // Past a whole lease every room's lease has run out: the rooms close here, for whichever node
                // takes them over (this one too, once it is back in contact).
                if inner.health.leases_ran_out() {
                    let owned: Vec<String> = inner
                        .owned
                        .lock()
                        .expect("owned lock")
                        .keys()
                        .map(|r| r.to_string())
                        .collect();
                    if !owned.is_empty() {
                        tracing::error!(
                            rooms = owned.len(),
                            "this node's leases ran out: its rooms close here"
                        );
                        inner.lost.lock().expect("lost lock").extend(owned);
                    }
                }
            }
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
    let mut handovers = match cluster.inner.nats.subscribe(wire::HANDOVER_SUBJECT).await {
        Ok(s) => Some(s),
        Err(e) => {
            tracing::warn!(error = %e, "cannot hear other nodes' hand-overs: taking over only when leases expire");
            None
        }
    };
    loop {
        let handover = async {
            match handovers.as_mut() {
                Some(s) => futures_util::StreamExt::next(s).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            Some(_) = handover => {}
            _ = shutdown.changed() => return,
        }
        if state.shutting_down() {
            return;
        }
        let lost = cluster.take_lost();
        if !lost.is_empty() {
            state.rooms.moved(&lost).await;
        }
        // A node cut off takes nothing over: the players could not reach the rooms here.
        if cluster.writable().is_err() {
            continue;
        }
        if let Err(e) = adopt_once(&state, &cluster).await {
            tracing::warn!(error = %e, "could not look for rooms to take over");
        }
    }
}

/// A game as it stands once its room is claimed (`fence`), to resume; `None`, the room released, if it ended.
/// It was read before the claim, and a write of the room's old owner that passed its fence before the lease ran
/// out may have committed since; the claim waited for it (it locks the room's row), and fences every later one,
/// so the game read now is the whole of it.
pub(crate) async fn claimed_game(
    state: &crate::AppState,
    cluster: &Cluster,
    fence: Fence,
    read_before: store::GameRecord,
) -> Result<Option<store::GameRecord>, StoreError> {
    let record = state
        .store
        .game(read_before.id)
        .await?
        .unwrap_or(read_before);
    if record.end.is_some() {
        cluster.release(&fence.room.clone(), Some(fence));
        return Ok(None);
    }
    Ok(Some(record))
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
                if let Some(fence) = cluster.claim(&room).await? {
                    if let Some(record) = claimed_game(state, cluster, fence, record).await? {
                        state.resume(record).await;
                        taken += 1;
                    }
                }
            }
        }
    }
    if taken > 0 {
        tracing::info!(games = taken, node = %cluster.node(), "took over games from a node whose lease expired");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{NatsTls, Secret};

    fn config(auth: NatsAuth, tls: NatsTls) -> ClusterConfig {
        ClusterConfig {
            nats_url: "nats://127.0.0.1:4222".into(),
            node_id: "n1".into(),
            lease_ms: 15_000,
            nats_auth: auth,
            nats_tls: tls,
        }
    }

    #[tokio::test]
    async fn the_tls_settings_reach_the_nats_client() {
        let plain = nats_options(&config(NatsAuth::None, NatsTls::default()))
            .await
            .unwrap();
        let shown = format!("{plain:?}");
        assert!(shown.contains(r#""tls_required": false"#), "{shown}");
        let dir = tempfile::tempdir().unwrap();
        let ca = dir.path().join("ca.pem");
        std::fs::write(&ca, "").unwrap();
        let tls = NatsTls {
            required: true,
            ca_file: Some(ca.clone()),
            client_cert: None,
        };
        let options = nats_options(&config(NatsAuth::None, tls)).await.unwrap();
        let shown = format!("{options:?}");
        assert!(shown.contains(r#""tls_required": true"#), "{shown}");
        assert!(shown.contains(&format!("{ca:?}")), "{shown}");
    }

    #[tokio::test]
    async fn a_missing_credentials_or_certificate_file_is_named_at_start() {
        let missing = std::path::PathBuf::from("/nonexistent/gomoku/nkey.seed");
        let err = nats_options(&config(
            NatsAuth::NKeyFile(missing.clone()),
            NatsTls::default(),
        ))
        .await
        .unwrap_err();
        assert!(err.to_string().contains("NKey seed file"), "{err}");
        assert!(err.to_string().contains("/nonexistent/gomoku/nkey.seed"));
        let tls = NatsTls {
            required: true,
            ca_file: Some("/nonexistent/ca.pem".into()),
            client_cert: None,
        };
        let err = nats_options(&config(NatsAuth::Token(Secret::from("t")), tls))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("--nats-ca-file"), "{err}");
    }
}
