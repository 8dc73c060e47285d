//! The lobby: public rooms that are waiting or playing, pushed live to subscribed connections.

use std::collections::HashMap;

use axum::extract::ws::Utf8Bytes;
use protocol::{encode, LobbyRoom, ServerMessage};
use tokio::sync::{mpsc, oneshot};

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
    /// A player's connection opened (`true`) or closed (`false`).
    Online {
        player: String,
        here: bool,
    },
}

/// A handle to the lobby task. Rooms report their changes; connections subscribe.
#[derive(Clone, Debug)]
pub struct LobbyHandle {
    tx: mpsc::UnboundedSender<Command>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("lobby command")
    }
}

impl LobbyHandle {
    /// Starts the lobby task.
    pub fn spawn() -> LobbyHandle {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(run(rx));
        LobbyHandle { tx }
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

    /// The listed rooms, newest first.
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
    next_seq: u64,
    subscribers: HashMap<ConnId, Subscriber>,
    /// Open connections per player id.
    online: HashMap<String, u32>,
    /// The online count last pushed to subscribers.
    online_sent: u32,
}

impl Lobby {
    fn list(&self) -> Vec<LobbyRoom> {
        sorted(&self.rooms)
    }

    fn whole(&self, rid: Option<u64>) -> Utf8Bytes {
        encode(
            &ServerMessage::Lobby {
                rooms: self.list(),
                online: self.online.len() as u32,
            },
            rid,
        )
        .into()
    }

    fn push(&mut self, msg: ServerMessage) {
        let text: Utf8Bytes = encode(&msg, None).into();
        let mut whole = None;
        let mut gone = Vec::new();
        for (id, sub) in &mut self.subscribers {
            let frame = if sub.behind {
                if sub.outbox.capacity() == 0 {
                    continue;
                }
                whole
                    .get_or_insert_with(|| {
                        let rooms = sorted(&self.rooms);
                        let online = self.online.len() as u32;
                        Utf8Bytes::from(encode(&ServerMessage::Lobby { rooms, online }, None))
                    })
                    .clone()
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

/// The rooms, newest first.
fn sorted(rooms: &HashMap<String, (u64, LobbyRoom)>) -> Vec<LobbyRoom> {
    let mut rooms: Vec<_> = rooms.values().collect();
    rooms.sort_by_key(|r| std::cmp::Reverse(r.0));
    rooms.into_iter().map(|(_, r)| r.clone()).collect()
}

/// How often a changed online count is pushed: connections come and go in bursts, and every subscriber would
/// get every change otherwise.
const ONLINE_PUSH_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

async fn run(mut rx: mpsc::UnboundedReceiver<Command>) {
    let mut lobby = Lobby::default();
    let mut tick = tokio::time::interval(ONLINE_PUSH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let cmd = tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(cmd) => cmd,
                None => break,
            },
            _ = tick.tick() => {
                let online = lobby.online.len() as u32;
                if online != lobby.online_sent {
                    lobby.online_sent = online;
                    lobby.push(ServerMessage::LobbyOnline { online });
                }
                continue;
            }
        };
        match cmd {
            Command::Upsert(room) => {
                let seq = match lobby.rooms.get(&room.id) {
                    Some((_, old)) if *old == room => continue,
                    Some((seq, _)) => *seq,
                    None => {
                        lobby.next_seq += 1;
                        lobby.next_seq
                    }
                };
                lobby.rooms.insert(room.id.clone(), (seq, room.clone()));
                lobby.push(ServerMessage::LobbyRoom { room });
            }
            Command::Remove(id) => {
                if lobby.rooms.remove(&id).is_some() {
                    lobby.push(ServerMessage::LobbyRoomRemoved { id });
                }
            }
            Command::Subscribe { outbox, rid } => {
                let behind = outbox.try_send(lobby.whole(rid)).is_err();
                lobby
                    .subscribers
                    .insert(outbox.id, Subscriber { outbox, behind });
            }
            Command::Unsubscribe(conn) => {
                lobby.subscribers.remove(&conn);
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
            }
        }
    }
}
