//! One quick-pairing seeker: connects as a new guest, seeks its preset, and says what it saw — its seek's ack,
//! every `paired` (there must be at most one), and, for a leaver, when it left and whether it was paired after.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMessage, Frame, RoomEvent, ServerMessage};
use rules::Color;
use serde::Serialize;
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

use client::Requests;

use super::{Phase, Shared, Status};
use crate::conn::{self, Ws};

/// How long a request (`hello`, `seek_quick`, `cancel_quick`) may wait for its answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(15);
/// How long a closing socket is read for the frames the server sent before it saw the close.
const DRAIN_WITHIN: Duration = Duration::from_secs(5);

/// What a seeker does once its seek is acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "after_ms")]
pub enum Plan {
    /// Waits until paired (or until the run's end, when it cancels).
    Stay,
    /// Sends `cancel_quick` this many milliseconds after the ack, unless paired before.
    Cancel(u64),
    /// Closes its connection this many milliseconds after the ack, unless paired before.
    Disconnect(u64),
}

impl Plan {
    /// Whether the seeker means to leave the queue.
    pub fn leaves(self) -> bool {
        self != Plan::Stay
    }
}

/// One `paired` message as a seeker received it.
#[derive(Clone, Debug, Serialize)]
pub struct Seen {
    /// The room it names.
    pub room: String,
    /// The colour it gives this seeker.
    pub colour: Color,
    /// The opponent's name it gives.
    pub opponent: String,
    /// The opponent's id, from the seat of the other colour in the room's snapshot or events (empty without).
    pub opponent_id: String,
    /// Milliseconds from the seek's ack.
    pub after_ack_ms: f64,
    /// Received after the seeker had left (its cancel acknowledged): a broken promise of the server.
    pub after_leaving: bool,
    /// Received while a disconnecting seeker read its socket to the end: the server paired it before it saw the
    /// close, which is no broken promise.
    pub while_closing: bool,
    /// When it was received.
    #[serde(skip)]
    pub at: Option<Instant>,
}

/// Everything one seeker saw.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// Its index in the run.
    pub index: usize,
    /// Its preset.
    pub preset: String,
    /// What it meant to do.
    pub plan: Plan,
    /// Its id and name (from `welcome`; empty when it never got one).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Milliseconds from sending `seek_quick` to its ack (`None`: never acknowledged).
    pub ack_ms: Option<f64>,
    /// When its seek was acknowledged (for ordering the two sides of a pair), µs since the run's start.
    #[serde(skip)]
    pub acked_at: Option<Instant>,
    /// Every `paired` it received.
    pub paired: Vec<Seen>,
    /// It left the queue: its cancel was acknowledged, or its socket closed before it was paired.
    pub left: bool,
    /// When it sent its `cancel_quick` or close frame to leave.
    #[serde(skip)]
    pub leaving_at: Option<Instant>,
    /// When it had left: its cancel acknowledged, or its socket read to the end after its close frame.
    #[serde(skip)]
    pub left_at: Option<Instant>,
    /// How a disconnecting leaver's socket ended after its close frame (`close_frame`, `eof`, `error`,
    /// `timeout`).
    pub drain_end: Option<&'static str>,
    /// It was a stayer still waiting at the end, and cancelled then.
    pub cancelled_at_end: bool,
    /// What went wrong (`connect_failed`, `seek:<code>`, `connection_lost`, `error:<code>`, …).
    pub errors: Vec<String>,
}

/// The run as a seeker sees it.
pub struct Seeker {
    /// The seeker's index.
    pub index: usize,
    /// Its preset.
    pub preset: String,
    /// Its plan.
    pub plan: Plan,
    /// When it connects.
    pub at: Instant,
}

impl Seeker {
    /// Connects at its time, seeks, and follows its plan until the run closes.
    pub async fn run(self, shared: Arc<Shared>) -> Outcome {
        let mut out = Outcome {
            index: self.index,
            preset: self.preset.clone(),
            plan: self.plan,
            id: String::new(),
            name: String::new(),
            ack_ms: None,
            acked_at: None,
            paired: Vec::new(),
            left: false,
            leaving_at: None,
            left_at: None,
            drain_end: None,
            cancelled_at_end: false,
            errors: Vec::new(),
        };
        sleep_until(self.at.into()).await;
        let source = conn::source_ip(self.index, shared.spread);
        let mut ws = match conn::connect(&shared.target, source).await {
            Ok(ws) => ws,
            Err(e) => {
                shared.note_error(&format!("connect failed: {e:#}"));
                out.errors.push("connect_failed".into());
                shared.set(self.index, Status::Failed);
                return out;
            }
        };
        let mut session = Session {
            seeker: &self,
            shared: &shared,
            requests: Requests::new(),
            seats: None,
            out: &mut out,
            acked_at: None,
        };
        let end = session.live(&mut ws).await;
        if end != End::Closed {
            let _ = ws
                .send(Message::Close(Some(CloseFrame {
                    code: CloseCode::Normal,
                    reason: "".into(),
                })))
                .await;
            let _ = tokio::time::timeout(Duration::from_millis(500), async {
                while let Some(Ok(_)) = ws.next().await {}
            })
            .await;
        }
        out
    }
}

/// How a session ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// The socket is already closed (a disconnecting leaver, or the server closed it).
    Closed,
    /// The run is over, or the seeker gave up (a refusal): the caller closes the socket.
    Open,
}

struct Session<'a> {
    seeker: &'a Seeker,
    shared: &'a Shared,
    requests: Requests,
    /// The last room this connection was told about and the ids in its black and white seats (from the snapshot,
    /// `player_joined` and `game_started`), for the opponent's id when `paired` names the room.
    seats: Option<(String, [String; 2])>,
    out: &'a mut Outcome,
    acked_at: Option<Instant>,
}

/// A frame, or why there is none.
// A frame lives only between reading and handling it, so its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Read {
    Frame(Frame<ServerMessage>),
    Gone,
    TimedOut,
}

async fn read(ws: &mut Ws, deadline: Instant) -> Read {
    loop {
        match tokio::time::timeout_at(deadline.into(), ws.next()).await {
            Err(_) => return Read::TimedOut,
            Ok(Some(Ok(Message::Text(text)))) => match conn::parse(text.as_str()) {
                Ok(frame) => return Read::Frame(frame),
                Err(_) => continue,
            },
            Ok(Some(Ok(Message::Close(_)))) | Ok(Some(Err(_))) | Ok(None) => return Read::Gone,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

impl Session<'_> {
    fn fail(&mut self, why: String) {
        self.shared.note_error(&why);
        self.out.errors.push(why);
        self.shared.set(self.seeker.index, Status::Failed);
    }

    async fn send(&mut self, ws: &mut Ws, msg: &ClientMessage) -> Option<u64> {
        let (rid, text) = self.requests.encode(msg);
        ws.send(Message::text(text)).await.ok().map(|()| rid)
    }

    /// Handles a frame that is not the answer awaited: snapshots, `paired`, unexpected errors. `closing` says a
    /// disconnecting seeker is reading its socket to the end.
    fn on_frame(&mut self, frame: Frame<ServerMessage>, closing: bool) {
        match frame.msg {
            ServerMessage::Room { room } => {
                let id = |seat: &Option<protocol::Seat>| seat.as_ref().map(|s| s.id.clone());
                self.seats = Some((
                    room.id.clone(),
                    [
                        id(&room.seats.black).unwrap_or_default(),
                        id(&room.seats.white).unwrap_or_default(),
                    ],
                ));
            }
            ServerMessage::Event { room, event, .. } => {
                let Some((id, seats)) = self.seats.as_mut() else {
                    return;
                };
                if *id != room {
                    return;
                }
                match event {
                    RoomEvent::PlayerJoined { colour, player } => {
                        seats[usize::from(colour == Color::White)] = player.id;
                    }
                    RoomEvent::GameStarted { black, white, .. } => {
                        *seats = [black.id, white.id];
                    }
                    _ => {}
                }
            }
            ServerMessage::Paired {
                room,
                colour,
                opponent,
                ..
            } => {
                let opponent_id = self
                    .seats
                    .as_ref()
                    .filter(|(id, _)| *id == room)
                    .map(|(_, seats)| seats[usize::from(colour == Color::Black)].clone())
                    .unwrap_or_default();
                let after_ack_ms = self
                    .acked_at
                    .map_or(0.0, |t| t.elapsed().as_secs_f64() * 1000.0);
                let after_leaving = self.out.left;
                self.out.paired.push(Seen {
                    room,
                    colour,
                    opponent,
                    opponent_id,
                    after_ack_ms,
                    after_leaving,
                    while_closing: closing,
                    at: Some(Instant::now()),
                });
                if self.out.paired.len() == 1 && !after_leaving {
                    self.shared.paired();
                    self.shared.set(self.seeker.index, Status::Paired);
                }
            }
            ServerMessage::Error { code, message, .. } => {
                self.shared
                    .note_error(&format!("server error {code}: {message}"));
                self.out.errors.push(format!("error:{code}"));
            }
            _ => {}
        }
    }

    /// Sends `msg` and reads until its answer, handling what comes before it.
    async fn request(&mut self, ws: &mut Ws, msg: &ClientMessage) -> Result<ServerMessage, String> {
        let rid = self.send(ws, msg).await.ok_or("send_failed")?;
        let deadline = Instant::now() + ANSWER_WITHIN;
        loop {
            match read(ws, deadline).await {
                Read::Frame(f) if f.rid == Some(rid) => return Ok(f.msg),
                Read::Frame(f) => self.on_frame(f, false),
                Read::Gone => return Err("connection_lost".into()),
                Read::TimedOut => return Err("no_answer".into()),
            }
        }
    }

    async fn live(&mut self, ws: &mut Ws) -> End {
        let shared = self.shared;
        let hello = ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token: None,
        };
        match self.request(ws, &hello).await {
            Ok(ServerMessage::Welcome { you, .. }) => {
                self.out.id = you.id;
                self.out.name = you.name;
            }
            Ok(ServerMessage::Error { code, .. }) => {
                self.fail(format!("hello:{code}"));
                return End::Open;
            }
            Ok(other) => {
                self.fail(format!("hello:unexpected {other:?}"));
                return End::Open;
            }
            Err(e) => {
                self.fail(format!("hello:{e}"));
                return End::Open;
            }
        }
        shared.connected();
        let seek = ClientMessage::SeekQuick {
            preset: self.seeker.preset.clone(),
            rules: None,
            game: None,
            time_control: None,
            rated: false,
        };
        let sent = Instant::now();
        match self.request(ws, &seek).await {
            Ok(ServerMessage::Ack { .. }) => {
                let now = Instant::now();
                self.acked_at = Some(now);
                self.out.acked_at = Some(now);
                self.out.ack_ms = Some((now - sent).as_secs_f64() * 1000.0);
            }
            Ok(ServerMessage::Error { code, .. }) => {
                self.fail(format!("seek:{code}"));
                return End::Open;
            }
            Ok(other) => {
                self.fail(format!("seek:unexpected {other:?}"));
                return End::Open;
            }
            Err(e) => {
                self.fail(format!("seek:{e}"));
                return End::Open;
            }
        }
        if self.out.paired.is_empty() {
            shared.set(self.seeker.index, Status::Waiting);
        }
        let acked = self.acked_at.expect("acknowledged above");
        let leave_at = match self.seeker.plan {
            Plan::Stay => None,
            Plan::Cancel(ms) | Plan::Disconnect(ms) => Some(acked + Duration::from_millis(ms)),
        };
        let mut phase = shared.phase.subscribe();
        // The rid of a `cancel_quick` not yet answered.
        let mut cancelling: Option<u64> = None;
        let leave_timer = sleep_until(leave_at.unwrap_or(acked).into());
        tokio::pin!(leave_timer);
        let mut leave_pending = leave_at.is_some();
        loop {
            let waiting = self.out.paired.is_empty() && !self.out.left;
            tokio::select! {
                got = read(ws, Instant::now() + Duration::from_secs(3600)) => match got {
                    Read::Frame(f) if cancelling.is_some() && f.rid == cancelling => {
                        cancelling = None;
                        match f.msg {
                            ServerMessage::Ack { .. } => {
                                if self.out.paired.is_empty() {
                                    self.out.left = true;
                                    self.out.left_at = Some(Instant::now());
                                    shared.left();
                                    shared.set(self.seeker.index, Status::Left);
                                }
                            }
                            other => {
                                self.fail(format!("cancel:unexpected {other:?}"));
                            }
                        }
                    }
                    Read::Frame(f) => self.on_frame(f, false),
                    Read::Gone | Read::TimedOut => {
                        if *phase.borrow() != Phase::Close {
                            self.fail("connection_lost".into());
                        }
                        return End::Closed;
                    }
                },
                () = &mut leave_timer, if leave_pending => {
                    leave_pending = false;
                    if !waiting {
                        continue;
                    }
                    match self.seeker.plan {
                        Plan::Cancel(_) => {
                            match self.send(ws, &ClientMessage::CancelQuick {}).await {
                                Some(rid) => {
                                    cancelling = Some(rid);
                                    self.out.leaving_at = Some(Instant::now());
                                }
                                None => {
                                    self.fail("send_failed".into());
                                    return End::Closed;
                                }
                            }
                        }
                        Plan::Disconnect(_) => return self.disconnect(ws).await,
                        Plan::Stay => {}
                    }
                }
                changed = phase.changed() => {
                    if changed.is_err() {
                        return End::Open;
                    }
                    let now = *phase.borrow_and_update();
                    match now {
                        Phase::Run => {}
                        Phase::Finish => {
                            // Still waiting at the end (the odd one out of its preset, or a leaver whose time had
                            // not come): leaves, so that the queues end empty.
                            if waiting && cancelling.is_none() {
                                leave_pending = false;
                                self.out.cancelled_at_end = true;
                                match self.send(ws, &ClientMessage::CancelQuick {}).await {
                                    Some(rid) => cancelling = Some(rid),
                                    None => {
                                        self.fail("send_failed".into());
                                        return End::Closed;
                                    }
                                }
                            }
                        }
                        Phase::Close => return End::Open,
                    }
                }
            }
        }
    }

    /// Closes the socket while still waiting, then reads it to the end: a `paired` in that drain was sent before
    /// the server saw the close.
    async fn disconnect(&mut self, ws: &mut Ws) -> End {
        self.out.leaving_at = Some(Instant::now());
        let _ = ws
            .send(Message::Close(Some(CloseFrame {
                code: CloseCode::Normal,
                reason: "".into(),
            })))
            .await;
        let deadline = Instant::now() + DRAIN_WITHIN;
        let end = loop {
            match tokio::time::timeout_at(deadline.into(), ws.next()).await {
                Err(_) => break "timeout",
                Ok(Some(Ok(Message::Text(text)))) => {
                    if let Ok(frame) = conn::parse(text.as_str()) {
                        self.on_frame(frame, true);
                    }
                }
                Ok(Some(Ok(Message::Close(_)))) => break "close_frame",
                Ok(Some(Ok(_))) => {}
                Ok(Some(Err(_))) => break "error",
                Ok(None) => break "eof",
            }
        };
        self.out.drain_end = Some(end);
        if self.out.paired.is_empty() {
            self.out.left = true;
            self.out.left_at = Some(Instant::now());
            self.shared.left();
            self.shared.set(self.seeker.index, Status::Left);
        }
        End::Closed
    }
}
