//! One game's computer player: a task with an in-process connection (`ws::loopback`) that goes through the same
//! reader as a person's socket (hello with its account's token, rate limits, the room's validation,
//! acknowledgements after the durable write), follows the room with the typed client's [`Requests`] and
//! [`Replica`], and plays the engine's decisions.
//!
//! - When it must act, it takes the position from the replica's game and queues a search on the pool with a
//!   cancel flag; any event that changes the position (a takeback, the end of the game, a new game) sets the flag
//!   and forgets the search, so a stale result is never played.
//! - It reads every frame as it comes (its queue never fills, so it is never kicked as a slow client).
//! - It answers offers ([`super::answers`]), never offers anything itself, and leaves when its opponent leaves
//!   (or is gone once the game is over), so the room closes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use client::{Replica, Requests};
use engine::{Engine, Limits, TimeBudget};
use games::Game;
use protocol::{
    ClientMessage, Clocks, Frame, JoinRole, OfferKind, RoomEvent, RoomSnapshot, RoomState,
    ServerMessage, TimeControl,
};
use rules::{Action, Color, Rules};
use tokio::sync::oneshot;

use super::account::Account;
use super::answers;
use super::external::{Piskvork, Setup};
use super::pool::{AnySearch, AnySearched, Search, Searched};
use super::{Opponent, Ticket};
use crate::room::RoomError;
use crate::ws::loopback::{Loopback, Received};
use crate::AppState;

/// How long the computer waits for the answer to its hello, join or leave.
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Refusals of its own actions in a row after which the computer resigns rather than try for ever.
const MAX_REFUSALS: u32 = 3;

/// The longest a registered brain of another game thinks about one move (its level's own cap may be shorter).
const ANY_MOVE_CAP: Duration = Duration::from_secs(2);

/// The computer's seat in one room.
pub struct Player {
    state: AppState,
    account: Account,
    opponent: Opponent,
    room: String,
    seed: u64,
    max_time: Option<Duration>,
    ticket: Ticket,
}

/// What the position is, as far as a search is concerned: a search for one key is stale under another.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    game_id: Option<i64>,
    /// The game's action count.
    at: Option<u32>,
    /// Every action so far (a takeback and other actions can come back to the same count).
    actions: Vec<String>,
    to_act: Option<Color>,
}

/// What thinks for the computer, moved into each search and back.
enum Brain {
    /// The server's engine (its transposition table goes with it).
    Own(Box<Engine>),
    /// An external engine's process.
    External(Box<Piskvork>),
    /// The registered brain of another game than Gomoku (`engine::brain`).
    Any(Box<dyn engine::brain::Brain>),
}

/// What came of a search.
enum Outcome {
    /// An action, with the search's score for the computer (0 from an external engine).
    Decided(Action, i32),
    /// An action of another game than Gomoku, from its registered brain.
    DecidedAny(games::AnyAction),
    /// Nothing (cancelled, or the game had ended).
    Nothing,
    /// The external engine failed: the computer loses, saying why.
    Failed(String),
}

/// A search's answer: the brain back, and the outcome.
struct Thought {
    brain: Option<Brain>,
    outcome: Outcome,
}

/// A search on the pool (or by an external engine).
struct Thinking {
    key: Key,
    cancel: Arc<AtomicBool>,
    answer: oneshot::Receiver<Thought>,
}

impl Drop for Thinking {
    fn drop(&mut self) {
        // Forgotten means stale: the thread stops at once and its result is thrown away.
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The room as the computer follows it.
struct Table {
    replica: Replica,
    rules: Option<Rules>,
    rated: bool,
    time_control: TimeControl,
    /// The last clocks the room sent, and when they came.
    clocks: Option<(Clocks, Instant)>,
    opponent_connected: bool,
}

/// What to do after a frame.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    /// Leave the room (and end).
    Leave,
    /// The room or the connection is gone: end.
    Stop,
}

impl Player {
    /// The computer of `account` for room `room`, its engine seeded with `seed` (and capped at `max_time` per
    /// move in place of its level's cap, when given), counted by `ticket` while it plays.
    pub(super) fn new(
        state: AppState,
        account: Account,
        room: String,
        seed: u64,
        max_time: Option<Duration>,
        ticket: Ticket,
    ) -> Player {
        Player {
            state,
            account,
            opponent: ticket.opponent().clone(),
            room,
            seed,
            max_time,
            ticket,
        }
    }

    /// Connects, sits down in the room (telling `ready` whether it could) and plays until it leaves.
    pub async fn play(self, ready: Option<oneshot::Sender<Result<(), RoomError>>>) {
        let mut session = Session {
            link: Loopback::open(&self.state),
            requests: Requests::new(),
            last_action: 0,
        };
        let seated = self.sit_down(&mut session).await;
        let table = match seated {
            Ok(table) => {
                if let Some(ready) = ready {
                    let _ = ready.send(Ok(()));
                }
                table
            }
            Err(e) => {
                tracing::info!(room = %self.room, code = %e.code, "the computer could not sit down");
                if let Some(ready) = ready {
                    let _ = ready.send(Err(e));
                }
                return;
            }
        };
        tracing::debug!(room = %self.room, opponent = ?self.opponent, "the computer sat down");
        let mut brain: Option<Brain> = None;
        if self.run(&mut session, table, &mut brain).await == Flow::Leave {
            let leave = ClientMessage::Leave {
                room: self.room.clone(),
            };
            // Waited for: the leave is handled before the connection goes.
            let _ = session.request(&leave).await;
        }
        // An external engine's process ends with its player: killed and reaped, not left to the runtime.
        if let Some(Brain::External(process)) = brain {
            process.stop().await;
        }
        tracing::debug!(room = %self.room, "the computer left");
    }

    /// Hello with the account's token, then a join as a player: the room's snapshot.
    async fn sit_down(&self, session: &mut Session) -> Result<Table, RoomError> {
        let hello = ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token: Some(self.account.token.clone()),
        };
        match session.request(&hello).await {
            Some(ServerMessage::Welcome { .. }) => {}
            other => return Err(refusal(other)),
        }
        let join = ClientMessage::Join {
            room: self.room.clone(),
            role: JoinRole::Player,
            since: None,
        };
        match session.request(&join).await {
            Some(ServerMessage::Room { room }) => self.table(&room),
            other => Err(refusal(other)),
        }
    }

    /// The room as a snapshot shows it.
    fn table(&self, snap: &RoomSnapshot) -> Result<Table, RoomError> {
        // The replica finds the computer's seat by its account's own name (an external engine's is `engine-NAME`,
        // no level's): after a rematch's exchange of colours it must still know which seat is its own (#35).
        let replica = Replica::from_snapshot(snap, Some(&self.account.name))
            .map_err(|e| RoomError::new(protocol::code::INTERNAL, e.to_string()))?;
        // A Gomoku room under the modern openings sends the generic form: its rules are in `game`.
        let rules = snap.rules.and_then(|r| r.to_rules().ok()).or_else(|| {
            match snap.game.as_ref()?.to_config().ok()? {
                games::AnyConfig::Gomoku(config) => Some(config.rules()),
                _ => None,
            }
        });
        let me = replica.you;
        let opponent = me.and_then(|c| match c.opposite() {
            Color::Black => snap.seats.black.as_ref(),
            Color::White => snap.seats.white.as_ref(),
        });
        Ok(Table {
            replica,
            rules,
            rated: snap.rated,
            time_control: snap.time_control,
            clocks: snap.clocks.map(|c| (c, Instant::now())),
            opponent_connected: opponent.is_some_and(|s| s.connected),
        })
    }

    /// Plays until the room is gone or the computer should leave it.
    async fn run(
        &self,
        session: &mut Session,
        mut table: Table,
        brain: &mut Option<Brain>,
    ) -> Flow {
        let mut thinking: Option<Thinking> = None;
        // The position the computer last acted in (its action is on its way), and refusals in a row.
        let mut sent: Option<Key> = None;
        let mut refusals = 0;
        let mut last_score: Option<i32> = None;
        // Once a game is over the computer waits for a rematch as long as a player may be idle, then leaves: a
        // person cannot keep its seat (and its place among the games it plays) by sitting in a finished room.
        let linger = Duration::from_secs(self.state.config.idle_claim_secs);
        let mut over_since: Option<Instant> = None;
        loop {
            while let Some(frame) = session.requests.next_kept() {
                match self
                    .on_frame(session, &mut table, frame, &mut last_score)
                    .await
                {
                    Flow::Continue => {}
                    other => return other,
                }
            }
            let key = key_of(&table.replica);
            if thinking.as_ref().is_some_and(|t| t.key != key) {
                // The position changed under the search (takeback, resignation, game over, new game).
                thinking = None;
            }
            if sent.as_ref().is_some_and(|k| *k != key) {
                sent = None;
                refusals = 0;
            }
            if thinking.is_none() && sent.is_none() && table.replica.my_turn() {
                thinking = self.think(&table, key, brain);
            }
            if table.replica.state == RoomState::Over {
                over_since.get_or_insert_with(|| self.state.clock.now());
            } else {
                over_since = None;
            }
            // On the server's clock, as the room's own deadlines.
            let leave_at = over_since.map(|at| self.state.clock.sleep_until(at + linger));
            tokio::select! {
                () = async { leave_at.expect("guarded").await }, if leave_at.is_some() => {
                    tracing::debug!(room = %self.room, "no rematch: the computer leaves the finished game");
                    return Flow::Leave;
                }
                received = session.link.recv() => match received {
                    Received::Text(text) => match client::decode(&text) {
                        Ok(frame) => {
                            if frame.rid.is_some_and(|rid| rid == session.last_action) {
                                if let ServerMessage::Error { code, message, .. } = &frame.msg {
                                    tracing::warn!(room = %self.room, %code, %message, "the computer's action was refused");
                                    refusals += 1;
                                    sent = None;
                                    if refusals >= MAX_REFUSALS {
                                        let resign = ClientMessage::Resign { room: self.room.clone() };
                                        session.send(&resign).await;
                                    }
                                }
                            }
                            session.requests.keep(frame);
                        }
                        Err(e) => tracing::warn!(error = %e, "the computer could not read a frame"),
                    },
                    Received::Closed => return Flow::Stop,
                },
                searched = async { (&mut thinking.as_mut().expect("guarded").answer).await }, if thinking.is_some() => {
                    let done = thinking.take().expect("guarded");
                    let key = done.key.clone();
                    drop(done);
                    let Ok(Thought { brain: back, outcome }) = searched else { continue };
                    *brain = back;
                    let (action, score) = match outcome {
                        Outcome::Decided(action, score) => (action, score),
                        Outcome::DecidedAny(action) => {
                            if key != key_of(&table.replica) {
                                continue;
                            }
                            let Some(at) = table.replica.next_at() else { continue };
                            let msg = ClientMessage::Act {
                                room: self.room.clone(),
                                action: action.notation(),
                                at,
                            };
                            session.last_action = session.send(&msg).await;
                            sent = Some(key);
                            continue;
                        }
                        Outcome::Nothing => continue,
                        Outcome::Failed(why) => {
                            self.forfeit(session, &why).await;
                            sent = Some(key);
                            continue;
                        }
                    };
                    if key != key_of(&table.replica) {
                        // Cannot happen (events are read in this loop), but a stale result is never played.
                        continue;
                    }
                    last_score = Some(score);
                    let Some(at) = table.replica.next_at() else {
                        continue;
                    };
                    let msg = self.message(action, at);
                    session.last_action = session.send(&msg).await;
                    sent = Some(key);
                }
            }
        }
    }

    /// Queues a search of the position for the side to act (the computer).
    fn think(&self, table: &Table, key: Key, brain: &mut Option<Brain>) -> Option<Thinking> {
        if let Some(game) = table
            .replica
            .game
            .as_ref()
            .filter(|g| g.kind() != games::GameKind::Gomoku)
        {
            return self.think_any(table, key, game.clone(), brain);
        }
        let r = &table.replica;
        // The replica keeps the game itself, for Gomoku as for every game.
        let game = match &r.game {
            Some(games::AnyGame::Gomoku(g)) => g.rules_game().clone(),
            _ => return None,
        };
        let time = budget(&table.time_control, table.clocks.as_ref(), r.you?);
        let cancel = Arc::new(AtomicBool::new(false));
        let (reply, answer) = oneshot::channel();
        match &self.opponent {
            Opponent::Level(level) => {
                let limits = Limits {
                    level: *level,
                    max_nodes: None,
                    max_time: self.max_time,
                };
                let engine = match brain.take() {
                    Some(Brain::Own(engine)) => engine,
                    _ => Box::new(Engine::new(limits, self.seed)),
                };
                let search = Search { engine, game, time };
                // Queued in the queue of the person the computer plays (or of the room, for a restored game),
                // whose turn comes round robin among the players.
                let queue = self.queue();
                let searched = self
                    .state
                    .computer
                    .pool()
                    .search(queue, search, cancel.clone());
                tokio::spawn(async move {
                    if let Ok(Searched {
                        engine, decision, ..
                    }) = searched.await
                    {
                        let outcome = decision
                            .map_or(Outcome::Nothing, |d| Outcome::Decided(d.action, d.score));
                        let _ = reply.send(Thought {
                            brain: Some(Brain::Own(engine)),
                            outcome,
                        });
                    }
                });
            }
            Opponent::External(spec) => {
                let spec = spec.clone();
                let limits = self.state.computer.engine_limits();
                // The engine's own time, within what the room's clock leaves.
                let turn = limits.move_time.min(time.allot(limits.move_time));
                let setup = Setup {
                    size: game.rules().size(),
                    rule_set: game.rules().rule_set(),
                    limits: limits.process,
                };
                let process = match brain.take() {
                    Some(Brain::External(p)) => Some(p),
                    _ => None,
                };
                let mut reply = reply;
                tokio::spawn(async move {
                    let mut process = match process {
                        Some(p) => p,
                        None => match Piskvork::start(&spec, setup).await {
                            Ok(p) => Box::new(p),
                            Err(e) => {
                                let why = format!("engine {} {e}", spec.name);
                                let _ = reply.send(Thought {
                                    brain: None,
                                    outcome: Outcome::Failed(why),
                                });
                                return;
                            }
                        },
                    };
                    // A search the player forgot (the position changed, or the player ended) ends its process
                    // at once: killed and reaped; the next move starts a fresh one.
                    let best = tokio::select! {
                        best = process.best(&game, turn) => Some(best),
                        () = reply.closed() => None,
                    };
                    let Some(best) = best else {
                        process.stop().await;
                        return;
                    };
                    let thought = match best {
                        Ok(action) => Thought {
                            brain: Some(Brain::External(process)),
                            outcome: Outcome::Decided(action, 0),
                        },
                        Err(e) => {
                            process.stop().await;
                            Thought {
                                brain: None,
                                outcome: Outcome::Failed(format!("engine {} {e}", spec.name)),
                            }
                        }
                    };
                    if let Err(Thought {
                        brain: Some(Brain::External(process)),
                        ..
                    }) = reply.send(thought)
                    {
                        // Forgotten just as it answered.
                        process.stop().await;
                    }
                });
            }
        }
        Some(Thinking {
            key,
            cancel,
            answer,
        })
    }

    /// The pool queue this game's searches wait in: the person the computer plays (or the room, for a restored
    /// game whose asker is unknown).
    fn queue(&self) -> &str {
        self.ticket
            .asker()
            .map_or(self.room.as_str(), |a| a.player.as_str())
    }

    /// Queues a search by the game's registered brain (any game but Gomoku): the first brain of its list at the
    /// computer's level, clamped into the levels the brain has.
    fn think_any(
        &self,
        table: &Table,
        key: Key,
        game: games::AnyGame,
        brain: &mut Option<Brain>,
    ) -> Option<Thinking> {
        let Opponent::Level(level) = &self.opponent else {
            return None;
        };
        let kind = game.kind();
        let mind = match brain.take() {
            Some(Brain::Any(b)) => b,
            _ => {
                let info = engine::brain::brains(kind).first()?;
                let level = (*level).clamp(*info.levels.start(), *info.levels.end());
                (info.make)(level, self.seed)
            }
        };
        let time = budget(
            &table.time_control,
            table.clocks.as_ref(),
            table.replica.you?,
        );
        let cap = self.max_time.unwrap_or(ANY_MOVE_CAP).min(ANY_MOVE_CAP);
        let search = AnySearch {
            brain: mind,
            game,
            budget: time.allot(cap),
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let (reply, answer) = oneshot::channel();
        let queue = self.queue();
        let searched = self
            .state
            .computer
            .pool()
            .search_any(queue, search, cancel.clone());
        tokio::spawn(async move {
            if let Ok(AnySearched { brain, action }) = searched.await {
                let _ = reply.send(Thought {
                    brain: Some(Brain::Any(brain)),
                    outcome: action.map_or(Outcome::Nothing, Outcome::DecidedAny),
                });
            }
        });
        Some(Thinking {
            key,
            cancel,
            answer,
        })
    }

    /// The external engine failed: the computer says why in the room's chat and resigns (the server and the
    /// room go on).
    async fn forfeit(&self, session: &mut Session, why: &str) {
        tracing::warn!(room = %self.room, %why, "an external engine loses");
        let chat = ClientMessage::Chat {
            room: self.room.clone(),
            text: format!("{why}: it loses the game"),
        };
        session.send(&chat).await;
        let resign = ClientMessage::Resign {
            room: self.room.clone(),
        };
        session.last_action = session.send(&resign).await;
    }

    /// The wire message of an engine's action, as a person's client sends it: the generic `act` at the game's
    /// action count `at`.
    fn message(&self, action: Action, at: u32) -> ClientMessage {
        ClientMessage::Act {
            room: self.room.clone(),
            action: <games::Gomoku as games::Game>::notation(&action),
            at,
        }
    }

    /// Follows one frame: the replica, the clocks, the opponent's presence and offers.
    async fn on_frame(
        &self,
        session: &mut Session,
        table: &mut Table,
        frame: Frame<ServerMessage>,
        last_score: &mut Option<i32>,
    ) -> Flow {
        match frame.msg {
            ServerMessage::Room { room } if room.id == self.room => match self.table(&room) {
                Ok(fresh) => *table = fresh,
                Err(e) => {
                    tracing::error!(room = %self.room, error = %e.message, "the computer cannot follow the room");
                    return Flow::Leave;
                }
            },
            ServerMessage::CatchUp { room, events } if room == self.room => {
                let since = table.replica.version;
                if table.replica.catch_up(since, &events).is_err() {
                    self.resync(session).await;
                }
            }
            ServerMessage::Event {
                room,
                version,
                event,
            } if room == self.room => {
                if let Err(e) = table.replica.apply(version, &event) {
                    tracing::warn!(room = %self.room, error = %e, "the computer resynchronises");
                    self.resync(session).await;
                    return Flow::Continue;
                }
                return self.on_event(session, table, &event, last_score).await;
            }
            _ => {}
        }
        Flow::Continue
    }

    /// What an event means for the computer beyond the replica.
    async fn on_event(
        &self,
        session: &mut Session,
        table: &mut Table,
        event: &RoomEvent,
        last_score: &mut Option<i32>,
    ) -> Flow {
        let me = table.replica.you;
        let theirs = |colour: &Color| me.is_some_and(|m| m != *colour);
        let clocks = match event {
            RoomEvent::Action { clocks, .. }
            | RoomEvent::ActionsTakenBack { clocks, .. }
            | RoomEvent::GameStarted { clocks, .. } => *clocks,
            _ => None,
        };
        if let Some(c) = clocks {
            table.clocks = Some((c, Instant::now()));
        }
        let room = self.room.clone();
        match event {
            RoomEvent::GameStarted { .. } => {
                *last_score = None;
                table.opponent_connected = true;
            }
            RoomEvent::PlayerLeft { colour, .. } if theirs(colour) => return Flow::Leave,
            RoomEvent::PlayerDisconnected { colour, .. } if theirs(colour) => {
                table.opponent_connected = false;
                if table.replica.state != RoomState::Playing {
                    return Flow::Leave;
                }
            }
            RoomEvent::PlayerReconnected { colour, .. } if theirs(colour) => {
                table.opponent_connected = true;
            }
            RoomEvent::GameOver { .. } if !table.opponent_connected => return Flow::Leave,
            RoomEvent::RoomClosed { .. } => return Flow::Stop,
            RoomEvent::Offered { offer, by } if theirs(by) => {
                let answer = match offer {
                    OfferKind::Takeback => ClientMessage::AnswerTakeback {
                        room,
                        accept: answers::accept_takeback(table.rated),
                    },
                    OfferKind::Draw => ClientMessage::AnswerDraw {
                        room,
                        accept: answers::accept_draw(
                            table.rules.map_or(15, |r| r.size()),
                            table.replica.next_ply() as usize - 1,
                            *last_score,
                        ),
                    },
                    OfferKind::Rematch => ClientMessage::AnswerRematch {
                        room,
                        accept: answers::accept_rematch(),
                    },
                };
                session.send(&answer).await;
            }
            _ => {}
        }
        Flow::Continue
    }

    /// Asks for a fresh snapshot (a join without `since`), as any client whose replica lost track does.
    async fn resync(&self, session: &mut Session) {
        let join = ClientMessage::Join {
            room: self.room.clone(),
            role: JoinRole::Player,
            since: None,
        };
        session.send(&join).await;
    }
}

/// The connection and its request bookkeeping.
struct Session {
    link: Loopback,
    requests: Requests,
    last_action: u64,
}

impl Session {
    /// Sends a message under a fresh request id, and returns the id.
    async fn send(&mut self, msg: &ClientMessage) -> u64 {
        let (rid, text) = self.requests.encode(msg);
        self.link.send(text).await;
        rid
    }

    /// Sends a message and waits for its answer, keeping the frames that come meanwhile; `None` when the
    /// connection ended or the answer did not come in time.
    async fn request(&mut self, msg: &ClientMessage) -> Option<ServerMessage> {
        let rid = self.send(msg).await;
        let deadline = tokio::time::Instant::now() + ANSWER_WAIT;
        loop {
            let received = tokio::time::timeout_at(deadline, self.link.recv())
                .await
                .ok()?;
            let Received::Text(text) = received else {
                return None;
            };
            match client::decode(&text) {
                Ok(frame) if frame.rid == Some(rid) => return Some(frame.msg),
                Ok(frame) => self.requests.keep(frame),
                Err(e) => tracing::warn!(error = %e, "the computer could not read a frame"),
            }
        }
    }
}

/// A refusal from the room (or the connection's end) as a room error.
fn refusal(answer: Option<ServerMessage>) -> RoomError {
    match answer {
        Some(ServerMessage::Error {
            code,
            message,
            retry_after_ms,
        }) => RoomError {
            code: code.into(),
            message,
            retry_after: retry_after_ms.map(Duration::from_millis),
        },
        _ => RoomError::new(
            protocol::code::INTERNAL,
            "the computer could not sit down; try again",
        ),
    }
}

/// The position's key.
fn key_of(r: &Replica) -> Key {
    Key {
        game_id: r.game_id,
        at: r.next_at(),
        actions: r.game.as_ref().map_or_else(Vec::new, |g| {
            g.actions().iter().map(|a| a.notation()).collect()
        }),
        to_act: r.to_act,
    }
}

/// The computer's clock as the engine reads it: the room's last clocks, less the time since they came when the
/// computer's clock was running.
fn budget(tc: &TimeControl, clocks: Option<&(Clocks, Instant)>, me: Color) -> TimeBudget {
    let Some((clocks, at)) = clocks else {
        return TimeBudget::Unlimited;
    };
    let side = match me {
        Color::Black => clocks.black,
        Color::White => clocks.white,
    };
    let elapsed = if clocks.running == Some(me) {
        at.elapsed()
    } else {
        Duration::ZERO
    };
    let left = Duration::from_millis(side.remaining_ms).saturating_sub(elapsed);
    match *tc {
        TimeControl::None => TimeBudget::Unlimited,
        TimeControl::Fischer { increment_ms, .. } => TimeBudget::Fischer {
            remaining: left,
            increment: Duration::from_millis(increment_ms),
        },
        TimeControl::ByoYomi { period_ms, .. } => {
            let periods = side.periods.unwrap_or(0);
            if side.byo_yomi {
                // In the periods: what is left of this one is all a move may count on.
                TimeBudget::ByoYomi {
                    remaining: Duration::ZERO,
                    period: left.min(Duration::from_millis(period_ms)),
                    periods,
                }
            } else {
                TimeBudget::ByoYomi {
                    remaining: left,
                    period: Duration::from_millis(period_ms),
                    periods,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use protocol::SideClock;

    use super::*;

    fn clocks(black_ms: u64, running: Option<Color>, byo_yomi: bool) -> Clocks {
        let side = |ms| SideClock {
            remaining_ms: ms,
            periods: Some(3),
            byo_yomi,
            first_move_ms: None,
        };
        Clocks {
            black: side(black_ms),
            white: side(60_000),
            running,
        }
    }

    #[test]
    fn the_engine_reads_the_computers_own_clock_less_the_time_since_it_was_sent() {
        let fischer = TimeControl::Fischer {
            base_ms: 60_000,
            increment_ms: 2_000,
        };
        let sent = (
            clocks(30_000, Some(Color::Black), false),
            Instant::now() - Duration::from_secs(1),
        );
        let TimeBudget::Fischer {
            remaining,
            increment,
        } = budget(&fischer, Some(&sent), Color::Black)
        else {
            panic!("a Fischer budget")
        };
        assert!(remaining <= Duration::from_millis(29_000), "{remaining:?}");
        assert_eq!(increment, Duration::from_secs(2));
        let TimeBudget::Fischer { remaining, .. } = budget(&fischer, Some(&sent), Color::White)
        else {
            panic!("a Fischer budget")
        };
        assert_eq!(
            remaining,
            Duration::from_secs(60),
            "white's clock is not running"
        );
        assert_eq!(
            budget(&TimeControl::None, Some(&sent), Color::Black),
            TimeBudget::Unlimited
        );
        assert_eq!(budget(&fischer, None, Color::Black), TimeBudget::Unlimited);
    }

    #[test]
    fn in_byo_yomi_a_move_counts_only_on_what_is_left_of_the_period() {
        let tc = TimeControl::ByoYomi {
            base_ms: 0,
            periods: 3,
            period_ms: 10_000,
        };
        let sent = (clocks(4_000, Some(Color::Black), true), Instant::now());
        let TimeBudget::ByoYomi {
            remaining,
            period,
            periods,
        } = budget(&tc, Some(&sent), Color::Black)
        else {
            panic!("a byo-yomi budget")
        };
        assert_eq!(remaining, Duration::ZERO);
        assert!(period <= Duration::from_secs(4));
        assert_eq!(periods, 3);
    }
}
