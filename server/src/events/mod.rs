//! Events (issue #34): arenas, Swiss tournaments and round robins, run by one task like the pairing and the
//! challenges, over the ordinary rooms, clocks, ratings and store.
//!
//! **The task.** One task owns every upcoming and running event (a mirror of its stored rows); the HTTP
//! handlers talk to it through an [`EventsHandle`], and every room reports its finished games to it
//! ([`GameOver`], through the hook `room/evented.rs` adds). Each action is stored before anything depends on it
//! or anyone hears of it: an entrant, a withdrawal, a whole round's pairings (one transaction), each pairing's
//! room and game, each result, each change of status. The standings and the next pairing are always computed
//! from those rows (`standings.rs`), so a restarted server resumes every running event as it was: its rooms are
//! restored like any unfinished game, and the task reads the events back, notes which games are still being
//! played, takes the results of games that ended while it was not listening, opens the rooms of pairings that
//! had none yet, and pairs the next round if the last one had ended.
//!
//! **Kinds.** *Arena*: runs `duration` from its start; an entrant who is not playing is paired again at once
//! with the nearest free player by score and rating, avoiding the last opponent (a rematch only after both
//! waited [`REMATCH_WAIT_MS`]); 2 points a win, 1 a draw, doubled after two wins in a row; games still being
//! played when it ends count for nobody. *Swiss*: a fixed number of rounds paired by the FIDE Dutch system
//! (`tournament::dutch`), the pairing-allocated bye worth a win, late entrants (until the last round is paired)
//! missing the rounds before they joined with no points, withdrawn entrants no longer paired; the next round is
//! paired when every game of the previous one has its result. *Round robin*: entries close at the start;
//! everyone meets everyone in the order of the Berger tables; a withdrawn entrant's later games are forfeited.
//!
//! **Absence (the disconnect rule).** Joining an event is not being at the board: each pairing opens a room
//! with both seats held by the paired players, its clock running by the room's ordinary rules, and each player
//! has the room's grace period to come (`#/room/ID`, the event page's "go to my game"). A player who does not
//! come, or leaves and does not return, loses the game as in any room: by the clock, or as `abandoned` when
//! the grace period ends; a game with fewer than two moves is then aborted, and the event scores it as a
//! forfeit win for the player who was there (both absent: a double forfeit; in an arena such a game counts for
//! nobody). An arena entrant who was absent from a game is paused (withdrawn; joining again resumes), so an
//! absent player is not paired again and again. A Swiss entrant is withdrawn only by asking; one who withdrew
//! is not paired in the rounds after.
//!
//! Not in this slice: a cluster's nodes running one event (the owning node pairing), berserk.

pub mod http;
pub mod standings;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use protocol::{ColourChoice, GameSpec, TimeControl};
use store::events::{
    Entrant, EventId, EventRecord, NewEntrant, NewEvent, NewPairing, PairingId, PairingRecord,
};
use store::{GameId, Store};
use tokio::sync::{mpsc, oneshot};

pub use http::router;
use standings::{result, Kind};

use crate::http::ApiError;
use crate::identity::Identity;
use crate::room::Settings;
use crate::time::unix_ms;
use crate::AppState;

/// The most entrants an event takes.
pub const MAX_ENTRANTS: usize = 256;
/// The most rounds of a Swiss.
pub const MAX_ROUNDS: u32 = 15;
/// The shortest and longest arena, in minutes.
pub const ARENA_MINUTES: std::ops::RangeInclusive<u32> = 1..=720;
/// The longest event name, in characters.
pub const MAX_NAME_CHARS: usize = 60;
/// The longest password of a private event, in characters.
pub const MAX_PASSWORD_CHARS: usize = 64;
/// How far ahead an event may be scheduled.
pub const MAX_START_AHEAD_MS: i64 = 30 * 24 * 3600 * 1000;
/// How far in the past a start time may be (clocks differ a little; an earlier start starts at once).
pub const START_SLACK_MS: i64 = 60_000;
/// The most upcoming and running events one account may have made.
pub const MAX_OPEN_PER_CREATOR: usize = 5;
/// The most upcoming and running events the server holds.
pub const MAX_OPEN: usize = 500;
/// How long two free arena players whose last game was against each other wait before they are paired again.
pub const REMATCH_WAIT_MS: i64 = 10_000;
/// How often the task looks at an arena with free players it did not pair.
const ARENA_TICK_MS: i64 = 1_000;

/// A finished game, as a room reports it to the events task (every room does; the task ignores games that are
/// not an event's).
#[derive(Clone, Debug)]
pub struct GameOver {
    /// The stored game.
    pub game_id: GameId,
    /// The winner's identity key; `None` for a draw or an aborted game.
    pub winner: Option<String>,
    /// Whether the game was aborted.
    pub aborted: bool,
    /// The identity keys of the room's seats (0, 1).
    pub players: [Option<String>; 2],
    /// Whether each seat had a connection when the game ended.
    pub present: [bool; 2],
}

/// An event as asked for, validated (`POST /api/events`).
#[derive(Clone, Debug)]
pub struct EventSpec {
    /// The row to store.
    pub new: NewEvent,
    /// Who makes it.
    pub creator: Identity,
}

enum Command {
    Create {
        spec: Box<EventSpec>,
        reply: oneshot::Sender<Result<EventId, ApiError>>,
    },
    Join {
        id: EventId,
        entrant: Box<NewEntrant>,
        guest: bool,
        reply: oneshot::Sender<Result<u32, ApiError>>,
    },
    Leave {
        id: EventId,
        key: String,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
}

/// A handle to the events task.
#[derive(Clone, Debug)]
pub struct EventsHandle {
    tx: mpsc::UnboundedSender<Command>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("events command")
    }
}

/// The receiving ends of the events task, until [`start`] runs it.
pub struct EventsInbox {
    commands: mpsc::UnboundedReceiver<Command>,
    games: mpsc::UnboundedReceiver<GameOver>,
}

fn gone() -> ApiError {
    ApiError::internal("the events task is not running")
}

impl EventsHandle {
    /// A handle, the inbox [`start`] runs the task on, and the sender rooms report finished games to (set as
    /// the rooms' hook before any room is restored, so no result is missed).
    pub fn channel() -> (EventsHandle, EventsInbox, mpsc::UnboundedSender<GameOver>) {
        let (tx, commands) = mpsc::unbounded_channel();
        let (games_tx, games) = mpsc::unbounded_channel();
        (
            EventsHandle { tx },
            EventsInbox { commands, games },
            games_tx,
        )
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, ApiError>>) -> Command,
    ) -> Result<T, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(make(reply)).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    /// Stores a new event; its id.
    pub async fn create(&self, spec: EventSpec) -> Result<EventId, ApiError> {
        self.ask(|reply| Command::Create {
            spec: Box::new(spec),
            reply,
        })
        .await
    }

    /// Enters a player (or brings back one who withdrew); its entrant number.
    pub async fn join(
        &self,
        id: EventId,
        entrant: NewEntrant,
        guest: bool,
    ) -> Result<u32, ApiError> {
        self.ask(|reply| Command::Join {
            id,
            entrant: Box::new(entrant),
            guest,
            reply,
        })
        .await
    }

    /// Takes a player out: before the start the entry goes; after it the entrant is withdrawn (an arena's
    /// paused).
    pub async fn leave(&self, id: EventId, key: String) -> Result<(), ApiError> {
        self.ask(|reply| Command::Leave { id, key, reply }).await
    }
}

fn refused(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError {
        status,
        code,
        message: message.into(),
    }
}

/// A room error's code as the HTTP error's (every code the settings give is a constant).
fn static_code(code: std::borrow::Cow<'static, str>) -> &'static str {
    match code {
        std::borrow::Cow::Borrowed(c) => c,
        std::borrow::Cow::Owned(_) => "invalid_field",
    }
}

/// The room settings of an event's games, from its stored game and clock.
pub fn settings_of(event: &NewEvent) -> Result<Settings, ApiError> {
    let game: GameSpec = serde_json::from_str(&event.game).map_err(ApiError::internal)?;
    let clock: TimeControl =
        serde_json::from_str(&event.time_control).map_err(ApiError::internal)?;
    Settings::new(game, clock, event.rated, true, ColourChoice::Black)
        .map_err(|e| refused(StatusCode::BAD_REQUEST, static_code(e.code), e.message))
}

/// An upcoming or running event, as its rows.
struct Live {
    record: EventRecord,
    entrants: Vec<Entrant>,
    pairings: Vec<PairingRecord>,
}

impl Live {
    fn kind(&self) -> Kind {
        Kind::parse(&self.record.new.kind).unwrap_or(Kind::Arena)
    }

    fn entrant(&self, number: u32) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.number == number)
    }

    fn playing(&self, number: u32) -> bool {
        self.pairings.iter().any(|p| {
            p.new.result.is_none() && (p.new.first == number || p.new.second == Some(number))
        })
    }

    fn paired_rounds(&self) -> u32 {
        self.pairings.iter().map(|p| p.new.round).max().unwrap_or(0)
    }

    fn round_done(&self, round: u32) -> bool {
        self.pairings
            .iter()
            .filter(|p| p.new.round == round)
            .all(|p| p.new.result.is_some())
    }

    fn ends_at(&self) -> Option<i64> {
        let started = self.record.started_at?;
        (self.kind() == Kind::Arena).then(|| started + self.record.new.duration_ms)
    }
}

struct Task {
    state: AppState,
    store: Arc<dyn Store>,
    epoch: (Instant, i64),
    live: HashMap<EventId, Live>,
    by_game: HashMap<GameId, (EventId, PairingId)>,
    /// Arena entrants free since (the task's milliseconds), for the rematch wait.
    free_since: HashMap<(EventId, u32), i64>,
}

/// Starts the events task: reads the upcoming and running events back, then serves.
pub fn start(inbox: EventsInbox, state: AppState) {
    let epoch = (state.clock.now(), unix_ms());
    let task = Task {
        store: state.store.clone(),
        state,
        epoch,
        live: HashMap::new(),
        by_game: HashMap::new(),
        free_since: HashMap::new(),
    };
    tokio::spawn(task.run(inbox));
}

/// The event's tables, or a 500 for a store without them.
fn tables(store: &Arc<dyn Store>) -> Result<&dyn store::EventStore, ApiError> {
    store
        .events()
        .ok_or_else(|| ApiError::internal("this store keeps no events"))
}

impl Task {
    fn now_ms(&self) -> i64 {
        let (at, ms) = self.epoch;
        ms + self
            .state
            .clock
            .now()
            .saturating_duration_since(at)
            .as_millis() as i64
    }

    fn instant_of(&self, ms: i64) -> Instant {
        let (at, epoch_ms) = self.epoch;
        at + Duration::from_millis(ms.saturating_sub(epoch_ms).max(0) as u64)
    }

    async fn run(mut self, mut inbox: EventsInbox) {
        if let Err(e) = self.resume().await {
            tracing::error!(error = %e.message, "could not resume the events");
        }
        let clock = self.state.clock.clone();
        loop {
            let wake = self.next_deadline().map(|ms| self.instant_of(ms));
            let sleep = async {
                match wake {
                    Some(at) => clock.sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                cmd = inbox.commands.recv() => match cmd {
                    Some(cmd) => self.command(cmd).await,
                    None => break,
                },
                over = inbox.games.recv() => match over {
                    Some(over) => self.game_over(over).await,
                    None => break,
                },
                () = sleep => self.tick().await,
            }
        }
    }

    fn next_deadline(&self) -> Option<i64> {
        let now = self.now_ms();
        self.live
            .values()
            .filter_map(|l| match l.record.status.as_str() {
                "upcoming" => Some(l.record.new.starts_at),
                _ if l.kind() == Kind::Arena => {
                    let free = l
                        .entrants
                        .iter()
                        .filter(|e| !e.withdrawn && !l.playing(e.number))
                        .count();
                    let tick = (free >= 2).then_some(now + ARENA_TICK_MS);
                    [l.ends_at(), tick].into_iter().flatten().min()
                }
                _ => None,
            })
            .min()
    }

    async fn command(&mut self, cmd: Command) {
        match cmd {
            Command::Create { spec, reply } => {
                let r = self.create(*spec).await;
                let _ = reply.send(r);
            }
            Command::Join {
                id,
                entrant,
                guest,
                reply,
            } => {
                let r = self.join(id, *entrant, guest).await;
                let _ = reply.send(r);
                self.tick().await;
            }
            Command::Leave { id, key, reply } => {
                let r = self.leave(id, &key).await;
                let _ = reply.send(r);
                self.tick().await;
            }
        }
    }

    async fn create(&mut self, spec: EventSpec) -> Result<EventId, ApiError> {
        if self.live.len() >= MAX_OPEN {
            return Err(refused(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_events",
                "the server holds as many events as it allows; try again later",
            ));
        }
        let mine = self
            .live
            .values()
            .filter(|l| {
                l.record.new.creator_user_id == spec.creator.user_id
                    && l.record.new.creator_name == spec.creator.name
            })
            .count();
        if mine >= MAX_OPEN_PER_CREATOR {
            return Err(refused(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_events",
                format!("you already have {mine} upcoming or running events"),
            ));
        }
        let id = tables(&self.store)?
            .create_event(&spec.new)
            .await
            .map_err(ApiError::internal)?;
        let record = tables(&self.store)?
            .event(id)
            .await
            .map_err(ApiError::internal)?
            .ok_or_else(|| ApiError::internal("a stored event went missing"))?;
        self.live.insert(
            id,
            Live {
                record,
                entrants: Vec::new(),
                pairings: Vec::new(),
            },
        );
        self.tick().await;
        Ok(id)
    }

    async fn join(
        &mut self,
        id: EventId,
        mut new: NewEntrant,
        guest: bool,
    ) -> Result<u32, ApiError> {
        let store = self.store.clone();
        let now = self.now_ms();
        let Some(live) = self.live.get_mut(&id) else {
            return Err(refused(
                StatusCode::CONFLICT,
                "event_finished",
                "this event is over (or does not exist)",
            ));
        };
        if live.record.new.rated && guest {
            return Err(refused(
                StatusCode::FORBIDDEN,
                "account_required",
                "rated events need an account",
            ));
        }
        let running = live.record.status == "running";
        if let Some(e) = live
            .entrants
            .iter_mut()
            .find(|e| e.new.player_key == new.player_key)
        {
            if !e.withdrawn {
                return Err(refused(
                    StatusCode::CONFLICT,
                    "already_entered",
                    "you are entered already",
                ));
            }
            if running && live.record.new.kind == Kind::RoundRobin.as_str() {
                return Err(refused(
                    StatusCode::CONFLICT,
                    "entries_closed",
                    "a round robin takes no one back once it has started",
                ));
            }
            tables(&store)?
                .set_withdrawn(id, e.number, false)
                .await
                .map_err(ApiError::internal)?;
            e.withdrawn = false;
            let number = e.number;
            self.free_since.insert((id, number), now);
            return Ok(number);
        }
        let kind = live.kind();
        let paired = live.paired_rounds();
        if running && kind == Kind::RoundRobin
            || running && kind == Kind::Swiss && paired >= live.record.new.rounds
        {
            return Err(refused(
                StatusCode::CONFLICT,
                "entries_closed",
                "entries are closed",
            ));
        }
        if live.entrants.len() >= MAX_ENTRANTS {
            return Err(refused(
                StatusCode::CONFLICT,
                "event_full",
                format!("this event has its {MAX_ENTRANTS} entrants"),
            ));
        }
        new.joined_round = if running { paired } else { 0 };
        new.joined_at = now;
        let number = tables(&store)?
            .add_entrant(id, &new)
            .await
            .map_err(ApiError::internal)?;
        live.entrants.push(Entrant {
            number,
            new,
            withdrawn: false,
        });
        self.free_since.insert((id, number), now);
        Ok(number)
    }

    async fn leave(&mut self, id: EventId, key: &str) -> Result<(), ApiError> {
        let store = self.store.clone();
        let Some(live) = self.live.get_mut(&id) else {
            return Err(refused(
                StatusCode::CONFLICT,
                "event_finished",
                "this event is over (or does not exist)",
            ));
        };
        let Some(i) = live
            .entrants
            .iter()
            .position(|e| e.new.player_key == key && !e.withdrawn)
        else {
            return Err(ApiError::not_found("not_entered", "you are not entered"));
        };
        let number = live.entrants[i].number;
        if live.record.status == "upcoming" {
            tables(&store)?
                .remove_entrant(id, number)
                .await
                .map_err(ApiError::internal)?;
            live.entrants.remove(i);
        } else {
            tables(&store)?
                .set_withdrawn(id, number, true)
                .await
                .map_err(ApiError::internal)?;
            // A round robin forfeits its games not yet opened as their rounds come (`round_robin_round`).
            live.entrants[i].withdrawn = true;
        }
        Ok(())
    }

    /// Starts, pairs and ends what is due.
    async fn tick(&mut self) {
        let now = self.now_ms();
        let ids: Vec<EventId> = self.live.keys().copied().collect();
        for id in ids {
            let Some(live) = self.live.get(&id) else {
                continue;
            };
            let status = live.record.status.clone();
            let kind = live.kind();
            if status == "upcoming" && live.record.new.starts_at <= now {
                self.begin(id).await;
            } else if status == "running" && kind == Kind::Arena {
                if live.ends_at().is_some_and(|end| end <= now) {
                    self.finish(id).await;
                } else {
                    self.pair_arena(id).await;
                }
            }
        }
    }

    async fn set_status(&mut self, id: EventId, status: &str, rounds: u32) -> bool {
        let now = self.now_ms();
        let Ok(t) = tables(&self.store) else {
            return false;
        };
        if let Err(e) = t.set_event_status(id, status, rounds, now).await {
            tracing::error!(event = id, error = %e, "could not store an event's status");
            return false;
        }
        if let Some(live) = self.live.get_mut(&id) {
            live.record.status = status.to_owned();
            live.record.new.rounds = rounds;
            if status == "running" {
                live.record.started_at = Some(now);
            } else {
                live.record.finished_at = Some(now);
            }
        }
        true
    }

    /// The start: an arena opens; a Swiss or round robin with two entrants or more pairs its first round (with
    /// fewer it is over at once).
    async fn begin(&mut self, id: EventId) {
        let Some(live) = self.live.get(&id) else {
            return;
        };
        let kind = live.kind();
        let active = live.entrants.iter().filter(|e| !e.withdrawn).count();
        match kind {
            Kind::Arena => {
                let rounds = live.record.new.rounds;
                if self.set_status(id, "running", rounds).await {
                    self.pair_arena(id).await;
                }
            }
            Kind::Swiss => {
                let rounds = live.record.new.rounds;
                if active < 2 {
                    self.finish(id).await;
                } else if self.set_status(id, "running", rounds).await {
                    self.next_round(id).await;
                }
            }
            Kind::RoundRobin => {
                let rounds = tournament::berger::round_robin(active as u32).map(|r| r.len() as u32);
                match rounds {
                    Ok(rounds) => {
                        if self.set_status(id, "running", rounds).await {
                            self.next_round(id).await;
                        }
                    }
                    Err(_) => self.finish(id).await,
                }
            }
        }
    }

    /// The end: an arena's games still being played count for nobody.
    async fn finish(&mut self, id: EventId) {
        let now = self.now_ms();
        let open: Vec<PairingId> = self
            .live
            .get(&id)
            .map(|l| {
                l.pairings
                    .iter()
                    .filter(|p| p.new.result.is_none() && l.kind() == Kind::Arena)
                    .map(|p| p.id)
                    .collect()
            })
            .unwrap_or_default();
        for p in open {
            if let Ok(t) = tables(&self.store) {
                if let Err(e) = t.set_pairing_result(p, result::VOID, now).await {
                    tracing::error!(event = id, error = %e, "could not void an arena game");
                    return;
                }
            }
            self.by_game.retain(|_, (_, pairing)| *pairing != p);
        }
        let rounds = self.live.get(&id).map_or(0, |l| l.record.new.rounds);
        if self.set_status(id, "finished", rounds).await {
            self.live.remove(&id);
            self.free_since.retain(|(event, _), _| *event != id);
            self.by_game.retain(|_, (event, _)| *event != id);
        }
    }

    /// Pairs the next round of a Swiss or round robin, or ends it after its last.
    async fn next_round(&mut self, id: EventId) {
        let Some(live) = self.live.get(&id) else {
            return;
        };
        let round = live.paired_rounds() + 1;
        if round > live.record.new.rounds {
            self.finish(id).await;
            return;
        }
        let now = self.now_ms();
        let pairings = match live.kind() {
            Kind::Swiss => match swiss_round(live, round, now) {
                Some(p) => p,
                None => {
                    self.finish(id).await;
                    return;
                }
            },
            Kind::RoundRobin => round_robin_round(live, round, now),
            Kind::Arena => return,
        };
        self.store_and_open(id, pairings).await;
        // A round whose every board was decided as it was paired (byes, forfeits) is over already.
        if self.live.get(&id).is_some_and(|l| l.round_done(round)) {
            Box::pin(self.next_round(id)).await;
        }
    }

    /// Pairs an arena's free entrants.
    async fn pair_arena(&mut self, id: EventId) {
        let now = self.now_ms();
        let Some(live) = self.live.get(&id) else {
            return;
        };
        if live.record.status != "running" {
            return;
        }
        let records = standings::arena_records(&live.pairings);
        let mut latest: HashMap<u32, u32> = HashMap::new();
        for p in &live.pairings {
            if let Some(second) = p.new.second {
                latest.insert(p.new.first, second);
                latest.insert(second, p.new.first);
            }
        }
        // Two players are kept apart only when their last games were against each other. (Were any player's last
        // opponent avoided, a third player whose last opponent was the leader could never meet the leader again,
        // and with three players would wait for ever.)
        let last: HashMap<u32, u32> = latest
            .iter()
            .filter(|&(a, b)| latest.get(b) == Some(a))
            .map(|(&a, &b)| (a, b))
            .collect();
        let waiting: Vec<tournament::arena::Waiting> = live
            .entrants
            .iter()
            .filter(|e| !e.withdrawn && !live.playing(e.number))
            .map(|e| tournament::arena::Waiting {
                id: u64::from(e.number),
                score: records.get(&e.number).map_or(0, |r| r.score()),
                rating: e.new.rating as i32,
                last_opponent: last.get(&e.number).map(|&n| u64::from(n)),
            })
            .collect();
        if waiting.len() < 2 {
            return;
        }
        let (pairs, _) = tournament::arena::pair(&waiting);
        let waited = |n: u64| {
            let since = self.free_since.get(&(id, n as u32)).copied().unwrap_or(0);
            now - since >= REMATCH_WAIT_MS
        };
        let board0 = live.pairings.len() as u32;
        let new: Vec<NewPairing> = pairs
            .into_iter()
            .filter(|&(a, b)| {
                let rematch = last.get(&(a as u32)) == Some(&(b as u32));
                !rematch || (waited(a) && waited(b))
            })
            .enumerate()
            .map(|(i, (a, b))| NewPairing {
                round: 0,
                board: board0 + i as u32 + 1,
                first: a as u32,
                second: Some(b as u32),
                result: None,
                created_at: now,
            })
            .collect();
        if !new.is_empty() {
            self.store_and_open(id, new).await;
        }
    }

    /// Stores pairings (one transaction), then opens a room for each game.
    async fn store_and_open(&mut self, id: EventId, new: Vec<NewPairing>) {
        let ids = match tables(&self.store) {
            Ok(t) => match t.add_pairings(id, &new).await {
                Ok(ids) => ids,
                Err(e) => {
                    tracing::error!(event = id, error = %e, "could not store pairings");
                    return;
                }
            },
            Err(_) => return,
        };
        let Some(live) = self.live.get_mut(&id) else {
            return;
        };
        for (pairing_id, p) in ids.iter().zip(new) {
            live.pairings.push(PairingRecord {
                id: *pairing_id,
                ended_at: p.result.as_ref().map(|_| p.created_at),
                new: p,
                room: None,
                game_id: None,
            });
        }
        for pairing_id in ids {
            self.open(id, pairing_id).await;
        }
    }

    /// Opens the room of a pairing that has none; if it cannot be opened the game is forfeited by both (void in
    /// an arena).
    async fn open(&mut self, id: EventId, pairing_id: PairingId) {
        let Some(live) = self.live.get(&id) else {
            return;
        };
        let Some(p) = live.pairings.iter().find(|p| p.id == pairing_id) else {
            return;
        };
        let (Some(second), None, None) = (p.new.second, &p.new.result, &p.room) else {
            return;
        };
        let identity = |n: u32| {
            live.entrant(n).map(|e| Identity {
                id: e.new.player_key.clone(),
                name: e.new.name.clone(),
                user_id: e.new.user_id,
            })
        };
        let (Some(first), Some(second)) = (identity(p.new.first), identity(second)) else {
            return;
        };
        let kind = live.kind();
        let opened = match settings_of(&live.record.new) {
            Ok(settings) => self
                .state
                .rooms
                .open_evented(&self.state, settings, [first, second])
                .await
                .map_err(|e| e.message),
            Err(e) => Err(e.message),
        };
        match opened {
            Ok((room, game)) => {
                if let Ok(t) = tables(&self.store) {
                    if let Err(e) = t.set_pairing_game(pairing_id, &room.id, game).await {
                        tracing::error!(event = id, error = %e, "could not store a pairing's room");
                    }
                }
                self.by_game.insert(game, (id, pairing_id));
                if let Some(p) = self
                    .live
                    .get_mut(&id)
                    .and_then(|l| l.pairings.iter_mut().find(|p| p.id == pairing_id))
                {
                    p.room = Some(room.id.to_string());
                    p.game_id = Some(game);
                }
            }
            Err(e) => {
                tracing::warn!(event = id, error = %e, "an event's game could not be opened");
                let r = if kind == Kind::Arena {
                    result::VOID
                } else {
                    result::DOUBLE_FORFEIT
                };
                self.record_result(id, pairing_id, r).await;
            }
        }
    }

    /// Stores a pairing's result and updates the mirror; whether it was stored now.
    async fn record_result(&mut self, id: EventId, pairing_id: PairingId, r: &str) -> bool {
        let now = self.now_ms();
        let Ok(t) = tables(&self.store) else {
            return false;
        };
        match t.set_pairing_result(pairing_id, r, now).await {
            Ok(true) => {}
            Ok(false) => return false,
            Err(e) => {
                tracing::error!(event = id, error = %e, "could not store a result");
                return false;
            }
        }
        if let Some(p) = self
            .live
            .get_mut(&id)
            .and_then(|l| l.pairings.iter_mut().find(|p| p.id == pairing_id))
        {
            p.new.result = Some(r.to_owned());
            p.ended_at = Some(now);
        }
        true
    }

    /// A room's game ended: the event's result, then what follows from it.
    async fn game_over(&mut self, over: GameOver) {
        let Some((id, pairing_id)) = self.by_game.remove(&over.game_id) else {
            return;
        };
        let Some(live) = self.live.get(&id) else {
            return;
        };
        let Some(p) = live.pairings.iter().find(|p| p.id == pairing_id) else {
            return;
        };
        let key_of = |n: Option<u32>| {
            n.and_then(|n| live.entrant(n))
                .map(|e| e.new.player_key.clone())
        };
        let (first, second) = (key_of(Some(p.new.first)), key_of(p.new.second));
        let was_there = |key: &Option<String>| {
            over.players
                .iter()
                .zip(over.present)
                .any(|(k, present)| k == key && present)
        };
        let present = [was_there(&first), was_there(&second)];
        let kind = live.kind();
        let r = if let Some(w) = &over.winner {
            if Some(w) == first.as_ref() {
                result::FIRST
            } else {
                result::SECOND
            }
        } else if over.aborted {
            match (kind, present) {
                (Kind::Arena, _) => result::VOID,
                (_, [true, false]) => result::FIRST_FORFEIT,
                (_, [false, true]) => result::SECOND_FORFEIT,
                _ => result::DOUBLE_FORFEIT,
            }
        } else {
            result::DRAW
        };
        let numbers = [Some(p.new.first), p.new.second];
        let round = p.new.round;
        if !self.record_result(id, pairing_id, r).await {
            return;
        }
        let now = self.now_ms();
        match kind {
            Kind::Arena => {
                for (number, here) in numbers.into_iter().zip(present) {
                    let Some(number) = number else { continue };
                    self.free_since.insert((id, number), now);
                    if !here {
                        self.pause(id, number).await;
                    }
                }
                self.pair_arena(id).await;
            }
            Kind::Swiss | Kind::RoundRobin => {
                if self.live.get(&id).is_some_and(|l| l.round_done(round)) {
                    self.next_round(id).await;
                }
            }
        }
    }

    /// Pauses an arena entrant who was absent from its game (joining again brings it back).
    async fn pause(&mut self, id: EventId, number: u32) {
        if let Ok(t) = tables(&self.store) {
            if let Err(e) = t.set_withdrawn(id, number, true).await {
                tracing::error!(event = id, error = %e, "could not pause an absent entrant");
                return;
            }
        }
        if let Some(e) = self
            .live
            .get_mut(&id)
            .and_then(|l| l.entrants.iter_mut().find(|e| e.number == number))
        {
            e.withdrawn = true;
        }
    }

    /// Reads the upcoming and running events back (at start): their games still being played are followed,
    /// the results of those that ended meanwhile are taken, pairings without a room get one, and a round that
    /// had ended is followed by the next.
    async fn resume(&mut self) -> Result<(), ApiError> {
        let t = tables(&self.store)?;
        let mut records = t
            .events_with_status("running", MAX_OPEN as u32)
            .await
            .map_err(ApiError::internal)?;
        records.extend(
            t.events_with_status("upcoming", MAX_OPEN as u32)
                .await
                .map_err(ApiError::internal)?,
        );
        let mut ended = Vec::new();
        let mut unopened = Vec::new();
        for record in records {
            let id = record.id;
            let entrants = t.entrants(id).await.map_err(ApiError::internal)?;
            let pairings = t.pairings(id).await.map_err(ApiError::internal)?;
            for p in pairings
                .iter()
                .filter(|p| p.new.result.is_none() && p.new.second.is_some())
            {
                match p.game_id {
                    Some(game) => {
                        self.by_game.insert(game, (id, p.id));
                        let stored = self.store.game(game).await.map_err(ApiError::internal)?;
                        if let Some(g) = stored.filter(|g| g.end.is_some()) {
                            ended.push(g);
                        }
                    }
                    None => unopened.push((id, p.id)),
                }
            }
            self.live.insert(
                id,
                Live {
                    record,
                    entrants,
                    pairings,
                },
            );
        }
        if !self.live.is_empty() {
            tracing::info!(events = self.live.len(), "resumed events");
        }
        for g in ended {
            let end = g.end.as_ref().expect("ended");
            let key = |p: &store::PlayerRef| match p.user_id {
                Some(u) => format!("u{u}"),
                None => p.name.clone(),
            };
            let winner = end.winner.map(|side| {
                let (black, white) =
                    crate::stored::seats_of(&g).arrange(&g.game.black, &g.game.white);
                key(if side == store::Side::Black {
                    black
                } else {
                    white
                })
            });
            let over = GameOver {
                game_id: g.id,
                winner,
                aborted: end.aborted,
                players: [None, None],
                present: [true, true],
            };
            self.game_over_resumed(over).await;
        }
        for (id, pairing) in unopened {
            self.open(id, pairing).await;
        }
        let ids: Vec<EventId> = self.live.keys().copied().collect();
        for id in ids {
            let Some(live) = self.live.get(&id) else {
                continue;
            };
            let round = live.paired_rounds();
            if live.record.status == "running"
                && live.kind() != Kind::Arena
                && live.round_done(round)
            {
                self.next_round(id).await;
            }
        }
        Ok(())
    }

    /// A game that ended while no task listened: its stored winner is matched to the entrants by account (or
    /// name), both players counted as present.
    async fn game_over_resumed(&mut self, mut over: GameOver) {
        let Some(&(id, pairing_id)) = self.by_game.get(&over.game_id) else {
            return;
        };
        let Some(live) = self.live.get(&id) else {
            return;
        };
        let Some(p) = live.pairings.iter().find(|p| p.id == pairing_id) else {
            return;
        };
        let entrant_key = |n: u32| {
            live.entrant(n).map(|e| {
                let guest_name = e.new.name.clone();
                (
                    e.new.player_key.clone(),
                    e.new.user_id.map_or(guest_name, |u| format!("u{u}")),
                )
            })
        };
        let keys: Vec<(String, String)> = [Some(p.new.first), p.new.second]
            .into_iter()
            .flatten()
            .filter_map(entrant_key)
            .collect();
        over.winner = over.winner.and_then(|w| {
            keys.iter()
                .find(|(_, k)| *k == w)
                .map(|(key, _)| key.clone())
        });
        over.players = [
            keys.first().map(|k| k.0.clone()),
            keys.get(1).map(|k| k.0.clone()),
        ];
        self.game_over(over).await;
    }
}

/// A Swiss round's pairings by the Dutch system (`None`: it cannot be paired, so the event ends).
fn swiss_round(live: &Live, round: u32, now: i64) -> Option<Vec<NewPairing>> {
    let replayed = standings::replay(&live.record, &live.entrants, &live.pairings)
        .inspect_err(
            |e| tracing::error!(event = live.record.id, error = %e, "a Swiss does not replay"),
        )
        .ok()?;
    let active = replayed
        .swiss
        .players
        .iter()
        .filter(|p| !p.withdrawn)
        .count();
    if active < 2 {
        return None;
    }
    let pairing = tournament::dutch::pair(&replayed.swiss, &[])
        .inspect_err(|e| tracing::warn!(event = live.record.id, error = ?e, "a Swiss round could not be paired"))
        .ok()?;
    let number = |id: u32| replayed.numbers[id as usize - 1];
    let mut out: Vec<NewPairing> = pairing
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| NewPairing {
            round,
            board: i as u32 + 1,
            first: number(b.white),
            second: Some(number(b.black)),
            result: None,
            created_at: now,
        })
        .collect();
    if let Some(bye) = pairing.bye {
        out.push(NewPairing {
            round,
            board: out.len() as u32 + 1,
            first: number(bye),
            second: None,
            result: Some(result::BYE.to_owned()),
            created_at: now,
        });
    }
    Some(out)
}

/// A round robin's round from the Berger table; a withdrawn entrant's game is forfeited as it is paired.
fn round_robin_round(live: &Live, round: u32, now: i64) -> Vec<NewPairing> {
    let order = standings::seeding(&live.entrants);
    let Ok(schedule) = tournament::berger::round_robin(order.len() as u32) else {
        return Vec::new();
    };
    let Some(r) = schedule.get(round as usize - 1) else {
        return Vec::new();
    };
    let number = |berger: u32| order[berger as usize - 1];
    let withdrawn = |n: u32| live.entrant(n).is_some_and(|e| e.withdrawn);
    let mut out: Vec<NewPairing> = r
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let (first, second) = (number(g.white), number(g.black));
            let result = match (withdrawn(first), withdrawn(second)) {
                (false, false) => None,
                (false, true) => Some(result::FIRST_FORFEIT),
                (true, false) => Some(result::SECOND_FORFEIT),
                (true, true) => Some(result::DOUBLE_FORFEIT),
            };
            NewPairing {
                round,
                board: i as u32 + 1,
                first,
                second: Some(second),
                result: result.map(str::to_owned),
                created_at: now,
            }
        })
        .collect();
    if let Some(bye) = r.bye {
        out.push(NewPairing {
            round,
            board: out.len() as u32 + 1,
            first: number(bye),
            second: None,
            result: Some(result::REST.to_owned()),
            created_at: now,
        });
    }
    out
}
