//! A connection without a socket, for the fuzz harness (`testkit::fuzzing`) and tests: the same reader state
//! (`Conn`) a real socket gets, driven frame by frame, with the outbox's receiving end kept by the caller
//! instead of a writer task. Compiled only with the `testkit` feature, which only the `testkit` crate enables.

use std::future::Future as _;
use std::sync::Arc;
use std::task::{Context, Waker};

use tokio::sync::{mpsc, Notify};

use super::conn::{outbox, Conn};
use super::outbox::{ConnId, Out};
use crate::{AppState, TrackedConnection};

/// One connection driven by hand: text frames in, queued frames out.
///
/// It is the production reader state (decoding, rate limits, hello, dispatch to rooms, clean-up); only the socket
/// and the writer task are replaced by [`VirtualConn::send_text`] and [`VirtualConn::drain`].
pub struct VirtualConn {
    conn: Conn,
    rx: mpsc::Receiver<Out>,
    kick: Arc<Notify>,
    kicked: bool,
    /// Frames taken off the queue while a frame was being handled (as the writer would).
    received: Vec<Out>,
    _tracked: TrackedConnection,
}

impl VirtualConn {
    /// A new connection to `state`, as if a socket had just been upgraded (with the upgrade request's session
    /// token, if any). It has not said hello yet.
    pub fn open(state: &AppState, ambient_token: Option<String>) -> VirtualConn {
        let tracked = state.track_connection();
        let (outbox, rx, kick) = outbox(state);
        VirtualConn {
            // All virtual connections come from loopback, so they share one allowance of new guests.
            conn: Conn::open(
                state.clone(),
                outbox,
                ambient_token,
                std::net::IpAddr::from([127, 0, 0, 1]),
            ),
            rx,
            kick,
            kicked: false,
            received: Vec::new(),
            _tracked: tracked,
        }
    }

    /// The connection's id (as rooms know it).
    pub fn id(&self) -> ConnId {
        self.conn.id()
    }

    /// Handles one text frame as the socket's reader would, and returns once it is handled (a room request has
    /// been answered by the room). The queue is emptied meanwhile, as the writer task would, so the connection
    /// never waits on its own queue; those frames come out of the next [`VirtualConn::drain`].
    pub async fn send_text(&mut self, text: &str) {
        let VirtualConn {
            conn, rx, received, ..
        } = self;
        let handled = conn.on_text_frame(text);
        tokio::pin!(handled);
        loop {
            tokio::select! {
                biased;
                () = &mut handled => break,
                Some(out) = rx.recv() => received.push(out),
            }
        }
    }

    /// Every frame queued for the client so far, oldest first, without waiting.
    pub fn drain(&mut self) -> Vec<Out> {
        let mut out = std::mem::take(&mut self.received);
        while let Ok(frame) = self.rx.try_recv() {
            out.push(frame);
        }
        out
    }

    /// Whether the server ended this connection: the connection queued a close frame after too many bad frames,
    /// or a room kicked the client for staying behind. A real socket would stop reading now; call
    /// [`VirtualConn::close`].
    pub fn ended_by_server(&mut self) -> bool {
        if !self.kicked {
            // A kick is a stored `notify_one` permit: one poll of `notified` takes it.
            let notified = self.kick.notified();
            tokio::pin!(notified);
            let mut cx = Context::from_waker(Waker::noop());
            self.kicked = notified.poll(&mut cx).is_ready();
        }
        self.kicked || self.conn.closing()
    }

    /// Closes the connection as a socket's end would: its rooms and the lobby are told (seated players' grace
    /// periods start).
    pub async fn close(mut self) {
        self.conn.close().await;
    }
}
