//! The room task: the only owner of a room's seats, game, clocks, offers and members.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use protocol::{
    code, encode, Clocks, ColourChoice, ForbiddenPoint, GameResult, JoinRole, LobbyPlayer,
    LobbyRoom, OfferKind, OfferState, RatingDelta, RoomEvent, RoomPhase, RoomSnapshot, RoomState,
    RulesSpec, Seat, Seats, ServerMessage, TimeControl, VersionedEvent,
};
use rules::{Action, Color, Event, Game, Phase, Point, Rules, Status, WinReason};
use store::{Finish, Finished, GameEnd, GameId, GameRecord, NewGame, SeatsAtEnd, StoredAction};
use tokio::sync::mpsc;

use super::{chat, Act, Command, GameClock, Offers, Pairing, RoomError, Settings};
use crate::accounts::seat::{rating_in, SeatRating};
use crate::gomoku;
use crate::identity::Identity;
use crate::limits::TokenBucket;
use crate::time::unix_ms;
use crate::ws::outbox::{ConnId, Outbox, SendError};
use crate::AppState;

/// [`GameResult::unrated`]: the game ended before both sides moved and was aborted.
const UNRATED_TOO_FEW_MOVES: &str = "too_few_moves";
/// [`GameResult::unrated`]: the two accounts already played as many rated games as count in the window.
const UNRATED_REPEATED: &str = "repeated_pairing";

/// How often a room retries resynchronising a client that fell behind.
const RESYNC_RETRY: Duration = Duration::from_millis(250);

/// How long a room waits before it first retries storing a result the board or the clock decided; each retry
/// waits twice as long as the one before, up to [`RESULT_RETRY_MAX`].
const RESULT_RETRY_FIRST: Duration = Duration::from_millis(100);
/// The longest wait between two attempts to store a decided result (the room keeps trying until it is stored).
const RESULT_RETRY_MAX: Duration = Duration::from_secs(5);

/// Reads the time control stored with a game (`{"kind":"none"}` when unreadable).
pub(crate) fn stored_time_control(json: &str) -> TimeControl {
    serde_json::from_str(json).unwrap_or(TimeControl::None)
}

struct SeatHolder {
    identity: Identity,
    /// A registered player's rating in the room's pool (guests have none).
    rating: Option<SeatRating>,
    /// Connections joined as this player (several tabs are fine).
    conns: Vec<ConnId>,
    /// While no connection is left: when the seat is forfeited.
    grace: Option<Instant>,
}

struct Member {
    outbox: Outbox,
    identity: Identity,
    seat: Option<usize>,
    /// Since when events could not be queued for this member.
    behind_since: Option<Instant>,
    /// This member's chat allowance.
    chat: TokenBucket,
    /// Whether spectators' chat reaches this member (always for spectators; players choose).
    show_spectators: bool,
}

/// The current (or last) game of the room.
struct Live {
    id: GameId,
    /// The game's public id (links to its record).
    public_id: String,
    game: Game,
    clock: Option<GameClock>,
    /// The seat that took each action.
    actors: Vec<usize>,
    /// Seat 0's colour at the start of this game.
    seat0: Color,
    result: Option<GameResult>,
    /// Whether the result may change ratings (stored with the game).
    rated: bool,
    /// In a rated room, why this game will not change ratings.
    unrated: Option<&'static str>,
    /// Its place in the repeated-pairing count, given back when it is aborted.
    pairing: Option<Pairing>,
    /// When the last action was taken (or the game started): how long the side to act has been idle.
    last_action: Instant,
}

impl Live {
    fn colour_of(&self, seat: usize) -> Color {
        let c = if seat == 0 {
            self.seat0
        } else {
            self.seat0.opposite()
        };
        if gomoku::seats_now(&self.game) == SeatsAtEnd::Exchanged {
            c.opposite()
        } else {
            c
        }
    }

    fn seat_of(&self, colour: Color) -> usize {
        if self.colour_of(0) == colour {
            0
        } else {
            1
        }
    }

    fn running(&self) -> bool {
        self.result.is_none()
    }

    fn to_act(&self) -> Option<Color> {
        self.running().then(|| self.game.to_act()).flatten()
    }

    fn phase(&self) -> RoomPhase {
        match self.game.status() {
            Status::Ongoing { phase, .. } if self.running() => phase.into(),
            _ => RoomPhase::None,
        }
    }

    fn clocks(&self, now: Instant) -> Option<Clocks> {
        self.clock.as_ref().map(|c| Clocks {
            black: c.view(self.seat_of(Color::Black), now),
            white: c.view(self.seat_of(Color::White), now),
            running: c.running().map(|s| self.colour_of(s)),
        })
    }

    fn forbidden(&self) -> Vec<ForbiddenPoint> {
        let black_places = matches!(
            self.game.status(),
            Status::Ongoing {
                to_act: Color::Black,
                phase: Phase::Place | Phase::ProposeFifth
            }
        );
        if self.running() && black_places && self.game.rules().restricts_black() {
            self.game
                .forbidden_points()
                .into_iter()
                .map(|(point, kind)| ForbiddenPoint { point, kind })
                .collect()
        } else {
            Vec::new()
        }
    }

    fn ply(&self) -> u32 {
        self.game.moves().len() as u32
    }

    /// The action that put stone number `index` (zero-based) on the board, with its actor.
    fn stone_action(&self, index: usize) -> Option<(Action, usize)> {
        self.game
            .actions()
            .iter()
            .zip(&self.actors)
            .filter(|(a, _)| matches!(a, Action::Place { .. } | Action::ChooseFifth { .. }))
            .nth(index)
            .map(|(a, s)| (*a, *s))
    }
}

/// How a game ends, by seat.
struct Ending {
    winner: Option<usize>,
    reason: &'static str,
    aborted: bool,
    line: Option<Vec<Point>>,
    forbidden: Option<ForbiddenPoint>,
}

impl Ending {
    /// Whether a player asked for this ending (resign, agreed draw, claims): if it cannot be stored the request
    /// is refused and the game goes on. Other endings (the board, a clock, an absence) cannot be refused.
    fn by_request(&self) -> bool {
        matches!(
            self.reason,
            "resign" | "draw_agreed" | "idle" | "forbidden_claimed"
        )
    }

    fn won(winner: usize, reason: &'static str) -> Ending {
        Ending {
            winner: Some(winner),
            reason,
            aborted: false,
            line: None,
            forbidden: None,
        }
    }

    fn no_winner(reason: &'static str, aborted: bool) -> Ending {
        Ending {
            winner: None,
            reason,
            aborted,
            line: None,
            forbidden: None,
        }
    }
}

type Actor = Option<(ConnId, Option<u64>)>;

/// A result the board, a clock or an absence decided that the store has not taken yet. Until it is stored the
/// game takes no action (`result_pending`) and nobody hears of the result.
struct PendingResult {
    ending: Ending,
    /// Attempts made so far (the backoff grows with them).
    attempts: u32,
    /// When the room tries again.
    retry_at: Instant,
}

/// A game's end as stored, ready to be announced.
struct Recorded {
    ending: Ending,
    unrated: Option<&'static str>,
    finished: Option<Finished>,
}

pub(crate) struct Room {
    id: Arc<str>,
    rules: Rules,
    time_control: TimeControl,
    rated: bool,
    public: bool,
    /// The creator's identity key, counted against their open-room limit until the room closes.
    creator: Option<String>,
    /// The creator's address while the room waits for its first game (counted against its waiting-room limit).
    waiting_ip: Option<IpAddr>,
    /// While the room waits for a second player: when it closes if none comes.
    waiting_until: Option<Instant>,
    /// Bytes of chat text in `log`.
    log_chat_bytes: usize,
    /// The spectators' chat allowance, shared by all of them (one crowd cannot flood the room).
    spectator_chat: TokenBucket,
    /// The last lines of both chats, for snapshots.
    chat_history: chat::ChatHistory,
    seats: [Option<SeatHolder>; 2],
    /// The colour seat 0 takes in the next game.
    next_first: Color,
    live: Option<Live>,
    members: HashMap<ConnId, Member>,
    spectators: u32,
    version: u64,
    log: VecDeque<VersionedEvent>,
    offers: Offers,
    /// A decided result still waiting to be stored.
    pending: Option<PendingResult>,
    state: AppState,
    closed: bool,
}

/// The chat text an event holds (what the event log's chat budget counts).
fn chat_bytes(event: &RoomEvent) -> usize {
    match event {
        RoomEvent::Chat { text, from, .. } => text.len() + from.len(),
        _ => 0,
    }
}

fn other(seat: usize) -> usize {
    1 - seat
}

impl Room {
    pub(crate) fn new(
        id: Arc<str>,
        settings: Settings,
        creator: Option<String>,
        waiting_ip: Option<IpAddr>,
        state: AppState,
    ) -> Room {
        let waiting_until = Some(state.clock.now() + state.config.waiting_room());
        let next_first = match settings.colour {
            ColourChoice::Black => Color::Black,
            ColourChoice::White => Color::White,
            ColourChoice::Random => {
                if rand::random::<bool>() {
                    Color::Black
                } else {
                    Color::White
                }
            }
        };
        Room {
            id,
            rules: settings.rules,
            time_control: settings.time_control,
            rated: settings.rated,
            public: settings.public,
            creator,
            waiting_ip,
            waiting_until,
            log_chat_bytes: 0,
            spectator_chat: TokenBucket::new(
                state.config.spectator_chat_per_minute / 60.0,
                state.config.spectator_chat_burst,
                state.clock.now(),
            ),
            chat_history: chat::ChatHistory::new(
                state.config.chat_history_lines,
                state.config.chat_history_bytes,
            ),
            seats: [None, None],
            next_first,
            live: None,
            members: HashMap::new(),
            spectators: 0,
            version: 0,
            log: VecDeque::new(),
            offers: Offers::default(),
            pending: None,
            state,
            closed: false,
        }
    }

    /// A room around an unfinished stored game: both players away with a fresh grace period, clocks as stored
    /// (the downtime is charged to nobody), versions above any the room had before the restart.
    pub(crate) fn restore(
        record: GameRecord,
        players: [Identity; 2],
        state: AppState,
    ) -> Result<Room, String> {
        let rules = record.game.rules;
        let (time_control, public) = (
            stored_time_control(&record.game.time_control),
            record.game.public,
        );
        let actions: Vec<Action> = record.actions.iter().map(|a| a.action).collect();
        let game = Game::from_actions(rules, &actions)
            .map_err(|e| format!("game {} does not replay: {e}", record.id))?;
        let mut replay = Game::new(rules);
        let mut actors = Vec::with_capacity(actions.len());
        for &action in &actions {
            let colour = replay.to_act().ok_or("an action after the end")?;
            let seat0 = if gomoku::seats_now(&replay) == SeatsAtEnd::Exchanged {
                Color::White
            } else {
                Color::Black
            };
            actors.push(if colour == seat0 { 0 } else { 1 });
            replay.apply(action).map_err(|e| e.to_string())?;
        }
        let now = state.clock.now();
        let mut live = Live {
            id: record.id,
            public_id: record.game.public_id.clone(),
            game,
            clock: None,
            actors,
            seat0: Color::Black,
            result: None,
            rated: record.game.rated,
            unrated: None,
            pairing: None,
            last_action: now,
        };
        let stored_remaining = record.actions.last().and_then(|a| a.remaining_ms);
        live.clock = match stored_remaining {
            Some([black, white]) => {
                let mut by_seat = [0; 2];
                by_seat[live.seat_of(Color::Black)] = black;
                by_seat[live.seat_of(Color::White)] = white;
                GameClock::from_totals(time_control, by_seat)
            }
            None => GameClock::new(time_control),
        };
        let to_act = live.game.to_act().map(|c| live.seat_of(c));
        if let (Some(clock), Some(seat)) = (&mut live.clock, to_act) {
            clock.start(seat, now);
        }
        let grace = Some(now + state.config.grace());
        let seat = |identity: Identity| {
            Some(SeatHolder {
                identity,
                rating: None,
                conns: Vec::new(),
                grace,
            })
        };
        let [black, white] = players;
        let seats = [seat(black), seat(white)];
        let mut room = Room::new(
            record.game.room.as_str().into(),
            Settings {
                rules,
                time_control,
                rated: record.game.rated,
                public,
                colour: ColourChoice::Black,
            },
            None,
            None,
            state,
        );
        room.seats = seats;
        room.live = Some(live);
        room.waiting_until = None;
        room.version = unix_ms().max(0) as u64;
        Ok(room)
    }

    pub(crate) fn id(&self) -> Arc<str> {
        self.id.clone()
    }

    pub(crate) async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        self.state.metrics.rooms.fetch_add(1, Ordering::Relaxed);
        // A restored game decided before the crash (its last move stored, its end not) is finished now.
        // Not stored now, it is retried on the room's clock.
        let _ = self.finish_if_decided(None).await;
        for seat in 0..2 {
            // A restored room learns its registered players' ratings.
            let identity = self.seats[seat].as_ref().map(|h| h.identity.clone());
            if let Some(identity) = identity {
                let rating = self.rating_of(&identity).await;
                if let Some(h) = self.seats[seat].as_mut() {
                    h.rating = rating;
                }
            }
        }
        if self.seats.iter().any(Option::is_some) {
            // A restored room is listed at once; a new one when its creator sits down.
            self.publish_lobby();
        }
        while !self.closed {
            let sleep = match self.next_deadline() {
                Some(at) => self.state.clock.sleep_until(at),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => break,
                    Some(Command::Shutdown { reply }) => {
                        let _ = reply.send(());
                        break;
                    }
                    Some(cmd) => self.handle(cmd).await,
                },
                () = sleep => self.on_deadline().await,
            }
        }
        self.state.metrics.rooms.fetch_sub(1, Ordering::Relaxed);
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Join {
                identity,
                outbox,
                role,
                since,
                rid,
                reply,
            } => {
                let r = self.join(identity, outbox, role, since, rid).await;
                let _ = reply.send(r);
            }
            Command::Leave { conn, rid, reply } => {
                let r = self.leave(conn, rid).await;
                let _ = reply.send(r);
            }
            Command::Act {
                conn,
                rid,
                act,
                reply,
            } => {
                let r = self.act(conn, rid, act).await;
                let _ = reply.send(r);
            }
            Command::Disconnected { conn } => self.disconnected(conn),
            Command::Barrier { reply } => {
                // The clock may have been moved without the room's sleep having woken yet.
                if self
                    .next_deadline()
                    .is_some_and(|at| at <= self.state.clock.now())
                {
                    self.on_deadline().await;
                }
                let _ = reply.send(());
            }
            Command::Shutdown { .. } => unreachable!("handled by the loop"),
        }
        self.maybe_close();
    }

    // ----- state -----

    fn room_state(&self) -> RoomState {
        match &self.live {
            Some(l) if l.running() => RoomState::Playing,
            // A finished game is the room's last state: its seats are its two players' (for a rematch) even once
            // one has left, never a newcomer's; a new game with someone else is a new room.
            Some(_) => RoomState::Over,
            None => RoomState::Waiting,
        }
    }

    /// The room's game, running or finished (none before the first game).
    fn current(&self) -> Option<&Live> {
        self.live.as_ref()
    }

    fn seat_colour(&self, seat: usize) -> Color {
        match self.current() {
            Some(l) => l.colour_of(seat),
            None if seat == 0 => self.next_first,
            None => self.next_first.opposite(),
        }
    }

    fn seat_of_identity(&self, identity: &Identity) -> Option<usize> {
        let key = identity.key();
        (0..2).find(|&s| {
            self.seats[s]
                .as_ref()
                .is_some_and(|h| h.identity.key() == key)
        })
    }

    /// A registered player's rating in this room's pool (a store failure only hides it).
    async fn rating_of(&self, identity: &Identity) -> Option<SeatRating> {
        let user = identity.user_id?;
        let pool = gomoku::pool_of(&self.rules);
        match rating_in(self.state.store.as_ref(), user, pool).await {
            Ok(r) => Some(r),
            Err(e) => {
                tracing::warn!(error = %e, "could not read a rating");
                None
            }
        }
    }

    fn seat_info(&self, seat: usize, now: Instant) -> Option<Seat> {
        let h = self.seats[seat].as_ref()?;
        Some(Seat {
            id: h.identity.id.clone(),
            name: h.identity.name.clone(),
            guest: h.identity.is_guest(),
            rating: h.rating.map(|r| r.rating.rating.round()),
            provisional: h.rating.map(|r| r.provisional()),
            tier: h.rating.map(|r| r.tier.name().to_owned()),
            connected: !h.conns.is_empty(),
            grace_ms: h
                .grace
                .map(|d| d.saturating_duration_since(now).as_millis() as u64),
        })
    }

    fn seats_by_colour(&self, now: Instant) -> Seats {
        let mut seats = Seats::default();
        for s in 0..2 {
            let info = self.seat_info(s, now);
            match self.seat_colour(s) {
                Color::Black => seats.black = info,
                Color::White => seats.white = info,
            }
        }
        seats
    }

    /// The room as a member sees it: `you` is its seat, `with_spectators` whether it reads the spectators' chat.
    fn snapshot(&self, you: Option<usize>, with_spectators: bool) -> RoomSnapshot {
        let now = self.state.clock.now();
        let live = self.current();
        RoomSnapshot {
            id: self.id.to_string(),
            version: self.version,
            rules: RulesSpec::from(self.rules),
            time_control: self.time_control,
            rated: self.rated,
            public: self.public,
            game_id: live.map(|l| l.id),
            record: live.map(|l| l.public_id.clone()),
            state: self.room_state(),
            seats: self.seats_by_colour(now),
            you: you.map(|s| self.seat_colour(s)),
            phase: live.map_or(RoomPhase::None, Live::phase),
            to_act: live.and_then(Live::to_act),
            moves: live.map(|l| l.game.moves().to_vec()).unwrap_or_default(),
            swapped: live.is_some_and(|l| gomoku::seats_now(&l.game) == SeatsAtEnd::Exchanged),
            clocks: live.and_then(|l| l.clocks(now)),
            forbidden: live.map(Live::forbidden).unwrap_or_default(),
            claimable: live
                .filter(|l| l.running())
                .and_then(|l| l.game.claimable())
                .map(|(point, kind)| ForbiddenPoint { point, kind }),
            fifth_options: live.and_then(|l| match l.game.status() {
                Status::Ongoing {
                    phase: Phase::ChooseFifth { options },
                    ..
                } if l.running() => Some(options),
                _ => None,
            }),
            offers: self
                .offers
                .pending()
                .iter()
                .map(|&(kind, seat)| OfferState {
                    kind,
                    by: self.seat_colour(seat),
                })
                .collect(),
            spectators: self.spectators,
            result: live.and_then(|l| l.result.clone()),
            chat: self.chat_history.lines(with_spectators),
        }
    }

    fn lobby_entry(&self) -> LobbyRoom {
        LobbyRoom {
            id: self.id.to_string(),
            rules: RulesSpec::from(self.rules),
            time_control: self.time_control,
            rated: self.rated,
            state: self.room_state(),
            players: (0..2)
                .filter_map(|s| {
                    self.seats[s].as_ref().map(|h| LobbyPlayer {
                        id: h.identity.id.clone(),
                        name: h.identity.name.clone(),
                        colour: self.seat_colour(s),
                        rating: h.rating.map(|r| r.rating.rating.round()),
                        tier: h.rating.map(|r| r.tier.name().to_owned()),
                    })
                })
                .collect(),
            spectators: self.spectators,
        }
    }

    fn publish_lobby(&self) {
        // A room without players is about to close (and be removed): no update for it.
        if !self.public || self.closed || self.seats.iter().all(Option::is_none) {
            return;
        }
        match self.room_state() {
            RoomState::Waiting | RoomState::Playing => self.state.lobby.upsert(self.lobby_entry()),
            RoomState::Over => self.state.lobby.remove(&self.id),
        }
    }

    fn maybe_close(&mut self) {
        // A room whose result waits to be stored stays until it is (or the game would stay unfinished).
        if self.closed || self.pending.is_some() || self.seats.iter().any(Option::is_some) {
            return;
        }
        self.closed = true;
        self.state
            .rooms
            .closed(&self.id, self.creator.as_deref(), self.waiting_ip.take());
        self.state.lobby.remove(&self.id);
    }

    /// Nobody took the second seat in time: the room tells its members and closes, so a connected creator cannot
    /// keep a room listed for ever.
    fn expire(&mut self) {
        tracing::debug!(room = %self.id, "closing a room that waited too long");
        self.emit(
            RoomEvent::RoomClosed {
                reason: "expired".to_owned(),
            },
            None,
            None,
        );
        self.seats = [None, None];
        self.maybe_close();
    }

    /// A new member of the room.
    fn member(&self, outbox: Outbox, identity: Identity, seat: Option<usize>) -> Member {
        let config = &self.state.config;
        Member {
            outbox,
            identity,
            seat,
            behind_since: None,
            chat: TokenBucket::new(
                config.chat_per_minute / 60.0,
                config.chat_burst,
                self.state.clock.now(),
            ),
            show_spectators: seat.is_none(),
        }
    }

    // ----- sending -----

    fn send_to(&mut self, conn: ConnId, msg: &ServerMessage, rid: Option<u64>) {
        if let Some(m) = self.members.get_mut(&conn) {
            if m.outbox.try_send(encode(msg, rid).into()) == Err(SendError::Full) {
                m.behind_since.get_or_insert(self.state.clock.now());
            }
        }
    }

    /// Sends an event to every member (but `skip`), in order, with the actor's request id on the actor's copy.
    fn emit(&mut self, event: RoomEvent, actor: Actor, skip: Option<ConnId>) {
        self.version += 1;
        let version = self.version;
        self.log_chat_bytes += chat_bytes(&event);
        self.log.push_back(VersionedEvent {
            version,
            event: event.clone(),
        });
        // Bounded in events and in chat text: a room of long messages must not cost more than a quiet one.
        while self.log.len() > self.state.config.event_log
            || self.log_chat_bytes > self.state.config.chat_log_bytes
        {
            match self.log.pop_front() {
                Some(old) => self.log_chat_bytes -= chat_bytes(&old.event),
                None => break,
            }
        }
        let msg = ServerMessage::Event {
            room: self.id.to_string(),
            version,
            event,
        };
        let plain = encode(&msg, None);
        let actor_text = actor.and_then(|(conn, rid)| {
            rid.map(|rid| (conn, Utf8Bytes::from(protocol::with_rid(&plain, rid))))
        });
        let text: Utf8Bytes = plain.into();
        let now = self.state.clock.now();
        let mut resync = Vec::new();
        for (&id, m) in &mut self.members {
            if Some(id) == skip {
                continue;
            }
            if m.behind_since.is_some() {
                resync.push(id);
                continue;
            }
            let frame = match &actor_text {
                Some((conn, t)) if *conn == id => t.clone(),
                _ => text.clone(),
            };
            if m.outbox.try_send(frame) == Err(SendError::Full) {
                m.behind_since = Some(now);
            }
        }
        for id in resync {
            // A member that fell behind and now acts gets the snapshot as the answer to its request.
            let rid = actor
                .filter(|&(conn, _)| conn == id)
                .and_then(|(_, rid)| rid);
            self.resync(id, rid);
        }
    }

    /// Sends a whole snapshot to a member that fell behind, once its queue has room (with the request id of the
    /// member's request that caused it, if any).
    fn resync(&mut self, conn: ConnId, rid: Option<u64>) {
        let Some(m) = self.members.get(&conn) else {
            return;
        };
        if m.outbox.capacity() == 0 {
            return;
        }
        let snapshot = self.snapshot(m.seat, m.show_spectators);
        let frame = encode(&ServerMessage::Room { room: snapshot }, rid);
        if let Some(m) = self.members.get_mut(&conn) {
            if m.outbox.try_send(frame.into()).is_ok() {
                m.behind_since = None;
            }
        }
    }

    /// The answer to a join: the missed events when the log has all of them, else a snapshot.
    fn send_state(&mut self, conn: ConnId, since: Option<u64>, rid: Option<u64>) {
        if let Some(since) = since {
            let first = self.log.front().map_or(self.version + 1, |e| e.version);
            if since <= self.version && since + 1 >= first {
                let events = self
                    .log
                    .iter()
                    .filter(|e| e.version > since)
                    .cloned()
                    .collect();
                let msg = ServerMessage::CatchUp {
                    room: self.id.to_string(),
                    events,
                };
                self.send_to(conn, &msg, rid);
                return;
            }
        }
        self.send_snapshot(conn, rid);
    }

    /// Sends a member the room's snapshot as it sees it (its seat, and the spectators' chat if it reads it).
    fn send_snapshot(&mut self, conn: ConnId, rid: Option<u64>) {
        let Some(m) = self.members.get(&conn) else {
            return;
        };
        let msg = ServerMessage::Room {
            room: self.snapshot(m.seat, m.show_spectators),
        };
        self.send_to(conn, &msg, rid);
    }

    /// Answers a requester `ack` with the room's version: its request changed nothing because it already stands.
    fn ack_actor(&mut self, actor: Actor) {
        if let Some((conn, rid)) = actor {
            let msg = ServerMessage::Ack {
                room: Some(self.id.to_string()),
                version: Some(self.version),
            };
            self.send_to(conn, &msg, rid);
        }
    }

    /// Whether `seat` already made this opening decision or claim in the current (or just finished) game: each is
    /// made at most once a game, so the same one again is a retry.
    fn already_made(&self, seat: usize, action: Action) -> bool {
        if matches!(action, Action::Place { .. }) {
            return false;
        }
        self.live.as_ref().is_some_and(|live| {
            live.game
                .actions()
                .iter()
                .zip(&live.actors)
                .any(|(a, &s)| *a == action && s == seat)
        })
    }

    fn ack(&mut self, outbox: &Outbox, rid: Option<u64>) {
        let msg = ServerMessage::Ack {
            room: Some(self.id.to_string()),
            version: Some(self.version),
        };
        let _ = outbox.try_send(encode(&msg, rid).into());
    }

    // ----- deadlines -----

    fn next_deadline(&self) -> Option<Instant> {
        let clock = self
            .live
            .as_ref()
            .filter(|l| l.running())
            .and_then(|l| l.clock.as_ref())
            .and_then(GameClock::deadline);
        let grace = self.seats.iter().flatten().filter_map(|h| h.grace).min();
        let waiting = self
            .waiting_until
            .filter(|_| self.room_state() == RoomState::Waiting);
        let resync = self
            .members
            .values()
            .any(|m| m.behind_since.is_some())
            .then(|| self.state.clock.now() + RESYNC_RETRY);
        let result = self.pending.as_ref().map(|p| p.retry_at);
        [clock, grace, waiting, resync, result]
            .into_iter()
            .flatten()
            .min()
    }

    async fn on_deadline(&mut self) {
        self.retry_result().await;
        let now = self.state.clock.now();
        let flagged = self
            .live
            .as_ref()
            .filter(|l| l.running())
            .and_then(|l| l.clock.as_ref())
            .and_then(|c| c.flagged(now));
        if let Some(seat) = flagged {
            // Not stored now, it is retried on the room's clock.
            let _ = self.finish(Ending::won(other(seat), "timeout"), None).await;
        }
        let expired: Vec<usize> = (0..2)
            .filter(|&s| {
                self.seats[s]
                    .as_ref()
                    .and_then(|h| h.grace)
                    .is_some_and(|d| d <= now)
            })
            .collect();
        if !expired.is_empty() {
            let undecided = self.pending.is_none();
            if let Some(live) = self.live.as_ref().filter(|l| l.running() && undecided) {
                let loser = match (expired.as_slice(), live.to_act()) {
                    ([only], _) => *only,
                    (_, Some(colour)) => live.seat_of(colour),
                    _ => expired[0],
                };
                let ending = if live.ply() < 2 {
                    Ending::no_winner("aborted", true)
                } else {
                    Ending::won(other(loser), "abandoned")
                };
                let _ = self.finish(ending, None).await;
            }
            for seat in expired {
                self.free_seat(seat);
            }
            self.publish_lobby();
            self.maybe_close();
        }
        let waited_out = self
            .waiting_until
            .is_some_and(|at| at <= now && self.room_state() == RoomState::Waiting);
        if waited_out && !self.closed {
            self.expire();
        }
        let slow = Duration::from_secs(self.state.config.slow_client_secs);
        let behind: Vec<(ConnId, Instant)> = self
            .members
            .iter()
            .filter_map(|(&id, m)| m.behind_since.map(|t| (id, t)))
            .collect();
        for (id, since) in behind {
            if now.saturating_duration_since(since) >= slow {
                if let Some(m) = self.members.get(&id) {
                    tracing::info!(room = %self.id, conn = id, "closing a client that stayed behind");
                    self.state.metrics.kicked.fetch_add(1, Ordering::Relaxed);
                    m.outbox.kick();
                }
            } else {
                self.resync(id, None);
            }
        }
    }

    /// Empties a seat (its player left or did not come back in time).
    fn free_seat(&mut self, seat: usize) {
        let Some(holder) = self.seats[seat].take() else {
            return;
        };
        let colour = self.seat_colour(seat);
        for conn in &holder.conns {
            if let Some(m) = self.members.get_mut(conn) {
                // Another tab of the same player stays as a spectator (and reads the spectators' chat as one).
                m.seat = None;
                m.show_spectators = true;
                self.spectators += 1;
            }
        }
        self.offers.clear();
        if self.live.is_none() {
            // Back to waiting for a player, for at most the waiting time again (a room that had a game never
            // waits again: it ends when its last player leaves).
            self.waiting_until = Some(self.state.clock.now() + self.state.config.waiting_room());
        }
        self.emit(
            RoomEvent::PlayerLeft {
                colour,
                name: holder.identity.name,
            },
            None,
            None,
        );
    }

    // ----- joining and leaving -----

    async fn join(
        &mut self,
        identity: Identity,
        outbox: Outbox,
        role: JoinRole,
        since: Option<u64>,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let conn = outbox.id;
        if let Some(member) = self.members.get(&conn) {
            // A spectator may sit down: in its own seat, or in a free seat of a waiting room.
            let own = self.seat_of_identity(&identity).is_some();
            let free =
                self.room_state() == RoomState::Waiting && self.seats.iter().any(Option::is_none);
            let wants_seat = role == JoinRole::Player && member.seat.is_none();
            if wants_seat && !own && !free {
                return Err(RoomError::new(
                    code::ROOM_FULL,
                    "both seats are taken; you keep watching",
                ));
            }
            if !wants_seat {
                self.send_state(conn, since, rid);
                return Ok(());
            }
            if !own && self.rated && identity.is_guest() {
                return Err(RoomError::new(
                    code::ACCOUNT_REQUIRED,
                    "rated games need an account",
                ));
            }
            self.members.remove(&conn);
            self.spectator_gone(Some(conn));
        }
        let now = self.state.clock.now();
        let own_seat = self.seat_of_identity(&identity);
        match (role, own_seat) {
            (JoinRole::Spectator, _) => {
                self.members
                    .insert(conn, self.member(outbox, identity, None));
                self.spectators += 1;
                self.emit(
                    RoomEvent::Spectators {
                        count: self.spectators,
                    },
                    None,
                    Some(conn),
                );
            }
            (JoinRole::Player, Some(seat)) => {
                let holder = self.seats[seat].as_mut().expect("own seat");
                let was_away = holder.conns.is_empty();
                holder.conns.push(conn);
                holder.grace = None;
                let name = holder.identity.name.clone();
                self.members
                    .insert(conn, self.member(outbox, identity, Some(seat)));
                if was_away {
                    let colour = self.seat_colour(seat);
                    self.emit(
                        RoomEvent::PlayerReconnected { colour, name },
                        None,
                        Some(conn),
                    );
                }
            }
            (JoinRole::Player, None) => {
                let free = (0..2).find(|&s| self.seats[s].is_none());
                let Some(seat) = free.filter(|_| self.room_state() == RoomState::Waiting) else {
                    return Err(RoomError::new(
                        code::ROOM_FULL,
                        "both seats are taken; join as a spectator to watch",
                    ));
                };
                if self.rated && identity.is_guest() {
                    return Err(RoomError::new(
                        code::ACCOUNT_REQUIRED,
                        "rated games need an account",
                    ));
                }
                let rating = self.rating_of(&identity).await;
                self.seats[seat] = Some(SeatHolder {
                    identity: identity.clone(),
                    rating,
                    conns: vec![conn],
                    grace: None,
                });
                let starts = self.seats.iter().all(Option::is_some);
                if starts {
                    if let Err(e) = self.create_live().await {
                        self.seats[seat] = None;
                        return Err(e);
                    }
                }
                self.members
                    .insert(conn, self.member(outbox, identity, Some(seat)));
                let player = self.seat_info(seat, now).expect("just seated");
                let colour = self.seat_colour(seat);
                self.emit(RoomEvent::PlayerJoined { colour, player }, None, Some(conn));
                if starts {
                    self.emit_started(Some(conn), None);
                }
            }
        }
        self.send_state(conn, since, rid);
        self.publish_lobby();
        Ok(())
    }

    /// One spectator fewer (gone, or now seated): tells the members the new count (but `skip`).
    fn spectator_gone(&mut self, skip: Option<ConnId>) {
        self.spectators = self.spectators.saturating_sub(1);
        self.emit(
            RoomEvent::Spectators {
                count: self.spectators,
            },
            None,
            skip,
        );
    }

    async fn leave(&mut self, conn: ConnId, rid: Option<u64>) -> Result<(), RoomError> {
        let Some(member) = self.members.get(&conn) else {
            return Err(RoomError::new(
                code::NOT_IN_ROOM,
                "you are not in this room",
            ));
        };
        let outbox = member.outbox.clone();
        match member.seat {
            None => {
                self.members.remove(&conn);
                self.spectator_gone(None);
            }
            Some(seat) => {
                if self.live.as_ref().is_some_and(Live::running) && self.pending.is_none() {
                    // A resignation that cannot be stored keeps the player seated (they may leave again).
                    self.finish(Ending::won(other(seat), "resign"), None)
                        .await?;
                }
                self.members.remove(&conn);
                if let Some(h) = self.seats[seat].as_mut() {
                    h.conns.retain(|&c| c != conn);
                }
                self.free_seat(seat);
            }
        }
        self.ack(&outbox, rid);
        self.publish_lobby();
        Ok(())
    }

    fn disconnected(&mut self, conn: ConnId) {
        let Some(member) = self.members.remove(&conn) else {
            return;
        };
        if *self.state.shutdown.borrow() {
            // The server is stopping: nobody is charged for it.
            return;
        }
        match member.seat {
            None => {
                self.spectator_gone(None);
                self.publish_lobby();
            }
            Some(seat) => {
                let grace = self.state.config.grace();
                let now = self.state.clock.now();
                let colour = self.seat_colour(seat);
                let Some(h) = self.seats[seat].as_mut() else {
                    return;
                };
                h.conns.retain(|&c| c != conn);
                if h.conns.is_empty() {
                    h.grace = Some(now + grace);
                    let name = h.identity.name.clone();
                    self.emit(
                        RoomEvent::PlayerDisconnected {
                            colour,
                            name,
                            grace_ms: grace.as_millis() as u64,
                        },
                        None,
                        None,
                    );
                }
            }
        }
    }

    // ----- games -----

    /// Records a new game in the store and makes it the room's game (both seats are filled).
    async fn create_live(&mut self) -> Result<(), RoomError> {
        let first = self.next_first;
        let (black_seat, white_seat) = if first == Color::Black {
            (0, 1)
        } else {
            (1, 0)
        };
        let player = |s: usize| {
            self.seats[s]
                .as_ref()
                .expect("both seats filled")
                .identity
                .player_ref()
        };
        let now = self.state.clock.now();
        let users = (player(0).user_id, player(1).user_id);
        let (mut pairing, mut unrated) = (None, None);
        if let (true, Some(a), Some(b)) = (self.rated, users.0, users.1) {
            let config = &self.state.config;
            pairing = self.state.rooms.reserve_rated(
                a,
                b,
                now,
                config.rated_repeat_limit,
                Duration::from_secs(config.rated_repeat_window_secs),
            );
            if pairing.is_none() {
                unrated = Some(UNRATED_REPEATED);
            }
        }
        let new_game = NewGame {
            public_id: store::new_public_id(),
            room: self.id.to_string(),
            kind: gomoku::KIND.to_owned(),
            rules: self.rules,
            pool: gomoku::pool_of(&self.rules),
            time_control: serde_json::to_string(&self.time_control)
                .expect("a time control serialises"),
            public: self.public,
            rated: self.rated && unrated.is_none(),
            black: player(black_seat),
            white: player(white_seat),
            started_at: unix_ms(),
        };
        let (rated, public_id) = (new_game.rated, new_game.public_id.clone());
        let id = match self.state.writer.create_game(new_game).await {
            Ok(id) => id,
            Err(e) => {
                tracing::error!(room = %self.id, error = %e, "could not store a new game");
                if let Some(p) = pairing {
                    self.state.rooms.release_rated(p);
                }
                return Err(RoomError::internal());
            }
        };
        let mut clock = GameClock::new(self.time_control);
        if let Some(c) = &mut clock {
            c.start(black_seat, now);
        }
        self.live = Some(Live {
            id,
            public_id,
            game: Game::new(self.rules),
            clock,
            actors: Vec::new(),
            seat0: first,
            result: None,
            rated,
            unrated,
            pairing,
            last_action: now,
        });
        self.offers.clear();
        self.waiting_until = None;
        if let Some(ip) = self.waiting_ip.take() {
            self.state.rooms.stopped_waiting(ip);
        }
        self.state
            .metrics
            .games_started
            .fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn emit_started(&mut self, skip: Option<ConnId>, actor: Actor) {
        let now = self.state.clock.now();
        let live = self.live.as_ref().expect("a game started");
        let seats = self.seats_by_colour(now);
        let event = RoomEvent::GameStarted {
            game_id: live.id,
            record: Some(live.public_id.clone()),
            black: seats.black.expect("black seated"),
            white: seats.white.expect("white seated"),
            clocks: live.clocks(now),
            forbidden: live.forbidden(),
            to_act: live.to_act(),
            phase: live.phase(),
            unrated: live.unrated.map(str::to_owned),
        };
        self.emit(event, actor, skip);
    }

    fn running_live(&self) -> Result<(), RoomError> {
        if self.pending.is_some() {
            return Err(RoomError::result_pending());
        }
        match (&self.live, self.room_state()) {
            (Some(l), _) if l.running() => Ok(()),
            (Some(_), RoomState::Over) => Err(RoomError::new(code::GAME_OVER, "the game is over")),
            _ => Err(RoomError::new(
                code::GAME_NOT_STARTED,
                "the game has not started",
            )),
        }
    }

    async fn act(&mut self, conn: ConnId, rid: Option<u64>, act: Act) -> Result<(), RoomError> {
        if !self.members.contains_key(&conn) {
            return Err(RoomError::new(code::NOT_IN_ROOM, "join the room first"));
        }
        match act {
            Act::Chat(text) => return self.chat(conn, rid, &text),
            Act::ShowSpectatorChat(show) => {
                if let Some(m) = self.members.get_mut(&conn) {
                    // Spectators see their own chat whatever they ask.
                    m.show_spectators = show || m.seat.is_none();
                }
                if show {
                    // The answer brings what the spectators said before (the snapshot's `chat`).
                    self.send_snapshot(conn, rid);
                } else {
                    let outbox = self.members[&conn].outbox.clone();
                    self.ack(&outbox, rid);
                }
                return Ok(());
            }
            _ => {}
        }
        let Some(member) = self.members.get(&conn) else {
            return Err(RoomError::new(code::NOT_IN_ROOM, "join the room first"));
        };
        let Some(seat) = member.seat else {
            return Err(RoomError::new(
                code::NOT_A_PLAYER,
                "spectators cannot act in the game",
            ));
        };
        let actor = Some((conn, rid));
        match act {
            Act::Place { point, ply } => self.place(seat, actor, point, ply).await,
            Act::Rules(action) if self.already_made(seat, action) => {
                // A retry of a decision or claim that already stands (its answer was lost on the way): the same
                // action is made at most once a game, so answering `ack` is safe, as for a `place` played before.
                self.ack_actor(actor);
                Ok(())
            }
            Act::Rules(action) => self.play(seat, actor, action).await,
            Act::Resign => {
                self.running_live()?;
                self.finish(Ending::won(other(seat), "resign"), actor).await
            }
            Act::OfferDraw => {
                self.running_live()?;
                if self.offers.is_pending(OfferKind::Draw, other(seat)) {
                    // Both want a draw. The offer stands if the draw cannot be stored.
                    let recorded = self.record(Ending::no_winner("draw_agreed", false)).await?;
                    self.offers.take(OfferKind::Draw, other(seat));
                    self.announce(recorded, actor);
                    return Ok(());
                }
                self.offer(seat, OfferKind::Draw, actor)
            }
            Act::AnswerDraw(accept) => {
                self.running_live()?;
                if !(accept && self.offers.is_pending(OfferKind::Draw, other(seat))) {
                    return self.answer(seat, OfferKind::Draw, accept, actor);
                }
                // Stored before the answer is announced: a draw that cannot be stored leaves the offer standing.
                let recorded = self.record(Ending::no_winner("draw_agreed", false)).await?;
                let answered = self.answer(seat, OfferKind::Draw, accept, actor);
                self.announce(recorded, None);
                answered
            }
            Act::RequestTakeback => {
                self.running_live()?;
                self.takeback_count(seat)?;
                self.offer(seat, OfferKind::Takeback, actor)
            }
            Act::AnswerTakeback(accept) => {
                self.running_live()?;
                if accept {
                    // Check before answering, so a failed takeback leaves the request standing.
                    self.takeback_count(other(seat))?;
                }
                self.answer(seat, OfferKind::Takeback, accept, actor)?;
                if accept {
                    self.take_back(other(seat)).await?;
                }
                Ok(())
            }
            Act::OfferRematch => {
                self.rematch_possible()?;
                if self.offers.is_pending(OfferKind::Rematch, other(seat)) {
                    self.offers.take(OfferKind::Rematch, other(seat));
                    return self.start_rematch(actor).await;
                }
                self.offer(seat, OfferKind::Rematch, actor)
            }
            Act::AnswerRematch(accept) => {
                self.rematch_possible()?;
                self.answer(seat, OfferKind::Rematch, accept, actor)?;
                if accept {
                    self.start_rematch(None).await?;
                }
                Ok(())
            }
            Act::ClaimWin => self.claim_win(seat, actor).await,
            Act::Chat(_) | Act::ShowSpectatorChat(_) => unreachable!("handled above"),
        }
    }

    /// A message from a member: players' chat is a room event everyone reads; spectators' chat goes to the
    /// spectators and the players who chose to see it, outside the versioned events. Each member has an allowance,
    /// and the spectators share one per room.
    fn chat(&mut self, conn: ConnId, rid: Option<u64>, text: &str) -> Result<(), RoomError> {
        let text = chat::clean(text)?;
        let now = self.state.clock.now();
        let Some(member) = self.members.get_mut(&conn) else {
            return Err(RoomError::new(code::NOT_IN_ROOM, "join the room first"));
        };
        if !member.chat.take(now) {
            return Err(RoomError::new(
                code::CHAT_RATE_LIMITED,
                "you are chatting too fast; wait a moment",
            ));
        }
        let from = member.identity.name.clone();
        if member.seat.is_some() {
            self.chat_history.say(from.clone(), text.clone(), false);
            let event = RoomEvent::Chat {
                from,
                spectator: false,
                text,
            };
            self.emit(event, Some((conn, rid)), None);
            return Ok(());
        }
        if !self.spectator_chat.take(now) {
            return Err(RoomError::new(
                code::CHAT_RATE_LIMITED,
                "the spectators' chat is busy; wait a moment",
            ));
        }
        self.chat_history.say(from.clone(), text.clone(), true);
        let msg = ServerMessage::SpectatorChat {
            room: self.id.to_string(),
            from,
            text,
        };
        let plain = encode(&msg, None);
        // A sender that fell behind gets the snapshot as the answer to its request (as `emit` does), then its line.
        let sender_behind = self
            .members
            .get(&conn)
            .is_some_and(|m| m.behind_since.is_some());
        if sender_behind {
            self.resync(conn, rid);
        }
        let mine = rid
            .filter(|_| !sender_behind)
            .map(|rid| Utf8Bytes::from(protocol::with_rid(&plain, rid)));
        let text: Utf8Bytes = plain.into();
        for (&id, m) in &mut self.members {
            if !m.show_spectators {
                continue;
            }
            let frame = match &mine {
                Some(t) if id == conn => t.clone(),
                _ => text.clone(),
            };
            // Chat is not worth a resync: a member whose queue is full misses it.
            let _ = m.outbox.try_send(frame);
        }
        Ok(())
    }

    /// `claim_win`: in a game without a clock, the player not to act wins once the opponent has been idle for the
    /// configured time (a rated game could otherwise be stalled for ever by the losing side).
    async fn claim_win(&mut self, seat: usize, actor: Actor) -> Result<(), RoomError> {
        self.running_live()?;
        let live = self.live.as_ref().expect("running");
        if live.clock.is_some() || live.to_act() == Some(live.colour_of(seat)) {
            return Err(RoomError::new(
                code::NO_CLAIM,
                "a win can be claimed only in a game without a clock, while the opponent is to act",
            ));
        }
        let idle = self
            .state
            .clock
            .now()
            .saturating_duration_since(live.last_action);
        let needed = Duration::from_secs(self.state.config.idle_claim_secs);
        if idle < needed {
            let left = (needed - idle).as_secs_f64().ceil() as u64;
            return Err(RoomError::new(
                code::CLAIM_TOO_SOON,
                format!("the opponent still has {left} s to act"),
            ));
        }
        self.finish(Ending::won(seat, "idle"), actor).await
    }

    fn offer(&mut self, seat: usize, kind: OfferKind, actor: Actor) -> Result<(), RoomError> {
        let ply = self.live.as_ref().map_or(0, Live::ply);
        self.offers
            .check(kind, seat, ply)
            .map_err(|code| RoomError::new(code, "this offer cannot be made now"))?;
        self.offers.add(kind, seat);
        let by = self.seat_colour(seat);
        self.emit(RoomEvent::Offered { offer: kind, by }, actor, None);
        Ok(())
    }

    fn answer(
        &mut self,
        seat: usize,
        kind: OfferKind,
        accept: bool,
        actor: Actor,
    ) -> Result<(), RoomError> {
        let ply = self.live.as_ref().map_or(0, Live::ply);
        if !self.offers.is_pending(kind, other(seat)) {
            return Err(RoomError::new(
                code::NO_OFFER,
                "there is no such offer to answer",
            ));
        }
        if accept {
            self.offers.take(kind, other(seat));
        } else {
            self.offers.decline(kind, other(seat), ply);
        }
        let by = self.seat_colour(seat);
        self.emit(
            RoomEvent::OfferAnswered {
                offer: kind,
                by,
                accept,
            },
            actor,
            None,
        );
        Ok(())
    }

    /// How many actions a takeback for `seat` undoes: its last action and any reply after it.
    fn takeback_count(&self, seat: usize) -> Result<usize, RoomError> {
        let live = self.live.as_ref().expect("checked running");
        let n = live.actors.len();
        let count = match live.actors.iter().rposition(|&s| s == seat) {
            Some(last) if n - last <= 2 => n - last,
            _ => {
                return Err(RoomError::new(
                    code::NOTHING_TO_TAKE_BACK,
                    "you have no move to take back",
                ))
            }
        };
        // Takebacks stop at an opening decision: undoing a swap would give the colours back silently.
        let actions = live.game.actions();
        let undone = &actions[actions.len().saturating_sub(count)..];
        if undone.iter().any(|a| {
            matches!(
                a,
                Action::DecideSwap { .. }
                    | Action::ProposeFifth { .. }
                    | Action::ChooseFifth { .. }
            )
        }) {
            return Err(RoomError::new(
                code::OPENING_DECIDED,
                "an opening decision cannot be taken back",
            ));
        }
        Ok(count)
    }

    async fn take_back(&mut self, seat: usize) -> Result<(), RoomError> {
        let count = self.takeback_count(seat)?;
        let live = self.live.as_mut().expect("checked running");
        let keep = (live.actors.len() - count) as u32;
        self.state
            .store
            .truncate_actions(live.id, keep)
            .await
            .map_err(|e| {
                tracing::error!(game = live.id, error = %e, "could not take back");
                RoomError::internal()
            })?;
        for _ in 0..count {
            live.game.undo();
            live.actors.pop();
        }
        let now = self.state.clock.now();
        live.last_action = now;
        let next = live.game.to_act().map(|c| live.seat_of(c));
        if let (Some(c), Some(next)) = (&mut live.clock, next) {
            c.freeze(now);
            c.start(next, now);
        }
        let event = RoomEvent::TakenBack {
            ply: live.ply(),
            moves: live.game.moves().to_vec(),
            to_act: live.to_act(),
            phase: live.phase(),
            clocks: live.clocks(now),
            forbidden: live.forbidden(),
        };
        self.offers.stone_played();
        self.emit(event, None, None);
        Ok(())
    }

    /// A rematch needs a finished game and both of its players still seated.
    fn rematch_possible(&self) -> Result<(), RoomError> {
        if self.room_state() != RoomState::Over {
            return Err(RoomError::new(
                code::GAME_NOT_OVER,
                "a rematch follows a finished game",
            ));
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(RoomError::new(
                code::OPPONENT_LEFT,
                "your opponent left this room; open a new room for another game",
            ));
        }
        Ok(())
    }

    async fn start_rematch(&mut self, actor: Actor) -> Result<(), RoomError> {
        self.create_live().await?;
        self.emit_started(None, actor);
        self.publish_lobby();
        Ok(())
    }

    async fn place(
        &mut self,
        seat: usize,
        actor: Actor,
        point: Point,
        ply: u32,
    ) -> Result<(), RoomError> {
        if self.pending.is_some() {
            return Err(RoomError::result_pending());
        }
        let Some(live) = self.current() else {
            return self.running_live();
        };
        let expected = live.ply() + 1;
        if ply != expected {
            let same = ply >= 1
                && live.stone_action((ply - 1) as usize) == Some((Action::Place { point }, seat));
            if same && ply < expected {
                self.ack_actor(actor);
                return Ok(());
            }
            return Err(RoomError::new(
                code::STALE_PLY,
                format!("ply {ply} is not the next ply ({expected})"),
            ));
        }
        self.play(seat, actor, Action::Place { point }).await
    }

    /// Applies a rules action for a seat: judge, charge the clock, store durably, then announce.
    async fn play(&mut self, seat: usize, actor: Actor, action: Action) -> Result<(), RoomError> {
        self.running_live()?;
        let now = self.state.clock.now();
        let flagged = self
            .live
            .as_ref()
            .and_then(|l| l.clock.as_ref())
            .and_then(|c| c.flagged(now));
        if let Some(flagged) = flagged {
            self.finish(Ending::won(other(flagged), "timeout"), None)
                .await?;
            return Err(RoomError::new(code::GAME_OVER, "time ran out"));
        }
        let live = self.live.as_mut().expect("running");
        let colour = live.colour_of(seat);
        let clock_before = live.clock.clone();
        let last_before = live.last_action;
        let event = live.game.apply_as(colour, action)?;
        let next = live.game.to_act().map(|c| live.seat_of(c));
        let mut used = 0;
        if let Some(c) = &mut live.clock {
            used = c.stop(now);
            if let Some(next) = next {
                c.start(next, now);
            }
        }
        let remaining = live.clock.as_ref().map(|c| {
            let t = c.totals(now);
            [t[live.seat_of(Color::Black)], t[live.seat_of(Color::White)]]
        });
        let stored = StoredAction {
            seq: (live.game.actions().len() - 1) as u32,
            action,
            used_ms: used as i64,
            remaining_ms: remaining,
            at: unix_ms(),
        };
        let started = Instant::now();
        if let Err(e) = self.state.writer.append(live.id, stored).await {
            tracing::error!(game = live.id, error = %e, "could not store an action");
            live.game.undo();
            live.clock = clock_before;
            return Err(RoomError::internal());
        }
        self.state
            .metrics
            .store_write_seconds
            .observe(started.elapsed());
        self.state.metrics.moves.fetch_add(1, Ordering::Relaxed);
        live.actors.push(seat);
        live.last_action = now;
        let clocks = live.clocks(now);
        let event = match event {
            Event::Placed {
                color,
                point,
                ply,
                claimable,
            } => Some(RoomEvent::Move {
                colour: color,
                point,
                ply: ply as u32,
                claimable,
                to_act: live.game.to_act(),
                phase: match live.game.status() {
                    Status::Ongoing { phase, .. } => phase.into(),
                    _ => RoomPhase::None,
                },
                clocks,
                forbidden: live.forbidden(),
            }),
            Event::ColoursSwapped | Event::SwapDeclined => {
                let name = |c: Color| {
                    self.seats[live.seat_of(c)]
                        .as_ref()
                        .map(|h| h.identity.name.clone())
                        .unwrap_or_default()
                };
                Some(RoomEvent::SwapDecided {
                    swapped: matches!(event, Event::ColoursSwapped),
                    black: name(Color::Black),
                    white: name(Color::White),
                    to_act: live.to_act(),
                    phase: live.phase(),
                    clocks,
                })
            }
            Event::FifthProposed { points } => Some(RoomEvent::FifthProposed {
                points,
                to_act: live.to_act(),
                phase: live.phase(),
                clocks,
            }),
            Event::ForbiddenClaimed { .. } => None,
        };
        let claimed = event.is_none();
        if matches!(action, Action::Place { .. } | Action::ChooseFifth { .. }) {
            self.offers.stone_played();
        }
        if let Some(event) = event {
            self.emit(event, actor, None);
        }
        match self
            .finish_if_decided(if claimed { actor } else { None })
            .await
        {
            Err(e) if claimed && e.code == code::INTERNAL => {
                self.withdraw_claim(clock_before, last_before, actor).await
            }
            Err(e) if claimed => Err(e),
            // A decided move was stored and announced (its reply); its result follows once stored.
            _ => Ok(()),
        }
    }

    /// A claim whose result could not be stored is taken back, so the game goes on as if it had not been made
    /// (the claim may be made again). If even that cannot be stored, the claim stands and its result is stored
    /// like any decided result.
    async fn withdraw_claim(
        &mut self,
        clock_before: Option<GameClock>,
        last_before: Instant,
        actor: Actor,
    ) -> Result<(), RoomError> {
        let live = self.live.as_mut().expect("running");
        let keep = (live.game.actions().len() - 1) as u32;
        match self.state.store.truncate_actions(live.id, keep).await {
            Ok(()) => {
                live.game.undo();
                live.actors.pop();
                live.clock = clock_before;
                live.last_action = last_before;
                Err(RoomError::internal())
            }
            Err(e) => {
                tracing::error!(game = live.id, error = %e, "could not withdraw a claim");
                match self.decided_ending() {
                    Some(ending) => self.settle(ending, actor).await,
                    None => Err(RoomError::internal()),
                }
            }
        }
    }

    /// How the rules ended the running game, if they did.
    fn decided_ending(&self) -> Option<Ending> {
        let live = self.live.as_ref().filter(|l| l.running())?;
        let ending = match live.game.status() {
            Status::Ongoing { .. } => return None,
            Status::Drawn => Ending::no_winner("board_full", false),
            Status::Won { winner, reason } => {
                let mut e = Ending::won(live.seat_of(winner), reason.code());
                match reason {
                    WinReason::Five { line } => e.line = Some(line.points()),
                    WinReason::ForbiddenMove { point, kind }
                    | WinReason::ForbiddenClaimed { point, kind } => {
                        e.forbidden = Some(ForbiddenPoint { point, kind })
                    }
                }
                e
            }
        };
        Some(ending)
    }

    /// Ends the game if the rules decided it (see [`Room::finish`] for the errors).
    async fn finish_if_decided(&mut self, actor: Actor) -> Result<(), RoomError> {
        if self.pending.is_some() {
            return Err(RoomError::result_pending());
        }
        match self.decided_ending() {
            Some(ending) => self.finish(ending, actor).await,
            None => Ok(()),
        }
    }

    /// Ends the running game: stored first (exactly once), then announced; nobody hears of a result that is not
    /// stored. A player's request that cannot be stored is refused with `internal` and the game goes on; any
    /// other ending that cannot be stored is kept and retried (`result_pending` meanwhile).
    async fn finish(&mut self, ending: Ending, actor: Actor) -> Result<(), RoomError> {
        let recorded = self.record(ending).await?;
        self.announce(recorded, actor);
        Ok(())
    }

    /// Stores an ending (as [`Room::finish`], without announcing it).
    async fn record(&mut self, ending: Ending) -> Result<Recorded, RoomError> {
        self.running_live()?;
        let by_request = ending.by_request();
        match self.store_ending(ending).await {
            Ok(recorded) => Ok(recorded),
            Err(_) if by_request => Err(RoomError::internal()),
            Err(ending) => {
                self.hold(ending, 1);
                Err(RoomError::result_pending())
            }
        }
    }

    /// Stores an ending that cannot be refused, then announces it; if the store fails it is kept and retried.
    async fn settle(&mut self, ending: Ending, actor: Actor) -> Result<(), RoomError> {
        match self.store_ending(ending).await {
            Ok(recorded) => {
                self.announce(recorded, actor);
                Ok(())
            }
            Err(ending) => {
                self.hold(ending, 1);
                Err(RoomError::result_pending())
            }
        }
    }

    /// Keeps a decided ending that the store refused, to retry after a backoff on the room's clock. The clocks
    /// stop: the game is decided, only its record is missing.
    fn hold(&mut self, ending: Ending, attempts: u32) {
        let now = self.state.clock.now();
        if let Some(c) = self.live.as_mut().and_then(|l| l.clock.as_mut()) {
            c.freeze(now);
        }
        let wait = RESULT_RETRY_FIRST
            .saturating_mul(1 << attempts.saturating_sub(1).min(16))
            .min(RESULT_RETRY_MAX);
        self.pending = Some(PendingResult {
            ending,
            attempts,
            retry_at: now + wait,
        });
    }

    /// Tries again to store a pending result whose time has come; announces it once stored.
    async fn retry_result(&mut self) {
        let now = self.state.clock.now();
        let Some(pending) = self.pending.take_if(|p| p.retry_at <= now) else {
            return;
        };
        match self.store_ending(pending.ending).await {
            Ok(recorded) => {
                self.announce(recorded, None);
                self.maybe_close();
            }
            Err(ending) => self.hold(ending, pending.attempts + 1),
        }
    }

    /// Writes an ending to the store (one attempt). A rated game that ends by a player's choice or absence before
    /// both sides moved is aborted instead (rating farming by instant resignation). Gives the ending back when
    /// the store fails; nothing in the room changes either way.
    async fn store_ending(&self, mut ending: Ending) -> Result<Recorded, Ending> {
        let min_moves = self.state.config.rated_min_moves;
        let live = self.live.as_ref().expect("a running game");
        let decided_on_board = matches!(
            ending.reason,
            "five" | "forbidden_move" | "forbidden_claimed" | "board_full"
        );
        if live.rated && !decided_on_board && live.ply() < min_moves {
            ending = Ending::no_winner("aborted", true);
        }
        let mut unrated = live.unrated;
        if ending.aborted && live.rated {
            unrated = Some(UNRATED_TOO_FEW_MOVES);
        }
        let finish = Finish {
            end: GameEnd {
                winner: ending.winner.map(|s| live.colour_of(s)),
                aborted: ending.aborted,
                reason: ending.reason.to_owned(),
                ended_at: unix_ms(),
            },
            seats: gomoku::seats_now(&live.game),
            rater: gomoku::RATER,
        };
        match self.state.writer.finish_game(live.id, finish).await {
            Ok(finished) => Ok(Recorded {
                ending,
                unrated,
                finished,
            }),
            Err(e) => {
                tracing::error!(game = live.id, error = %e, "could not store a result");
                Err(ending)
            }
        }
    }

    /// Announces a stored ending: the room's game is over.
    fn announce(&mut self, recorded: Recorded, actor: Actor) {
        let Recorded {
            ending,
            unrated,
            finished,
        } = recorded;
        let now = self.state.clock.now();
        let Some(live) = self.live.as_mut().filter(|l| l.running()) else {
            return;
        };
        if ending.aborted {
            if let Some(p) = live.pairing.take() {
                self.state.rooms.release_rated(p);
            }
        }
        if let Some(c) = &mut live.clock {
            c.freeze(now);
        }
        let winner = ending.winner.map(|s| live.colour_of(s));
        let name_of = |c: Color| {
            self.seats[live.seat_of(c)]
                .as_ref()
                .map(|h| h.identity.name.clone())
                .unwrap_or_default()
        };
        let rating_changes = finished.and_then(|f| f.rating_changes);
        let finished_changes = rating_changes.as_ref().map(|c| [c[0].after, c[1].after]);
        let ratings = rating_changes.map(|changes| {
            [Color::Black, Color::White]
                .into_iter()
                .zip(changes)
                .map(|(c, ch)| RatingDelta {
                    name: name_of(c),
                    before: ch.before.rating,
                    after: ch.after.rating,
                    tier: Some(ch.after.tier().name().to_owned()),
                    provisional: Some(ch.after.is_provisional()),
                })
                .collect()
        });
        let result = GameResult {
            winner,
            winner_name: winner.map(name_of),
            reason: ending.reason.to_owned(),
            line: ending.line,
            forbidden: ending.forbidden,
            ratings,
            unrated: unrated.map(str::to_owned),
        };
        if let Some(changes) = finished_changes {
            for (c, after) in [Color::Black, Color::White].into_iter().zip(changes) {
                if let Some(h) = self.seats[live.seat_of(c)].as_mut() {
                    h.rating = Some(SeatRating::of(after));
                }
            }
        }
        live.result = Some(result.clone());
        let clocks = live.clocks(now);
        self.next_first = live.colour_of(0).opposite();
        self.offers.clear();
        self.state
            .metrics
            .games_finished
            .fetch_add(1, Ordering::Relaxed);
        self.emit(RoomEvent::GameOver { result, clocks }, actor, None);
        self.publish_lobby();
    }
}
