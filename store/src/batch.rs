//! Group commit of actions: the moves of many rooms made durable by one transaction.
//!
//! Every room must have its move committed before it announces it, but a transaction (and its fsync) per move
//! would serialise all rooms behind the disk. Rooms instead send their actions to one writer task, which takes
//! everything waiting (up to [`MAX_BATCH`]), writes it with one [`Store::append_actions`] call and then answers
//! each room. Under load a batch holds many rooms' moves; when idle a move is written alone without delay.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::{GameId, Store, StoreError, StoredAction};

/// The most actions written in one transaction.
pub const MAX_BATCH: usize = 512;

/// Requests waiting for the writer before [`BatchWriter::append`] itself waits (back-pressure on the rooms).
const QUEUE: usize = 4 * MAX_BATCH;

enum Request {
    Append {
        game: GameId,
        action: StoredAction,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    Flush(oneshot::Sender<()>),
}

/// A cheap, cloneable handle to the writer task. The task ends once every handle is dropped, after writing
/// everything it was sent.
#[derive(Clone, Debug)]
pub struct BatchWriter {
    requests: mpsc::Sender<Request>,
}

fn stopped() -> StoreError {
    StoreError::Database("the batch writer has stopped".to_owned())
}

impl BatchWriter {
    /// Starts the writer task on the current tokio runtime.
    pub fn spawn(store: Arc<dyn Store>) -> BatchWriter {
        BatchWriter::spawn_with_task(store).0
    }

    /// Starts the writer task and also returns its join handle, for a graceful shutdown: drop every
    /// [`BatchWriter`], then await the handle to know the last batch is committed.
    pub fn spawn_with_task(store: Arc<dyn Store>) -> (BatchWriter, JoinHandle<()>) {
        let (requests, receiver) = mpsc::channel(QUEUE);
        let task = tokio::spawn(run(store, receiver));
        (BatchWriter { requests }, task)
    }

    /// Makes one action durable. Resolves once the transaction holding it has committed (so the move may be
    /// announced), or with the error of writing it: [`StoreError::OutOfOrder`] or [`StoreError::NoSuchGame`]
    /// concern this action only, never the other rooms' actions of the same batch.
    pub async fn append(&self, game: GameId, action: StoredAction) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Append {
                game,
                action,
                reply,
            })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Waits until every action sent before this call has been written (or has failed).
    pub async fn flush(&self) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Flush(reply))
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())
    }
}

async fn run(store: Arc<dyn Store>, mut receiver: mpsc::Receiver<Request>) {
    let mut pending = Vec::with_capacity(MAX_BATCH);
    // `recv_many` returns 0 only once every sender is gone and the queue is empty: nothing is left unwritten.
    while receiver.recv_many(&mut pending, MAX_BATCH).await > 0 {
        write(store.as_ref(), &mut pending).await;
    }
}

async fn write(store: &dyn Store, pending: &mut Vec<Request>) {
    let mut batch = Vec::with_capacity(pending.len());
    let mut replies = Vec::with_capacity(pending.len());
    let mut flushes = Vec::new();
    for request in pending.drain(..) {
        match request {
            Request::Append {
                game,
                action,
                reply,
            } => {
                batch.push((game, action));
                replies.push(reply);
            }
            Request::Flush(reply) => flushes.push(reply),
        }
    }
    if !batch.is_empty() {
        match store.append_actions(&batch).await {
            Ok(()) => {
                for reply in replies {
                    // A room that stopped waiting no longer needs the answer.
                    let _ = reply.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                let _ = replies.pop().map(|reply| reply.send(Err(e)));
            }
            Err(e) => {
                // The transaction rolled back as a whole; write each action alone so that one room's bad
                // action (or a transient failure) is answered to that room only. Retrying is exact because
                // nothing of the batch was committed and appends are idempotent.
                tracing::warn!(error = %e, size = batch.len(), "batched append failed; writing one by one");
                for (item, reply) in batch.into_iter().zip(replies) {
                    let _ = reply.send(store.append_actions(std::slice::from_ref(&item)).await);
                }
            }
        }
    }
    for reply in flushes {
        let _ = reply.send(());
    }
}
