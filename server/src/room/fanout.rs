//! The fan-out seam: how a room's frames reach its members, and the versioned event log they catch up from.
//!
//! A room never touches a connection: it hands frames to its [`Fanout`], which owns the event log (each event's
//! version, the bounded history behind `catch_up`) and knows which members fell behind. [`LocalFanout`] writes
//! into the members' [`Outbox`]es in this process; a fan-out across nodes plugs in here.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::Utf8Bytes;
use protocol::{encode, RoomEvent, ServerMessage, VersionedEvent};

use super::task::Room;
use crate::time::Clock;
use crate::ws::outbox::{ConnId, Outbox, SendError};

/// Who asked for what a room does: the connection and its request id, whose copy of the event carries the id.
pub(crate) type Actor = Option<(ConnId, Option<u64>)>;

/// The chat text an event holds (what the event log's chat budget counts).
fn chat_bytes(event: &RoomEvent) -> usize {
    match event {
        RoomEvent::Chat { text, from, .. } => text.len() + from.len(),
        _ => 0,
    }
}

/// A room's versioned events: each gets the next version and is kept, bounded in events and in chat text, so a
/// reconnecting member gets exactly what it missed.
#[derive(Debug)]
pub(crate) struct EventLog {
    version: u64,
    events: VecDeque<VersionedEvent>,
    /// Bytes of chat text in `events`.
    chat_bytes: usize,
    max_events: usize,
    max_chat_bytes: usize,
}

impl EventLog {
    /// An empty log at version 0 keeping at most `max_events` events and `max_chat_bytes` of chat text.
    pub(crate) fn new(max_events: usize, max_chat_bytes: usize) -> EventLog {
        EventLog {
            version: 0,
            events: VecDeque::new(),
            chat_bytes: 0,
            max_events,
            max_chat_bytes,
        }
    }

    /// The version of the last event (0 before the first).
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// Continues numbering after `version` (a restored room, above any version the old process used).
    pub(crate) fn restart_at(&mut self, version: u64) {
        self.version = version;
    }

    /// Logs an event under the next version and returns that version.
    pub(crate) fn push(&mut self, event: RoomEvent) -> u64 {
        self.version += 1;
        self.chat_bytes += chat_bytes(&event);
        self.events.push_back(VersionedEvent {
            version: self.version,
            event,
        });
        // Bounded in events and in chat text: a room of long messages must not cost more than a quiet one.
        while self.events.len() > self.max_events || self.chat_bytes > self.max_chat_bytes {
            match self.events.pop_front() {
                Some(old) => self.chat_bytes -= chat_bytes(&old.event),
                None => break,
            }
        }
        self.version
    }

    /// The events after version `since`, when the log still holds all of them (else a snapshot is needed).
    pub(crate) fn since(&self, since: u64) -> Option<Vec<VersionedEvent>> {
        let first = self.events.front().map_or(self.version + 1, |e| e.version);
        (since <= self.version && since + 1 >= first).then(|| {
            self.events
                .iter()
                .filter(|e| e.version > since)
                .cloned()
                .collect()
        })
    }
}

/// How a room's frames reach its members. The room adds and removes members' connections, sends frames to one
/// member or events to all, and resynchronises a member that fell behind with a snapshot it builds itself.
pub(crate) trait Fanout: Send + Sync {
    /// A connection now receives the room's frames.
    fn attach(&mut self, outbox: Outbox);
    /// A connection no longer receives the room's frames.
    fn detach(&mut self, conn: ConnId);
    /// The version of the room's last event.
    fn version(&self) -> u64;
    /// Continues the room's versions after `version`.
    fn restart_at(&mut self, version: u64);
    /// The events after `since`, if the log still holds all of them.
    fn catch_up(&self, since: u64) -> Option<Vec<VersionedEvent>>;
    /// Sends a frame to one member; a member whose queue is full is marked behind.
    fn send_to(&mut self, conn: ConnId, msg: &ServerMessage, rid: Option<u64>);
    /// Sends a frame to one connection if there is room, and nothing more (acks, also to a member leaving).
    fn send_quiet(&mut self, conn: ConnId, msg: &ServerMessage, rid: Option<u64>);
    /// Sends a frame outside the versioned events to some members, with `mine`'s request id on its copy; a full
    /// queue misses it (spectators' chat is not worth a resync).
    fn send_unversioned(&mut self, to: &[ConnId], msg: &ServerMessage, mine: Option<(ConnId, u64)>);
    /// Logs an event under the next version and sends it to every member but `skip`, in order, with the actor's
    /// request id on the actor's copy. Returns the members that were already behind: they need a resync.
    fn emit(&mut self, event: RoomEvent, actor: Actor, skip: Option<ConnId>) -> Vec<ConnId>;
    /// Whether a member fell behind (its queue was full).
    fn is_behind(&self, conn: ConnId) -> bool;
    /// Whether any member is behind.
    fn any_behind(&self) -> bool;
    /// The members that are behind, with since when.
    fn behind(&self) -> Vec<(ConnId, Instant)>;
    /// Whether a member's queue has room for a resync.
    fn can_resync(&self, conn: ConnId) -> bool;
    /// Sends a member that fell behind its snapshot; it is no longer behind once that is queued.
    fn resync(&mut self, conn: ConnId, snapshot: &ServerMessage, rid: Option<u64>);
    /// Closes a member that stayed behind too long.
    fn kick(&mut self, conn: ConnId);
    /// Closes the connection of every member in this process with `code` (the room is leaving this node: its
    /// members reconnect and find it where it is now).
    fn close_local(&mut self, code: u16, reason: &'static str);
}

/// One member's connection in this process.
#[derive(Debug)]
struct Delivery {
    outbox: Outbox,
    /// Since when events could not be queued for this member.
    behind_since: Option<Instant>,
}

/// The fan-out of one process: frames go straight into the members' outboxes with `try_send` (a room never
/// waits for a client).
pub(crate) struct LocalFanout {
    room: Arc<str>,
    clock: Clock,
    log: EventLog,
    members: HashMap<ConnId, Delivery>,
}

impl LocalFanout {
    /// The fan-out of room `room`, its log bounded as given, marking members behind on `clock`.
    pub(crate) fn new(room: Arc<str>, clock: Clock, log: EventLog) -> LocalFanout {
        LocalFanout {
            room,
            clock,
            log,
            members: HashMap::new(),
        }
    }
}

impl Fanout for LocalFanout {
    fn attach(&mut self, outbox: Outbox) {
        self.members.insert(
            outbox.id,
            Delivery {
                outbox,
                behind_since: None,
            },
        );
    }

    fn detach(&mut self, conn: ConnId) {
        self.members.remove(&conn);
    }

    fn version(&self) -> u64 {
        self.log.version()
    }

    fn restart_at(&mut self, version: u64) {
        self.log.restart_at(version);
    }

    fn catch_up(&self, since: u64) -> Option<Vec<VersionedEvent>> {
        self.log.since(since)
    }

    fn send_to(&mut self, conn: ConnId, msg: &ServerMessage, rid: Option<u64>) {
        if let Some(m) = self.members.get_mut(&conn) {
            if m.outbox.try_send(encode(msg, rid).into()) == Err(SendError::Full) {
                m.behind_since.get_or_insert(self.clock.now());
            }
        }
    }

    fn send_quiet(&mut self, conn: ConnId, msg: &ServerMessage, rid: Option<u64>) {
        if let Some(m) = self.members.get(&conn) {
            let _ = m.outbox.try_send(encode(msg, rid).into());
        }
    }

    fn send_unversioned(
        &mut self,
        to: &[ConnId],
        msg: &ServerMessage,
        mine: Option<(ConnId, u64)>,
    ) {
        let plain = encode(msg, None);
        let mine = mine.map(|(conn, rid)| (conn, Utf8Bytes::from(protocol::with_rid(&plain, rid))));
        let text: Utf8Bytes = plain.into();
        for id in to {
            let Some(m) = self.members.get(id) else {
                continue;
            };
            let frame = match &mine {
                Some((conn, t)) if conn == id => t.clone(),
                _ => text.clone(),
            };
            let _ = m.outbox.try_send(frame);
        }
    }

    fn emit(&mut self, event: RoomEvent, actor: Actor, skip: Option<ConnId>) -> Vec<ConnId> {
        let version = self.log.push(event.clone());
        let msg = ServerMessage::Event {
            room: self.room.to_string(),
            version,
            event,
        };
        let plain = encode(&msg, None);
        let actor_text = actor.and_then(|(conn, rid)| {
            rid.map(|rid| (conn, Utf8Bytes::from(protocol::with_rid(&plain, rid))))
        });
        let text: Utf8Bytes = plain.into();
        let now = self.clock.now();
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
        resync
    }

    fn is_behind(&self, conn: ConnId) -> bool {
        self.members
            .get(&conn)
            .is_some_and(|m| m.behind_since.is_some())
    }

    fn any_behind(&self) -> bool {
        self.members.values().any(|m| m.behind_since.is_some())
    }

    fn behind(&self) -> Vec<(ConnId, Instant)> {
        self.members
            .iter()
            .filter_map(|(&id, m)| m.behind_since.map(|t| (id, t)))
            .collect()
    }

    fn can_resync(&self, conn: ConnId) -> bool {
        self.members
            .get(&conn)
            .is_some_and(|m| m.outbox.capacity() > 0)
    }

    fn resync(&mut self, conn: ConnId, snapshot: &ServerMessage, rid: Option<u64>) {
        if let Some(m) = self.members.get_mut(&conn) {
            if m.outbox.try_send(encode(snapshot, rid).into()).is_ok() {
                m.behind_since = None;
            }
        }
    }

    fn kick(&mut self, conn: ConnId) {
        if let Some(m) = self.members.get(&conn) {
            m.outbox.kick();
        }
    }

    fn close_local(&mut self, code: u16, reason: &'static str) {
        for m in self.members.values() {
            m.outbox.close_now(code, reason);
        }
    }
}

/// The room's side of the seam: events go out through the fan-out, and members it reports behind get a snapshot.
impl Room {
    /// Sends an event to every member (but `skip`), in order, with the actor's request id on the actor's copy.
    pub(super) fn emit(&mut self, event: RoomEvent, actor: Actor, skip: Option<ConnId>) {
        for id in self.fanout.emit(event, actor, skip) {
            // A member that fell behind and now acts gets the snapshot as the answer to its request.
            let rid = actor
                .filter(|&(conn, _)| conn == id)
                .and_then(|(_, rid)| rid);
            self.resync(id, rid);
        }
    }

    /// Sends a frame to one member (a full queue marks it behind).
    pub(super) fn send_to(&mut self, conn: ConnId, msg: &ServerMessage, rid: Option<u64>) {
        self.fanout.send_to(conn, msg, rid);
    }

    /// Answers a requester `ack` with the room's version: its request changed nothing because it already stands.
    pub(super) fn ack_actor(&mut self, actor: Actor) {
        if let Some((conn, rid)) = actor {
            let msg = self.ack_message();
            self.send_to(conn, &msg, rid);
        }
    }

    /// Answers a request `ack` if the connection's queue has room (also to a member that just left).
    pub(super) fn ack(&mut self, conn: ConnId, rid: Option<u64>) {
        let msg = self.ack_message();
        self.fanout.send_quiet(conn, &msg, rid);
    }

    fn ack_message(&self) -> ServerMessage {
        ServerMessage::Ack {
            room: Some(self.id.to_string()),
            version: Some(self.fanout.version()),
        }
    }
}
