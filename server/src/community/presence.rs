//! Which accounts have a connection open on this node, and their connections' outboxes (issue #38): what the
//! friends list reads for "online" and where a followed player's new game is pushed.
//!
//! A player with several tabs has several connections; they are counted per connection, so closing one tab leaves
//! the player online until the last closes. In a cluster each node knows its own connections only: each node
//! pushes a followed player's new game to its own followers' connections (every node's lobby hears of every
//! public game, so that part holds across nodes), but "online" in the friends list is this node's word (a friend
//! connected only to another node shows offline unless they play a public game, which every lobby lists).

use std::collections::HashMap;
use std::sync::Mutex;

use axum::extract::ws::Utf8Bytes;
use store::UserId;

use crate::ws::outbox::{ConnId, Outbox};

/// The accounts connected here, each with its connections.
#[derive(Debug, Default)]
pub struct Presence {
    conns: Mutex<HashMap<UserId, HashMap<ConnId, Outbox>>>,
}

impl Presence {
    /// A connection of `user` said hello.
    pub fn connect(&self, user: UserId, outbox: &Outbox) {
        self.conns
            .lock()
            .expect("presence lock")
            .entry(user)
            .or_default()
            .insert(outbox.id, outbox.clone());
    }

    /// A connection of `user` closed (or said hello as someone else).
    pub fn disconnect(&self, user: UserId, conn: ConnId) {
        let mut conns = self.conns.lock().expect("presence lock");
        if let Some(mine) = conns.get_mut(&user) {
            mine.remove(&conn);
            if mine.is_empty() {
                conns.remove(&user);
            }
        }
    }

    /// How many connections `user` has open here.
    pub fn connections(&self, user: UserId) -> usize {
        self.conns
            .lock()
            .expect("presence lock")
            .get(&user)
            .map_or(0, HashMap::len)
    }

    /// Which of `users` have a connection open here.
    pub fn online_of(&self, users: &[UserId]) -> Vec<UserId> {
        let conns = self.conns.lock().expect("presence lock");
        users
            .iter()
            .copied()
            .filter(|u| conns.contains_key(u))
            .collect()
    }

    /// Queues a frame to every connection of `user` here; a full queue misses it (a notice is not worth a
    /// resync). Answers how many connections took it.
    pub fn tell(&self, user: UserId, frame: &Utf8Bytes) -> usize {
        let outboxes: Vec<Outbox> = match self.conns.lock().expect("presence lock").get(&user) {
            Some(mine) => mine.values().cloned().collect(),
            None => return 0,
        };
        outboxes
            .iter()
            .filter(|o| o.try_send(frame.clone()).is_ok())
            .count()
    }
}
