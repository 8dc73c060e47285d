//! The owner's fan-out in a cluster: members on this node are served by the [`LocalFanout`] inside; every
//! versioned event is also published once on the room's subject for the other nodes, and frames meant for a
//! member on another node are published addressed to it. All of it goes through one queue per room, so the
//! other nodes see the room's frames in the room's order.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use protocol::{encode, RoomEvent, ServerMessage, VersionedEvent};
use tokio::sync::mpsc;

use super::wire::{Addr, Publication};
use super::RemoteMembers;
use crate::room::fanout::{Actor, Fanout, LocalFanout};
use crate::ws::outbox::{ConnId, Outbox};

/// A room's fan-out on its owner node (see the module's comment).
pub(crate) struct ClusterFanout {
    local: LocalFanout,
    room: Arc<str>,
    /// Which of the room's connection ids stand for members on other nodes (shared with the room's request
    /// server, which makes them).
    remotes: Arc<Mutex<RemoteMembers>>,
    /// The remote members attached to the room.
    attached: HashSet<ConnId>,
    out: mpsc::UnboundedSender<Publication>,
}

impl ClusterFanout {
    /// The fan-out of `room` over `local`, publishing into `out`.
    pub(crate) fn new(
        room: Arc<str>,
        local: LocalFanout,
        remotes: Arc<Mutex<RemoteMembers>>,
        out: mpsc::UnboundedSender<Publication>,
    ) -> ClusterFanout {
        ClusterFanout {
            local,
            room,
            remotes,
            attached: HashSet::new(),
            out,
        }
    }

    /// Where a remote member's socket is (also after it left: its leave is acknowledged).
    fn addr(&self, conn: ConnId) -> Option<Addr> {
        self.remotes.lock().expect("remotes lock").addr(conn)
    }

    fn publish_to(&self, to: Addr, text: String, resync: bool) {
        let _ = self.out.send(Publication::To {
            to: vec![to],
            text,
            mine: None,
            version: self.local.version(),
            resync,
        });
    }
}

impl Fanout for ClusterFanout {
    fn attach(&mut self, outbox: Outbox) {
        let remote = self
            .remotes
            .lock()
            .expect("remotes lock")
            .addr(outbox.id)
            .is_some();
        if remote {
            self.attached.insert(outbox.id);
        } else {
            self.local.attach(outbox);
        }
    }

    fn detach(&mut self, conn: ConnId) {
        self.attached.remove(&conn);
        self.local.detach(conn);
    }

    fn version(&self) -> u64 {
        self.local.version()
    }

    fn restart_at(&mut self, version: u64) {
        self.local.restart_at(version);
    }

    fn catch_up(&self, since: u64) -> Option<Vec<VersionedEvent>> {
        self.local.catch_up(since)
    }

    fn send_to(&mut self, conn: ConnId, msg: &ServerMessage, rid: Option<u64>) {
        match self.addr(conn) {
            Some(to) => self.publish_to(to, encode(msg, rid), false),
            None => self.local.send_to(conn, msg, rid),
        }
    }

    fn send_quiet(&mut self, conn: ConnId, msg: &ServerMessage, rid: Option<u64>) {
        match self.addr(conn) {
            Some(to) => self.publish_to(to, encode(msg, rid), false),
            None => self.local.send_quiet(conn, msg, rid),
        }
    }

    fn send_unversioned(
        &mut self,
        to: &[ConnId],
        msg: &ServerMessage,
        mine: Option<(ConnId, u64)>,
    ) {
        let (remote, local): (Vec<ConnId>, Vec<ConnId>) =
            to.iter().partition(|&&c| self.addr(c).is_some());
        if !local.is_empty() {
            self.local.send_unversioned(&local, msg, mine);
        }
        if !remote.is_empty() {
            let addrs: Vec<Addr> = remote.iter().filter_map(|&c| self.addr(c)).collect();
            let mine = mine.and_then(|(c, rid)| self.addr(c).map(|a| (a, rid)));
            let _ = self.out.send(Publication::To {
                to: addrs,
                text: encode(msg, None),
                mine,
                version: self.local.version(),
                resync: false,
            });
        }
    }

    fn emit(&mut self, event: RoomEvent, actor: Actor, skip: Option<ConnId>) -> Vec<ConnId> {
        let behind = self.local.emit(event.clone(), actor, skip);
        let version = self.local.version();
        if !self.attached.is_empty() {
            let msg = ServerMessage::Event {
                room: self.room.to_string(),
                version,
                event,
            };
            let actor = actor.and_then(|(conn, rid)| Some((self.addr(conn)?, rid?)));
            let skip = skip.and_then(|c| self.addr(c));
            let _ = self.out.send(Publication::Event {
                version,
                text: encode(&msg, None),
                actor,
                skip,
            });
        }
        behind
    }

    fn is_behind(&self, conn: ConnId) -> bool {
        self.local.is_behind(conn)
    }

    fn any_behind(&self) -> bool {
        self.local.any_behind()
    }

    fn behind(&self) -> Vec<(ConnId, Instant)> {
        self.local.behind()
    }

    fn can_resync(&self, conn: ConnId) -> bool {
        // A remote member's node queues the snapshot (or finds it has no room, and asks again).
        self.addr(conn).is_some() || self.local.can_resync(conn)
    }

    fn resync(&mut self, conn: ConnId, snapshot: &ServerMessage, rid: Option<u64>) {
        match self.addr(conn) {
            Some(to) => self.publish_to(to, encode(snapshot, rid), true),
            None => self.local.resync(conn, snapshot, rid),
        }
    }

    fn kick(&mut self, conn: ConnId) {
        match self.addr(conn) {
            Some(to) => {
                let _ = self.out.send(Publication::Kick { to });
            }
            None => self.local.kick(conn),
        }
    }

    fn close_local(&mut self, code: u16, reason: &'static str) {
        self.local.close_local(code, reason);
    }
}
