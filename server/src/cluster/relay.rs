//! A room owned by another node, as this node's sockets see it: a task behind an ordinary [`RoomHandle`] that
//! sends their commands to the owner (NATS request/reply) and fans the owner's publications out to them with a
//! single node's rules: bounded outboxes, a member that falls behind catches up from this node's short history
//! of the room's events or, when that no longer covers it, from a snapshot the owner sends; one that stays
//! behind longer than the slow-client limit is closed.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use protocol::code;
use tokio::sync::mpsc;

use super::audience::Audience;
use super::wire::{self, Publication, Reply, Request, WireAct};
use super::{Cluster, REQUEST_TIMEOUT};
use crate::room::{Command, RoomError, RoomHandle, Rooms};

/// How often a relay looks at its members while one is behind, or while it has none (it goes after
/// [`IDLE_TICKS`] such looks).
const TICK: Duration = Duration::from_millis(200);

/// How often it looks otherwise (members that left or whose socket closed go): a node relays thousands of
/// rooms, and most of them are quiet.
const CALM_TICK: Duration = Duration::from_secs(1);

/// The pauses before a join that no node answered is asked again (see [`Relay::handle`]).
const JOIN_RETRIES: [Duration; 4] = [
    Duration::from_millis(25),
    Duration::from_millis(75),
    Duration::from_millis(150),
    Duration::from_millis(300),
];

/// Looks with nobody in the room before the relay goes.
const IDLE_TICKS: u32 = 5;

/// Starts the relay of room `id` and answers its handle.
pub(crate) fn spawn(cluster: Cluster, id: Arc<str>, rooms: Rooms) -> RoomHandle {
    let (tx, rx) = mpsc::channel(super::super::room::QUEUE);
    let handle = RoomHandle::new(id.clone(), tx);
    let audience = Audience::new(
        cluster.node().to_owned(),
        cluster.inner.event_log,
        cluster.inner.slow_client,
    );
    let relay = Relay {
        id,
        cluster,
        audience,
        rooms,
        handle: handle.clone(),
    };
    tokio::spawn(relay.run(rx));
    handle
}

struct Relay {
    id: Arc<str>,
    cluster: Cluster,
    audience: Audience,
    rooms: Rooms,
    handle: RoomHandle,
}

impl Relay {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut publications = match self
            .cluster
            .inner
            .nats
            .subscribe(wire::out_subject(&self.id))
            .await
        {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(room = %self.id, error = %e, "could not follow a room of another node");
                self.rooms.relay_closed(&self.handle);
                return;
            }
        };
        let look = tokio::time::sleep(TICK);
        tokio::pin!(look);
        let mut idle_ticks = 0u32;
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => break,
                    Some(Command::Shutdown { reply }) => {
                        let _ = reply.send(());
                        break;
                    }
                    Some(cmd) => self.handle(cmd).await,
                },
                msg = publications.next() => match msg {
                    Some(msg) => match serde_json::from_slice::<Publication>(&msg.payload) {
                        Ok(p) => {
                            self.audience.deliver(p, self.cluster.inner.clock.now());
                            // A member that fell behind is looked at soon, not at the next calm look.
                            let soon = tokio::time::Instant::now() + TICK;
                            if look.deadline() > soon && self.audience.any_behind() {
                                look.as_mut().reset(soon);
                            }
                        }
                        Err(e) => tracing::warn!(room = %self.id, error = %e, "an unreadable publication"),
                    },
                    None => break,
                },
                () = &mut look => {
                    for conn in self.audience.housekeeping(self.cluster.inner.clock.now()) {
                        self.tell(&Request::Resync { from: self.cluster.addr(conn) }).await;
                    }
                    idle_ticks = if self.audience.is_empty() { idle_ticks + 1 } else { 0 };
                    // A relay nobody on this node is in goes (after a moment: a join may be on its way), once
                    // nothing can reach it any more.
                    if idle_ticks >= IDLE_TICKS && self.rooms.relay_idle(&self.handle, &rx) {
                        break;
                    }
                    let calm = !self.audience.is_empty() && !self.audience.any_behind();
                    look.as_mut().reset(tokio::time::Instant::now() + if calm { CALM_TICK } else { TICK });
                }
            }
        }
        self.rooms.relay_closed(&self.handle);
        let _ = publications.unsubscribe().await;
    }

    /// Asks the owner; `unknown_room` when no node owns the room.
    async fn ask(&self, request: &Request) -> Result<(), RoomError> {
        let bytes = serde_json::to_vec(request).expect("requests serialise");
        let asked = tokio::time::timeout(
            REQUEST_TIMEOUT,
            self.cluster
                .inner
                .nats
                .request(wire::cmd_subject(&self.id), bytes.into()),
        )
        .await;
        match asked {
            Ok(Ok(msg)) => match serde_json::from_slice::<Reply>(&msg.payload) {
                Ok(reply) => reply.into_result(),
                Err(_) => Err(RoomError::new(
                    code::INTERNAL,
                    "the room's node answered badly",
                )),
            },
            Ok(Err(e)) if e.kind() == async_nats::client::RequestErrorKind::NoResponders => {
                Err(RoomError::new(code::UNKNOWN_ROOM, "no such room"))
            }
            Ok(Err(_)) | Err(_) => Err(RoomError::new(
                code::INTERNAL,
                "the room's node did not answer; try again",
            )),
        }
    }

    /// Tells the owner without waiting for an answer.
    async fn tell(&self, request: &Request) {
        let bytes = serde_json::to_vec(request).expect("requests serialise");
        let _ = self
            .cluster
            .inner
            .nats
            .publish(wire::cmd_subject(&self.id), bytes.into())
            .await;
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Join {
                identity,
                outbox,
                role,
                since,
                rid,
                reply,
            } => {
                // A takeover restored the room on this node while the join waited here: the join goes to the
                // room itself, where the socket's next commands go too.
                if let Some(local) = self.rooms.local(&self.id) {
                    let r = local.join(identity, outbox, role, since, rid).await;
                    let _ = reply.send(r);
                    return;
                }
                let from = self.cluster.addr(outbox.id);
                let request = Request::Join {
                    from: from.clone(),
                    identity: (&identity).into(),
                    role,
                    since,
                    rid,
                };
                let mut r = self.ask(&request).await;
                // No node answers for the room: none has it, or its owner's subscription has not reached the NATS
                // server yet (a room just created, its id already with a player here; the NATS server takes each
                // connection's traffic in its own time). Asked again a few times before the answer is
                // `unknown_room`.
                for pause in JOIN_RETRIES {
                    if !matches!(&r, Err(e) if e.code == code::UNKNOWN_ROOM) {
                        break;
                    }
                    tokio::time::sleep(pause).await;
                    r = self.ask(&request).await;
                }
                // The join reached the room over NATS, but on this node (restored here by a takeover while the
                // request travelled: the room is in the registry before it serves requests). The socket's next
                // commands go to the room itself, which would not know it: it joins there as a local member,
                // then its stand-in goes (in that order, so that a seated player is never without connections).
                if r.is_ok() {
                    if let Some(local) = self.rooms.local(&self.id) {
                        let r = local.join(identity, outbox, role, since, rid).await;
                        self.tell(&Request::Disconnected { from }).await;
                        let _ = reply.send(r);
                        return;
                    }
                    self.audience.joined(outbox);
                }
                let _ = reply.send(r);
            }
            Command::Leave { conn, rid, reply } => {
                let r = self
                    .ask(&Request::Leave {
                        from: self.cluster.addr(conn),
                        rid,
                    })
                    .await;
                self.audience.left(conn, self.cluster.inner.clock.now());
                let _ = reply.send(r);
            }
            Command::Act {
                conn,
                rid,
                act,
                rtt_ms,
                reply,
            } => {
                let r = match WireAct::of(act) {
                    Ok(act) => {
                        self.ask(&Request::Act {
                            from: self.cluster.addr(conn),
                            rid,
                            act,
                            rtt_ms,
                        })
                        .await
                    }
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Command::Disconnected { conn } => {
                self.audience.gone(conn);
                self.tell(&Request::Disconnected {
                    from: self.cluster.addr(conn),
                })
                .await;
            }
            Command::Resync { .. } => {}
            Command::RemoveChat { line, reply } => {
                let r = self.ask(&Request::RemoveChat { line }).await;
                let _ = reply.send(r);
            }
            Command::Barrier { reply } => {
                let _ = reply.send(());
            }
            // The summary is the owner's to give; the caller hears `unknown_room`.
            Command::Summary { .. } => {}
            // Only a room this node owns can move away; a relay already follows the room wherever it is.
            Command::Moved { reply } => {
                let _ = reply.send(());
            }
            Command::Shutdown { .. } => unreachable!("handled by the loop"),
        }
    }
}
