//! Rooms: one tokio task per room owns its seats, game, clocks and members; everyone else talks to it through a
//! [`RoomHandle`] (commands over `mpsc`, answers over `oneshot`).

mod chat;
mod clock;
mod deadlines;
mod env;
mod evented;
pub(crate) mod fanout;
mod finish;
mod live;
mod matched;
mod offers;
mod play;
mod projection;
mod reach;
mod restore;
mod seats;
mod settings;
mod summary;
mod task;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use games::{AnyAction, AnyIllegal, Coded};
use protocol::{code, JoinRole};
use rand::Rng;
use store::UserId;
use tokio::sync::{mpsc, oneshot};

/// The chat text as rooms show it (the community's stored lines keep the same).
pub use chat::clean as clean_chat;
pub use clock::{lag_credit_ms, GameClock, LAG_CREDIT_CAP_MS};
pub use offers::Offers;
pub(crate) use restore::stored_time_control;
pub use settings::Settings;
pub use summary::RoomSummary;
pub(crate) use task::CLOSE_ROOM_MOVED;

use crate::identity::Identity;
use crate::ws::outbox::{ConnId, Outbox};
use crate::AppState;
use env::RoomEnv;
pub(crate) use reach::{Claim, Opening, Ownership, Reach, Routing};

/// Commands waiting for a room before senders wait (back-pressure on the connections).
pub(crate) const QUEUE: usize = 256;

/// Why a room refused a request: a stable code for the `error` frame and a human message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomError {
    /// Stable snake_case code.
    pub code: Cow<'static, str>,
    /// Human-readable explanation.
    pub message: String,
    /// When the same request may succeed, if the server can tell (the error frame's `retry_after_ms`).
    pub retry_after: Option<std::time::Duration>,
}

impl RoomError {
    /// An error with a code and message.
    pub fn new(code: &'static str, message: impl Into<String>) -> RoomError {
        RoomError {
            code: Cow::Borrowed(code),
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same error, saying to try again after `wait`.
    pub fn retry_after(self, wait: std::time::Duration) -> RoomError {
        RoomError {
            retry_after: Some(wait),
            ..self
        }
    }

    /// The error frame's `retry_after_ms`: whole milliseconds, at least one.
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.retry_after
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1))
    }

    fn internal() -> RoomError {
        RoomError::new(
            code::INTERNAL,
            "the server could not complete this; try again",
        )
    }

    /// The game is decided but its result is not stored yet (the room keeps retrying; `game_over` follows).
    fn result_pending() -> RoomError {
        RoomError::new(
            code::RESULT_PENDING,
            "the game is decided and its result is being saved; it is announced once saved",
        )
    }

    fn unknown_room() -> RoomError {
        RoomError::new(code::UNKNOWN_ROOM, "no such room")
    }
}

impl From<AnyIllegal> for RoomError {
    /// A game's refusal of an action: its stable code and its words.
    fn from(e: AnyIllegal) -> RoomError {
        RoomError {
            code: Cow::Borrowed(e.code()),
            message: e.to_string(),
            retry_after: None,
        }
    }
}

/// What a player (or, for chat, anyone in the room) asks a room to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// Any game's move for the ply it is meant to be (the moves on the board after it; the first move is ply 1):
    /// at the next ply it plays; the same move by the same seat at an earlier ply is a retry and acknowledged;
    /// anything else is `stale_ply`. Version-1 clients' `place` arrives so (`ws/v1.rs`).
    Ply {
        /// The move.
        action: AnyAction,
        /// The ply it is meant to be.
        ply: u32,
    },
    /// Any game's action without a number: applied where the game stands, except that one the game takes at most
    /// once a seat and this seat already made is a retry and acknowledged. Version-1 clients' swap decision,
    /// fifth proposal and choice and forbidden claim arrive so (`ws/v1.rs`).
    Unnumbered(AnyAction),
    /// Any game's action, for the number of actions the game had accepted before it (`at`): at the count it is
    /// applied; below it, the same action by the same seat at `at` is a retry and acknowledged, anything else is
    /// `stale_ply`.
    Game {
        /// The action.
        action: AnyAction,
        /// How many actions the game had accepted before this one.
        at: u32,
    },
    /// Any game's action as its notation (the wire's `act`): read with the room's game, then as [`Act::Game`]. A
    /// text the game does not write is `bad_notation`.
    Notation {
        /// The action's notation (`h8`, `swap`, `f5`, `32-28`, …).
        text: String,
        /// How many actions the game had accepted before this one.
        at: u32,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Answer the opponent's draw offer.
    AnswerDraw(bool),
    /// Ask to take back one's last move.
    RequestTakeback,
    /// Answer the opponent's takeback request.
    AnswerTakeback(bool),
    /// Offer (or accept) a rematch.
    OfferRematch,
    /// Answer the opponent's rematch offer.
    AnswerRematch(bool),
    /// Chat: the text, and the id the community's store kept the line under (issue #38), if it did.
    Chat(String, Option<i64>),
    /// A player shows (`true`) or hides the spectators' chat.
    ShowSpectatorChat(bool),
    /// Claim the win from an opponent who has not acted for the idle time (games without a clock).
    ClaimWin,
}

type Reply = oneshot::Sender<Result<(), RoomError>>;

/// A message to a room task.
pub(crate) enum Command {
    Join {
        identity: Identity,
        outbox: Outbox,
        role: JoinRole,
        since: Option<u64>,
        rid: Option<u64>,
        reply: Reply,
    },
    Leave {
        conn: ConnId,
        rid: Option<u64>,
        reply: Reply,
    },
    Act {
        conn: ConnId,
        rid: Option<u64>,
        act: Act,
        /// The connection's measured round-trip time (0 when unknown).
        rtt_ms: u64,
        reply: Reply,
    },
    Disconnected {
        conn: ConnId,
    },
    Shutdown {
        reply: oneshot::Sender<()>,
    },
    /// Cluster mode: this node lost the room's lease (another node owns it now, or may claim it): the task
    /// closes its members' connections here (code 1012: they reconnect and find the room where it is) and ends
    /// without a write.
    Moved {
        reply: oneshot::Sender<()>,
    },
    Barrier {
        reply: oneshot::Sender<()>,
    },
    /// A member on another node fell behind there: send it a snapshot (cluster mode).
    Resync {
        conn: ConnId,
    },
    Summary {
        reply: oneshot::Sender<RoomSummary>,
    },
    /// A moderator removed a kept chat line for everyone (issue #38).
    RemoveChat {
        line: i64,
        reply: Reply,
    },
}

/// A cheap handle to one room's task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    /// The room's id.
    pub id: Arc<str>,
    tx: mpsc::Sender<Command>,
}

impl RoomHandle {
    /// A handle over a room task's command queue (a room's own task, or a cluster relay standing in for it).
    pub(crate) fn new(id: Arc<str>, tx: mpsc::Sender<Command>) -> RoomHandle {
        RoomHandle { id, tx }
    }

    /// Resolves when the room's task has ended.
    pub(crate) async fn closed(&self) {
        self.tx.closed().await;
    }

    /// Asks the room to send a member a snapshot (one on another node that fell behind there).
    pub(crate) async fn resync(&self, conn: ConnId) {
        let _ = self.tx.send(Command::Resync { conn }).await;
    }

    async fn ask(&self, make: impl FnOnce(Reply) -> Command) -> Result<(), RoomError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| RoomError::unknown_room())?;
        answer.await.map_err(|_| RoomError::unknown_room())?
    }

    /// Joins as a player or spectator; the room sends the snapshot (or missed events) to `outbox` itself.
    pub async fn join(
        &self,
        identity: Identity,
        outbox: Outbox,
        role: JoinRole,
        since: Option<u64>,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        self.ask(|reply| Command::Join {
            identity,
            outbox,
            role,
            since,
            rid,
            reply,
        })
        .await
    }

    /// Leaves the room (a running game is resigned).
    pub async fn leave(&self, conn: ConnId, rid: Option<u64>) -> Result<(), RoomError> {
        self.ask(|reply| Command::Leave { conn, rid, reply }).await
    }

    /// Asks the room to do something for a connection that joined it; the room sends the resulting events.
    pub async fn act(&self, conn: ConnId, rid: Option<u64>, act: Act) -> Result<(), RoomError> {
        self.act_lagged(conn, rid, act, 0).await
    }

    /// [`RoomHandle::act`] from a connection whose round-trip time is `rtt_ms`: a move is credited with part of it
    /// (see [`lag_credit_ms`]).
    pub async fn act_lagged(
        &self,
        conn: ConnId,
        rid: Option<u64>,
        act: Act,
        rtt_ms: u64,
    ) -> Result<(), RoomError> {
        self.ask(|reply| Command::Act {
            conn,
            rid,
            act,
            rtt_ms,
            reply,
        })
        .await
    }

    /// Tells the room a connection is gone (a seated player's grace period starts).
    pub async fn disconnected(&self, conn: ConnId) {
        let _ = self.tx.send(Command::Disconnected { conn }).await;
    }

    /// Resolves once the room has handled every command sent before this one and every deadline (flag fall, grace
    /// period) already due on its clock; `false` when the room's task is gone. For harnesses that drive the
    /// clock by hand (`testkit::fuzzing`): after it, everything the room will do about the past has been done.
    pub async fn barrier(&self) -> bool {
        let (reply, answer) = oneshot::channel();
        self.tx.send(Command::Barrier { reply }).await.is_ok() && answer.await.is_ok()
    }

    /// The room at a glance (its game, rated or not, waiting or not, who sits in it).
    pub async fn summary(&self) -> Result<RoomSummary, RoomError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Command::Summary { reply })
            .await
            .map_err(|_| RoomError::unknown_room())?;
        answer.await.map_err(|_| RoomError::unknown_room())
    }

    /// Removes a chat line (by the id the community's store kept it under) from the room's history, and tells every
    /// member to drop it from their view (`chat_removed`): a moderator's removal (issue #38).
    pub async fn remove_chat(&self, line: i64) -> Result<(), RoomError> {
        self.ask(|reply| Command::RemoveChat { line, reply }).await
    }

    /// Stops the room once the command it is handling is done; nothing more is written.
    pub async fn shutdown(&self) {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::Shutdown { reply }).await.is_ok() {
            let _ = answer.await;
        }
    }

    /// Tells the room its node lost the room's lease (see `Command::Moved`) and waits until its task ended.
    pub(crate) async fn moved(&self) {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::Moved { reply }).await.is_ok() {
            let _ = answer.await;
        }
    }
}

/// Every live room by id, how many open rooms each player created, and how many rooms created from each address
/// still wait for their first game.
#[derive(Clone, Debug, Default)]
pub struct Rooms {
    inner: Arc<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    rooms: RwLock<HashMap<Arc<str>, RoomHandle>>,
    created: Mutex<HashMap<String, u32>>,
    waiting_by_ip: Mutex<HashMap<IpAddr, u32>>,
    pairings: Mutex<Pairings>,
    /// Who may run rooms and how they are reached: a cluster's, set once at start; alone a single node's.
    reach: std::sync::OnceLock<Reach>,
    /// Cluster mode: the relays standing in for rooms owned by other nodes that sockets here are in.
    relays: Mutex<HashMap<Arc<str>, RoomHandle>>,
    /// How many rated games being played each player (by identity key) is seated in.
    rated_players: Mutex<HashMap<String, u32>>,
    /// Where finished games are reported to the events task (`evented.rs`).
    events: std::sync::OnceLock<mpsc::UnboundedSender<crate::events::GameOver>>,
}

/// The players of one rated game while it is being played: counted in the registry from
/// [`Rooms::rated_play`] until this is dropped (when the game ends, or its room closes on this node).
#[derive(Debug)]
pub(crate) struct RatedPlay {
    rooms: Rooms,
    players: [String; 2],
}

impl Drop for RatedPlay {
    fn drop(&mut self) {
        let mut counts = self.rooms.inner.rated_players.lock().expect("rooms lock");
        for key in &self.players {
            if let Some(n) = counts.get_mut(key) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    counts.remove(key);
                }
            }
        }
    }
}

/// When each recent rated game between two accounts started, by pair (lower user id first): the repeated-pairing
/// rule counts them. Only pairs with a game inside the window are kept.
#[derive(Debug, Default)]
struct Pairings {
    starts: HashMap<(UserId, UserId), VecDeque<Instant>>,
    /// Reservations since the last sweep of pairs whose games all left the window.
    since_sweep: usize,
}

/// A rated game's place in the repeated-pairing count, given back if the game is aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pairing {
    pair: (UserId, UserId),
    at: Instant,
}

/// Rated-game reservations between two sweeps of the pairing counts.
const SWEEP_EVERY: usize = 1024;

/// The letters of a room id: 32 of them (no `l`, `o`, `0`, `1`, which read alike), five bits each.
const ROOM_ID_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
/// Letters in a room id (after a cluster node's prefix): 16 of 32 kinds, 80 random bits, as many as a game id's.
/// A private room is found only by its id, so the id is its password: at 10,000 guesses a second an attacker
/// needs about 2^66 seconds to find one room among a million.
const ROOM_ID_LEN: usize = 16;

impl Rooms {
    /// Whether this node runs the room itself (a relay to another node's room does not count).
    pub(crate) fn owns(&self, id: &str) -> bool {
        self.inner
            .rooms
            .read()
            .expect("rooms lock")
            .contains_key(id)
    }

    /// The live room with this id that this node runs itself (not a relay).
    pub(crate) fn local(&self, id: &str) -> Option<RoomHandle> {
        self.inner
            .rooms
            .read()
            .expect("rooms lock")
            .get(id)
            .cloned()
    }

    /// The room with this id: a live room of this node, or the relay of one owned by another node that some
    /// socket here is in.
    pub fn get(&self, id: &str) -> Option<RoomHandle> {
        let local = self
            .inner
            .rooms
            .read()
            .expect("rooms lock")
            .get(id)
            .cloned();
        local.or_else(|| {
            self.inner
                .relays
                .lock()
                .expect("rooms lock")
                .get(id)
                .cloned()
        })
    }

    /// The room a socket asks for by id: [`Rooms::get`], or in cluster mode a new relay to the node that owns
    /// it (which answers `unknown_room` if none does).
    pub fn route(&self, id: &str) -> Option<RoomHandle> {
        if let Some(handle) = self.get(id) {
            return Some(handle);
        }
        let reach = self.inner.reach.get()?;
        if id.is_empty()
            || id.len() > 64
            || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return None;
        }
        let mut relays = self.inner.relays.lock().expect("rooms lock");
        if let Some(handle) = relays.get(id) {
            return Some(handle.clone());
        }
        let handle = reach.routing.relay(id.into(), self.clone())?;
        relays.insert(id.into(), handle.clone());
        Some(handle)
    }

    /// Turns on cluster mode (once, at start): rooms are claimed and served through `reach`, and sockets reach
    /// the other nodes' rooms.
    pub(crate) fn set_reach(&self, reach: Reach) {
        let _ = self.inner.reach.set(reach);
    }

    /// How this node's rooms reach beyond the process: the cluster's once set, else a server alone's.
    pub(crate) fn reach(&self) -> Reach {
        self.inner
            .reach
            .get()
            .cloned()
            .unwrap_or_else(Reach::single)
    }

    /// A relay's task ended: it leaves the registry (unless a newer one took its place).
    pub(crate) fn relay_closed(&self, handle: &RoomHandle) {
        let mut relays = self.inner.relays.lock().expect("rooms lock");
        if relays
            .get(&handle.id)
            .is_some_and(|h| h.tx.same_channel(&handle.tx))
        {
            relays.remove(&handle.id);
        }
    }

    /// A relay nobody on this node is in would go: it leaves the registry, and may end, only when nothing can
    /// reach it any more (`true`): no command waits in its queue and no handle to it exists but its own and the
    /// registry's. Looked at under the registry's lock, which every lookup takes, so no socket gets hold of the
    /// relay in between; a relay that left while a socket held its handle dropped that socket's next command,
    /// which then heard `unknown_room` for a room that exists.
    pub(crate) fn relay_idle(&self, handle: &RoomHandle, queue: &mpsc::Receiver<Command>) -> bool {
        let mut relays = self.inner.relays.lock().expect("rooms lock");
        let registered = relays
            .get(&handle.id)
            .is_some_and(|h| h.tx.same_channel(&handle.tx));
        let own = if registered { 2 } else { 1 };
        if handle.tx.strong_count() > own || !queue.is_empty() {
            return false;
        }
        if registered {
            relays.remove(&handle.id);
        }
        true
    }

    /// Cluster mode: the rooms this node lost the leases of close here (their members reconnect and reach them
    /// on the node that owns them now).
    pub(crate) async fn moved(&self, ids: &[String]) {
        for id in ids {
            let local = self
                .inner
                .rooms
                .read()
                .expect("rooms lock")
                .get(id.as_str())
                .cloned();
            if let Some(room) = local {
                tracing::warn!(room = %id, "this node lost the room's lease: its task here closes");
                room.moved().await;
            }
        }
    }

    /// Every live room.
    pub fn all(&self) -> Vec<RoomHandle> {
        self.inner
            .rooms
            .read()
            .expect("rooms lock")
            .values()
            .cloned()
            .collect()
    }

    /// How many rooms are live.
    pub fn len(&self) -> usize {
        self.inner.rooms.read().expect("rooms lock").len()
    }

    /// Whether no room is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn insert_new(&self, tx: mpsc::Sender<Command>) -> RoomHandle {
        let mut rooms = self.inner.rooms.write().expect("rooms lock");
        let mut rng = rand::rng();
        // In a cluster a room's id starts with its node's: unique across nodes without asking anyone.
        let prefix = self.reach().ownership.id_prefix();
        loop {
            let id: String = (0..ROOM_ID_LEN)
                .map(|_| ROOM_ID_ALPHABET[rng.random_range(0..ROOM_ID_ALPHABET.len())] as char)
                .collect();
            let id = format!("{prefix}{id}");
            let id: Arc<str> = id.into();
            if let std::collections::hash_map::Entry::Vacant(slot) = rooms.entry(id.clone()) {
                let handle = RoomHandle { id, tx };
                slot.insert(handle.clone());
                return handle;
            }
        }
    }

    /// Opens a room for `creator`, connected from `ip` (who must then join it), unless the server holds as many
    /// rooms as it allows, the creator already has as many open rooms as allowed, or `ip` as many rooms waiting
    /// for their first game (one address making guest after guest). In a cluster the creator's open rooms are
    /// counted on every node: the store counts them and claims the new room in one step
    /// ([`store::Store::open_room`]), so rooms spread over nodes do not pass the limit.
    pub async fn create(
        &self,
        state: &AppState,
        settings: Settings,
        creator: &Identity,
        ip: IpAddr,
    ) -> Result<RoomHandle, RoomError> {
        self.create_match(state, settings, 1, creator, ip).await
    }

    /// Opens a room as [`Rooms::create`] does, for a match of `games` games (1: an ordinary room; issue #34,
    /// `crate::matches`): the room stores the match before its first game and starts each next game itself.
    pub async fn create_match(
        &self,
        state: &AppState,
        settings: Settings,
        games: u32,
        creator: &Identity,
        ip: IpAddr,
    ) -> Result<RoomHandle, RoomError> {
        let config = &state.config;
        if self.len() >= config.max_rooms {
            return Err(RoomError::new(
                code::TOO_MANY_ROOMS,
                "the server holds as many rooms as it allows; join one or try again later",
            ));
        }
        {
            // Lock order: `created`, then `waiting_by_ip` (as in `closed`).
            let mut created = self.inner.created.lock().expect("rooms lock");
            let mut waiting = self.inner.waiting_by_ip.lock().expect("rooms lock");
            let n = created.get(&creator.key()).copied().unwrap_or(0);
            if n >= config.max_rooms_per_player {
                return Err(RoomError::new(
                    code::TOO_MANY_ROOMS,
                    format!("you already have {n} open rooms"),
                ));
            }
            let w = waiting.get(&ip).copied().unwrap_or(0);
            if w >= config.max_waiting_rooms_per_ip {
                return Err(RoomError::new(
                    code::TOO_MANY_ROOMS,
                    format!("{w} rooms from your address are waiting for a player"),
                ));
            }
            created.insert(creator.key(), n + 1);
            waiting.insert(ip, w + 1);
        }
        let (tx, rx) = mpsc::channel(QUEUE);
        let handle = self.insert_new(tx);
        let reach = self.reach();
        let fence = match reach
            .ownership
            .open(&handle.id, &creator.key(), config.max_rooms_per_player)
            .await
        {
            Ok(Opening::Opened(fence)) => fence,
            Ok(Opening::AtLimit { open }) => {
                self.closed(&handle.id, Some(&creator.key()), Some(ip));
                return Err(RoomError::new(
                    code::TOO_MANY_ROOMS,
                    format!("you already have {open} open rooms"),
                ));
            }
            Err(e) => {
                tracing::error!(room = %handle.id, error = %e, "could not open a room");
                self.closed(&handle.id, Some(&creator.key()), Some(ip));
                return Err(RoomError::internal());
            }
        };
        let mut room = task::Room::new(
            handle.id.clone(),
            settings,
            Some(creator.key()),
            Some(ip),
            RoomEnv::of(state),
        );
        // Opened in the store already: the task does not claim it again.
        room.fence = fence;
        room.match_games = games;
        tokio::spawn(room.run(rx));
        reach.routing.serve(handle.clone()).await;
        Ok(handle)
    }

    /// Loads an unfinished stored game back into a room (at start-up), seating `players` (black's and white's at
    /// the start, as [`crate::identity::Identities::of_player`] found them).
    pub async fn restore(
        &self,
        state: &AppState,
        record: store::GameRecord,
        players: [Identity; 2],
    ) -> Result<RoomHandle, String> {
        let mut room = task::Room::restore(record, players, RoomEnv::of(state))?;
        room.resume_match().await;
        let (tx, rx) = mpsc::channel(QUEUE);
        let handle = RoomHandle { id: room.id(), tx };
        self.inner
            .rooms
            .write()
            .expect("rooms lock")
            .insert(handle.id.clone(), handle.clone());
        tokio::spawn(room.run(rx));
        let reach = self.reach();
        reach.routing.serve(handle.clone()).await;
        // Members that other nodes still relay to the room's old incarnation join again.
        reach.routing.moved_here(&handle.id);
        Ok(handle)
    }

    /// Counts a rated game between users `a` and `b` starting `now`, unless `limit` games between them already
    /// started within `window` before it: then `None`, and the game is played unrated.
    pub(crate) fn reserve_rated(
        &self,
        a: UserId,
        b: UserId,
        now: Instant,
        limit: u32,
        window: Duration,
    ) -> Option<Pairing> {
        let pair = (a.min(b), a.max(b));
        let mut pairings = self.inner.pairings.lock().expect("rooms lock");
        let recent = |t: &Instant| now.saturating_duration_since(*t) < window;
        pairings.since_sweep += 1;
        if pairings.since_sweep >= SWEEP_EVERY {
            // Keeps the map to the pairs of the last window, whatever mix of pairs comes.
            pairings.since_sweep = 0;
            pairings.starts.retain(|_, starts| {
                starts.retain(recent);
                !starts.is_empty()
            });
        }
        let starts = pairings.starts.entry(pair).or_default();
        starts.retain(recent);
        if starts.len() >= limit as usize {
            if starts.is_empty() {
                pairings.starts.remove(&pair);
            }
            return None;
        }
        starts.push_back(now);
        Some(Pairing { pair, at: now })
    }

    /// An aborted rated game does not count against its pair.
    pub(crate) fn release_rated(&self, pairing: Pairing) {
        let mut pairings = self.inner.pairings.lock().expect("rooms lock");
        if let Some(starts) = pairings.starts.get_mut(&pairing.pair) {
            if let Some(i) = starts.iter().position(|&t| t == pairing.at) {
                starts.remove(i);
            }
            if starts.is_empty() {
                pairings.starts.remove(&pairing.pair);
            }
        }
    }

    /// A rated game of `players` (identity keys) starts being played: they count as playing a rated game until
    /// the returned guard is dropped.
    pub(crate) fn rated_play(&self, players: [String; 2]) -> RatedPlay {
        let mut counts = self.inner.rated_players.lock().expect("rooms lock");
        for key in &players {
            *counts.entry(key.clone()).or_insert(0) += 1;
        }
        RatedPlay {
            rooms: self.clone(),
            players,
        }
    }

    /// Whether the player with identity key `key` is seated in a rated game being played in a room of this node
    /// (the computer is no helper during one's own rated game).
    pub fn playing_rated(&self, key: &str) -> bool {
        self.inner
            .rated_players
            .lock()
            .expect("rooms lock")
            .contains_key(key)
    }

    /// A room created from `ip` has its first game (or closed): it no longer counts as waiting.
    pub(crate) fn stopped_waiting(&self, ip: IpAddr) {
        let mut waiting = self.inner.waiting_by_ip.lock().expect("rooms lock");
        if let Some(n) = waiting.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                waiting.remove(&ip);
            }
        }
    }

    /// A room task ended (`waiting_ip`: it was still waiting for its first game).
    fn closed(&self, id: &str, creator: Option<&str>, waiting_ip: Option<IpAddr>) {
        self.inner.rooms.write().expect("rooms lock").remove(id);
        if let Some(key) = creator {
            let mut created = self.inner.created.lock().expect("rooms lock");
            if let Some(n) = created.get_mut(key) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    created.remove(key);
                }
            }
        }
        if let Some(ip) = waiting_ip {
            self.stopped_waiting(ip);
        }
    }
}
