//! The reader of one connection: frames in, each counted against the rate limit (and the abuse allowance) before
//! it is decoded; the hello deadline, the idle timer and shutdown end it.

use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::ws::Message;
use futures_util::{Stream, StreamExt};
use protocol::code;
use tokio::sync::oneshot;

use super::conn::Conn;
use super::outbox::Out;
use super::writer::{CLOSE_GOING_AWAY, CLOSE_POLICY};

impl Conn {
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

    /// Reads frames until the client closes, the writer stops, the hello or idle deadline passes, the server
    /// shuts down or the connection decides to close.
    pub(super) async fn read<St>(&mut self, mut stream: St, mut writer_done: oneshot::Receiver<()>)
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
                // Boxed: the handling of a frame (decoding, dispatch, a room's reply) is a large state machine,
                // and inline it would make every idle connection's task that large for its whole life.
                Message::Text(text) => Box::pin(self.on_text_frame(&text)).await,
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
                Message::Pong(payload) => {
                    if let Some(rtt) = self.stamp.as_ref().and_then(|s| s.rtt_ms(&payload)) {
                        self.rtt.sample(rtt);
                    }
                }
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

    /// Answers a bad frame; a connection that keeps sending them is closed with 1008.
    pub(super) async fn violation(&mut self, code: &str, message: &str, rid: Option<u64>) {
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
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use futures_util::stream;

    use super::*;
    use crate::ws::conn::outbox;
    use crate::{AppState, Config};

    const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

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
