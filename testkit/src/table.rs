//! The server tests' client: the typed protocol client ([`client::Connection`]) with the tests' way of failing
//! (a panic that says what was expected), and the messages and tables the tests build on.

use std::net::SocketAddr;

use client::{Connection, Next};
use protocol::{
    ClientMessage, ColourChoice, Frame, GameSpec, JoinRole, RoomEvent, RoomSnapshot, RulesSpec,
    ServerMessage, TimeControl,
};
use rules::{Color, ForbiddenPolicy, Opening, Point, RuleSet};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::test_server::{TestServer, WAIT};

/// A user made by [`TestServer::registered`].
pub struct Registered {
    /// Connected and welcomed under the user's session.
    pub client: Client,
    /// The session token.
    pub token: String,
    /// The user's id.
    pub user_id: store::UserId,
}

/// A test's connection to the server: every wait is bounded by [`WAIT`], and anything but what the test expects
/// panics with what came instead.
pub struct Client {
    conn: Connection,
    /// The player's id from `welcome` (empty before hello).
    pub id: String,
    /// The player's name from `welcome`.
    pub name: String,
    /// The session token from `welcome`.
    pub token: String,
}

/// How a connection ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// With a close frame and its code.
    Closed(Option<u16>),
    /// Without one.
    Dropped,
}

impl Client {
    fn on(conn: Connection) -> Client {
        Client {
            conn: conn.with_wait(WAIT),
            id: String::new(),
            name: String::new(),
            token: String::new(),
        }
    }

    /// A raw connection that has not said hello.
    pub async fn connect(addr: SocketAddr) -> Client {
        let conn = Connection::open(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        Client::on(conn)
    }

    /// Connects from the loopback address `source` (127.0.0.x: another client address for the per-address
    /// limits) and says hello (resuming `token` when given).
    pub async fn hello_from(
        addr: SocketAddr,
        source: std::net::IpAddr,
        token: Option<&str>,
    ) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind(SocketAddr::new(source, 0))
            .expect("bind the source address");
        let tcp = socket.connect(addr).await.expect("tcp connect");
        let (ws, _) = tokio_tungstenite::client_async(
            format!("ws://{addr}/ws"),
            tokio_tungstenite::MaybeTlsStream::Plain(tcp),
        )
        .await
        .expect("upgrade");
        let mut c = Client::on(Connection::new(ws));
        c.welcome(token).await;
        c
    }

    async fn welcome(&mut self, token: Option<&str>) {
        match self.request(hello(token)).await {
            ServerMessage::Welcome { you, token, .. } => {
                self.id = you.id;
                self.name = you.name;
                self.token = token;
            }
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    /// A raw connection whose upgrade request carries a session cookie.
    pub async fn connect_with_cookie(addr: SocketAddr, cookie: &str) -> Client {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("cookie", cookie.parse().expect("header value"));
        Client::on(Connection::open(request).await.expect("connect"))
    }

    /// Connects and says hello in protocol version 2 (the generic form for every game, which the typed client's
    /// replica follows), as a new guest.
    pub async fn hello_v2(addr: SocketAddr) -> Client {
        let mut c = Client::connect(addr).await;
        let hello = ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token: None,
        };
        match c.request(hello).await {
            ServerMessage::Welcome { you, token, .. } => {
                c.id = you.id;
                c.name = you.name;
                c.token = token;
            }
            other => panic!("expected welcome, got {other:?}"),
        }
        c
    }

    /// Connects and says hello (resuming `token` when given).
    pub async fn hello(addr: SocketAddr, token: Option<&str>) -> Client {
        let mut c = Client::connect(addr).await;
        c.welcome(token).await;
        c
    }

    /// Sends any text frame.
    pub async fn send_text(&mut self, text: String) {
        self.conn.send_text(text).await.expect("send");
    }

    /// Sends a binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.conn.send_binary(bytes).await.expect("send");
    }

    /// Sends a pong frame no ping asked for.
    pub async fn send_pong(&mut self, payload: Vec<u8>) {
        self.conn.send_pong(payload).await.expect("send");
    }

    /// Sends a message with a fresh request id and returns the id.
    pub async fn send(&mut self, msg: ClientMessage) -> u64 {
        self.conn.send(&msg).await.expect("send")
    }

    /// The next frame from the server (kept ones first).
    pub async fn recv(&mut self) -> Frame<ServerMessage> {
        match self.conn.next().await {
            Next::Frame(f) => f,
            other => self.unexpected(other),
        }
    }

    fn unexpected(&self, other: Next) -> ! {
        match other {
            Next::Silent => panic!("{}: no frame within {WAIT:?}", self.name),
            Next::Undecodable { text, error } => {
                panic!(
                    "{}: a server frame that does not decode ({error}): {text}",
                    self.name
                )
            }
            other => panic!("{}: expected a text frame, got {other:?}", self.name),
        }
    }

    /// The next message, or how the connection ended.
    pub async fn try_recv_or_end(&mut self) -> Result<ServerMessage, Ended> {
        let mut next = self.conn.next().await;
        loop {
            return match next {
                Next::Frame(f) => Ok(f.msg),
                Next::Closed(code) => Err(Ended::Closed(code)),
                Next::Dropped => Err(Ended::Dropped),
                Next::Binary(_) => {
                    next = self.conn.next_wire().await;
                    continue;
                }
                Next::Silent => panic!("{}: a frame or the end in time", self.name),
                Next::Undecodable { text, error } => panic!("decodes ({error}): {text}"),
            };
        }
    }

    /// Waits for how the connection ends, skipping any frames before.
    pub async fn ended(&mut self) -> Ended {
        loop {
            match self.conn.next_wire().await {
                Next::Closed(code) => return Ended::Closed(code),
                Next::Dropped => return Ended::Dropped,
                Next::Silent => panic!("{}: the connection ends in time", self.name),
                Next::Frame(_) | Next::Binary(_) | Next::Undecodable { .. } => continue,
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
        match self.conn.reply_to(rid).await {
            Ok(reply) => reply,
            Err(other) => self.unexpected(other),
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

    /// As [`Client::place`], for a socket the server may close meanwhile (a room that moves to another node
    /// closes its members there with 1012): a connection that ends before the answer gives `Err("closed")`.
    pub async fn try_place(
        &mut self,
        room: &str,
        point: &str,
        ply: u32,
    ) -> Result<RoomEvent, String> {
        let msg = ClientMessage::Place {
            room: room.into(),
            point: p(point),
            ply,
        };
        let Ok(rid) = self.conn.send(&msg).await else {
            return Err("closed".into());
        };
        match self.conn.reply_to(rid).await {
            Ok(reply) => outcome(reply),
            Err(Next::Closed(_) | Next::Dropped) => Err("closed".into()),
            Err(other) => self.unexpected(other),
        }
    }

    /// Sends a message about a room and returns the resulting event, or the error code.
    pub async fn act(&mut self, msg: ClientMessage) -> Result<RoomEvent, String> {
        let reply = self.request(msg).await;
        outcome(reply)
    }

    /// Closes the socket abruptly (no close frame), like a dropped network.
    pub fn drop_connection(self) {
        drop(self.conn);
    }

    /// Closes the socket with a close frame.
    pub async fn close(mut self) {
        let _ = self.conn.close(None).await;
    }
}

fn outcome(reply: ServerMessage) -> Result<RoomEvent, String> {
    match reply {
        ServerMessage::Event { event, .. } => Ok(event),
        ServerMessage::Error { code, .. } => Err(code),
        ServerMessage::Ack { .. } => Err("ack".into()),
        other => panic!("unexpected reply {other:?}"),
    }
}

/// A `hello` of protocol version 1, with or without a token: the integration suites were written against version
/// 1's Gomoku form and talk to the server through its version-1 edge (`server/src/ws/v1.rs`), which so keeps every
/// assertion they make about that form; the typed client, the computer and the fuzz harness speak version 2.
pub fn hello(token: Option<&str>) -> ClientMessage {
    ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION_1,
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
    casual_room(Some(rules), None, time_control, ColourChoice::Black)
}

/// A casual `create_room`, listed in the lobby, open to anyone: what [`create_room`] and
/// [`crate::game_table::create_game`] send.
pub(crate) fn casual_room(
    rules: Option<RulesSpec>,
    game: Option<GameSpec>,
    time_control: TimeControl,
    colour: ColourChoice,
) -> ClientMessage {
    ClientMessage::CreateRoom {
        rules,
        game,
        time_control,
        rated: false,
        public: true,
        colour,
        rating_range: None,
    }
}

/// The generic `act` of the action written `action` (its notation) in `room`, at `at` (the number of actions the
/// game accepted before it).
pub fn act(room: &str, action: &str, at: u32) -> ClientMessage {
    ClientMessage::Act {
        room: room.to_owned(),
        action: action.to_owned(),
        at,
    }
}

/// A chat line to `room`.
pub fn chat(room: &str, text: &str) -> ClientMessage {
    ClientMessage::Chat {
        room: room.to_owned(),
        text: text.to_owned(),
    }
}

/// A point by name (`h8`).
pub fn p(s: &str) -> Point {
    s.parse().expect("a point")
}

/// Rules on a 15x15 board.
pub fn rules(rule_set: RuleSet, policy: ForbiddenPolicy, opening: Opening) -> RulesSpec {
    RulesSpec {
        size: 15,
        rule_set,
        forbidden_policy: policy,
        opening,
    }
}

/// Freestyle on 15x15, no opening rule.
pub fn freestyle() -> RulesSpec {
    rules(RuleSet::Freestyle, ForbiddenPolicy::Reject, Opening::None)
}

/// Two players in a started game: `black` created the room and holds black.
pub struct Table {
    /// The room's id.
    pub room: String,
    /// The creator, seated at black.
    pub black: Client,
    /// The joiner, seated at white.
    pub white: Client,
    /// The stored game's id.
    pub game_id: i64,
}

impl Table {
    /// Two new guests: one creates a room with these rules, the other joins it and the game starts.
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

    /// The client named `name` (after a swap, `self.black` may hold white).
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
