//! One connection's state and its life: [`serve`] starts the writer ([`super::writer`]) and runs the reader
//! ([`super::reader`]) over a [`Conn`]; a decoded message goes to identity resumption ([`super::resume`]) until
//! the client said hello, then to [`super::dispatch`].

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::WebSocket;
use futures_util::StreamExt;
use protocol::{code, decode, encode, ClientMessage, Frame, ServerMessage};
use tokio::sync::{mpsc, oneshot, Notify};

use super::outbox::{Out, Outbox};
use super::writer::{write, CLOSE_TRY_LATER};
use crate::accounts::live::LiveSession;
use crate::identity::Identity;
use crate::limits::{ConnectionPermit, PlayerPermit, Refusal, TokenBucket};
use crate::room::RoomError;
use crate::AppState;

/// One abuse allowance comes back this often.
const ABUSE_REFILL_SECS: f64 = 5.0;

/// Serves one upgraded socket until it closes.
pub(super) async fn serve(
    socket: WebSocket,
    state: AppState,
    addr: SocketAddr,
    permit: Result<ConnectionPermit, Refusal>,
    ambient_token: Option<String>,
) {
    let _tracked = state.track_connection();
    let (sink, stream) = socket.split();
    let (outbox, rx, kick) = outbox(&state);
    let id = outbox.id;
    let (done_tx, done_rx) = oneshot::channel();
    let ping = Duration::from_secs(state.config.ping_secs.max(1));
    let stamp = super::lag::Stamp::new(state.clock.clone());
    let writer = tokio::spawn(write(sink, rx, kick, ping, stamp.clone(), done_tx));
    let _permit = match permit {
        Ok(permit) => permit,
        Err(refusal) => {
            tracing::debug!(conn = id, %addr, ?refusal, "too many connections");
            refuse(&outbox, refusal, None).await;
            drop(outbox);
            let _ = writer.await;
            return;
        }
    };
    tracing::debug!(conn = id, %addr, "connected");
    let mut conn = Conn::open(state, outbox, ambient_token, addr.ip());
    conn.stamp = Some(stamp);
    // A socket counts toward its player's cap once it says who it is.
    conn.player_capped = true;
    conn.read(stream, done_rx).await;
    // Boxed for the same reason as a frame's handling (see `Conn::read`): leaving rooms runs once, at the end.
    Box::pin(conn.close()).await;
    drop(conn);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
    tracing::debug!(conn = id, "disconnected");
}

/// Answers a connection a cap refuses: `too_many_connections` (answering `rid`), then close code 1013 ("try
/// again later") with the cap's reason.
pub(super) async fn refuse(outbox: &Outbox, refusal: Refusal, rid: Option<u64>) {
    let msg = ServerMessage::error(code::TOO_MANY_CONNECTIONS, refusal.message());
    let _ = outbox.send(Out::Text(encode(&msg, rid).into())).await;
    let _ = outbox
        .send(Out::Close(CLOSE_TRY_LATER, refusal.close_reason()))
        .await;
}

/// A fresh connection id with its bounded writer queue: the handle rooms and the lobby send to, the receiving
/// end (the writer's), and the signal that kicks a client that fell too far behind.
pub(super) fn outbox(state: &AppState) -> (Outbox, mpsc::Receiver<Out>, Arc<Notify>) {
    let (tx, rx) = mpsc::channel(state.config.outbox_capacity);
    let kick = Arc::new(Notify::new());
    let outbox = Outbox::new(state.next_conn_id(), tx, kick.clone());
    (outbox, rx, kick)
}

/// What the reader of one connection knows: who it is, which rooms it joined, its rate limits.
pub(super) struct Conn {
    /// The app, for the rooms, the lobby, identities and limits.
    pub(super) state: AppState,
    /// Its writer queue, which its answers and its rooms' events go into.
    pub(super) outbox: Outbox,
    /// Who it is, once it said hello.
    pub(super) identity: Option<Identity>,
    /// The token of the upgrade request (session cookie or bearer), used when `hello` brings none.
    pub(super) ambient_token: Option<String>,
    /// The session the connection acts under, registered so that revoking it closes the connection.
    pub(super) live: Option<LiveSession>,
    /// Whether it counts toward its player's connection cap (`--max-connections-per-player`): a socket does, the
    /// computer's in-process connection does not.
    pub(super) player_capped: bool,
    /// Its place under its player's cap, once it said hello.
    pub(super) player_permit: Option<PlayerPermit>,
    /// The client's address: new guests are limited per address.
    pub(super) peer: IpAddr,
    /// A guest's token until its session is kept for long ([`crate::identity::Identities::keep`]), which
    /// happens when the guest first joins or creates a room.
    pub(super) unkept_guest_token: Option<String>,
    /// The rooms it joined or created, which it leaves when it closes.
    pub(super) rooms: HashSet<Arc<str>>,
    /// Subscribed to the lobby.
    pub(super) lobby: bool,
    /// The message rate limit.
    pub(super) bucket: TokenBucket,
    /// The allowance of bad frames before the connection is closed with 1008.
    pub(super) abuse: TokenBucket,
    /// A close frame is queued: the reader stops.
    pub(super) closing: bool,
    /// How its pings were stamped (none for a socket-less connection): pongs are read with it.
    pub(super) stamp: Option<super::lag::Stamp>,
    /// Its round-trip time, from its pongs.
    pub(super) rtt: super::lag::RttEstimate,
    /// Whether it waits in a quick-pairing queue (or did when it last asked).
    pub(super) seeking: bool,
    /// Rooms the pairing task opened for it arrive here (the sender goes with each seek); they join `rooms`.
    pub(super) adopted: (
        mpsc::UnboundedSender<Arc<str>>,
        mpsc::UnboundedReceiver<Arc<str>>,
    ),
}

impl Conn {
    /// A connection from `peer` that has not said hello yet, answering into `outbox`; counted as connected until
    /// [`Conn::close`].
    pub(super) fn open(
        state: AppState,
        outbox: Outbox,
        ambient_token: Option<String>,
        peer: IpAddr,
    ) -> Conn {
        state.metrics.connections.fetch_add(1, Ordering::Relaxed);
        let now = state.clock.now();
        Conn {
            bucket: TokenBucket::new(state.config.msg_rate, state.config.msg_burst, now),
            abuse: TokenBucket::new(
                1.0 / ABUSE_REFILL_SECS,
                state.config.abuse_limit.max(1),
                now,
            ),
            state,
            outbox,
            identity: None,
            ambient_token,
            live: None,
            player_capped: false,
            player_permit: None,
            peer,
            unkept_guest_token: None,
            rooms: HashSet::new(),
            lobby: false,
            closing: false,
            stamp: None,
            rtt: super::lag::RttEstimate::default(),
            seeking: false,
            adopted: mpsc::unbounded_channel(),
        }
    }

    /// The connection is gone: tells its rooms and the lobby.
    pub(super) async fn close(&mut self) {
        self.cleanup().await;
        self.state
            .metrics
            .connections
            .fetch_sub(1, Ordering::Relaxed);
    }

    /// The connection's id (for the socket-less connection of the `testkit` feature).
    #[cfg(feature = "testkit")]
    pub(super) fn id(&self) -> super::outbox::ConnId {
        self.outbox.id
    }

    /// Whether the connection decided to close (it queued a close frame after too many bad frames); for the
    /// socket-less connection of the `testkit` feature.
    #[cfg(feature = "testkit")]
    pub(super) fn closing(&self) -> bool {
        self.closing
    }

    /// Queues one message, answering `rid`.
    pub(super) async fn send(&self, msg: &ServerMessage, rid: Option<u64>) {
        let _ = self.outbox.send(Out::Text(encode(msg, rid).into())).await;
    }

    /// Queues an error frame, counted in the metrics.
    pub(super) async fn error(&self, code: &str, message: &str, rid: Option<u64>) {
        self.state
            .metrics
            .errors_out
            .fetch_add(1, Ordering::Relaxed);
        self.send(&ServerMessage::error(code, message), rid).await;
    }

    /// Queues a room's refusal as an error frame (saying when to try again, when it can).
    pub(super) async fn room_error(&self, e: RoomError, rid: Option<u64>) {
        self.state
            .metrics
            .errors_out
            .fetch_add(1, Ordering::Relaxed);
        let retry = e.retry_after_ms();
        let msg = ServerMessage::error_retry(e.code, e.message, retry);
        self.send(&msg, rid).await;
    }

    /// One admitted text frame: decoded, then `hello` until the client said it, then dispatched.
    pub(super) async fn on_text(&mut self, text: &str) {
        if self.live.as_ref().is_some_and(LiveSession::revoked) {
            // Signed out: nothing more happens under this session; its close frame is already queued.
            return;
        }
        let Frame { rid, msg } =
            match decode::<ClientMessage>(text, self.state.config.max_frame_bytes) {
                Ok(frame) => frame,
                Err(e) => {
                    let message = e.to_string();
                    self.violation(e.code(), &message, e.rid).await;
                    return;
                }
            };
        if let ClientMessage::CreateRoom {
            rules: None,
            game: None,
            ..
        } = msg
        {
            // Refused as the decoder refused it when `rules` was required: same code, words and violation.
            self.violation(code::INVALID_FIELD, super::dispatch::MISSING_CONFIG, rid)
                .await;
            return;
        }
        let Some(identity) = self.identity.clone() else {
            if let ClientMessage::Hello { version, token } = msg {
                self.hello(version, token, rid).await;
            } else {
                self.violation(code::HELLO_REQUIRED, "say hello first", rid)
                    .await;
            }
            return;
        };
        let started = Instant::now();
        let room_request = msg.room().is_some() || matches!(msg, ClientMessage::CreateRoom { .. });
        self.dispatch(identity, msg, rid).await;
        if room_request {
            self.state.metrics.action_seconds.observe(started.elapsed());
        }
    }

    /// This connection as the challenges task reaches it.
    pub(super) fn reach(&self) -> crate::challenges::Reach {
        crate::challenges::Reach {
            outbox: self.outbox.clone(),
            adopt: self.adopted.0.clone(),
            ip: self.peer,
        }
    }

    /// Moves the rooms the pairing task opened for this connection into the ones it leaves when it closes.
    pub(super) fn adopt_paired_rooms(&mut self) {
        while let Ok(id) = self.adopted.1.try_recv() {
            self.seeking = false;
            self.rooms.insert(id);
        }
    }

    /// Tells every joined room and the lobby that this connection is gone.
    async fn cleanup(&mut self) {
        if self.seeking {
            // After this the connection is in no queue and every room paired for it is in `adopted`.
            self.state.pairing.cancel(self.outbox.id).await;
        }
        self.adopt_paired_rooms();
        if let Some(identity) = &self.identity {
            self.state.lobby.online(&identity.id, false);
            if let Some(user) = identity.user_id {
                self.state.presence.disconnect(user, self.outbox.id);
            }
            self.state.challenges.disconnect(self.outbox.id);
        }
        if self.lobby {
            self.state.lobby.unsubscribe(self.outbox.id);
        }
        for id in self.rooms.drain() {
            if let Some(room) = self.state.rooms.get(&id) {
                room.disconnected(self.outbox.id).await;
            }
        }
    }
}

/// What the tests of the connection's parts share: a state over a fresh database, and the frames a connection
/// queued.
#[cfg(test)]
pub(super) mod testing {
    use protocol::{decode, Frame, ServerMessage};
    use tokio::sync::mpsc;

    use super::super::outbox::Out;
    use crate::{AppState, Config};

    /// The app's state with the default configuration over a fresh SQLite database (kept while the dir lives).
    pub(crate) async fn state() -> (AppState, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let store = store::open(&dir.path().join("t.db").to_string_lossy())
            .await
            .unwrap();
        (AppState::new(Config::default(), store).await.unwrap(), dir)
    }

    /// The next queued frame, which must be a text frame the protocol decodes.
    pub(crate) fn next_frame(rx: &mut mpsc::Receiver<Out>) -> Frame<ServerMessage> {
        match rx.try_recv() {
            Ok(Out::Text(t)) => decode::<ServerMessage>(&t, usize::MAX).unwrap(),
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}
