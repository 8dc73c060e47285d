//! A small test client and test server: the real app on port 0 with a fresh database and a hand-driven clock,
//! talked to over real WebSockets.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::{
    decode, encode, ClientMessage, ColourChoice, Frame, JoinRole, RoomEvent, RoomSnapshot,
    RulesSpec, ServerMessage, TimeControl,
};
use rules::{Color, ForbiddenPolicy, Opening, Point, RuleSet};
use server::time::ManualClock;
use server::{AppState, Config};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for any one frame before failing (real time; the game clock is manual).
pub const WAIT: Duration = Duration::from_secs(10);

/// A database for one test: a fresh SQLite file, or the Postgres of `TEST_DATABASE_URL`.
pub struct Db {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl Db {
    /// A fresh SQLite file in a temporary folder.
    pub fn sqlite() -> Db {
        let dir = tempfile::tempdir().expect("temp dir");
        let path: PathBuf = dir.path().join("test.db");
        Db {
            url: path.to_string_lossy().into_owned(),
            _dir: Some(dir),
        }
    }

    /// The Postgres database named by `TEST_DATABASE_URL`, when set.
    pub fn postgres() -> Option<Db> {
        std::env::var("TEST_DATABASE_URL")
            .ok()
            .map(|url| Db { url, _dir: None })
    }
}

/// The real server, serving on 127.0.0.1:0.
pub struct TestServer {
    pub addr: SocketAddr,
    pub state: AppState,
    pub clock: Arc<ManualClock>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

pub fn test_config() -> Config {
    Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        ..Config::default()
    }
}

impl TestServer {
    /// A server on a fresh SQLite database with the default config.
    pub async fn start() -> (TestServer, Db) {
        let db = Db::sqlite();
        let server = TestServer::start_on(&db, test_config()).await;
        (server, db)
    }

    /// A server on the given database and config.
    pub async fn start_on(db: &Db, config: Config) -> TestServer {
        let store = store::open(&db.url).await.expect("open store");
        TestServer::start_with_store(store, config).await
    }

    /// A server on a store the test made (a wrapper that fails on demand, say).
    pub async fn start_with_store(store: Arc<dyn store::Store>, config: Config) -> TestServer {
        let clock = ManualClock::new();
        let state = AppState::with_clock(config, store, clock.clone())
            .await
            .expect("state");
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server::run(listener, state.clone(), async move {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            state,
            clock,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Stops the server gracefully and waits until it is done.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(Duration::from_secs(20), task)
                .await
                .expect("server stops in time")
                .expect("server task")
                .expect("server result");
        }
    }

    /// Moves the game clock forward.
    pub fn advance(&self, by: Duration) {
        self.clock.advance(by);
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// GET a path over plain HTTP/1.1: status, headers (lower-case names) and body.
    pub async fn get(&self, path: &str) -> (u16, String, String) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = TcpStream::connect(self.addr).await.expect("http connect");
        let req = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        tokio::time::timeout(WAIT, s.read_to_end(&mut raw))
            .await
            .expect("http answer in time")
            .unwrap();
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw.split_once("\r\n\r\n").expect("http head");
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        (status, head.to_ascii_lowercase(), body)
    }

    /// GET a JSON document.
    pub async fn get_json(&self, path: &str) -> (u16, serde_json::Value) {
        let (status, _, body) = self.get(path).await;
        (
            status,
            serde_json::from_str(&body).unwrap_or(serde_json::Value::Null),
        )
    }

    /// A connected client that said hello as a new guest.
    /// A registered user made directly in the store (no password to hash), connected with a fresh session
    /// token: the client, the token and the user's id.
    pub async fn registered(&self, name: &str) -> Registered {
        let store = &self.state.store;
        let user = store.create_user(name, "not-a-real-hash", 0).await.unwrap();
        let user_id = user.id;
        let token = server::identity::new_token();
        store
            .create_session(
                &server::identity::hash_token(&token),
                &store::SessionOwner::User(user),
                i64::MAX,
            )
            .await
            .unwrap();
        Registered {
            client: Client::hello(self.addr, Some(&token)).await,
            token,
            user_id,
        }
    }

    pub async fn client(&self) -> Client {
        Client::hello(self.addr, None).await
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What a client received that was not a reply it waited for.
/// A user made by [`TestServer::registered`].
pub struct Registered {
    /// Connected and welcomed under the user's session.
    pub client: Client,
    /// The session token.
    pub token: String,
    /// The user's id.
    pub user_id: store::UserId,
}

pub struct Client {
    ws: Ws,
    /// The player's id from `welcome` (empty before hello).
    pub id: String,
    pub name: String,
    pub token: String,
    next_rid: u64,
    pending: VecDeque<Frame<ServerMessage>>,
}

/// How a connection ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    Closed(Option<u16>),
    Dropped,
}

impl Client {
    /// A raw connection that has not said hello.
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        Client {
            ws,
            id: String::new(),
            name: String::new(),
            token: String::new(),
            next_rid: 1,
            pending: VecDeque::new(),
        }
    }

    /// A raw connection whose upgrade request carries a session cookie.
    pub async fn connect_with_cookie(addr: SocketAddr, cookie: &str) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("cookie", cookie.parse().expect("header value"));
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("connect");
        Client {
            ws,
            id: String::new(),
            name: String::new(),
            token: String::new(),
            next_rid: 1,
            pending: VecDeque::new(),
        }
    }

    /// Connects and says hello (resuming `token` when given).
    pub async fn hello(addr: SocketAddr, token: Option<&str>) -> Client {
        let mut c = Client::connect(addr).await;
        let reply = c
            .request(ClientMessage::Hello {
                version: protocol::PROTOCOL_VERSION,
                token: token.map(str::to_owned),
            })
            .await;
        match reply {
            ServerMessage::Welcome { you, token, .. } => {
                c.id = you.id;
                c.name = you.name;
                c.token = token;
            }
            other => panic!("expected welcome, got {other:?}"),
        }
        c
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send");
    }

    /// Sends a message with a fresh request id and returns the id.
    pub async fn send(&mut self, msg: ClientMessage) -> u64 {
        let rid = self.next_rid;
        self.next_rid += 1;
        self.send_text(encode(&msg, Some(rid))).await;
        rid
    }

    /// The next frame from the server (pending ones first).
    pub async fn recv(&mut self) -> Frame<ServerMessage> {
        if let Some(f) = self.pending.pop_front() {
            return f;
        }
        self.recv_wire().await
    }

    async fn recv_wire(&mut self) -> Frame<ServerMessage> {
        loop {
            let next = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no frame within {WAIT:?}", self.name));
            match next {
                Some(Ok(Message::Text(t))) => {
                    return decode::<ServerMessage>(&t, usize::MAX).expect("server frame decodes")
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                other => panic!("{}: expected a text frame, got {other:?}", self.name),
            }
        }
    }

    /// The next message, or how the connection ended.
    pub async fn try_recv_or_end(&mut self) -> Result<ServerMessage, Ended> {
        if let Some(f) = self.pending.pop_front() {
            return Ok(f.msg);
        }
        loop {
            let next = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a frame or the end in time");
            match next {
                Some(Ok(Message::Text(t))) => {
                    return Ok(decode::<ServerMessage>(&t, usize::MAX)
                        .expect("decodes")
                        .msg)
                }
                Some(Ok(Message::Close(frame))) => {
                    return Err(Ended::Closed(frame.map(|f| u16::from(f.code))))
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Err(Ended::Dropped),
            }
        }
    }

    /// Waits for how the connection ends, skipping any frames before.
    pub async fn ended(&mut self) -> Ended {
        loop {
            let next = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("the connection ends in time");
            match next {
                Some(Ok(Message::Close(frame))) => {
                    return Ended::Closed(frame.map(|f| u16::from(f.code)))
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Ended::Dropped,
            }
        }
    }

    /// Sends a message and waits for the frame that carries its request id, keeping other frames for later.
    pub async fn request(&mut self, msg: ClientMessage) -> ServerMessage {
        let rid = self.send(msg).await;
        self.reply_to(rid).await
    }

    /// Waits for the frame that carries `rid`, keeping other frames for later.
    pub async fn reply_to(&mut self, rid: u64) -> ServerMessage {
        if let Some(i) = self.pending.iter().position(|f| f.rid == Some(rid)) {
            return self.pending.remove(i).expect("present").msg;
        }
        let mut skipped = Vec::new();
        loop {
            let f = self.recv_wire().await;
            if f.rid == Some(rid) {
                self.pending.extend(skipped);
                return f.msg;
            }
            skipped.push(f);
        }
    }

    /// The next room event (skipping frames that are not events).
    pub async fn event(&mut self) -> (u64, RoomEvent) {
        loop {
            if let ServerMessage::Event { version, event, .. } = self.recv().await.msg {
                return (version, event);
            }
        }
    }

    /// Skips events until one matches.
    pub async fn event_where(&mut self, pred: impl Fn(&RoomEvent) -> bool) -> (u64, RoomEvent) {
        loop {
            let (v, e) = self.event().await;
            if pred(&e) {
                return (v, e);
            }
        }
    }

    /// Waits for the game-over event.
    pub async fn game_over(&mut self) -> protocol::GameResult {
        match self
            .event_where(|e| matches!(e, RoomEvent::GameOver { .. }))
            .await
            .1
        {
            RoomEvent::GameOver { result, .. } => result,
            _ => unreachable!(),
        }
    }

    /// Creates a room and returns its snapshot.
    pub async fn create(&mut self, rules: RulesSpec, time_control: TimeControl) -> RoomSnapshot {
        let reply = self.request(create_room(rules, time_control)).await;
        match reply {
            ServerMessage::Room { room } => room,
            other => panic!("expected a room, got {other:?}"),
        }
    }

    /// Joins a room and returns its snapshot.
    pub async fn join(&mut self, room: &str, role: JoinRole) -> RoomSnapshot {
        match self
            .request(ClientMessage::Join {
                room: room.into(),
                role,
                since: None,
            })
            .await
        {
            ServerMessage::Room { room } => room,
            other => panic!("expected a room, got {other:?}"),
        }
    }

    /// Places a stone; `Ok(event)` with the resulting room event, or `Err(code)`.
    pub async fn place(&mut self, room: &str, point: &str, ply: u32) -> Result<RoomEvent, String> {
        let reply = self
            .request(ClientMessage::Place {
                room: room.into(),
                point: p(point),
                ply,
            })
            .await;
        outcome(reply)
    }

    /// Sends a message about a room and returns the resulting event, or the error code.
    pub async fn act(&mut self, msg: ClientMessage) -> Result<RoomEvent, String> {
        let reply = self.request(msg).await;
        outcome(reply)
    }

    /// Closes the socket abruptly (no close frame), like a dropped network.
    pub fn drop_connection(self) {
        drop(self.ws);
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

fn outcome(reply: ServerMessage) -> Result<RoomEvent, String> {
    match reply {
        ServerMessage::Event { event, .. } => Ok(event),
        ServerMessage::Error { code, .. } => Err(code),
        ServerMessage::Ack { .. } => Err("ack".into()),
        other => panic!("unexpected reply {other:?}"),
    }
}

/// A `hello` of this protocol version, with or without a token.
pub fn hello(token: Option<&str>) -> ClientMessage {
    ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: token.map(str::to_owned),
    }
}

/// The error code a reply carries (panics on anything else).
pub fn error_code(reply: ServerMessage) -> String {
    match reply {
        ServerMessage::Error { code, .. } => code,
        other => panic!("expected an error, got {other:?}"),
    }
}

/// The `create_room` a test sends by default: casual, listed in the lobby, the creator takes black.
pub fn create_room(rules: RulesSpec, time_control: TimeControl) -> ClientMessage {
    ClientMessage::CreateRoom {
        rules,
        time_control,
        rated: false,
        public: true,
        colour: ColourChoice::Black,
    }
}

pub fn p(s: &str) -> Point {
    s.parse().expect("a point")
}

pub fn rules(rule_set: RuleSet, policy: ForbiddenPolicy, opening: Opening) -> RulesSpec {
    RulesSpec {
        size: 15,
        rule_set,
        forbidden_policy: policy,
        opening,
    }
}

pub fn freestyle() -> RulesSpec {
    rules(RuleSet::Freestyle, ForbiddenPolicy::Reject, Opening::None)
}

/// Two players in a started game: `black` created the room and holds black.
pub struct Table {
    pub room: String,
    pub black: Client,
    pub white: Client,
    pub game_id: i64,
}

impl Table {
    pub async fn open(server: &TestServer, rules: RulesSpec, tc: TimeControl) -> Table {
        let mut black = server.client().await;
        let mut white = server.client().await;
        let snap = black.create(rules, tc).await;
        assert_eq!(snap.you, Some(Color::Black));
        let joined = white.join(&snap.id, JoinRole::Player).await;
        assert_eq!(joined.you, Some(Color::White));
        let game_id = joined.game_id.expect("the game started");
        // The creator hears the opponent sit down and the game start.
        black
            .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
            .await;
        Table {
            room: snap.id,
            black,
            white,
            game_id,
        }
    }

    /// The client holding `colour` now (after a swap, `self.black` may hold white).
    pub fn by_name(&mut self, name: &str) -> &mut Client {
        if self.black.name == name {
            &mut self.black
        } else {
            &mut self.white
        }
    }

    /// Plays stones alternately, starting with whoever `first` names, each checked to be accepted.
    pub async fn play(&mut self, first_is_black_client: bool, points: &[&str], first_ply: u32) {
        let room = self.room.clone();
        for (i, point) in points.iter().enumerate() {
            let mover = if (i % 2 == 0) == first_is_black_client {
                &mut self.black
            } else {
                &mut self.white
            };
            let ply = first_ply + i as u32;
            let event = mover
                .place(&room, point, ply)
                .await
                .unwrap_or_else(|code| panic!("{point} at ply {ply} refused: {code}"));
            assert!(
                matches!(event, RoomEvent::Move { ply: p, .. } if p == ply),
                "{event:?}"
            );
        }
    }
}

/// Expects a close frame with the given code.
pub fn close_code(code: u16) -> Ended {
    let _ = CloseCode::from(code);
    Ended::Closed(Some(code))
}
