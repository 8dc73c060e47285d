//! What a room needs from the rest of the server, and nothing more: the store and its batch writer, the clock,
//! the limits it reads from the configuration, the lobby, the registry of rooms, metrics and the shutdown flag.
//!
//! Built from [`AppState`] in [`RoomEnv::of`] (the one place that knows both); a room's unit tests build one of
//! their own around an in-memory store and a hand-driven clock.

use std::sync::Arc;
use std::time::Duration;

use store::{BatchWriter, Store};
use tokio::sync::watch;

use super::fanout::{EventLog, Fanout, LocalFanout};
use super::reach::Reach;
use super::Rooms;
use crate::config::Config;
use crate::lobby::LobbyHandle;
use crate::metrics::Metrics;
use crate::time::Clock;
use crate::AppState;

/// The configured values a room reads, copied out of [`Config`] when the room is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RoomLimits {
    /// How long a seated player who lost every connection keeps the seat (`--grace-secs`).
    pub(crate) grace: Duration,
    /// Each seat's allowance for its first action before its clock runs (`--first-move-secs`).
    pub(crate) first_move: Duration,
    /// How long a room waits for its second player (`--waiting-room-secs`).
    pub(crate) waiting_room: Duration,
    /// Events kept for catching up (`--event-log`).
    pub(crate) event_log: usize,
    /// Chat text kept in the event log, in bytes (`--chat-log-bytes`).
    pub(crate) chat_log_bytes: usize,
    /// How long a member may stay behind before it is closed (`--slow-client-secs`).
    pub(crate) slow_client: Duration,
    /// Each member's chat allowance: lines a minute and burst.
    pub(crate) chat_per_minute: f64,
    /// Each member's chat burst.
    pub(crate) chat_burst: u32,
    /// The spectators' shared chat allowance: lines a minute.
    pub(crate) spectator_chat_per_minute: f64,
    /// The spectators' shared chat burst.
    pub(crate) spectator_chat_burst: u32,
    /// Chat lines kept for snapshots.
    pub(crate) chat_history_lines: usize,
    /// Chat bytes kept for snapshots.
    pub(crate) chat_history_bytes: usize,
    /// How long the side to act must be idle before the other may claim the win (games without a clock).
    pub(crate) idle_claim: Duration,
    /// Plies below which a rated game ended by choice or absence is aborted.
    pub(crate) rated_min_moves: u32,
    /// Rated games between the same two accounts that count within the window.
    pub(crate) rated_repeat_limit: u32,
    /// The window of the repeated-pairing rule.
    pub(crate) rated_repeat_window: Duration,
}

impl RoomLimits {
    /// The values of a configuration.
    pub(crate) fn of(config: &Config) -> RoomLimits {
        RoomLimits {
            grace: config.grace(),
            first_move: Duration::from_secs(config.first_move_secs),
            waiting_room: config.waiting_room(),
            event_log: config.event_log,
            chat_log_bytes: config.chat_log_bytes,
            slow_client: Duration::from_secs(config.slow_client_secs),
            chat_per_minute: config.chat_per_minute,
            chat_burst: config.chat_burst,
            spectator_chat_per_minute: config.spectator_chat_per_minute,
            spectator_chat_burst: config.spectator_chat_burst,
            chat_history_lines: config.chat_history_lines,
            chat_history_bytes: config.chat_history_bytes,
            idle_claim: Duration::from_secs(config.idle_claim_secs),
            rated_min_moves: config.rated_min_moves,
            rated_repeat_limit: config.rated_repeat_limit,
            rated_repeat_window: Duration::from_secs(config.rated_repeat_window_secs),
        }
    }
}

/// A room's environment: cheap handles, cloned into each room.
#[derive(Clone)]
pub(crate) struct RoomEnv {
    /// Durable storage (ratings, takebacks).
    pub(crate) store: Arc<dyn Store>,
    /// Group commit of new games, actions and results.
    pub(crate) writer: BatchWriter,
    /// Time for clocks, grace periods, deadlines and chat allowances.
    pub(crate) clock: Clock,
    /// The configured values the room reads.
    pub(crate) limits: RoomLimits,
    /// Where public rooms report their changes.
    pub(crate) lobby: LobbyHandle,
    /// The registry of live rooms (a room removes itself when it closes; rated pairings).
    pub(crate) rooms: Rooms,
    /// Counters and histograms.
    pub(crate) metrics: Arc<Metrics>,
    /// Turns `true` when the server begins to shut down.
    pub(crate) shutdown: Arc<watch::Sender<bool>>,
    /// Who may run the room, and how members elsewhere reach it (alone: [`super::reach::SingleNode`]).
    pub(crate) reach: Reach,
}

impl RoomEnv {
    /// The environment of the rooms of a server.
    pub(crate) fn of(state: &AppState) -> RoomEnv {
        RoomEnv {
            store: state.store.clone(),
            writer: state.writer.clone(),
            clock: state.clock.clone(),
            limits: RoomLimits::of(&state.config),
            lobby: state.lobby.clone(),
            rooms: state.rooms.clone(),
            metrics: state.metrics.clone(),
            shutdown: state.shutdown.clone(),
            reach: state.rooms.reach(),
        }
    }

    /// The fan-out of room `id`: this process's outboxes, and in cluster mode the other nodes too.
    pub(crate) fn fanout(&self, id: Arc<str>) -> Box<dyn Fanout> {
        let local = LocalFanout::new(
            id.clone(),
            self.clock.clone(),
            EventLog::new(self.limits.event_log, self.limits.chat_log_bytes),
        );
        self.reach.routing.fanout(id, local)
    }

    /// Whether the server is shutting down (disconnections then start no grace periods).
    pub(crate) fn shutting_down(&self) -> bool {
        *self.shutdown.borrow()
    }
}
