//! The owner's side of a room in a cluster: its request server (requests from other nodes become the room's
//! commands, as the requesting socket's stand-in member) and its publisher (the [`super::fanout::ClusterFanout`]
//! queue, published in order on the room's subject).

use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::wire::{self, Addr, Publication, Reply, Request};
use super::{Cluster, RemoteMembers};
use crate::room::RoomHandle;

/// Publishes a room's frames on its subject in the order the room made them, until the room's fan-out is gone.
pub(crate) async fn publish(
    cluster: Cluster,
    room: Arc<str>,
    mut rx: mpsc::UnboundedReceiver<Publication>,
) {
    let subject = wire::out_subject(&room);
    while let Some(p) = rx.recv().await {
        let bytes = serde_json::to_vec(&p).expect("publications serialise");
        if let Err(e) = cluster
            .inner
            .nats
            .publish(subject.clone(), bytes.into())
            .await
        {
            tracing::warn!(room = %room, error = %e, "could not publish a room frame");
        }
    }
}

/// Serves the requests other nodes send room `handle` (on `requests`, its subscription) until the room's task
/// ends.
pub(crate) async fn serve(
    cluster: Cluster,
    handle: RoomHandle,
    remotes: Arc<Mutex<RemoteMembers>>,
    mut requests: async_nats::Subscriber,
) {
    loop {
        let msg = tokio::select! {
            () = handle.closed() => break,
            msg = requests.next() => match msg {
                Some(msg) => msg,
                None => break,
            },
        };
        let request: Request = match serde_json::from_slice(&msg.payload) {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(room = %handle.id, error = %e, "an unreadable request from another node");
                continue;
            }
        };
        let answer = handle_request(&cluster, &handle, &remotes, request).await;
        if let (Some(reply), Some(answer)) = (msg.reply, answer) {
            let bytes = serde_json::to_vec(&answer).expect("replies serialise");
            let _ = cluster.inner.nats.publish(reply, bytes.into()).await;
        }
    }
    let _ = requests.unsubscribe().await;
}

/// Does one request; the reply to send, if the request expects one.
async fn handle_request(
    cluster: &Cluster,
    handle: &RoomHandle,
    remotes: &Arc<Mutex<RemoteMembers>>,
    request: Request,
) -> Option<Reply> {
    let conn_of = |from: &Addr| remotes.lock().expect("remotes lock").conn(from);
    match request {
        Request::Join {
            from,
            identity,
            role,
            since,
            rid,
        } => {
            let conn = remotes
                .lock()
                .expect("remotes lock")
                .admit(from, || cluster.next_remote_conn());
            let r = handle
                .join(identity.into(), cluster.stand_in(conn), role, since, rid)
                .await;
            Some(Reply::of(r))
        }
        Request::Leave { from, rid } => {
            let r = match conn_of(&from) {
                Some(conn) => {
                    let r = handle.leave(conn, rid).await;
                    // Its acknowledgement is already queued for publication.
                    remotes.lock().expect("remotes lock").forget(&from);
                    r
                }
                None => Ok(()),
            };
            Some(Reply::of(r))
        }
        Request::Act {
            from,
            rid,
            act,
            rtt_ms,
        } => {
            // A socket that never joined gets the room's own answer to a stranger.
            let conn = conn_of(&from).unwrap_or_else(|| cluster.next_remote_conn());
            let answer = match act.into_act() {
                Ok(act) => handle.act_lagged(conn, rid, act, rtt_ms).await,
                Err(e) => Err(e),
            };
            Some(Reply::of(answer))
        }
        Request::Disconnected { from } => {
            if let Some(conn) = conn_of(&from) {
                handle.disconnected(conn).await;
                remotes.lock().expect("remotes lock").forget(&from);
            }
            None
        }
        Request::Resync { from } => {
            if let Some(conn) = conn_of(&from) {
                handle.resync(conn).await;
            }
            None
        }
        Request::RemoveChat { line } => Some(Reply::of(handle.remove_chat(line).await)),
    }
}
