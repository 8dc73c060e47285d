//! The sending side of one connection, as rooms and the lobby see it.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, Notify};

use super::v1::Edge;

/// A connection's id, unique for the life of the process.
pub type ConnId = u64;

/// What a connection's writer task sends.
#[derive(Debug)]
pub enum Out {
    /// A text frame.
    Text(Utf8Bytes),
    /// A close frame with a code and reason; the writer stops after it.
    Close(u16, &'static str),
}

/// Why a frame could not be queued.
#[derive(Debug, PartialEq, Eq)]
pub enum SendError {
    /// The client is behind: its queue is full.
    Full,
    /// The connection is gone.
    Closed,
}

/// A cheap handle to a connection's bounded writer queue.
#[derive(Clone, Debug)]
pub struct Outbox {
    /// The connection's id.
    pub id: ConnId,
    tx: mpsc::Sender<Out>,
    kick: Arc<Notify>,
    /// The protocol version it speaks: every frame queued goes through it (a version-1 connection's is
    /// translated to that version's Gomoku form).
    edge: Arc<Edge>,
}

impl Outbox {
    /// A handle over a writer queue and the writer's kick signal.
    pub fn new(id: ConnId, tx: mpsc::Sender<Out>, kick: Arc<Notify>) -> Outbox {
        Outbox {
            id,
            tx,
            kick,
            edge: Arc::default(),
        }
    }

    /// The connection's protocol dialect (shared by every clone of this handle).
    pub fn edge(&self) -> &Edge {
        &self.edge
    }

    /// Queues a text frame without waiting (rooms never wait for a client).
    pub fn try_send(&self, text: Utf8Bytes) -> Result<(), SendError> {
        let Some(text) = self.edge.outgoing(text) else {
            return Ok(());
        };
        self.tx.try_send(Out::Text(text)).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => SendError::Full,
            mpsc::error::TrySendError::Closed(_) => SendError::Closed,
        })
    }

    /// Queues a close frame without waiting; when the queue is full the connection is kicked instead (the
    /// close must get through either way).
    pub fn close_now(&self, code: u16, reason: &'static str) {
        if self.tx.try_send(Out::Close(code, reason)).is_err() {
            self.kick();
        }
    }

    /// Queues a frame, waiting for space (only the connection's own reader does this).
    pub async fn send(&self, out: Out) -> Result<(), SendError> {
        let out = match out {
            Out::Text(text) => match self.edge.outgoing(text) {
                Some(text) => Out::Text(text),
                None => return Ok(()),
            },
            close => close,
        };
        self.tx.send(out).await.map_err(|_| SendError::Closed)
    }

    /// Free places in the queue.
    pub fn capacity(&self) -> usize {
        self.tx.capacity()
    }

    /// Whether the connection is gone.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Closes the connection because it fell too far behind (even though its queue is full).
    pub fn kick(&self) {
        self.kick.notify_one();
    }
}
