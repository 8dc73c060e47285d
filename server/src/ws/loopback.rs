//! A connection inside the process, for the computer player (`crate::computer`): the production reader (`Conn`:
//! hello and identity, the rate limit and abuse allowance, dispatch to rooms, acknowledgements after the room's
//! durable write, clean-up when it ends) over a channel of frames instead of a socket, and the writer's queue read
//! by the caller instead of a writer task.
//!
//! Why not a loopback WebSocket: a TCP connection from 127.0.0.1 would count against the per-address caps that
//! protect the server from one client (TCP connections, WebSockets, rooms waiting), so every game against the
//! computer would share one address's allowance; and it would spend a socket, two buffers and a task pair per
//! game on framing that carries nothing the reader does not already check. Everything that makes a client a
//! client is the `Conn` the frames go through, and that is the same.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Message;
use tokio::sync::{mpsc, oneshot, Notify};

use super::conn::{outbox, Conn};
use super::outbox::Out;
use crate::AppState;

/// Frames waiting for the connection's reader (like a socket's receive buffer: the sender waits when it is full).
const INBOX: usize = 16;

/// The address an in-process connection reports (new guests are limited per address; the computer never is one).
const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// The client's end of an in-process connection: text frames in, the server's frames out.
pub struct Loopback {
    inbox: Option<mpsc::Sender<Message>>,
    outbox: mpsc::Receiver<Out>,
    kick: Arc<Notify>,
    /// Held while the client is there; dropping it tells the reader the "socket" is gone.
    _gone: oneshot::Sender<()>,
}

/// What came from the server.
#[derive(Debug)]
pub enum Received {
    /// A text frame.
    Text(String),
    /// The connection ended (a close frame, a kick, or the reader stopped).
    Closed,
}

impl Loopback {
    /// Opens a connection to `state` as a socket upgrade would (counted as a connection, tracked for shutdown),
    /// and starts its reader. It has not said hello yet.
    pub fn open(state: &AppState) -> Loopback {
        let tracked = state.track_connection();
        let (out, rx, kick) = outbox(state);
        let (inbox, frames) = mpsc::channel::<Message>(INBOX);
        let (gone, writer_done) = oneshot::channel();
        // A real client answers the writer's pings; these pongs stand for them so that the idle timer sees a live
        // client while it waits for the opponent.
        let ping = Duration::from_secs(state.config.ping_secs.max(1));
        let stream = futures_util::stream::unfold(
            (frames, tokio::time::interval(ping)),
            |(mut frames, mut pings)| async move {
                let message = tokio::select! {
                    m = frames.recv() => m?,
                    _ = pings.tick() => Message::Pong(Default::default()),
                };
                Some((Ok(message), (frames, pings)))
            },
        );
        let state = state.clone();
        tokio::spawn(async move {
            let _tracked = tracked;
            let mut conn = Conn::open(state, out, None, LOOPBACK);
            conn.read(Box::pin(stream), writer_done).await;
            conn.close().await;
        });
        Loopback {
            inbox: Some(inbox),
            outbox: rx,
            kick,
            _gone: gone,
        }
    }

    /// Sends one text frame (waits while the reader is busy, as a socket's sender would); `false` once the
    /// connection is gone.
    pub async fn send(&mut self, text: String) -> bool {
        match &self.inbox {
            Some(inbox) => inbox.send(Message::Text(text.into())).await.is_ok(),
            None => false,
        }
    }

    /// The next frame from the server. The caller reads its queue as fast as frames come (it is never kicked as
    /// a slow client); a kick or a close frame ends the connection.
    pub async fn recv(&mut self) -> Received {
        if self.inbox.is_none() {
            return Received::Closed;
        }
        let received = tokio::select! {
            out = self.outbox.recv() => match out {
                Some(Out::Text(text)) => Received::Text(text.as_str().to_owned()),
                Some(Out::Close(..)) | None => Received::Closed,
            },
            () = self.kick.notified() => Received::Closed,
        };
        if matches!(received, Received::Closed) {
            // As a writer that stopped: the reader ends at its next frame, which no longer comes.
            self.inbox = None;
        }
        received
    }
}
