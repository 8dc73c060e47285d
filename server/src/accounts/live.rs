//! Live sessions: which open WebSocket connections act under which session token, so that revoking a session
//! (logout, "log out everywhere", a new login in its place) also ends what it has open. Without this a socket
//! opened before the logout would keep playing as the user.
//!
//! A connection registers its token's hash *before* it resumes the session and keeps the [`LiveSession`] guard
//! for as long as it acts under it. Revokers delete the session in the store first, then call
//! [`LiveSessions::revoke`]: a connection that registered too late for the revoke finds the session gone when it
//! resumes, so there is no window in which a revoked session stays live.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use protocol::{code, encode, ServerMessage};

use crate::ws::outbox::Outbox;

/// The WebSocket close code of a connection whose session was revoked (an application code: 4000–4999).
pub const CLOSE_SESSION_REVOKED: u16 = 4001;

/// The registry of connections by session token hash: a cheap handle, shared by the accounts API and every
/// connection.
#[derive(Clone, Default)]
pub struct LiveSessions {
    inner: Arc<Registry>,
}

#[derive(Default)]
struct Registry {
    next: AtomicU64,
    by_token: Mutex<HashMap<Vec<u8>, Vec<Entry>>>,
}

struct Entry {
    id: u64,
    outbox: Outbox,
    revoked: Arc<AtomicBool>,
}

impl LiveSessions {
    /// A fresh registry.
    pub fn new() -> LiveSessions {
        LiveSessions::default()
    }

    /// Registers a connection as acting under the session with this token hash, until the guard drops.
    pub fn watch(&self, token_hash: Vec<u8>, outbox: Outbox) -> LiveSession {
        let id = self.inner.next.fetch_add(1, Ordering::Relaxed);
        let revoked = Arc::new(AtomicBool::new(false));
        self.lock()
            .entry(token_hash.clone())
            .or_default()
            .push(Entry {
                id,
                outbox,
                revoked: revoked.clone(),
            });
        LiveSession {
            registry: self.clone(),
            token_hash,
            id,
            revoked,
        }
    }

    /// Ends every connection acting under the session with this token hash: each is marked revoked (it stops
    /// acting at once), gets a `session_revoked` error and is closed with [`CLOSE_SESSION_REVOKED`]. Returns how
    /// many there were.
    pub fn revoke(&self, token_hash: &[u8]) -> usize {
        let entries = self.lock().remove(token_hash).unwrap_or_default();
        let notice = encode(
            &ServerMessage::error(
                code::SESSION_REVOKED,
                "this session was signed out; sign in again",
            ),
            None,
        );
        for entry in &entries {
            entry.revoked.store(true, Ordering::SeqCst);
            // A full queue loses the notice, never the close.
            let _ = entry.outbox.try_send(notice.clone().into());
            entry.outbox.close_now(CLOSE_SESSION_REVOKED, "signed out");
        }
        entries.len()
    }

    /// How many connections are registered (for tests and metrics).
    pub fn connections(&self) -> usize {
        self.lock().values().map(Vec::len).sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u8>, Vec<Entry>>> {
        // A poisoned lock only means a panic elsewhere mid-update; the map itself is still consistent.
        self.inner
            .by_token
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

/// One connection's registration under a session; dropping it unregisters the connection.
pub struct LiveSession {
    registry: LiveSessions,
    token_hash: Vec<u8>,
    id: u64,
    revoked: Arc<AtomicBool>,
}

impl LiveSession {
    /// Whether the session was revoked: the connection must no longer act under it (its close is on the way).
    pub fn revoked(&self) -> bool {
        self.revoked.load(Ordering::SeqCst)
    }
}

impl Drop for LiveSession {
    fn drop(&mut self) {
        let mut map = self.registry.lock();
        if let Some(entries) = map.get_mut(&self.token_hash) {
            entries.retain(|e| e.id != self.id);
            if entries.is_empty() {
                map.remove(&self.token_hash);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ws::outbox::Out;
    use tokio::sync::{mpsc, Notify};

    fn outbox(id: u64) -> (Outbox, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(4);
        (Outbox::new(id, tx, Arc::new(Notify::new())), rx)
    }

    #[test]
    fn revoking_a_session_closes_only_its_connections() {
        let live = LiveSessions::new();
        let (a, mut rx_a) = outbox(1);
        let (b, mut rx_b) = outbox(2);
        let watched_a = live.watch(vec![1], a);
        let watched_b = live.watch(vec![2], b);

        assert_eq!(live.revoke(&[1]), 1);

        assert!(watched_a.revoked());
        assert!(!watched_b.revoked());
        match rx_a.try_recv().unwrap() {
            Out::Text(text) => assert!(text.as_str().contains("session_revoked"), "{text}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            rx_a.try_recv().unwrap(),
            Out::Close(CLOSE_SESSION_REVOKED, _)
        ));
        assert!(rx_b.try_recv().is_err());
        assert_eq!(live.revoke(&[1]), 0, "nothing left under the token");
    }

    #[test]
    fn a_dropped_guard_unregisters_its_connection() {
        let live = LiveSessions::new();
        let (a, _rx_a) = outbox(1);
        let (b, _rx_b) = outbox(2);
        let first = live.watch(vec![7], a);
        let _second = live.watch(vec![7], b);
        assert_eq!(live.connections(), 2);

        drop(first);

        assert_eq!(live.connections(), 1);
        assert_eq!(live.revoke(&[7]), 1);
    }
}
