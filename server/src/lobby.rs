//! The lobby: public rooms that are waiting or playing, pushed live to subscribed connections.
//!
//! Subscribers see at most `--lobby-rooms` rooms: the whole lobby is at most that many entries however many rooms
//! are open (one address once made thousands), and each change is pushed only when it concerns a shown room. A
//! room pushed out of the shown set by another is sent as removed; one that moves in as added.
//!
//! Which rooms are shown (issue #35: five addresses buried every real room): rooms are ranked by their players'
//! [`Standing`] (established players first, fresh guests last), newest first within a standing; of the rooms of
//! one creator address at most `--lobby-rooms-per-ip` are shown, and of one address range at most
//! `--lobby-rooms-per-range` (established players' rooms are not capped). A room that is not shown stays open and
//! joinable by its link.
//!
//! The online count is the distinct players connected here, plus in a cluster (issue #22) the latest count each
//! other node announced (`cluster/lobby.rs`). Players are distinct per node only: one connected to two nodes
//! counts on both.

use std::cmp::Reverse;
use std::collections::{BTreeSet, HashMap};
use std::net::IpAddr;

use axum::extract::ws::Utf8Bytes;
use ipnet::IpNet;
use protocol::{encode, LobbyRoom, RoomState, ServerMessage};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, watch};

use crate::ws::outbox::{ConnId, Outbox, SendError};

enum Command {
    Upsert(Box<(LobbyRoom, Listing)>),
    Remove(String),
    Subscribe {
        outbox: Outbox,
        rid: Option<u64>,
    },
    Unsubscribe(ConnId),
    List(oneshot::Sender<Vec<LobbyRoom>>),
    /// Every listed room (shown or not) where one of these player ids sits (issue #38: friends' games).
    RoomsOf(Vec<String>, oneshot::Sender<Vec<LobbyRoom>>),
    /// Tell this channel of every room that starts a game (issue #38: follow notices).
    Started(mpsc::UnboundedSender<LobbyRoom>),
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
    /// Starts the lobby task, showing the rooms `limits` admit.
    pub fn spawn(limits: LobbyLimits) -> LobbyHandle {
        let (tx, rx) = mpsc::unbounded_channel();
        let (local_tx, local_online) = watch::channel(0);
        tokio::spawn(run(rx, limits, local_tx));
        LobbyHandle { tx, local_online }
    }

    /// A room appeared or changed (rooms call this; it never waits): `listing` places it in the lobby's order and
    /// caps.
    pub fn upsert(&self, room: LobbyRoom, listing: Listing) {
        let _ = self.tx.send(Command::Upsert(Box::new((room, listing))));
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

    /// Every listed public room, shown or not, where one of `players` (identity ids) sits, in no particular order.
    pub async fn rooms_of(&self, players: Vec<String>) -> Vec<LobbyRoom> {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::RoomsOf(players, reply)).is_err() {
            return Vec::new();
        }
        answer.await.unwrap_or_default()
    }

    /// A channel of every public room, from any node of a cluster, as it starts a game (enters `playing`, or
    /// is first listed playing, or its players change while playing).
    pub fn started(&self) -> mpsc::UnboundedReceiver<LobbyRoom> {
        let (tx, rx) = mpsc::unbounded_channel();
        let _ = self.tx.send(Command::Started(tx));
        rx
    }

    /// The shown rooms, in the lobby's order.
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

/// How far a listed room's players are known, best first: the lobby shows rooms in this order (newest first within
/// each), so rooms of players with a record come before any number of fresh guests' rooms (issue #35: five
/// addresses buried every real room).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// A player established in some pool (`ratings::established`) sits in it. Such rooms are not capped per address.
    Established,
    /// An account with at least one rated game sits in it.
    Rated,
    /// An account sits in it.
    Account,
    /// Only guests (or nobody known yet).
    #[default]
    Guest,
}

/// What the lobby orders and caps a room by, beside what it shows of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// The address (per-address key) its creator connected from; `None` for a restored room, which is not capped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<IpAddr>,
    /// Its players' standing.
    #[serde(default)]
    pub standing: Standing,
}

/// How many rooms the lobby shows, and how many of them one address and one address range may have there.
#[derive(Clone, Copy, Debug)]
pub struct LobbyLimits {
    /// Rooms shown in all.
    pub rooms: usize,
    /// Rooms shown per creator address (IPv6: per /64), established players' rooms aside.
    pub per_address: usize,
    /// Rooms shown per creator address range, established players' rooms aside.
    pub per_range: usize,
    /// The (IPv4, IPv6) prefix lengths of an address range.
    pub range_prefixes: (u8, u8),
}

impl LobbyLimits {
    /// Shows the newest `rooms` rooms, with no cap per address or range.
    pub fn rooms(rooms: usize) -> LobbyLimits {
        LobbyLimits {
            rooms,
            per_address: usize::MAX,
            per_range: usize::MAX,
            range_prefixes: (32, 128),
        }
    }
}

/// A room's place in the lobby's order: smaller is shown first (better standing, then newer).
type Rank = (Standing, Reverse<u64>);

/// What a group's first `k` gained or lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Delta {
    In(Rank),
    Out(Rank),
}

/// Which group a room counts in at one level of the caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Group {
    /// Capped with the other rooms of its address or range.
    Net(IpNet),
    /// Not capped: a group of its own (established players' rooms, restored ones).
    Alone(u64),
}

/// Ranks in groups, of which only each group's first `k` pass on: the caps per address, per range and overall.
/// Each change says which ranks entered or left the first `k` of its group (at most one of each).
struct Capped {
    k: usize,
    groups: HashMap<Group, BTreeSet<Rank>>,
}

impl Capped {
    fn new(k: usize) -> Capped {
        Capped {
            k: k.max(1),
            groups: HashMap::new(),
        }
    }

    /// Whether `rank` is (or would be) among the first `k` of `set`.
    fn within(&self, set: &BTreeSet<Rank>, rank: Rank) -> bool {
        set.range(..rank).take(self.k).count() < self.k
    }

    fn insert(&mut self, group: Group, rank: Rank, out: &mut Vec<Delta>) {
        let k = self.k;
        let set = self.groups.entry(group).or_default();
        if !set.insert(rank) {
            return;
        }
        if set.range(..rank).take(k).count() < k {
            out.push(Delta::In(rank));
            if let Some(&pushed) = set.iter().nth(k) {
                out.push(Delta::Out(pushed));
            }
        }
    }

    fn remove(&mut self, group: Group, rank: Rank, out: &mut Vec<Delta>) {
        let Some(set) = self.groups.get(&group) else {
            return;
        };
        let was_in = self.within(set, rank);
        let set = self.groups.get_mut(&group).expect("looked up above");
        if !set.remove(&rank) {
            return;
        }
        if was_in {
            out.push(Delta::Out(rank));
            if let Some(&moved) = set.iter().nth(self.k - 1) {
                out.push(Delta::In(moved));
            }
        }
        if set.is_empty() {
            self.groups.remove(&group);
        }
    }

    /// The first `k` of the one group.
    fn first(&self, group: Group) -> impl Iterator<Item = &Rank> {
        self.groups.get(&group).into_iter().flatten().take(self.k)
    }
}

/// The levels after the per-address cap.
#[derive(Clone, Copy)]
enum Level {
    Range,
    Shown,
}

/// A listed room.
struct Entry {
    room: LobbyRoom,
    listing: Listing,
    rank: Rank,
}

/// The one group of the overall cap.
const ALL: Group = Group::Alone(0);

struct Lobby {
    rooms: HashMap<String, Entry>,
    /// Room ids by the sequence number they were listed under (in their ranks).
    ids: HashMap<u64, String>,
    limits: LobbyLimits,
    /// The caps, applied in turn: a room is shown when it is among its address's first, then among its range's
    /// first of those, then among the first of all that passed both.
    by_address: Capped,
    by_range: Capped,
    shown: Capped,
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
    /// Who hears of rooms that start a game.
    started: Vec<mpsc::UnboundedSender<LobbyRoom>>,
}

impl Lobby {
    fn new(limits: LobbyLimits) -> Lobby {
        Lobby {
            rooms: HashMap::new(),
            ids: HashMap::new(),
            limits,
            by_address: Capped::new(limits.per_address),
            by_range: Capped::new(limits.per_range),
            shown: Capped::new(limits.rooms),
            next_seq: 0,
            subscribers: HashMap::new(),
            online: HashMap::new(),
            others: HashMap::new(),
            online_sent: 0,
            quick: None,
            started: Vec::new(),
        }
    }

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

    /// The shown rooms, in the lobby's order.
    fn list(&self) -> Vec<LobbyRoom> {
        self.shown
            .first(ALL)
            .filter_map(|r| self.entry(*r).map(|e| e.room.clone()))
            .collect()
    }

    fn entry(&self, rank: Rank) -> Option<&Entry> {
        self.ids.get(&rank.1 .0).and_then(|id| self.rooms.get(id))
    }

    /// The groups a room counts in per address and per range.
    fn groups(&self, listing: &Listing, seq: u64) -> (Group, Group) {
        match listing.address {
            Some(ip) if listing.standing != Standing::Established => {
                let (v4, v6) = self.limits.range_prefixes;
                let address = crate::limits::connection_range(ip, 128, 128);
                let range = crate::limits::connection_range(ip, v4, v6);
                (Group::Net(address), Group::Net(range))
            }
            _ => (Group::Alone(seq), Group::Alone(seq)),
        }
    }

    /// Puts a room's rank into the caps (`add`) or takes it out; says which ranks entered or left the shown rooms,
    /// net of those that only passed through.
    fn place(&mut self, rank: Rank, listing: &Listing, add: bool) -> Vec<Delta> {
        let seq = rank.1 .0;
        let (address, _) = self.groups(listing, seq);
        let mut first = Vec::new();
        if add {
            self.by_address.insert(address, rank, &mut first);
        } else {
            self.by_address.remove(address, rank, &mut first);
        }
        let mut second = Vec::new();
        for d in first {
            self.pass(d, Level::Range, &mut second);
        }
        let mut third = Vec::new();
        for d in second {
            self.pass(d, Level::Shown, &mut third);
        }
        // A rank that went in and out again (or out and in) changed nothing a subscriber saw.
        let mut net: Vec<(Rank, i32)> = Vec::new();
        for d in third {
            let (r, n) = match d {
                Delta::In(r) => (r, 1),
                Delta::Out(r) => (r, -1),
            };
            match net.iter_mut().find(|(x, _)| *x == r) {
                Some((_, sum)) => *sum += n,
                None => net.push((r, n)),
            }
        }
        net.into_iter()
            .filter_map(|(r, n)| match n.signum() {
                1 => Some(Delta::In(r)),
                -1 => Some(Delta::Out(r)),
                _ => None,
            })
            .collect()
    }

    /// Passes one change of a level's output on to the next level.
    fn pass(&mut self, d: Delta, level: Level, out: &mut Vec<Delta>) {
        let (Delta::In(rank) | Delta::Out(rank)) = d;
        let seq = rank.1 .0;
        let Some(listing) = self.entry(rank).map(|e| e.listing) else {
            return;
        };
        let (_, range) = self.groups(&listing, seq);
        let (capped, group) = match level {
            Level::Range => (&mut self.by_range, range),
            Level::Shown => (&mut self.shown, ALL),
        };
        match d {
            Delta::In(r) => capped.insert(group, r, out),
            Delta::Out(r) => capped.remove(group, r, out),
        }
    }

    /// Tells subscribers which rooms came into the shown ones and which left.
    fn push_deltas(&mut self, deltas: Vec<Delta>, gone: Option<String>) {
        for d in deltas {
            match d {
                Delta::In(r) => {
                    if let Some(room) = self.entry(r).map(|e| e.room.clone()) {
                        self.push(ServerMessage::LobbyRoom { room });
                    }
                }
                Delta::Out(r) => {
                    let id = self.ids.get(&r.1 .0).cloned().or_else(|| gone.clone());
                    if let Some(id) = id {
                        self.push(ServerMessage::LobbyRoomRemoved { id });
                    }
                }
            }
        }
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

    /// Whether a room's rank is among the shown.
    fn is_shown(&self, rank: Rank) -> bool {
        self.shown
            .groups
            .get(&ALL)
            .is_some_and(|set| set.contains(&rank) && self.shown.within(set, rank))
    }

    /// Lists or updates a room; pushes what changes for subscribers.
    fn upsert(&mut self, room: LobbyRoom, listing: Listing) {
        match self.rooms.get(&room.id) {
            Some(old) if old.room == room && old.listing == listing => {}
            Some(old) if old.listing == listing => {
                let rank = old.rank;
                let shown = self.is_shown(rank);
                self.rooms.get_mut(&room.id).expect("looked up above").room = room.clone();
                if shown {
                    self.push(ServerMessage::LobbyRoom { room });
                }
            }
            Some(old) => {
                // Its standing or address changed: it takes its new place (keeping its age).
                let (old_rank, old_listing, seq) = (old.rank, old.listing, old.rank.1 .0);
                let was_shown = self.is_shown(old_rank);
                let mut deltas = self.place(old_rank, &old_listing, false);
                let rank = (listing.standing, Reverse(seq));
                let entry = self.rooms.get_mut(&room.id).expect("looked up above");
                entry.room = room.clone();
                entry.listing = listing;
                entry.rank = rank;
                deltas.extend(self.place(rank, &listing, true));
                let now_shown = self.is_shown(rank);
                // Its own removal and return are one update (or none) for subscribers.
                deltas.retain(
                    |d| !matches!(d, Delta::In(r) | Delta::Out(r) if *r == old_rank || *r == rank),
                );
                self.push_deltas(deltas, None);
                match (was_shown, now_shown) {
                    (_, true) => self.push(ServerMessage::LobbyRoom { room }),
                    (true, false) => self.push(ServerMessage::LobbyRoomRemoved { id: room.id }),
                    (false, false) => {}
                }
            }
            None => {
                self.next_seq += 1;
                let seq = self.next_seq;
                let rank = (listing.standing, Reverse(seq));
                self.ids.insert(seq, room.id.clone());
                self.rooms.insert(
                    room.id.clone(),
                    Entry {
                        room,
                        listing,
                        rank,
                    },
                );
                let deltas = self.place(rank, &listing, true);
                self.push_deltas(deltas, None);
            }
        }
    }

    /// Unlists a room; pushes what changes for subscribers.
    fn remove(&mut self, id: String) {
        let Some(entry) = self.rooms.get(&id) else {
            return;
        };
        let (rank, listing) = (entry.rank, entry.listing);
        let deltas = self.place(rank, &listing, false);
        self.rooms.remove(&id);
        self.ids.remove(&rank.1 .0);
        self.push_deltas(deltas, Some(id));
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

async fn run(
    mut rx: mpsc::UnboundedReceiver<Command>,
    limits: LobbyLimits,
    local: watch::Sender<u32>,
) {
    let mut lobby = Lobby::new(limits);
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
            Command::Upsert(entry) => {
                let (room, listing) = *entry;
                let starts = room.state == RoomState::Playing
                    && lobby.rooms.get(&room.id).is_none_or(|old| {
                        old.room.state != RoomState::Playing || old.room.players != room.players
                    });
                if starts {
                    lobby.started.retain(|tx| tx.send(room.clone()).is_ok());
                }
                lobby.upsert(room, listing);
            }
            Command::RoomsOf(players, reply) => {
                let rooms = lobby
                    .rooms
                    .values()
                    .filter(|e| e.room.players.iter().any(|p| players.contains(&p.id)))
                    .map(|e| e.room.clone())
                    .collect();
                let _ = reply.send(rooms);
            }
            Command::Started(tx) => lobby.started.push(tx),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn room(id: &str) -> LobbyRoom {
        serde_json::from_value(serde_json::json!({
            "id": id, "rules": null,
            "time_control": {"kind": "none"}, "rated": false, "state": "waiting", "players": [], "spectators": 0
        }))
        .unwrap_or_else(|e| panic!("a lobby room: {e}"))
    }

    fn from(ip: &str, standing: Standing) -> Listing {
        Listing {
            address: Some(ip.parse().unwrap()),
            standing,
        }
    }

    fn lobby(rooms: usize, per_address: usize, per_range: usize) -> Lobby {
        Lobby::new(LobbyLimits {
            rooms,
            per_address,
            per_range,
            range_prefixes: (24, 48),
        })
    }

    fn ids(lobby: &Lobby) -> Vec<String> {
        lobby.list().into_iter().map(|r| r.id).collect()
    }

    #[test]
    fn rooms_of_players_with_a_record_come_before_any_number_of_newer_guest_rooms() {
        let mut l = lobby(3, usize::MAX, usize::MAX);
        l.upsert(room("account"), from("10.0.0.1", Standing::Account));
        l.upsert(room("rated"), from("10.0.0.2", Standing::Rated));
        for n in 0..10 {
            l.upsert(room(&format!("g{n}")), from("10.0.1.1", Standing::Guest));
        }
        assert_eq!(ids(&l), ["rated", "account", "g9"]);
    }

    #[test]
    fn established_players_rooms_are_not_capped_per_address() {
        let mut l = lobby(10, 1, 1);
        for n in 0..3 {
            l.upsert(
                room(&format!("e{n}")),
                from("10.0.0.1", Standing::Established),
            );
            l.upsert(room(&format!("r{n}")), from("10.0.0.1", Standing::Rated));
        }
        assert_eq!(ids(&l), ["e2", "e1", "e0", "r2"]);
    }

    #[test]
    fn a_removed_room_lets_the_next_of_its_address_in_and_a_changed_standing_moves_a_room() {
        let mut l = lobby(10, 2, 10);
        for n in 0..3 {
            l.upsert(room(&format!("g{n}")), from("10.0.0.1", Standing::Guest));
        }
        assert_eq!(ids(&l), ["g2", "g1"]);
        l.remove("g2".into());
        assert_eq!(ids(&l), ["g1", "g0"]);
        // A rated player sits down in the oldest: it goes first, keeping its place in its address's share.
        l.upsert(room("g0"), from("10.0.0.1", Standing::Rated));
        assert_eq!(ids(&l), ["g0", "g1"]);
        l.remove("g0".into());
        l.remove("g1".into());
        assert!(ids(&l).is_empty());
        assert!(l.by_address.groups.is_empty() && l.by_range.groups.is_empty());
        assert!(l.shown.groups.is_empty() && l.ids.is_empty());
    }

    #[test]
    fn ipv6_addresses_count_by_their_64_and_ranges_by_their_48() {
        let mut l = lobby(10, 1, 2);
        l.upsert(room("a"), from("2001:db8:1:1::1", Standing::Guest));
        l.upsert(room("b"), from("2001:db8:1:1::2", Standing::Guest));
        l.upsert(room("c"), from("2001:db8:1:2::1", Standing::Guest));
        l.upsert(room("d"), from("2001:db8:1:3::1", Standing::Guest));
        l.upsert(room("e"), from("2001:db8:2::1", Standing::Guest));
        assert_eq!(ids(&l), ["e", "d", "c"]);
    }
}
