//! Challenges: one player challenges a registered player by name; the challenged player's connections get a
//! notice, and accepting opens a room with both seated (as quick pairing does), declining tells the challenger
//! why. One task owns every open challenge and knows every connection by player, like the lobby.
//!
//! Limits: a challenger holds at most [`MAX_OPEN_PER_PLAYER`] open challenges; after a decline the same
//! challenger may not challenge the same player again for [`DECLINE_COOLDOWN`], and after withdrawing a challenge
//! (cancelling it or closing its connection) for `--challenge-cancel-cooldown-secs`; a challenge expires after
//! `--challenge-expiry-secs` (60 by default). A challenge is withdrawn when the challenger's connection closes.
//!
//! Every challenge is a notice on each of the challenged player's tabs, so challenges are also rate-limited by
//! token buckets (#35: one guest on ten sockets sent 295 notices in ten seconds): per challenger
//! (`--challenge-burst`, `--challenges-per-minute`) and per challenged player, from all challengers together
//! (`--challenge-burst-per-recipient`, `--challenges-per-minute-per-recipient`). A refused challenge costs nothing
//! and is answered `challenge_rate_limited` with the wait.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use protocol::{code, encode, ChallengeView, ColourChoice, JoinRole, ServerMessage};
use rules::Color;
use tokio::sync::{mpsc, oneshot};

use crate::accounts::rate_limit::{Limit, RateLimiter};
use crate::identity::Identity;
use crate::room::{RoomError, Settings};
use crate::ws::outbox::{ConnId, Outbox, SendError};
use crate::AppState;

/// Open challenges one player may have made at once.
pub const MAX_OPEN_PER_PLAYER: usize = 3;
/// How long a declined challenger waits before challenging the same player again.
pub const DECLINE_COOLDOWN: Duration = Duration::from_secs(60);
/// The reasons a decline may give.
pub const DECLINE_REASONS: &[&str] = &[
    "generic",
    "later",
    "time_control",
    "rated",
    "casual",
    "rules",
];

/// A connection as the challenges see it: where its frames go and where rooms opened for it are handed over.
#[derive(Clone, Debug)]
pub struct Reach {
    /// Its frames.
    pub outbox: Outbox,
    /// Rooms opened for it (its connection leaves them when it closes).
    pub adopt: mpsc::UnboundedSender<Arc<str>>,
    /// Its address.
    pub ip: IpAddr,
}

/// A new challenge, validated by the connection.
#[derive(Debug)]
pub struct NewChallenge {
    /// The challenger.
    pub from: Identity,
    /// The challenger's connection.
    pub reach: Reach,
    /// The challenged account.
    pub to: Identity,
    /// The room it would open (its `colour` is the challenger's).
    pub settings: Settings,
    /// The request id the `challenge` answer carries.
    pub rid: Option<u64>,
    /// How many games (a match when more than 1; checked by `crate::matches::check_games`).
    pub games: u32,
}

struct Open {
    from: Identity,
    reach: Reach,
    to: Identity,
    settings: Settings,
    expires: Instant,
    games: u32,
}

enum Command {
    Connect {
        player: String,
        reach: Reach,
    },
    Disconnect(ConnId),
    Create(NewChallenge, oneshot::Sender<Result<(), RoomError>>),
    Answer {
        by: Identity,
        reach: Reach,
        id: u64,
        accept: bool,
        reason: Option<String>,
        reply: oneshot::Sender<Result<(), RoomError>>,
    },
    Cancel {
        by: Identity,
        id: u64,
        reply: oneshot::Sender<Result<(), RoomError>>,
    },
}

/// A handle to the challenges task.
#[derive(Clone, Debug)]
pub struct ChallengesHandle {
    tx: mpsc::UnboundedSender<Command>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("challenge command")
    }
}

/// The task's inbox until [`start`] runs it.
pub struct ChallengesInbox(mpsc::UnboundedReceiver<Command>);

fn gone() -> RoomError {
    RoomError::new(code::INTERNAL, "challenges are not running")
}

impl ChallengesHandle {
    /// A handle and the inbox [`start`] runs the task on.
    pub fn channel() -> (ChallengesHandle, ChallengesInbox) {
        let (tx, rx) = mpsc::unbounded_channel();
        (ChallengesHandle { tx }, ChallengesInbox(rx))
    }

    /// A connection of `player` opened: it gets the open challenges addressed to the player, and every new one.
    pub fn connect(&self, player: &str, reach: Reach) {
        let _ = self.tx.send(Command::Connect {
            player: player.to_owned(),
            reach,
        });
    }

    /// A connection closed.
    pub fn disconnect(&self, conn: ConnId) {
        let _ = self.tx.send(Command::Disconnect(conn));
    }

    async fn ask(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<(), RoomError>>) -> Command,
    ) -> Result<(), RoomError> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(make(reply)).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    /// Opens a challenge; the task answers the challenger's connection itself.
    pub async fn create(&self, new: NewChallenge) -> Result<(), RoomError> {
        self.ask(|reply| Command::Create(new, reply)).await
    }

    /// Accepts or declines a challenge addressed to `by`.
    pub async fn answer(
        &self,
        by: Identity,
        reach: Reach,
        id: u64,
        accept: bool,
        reason: Option<String>,
    ) -> Result<(), RoomError> {
        self.ask(|reply| Command::Answer {
            by,
            reach,
            id,
            accept,
            reason,
            reply,
        })
        .await
    }

    /// Withdraws a challenge `by` made.
    pub async fn cancel(&self, by: Identity, id: u64) -> Result<(), RoomError> {
        self.ask(|reply| Command::Cancel { by, id, reply }).await
    }
}

/// Starts the challenges task.
pub fn start(inbox: ChallengesInbox, state: AppState) {
    tokio::spawn(run(inbox.0, state));
}

struct Challenges {
    state: AppState,
    open: HashMap<u64, Open>,
    next_id: u64,
    /// Connections by player id.
    conns: HashMap<String, Vec<Reach>>,
    /// Player id by connection.
    players: HashMap<ConnId, String>,
    /// Until when a challenger may not challenge a player, and why, by (challenger id, challenged id).
    cooldown: HashMap<(String, String), (Instant, Cooldown)>,
    /// Challenges sent, by challenger id.
    sent: RateLimiter,
    /// Challenges received, by challenged player id.
    received: RateLimiter,
}

/// Why a challenger waits before challenging a player again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cooldown {
    /// The player declined the last challenge.
    Declined,
    /// The challenger withdrew the last challenge.
    Withdrawn,
}

fn send(outbox: &Outbox, msg: &ServerMessage, rid: Option<u64>) {
    let text: Utf8Bytes = encode(msg, rid).into();
    if outbox.try_send(text) == Err(SendError::Full) {
        outbox.kick();
    }
}

async fn run(mut rx: mpsc::UnboundedReceiver<Command>, state: AppState) {
    let clock = state.clock.clone();
    let config = &state.config;
    let sent = RateLimiter::new(Limit {
        burst: config.challenge_burst,
        per_minute: config.challenges_per_minute,
    });
    let received = RateLimiter::new(Limit {
        burst: config.challenge_burst_per_recipient,
        per_minute: config.challenges_per_minute_per_recipient,
    });
    let mut c = Challenges {
        state,
        open: HashMap::new(),
        next_id: 0,
        conns: HashMap::new(),
        players: HashMap::new(),
        cooldown: HashMap::new(),
        sent,
        received,
    };
    let mut next_tick = clock.now() + Duration::from_secs(1);
    loop {
        let cmd = tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(cmd) => cmd,
                None => break,
            },
            () = clock.sleep_until(next_tick) => {
                next_tick = clock.now() + Duration::from_secs(1);
                c.expire();
                continue;
            }
        };
        match cmd {
            Command::Connect { player, reach } => c.connect(player, reach),
            Command::Disconnect(conn) => c.disconnect(conn),
            Command::Create(new, reply) => {
                let _ = reply.send(c.create(new));
            }
            Command::Answer {
                by,
                reach,
                id,
                accept,
                reason,
                reply,
            } => {
                let r = c.answer(by, reach, id, accept, reason).await;
                let _ = reply.send(r);
            }
            Command::Cancel { by, id, reply } => {
                let _ = reply.send(c.cancel(&by, id));
            }
        }
    }
}

impl Challenges {
    fn view(&self, id: u64, open: &Open) -> ChallengeView {
        let spec = protocol::GameSpec::from(open.settings.config);
        let rules = spec.rules();
        ChallengeView {
            id,
            from: open.from.name.clone(),
            from_guest: open.from.is_guest(),
            to: open.to.name.clone(),
            rules,
            game: rules.is_none().then_some(spec),
            time_control: open.settings.time_control,
            rated: open.settings.rated,
            colour: open.settings.colour,
            games: (open.games > 1).then_some(open.games),
            expires_in_ms: open
                .expires
                .saturating_duration_since(self.state.clock.now())
                .as_millis() as u64,
        }
    }

    fn connect(&mut self, player: String, reach: Reach) {
        for (&id, open) in &self.open {
            if open.to.id == player {
                let challenge = self.view(id, open);
                send(&reach.outbox, &ServerMessage::Challenge { challenge }, None);
            }
        }
        self.players.insert(reach.outbox.id, player.clone());
        self.conns.entry(player).or_default().push(reach);
    }

    /// A connection closed: the challenges it made are withdrawn (their challenger is gone), and it hears of no
    /// more.
    fn disconnect(&mut self, conn: ConnId) {
        let made: Vec<u64> = self
            .open
            .iter()
            .filter(|(_, o)| o.reach.outbox.id == conn)
            .map(|(&id, _)| id)
            .collect();
        for id in made {
            if let Some(open) = self.open.remove(&id) {
                self.withdrawn(&open);
                self.closed(&open, &closed(id, "cancelled", None, None));
            }
        }
        let Some(player) = self.players.remove(&conn) else {
            return;
        };
        if let Some(list) = self.conns.get_mut(&player) {
            list.retain(|r| r.outbox.id != conn);
            if list.is_empty() {
                self.conns.remove(&player);
            }
        }
    }

    /// Sends to every connection of `player`.
    fn tell(&self, player: &str, msg: &ServerMessage) {
        for reach in self.conns.get(player).into_iter().flatten() {
            send(&reach.outbox, msg, None);
        }
    }

    /// Tells both sides a challenge closed.
    fn closed(&self, open: &Open, msg: &ServerMessage) {
        send(&open.reach.outbox, msg, None);
        self.tell(&open.to.id, msg);
    }

    fn create(&mut self, new: NewChallenge) -> Result<(), RoomError> {
        let now = self.state.clock.now();
        let mine = self
            .open
            .values()
            .filter(|o| o.from.id == new.from.id)
            .count();
        if mine >= MAX_OPEN_PER_PLAYER {
            return Err(RoomError::new(
                code::TOO_MANY_CHALLENGES,
                format!("you already have {mine} open challenges"),
            ));
        }
        let pair = (new.from.id.clone(), new.to.id.clone());
        if let Some(&(until, why)) = self.cooldown.get(&pair).filter(|(until, _)| now < *until) {
            let wait = wait_secs(until.saturating_duration_since(now));
            let what = match why {
                Cooldown::Declined => "this player declined your last challenge",
                Cooldown::Withdrawn => "you withdrew your last challenge to this player",
            };
            return Err(RoomError::new(
                code::CHALLENGE_COOLDOWN,
                format!("{what}; try again in {wait} s"),
            ));
        }
        self.cooldown.retain(|_, (until, _)| now < *until);
        // Both buckets or neither: a challenge refused for its recipient's sake costs its sender nothing.
        if let Err(wait) = self.sent.take(&new.from.id, now) {
            return Err(RoomError::new(
                code::CHALLENGE_RATE_LIMITED,
                format!(
                    "you are sending challenges too fast; try again in {} s",
                    wait_secs(wait)
                ),
            ));
        }
        if let Err(wait) = self.received.take(&new.to.id, now) {
            self.sent.refund(&new.from.id, now);
            return Err(RoomError::new(
                code::CHALLENGE_RATE_LIMITED,
                format!(
                    "this player has received too many challenges just now; try again in {} s",
                    wait_secs(wait)
                ),
            ));
        }
        self.next_id += 1;
        let id = self.next_id;
        let open = Open {
            from: new.from,
            reach: new.reach,
            to: new.to,
            settings: new.settings,
            expires: now + Duration::from_secs(self.state.config.challenge_expiry_secs),
            games: new.games,
        };
        let msg = ServerMessage::Challenge {
            challenge: self.view(id, &open),
        };
        send(&open.reach.outbox, &msg, new.rid);
        self.tell(&open.to.id, &msg);
        self.open.insert(id, open);
        Ok(())
    }

    fn expire(&mut self) {
        let now = self.state.clock.now();
        let due: Vec<u64> = self
            .open
            .iter()
            .filter(|(_, o)| o.expires <= now)
            .map(|(&id, _)| id)
            .collect();
        for id in due {
            if let Some(open) = self.open.remove(&id) {
                self.closed(&open, &closed(id, "expired", None, None));
            }
        }
    }

    fn cancel(&mut self, by: &Identity, id: u64) -> Result<(), RoomError> {
        if self.open.get(&id).is_none_or(|o| o.from.id != by.id) {
            return Err(unknown());
        }
        let open = self.open.remove(&id).expect("checked");
        self.withdrawn(&open);
        self.closed(&open, &closed(id, "cancelled", None, None));
        Ok(())
    }

    /// The challenger withdrew `open`: the same challenger waits before challenging the same player again, so
    /// challenging and withdrawing in a loop cannot flood the player's tabs with notices.
    fn withdrawn(&mut self, open: &Open) {
        let cooldown = Duration::from_secs(self.state.config.challenge_cancel_cooldown_secs);
        if cooldown.is_zero() {
            return;
        }
        let until = self.state.clock.now() + cooldown;
        self.cooldown.insert(
            (open.from.id.clone(), open.to.id.clone()),
            (until, Cooldown::Withdrawn),
        );
    }

    async fn answer(
        &mut self,
        by: Identity,
        reach: Reach,
        id: u64,
        accept: bool,
        reason: Option<String>,
    ) -> Result<(), RoomError> {
        if self.open.get(&id).is_none_or(|o| o.to.id != by.id) {
            return Err(unknown());
        }
        if !accept {
            let reason = reason.unwrap_or_else(|| "generic".to_owned());
            if !DECLINE_REASONS.contains(&reason.as_str()) {
                return Err(RoomError::new(
                    code::INVALID_FIELD,
                    format!(
                        "a decline's reason is one of {}",
                        DECLINE_REASONS.join(", ")
                    ),
                ));
            }
            let open = self.open.remove(&id).expect("checked");
            let until = self.state.clock.now() + DECLINE_COOLDOWN;
            self.cooldown.insert(
                (open.from.id.clone(), open.to.id.clone()),
                (until, Cooldown::Declined),
            );
            self.closed(&open, &closed(id, "declined", Some(reason), None));
            return Ok(());
        }
        if self.open[&id].reach.outbox.is_closed() {
            let open = self.open.remove(&id).expect("checked");
            self.withdrawn(&open);
            self.closed(&open, &closed(id, "cancelled", None, None));
            return Err(RoomError::new(
                code::CHALLENGER_GONE,
                "the challenger has left",
            ));
        }
        let open = self.open.remove(&id).expect("checked");
        // The challenger's colour, drawn now when it is random, so both are told which they hold.
        let challenger_colour = match open.settings.colour {
            ColourChoice::White => Color::White,
            ColourChoice::Black => Color::Black,
            _ if rand::random::<bool>() => Color::White,
            _ => Color::Black,
        };
        let mut settings = open.settings;
        settings.colour = match challenger_colour {
            Color::Black => ColourChoice::Black,
            Color::White => ColourChoice::White,
        };
        let handle = match self
            .state
            .rooms
            .create_match(&self.state, settings, open.games, &open.from, open.reach.ip)
            .await
        {
            Ok(h) => h,
            Err(e) => {
                self.closed(&open, &closed(id, "cancelled", None, None));
                return Err(e);
            }
        };
        for (identity, r) in [(&open.from, &open.reach), (&by, &reach)] {
            let _ = r.adopt.send(handle.id.clone());
            if let Err(e) = handle
                .join(
                    identity.clone(),
                    r.outbox.clone(),
                    JoinRole::Player,
                    None,
                    None,
                )
                .await
            {
                tracing::warn!(error = %e.message, "a challenge's player could not be seated");
            }
        }
        for (them, r, colour) in [
            (&by, &open.reach, challenger_colour),
            (&open.from, &reach, challenger_colour.opposite()),
        ] {
            send(
                &r.outbox,
                &ServerMessage::Paired {
                    room: handle.id.to_string(),
                    preset: "challenge".to_owned(),
                    colour,
                    opponent: them.name.clone(),
                },
                None,
            );
        }
        self.closed(
            &open,
            &closed(id, "accepted", None, Some(handle.id.to_string())),
        );
        Ok(())
    }
}

/// A wait in whole seconds, rounded up (never 0 for a wait that is not over).
fn wait_secs(wait: Duration) -> u64 {
    wait.as_millis().div_ceil(1000) as u64
}

fn unknown() -> RoomError {
    RoomError::new(code::UNKNOWN_CHALLENGE, "no such open challenge")
}

fn closed(id: u64, reason: &str, decline: Option<String>, room: Option<String>) -> ServerMessage {
    ServerMessage::ChallengeClosed {
        id,
        reason: reason.to_owned(),
        decline,
        room,
    }
}
