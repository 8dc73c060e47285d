//! A relay's members on this node and how the owner's publications reach them, with a single node's rules: bounded
//! outboxes (`try_send`, the relay never waits for a client), a member that falls behind catches up from the
//! relay's short history of the room's events or, when the history no longer covers it, from a snapshot asked of
//! the owner; one behind for longer than the slow-client limit is closed. No NATS here: the relay feeds it.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;

use super::wire::{Addr, Publication};
use crate::room::CLOSE_ROOM_MOVED;
use crate::ws::outbox::{ConnId, Outbox, SendError};

/// How long a member that left still gets the frames addressed to it (its leave's acknowledgement).
const LEFT_LINGER: Duration = Duration::from_secs(1);

/// One member of the relayed room on this node.
struct Member {
    outbox: Outbox,
    /// The last version it has (`None` until the owner's answer to its join arrives: the events before it are
    /// covered by that answer).
    seen: Option<u64>,
    /// Since when its queue was full.
    behind_since: Option<Instant>,
    /// A snapshot was asked of the owner and has not come.
    resync_asked: bool,
    /// When it left (it then gets no more events).
    left_at: Option<Instant>,
}

/// The members on this node of a room owned by another, and the room's last events.
pub(crate) struct Audience {
    node: String,
    max_history: usize,
    slow_client: Duration,
    members: HashMap<ConnId, Member>,
    history: VecDeque<(u64, Utf8Bytes)>,
}

impl Audience {
    /// The audience on node `node`, keeping `max_history` events and closing members behind for `slow_client`.
    pub(crate) fn new(node: String, max_history: usize, slow_client: Duration) -> Audience {
        Audience {
            node,
            max_history: max_history.max(1),
            slow_client,
            members: HashMap::new(),
            history: VecDeque::new(),
        }
    }

    /// Whether nobody on this node is in the room.
    pub(crate) fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Whether a member is behind (its queue was full): it then needs looking at often.
    pub(crate) fn any_behind(&self) -> bool {
        self.members.values().any(|m| m.behind_since.is_some())
    }

    /// The owner accepted a join: the member waits for the owner's answer (a snapshot or the missed events).
    pub(crate) fn joined(&mut self, outbox: Outbox) {
        let member = self.members.entry(outbox.id).or_insert(Member {
            outbox,
            seen: None,
            behind_since: None,
            resync_asked: false,
            left_at: None,
        });
        member.seen = None;
        member.left_at = None;
    }

    /// A member left the room.
    pub(crate) fn left(&mut self, conn: ConnId, now: Instant) {
        if let Some(m) = self.members.get_mut(&conn) {
            m.left_at = Some(now);
        }
    }

    /// A member's socket is gone.
    pub(crate) fn gone(&mut self, conn: ConnId) {
        self.members.remove(&conn);
    }

    /// Delivers one of the owner's publications to the members on this node.
    pub(crate) fn deliver(&mut self, p: Publication, now: Instant) {
        let node = self.node.clone();
        let mine = |a: &Addr| a.node == node;
        match p {
            Publication::Event {
                version,
                text,
                actor,
                skip,
            } => {
                let plain: Utf8Bytes = text.into();
                self.history.push_back((version, plain.clone()));
                while self.history.len() > self.max_history {
                    self.history.pop_front();
                }
                let actor = actor.filter(|(a, _)| mine(a));
                let skip = skip.filter(mine).map(|a| a.conn);
                for (&id, m) in &mut self.members {
                    if Some(id) == skip || m.left_at.is_some() || m.behind_since.is_some() {
                        continue;
                    }
                    let Some(seen) = m.seen else { continue };
                    if version <= seen {
                        continue;
                    }
                    let frame = match &actor {
                        Some((a, rid)) if a.conn == id => {
                            Utf8Bytes::from(protocol::with_rid(plain.as_str(), *rid))
                        }
                        _ => plain.clone(),
                    };
                    match m.outbox.try_send(frame) {
                        Ok(()) => m.seen = Some(version),
                        Err(SendError::Full) => m.behind_since = Some(now),
                        Err(SendError::Closed) => {}
                    }
                }
            }
            Publication::To {
                to,
                text,
                mine: with_rid,
                version,
                resync,
            } => {
                let plain: Utf8Bytes = text.into();
                for addr in to.iter().filter(|a| mine(a)) {
                    let Some(m) = self.members.get_mut(&addr.conn) else {
                        continue;
                    };
                    let frame = match &with_rid {
                        Some((a, rid)) if a == addr => {
                            Utf8Bytes::from(protocol::with_rid(plain.as_str(), *rid))
                        }
                        _ => plain.clone(),
                    };
                    match m.outbox.try_send(frame) {
                        Ok(()) => {
                            m.seen = Some(m.seen.map_or(version, |s| s.max(version)));
                            if resync {
                                m.behind_since = None;
                                m.resync_asked = false;
                            }
                        }
                        Err(SendError::Full) if !resync => {
                            m.behind_since.get_or_insert(now);
                        }
                        Err(SendError::Full) => m.resync_asked = false,
                        Err(SendError::Closed) => {}
                    }
                }
            }
            Publication::Kick { to } => {
                if mine(&to) {
                    if let Some(m) = self.members.get(&to.conn) {
                        m.outbox.kick();
                    }
                }
            }
            Publication::Moved => {
                for m in self.members.values() {
                    m.outbox
                        .close_now(CLOSE_ROOM_MOVED, "the room moved to another server");
                }
                self.members.clear();
                self.history.clear();
            }
        }
    }

    /// Members that left or whose socket closed go; members behind catch up from the history, or are closed once
    /// behind for longer than the slow-client limit. Answers the members that need a snapshot from the owner
    /// (the history no longer covers them and their queue has room), each asked once.
    pub(crate) fn housekeeping(&mut self, now: Instant) -> Vec<ConnId> {
        self.members.retain(|_, m| {
            !m.outbox.is_closed()
                && m.left_at
                    .is_none_or(|at| now.saturating_duration_since(at) < LEFT_LINGER)
        });
        let mut resyncs = Vec::new();
        for (&id, m) in &mut self.members {
            let Some(since) = m.behind_since else {
                continue;
            };
            if now.saturating_duration_since(since) > self.slow_client {
                m.outbox.kick();
                continue;
            }
            let Some(seen) = m.seen else { continue };
            let first = self.history.front().map_or(u64::MAX, |(v, _)| *v);
            if first <= seen + 1 {
                let mut caught_up = true;
                for (v, text) in self.history.iter().filter(|(v, _)| *v > seen) {
                    if m.outbox.try_send(text.clone()).is_err() {
                        caught_up = false;
                        break;
                    }
                    m.seen = Some(*v);
                }
                if caught_up {
                    m.behind_since = None;
                }
            } else if !m.resync_asked && m.outbox.capacity() > 0 {
                m.resync_asked = true;
                resyncs.push(id);
            }
        }
        resyncs
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tokio::sync::{mpsc, Notify};

    use super::*;
    use crate::ws::outbox::Out;

    fn addr(node: &str, conn: ConnId) -> Addr {
        Addr {
            node: node.into(),
            conn,
        }
    }

    fn member(conn: ConnId, capacity: usize) -> (Outbox, mpsc::Receiver<Out>, Arc<Notify>) {
        let (tx, rx) = mpsc::channel(capacity);
        let kick = Arc::new(Notify::new());
        (Outbox::new(conn, tx, kick.clone()), rx, kick)
    }

    fn event(version: u64) -> Publication {
        Publication::Event {
            version,
            text: format!(r#"{{"type":"event","version":{version}}}"#),
            actor: None,
            skip: None,
        }
    }

    fn answer(to: Addr, version: u64, resync: bool) -> Publication {
        Publication::To {
            to: vec![to],
            text: format!(r#"{{"type":"room","version":{version}}}"#),
            mine: None,
            version,
            resync,
        }
    }

    fn texts(rx: &mut mpsc::Receiver<Out>) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(Out::Text(t)) = rx.try_recv() {
            out.push(t.as_str().to_owned());
        }
        out
    }

    fn versions(rx: &mut mpsc::Receiver<Out>) -> Vec<u64> {
        texts(rx)
            .iter()
            .map(|t| {
                serde_json::from_str::<serde_json::Value>(t).unwrap()["version"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn a_joining_member_gets_no_event_before_the_owners_answer_and_none_it_already_has() {
        let now = Instant::now();
        let mut audience = Audience::new("b".into(), 8, Duration::from_secs(10));
        let (outbox, mut rx, _) = member(1, 16);
        audience.joined(outbox);
        // Published before the owner handled the join: the answer covers it.
        audience.deliver(event(5), now);
        audience.deliver(answer(addr("b", 1), 5, false), now);
        audience.deliver(event(5), now);
        audience.deliver(event(6), now);
        assert_eq!(versions(&mut rx), [5, 6]);
        assert!(texts(&mut rx).is_empty());
    }

    #[test]
    fn frames_for_other_nodes_and_skipped_members_are_not_delivered_and_the_actor_gets_its_request_id(
    ) {
        let now = Instant::now();
        let mut audience = Audience::new("b".into(), 8, Duration::from_secs(10));
        let (one, mut rx1, _) = member(1, 16);
        let (two, mut rx2, _) = member(2, 16);
        audience.joined(one);
        audience.joined(two);
        audience.deliver(answer(addr("b", 1), 1, false), now);
        audience.deliver(answer(addr("b", 2), 1, false), now);
        audience.deliver(answer(addr("c", 1), 1, false), now);
        audience.deliver(
            Publication::Event {
                version: 2,
                text: r#"{"type":"event","version":2}"#.into(),
                actor: Some((addr("b", 1), 7)),
                skip: Some(addr("b", 2)),
            },
            now,
        );
        let got1 = texts(&mut rx1);
        assert_eq!(got1.len(), 2);
        assert!(got1[1].contains(r#""rid":7"#), "{got1:?}");
        assert_eq!(
            texts(&mut rx2).len(),
            1,
            "skipped, and nothing meant for node c"
        );
    }

    #[test]
    fn a_member_whose_queue_is_full_is_behind_and_catches_up_from_the_history() {
        let now = Instant::now();
        let mut audience = Audience::new("b".into(), 8, Duration::from_secs(10));
        let (outbox, mut rx, _) = member(1, 2);
        audience.joined(outbox);
        audience.deliver(answer(addr("b", 1), 1, false), now);
        for v in 2..=5 {
            audience.deliver(event(v), now);
        }
        // The queue took the answer and version 2; 3 found it full, and 4 and 5 waited.
        assert_eq!(versions(&mut rx), [1, 2]);
        assert!(
            audience.housekeeping(now).is_empty(),
            "the history covers it"
        );
        assert_eq!(versions(&mut rx), [3, 4]);
        assert!(audience.housekeeping(now).is_empty());
        assert_eq!(versions(&mut rx), [5]);
        audience.deliver(event(6), now);
        assert_eq!(versions(&mut rx), [6], "caught up: events flow again");
    }

    #[test]
    fn a_member_behind_beyond_the_history_asks_the_owner_once_and_the_snapshot_brings_it_back() {
        let now = Instant::now();
        let mut audience = Audience::new("b".into(), 2, Duration::from_secs(10));
        let (outbox, mut rx, _) = member(1, 1);
        audience.joined(outbox);
        audience.deliver(answer(addr("b", 1), 1, false), now);
        for v in 2..=5 {
            audience.deliver(event(v), now);
        }
        assert_eq!(versions(&mut rx), [1]);
        // The history holds 4 and 5 only: versions 2 and 3 are lost to it.
        assert_eq!(audience.housekeeping(now), [1]);
        assert!(audience.housekeeping(now).is_empty(), "asked once");
        audience.deliver(answer(addr("b", 1), 5, true), now);
        assert_eq!(versions(&mut rx), [5]);
        audience.deliver(event(5), now);
        audience.deliver(event(6), now);
        assert_eq!(
            versions(&mut rx),
            [6],
            "back: the events after the snapshot, none it has"
        );
    }

    #[tokio::test]
    async fn a_member_behind_longer_than_the_slow_client_limit_is_kicked() {
        let now = Instant::now();
        let mut audience = Audience::new("b".into(), 8, Duration::from_secs(10));
        let (outbox, _rx, kick) = member(1, 1);
        audience.joined(outbox);
        audience.deliver(answer(addr("b", 1), 1, false), now);
        audience.deliver(event(2), now);
        let kicked = kick.notified();
        audience.housekeeping(now + Duration::from_secs(10));
        assert!(
            tokio::time::timeout(Duration::from_millis(10), kick.notified())
                .await
                .is_err(),
            "not at the limit"
        );
        drop(kicked);
        audience.housekeeping(now + Duration::from_millis(10_001));
        tokio::time::timeout(Duration::from_secs(1), kick.notified())
            .await
            .expect("kicked past the limit");
    }

    #[test]
    fn a_member_that_left_still_gets_its_acknowledgement_but_no_events_and_then_goes() {
        let now = Instant::now();
        let mut audience = Audience::new("b".into(), 8, Duration::from_secs(10));
        let (outbox, mut rx, _) = member(1, 16);
        audience.joined(outbox);
        audience.deliver(answer(addr("b", 1), 1, false), now);
        audience.left(1, now);
        audience.deliver(event(2), now);
        audience.deliver(answer(addr("b", 1), 2, false), now);
        assert_eq!(versions(&mut rx), [1, 2]);
        audience.housekeeping(now + LEFT_LINGER);
        assert!(audience.is_empty());
    }
}
