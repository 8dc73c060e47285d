//! Rooms: one tokio task per room owns its seats, game, clocks and members; everyone else talks to it through a
//! [`RoomHandle`] (commands over `mpsc`, answers over `oneshot`).

mod chat;
mod clock;
mod offers;
mod settings;
mod task;

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use protocol::{code, JoinRole};
use rand::Rng;
use rules::{Action, Point};
use store::UserId;
use tokio::sync::{mpsc, oneshot};

pub use clock::GameClock;
pub use offers::Offers;
pub use settings::Settings;
pub(crate) use task::stored_time_control;

use crate::identity::Identity;
use crate::ws::outbox::{ConnId, Outbox};
use crate::AppState;

/// Commands waiting for a room before senders wait (back-pressure on the connections).
const QUEUE: usize = 256;

/// Why a room refused a request: a stable code for the `error` frame and a human message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomError {
    /// Stable snake_case code.
    pub code: Cow<'static, str>,
    /// Human-readable explanation.
    pub message: String,
}

impl RoomError {
    /// An error with a code and message.
    pub fn new(code: &'static str, message: impl Into<String>) -> RoomError {
        RoomError {
            code: Cow::Borrowed(code),
            message: message.into(),
        }
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

impl From<rules::IllegalAction> for RoomError {
    fn from(e: rules::IllegalAction) -> RoomError {
        RoomError {
            code: Cow::Borrowed(e.code()),
            message: e.to_string(),
        }
    }
}

/// What a player (or, for chat, anyone in the room) asks a room to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// Place a stone for a given ply (idempotent for the same player, stone and ply).
    Place {
        /// Where.
        point: Point,
        /// The ply it is meant to be.
        ply: u32,
    },
    /// Any other rules action (swap decision, fifth proposal and choice, forbidden claim).
    Rules(Action),
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
    /// Chat.
    Chat(String),
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
        reply: Reply,
    },
    Disconnected {
        conn: ConnId,
    },
    Shutdown {
        reply: oneshot::Sender<()>,
    },
    Barrier {
        reply: oneshot::Sender<()>,
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
        self.ask(|reply| Command::Act {
            conn,
            rid,
            act,
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

    /// Stops the room once the command it is handling is done; nothing more is written.
    pub async fn shutdown(&self) {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::Shutdown { reply }).await.is_ok() {
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

const ROOM_ID_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

impl Rooms {
    /// The room with this id.
    pub fn get(&self, id: &str) -> Option<RoomHandle> {
        self.inner
            .rooms
            .read()
            .expect("rooms lock")
            .get(id)
            .cloned()
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
        loop {
            let id: String = (0..8)
                .map(|_| ROOM_ID_ALPHABET[rng.random_range(0..ROOM_ID_ALPHABET.len())] as char)
                .collect();
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
    /// for their first game (one address making guest after guest).
    pub fn create(
        &self,
        state: &AppState,
        settings: Settings,
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
        let room = task::Room::new(
            handle.id.clone(),
            settings,
            Some(creator.key()),
            Some(ip),
            state.clone(),
        );
        tokio::spawn(room.run(rx));
        Ok(handle)
    }

    /// Loads an unfinished stored game back into a room (at start-up), seating `players` (black's and white's at
    /// the start, as [`crate::identity::Identities::of_player`] found them).
    pub fn restore(
        &self,
        state: &AppState,
        record: store::GameRecord,
        players: [Identity; 2],
    ) -> Result<RoomHandle, String> {
        let room = task::Room::restore(record, players, state.clone())?;
        let (tx, rx) = mpsc::channel(QUEUE);
        let handle = RoomHandle { id: room.id(), tx };
        self.inner
            .rooms
            .write()
            .expect("rooms lock")
            .insert(handle.id.clone(), handle.clone());
        tokio::spawn(room.run(rx));
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
