//! One connection: the reader decodes, rate-limits and dispatches client messages; the writer drains the bounded
//! outbox into the socket.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use protocol::{code, decode, encode, ClientMessage, Frame, ServerMessage, You};
use tokio::sync::{mpsc, oneshot, Notify};

use super::outbox::{Out, Outbox};
use crate::accounts::live::LiveSession;
use crate::identity::{hash_token, Identity, NewGuestError};
use crate::limits::{address_key, ConnectionPermit, TokenBucket};
use crate::room::{Act, RoomError, RoomHandle, Settings};
use crate::AppState;

/// Close code for policy violations (abuse).
const CLOSE_POLICY: u16 = 1008;
/// Close code when the server goes away.
const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code when the server is full.
const CLOSE_TRY_LATER: u16 = 1013;
/// How long a close frame may take to go out before the socket is simply dropped.
const CLOSE_WAIT: Duration = Duration::from_secs(2);
/// One abuse allowance comes back this often.
const ABUSE_REFILL_SECS: f64 = 5.0;

/// Serves one upgraded socket until it closes.
pub(super) async fn serve(
    socket: WebSocket,
    state: AppState,
    addr: SocketAddr,
    permit: Option<ConnectionPermit>,
    ambient_token: Option<String>,
) {
    let _tracked = state.track_connection();
    let (sink, stream) = socket.split();
    let (outbox, rx, kick) = outbox(&state);
    let id = outbox.id;
    let (done_tx, done_rx) = oneshot::channel();
    let ping = Duration::from_secs(state.config.ping_secs.max(1));
    let writer = tokio::spawn(write(sink, rx, kick, ping, done_tx));
    let Some(_permit) = permit else {
        let msg = ServerMessage::error(
            code::TOO_MANY_CONNECTIONS,
            "the server holds as many connections as it allows; try again later",
        );
        let _ = outbox.send(Out::Text(encode(&msg, None).into())).await;
        let _ = outbox
            .send(Out::Close(CLOSE_TRY_LATER, "too many connections"))
            .await;
        drop(outbox);
        let _ = writer.await;
        return;
    };
    tracing::debug!(conn = id, %addr, "connected");
    let mut conn = Conn::open(state, outbox, ambient_token, addr.ip());
    conn.read(stream, done_rx).await;
    conn.close().await;
    drop(conn);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
    tracing::debug!(conn = id, "disconnected");
}

/// A fresh connection id with its bounded writer queue: the handle rooms and the lobby send to, the receiving
/// end (the writer's), and the signal that kicks a client that fell too far behind.
pub(super) fn outbox(state: &AppState) -> (Outbox, mpsc::Receiver<Out>, Arc<Notify>) {
    let (tx, rx) = mpsc::channel(state.config.outbox_capacity);
    let kick = Arc::new(Notify::new());
    let outbox = Outbox::new(state.next_conn_id(), tx, kick.clone());
    (outbox, rx, kick)
}

async fn write<S>(
    mut sink: S,
    mut rx: mpsc::Receiver<Out>,
    kick: Arc<Notify>,
    ping_every: Duration,
    _done: oneshot::Sender<()>,
) where
    S: Sink<Message> + Unpin,
{
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    // One kick waiter for the whole connection, polled by both selects below: a fresh `notified()` per select
    // would join and leave the Notify's waiter list (a mutex each time) twice for every frame sent. A kick that
    // comes while this waiter is not being polled is kept in it (or as the Notify's permit before its first
    // poll), so none is lost; and it completes only once, since either select then stops the writer.
    let kicked = kick.notified();
    tokio::pin!(kicked);
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(Out::Text(text)) => {
                    // A client that stopped reading blocks this send; a kick must still get through.
                    tokio::select! {
                        sent = sink.send(Message::Text(text)) => {
                            if sent.is_err() {
                                break;
                            }
                        }
                        () = &mut kicked => break,
                    }
                }
                Some(Out::Close(code, reason)) => {
                    let frame = CloseFrame { code, reason: reason.into() };
                    let _ = tokio::time::timeout(CLOSE_WAIT, sink.send(Message::Close(Some(frame)))).await;
                    break;
                }
                None => {
                    let _ = tokio::time::timeout(CLOSE_WAIT, sink.close()).await;
                    break;
                }
            },
            () = &mut kicked => {
                // Ahead of the frames it could not take, so the client learns why it is closed (and that a
                // reconnect with `since` catches it up). A socket that takes nothing gets no close frame either.
                let why = ServerMessage::error(
                    code::SLOW_CLIENT,
                    "this connection fell too far behind its events; reconnect to catch up",
                );
                let told = sink.send(Message::Text(encode(&why, None).into()));
                if matches!(tokio::time::timeout(CLOSE_WAIT, told).await, Ok(Ok(()))) {
                    let frame = CloseFrame { code: CLOSE_POLICY, reason: "too slow".into() };
                    let _ = tokio::time::timeout(CLOSE_WAIT, sink.send(Message::Close(Some(frame)))).await;
                }
                break;
            }
            _ = ping.tick() => {
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
        }
    }
    // Dropping `_done` tells the reader to stop, which drops the socket.
}

/// What the reader of one connection knows: who it is, which rooms it joined, its rate limits.
pub(super) struct Conn {
    state: AppState,
    outbox: Outbox,
    identity: Option<Identity>,
    /// The token of the upgrade request (session cookie or bearer), used when `hello` brings none.
    ambient_token: Option<String>,
    /// The session the connection acts under, registered so that revoking it closes the connection.
    live: Option<LiveSession>,
    /// The client's address: new guests are limited per address.
    peer: IpAddr,
    /// A guest's token until its session is kept for long ([`crate::identity::Identities::keep`]), which
    /// happens when the guest first joins or creates a room.
    unkept_guest_token: Option<String>,
    rooms: HashSet<Arc<str>>,
    lobby: bool,
    bucket: TokenBucket,
    abuse: TokenBucket,
    closing: bool,
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
            peer,
            unkept_guest_token: None,
            rooms: HashSet::new(),
            lobby: false,
            closing: false,
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

    /// One text frame from the client: rate-limited, then decoded and handled.
    pub(super) async fn on_text_frame(&mut self, text: &str) {
        if self.count_message() {
            self.on_text(text).await;
        } else {
            // The refusal answers the request it refuses, so a client waiting on its rid hears why.
            let rid = protocol::peek_rid(text, self.state.config.max_frame_bytes);
            self.violation(code::RATE_LIMITED, "too many messages; slow down", rid)
                .await;
        }
    }

    async fn read<St>(&mut self, mut stream: St, mut writer_done: oneshot::Receiver<()>)
    where
        St: Stream<Item = Result<Message, axum::Error>> + Unpin,
    {
        let mut shutdown = self.state.shutdown.subscribe();
        // The shutdown waiter and the idle timer live as long as the connection: built afresh for every frame,
        // each would register with the watch channel and the timer wheel and leave again per frame.
        let shutting_down = async move {
            let _ = shutdown.wait_for(|&s| s).await;
        };
        tokio::pin!(shutting_down);
        let idle = Duration::from_secs(self.state.config.idle_secs.max(1));
        // The connection is idle when no frame came for `idle` since the reader last began to wait. The timer is
        // set for that deadline only when it fires early, not moved forward on every frame.
        let mut waiting_since = tokio::time::Instant::now();
        let idle_timer = tokio::time::sleep_until(waiting_since + idle);
        tokio::pin!(idle_timer);
        // Until it says hello a socket is nobody's, and pings or pongs alone must not keep it open.
        let hello_within = Duration::from_secs(self.state.config.hello_secs.max(1));
        let hello_timer = tokio::time::sleep(hello_within);
        tokio::pin!(hello_timer);
        while !self.closing {
            let next = tokio::select! {
                biased;
                () = &mut shutting_down => {
                    // Told before the close, so a client can tell a restart (come back soon) from a lost network.
                    self.error(code::SHUTTING_DOWN, "the server is shutting down; reconnect in a moment", None)
                        .await;
                    let _ = self.outbox.send(Out::Close(CLOSE_GOING_AWAY, "server shutting down")).await;
                    return;
                }
                _ = &mut writer_done => return,
                // Before the idle timer: a frame that is there wins over a deadline that passed meanwhile.
                next = stream.next() => next,
                () = &mut hello_timer, if self.identity.is_none() => {
                    let message = format!("say hello within {} s", hello_within.as_secs());
                    self.error(code::HELLO_REQUIRED, &message, None).await;
                    let _ = self.outbox.send(Out::Close(CLOSE_POLICY, "no hello")).await;
                    return;
                }
                () = &mut idle_timer => {
                    let deadline = waiting_since + idle;
                    if tokio::time::Instant::now() < deadline {
                        idle_timer.as_mut().reset(deadline);
                        continue;
                    }
                    let _ = self.outbox.send(Out::Close(1000, "idle")).await;
                    return;
                }
            };
            let message = match next {
                None => return,
                Some(Err(e)) => {
                    tracing::debug!(conn = self.outbox.id, error = %e, "read failed");
                    let _ = self
                        .outbox
                        .send(Out::Close(CLOSE_POLICY, "unreadable frame"))
                        .await;
                    return;
                }
                Some(Ok(m)) => m,
            };
            match message {
                Message::Text(text) => self.on_text_frame(&text).await,
                Message::Binary(_) => {
                    if self.admit().await {
                        self.violation(
                            code::BINARY_FRAME,
                            "binary frames are not part of the protocol",
                            None,
                        )
                        .await;
                    }
                }
                Message::Close(_) => return,
                // Pings cost the client like messages (they make us write); pongs answer ours.
                Message::Ping(_) => {
                    self.admit().await;
                }
                Message::Pong(_) => {}
            }
            waiting_since = tokio::time::Instant::now();
        }
    }

    /// Counts a message against the rate limit; `false` when it is over (the caller answers `rate_limited`).
    fn count_message(&mut self) -> bool {
        self.state
            .metrics
            .messages_in
            .fetch_add(1, Ordering::Relaxed);
        self.bucket.take(self.state.clock.now())
    }

    /// Counts a frame that carries no request against the rate limit, answering `rate_limited` when it is over.
    async fn admit(&mut self) -> bool {
        if self.count_message() {
            return true;
        }
        self.violation(code::RATE_LIMITED, "too many messages; slow down", None)
            .await;
        false
    }

    async fn send(&self, msg: &ServerMessage, rid: Option<u64>) {
        let _ = self.outbox.send(Out::Text(encode(msg, rid).into())).await;
    }

    async fn error(&self, code: &str, message: &str, rid: Option<u64>) {
        self.state
            .metrics
            .errors_out
            .fetch_add(1, Ordering::Relaxed);
        self.send(&ServerMessage::error(code, message), rid).await;
    }

    async fn room_error(&self, e: RoomError, rid: Option<u64>) {
        self.error(&e.code, &e.message, rid).await;
    }

    /// Answers a bad frame; a connection that keeps sending them is closed with 1008.
    async fn violation(&mut self, code: &str, message: &str, rid: Option<u64>) {
        self.error(code, message, rid).await;
        if !self.abuse.take(self.state.clock.now()) {
            tracing::info!(conn = self.outbox.id, code, "closing an abusive connection");
            self.state.metrics.kicked.fetch_add(1, Ordering::Relaxed);
            let _ = self
                .outbox
                .send(Out::Close(CLOSE_POLICY, "policy violation"))
                .await;
            self.closing = true;
        }
    }

    async fn on_text(&mut self, text: &str) {
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

    async fn hello(&mut self, version: u32, token: Option<String>, rid: Option<u64>) {
        if version != protocol::PROTOCOL_VERSION {
            self.error(
                code::UNSUPPORTED_VERSION,
                &format!("this server speaks protocol {}", protocol::PROTOCOL_VERSION),
                rid,
            )
            .await;
            return;
        }
        // The token in `hello` first, then the upgrade request's; a cookie's token is never echoed back to scripts.
        let candidates = [(token, true), (self.ambient_token.take(), false)];
        let mut resumed = None;
        let mut offered = false;
        for (candidate, echo) in candidates {
            let Some(t) = candidate else { continue };
            offered = true;
            // Watched before it is read, so a logout in between still reaches this connection.
            let live = (self.state.live_sessions).watch(hash_token(&t), self.outbox.clone());
            match self.state.identities.resume(&t).await {
                Ok(Some(identity)) => {
                    let shown = if echo { t.clone() } else { String::new() };
                    resumed = Some((identity, shown, t, live));
                    break;
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::error!(error = %e, "could not read a session");
                    return self.error(code::INTERNAL, "try again", rid).await;
                }
            }
        }
        let (identity, token, session_token, live) = match resumed {
            Some(found) => found,
            // A client that meant to be someone is told it is not, rather than made a stranger: it may sign in
            // again, or say hello without a token to be a new guest (the upgrade's token is used up, so that
            // second hello makes one).
            None if offered => {
                return self
                    .error(
                        code::INVALID_TOKEN,
                        "this token is unknown or expired; say hello without it to be a new guest",
                        rid,
                    )
                    .await;
            }
            None => match self.state.identities.new_guest(self.peer).await {
                Ok((identity, token)) => {
                    let live =
                        (self.state.live_sessions).watch(hash_token(&token), self.outbox.clone());
                    (identity, token.clone(), token, live)
                }
                Err(e @ NewGuestError::RateLimited(_)) => {
                    return self.error(code::RATE_LIMITED, &e.to_string(), rid).await;
                }
                Err(e) => {
                    tracing::error!(error = %e, "could not create a guest session");
                    return self.error(code::INTERNAL, "try again", rid).await;
                }
            },
        };
        self.unkept_guest_token = identity.is_guest().then_some(session_token);
        let welcome = ServerMessage::Welcome {
            you: You {
                id: identity.id.clone(),
                name: identity.name.clone(),
                guest: identity.is_guest(),
            },
            token,
            server_version: env!("CARGO_PKG_VERSION").to_owned(),
        };
        if let Some(previous) = self.identity.take() {
            self.state.lobby.online(&previous.id, false);
        }
        self.state.lobby.online(&identity.id, true);
        self.identity = Some(identity);
        self.live = Some(live);
        self.send(&welcome, rid).await;
    }

    fn room(&self, id: &str) -> Result<RoomHandle, RoomError> {
        self.state
            .rooms
            .get(id)
            .ok_or_else(|| RoomError::new(code::UNKNOWN_ROOM, "no such room"))
    }

    async fn dispatch(&mut self, identity: Identity, msg: ClientMessage, rid: Option<u64>) {
        use ClientMessage as C;
        let result = match msg {
            C::Hello { .. } => Err(RoomError::new(
                code::ALREADY_HELLO,
                "hello was already said",
            )),
            C::Ping {} => {
                self.send(&ServerMessage::Pong {}, rid).await;
                Ok(())
            }
            C::SubscribeLobby {} => {
                self.lobby = true;
                self.state.lobby.subscribe(self.outbox.clone(), rid);
                Ok(())
            }
            C::UnsubscribeLobby {} => {
                self.lobby = false;
                self.state.lobby.unsubscribe(self.outbox.id);
                self.send(
                    &ServerMessage::Ack {
                        room: None,
                        version: None,
                    },
                    rid,
                )
                .await;
                Ok(())
            }
            C::CreateRoom {
                rules,
                time_control,
                rated,
                public,
                colour,
            } => {
                self.create_room(identity, rules, time_control, rated, public, colour, rid)
                    .await
            }
            C::Join { room, role, since } => self.join(identity, &room, role, since, rid).await,
            C::Leave { room } => match self.room(&room) {
                Ok(handle) => {
                    let r = handle.leave(self.outbox.id, rid).await;
                    if r.is_ok() {
                        self.rooms.remove(&handle.id);
                    }
                    r
                }
                Err(e) => Err(e),
            },
            C::Place { room, point, ply } => self.act(&room, rid, Act::Place { point, ply }).await,
            C::DecideSwap { room, swap } => {
                self.act(&room, rid, Act::Rules(rules::Action::DecideSwap { swap }))
                    .await
            }
            C::ProposeFifth { room, points } => {
                self.act(
                    &room,
                    rid,
                    Act::Rules(rules::Action::ProposeFifth { points }),
                )
                .await
            }
            C::ChooseFifth { room, point } => {
                self.act(&room, rid, Act::Rules(rules::Action::ChooseFifth { point }))
                    .await
            }
            C::ClaimForbidden { room } => {
                self.act(&room, rid, Act::Rules(rules::Action::ClaimForbidden))
                    .await
            }
            C::Resign { room } => self.act(&room, rid, Act::Resign).await,
            C::OfferDraw { room } => self.act(&room, rid, Act::OfferDraw).await,
            C::AnswerDraw { room, accept } => self.act(&room, rid, Act::AnswerDraw(accept)).await,
            C::RequestTakeback { room } => self.act(&room, rid, Act::RequestTakeback).await,
            C::AnswerTakeback { room, accept } => {
                self.act(&room, rid, Act::AnswerTakeback(accept)).await
            }
            C::OfferRematch { room } => self.act(&room, rid, Act::OfferRematch).await,
            C::AnswerRematch { room, accept } => {
                self.act(&room, rid, Act::AnswerRematch(accept)).await
            }
            C::Chat { room, text } => self.act(&room, rid, Act::Chat(text)).await,
            C::ShowSpectatorChat { room, show } => {
                self.act(&room, rid, Act::ShowSpectatorChat(show)).await
            }
            C::ClaimWin { room } => self.act(&room, rid, Act::ClaimWin).await,
        };
        if let Err(e) = result {
            self.room_error(e, rid).await;
        }
    }

    async fn act(&self, room: &str, rid: Option<u64>, act: Act) -> Result<(), RoomError> {
        self.room(room)?.act(self.outbox.id, rid, act).await
    }

    async fn join(
        &mut self,
        identity: Identity,
        room: &str,
        role: protocol::JoinRole,
        since: Option<u64>,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let handle = self.room(room)?;
        self.forget_closed_rooms();
        if !self.rooms.contains(&handle.id)
            && self.rooms.len() >= self.state.config.max_rooms_per_connection
        {
            return Err(RoomError::new(
                code::TOO_MANY_ROOMS,
                "this connection is in as many rooms as allowed",
            ));
        }
        self.keep_guest(&identity).await?;
        handle
            .join(identity, self.outbox.clone(), role, since, rid)
            .await?;
        self.rooms.insert(handle.id.clone());
        Ok(())
    }

    /// A guest joining or creating a room is worth keeping: its short first session is made long, once per
    /// connection.
    async fn keep_guest(&mut self, identity: &Identity) -> Result<(), RoomError> {
        let Some(token) = &self.unkept_guest_token else {
            return Ok(());
        };
        if let Err(e) = self.state.identities.keep(identity, token).await {
            tracing::error!(error = %e, "could not keep a guest session");
            return Err(RoomError::new(code::INTERNAL, "try again"));
        }
        self.unkept_guest_token = None;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn create_room(
        &mut self,
        identity: Identity,
        rules: protocol::RulesSpec,
        time_control: protocol::TimeControl,
        rated: bool,
        public: bool,
        colour: protocol::ColourChoice,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let settings = Settings::new(rules, time_control, rated, public, colour)?;
        if rated && identity.is_guest() {
            return Err(RoomError::new(
                code::ACCOUNT_REQUIRED,
                "rated games need an account",
            ));
        }
        self.forget_closed_rooms();
        if self.rooms.len() >= self.state.config.max_rooms_per_connection {
            return Err(RoomError::new(
                code::TOO_MANY_ROOMS,
                "this connection is in as many rooms as allowed",
            ));
        }
        self.keep_guest(&identity).await?;
        let handle =
            self.state
                .rooms
                .create(&self.state, settings, &identity, address_key(self.peer))?;
        handle
            .join(
                identity,
                self.outbox.clone(),
                protocol::JoinRole::Player,
                None,
                rid,
            )
            .await?;
        self.rooms.insert(handle.id.clone());
        Ok(())
    }

    /// Drops rooms that have closed since this connection joined them, so they no longer count against its limit.
    fn forget_closed_rooms(&mut self) {
        let rooms = &self.state.rooms;
        self.rooms.retain(|id| rooms.get(id).is_some());
    }

    /// Tells every joined room and the lobby that this connection is gone.
    async fn cleanup(&mut self) {
        if let Some(identity) = &self.identity {
            self.state.lobby.online(&identity.id, false);
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

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use futures_util::stream;

    use super::*;
    use crate::Config;

    const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    /// A client that stopped reading: every send waits forever.
    struct Stuck;

    impl Sink<Message> for Stuck {
        type Error = axum::Error;

        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }

        fn start_send(self: Pin<&mut Self>, _: Message) -> Result<(), Self::Error> {
            Ok(())
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }

        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }
    }

    /// A client that reads everything: keeps what was sent.
    #[derive(Default)]
    struct Sent(Vec<Message>);

    impl Sink<Message> for Sent {
        type Error = axum::Error;

        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn start_send(mut self: Pin<&mut Self>, m: Message) -> Result<(), Self::Error> {
            self.0.push(m);
            Ok(())
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    fn text(s: &str) -> Out {
        Out::Text(s.into())
    }

    // Every test here runs on tokio's paused clock: a sleep finishes only once every task is waiting, so
    // "let the writer block first" is an order, not a race, and the idle test takes no real seconds.
    #[tokio::test(start_paused = true)]
    async fn a_kick_stops_the_writer_while_a_send_is_blocked() {
        let (tx, rx) = mpsc::channel(4);
        let kick = Arc::new(Notify::new());
        let (done, _done_rx) = oneshot::channel();
        tx.send(text("a")).await.unwrap();
        let writer = tokio::spawn(write(
            Stuck,
            rx,
            kick.clone(),
            Duration::from_secs(60),
            done,
        ));
        // The writer takes the frame and blocks in its send before the paused clock moves.
        tokio::time::sleep(Duration::from_millis(50)).await;
        kick.notify_one();
        tokio::time::timeout(Duration::from_secs(5), writer)
            .await
            .expect("the kicked writer stopped")
            .unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_kick_after_frames_went_out_says_slow_client_then_closes_with_1008_too_slow() {
        let (tx, rx) = mpsc::channel(4);
        let kick = Arc::new(Notify::new());
        let (done, _done_rx) = oneshot::channel();
        let mut sent = Sent::default();
        let drive = async {
            tx.send(text("a")).await.unwrap();
            tx.send(text("b")).await.unwrap();
            tokio::time::sleep(Duration::from_millis(50)).await;
            kick.notify_one();
            tx
        };
        let ((), _tx) = tokio::join!(
            write(&mut sent, rx, kick.clone(), Duration::from_secs(60), done),
            drive
        );
        let close = Message::Close(Some(CloseFrame {
            code: CLOSE_POLICY,
            reason: "too slow".into(),
        }));
        let [a, b, Message::Text(why), last] = &sent.0[..] else {
            panic!("{:?}", sent.0);
        };
        assert_eq!(
            (a, b, last),
            (
                &Message::Text("a".into()),
                &Message::Text("b".into()),
                &close
            )
        );
        let why = decode::<ServerMessage>(why, usize::MAX).unwrap().msg;
        assert!(
            matches!(&why, ServerMessage::Error { code, .. } if code == code::SLOW_CLIENT),
            "{why:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_kick_before_the_writer_starts_is_not_lost() {
        let (_tx, rx) = mpsc::channel(4);
        let kick = Arc::new(Notify::new());
        let (done, _done_rx) = oneshot::channel();
        kick.notify_one();
        let mut sent = Sent::default();
        write(&mut sent, rx, kick, Duration::from_secs(60), done).await;
        assert!(
            matches!(&sent.0[..], [Message::Text(_), Message::Close(Some(f))] if f.code == CLOSE_POLICY),
            "{:?}",
            sent.0
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_writer_pings_every_ping_interval() {
        let (tx, rx) = mpsc::channel::<Out>(4);
        let kick = Arc::new(Notify::new());
        let (done, _done_rx) = oneshot::channel();
        let mut sent = Sent::default();
        let drive = async {
            tokio::time::sleep(Duration::from_millis(110)).await;
            drop(tx);
        };
        tokio::join!(
            write(&mut sent, rx, kick, Duration::from_millis(30), done),
            drive
        );
        let pings = sent
            .0
            .iter()
            .filter(|m| matches!(m, Message::Ping(_)))
            .count();
        // At 30, 60 and 90 ms of the 110.
        assert_eq!(pings, 3, "{:?}", sent.0);
    }

    async fn state(idle_secs: u64) -> (AppState, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let store = store::open(&dir.path().join("t.db").to_string_lossy())
            .await
            .unwrap();
        let config = Config {
            idle_secs,
            ..Config::default()
        };
        (AppState::new(config, store).await.unwrap(), dir)
    }

    #[tokio::test]
    async fn a_connection_is_closed_as_idle_only_after_a_whole_idle_time_without_frames() {
        let (state, _dir) = state(1).await;
        // Paused only once the store is open: a paused clock would jump past its pool's connect timeout.
        tokio::time::pause();
        let (outbox, mut rx, _kick) = outbox(&state);
        let (_writer, writer_done) = oneshot::channel();
        // A frame every 0.6 s for three frames keeps the connection open past its first idle second.
        let frames = stream::unfold((), |()| async {
            tokio::time::sleep(Duration::from_millis(600)).await;
            Some((Ok(Message::Pong(Default::default())), ()))
        })
        .take(3)
        .chain(stream::pending());
        let mut conn = Conn::open(state, outbox, None, LOOPBACK);
        let started = tokio::time::Instant::now();
        conn.read(Box::pin(frames), writer_done).await;
        let waited = started.elapsed();
        assert!(matches!(rx.try_recv(), Ok(Out::Close(1000, "idle"))));
        // The last frame came at 1.8 s: idle from then, closed at 2.8 s and not before.
        assert!(
            (Duration::from_millis(2800)..Duration::from_millis(2900)).contains(&waited),
            "{waited:?}"
        );
        conn.close().await;
    }

    async fn state_with(config: Config) -> (AppState, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let store = store::open(&dir.path().join("t.db").to_string_lossy())
            .await
            .unwrap();
        (AppState::new(config, store).await.unwrap(), dir)
    }

    /// Pongs every 0.5 s for ever: a socket that keeps answering pings without saying anything.
    fn pongs_for_ever() -> impl Stream<Item = Result<Message, axum::Error>> + Unpin {
        Box::pin(stream::unfold((), |()| async {
            tokio::time::sleep(Duration::from_millis(500)).await;
            Some((Ok(Message::Pong(Default::default())), ()))
        }))
    }

    #[tokio::test]
    async fn a_socket_that_only_answers_pings_is_closed_at_the_hello_deadline() {
        let (state, _dir) = state_with(Config {
            hello_secs: 3,
            idle_secs: 60,
            ..Config::default()
        })
        .await;
        tokio::time::pause();
        let (outbox, mut rx, _kick) = outbox(&state);
        let (_writer, writer_done) = oneshot::channel();
        let mut conn = Conn::open(state, outbox, None, IpAddr::from([127, 0, 0, 1]));
        let started = tokio::time::Instant::now();
        conn.read(pongs_for_ever(), writer_done).await;
        let waited = started.elapsed();
        assert!(
            (Duration::from_secs(3)..Duration::from_millis(3100)).contains(&waited),
            "{waited:?}"
        );
        match rx.try_recv() {
            Ok(Out::Text(t)) => assert!(t.contains(code::HELLO_REQUIRED), "{t}"),
            other => panic!("expected an error frame, got {other:?}"),
        }
        assert!(matches!(
            rx.try_recv(),
            Ok(Out::Close(CLOSE_POLICY, "no hello"))
        ));
        conn.close().await;
    }

    #[tokio::test]
    async fn shutdown_says_shutting_down_then_closes_a_connection_with_1001() {
        let (state, _dir) = state(60).await;
        // Paused only once the store is open: a paused clock would jump past its pool's connect timeout.
        tokio::time::pause();
        let (outbox, mut rx, _kick) = outbox(&state);
        let (_writer, writer_done) = oneshot::channel();
        let mut conn = Conn::open(state.clone(), outbox, None, LOOPBACK);
        let shut = async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            state.shutdown.send_replace(true);
        };
        tokio::join!(conn.read(stream::pending(), writer_done), shut);
        match rx.try_recv() {
            Ok(Out::Text(t)) => assert!(t.contains(code::SHUTTING_DOWN), "{t}"),
            other => panic!("expected an error frame, got {other:?}"),
        }
        assert!(matches!(rx.try_recv(), Ok(Out::Close(CLOSE_GOING_AWAY, _))));
        conn.close().await;
    }
}
