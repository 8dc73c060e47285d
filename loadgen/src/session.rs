//! One simulated game: a creator, a joiner and spectators, each a client that follows the run's timeline, keeps
//! the room in the typed client's [`client::Replica`] (versions, seats, the game), plays when it is its turn (in
//! Gomoku the picker's [`Position`] of the replica's stones, in another game the replica's game), and reconnects
//! when asked to. It speaks protocol version 2: `act` with its `at`, the `action` events.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use games::Game as _;
use protocol::{
    code, ClientMessage, GameSpec, JoinRole, OfferKind, RoomEvent, RoomSnapshot, RoomState,
    RulesSpec, ServerMessage, TimeControl,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rules::{Color, Game, Rules};
use tokio::sync::watch;
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

use client::{Applied, Replica, ReplicaError, Requests};

use crate::conn::{self, Target, Ws};
use crate::ledger::Ledger;
use crate::picker::Position;
use crate::plan::{RunArgs, Timeline};
use crate::stats::{Audience, Recorder};

/// What every client of a run shares.
#[derive(Debug)]
pub struct Ctx {
    /// The run's flags.
    pub args: RunArgs,
    /// The rules of every room (Gomoku's; with `game`, unused).
    pub rules: RulesSpec,
    /// The game of every room when it is not Gomoku: its clients then play from the typed client's replica of the
    /// game ([`crate::anypick`]) and send `act`.
    pub game: Option<GameSpec>,
    /// Where to connect: the nodes, in the order of the run's URLs (one for a single server).
    pub targets: Vec<Target>,
    /// When things happen.
    pub timeline: Timeline,
    /// Measurements.
    pub rec: Arc<Recorder>,
    /// What the clients saw acknowledged.
    pub ledger: Arc<Ledger>,
}

/// The part of a game its clients share outside the server: the room id once created, and when each stone was
/// sent and from which node, so the receivers can measure the latency (and tell same-node from cross-node).
#[derive(Debug)]
struct Table {
    room: watch::Sender<Option<String>>,
    sent: Mutex<Sent>,
}

/// When each stone of the table's current game was sent, and the node its player was connected to. A room plays
/// one game at a time, so a list by ply replaces a map keyed by game and ply (no hashing per stone, and no clean-up
/// between games).
#[derive(Debug, Default)]
struct Sent {
    game: i64,
    at: Vec<Option<(Instant, usize)>>,
}

impl Sent {
    /// Starts over for `game` unless that is the game already kept.
    fn start(&mut self, game: i64) {
        if self.game != game {
            self.game = game;
            self.at.clear();
        }
    }

    /// Stone `ply` of `game` was sent `at` through node `node`; a stone of another game starts the list over.
    fn insert(&mut self, game: i64, ply: u32, at: Instant, node: usize) {
        self.start(game);
        let i = ply as usize;
        if self.at.len() <= i {
            self.at.resize(i + 1, None);
        }
        self.at[i] = Some((at, node));
    }

    /// When stone `ply` of `game` was sent and through which node, if it is of the game kept.
    fn get(&self, game: i64, ply: u32) -> Option<(Instant, usize)> {
        if game != self.game {
            return None;
        }
        self.at.get(ply as usize).copied().flatten()
    }
}

/// The part a client plays in its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Creator,
    Joiner,
    Spectator,
}

/// Plays game `g` (of `ctx.args.games` in the whole run) with all its clients until the run closes.
pub async fn run_game(g: usize, ctx: Arc<Ctx>) {
    let (room_tx, _) = watch::channel(None);
    let table = Arc::new(Table {
        room: room_tx,
        sent: Mutex::new(Sent::default()),
    });
    let per_game = 2 + ctx.args.spectators;
    let mut tasks = Vec::with_capacity(per_game);
    for k in 0..per_game {
        let role = match k {
            0 => Role::Creator,
            1 => Role::Joiner,
            _ => Role::Spectator,
        };
        let node = match role {
            Role::Creator => ctx.args.placement(g).creator,
            Role::Joiner => ctx.args.placement(g).joiner,
            Role::Spectator => ctx.args.spectator_node(g, k - 2),
        };
        let client = Client::new(g, g * per_game + k, role, node, &ctx);
        tasks.push(tokio::spawn(client.live(ctx.clone(), table.clone())));
    }
    for t in tasks {
        let _ = t.await;
    }
}

/// How a session on one socket ended.
enum Outcome {
    /// The run is over.
    Ended,
    /// The socket dropped or the server closed it.
    Dropped,
}

/// One client's state, kept across reconnects.
struct Client {
    g: usize,
    index: usize,
    role: Role,
    /// The node (an index into the run's targets) this client connects to: its placement at first, the next one
    /// round when a connection attempt fails (that node is down).
    node: usize,
    rules: Rules,
    rng: StdRng,
    token: Option<String>,
    name: String,
    /// The room as this client follows it, from its first snapshot on (kept across reconnects, so a new socket
    /// asks for what it missed since the replica's version): its id, version, seats, game id and stones.
    room: Option<Replica>,
    /// The game as the picker plays it, while one is on.
    game: Option<Position>,
    /// The ply and request id of a `place` not yet answered.
    pending: Option<(u32, u64)>,
    next_at: Option<Instant>,
    create_at: Option<Instant>,
    await_room: bool,
    /// Request ids (kept across reconnects, so an answer to an old socket's request is never mistaken).
    requests: Requests,
    /// The request id of the last `join` of the room sent and not yet answered.
    joining: Option<u64>,
    /// When to send the room's `join` again: a join refused because no node serves the room yet (its owner
    /// died and the lease has not run out), with the wait before the next try.
    rejoin: Option<(Instant, Duration)>,
    /// The wait before the next such try (from [`REJOIN_FIRST`], doubling up to [`REJOIN_MAX`]).
    rejoin_wait: Option<Duration>,
    /// The room's game is over and no new one started: this player has offered a rematch.
    over: bool,
    /// Back on a new socket with the game over: offer the rematch again once the join is answered.
    reoffer: bool,
}

/// The first wait before a refused join is sent again.
const REJOIN_FIRST: Duration = Duration::from_millis(200);

/// The longest wait between tries of a refused join.
const REJOIN_MAX: Duration = Duration::from_secs(2);

impl Client {
    fn new(g: usize, index: usize, role: Role, node: usize, ctx: &Ctx) -> Client {
        Client {
            g,
            index,
            role,
            node,
            rules: ctx.rules.to_rules().expect("rules checked at start"),
            rng: StdRng::seed_from_u64(ctx.args.seed ^ (index as u64).wrapping_mul(0x9E37_79B9)),
            token: None,
            name: String::new(),
            room: None,
            game: None,
            pending: None,
            next_at: None,
            create_at: None,
            await_room: false,
            requests: Requests::new(),
            joining: None,
            rejoin: None,
            rejoin_wait: None,
            over: false,
            reoffer: false,
        }
    }

    fn player(&self) -> bool {
        self.role != Role::Spectator
    }

    /// The room's id, once a snapshot came.
    fn room_id(&self) -> Option<String> {
        self.room.as_ref().map(|r| r.room.clone())
    }

    /// The last version of the room this client followed (0 before its first snapshot).
    fn version(&self) -> u64 {
        self.room.as_ref().map_or(0, |r| r.version)
    }

    /// The colour this player holds (never one for a spectator).
    fn colour(&self) -> Option<Color> {
        if self.player() {
            self.room.as_ref()?.you
        } else {
            None
        }
    }

    /// The room's current game.
    fn game_id(&self) -> Option<i64> {
        self.room.as_ref()?.game_id
    }

    async fn live(mut self, ctx: Arc<Ctx>, table: Arc<Table>) {
        let t = ctx.timeline;
        sleep_until(t.connect_at(self.g, ctx.args.games).into()).await;
        let source = conn::source_ip(self.index, ctx.args.spread());
        loop {
            let ws = loop {
                match conn::connect(&ctx.targets[self.node], source).await {
                    Ok(ws) => break Some(ws),
                    Err(_) if ctx.args.reconnect && Instant::now() < t.end => {
                        // That node may be down: the next one round (any node serves any room).
                        self.node = (self.node + 1) % ctx.targets.len();
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    Err(e) => {
                        ctx.rec.error("connect_failed");
                        if ctx.rec.progress().errors <= 3 {
                            eprintln!("loadgen: connect failed: {e:#}");
                        }
                        break None;
                    }
                }
            };
            let Some(ws) = ws else { return };
            ctx.rec.connected();
            let outcome = self.session(ws, &ctx, &table).await;
            ctx.rec.disconnected();
            match outcome {
                Outcome::Ended => return,
                Outcome::Dropped if ctx.args.reconnect && Instant::now() < t.end => {
                    // Whatever was in flight is judged again from the state the server gives back.
                    self.pending = None;
                    self.next_at = None;
                    self.joining = None;
                    self.rejoin = None;
                }
                Outcome::Dropped => return,
            }
        }
    }

    /// Sends `msg` under the client's next request id (the typed client's bookkeeping; the socket loop is
    /// loadgen's own, which waits on timers and the room's watch as well as the socket).
    async fn send(&mut self, ws: &mut Ws, msg: ClientMessage) -> anyhow::Result<u64> {
        let (rid, text) = self.requests.encode(&msg);
        ws.send(Message::text(text)).await?;
        Ok(rid)
    }

    async fn session(&mut self, mut ws: Ws, ctx: &Ctx, table: &Table) -> Outcome {
        let t = ctx.timeline;
        let hello = ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token: self.token.clone(),
        };
        if self.send(&mut ws, hello).await.is_err() {
            return self.dropped(ctx, "send_failed");
        }
        let mut room_rx = table.room.subscribe();
        // Timers live as long as the session, not one iteration: a fresh `sleep_until` per received frame is
        // registered in and removed from tokio's timer wheel every time. The stone timer is reset only when a new
        // stone is planned.
        let closed = sleep_until(t.closed.into());
        tokio::pin!(closed);
        let stone_timer = sleep_until(t.closed.into());
        tokio::pin!(stone_timer);
        let mut stone_timer_at = None;
        loop {
            if let Some(at) = self.next_at {
                // A stone already due (always so without think time) goes out now, not after a trip through
                // the timer wheel.
                if at <= Instant::now() {
                    match self.act(&mut ws, ctx, table).await {
                        Ok(()) => continue,
                        Err(_) => return self.dropped(ctx, "send_failed"),
                    }
                }
                if stone_timer_at != Some(at) {
                    stone_timer.as_mut().reset(at.into());
                    stone_timer_at = Some(at);
                }
            }
            let create_at = self.create_at;
            let await_room = self.await_room;
            let rejoin_at = self.rejoin.map(|(at, _)| at);
            let result: anyhow::Result<Option<Outcome>> = tokio::select! {
                frame = ws.next() => match frame {
                    Some(Ok(Message::Text(text))) => self.on_text(&mut ws, text.as_str(), ctx, table).await.map(|_| None),
                    Some(Ok(Message::Close(frame))) => {
                        let code = frame.map(|f| u16::from(f.code)).unwrap_or(1005);
                        if Instant::now() < t.end {
                            ctx.rec.error(&format!("closed_{code}"));
                        }
                        Ok(Some(Outcome::Dropped))
                    }
                    Some(Ok(Message::Binary(_))) => {
                        ctx.rec.error("binary_from_server");
                        Ok(None)
                    }
                    Some(Ok(_)) => Ok(None),
                    Some(Err(_)) | None => Ok(Some(self.dropped(ctx, "connection_lost"))),
                },
                () = &mut stone_timer, if self.next_at.is_some() => {
                    self.act(&mut ws, ctx, table).await.map(|_| None)
                }
                // Built only when polled: the creator waits for this once per session.
                () = async { sleep_until(create_at.unwrap_or(t.closed).into()).await }, if create_at.is_some() => {
                    self.create_at = None;
                    let msg = ClientMessage::CreateRoom {
                        rules: ctx.game.is_none().then_some(ctx.rules),
                        game: ctx.game,
                        time_control: TimeControl::None,
                        rated: false,
                        // Unlisted: tens of thousands of rooms in the lobby would measure the lobby, not the game.
                        public: false,
                        colour: protocol::ColourChoice::Black,
                        rating_range: None,
                    };
                    self.send(&mut ws, msg).await.map(|_| None)
                }
                room = async { room_rx.wait_for(|r| r.is_some()).await.ok().and_then(|r| r.clone()) }, if await_room => {
                    self.await_room = false;
                    match room {
                        Some(room) => self.join(&mut ws, room, None).await.map(|_| None),
                        None => Ok(None),
                    }
                }
                // Built only when polled: a join that found no node serving the room, tried again.
                () = async { sleep_until(rejoin_at.unwrap_or(t.closed).into()).await }, if rejoin_at.is_some() => {
                    let wait = self.rejoin.map(|(_, w)| w);
                    self.rejoin = None;
                    let room = self.room_id().or_else(|| table.room.borrow().clone());
                    match room {
                        Some(room) => {
                            let since = self.room.as_ref().map(|r| r.version);
                            let sent = self.join(&mut ws, room, since).await;
                            // The wait grows while the room stays away (a room that is gone for good is asked
                            // about a few times a second at most).
                            self.rejoin_wait = wait.map(|w| (w * 2).min(REJOIN_MAX));
                            sent.map(|_| None)
                        }
                        None => Ok(None),
                    }
                }
                () = &mut closed => {
                    let _ = ws.send(Message::Close(Some(CloseFrame { code: CloseCode::Normal, reason: "".into() }))).await;
                    // Read until the server answers the close, so it sees a clean close and not a reset.
                    let _ = tokio::time::timeout(Duration::from_millis(500), async {
                        while let Some(Ok(_)) = ws.next().await {}
                    }).await;
                    Ok(Some(Outcome::Ended))
                }
            };
            match result {
                Ok(None) => {}
                Ok(Some(outcome)) => return outcome,
                Err(_) => return self.dropped(ctx, "send_failed"),
            }
        }
    }

    fn dropped(&self, ctx: &Ctx, code: &str) -> Outcome {
        if Instant::now() < ctx.timeline.end {
            ctx.rec.error(code);
        }
        Outcome::Dropped
    }

    async fn on_text(
        &mut self,
        ws: &mut Ws,
        text: &str,
        ctx: &Ctx,
        table: &Table,
    ) -> anyhow::Result<()> {
        let frame = match client::decode(text) {
            Ok(f) => f,
            Err(e) => {
                ctx.rec.error(&format!("undecodable_{}", e.code()));
                return Ok(());
            }
        };
        match frame.msg {
            ServerMessage::Welcome { you, token, .. } => {
                self.name = you.name;
                self.token = Some(token);
                self.reoffer = self.over;
                match self.room_id() {
                    Some(room) => self.join(ws, room, Some(self.version())).await?,
                    None if self.role == Role::Creator => {
                        self.create_at = Some(ctx.timeline.room_at(self.g, ctx.args.games));
                    }
                    None => self.await_room = true,
                }
            }
            ServerMessage::Room { room } => {
                self.answered(frame.rid);
                // A game over that the room shows without this player's rematch offer: the offer went out on a
                // socket that died, or the game's end came in this snapshot (the room moved meanwhile).
                let over = room.state == RoomState::Over;
                let offer = over
                    && !room
                        .offers
                        .iter()
                        .any(|o| o.kind == OfferKind::Rematch && Some(o.by) == room.you);
                let id = room.id.clone();
                self.snapshot(room, ctx, table);
                self.over = over;
                self.reoffer = false;
                if offer {
                    self.offer_rematch(ws, id, ctx).await?;
                }
            }
            ServerMessage::CatchUp { events, .. } => {
                let ours = self.answered(frame.rid);
                for e in events {
                    self.event(ws, e.version, e.event, ctx, table).await?;
                }
                // Back after a reconnect with the game over: the rematch offer made before may have been lost
                // with the old socket (offered again, it is at worst refused as pending).
                if ours && self.reoffer && self.over {
                    if let Some(id) = self.room_id() {
                        self.offer_rematch(ws, id, ctx).await?;
                    }
                }
                self.reoffer = false;
            }
            ServerMessage::Event { version, event, .. } => {
                self.event(ws, version, event, ctx, table).await?
            }
            ServerMessage::Error { code, message, .. } => {
                ctx.rec.error(&code);
                if ctx.rec.progress().errors <= 3 {
                    eprintln!("loadgen: server error {code}: {message}");
                }
                if matches!(self.pending, Some((_, rid)) if frame.rid == Some(rid)) {
                    // Our stone was refused: ask for the room's state again rather than guess.
                    self.pending = None;
                    if let Some(room) = self.room_id() {
                        self.join(ws, room, Some(self.version())).await?;
                    }
                } else if frame.rid.is_some() && frame.rid == self.joining {
                    self.joining = None;
                    // In a cluster a room whose node died is served by no node until its lease runs out and
                    // another node takes it over: ask again, a little later each time.
                    let retry = [code::UNKNOWN_ROOM, code::INTERNAL, code::PARTITIONED]
                        .contains(&code.as_str());
                    if retry && ctx.args.reconnect && Instant::now() < ctx.timeline.end {
                        let wait = self.rejoin_wait.unwrap_or(REJOIN_FIRST);
                        self.rejoin = Some((Instant::now() + wait, wait));
                    }
                }
            }
            // Acks, pongs and lobby traffic need no reaction (and messages added later neither).
            _ => {}
        }
        self.schedule(ctx);
        Ok(())
    }

    fn snapshot(&mut self, s: RoomSnapshot, ctx: &Ctx, table: &Table) {
        if self.role == Role::Creator && self.room.is_none() {
            table.room.send_replace(Some(s.id.clone()));
        }
        // A player's colour follows its name through rematches; a spectator has none.
        let me = self.player().then_some(self.name.as_str());
        match Replica::from_snapshot(&s, me) {
            Ok(replica) => self.room = Some(replica),
            Err(_) => {
                // Only a snapshot of another game's room can fail to replay; loadgen plays Gomoku rooms.
                ctx.rec.error("replica_desync");
                return;
            }
        }
        self.pending = None;
        self.next_at = None;
        if let Some(id) = s.game_id {
            ctx.ledger.game(id, &s.id, s.record.as_deref());
            if let Some(game) = self.room.as_ref().and_then(|r| r.game.as_ref()) {
                let texts: Vec<String> = game.actions().iter().map(|a| a.notation()).collect();
                ctx.ledger.actions(id, &texts);
            }
            if let (true, Some(token)) = (self.player(), &self.token) {
                ctx.ledger.token(id, token);
            }
            if let (RoomState::Over, Some(result)) = (s.state, &s.result) {
                ctx.ledger.result(id, &result.reason);
            }
        }
        self.game = match s.state {
            // Another game's room is played from the replica's game.
            _ if ctx.game.is_some() => None,
            RoomState::Playing => self.gomoku_position(),
            RoomState::Waiting | RoomState::Over => None,
        };
    }

    /// The picker's position of a Gomoku room: the replica's game (replayed from the snapshot's `view`, or kept
    /// by the events since). `None` when the room has no Gomoku game on.
    fn gomoku_position(&self) -> Option<Position> {
        match self.any_game()? {
            games::AnyGame::Gomoku(g) => Some(Position::new(g.rules_game().clone())),
            _ => None,
        }
    }

    async fn event(
        &mut self,
        ws: &mut Ws,
        version: u64,
        event: RoomEvent,
        ctx: &Ctx,
        table: &Table,
    ) -> anyhow::Result<()> {
        // Events come after the snapshot that answers a join; the replica checks each is the next version.
        let Some(replica) = self.room.as_mut() else {
            return Ok(());
        };
        match replica.apply(version, &event) {
            Ok(Applied::Stale) => return Ok(()),
            Ok(Applied::Applied) => {}
            Err(e) => {
                // The replica cannot follow what it missed: ask for the room again.
                ctx.rec.error(match e {
                    ReplicaError::Gap { .. } => "version_gap",
                    _ => "replica_desync",
                });
                return self.resync(ws).await;
            }
        }
        let room = replica.room.clone();
        match event {
            RoomEvent::GameStarted {
                game_id, record, ..
            } => {
                self.over = false;
                ctx.ledger.game(game_id, &room, record.as_deref());
                if self.player() {
                    if let Some(token) = &self.token {
                        ctx.ledger.token(game_id, token);
                    }
                }
                if self.role == Role::Creator {
                    ctx.rec.game_started();
                    table.sent.lock().expect("table lock").start(game_id);
                }
                if ctx.game.is_none() {
                    self.game = Some(Position::new(Game::new(self.rules)));
                }
                self.pending = None;
                self.next_at = None;
            }
            RoomEvent::Action {
                at,
                by,
                action,
                change,
                ..
            } => {
                let Some(game_id) = self.game_id() else {
                    return Ok(());
                };
                ctx.ledger.action(game_id, at, &action);
                // A stone of a Gomoku room goes to the picker's position too.
                if let (Some(game), protocol::GameChange::Gomoku(c)) = (&mut self.game, &change) {
                    if let Some(point) = c.placed {
                        if !game.follow(c.ply, point) {
                            ctx.rec.error("replica_desync");
                            return self.resync(ws).await;
                        }
                    }
                }
                let ply = at + 1;
                let sent = table.sent.lock().expect("table lock").get(game_id, ply);
                if self.role == Role::Spectator {
                    if let Some((at, _)) = sent {
                        ctx.rec.latency(Audience::Spectator, at.elapsed());
                    }
                } else if Some(by) == self.colour() {
                    if matches!(self.pending, Some((p, _)) if p == ply) {
                        ctx.rec.moved();
                        self.pending = None;
                    }
                } else if let Some((at, node)) = sent {
                    ctx.rec.opponent(node != self.node, at.elapsed());
                }
            }
            RoomEvent::ActionsTakenBack { .. } => {
                if ctx.game.is_none() {
                    self.game = self.gomoku_position();
                }
                self.pending = None;
                self.next_at = None;
            }
            RoomEvent::GameOver { result, .. } => {
                if let Some(id) = self.game_id() {
                    ctx.ledger.result(id, &result.reason);
                }
                if self.role == Role::Creator {
                    ctx.rec.game_finished();
                }
                self.game = None;
                self.pending = None;
                self.next_at = None;
                self.over = true;
                self.offer_rematch(ws, room, ctx).await?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Asks for a snapshot of the room (a `join` without `since`), which replaces the replica.
    async fn resync(&mut self, ws: &mut Ws) -> anyhow::Result<()> {
        if let Some(room) = self.room_id() {
            self.join(ws, room, None).await?;
        }
        Ok(())
    }

    /// Joins `room` in this client's role (`since`: the last version seen, for the missed events), keeping the
    /// request id so that a refusal can be told from other errors.
    async fn join(&mut self, ws: &mut Ws, room: String, since: Option<u64>) -> anyhow::Result<()> {
        let role = if self.player() {
            JoinRole::Player
        } else {
            JoinRole::Spectator
        };
        let rid = self
            .send(ws, ClientMessage::Join { room, role, since })
            .await?;
        self.joining = Some(rid);
        Ok(())
    }

    /// A snapshot or catch-up came: when it answers our join (and then says so), the room is served again.
    fn answered(&mut self, rid: Option<u64>) -> bool {
        let ours = rid.is_some() && rid == self.joining;
        if ours {
            self.joining = None;
            self.rejoin_wait = None;
        }
        ours
    }

    /// Asks for a rematch, as a player while the run plays (with `--rematch`).
    async fn offer_rematch(&mut self, ws: &mut Ws, room: String, ctx: &Ctx) -> anyhow::Result<()> {
        if self.player() && ctx.args.rematch && Instant::now() < ctx.timeline.end {
            self.send(ws, ClientMessage::OfferRematch { room }).await?;
        }
        Ok(())
    }

    /// Plans the next stone when it is this player's turn.
    fn schedule(&mut self, ctx: &Ctx) {
        let to_act = match (&self.game, self.any_game()) {
            (Some(game), _) => game.game().to_act(),
            (None, Some(game)) if game.forced().is_none() => game.to_act(),
            _ => return,
        };
        if !self.player()
            || self.pending.is_some()
            || self.next_at.is_some()
            || self.colour().is_none()
            || to_act != self.colour()
        {
            return;
        }
        let now = Instant::now();
        let t = ctx.timeline;
        if now >= t.end {
            return;
        }
        let think = Duration::from_millis(ctx.args.think_ms);
        self.next_at = Some(if now < t.seated {
            // Spread the first stones of all games over one think time, so the load starts even.
            t.seated + think.mul_f64(self.rng.random_range(0.0..1.0))
        } else {
            now + think.mul_f64(self.rng.random_range(0.8..1.2))
        });
    }

    /// The game of a room of another game than Gomoku, as the replica holds it.
    fn any_game(&self) -> Option<&games::AnyGame> {
        self.room.as_ref()?.game.as_ref()
    }

    async fn act(&mut self, ws: &mut Ws, ctx: &Ctx, table: &Table) -> anyhow::Result<()> {
        self.next_at = None;
        if Instant::now() >= ctx.timeline.end {
            return Ok(());
        }
        if ctx.game.is_some() {
            return self.act_any(ws, table).await;
        }
        let (colour, game_id, room) = (self.colour(), self.game_id(), self.room_id());
        let (Some(game), Some(colour), Some(game_id), Some(room)) =
            (&mut self.game, colour, game_id, room)
        else {
            return Ok(());
        };
        let Some(point) = game.pick(colour, &mut self.rng) else {
            return Ok(());
        };
        // Without an opening's decisions every action is a stone: the stones so far are the `at`.
        let at = game.game().ply() as u32;
        table
            .sent
            .lock()
            .expect("table lock")
            .insert(game_id, at + 1, Instant::now(), self.node);
        let action = point.to_string();
        let rid = self
            .send(ws, ClientMessage::Act { room, action, at })
            .await?;
        self.pending = Some((at + 1, rid));
        Ok(())
    }

    /// [`Client::act`] in a room of another game: the picker's action from the replica's game, sent with `act`
    /// and its `at`; `pending` and the send times are keyed by `at + 1`, as in Gomoku.
    async fn act_any(&mut self, ws: &mut Ws, table: &Table) -> anyhow::Result<()> {
        let (colour, game_id, room) = (self.colour(), self.game_id(), self.room_id());
        let game = self.room.as_ref().and_then(|r| r.game.as_ref());
        let (Some(game), Some(game_id), Some(room)) = (game, game_id, room) else {
            return Ok(());
        };
        if game.to_act() != colour {
            return Ok(());
        }
        let at = game.action_count() as u32;
        let Some(action) = crate::anypick::pick(game, &mut self.rng) else {
            return Ok(());
        };
        table
            .sent
            .lock()
            .expect("table lock")
            .insert(game_id, at + 1, Instant::now(), self.node);
        let rid = self
            .send(ws, ClientMessage::Act { room, action, at })
            .await?;
        self.pending = Some((at + 1, rid));
        Ok(())
    }
}
