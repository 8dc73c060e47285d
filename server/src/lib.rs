//! The Gomoku / Renju game server as a library: [`run`] serves an [`AppState`] on a listener until a shutdown
//! future completes. `main.rs` only reads the [`Config`], opens the store and calls it; tests start the same app
//! on port 0.

#![warn(missing_docs)]

pub mod accounts;
pub mod analysis;
pub mod challenges;
pub mod cluster;
pub mod community;
pub mod computer;
pub mod config;
pub mod events;
pub mod export;
pub mod fairplay;
pub mod gomoku;
pub mod http;
pub mod identity;
pub mod limits;
pub mod lobby;
pub mod matches;
pub mod metrics;
pub mod pairing;
pub mod room;
pub mod stored;
pub mod time;
pub mod ws;

use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use store::{BatchWriter, Store, StoreError};
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};

pub use config::Config;

use crate::identity::Identities;
use crate::limits::{ConnectionLimits, PlayerConnections};
use crate::lobby::LobbyHandle;
use crate::metrics::Metrics;
use crate::room::Rooms;
use crate::time::{Clock, TokioClock};

/// Everything a request handler, connection or room needs: cheap handles, cloned freely.
#[derive(Clone)]
pub struct AppState {
    /// The configuration.
    pub config: Arc<Config>,
    /// Durable storage.
    pub store: Arc<dyn Store>,
    /// Group commit of game actions.
    pub writer: BatchWriter,
    /// Live rooms.
    pub rooms: Rooms,
    /// The lobby task.
    pub lobby: LobbyHandle,
    /// Metrics.
    pub metrics: Arc<Metrics>,
    /// Time for clocks, grace periods and rate limits.
    pub clock: Clock,
    /// Guest and account identities: resuming tokens, making new guests.
    pub identities: Identities,
    /// WebSocket limits overall, per address and per address range.
    pub limits: Arc<ConnectionLimits>,
    /// WebSocket limits per player (sockets only: the computer's in-process connections are not counted).
    pub player_limits: Arc<PlayerConnections>,
    /// Turns at password hashing: bounded, fair per client address.
    pub password_hashing: Arc<accounts::hash_queue::HashQueue>,
    /// Turns `true` when the server begins to shut down.
    pub shutdown: Arc<watch::Sender<bool>>,
    /// Which connections act under which session, so revoking a session closes them.
    pub live_sessions: accounts::live::LiveSessions,
    /// The computer opponent: its search threads, accounts and games.
    pub computer: computer::Computers,
    /// The quick-pairing task.
    pub pairing: pairing::PairingHandle,
    /// The challenges task.
    pub challenges: challenges::ChallengesHandle,
    /// Cluster mode (`--nats-url`): this node's link to the others; `None` on a single node.
    pub cluster: Option<cluster::Cluster>,
    /// Computer analyses of finished games and the analysis board's engine (issue #33).
    pub analyses: analysis::Analyses,
    /// Fair play: each rated game's moves against the engine's, and flags for the moderators (issue #38).
    pub fair_play: fairplay::FairPlay,
    /// The accounts connected to this node, with their connections (issue #38: friends online, follow notices).
    pub presence: Arc<community::presence::Presence>,
    /// The events task: arenas, Swiss tournaments, round robins (issue #34).
    pub events: events::EventsHandle,
    connections: Arc<ConnectionTracker>,
}

#[derive(Debug, Default)]
struct ConnectionTracker {
    next_id: AtomicU64,
    live: AtomicUsize,
    drained: Notify,
}

/// Marks one connection task as running; dropping it marks it done.
pub struct TrackedConnection(Arc<ConnectionTracker>);

impl Drop for TrackedConnection {
    fn drop(&mut self) {
        if self.0.live.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.drained.notify_waiters();
        }
    }
}

impl AppState {
    /// The state of a server on the real clock; unfinished games in the store are loaded back into rooms.
    pub async fn new(config: Config, store: Arc<dyn Store>) -> Result<AppState, StoreError> {
        AppState::with_clock(config, store, Arc::new(TokioClock)).await
    }

    /// A node of a cluster (issue #22) on the real clock: connects to NATS, and restores only the unfinished
    /// games it can claim (unowned, or whose owner's lease expired).
    pub async fn clustered(
        config: Config,
        store: Arc<dyn Store>,
        cluster: config::ClusterConfig,
    ) -> Result<AppState, cluster::ClusterError> {
        let clock: Clock = Arc::new(TokioClock);
        let link = cluster::Cluster::connect(
            &cluster,
            store.clone(),
            clock.clone(),
            config.event_log,
            Duration::from_secs(config.slow_client_secs),
        )
        .await?;
        Ok(AppState::build(config, store, clock, Some(link)).await?)
    }

    /// [`AppState::new`] with a given clock (tests drive a [`time::ManualClock`]).
    pub async fn with_clock(
        config: Config,
        store: Arc<dyn Store>,
        clock: Clock,
    ) -> Result<AppState, StoreError> {
        AppState::build(config, store, clock, None).await
    }

    async fn build(
        config: Config,
        store: Arc<dyn Store>,
        clock: Clock,
        cluster: Option<cluster::Cluster>,
    ) -> Result<AppState, StoreError> {
        rules::warm_up();
        let limits = ConnectionLimits::with_ranges(
            config.max_connections,
            config.max_connections_per_ip,
            config.max_connections_per_range,
            (
                config.connection_range_v4_prefix,
                config.connection_range_v6_prefix,
            ),
        );
        let player_limits = PlayerConnections::new(config.max_connections_per_player);
        let password_hashing = accounts::hash_queue::HashQueue::new(
            accounts::hash_queue::HashLimits::from_config(&config),
        );
        let lobby = LobbyHandle::spawn(lobby::LobbyLimits {
            rooms: config.lobby_rooms,
            per_address: config.lobby_rooms_per_ip as usize,
            per_range: config.lobby_rooms_per_range as usize,
            range_prefixes: (
                config.connection_range_v4_prefix,
                config.connection_range_v6_prefix,
            ),
        });
        let computer = computer::Computers::new(&config, &store).await?;
        let (pairing, pairing_inbox) = pairing::PairingHandle::channel();
        let (challenges, challenges_inbox) = challenges::ChallengesHandle::channel();
        let (events, events_inbox, events_hook) = events::EventsHandle::channel();
        let analyses = analysis::Analyses::new(
            store.clone(),
            analysis::Settings::from_config(&config),
            clock.clone(),
        );
        let fair_play =
            fairplay::FairPlay::start(store.clone(), fairplay::Settings::from_config(&config));
        let state = AppState {
            analyses,
            computer,
            identities: Identities::new(store.clone(), &config, clock.clone()),
            config: Arc::new(config),
            writer: BatchWriter::spawn_on_own_thread(store.clone())
                .0
                .on_rated(fair_play.sender()),
            fair_play,
            store,
            rooms: Rooms::default(),
            lobby,
            metrics: Arc::new(Metrics::default()),
            clock,
            limits,
            player_limits,
            password_hashing,
            shutdown: Arc::new(watch::Sender::new(false)),
            live_sessions: accounts::live::LiveSessions::new(),
            cluster,
            connections: Arc::default(),
            pairing,
            challenges,
            presence: Arc::default(),
            events,
        };
        // Before any room is restored: a restored event game that ends is reported to the events task.
        state.rooms.set_event_hook(events_hook);
        pairing::start(pairing_inbox, state.clone());
        challenges::start(challenges_inbox, state.clone());
        community::follows::start(state.clone());
        if let Some(cluster) = &state.cluster {
            state.rooms.set_reach(cluster.reach());
            cluster.follow_lobby(state.lobby.clone());
        }
        let unfinished = state.store.unfinished_games().await?;
        let mut count = 0;
        for mut record in unfinished {
            if let Some(cluster) = &state.cluster {
                // Only games no live node owns: the room's task claims them under a new epoch as it starts.
                let Some(fence) = cluster.claim(&record.game.room).await? else {
                    continue;
                };
                match cluster::claimed_game(&state, cluster, fence, record).await? {
                    Some(now) => record = now,
                    None => continue,
                }
            }
            count += 1;
            state.resume(record).await;
        }
        if count > 0 {
            tracing::info!(games = count, "resumed unfinished games");
        }
        events::start(events_inbox, state.clone());
        if state.cluster.is_some() {
            tokio::spawn(cluster::adopt(state.clone()));
        }
        Ok(state)
    }

    /// Loads an unfinished game back into a room of this node (at start-up, or taken over from a node that
    /// stopped renewing its lease); the computer takes its seat again, as a person's client would on reconnecting.
    pub(crate) async fn resume(&self, record: store::GameRecord) {
        let id = record.id;
        let players = [
            self.identities.of_player(&record.game.black).await,
            self.identities.of_player(&record.game.white).await,
        ];
        let opponents = players.each_ref().map(|p| {
            p.computer_level()
                .map(computer::Opponent::Level)
                .or_else(|| {
                    let name = p.engine_name()?;
                    self.computer
                        .engine(&name)
                        .map(computer::Opponent::External)
                })
        });
        match self.rooms.restore(self, record, players).await {
            Ok(room) => {
                for opponent in opponents.into_iter().flatten() {
                    self.computer.resume(self, &room.id, opponent);
                }
            }
            Err(e) => tracing::error!(game = id, error = %e, "could not resume a game"),
        }
    }

    /// A fresh connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.connections.next_id.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Counts a connection task until the returned guard drops (shutdown waits for them).
    pub fn track_connection(&self) -> TrackedConnection {
        self.connections.live.fetch_add(1, Ordering::SeqCst);
        TrackedConnection(self.connections.clone())
    }

    /// Whether shutdown has begun.
    pub fn shutting_down(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Shuts down what [`run`] leaves behind: closes every socket with 1001, lets rooms finish the command at
    /// hand, and waits until every acknowledged write is committed.
    async fn drain(&self, timeout: Duration) {
        self.shutdown.send_replace(true);
        let deadline = tokio::time::Instant::now() + timeout;
        while self.connections.live.load(Ordering::SeqCst) > 0 {
            let notified = self.connections.drained.notified();
            if self.connections.live.load(Ordering::SeqCst) == 0 {
                break;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                tracing::warn!("some connections did not close in time");
                break;
            }
        }
        for room in self.rooms.all() {
            room.shutdown().await;
        }
        if let Err(e) = self.writer.flush().await {
            tracing::error!(error = %e, "could not flush the last writes");
        }
        // Only after the last write: a node that claims a room sooner could miss an acknowledged action.
        if let Some(cluster) = &self.cluster {
            cluster.hand_over().await;
        }
    }
}

/// Serves the app on `listener` until `shutdown` completes, then shuts down gracefully: stops accepting, closes
/// sockets with code 1001, lets rooms finish and waits for the last writes.
pub async fn run(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = http::router(state.clone());
    let signal = state.shutdown.clone();
    let transport = transport(&state.config);
    http::serve::serve(listener, app, transport, async move {
        shutdown.await;
        tracing::info!("shutting down");
        // Sockets learn of it now; the HTTP server stops accepting when this future returns.
        signal.send_replace(true);
    })
    .await;
    state.drain(Duration::from_secs(10)).await;
    Ok(())
}

/// Serves only `/metrics` on `listener` (`--metrics-bind`) until the server behind `state` begins to shut down.
pub async fn run_metrics(listener: TcpListener, state: AppState) -> std::io::Result<()> {
    let app = http::metrics_router(state.clone());
    let mut shutdown = state.shutdown.subscribe();
    let transport = transport(&state.config);
    http::serve::serve(listener, app, transport, async move {
        let _ = shutdown.wait_for(|&s| s).await;
    })
    .await;
    Ok(())
}

/// The connection caps and timeouts of the configuration.
fn transport(config: &Config) -> http::serve::Transport {
    http::serve::Transport {
        limits: ConnectionLimits::new(
            config.max_tcp_connections,
            config.max_tcp_connections_per_ip,
        ),
        proxies: http::TrustedProxies::from_config(config),
        header_read_timeout: Duration::from_secs(config.header_read_secs.max(1)),
    }
}
