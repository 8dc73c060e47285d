//! The lobby across nodes: each node's public rooms are announced on `gomoku.lobby` and listed by every other
//! node's own lobby task. Announcements are throttled: a node sends at most one message per [`FLUSH`], holding
//! the latest word on each room that changed (a burst of spectator joins costs one entry), and announces all its
//! listed rooms again every [`REANNOUNCE`], so a node that starts late learns them and a node that stops is
//! forgotten: a room not heard of for [`FORGET_AFTER`] leaves the lists.
//!
//! The announcements also carry the node's online count (its distinct players) when it changed, and always with
//! the whole list: every node's lobby shows its own count plus each other node's latest, and a node not heard
//! from for [`FORGET_AFTER`] stops counting.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use protocol::LobbyRoom;
use serde::{Deserialize, Serialize};

use crate::lobby::{Listing, LobbyHandle};

/// The subject every node announces its public rooms on.
const SUBJECT: &str = "gomoku.lobby";
/// Most often a node announces.
pub(crate) const FLUSH: Duration = Duration::from_millis(100);
/// How often a node announces all its listed rooms again.
pub(crate) const REANNOUNCE: Duration = Duration::from_secs(5);
/// How long a room of another node stays listed without being announced.
pub(crate) const FORGET_AFTER: Duration = Duration::from_secs(15);

/// A listed room as announced: what the lobby shows of it, and what it orders and caps it by (the creator's
/// address is counted on every node, so one address's rooms spread over nodes meet one cap).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Listed {
    #[serde(flatten)]
    room: LobbyRoom,
    #[serde(default)]
    listing: Listing,
}

/// One node's word on its rooms.
#[derive(Debug, Serialize, Deserialize)]
struct Announcement {
    node: String,
    listed: Vec<Listed>,
    removed: Vec<String>,
    /// The node's distinct players online, when it changed (and with every whole list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    online: Option<u32>,
}

/// What this node has to say about its public rooms.
#[derive(Debug, Default)]
pub(crate) struct Announcer {
    /// The rooms this node lists now.
    listed: HashMap<String, Listed>,
    /// Rooms that changed since the last announcement (`None`: removed).
    changed: HashMap<String, Option<Listed>>,
}

impl Announcer {
    /// A room of this node is listed or changed.
    pub(crate) fn upsert(&mut self, room: LobbyRoom, listing: Listing) {
        let listed = Listed { room, listing };
        self.listed.insert(listed.room.id.clone(), listed.clone());
        self.changed.insert(listed.room.id.clone(), Some(listed));
    }

    /// A room of this node is no longer listed.
    pub(crate) fn remove(&mut self, id: &str) {
        if self.listed.remove(id).is_some() || self.changed.contains_key(id) {
            self.changed.insert(id.to_owned(), None);
        }
    }

    /// What to announce now: the changes, or with `all` every listed room (and the removals).
    fn take(&mut self, all: bool) -> (Vec<Listed>, Vec<String>) {
        let changed = std::mem::take(&mut self.changed);
        let removed = changed
            .iter()
            .filter(|(_, r)| r.is_none())
            .map(|(id, _)| id.clone())
            .collect();
        let listed = if all {
            self.listed.values().cloned().collect()
        } else {
            changed.into_values().flatten().collect()
        };
        (listed, removed)
    }
}

/// Announces this node's rooms (throttled) and lists the other nodes' in this node's lobby, while `nats` lives.
pub(crate) async fn run(
    nats: async_nats::Client,
    node: String,
    announcer: Arc<Mutex<Announcer>>,
    lobby: LobbyHandle,
) {
    let mut news = match nats.subscribe(SUBJECT).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "could not follow the other nodes' lobbies");
            return;
        }
    };
    let mut flush = tokio::time::interval(FLUSH);
    let mut last_all = Instant::now();
    let mut heard: HashMap<String, Instant> = HashMap::new();
    let local = lobby.local_online();
    // The count last announced (`None`: none yet), and when each other node's count was last heard.
    let mut online_said: Option<u32> = None;
    let mut nodes: HashMap<String, Instant> = HashMap::new();
    loop {
        tokio::select! {
            msg = news.next() => {
                let Some(msg) = msg else { break };
                let Ok(a) = serde_json::from_slice::<Announcement>(&msg.payload) else { continue };
                if a.node == node {
                    continue;
                }
                let now = Instant::now();
                if let Some(online) = a.online {
                    nodes.insert(a.node.clone(), now);
                    lobby.node_online(&a.node, Some(online));
                }
                for Listed { room, listing } in a.listed {
                    heard.insert(room.id.clone(), now);
                    lobby.upsert(room, listing);
                }
                for id in a.removed {
                    heard.remove(&id);
                    lobby.remove(&id);
                }
            }
            _ = flush.tick() => {
                let all = last_all.elapsed() >= REANNOUNCE;
                if all {
                    last_all = Instant::now();
                    heard.retain(|id, at| {
                        let keep = at.elapsed() < FORGET_AFTER;
                        if !keep {
                            lobby.remove(id);
                        }
                        keep
                    });
                    nodes.retain(|other, at| {
                        let keep = at.elapsed() < FORGET_AFTER;
                        if !keep {
                            lobby.node_online(other, None);
                        }
                        keep
                    });
                }
                let (listed, removed) = announcer.lock().expect("announcer lock").take(all);
                let here = *local.borrow();
                let online = (all || online_said != Some(here)).then_some(here);
                if listed.is_empty() && removed.is_empty() && online.is_none() {
                    continue;
                }
                online_said = Some(here);
                let a = Announcement { node: node.clone(), listed, removed, online };
                let bytes = serde_json::to_vec(&a).expect("announcements serialise");
                if let Err(e) = nats.publish(SUBJECT, bytes.into()).await {
                    tracing::warn!(error = %e, "could not announce this node's rooms");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(id: &str, spectators: u32) -> LobbyRoom {
        let mut r: LobbyRoom = serde_json::from_value(serde_json::json!({
            "id": id, "rules": null,
            "time_control": {"kind": "none"}, "rated": false, "state": "waiting", "players": [], "spectators": 0
        }))
        .unwrap_or_else(|e| panic!("a lobby room: {e}"));
        r.spectators = spectators;
        r
    }

    #[test]
    fn a_burst_of_changes_to_one_room_is_announced_once_with_the_latest() {
        let mut a = Announcer::default();
        for n in 0..50 {
            a.upsert(room("r1", n), Listing::default());
        }
        let (listed, removed) = a.take(false);
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].room.spectators, 49);
        assert!(removed.is_empty());
        assert_eq!(a.take(false), (vec![], vec![]), "nothing new");
    }

    #[test]
    fn a_listing_crosses_nodes_with_the_room() {
        let mut a = Announcer::default();
        let listing = Listing {
            address: Some("203.0.113.7".parse().unwrap()),
            standing: crate::lobby::Standing::Rated,
        };
        a.upsert(room("r1", 0), listing);
        let (listed, _) = a.take(false);
        let wire = serde_json::to_value(Announcement {
            node: "a".into(),
            listed,
            removed: vec![],
            online: None,
        })
        .unwrap();
        let back: Announcement = serde_json::from_value(wire).unwrap();
        assert_eq!(back.listed[0].listing, listing);
        assert_eq!(back.listed[0].room, room("r1", 0));
    }

    #[test]
    fn a_removal_wins_over_earlier_changes_and_every_listed_room_is_announced_again() {
        let mut a = Announcer::default();
        a.upsert(room("r1", 0), Listing::default());
        a.upsert(room("r2", 0), Listing::default());
        a.take(false);
        a.upsert(room("r2", 3), Listing::default());
        a.remove("r2");
        a.remove("never-listed");
        let (listed, removed) = a.take(false);
        assert!(listed.is_empty());
        assert_eq!(removed, ["r2".to_owned()]);
        let (all, _) = a.take(true);
        assert_eq!(
            all.iter().map(|r| r.room.id.as_str()).collect::<Vec<_>>(),
            ["r1"]
        );
    }
}
