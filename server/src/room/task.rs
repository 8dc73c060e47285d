//! The room task: the only owner of a room's seats, game, clocks, offers and members. This file holds the
//! room's state, its task loop and the dispatch of commands; the room's parts live beside it (`seats.rs`,
//! `fanout.rs`, `projection.rs`, `play.rs`, `finish.rs`, `deadlines.rs`, `restore.rs`), each an `impl Room` block.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use games::AnyConfig;
use protocol::{ColourChoice, TimeControl};
use rules::Color;
use tokio::sync::mpsc;

use super::env::RoomEnv;
use super::fanout::Fanout;
use super::finish::PendingResult;
use super::live::Live;
use super::reach::Claim;
use super::seats::{Member, SeatHolder};
use super::{chat, Command, Offers, Settings};
use crate::limits::TokenBucket;
use crate::ws::outbox::ConnId;

/// The close code of a room's members when its node lost the room's lease (1012, "service restart": reconnect).
pub(crate) const CLOSE_ROOM_MOVED: u16 = 1012;

/// One room: its settings, seats, game, members and offers, and the environment and fan-out it works through.
pub(crate) struct Room {
    pub(super) id: Arc<str>,
    /// The game every game of the room plays, and its configuration.
    pub(super) config: AnyConfig,
    pub(super) time_control: TimeControl,
    pub(super) rated: bool,
    pub(super) public: bool,
    /// The ratings admitted to the free seat (a seek's range).
    pub(super) rating_range: Option<protocol::RatingRange>,
    /// The creator's identity key, counted against their open-room limit until the room closes.
    pub(super) creator: Option<String>,
    /// The creator's address while the room waits for its first game (counted against its waiting-room limit).
    pub(super) waiting_ip: Option<IpAddr>,
    /// The creator's address for as long as the room is listed (the lobby caps the rooms it shows per address).
    pub(super) listed_ip: Option<IpAddr>,
    /// While the room waits for a second player: when it closes if none comes.
    pub(super) waiting_until: Option<Instant>,
    /// The spectators' chat allowance, shared by all of them (one crowd cannot flood the room).
    pub(super) spectator_chat: TokenBucket,
    /// The last lines of both chats, for snapshots.
    pub(super) chat_history: chat::ChatHistory,
    pub(super) seats: [Option<SeatHolder>; 2],
    /// The colour seat 0 takes in the next game.
    pub(super) next_first: Color,
    pub(super) live: Option<Live>,
    /// The round-trip time of the connection whose command is being handled (0 when unknown, or for the room's
    /// own actions): the move it makes is credited with part of it.
    pub(super) rtt_ms: u64,
    /// Who is in the room, by connection (their frames go through `fanout`).
    pub(super) members: HashMap<ConnId, Member>,
    pub(super) spectators: u32,
    pub(super) offers: Offers,
    /// A decided result still waiting to be stored.
    pub(super) pending: Option<PendingResult>,
    /// How frames reach the members, and the versioned event log.
    pub(super) fanout: Box<dyn Fanout>,
    pub(super) env: RoomEnv,
    pub(super) closed: bool,
    /// Cluster mode: this node's claim on the room, under which its games are written.
    pub(super) fence: Option<store::Fence>,
    /// How many games the room's match has (1: no match; `matched.rs`).
    pub(super) match_games: u32,
    /// The room's match, once stored (before its first game).
    pub(super) matched: Option<crate::matches::MatchState>,
    /// A match game ended and the next one is due (started by the task loop).
    pub(super) match_next: bool,
}

impl Room {
    /// A room waiting for its players: `creator` (an identity key) and `waiting_ip` are counted against their
    /// limits until it closes or its first game starts.
    pub(crate) fn new(
        id: Arc<str>,
        settings: Settings,
        creator: Option<String>,
        waiting_ip: Option<IpAddr>,
        env: RoomEnv,
    ) -> Room {
        let waiting_until = Some(env.clock.now() + env.limits.waiting_room);
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
        let fanout = env.fanout(id.clone());
        Room {
            id,
            config: settings.config,
            time_control: settings.time_control,
            rated: settings.rated,
            public: settings.public,
            rating_range: settings.rating_range,
            creator,
            waiting_ip,
            listed_ip: waiting_ip,
            waiting_until,
            spectator_chat: TokenBucket::new(
                env.limits.spectator_chat_per_minute / 60.0,
                env.limits.spectator_chat_burst,
                env.clock.now(),
            ),
            chat_history: chat::ChatHistory::new(
                env.limits.chat_history_lines,
                env.limits.chat_history_bytes,
            ),
            seats: [None, None],
            next_first,
            live: None,
            rtt_ms: 0,
            members: HashMap::new(),
            spectators: 0,
            offers: Offers::default(),
            pending: None,
            fanout,
            env,
            closed: false,
            fence: None,
            match_games: 1,
            matched: None,
            match_next: false,
        }
    }

    /// The room's id.
    pub(crate) fn id(&self) -> Arc<str> {
        self.id.clone()
    }

    /// The room's task: handles commands and deadlines until the room closes, its handles are gone or the server
    /// shuts it down.
    pub(crate) async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        self.env.metrics.rooms.fetch_add(1, Ordering::Relaxed);
        if self.fence.is_none() {
            // Before anything is written: a room this node cannot claim is not its to run. (A new room was claimed
            // as it was opened; alone every room is this node's.)
            let ours = match self.env.reach.ownership.claim(&self.id).await {
                Ok(Claim::Ours(fence)) => {
                    self.fence = fence;
                    true
                }
                Ok(Claim::Elsewhere) => {
                    tracing::warn!(room = %self.id, "another node owns this room");
                    false
                }
                Err(e) => {
                    tracing::error!(room = %self.id, error = %e, "could not claim a room");
                    false
                }
            };
            if !ours {
                self.seats = [None, None];
                self.pending = None;
                self.maybe_close();
                self.env.metrics.rooms.fetch_sub(1, Ordering::Relaxed);
                return;
            }
        }
        // A restored game decided before the crash (its last move stored, its end not) is finished now.
        // Not stored now, it is retried on the room's clock.
        let _ = Box::pin(self.finish_if_decided(None)).await;
        // One whose last stored action left a forced one due (Othello's pass) has it taken now.
        Box::pin(self.play_forced()).await;
        for seat in 0..2 {
            // A restored room learns its registered players' ratings.
            let identity = self.seats[seat].as_ref().map(|h| h.identity.clone());
            if let Some(identity) = identity {
                let rating = Box::pin(self.rating_of(&identity)).await;
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
            if self.match_next {
                Box::pin(self.continue_match()).await;
            }
            let sleep = match self.next_deadline() {
                Some(at) => self.env.clock.sleep_until(at),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => break,
                    Some(Command::Shutdown { reply }) => {
                        let _ = reply.send(());
                        break;
                    }
                    Some(Command::Moved { reply }) => {
                        self.moved();
                        let _ = reply.send(());
                        break;
                    }
                    // Boxed, like the deadline's handling: a command's handling (store writes, fan-out) is a large
                    // state machine that, inline, every room's task would carry for its whole life.
                    Some(cmd) => Box::pin(self.handle(cmd)).await,
                },
                () = sleep => Box::pin(self.on_deadline()).await,
            }
        }
        self.env.metrics.rooms.fetch_sub(1, Ordering::Relaxed);
    }

    /// Handles one command, then closes the room if nobody is left in it.
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
                rtt_ms,
                reply,
            } => {
                self.rtt_ms = rtt_ms;
                let r = self.act(conn, rid, act).await;
                self.rtt_ms = 0;
                let _ = reply.send(r);
            }
            Command::Disconnected { conn } => self.disconnected(conn),
            Command::Barrier { reply } => {
                // The clock may have been moved without the room's sleep having woken yet.
                if self
                    .next_deadline()
                    .is_some_and(|at| at <= self.env.clock.now())
                {
                    self.on_deadline().await;
                }
                let _ = reply.send(());
            }
            Command::Summary { reply } => {
                let _ = reply.send(self.summary());
            }
            Command::Resync { conn } => self.resync(conn, None),
            Command::RemoveChat { line, reply } => {
                self.remove_chat(line);
                let _ = reply.send(Ok(()));
            }
            Command::Shutdown { .. } | Command::Moved { .. } => unreachable!("handled by the loop"),
        }
        self.maybe_close();
    }

    /// The node lost this room's lease: its members here are closed with 1012 (to reconnect and find the room on
    /// the node that owns it now), and it leaves this node's registry and lobby without a write (the store would
    /// refuse it) and without giving up an ownership row that is no longer this node's.
    fn moved(&mut self) {
        self.fanout
            .close_local(CLOSE_ROOM_MOVED, "the room moved to another server");
        self.closed = true;
        self.env
            .rooms
            .closed(&self.id, self.creator.as_deref(), self.waiting_ip.take());
        self.env.lobby.remove(&self.id);
        self.env.reach.ownership.release(&self.id, None);
        self.fence = None;
    }

    /// Closes a room without players (unless a decided result still waits to be stored): it leaves the registry
    /// and the lobby.
    pub(super) fn maybe_close(&mut self) {
        // A room whose result waits to be stored stays until it is (or the game would stay unfinished).
        if self.closed || self.pending.is_some() || self.seats.iter().any(Option::is_some) {
            return;
        }
        self.closed = true;
        self.env
            .rooms
            .closed(&self.id, self.creator.as_deref(), self.waiting_ip.take());
        self.env.lobby.remove(&self.id);
        self.env.reach.routing.lobby_remove(&self.id);
        self.env
            .reach
            .ownership
            .release(&self.id, self.fence.take());
    }
}
