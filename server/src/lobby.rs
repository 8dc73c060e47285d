//! The lobby: public rooms that are waiting or playing, pushed live to subscribed connections.
//!
//! Subscribers see the newest `cap` rooms only: the whole lobby is at most that many entries however many rooms
//! are open (one address once made thousands), and each change is pushed only when it concerns a shown room. A
//! room pushed out of the shown set by a newer one is sent as removed; one that moves in as added.
//!
//! The online count is the distinct players connected here, plus in a cluster (issue #22) the latest count each
//! other node announced (`cluster/lobby.rs`). Players are distinct per node only: one connected to two nodes
//! counts on both.

use std::collections::{BTreeMap, HashMap};

use axum::extract::ws::Utf8Bytes;
use protocol::{encode, LobbyRoom, ServerMessage};
use tokio::sync::{mpsc, oneshot, watch};

use crate::ws::outbox::{ConnId, Outbox, SendError};

enum Command {
    Upsert(LobbyRoom),
    Remove(String),
    Subscribe {
        outbox: Outbox,
        rid: Option<u64>,
    },
    Unsubscribe(ConnId),
    List(oneshot::Sender<Vec<LobbyRoom>>),
    /// The quick-pairing counts changed (a `quick_counts` message).
    QuickCounts(Box<ServerMessage>),
    /// A player's connection opened (`true`) or closed (`false`).
    Online {
        player: String,
        here: bool,
    },
    /// Another node's latest online count (`None`: the node is forgotten).
    NodeOnline {
        node: String,
        online: Option<u32>,
    },
}

/// A handle to the lobby task. Rooms report their changes; connections subscribe.
#[derive(Clone, Debug)]
pub struct LobbyHandle {
    tx: mpsc::UnboundedSender<Command>,
    /// The distinct players connected to this node, as the lobby task counts them.
    local_online: watch::Receiver<u32>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("lobby command")
    }
}

impl LobbyHandle {
    /// Starts the lobby task, showing at most `cap` rooms (the newest).
    pub fn spawn(cap: usize) -> LobbyHandle {
        let (tx, rx) = mpsc::unbounded_channel();
        let (local_tx, local_online) = watch::channel(0);
        tokio::spawn(run(rx, cap.max(1), local_tx));
        LobbyHandle { tx, local_online }
    }

    /// A room appeared or changed (rooms call this; it never waits).
    pub fn upsert(&self, room: LobbyRoom) {
        let _ = self.tx.send(Command::Upsert(room));
    }

    /// A room is gone or no longer listed.
    pub fn remove(&self, id: &str) {
        let _ = self.tx.send(Command::Remove(id.to_owned()));
    }

    /// Sends the lobby to a connection, then every change.
    pub fn subscribe(&self, outbox: Outbox, rid: Option<u64>) {
        let _ = self.tx.send(Command::Subscribe { outbox, rid });
    }

    /// Stops sending changes to a connection.
    pub fn unsubscribe(&self, conn: ConnId) {
        let _ = self.tx.send(Command::Unsubscribe(conn));
    }

    /// A connection of the player with id `player` opened (`here`) or closed: the lobby counts distinct players
    /// online (by id: two guests may show the same name, one player many connections).
    pub fn online(&self, player: &str, here: bool) {
        let _ = self.tx.send(Command::Online {
            player: player.to_owned(),
            here,
        });
    }

    /// Another node of the cluster counts `online` players (`None`: it is no longer heard from, and no longer
    /// counted): this node's lobby shows its own count plus every other node's latest.
    pub(crate) fn node_online(&self, node: &str, online: Option<u32>) {
        let _ = self.tx.send(Command::NodeOnline {
            node: node.to_owned(),
            online,
        });
    }

    /// The distinct players connected to this node alone, kept up to date (what a cluster node announces).
    pub(crate) fn local_online(&self) -> watch::Receiver<u32> {
        self.local_online.clone()
    }

    /// The quick-pairing counts changed: pushed to subscribers, and sent to each new one after the lobby.
    pub fn quick_counts(&self, msg: ServerMessage) {
        let _ = self.tx.send(Command::QuickCounts(Box::new(msg)));
    }

    /// The shown rooms, newest first.
    pub async fn list(&self) -> Vec<LobbyRoom> {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::List(reply)).is_err() {
            return Vec::new();
        }
        answer.await.unwrap_or_default()
    }
}

struct Subscriber {
    outbox: Outbox,
    /// A change could not be queued: the next send is a whole lobby instead.
    behind: bool,
}

#[derive(Default)]
struct Lobby {
    rooms: HashMap<String, (u64, LobbyRoom)>,
    /// Room ids by the order they were listed in (larger is newer).
    order: BTreeMap<u64, String>,
    /// How many of the newest rooms are shown.
    cap: usize,
    next_seq: u64,
    subscribers: HashMap<ConnId, Subscriber>,
    /// Open connections per player id.
    online: HashMap<String, u32>,
    /// The other nodes' latest online counts, by node (cluster mode).
    others: HashMap<String, u32>,
    /// The online count last pushed to subscribers.
    online_sent: u32,
    /// The last quick-pairing counts, encoded.
    quick: Option<Utf8Bytes>,
}

impl Lobby {
    /// The players online: this node's distinct players and the other nodes' counts.
    fn online_count(&self) -> u32 {
        let others = self
            .others
            .values()
            .fold(0u32, |sum, n| sum.saturating_add(*n));
        u32::try_from(self.online.len())
            .unwrap_or(u32::MAX)
            .saturating_add(others)
    }

    /// The shown rooms, newest first.
    fn list(&self) -> Vec<LobbyRoom> {
        self.order
            .values()
            .rev()
            .take(self.cap)
            .filter_map(|id| self.rooms.get(id).map(|(_, r)| r.clone()))
            .collect()
    }

    fn whole_message(&self) -> ServerMessage {
        ServerMessage::Lobby {
            rooms: self.list(),
            online: self.online_count(),
            total: Some(self.rooms.len() as u32),
        }
    }

    fn whole(&self, rid: Option<u64>) -> Utf8Bytes {
        encode(&self.whole_message(), rid).into()
    }

    /// Whether the room listed as `seq` is among the shown: fewer than `cap` rooms are newer (at most `cap` steps).
    fn shown(&self, seq: u64) -> bool {
        self.order.range(seq + 1..).take(self.cap).count() < self.cap
    }

    /// The room at position `rank` from the newest (0 is the newest), if there is one.
    fn at_rank(&self, rank: usize) -> Option<&LobbyRoom> {
        let id = self.order.values().rev().nth(rank)?;
        self.rooms.get(id).map(|(_, r)| r)
    }

    /// Lists or updates a room; pushes what changes for subscribers.
    fn upsert(&mut self, room: LobbyRoom) {
        match self.rooms.get(&room.id) {
            Some((_, old)) if *old == room => {}
            Some(&(seq, _)) => {
                let shown = self.shown(seq);
                self.rooms.insert(room.id.clone(), (seq, room.clone()));
                if shown {
                    self.push(ServerMessage::LobbyRoom { room });
                }
            }
            None => {
                self.next_seq += 1;
                let seq = self.next_seq;
                self.order.insert(seq, room.id.clone());
                self.rooms.insert(room.id.clone(), (seq, room.clone()));
                // The newest is shown; the one it pushed past the cap is not any more.
                let dropped = self.at_rank(self.cap).map(|r| r.id.clone());
                self.push(ServerMessage::LobbyRoom { room });
                if let Some(id) = dropped {
                    self.push(ServerMessage::LobbyRoomRemoved { id });
                }
            }
        }
    }

    /// Unlists a room; pushes what changes for subscribers.
    fn remove(&mut self, id: String) {
        let Some((seq, _)) = self.rooms.remove(&id) else {
            return;
        };
        let shown = self.shown(seq);
        self.order.remove(&seq);
        if shown {
            self.push(ServerMessage::LobbyRoomRemoved { id });
            // The newest room not shown before moves in.
            if let Some(room) = self.at_rank(self.cap - 1).cloned() {
                self.push(ServerMessage::LobbyRoom { room });
            }
        }
    }

    fn push(&mut self, msg: ServerMessage) {
        let text: Utf8Bytes = encode(&msg, None).into();
        // A subscriber that missed a change gets the whole (capped) lobby instead, encoded once.
        let catching_up = self
            .subscribers
            .values()
            .any(|s| s.behind && s.outbox.capacity() > 0);
        let whole = catching_up.then(|| Utf8Bytes::from(encode(&self.whole_message(), None)));
        let mut gone = Vec::new();
        for (id, sub) in &mut self.subscribers {
            let frame = if sub.behind {
                match &whole {
                    Some(w) if sub.outbox.capacity() > 0 => w.clone(),
                    _ => continue,
                }
            } else {
                text.clone()
            };
            match sub.outbox.try_send(frame) {
                Ok(()) => sub.behind = false,
                Err(SendError::Full) => sub.behind = true,
                Err(SendError::Closed) => gone.push(*id),
            }
        }
        for id in gone {
            self.subscribers.remove(&id);
        }
    }
}

/// How often a changed online count is pushed: connections come and go in bursts, and every subscriber would
/// get every change otherwise.
const ONLINE_PUSH_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

async fn run(mut rx: mpsc::UnboundedReceiver<Command>, cap: usize, local: watch::Sender<u32>) {
    let mut lobby = Lobby {
        cap,
        ..Lobby::default()
    };
    let mut tick = tokio::time::interval(ONLINE_PUSH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let cmd = tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(cmd) => cmd,
                None => break,
            },
            _ = tick.tick() => {
                let online = lobby.online_count();
                if online != lobby.online_sent {
                    lobby.online_sent = online;
                    lobby.push(ServerMessage::LobbyOnline { online });
                }
                continue;
            }
        };
        match cmd {
            Command::Upsert(room) => lobby.upsert(room),
            Command::Remove(id) => lobby.remove(id),
            Command::Subscribe { outbox, rid } => {
                let mut behind = outbox.try_send(lobby.whole(rid)).is_err();
                if let Some(quick) = &lobby.quick {
                    behind |= outbox.try_send(quick.clone()).is_err();
                }
                lobby
                    .subscribers
                    .insert(outbox.id, Subscriber { outbox, behind });
            }
            Command::Unsubscribe(conn) => {
                lobby.subscribers.remove(&conn);
            }
            Command::QuickCounts(msg) => {
                lobby.quick = Some(encode(&*msg, None).into());
                lobby.push(*msg);
            }
            Command::List(reply) => {
                let _ = reply.send(lobby.list());
            }
            Command::Online { player, here } => {
                if here {
                    *lobby.online.entry(player).or_default() += 1;
                } else if let Some(count) = lobby.online.get_mut(&player) {
                    *count -= 1;
                    if *count == 0 {
                        lobby.online.remove(&player);
                    }
                }
                let here = u32::try_from(lobby.online.len()).unwrap_or(u32::MAX);
                local.send_if_modified(|n| std::mem::replace(n, here) != here);
            }
            Command::NodeOnline { node, online } => match online {
                Some(n) => {
                    lobby.others.insert(node, n);
                }
                None => {
                    lobby.others.remove(&node);
                }
            },
        }
    }
}
