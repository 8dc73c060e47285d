//! Arbitrary client sessions against the real connection and room code, for the fuzz target in `fuzz/`
//! (`room_session`) and for the server's own tests.
//!
//! [`run_room_session`] reads bytes as a [`Script`]: a few connections ([`VirtualConn`], the production reader
//! without a socket) say hello, then send client messages chosen by the bytes (rooms of every game created and
//! joined — Gomoku under every opening rule — stones on and off the board, in rooms of the generic form an action
//! picked from the game's own `legal_actions()`, swap and fifth-move decisions, claims, offers and answers, chat, leaving, mutated and
//! raw frames, messages for unknown rooms), close and reconnect, stop reading for a while, and move the server's
//! [`ManualClock`] (flag falls, grace periods, resynchronisation of clients that fell behind). After every step
//! every room has handled everything due ([`server::room::RoomHandle::barrier`]), every frame queued for a reading
//! client is taken, and [`run_script`] panics if one of these promises is broken:
//!
//! - no room task is gone while its room is still registered (a panicking room task would be), and no request
//!   fails with `internal` (the store never fails here);
//! - every frame the server queues decodes as a [`ServerMessage`];
//! - a request gets exactly one frame carrying its `rid` (its reply, its error, or the requester's copy of the
//!   event it caused), unless it was refused by the rate limit, whose error carries no `rid`; no other frame
//!   carries a `rid`;
//! - every error code is documented (the error table of `docs/protocol.md`, or a `rules::IllegalAction` code);
//! - each client sees each room's versions without gaps: an `event` is the one after the last version it saw, a
//!   `catch_up` continues without gaps from the `since` it gave, a snapshot never goes back; no event arrives
//!   for a room the client is not in (never joined, or left);
//! - what a client was told about a game is what is durable: the stored actions replay through the seam
//!   (`games::AnyGame`) to the stones (Gomoku's v1 form) or the actions (every other room) the client saw, in
//!   order, the stored end matches the announced result (reason and winner), and a game the rules have decided is
//!   stored as ended for that reason;
//! - once every connection is closed and the grace period has passed, no room is left and no game is unfinished.
//!
//! The clients are the typed protocol client's parts, not a client of their own: request ids come from
//! [`client::Requests`], server frames are read with [`client::decode`], and each room a client is in is followed
//! in a [`client::Replica`] (whose version and ply checks are part of the promises above).
//!
//! Rooms, sessions and games live in one in-memory SQLite store per thread, shared by a few hundred sessions
//! (each gets a fresh [`AppState`] and clock) so that a session costs milliseconds.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use client::{Applied, Replica, Requests};
use games::{Game as _, GameKind};
use protocol::{
    decode, encode, ClientMessage, ColourChoice, GameSpec, JoinRole, RoomEvent, RoomSnapshot,
    RulesSpec, ServerMessage, TimeControl, VersionedEvent,
};
use rules::{Color, ForbiddenPolicy, IllegalAction, Opening, Point, RuleSet};
use store::{GameId, SessionOwner, Store};

use server::identity::hash_token;
use server::time::ManualClock;
use server::ws::outbox::Out;
use server::ws::virtual_conn::VirtualConn;
use server::{AppState, Config};

/// How many connections a session drives (two players and a third: spectator, intruder or second tab).
pub const CONNECTIONS: usize = 3;

/// The `conn` of an [`Op`] that means "the seated player whose turn it is in the message's room" (as the
/// connections last saw it), so that arbitrary bytes play real games.
pub const TO_ACT: u8 = u8::MAX;

/// Sessions that share one store before it is replaced (it only grows).
const SESSIONS_PER_STORE: u32 = 256;

/// Server settings a script runs under (the rest are the defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Frames a connection's queue holds (small: clients fall behind and get resynchronised or kicked).
    pub outbox_capacity: usize,
    /// The rate limit's burst (small: requests are refused with `rate_limited`).
    pub msg_burst: u32,
    /// Events a room keeps for reconnecting clients (small: `since` is answered with a snapshot).
    pub event_log: usize,
    /// Bad frames tolerated before the connection is closed.
    pub abuse_limit: u32,
    /// Whether connections 0 and 1 say hello as registered users (rated games possible) instead of guests.
    pub accounts: bool,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            outbox_capacity: 128,
            msg_burst: 1000,
            event_log: 32,
            abuse_limit: 10,
            accounts: false,
        }
    }
}

/// A whole session: settings, then steps in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// Server settings.
    pub tuning: Tuning,
    /// The steps.
    pub ops: Vec<Op>,
}

/// Which session token a `hello` presents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// None: a new guest.
    Fresh,
    /// The token this connection slot was last welcomed with (the same player again).
    Previous,
    /// A registered user's (0 or 1).
    User(u8),
    /// One the server never issued.
    Garbage,
}

/// A room, named by what the harness has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomPick {
    /// The n-th room id the server has reported (modulo how many; an unknown id when there are none).
    Known(u8),
    /// An id the server never gave.
    Unknown,
}

/// A point, absolute or relative to the position the sender last saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// Column and row (each modulo 19: on or off a 15x15 board).
    At(u8, u8),
    /// The n-th empty point (of the sender's view), counting outwards from the centre.
    Free(u8),
    /// The n-th of the two fifth-move points last proposed (else as `Free`).
    Fifth(u8),
}

/// The ply a `place` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ply {
    /// The next one (as the sender last saw the game).
    Next,
    /// The next one plus an offset (retries, and stones meant for a ply already played or not yet reached).
    Offset(i8),
    /// A given ply.
    Exactly(u32),
}

/// The `since` of a `join`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Since {
    /// No `since`.
    Absent,
    /// The last version the sender saw of the room (absent when none).
    Last,
    /// A given version.
    Exactly(u64),
}

/// A client message, with rooms and points to be resolved against what the sender has seen.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // The variants are the protocol's messages (see `protocol::ClientMessage`).
pub enum Msg {
    Hello {
        version: u32,
        token: Token,
    },
    CreateRoom {
        rules: RulesSpec,
        time_control: TimeControl,
        rated: bool,
        public: bool,
        colour: ColourChoice,
    },
    /// A room of any game in the generic form (`create_room.game`): every game of the list, and Gomoku under
    /// every opening rule.
    CreateGame {
        game: GameSpec,
        time_control: TimeControl,
        rated: bool,
        public: bool,
        colour: ColourChoice,
    },
    Join {
        room: RoomPick,
        spectator: bool,
        since: Since,
    },
    Leave {
        room: RoomPick,
    },
    Place {
        room: RoomPick,
        point: Spot,
        ply: Ply,
    },
    DecideSwap {
        room: RoomPick,
        swap: bool,
    },
    ProposeFifth {
        room: RoomPick,
        points: [Spot; 2],
    },
    ChooseFifth {
        room: RoomPick,
        point: Spot,
    },
    ClaimForbidden {
        room: RoomPick,
    },
    Resign {
        room: RoomPick,
    },
    OfferDraw {
        room: RoomPick,
    },
    AnswerDraw {
        room: RoomPick,
        accept: bool,
    },
    RequestTakeback {
        room: RoomPick,
    },
    AnswerTakeback {
        room: RoomPick,
        accept: bool,
    },
    OfferRematch {
        room: RoomPick,
    },
    AnswerRematch {
        room: RoomPick,
        accept: bool,
    },
    Chat {
        room: RoomPick,
        text: String,
    },
    SubscribeLobby,
    UnsubscribeLobby,
    Ping,
}

/// One step of a script. `conn` is a connection slot (modulo [`CONNECTIONS`]) or [`TO_ACT`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// The connection sends a message, with a fresh request id or none.
    Send {
        /// Connection slot.
        conn: u8,
        /// The message.
        msg: Msg,
        /// Whether it carries a `rid`.
        rid: bool,
    },
    /// The connection sends a message's text with one byte replaced (at a position modulo its length).
    Mutated {
        /// Connection slot.
        conn: u8,
        /// The message before the change.
        msg: Msg,
        /// Where.
        at: u16,
        /// The new byte (the text is then read as UTF-8, lossily).
        byte: u8,
    },
    /// The connection sends any text.
    Raw {
        /// Connection slot.
        conn: u8,
        /// The frame.
        text: String,
    },
    /// The client closes the connection.
    Close {
        /// Connection slot.
        conn: u8,
    },
    /// The slot opens a new connection (closing its old one) and says hello.
    Reconnect {
        /// Connection slot.
        conn: u8,
        /// The token it presents.
        token: Token,
    },
    /// The client stops reading until it next sends (its queue may fill up).
    Pause {
        /// Connection slot.
        conn: u8,
    },
    /// The server's clock moves forward.
    Advance {
        /// Milliseconds.
        ms: u64,
    },
}

/// What a session reached, so tests can check that scripts get deep into rooms and games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Steps run.
    pub steps: usize,
    /// Frames received by the clients.
    pub frames: usize,
    /// Rooms created.
    pub rooms_created: usize,
    /// Games started (first games and rematches).
    pub games_started: usize,
    /// Stones announced.
    pub stones: usize,
    /// The most stones any client saw on one board.
    pub longest_game: usize,
    /// Swap decisions announced.
    pub swaps_decided: usize,
    /// Fifth-move proposals announced.
    pub fifths_proposed: usize,
    /// Takebacks announced.
    pub takebacks: usize,
    /// Game results announced, by reason (counted once per game).
    pub results: BTreeMap<String, usize>,
    /// Errors received, by code.
    pub errors: BTreeMap<String, usize>,
    /// `catch_up` answers received.
    pub catch_ups: usize,
    /// Snapshots received without a request (a client that fell behind, resynchronised).
    pub resyncs: usize,
    /// Connections the server ended (too many bad frames, or kicked for staying behind).
    pub ended_by_server: usize,
    /// Store checks made (a client's view of a game compared with the stored game).
    pub store_checks: usize,
    /// Actions announced in rooms of the generic form (`action` events).
    pub actions: usize,
    /// Games started, by game and (for Gomoku) opening rule: `othello`, `gomoku/swap2`, ….
    pub games_by_rule: BTreeMap<String, usize>,
    /// Actions announced, by game and opening rule as in `games_by_rule`.
    pub actions_by_rule: BTreeMap<String, usize>,
}

/// Reads `data` as a script ([`Script::from_bytes`]) and runs it ([`run_script`]); panics when the server breaks
/// a promise (see the module documentation).
pub fn run_room_session(data: &[u8]) -> Report {
    run_script(&Script::from_bytes(data))
}

/// Runs a script on this thread's runtime and store; panics when the server breaks a promise.
pub fn run_script(script: &Script) -> Report {
    FIXTURE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fixture = slot.get_or_insert_with(Fixture::new);
        if fixture.sessions >= SESSIONS_PER_STORE {
            fixture.renew_store();
        }
        fixture.sessions += 1;
        let store = fixture.store.clone();
        let users = fixture.users.clone();
        fixture
            .runtime
            .block_on(async move { Session::run(script, store, users).await })
    })
}

// ----- bytes to scripts -----

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
}

const ADVANCE_MS: [u64; 10] = [1, 250, 999, 1_000, 5_000, 1, 250, 10_000, 30_000, 61_000];

/// Every Gomoku opening rule (Soosõrv and Taraguchi with a small N, so that their offers stay few).
const OPENINGS: [Opening; 7] = [
    Opening::None,
    Opening::SwapAfterThree,
    Opening::SwapAfterThreeFifthTwoOptions,
    Opening::Swap1,
    Opening::Swap2,
    Opening::Soosorv { n: 2 },
    Opening::Taraguchi { n: 2 },
];

const TIME_CONTROLS: [TimeControl; 8] = [
    TimeControl::None,
    TimeControl::Fischer {
        base_ms: 1_000,
        increment_ms: 0,
    },
    TimeControl::Fischer {
        base_ms: 60_000,
        increment_ms: 2_000,
    },
    TimeControl::ByoYomi {
        base_ms: 0,
        periods: 1,
        period_ms: 1_000,
    },
    TimeControl::ByoYomi {
        base_ms: 5_000,
        periods: 3,
        period_ms: 2_000,
    },
    TimeControl::Fischer {
        base_ms: 0,
        increment_ms: 0,
    },
    TimeControl::ByoYomi {
        base_ms: 0,
        periods: 0,
        period_ms: 0,
    },
    TimeControl::Fischer {
        base_ms: u64::MAX,
        increment_ms: u64::MAX,
    },
];

const CHAT: [&str; 5] = ["gg", "", "   ", "\u{e9}", "\n\t"];

impl Script {
    /// Reads bytes as a script: the first byte chooses the [`Tuning`] and whether the script starts with a room
    /// created by connection 0 (its rules and time control from the next two bytes), joined by connection 1 as a
    /// player and watched by connection 2; then each step takes one byte for its kind and connection, one for
    /// flags and a few more for its details. The script ends where the bytes do.
    pub fn from_bytes(data: &[u8]) -> Script {
        let mut b = Bytes(data);
        let Some(head) = b.byte() else {
            return Script::default();
        };
        let tuning = Tuning {
            outbox_capacity: if head & 0x03 == 0x03 { 6 } else { 128 },
            msg_burst: if head & 0x0c == 0x0c { 8 } else { 1000 },
            event_log: if head & 0x10 != 0 { 2 } else { 32 },
            abuse_limit: if head & 0x30 == 0x30 { 2 } else { 10 },
            accounts: head & 0x40 != 0,
        };
        let mut ops = Vec::new();
        if head & 0x80 == 0 {
            let Some(create) = read_playable_room(&mut b, tuning.accounts) else {
                return Script { tuning, ops };
            };
            let join = |spectator| Msg::Join {
                room: RoomPick::Known(0),
                spectator,
                since: Since::Absent,
            };
            for (conn, msg) in [(0, create), (1, join(false)), (2, join(true))] {
                ops.push(Op::Send {
                    conn,
                    msg,
                    rid: true,
                });
            }
        }
        while let Some(op) = read_op(&mut b) {
            ops.push(op);
        }
        Script { tuning, ops }
    }
}

/// A `create_room` the server accepts (rated only when the players have accounts).
fn read_playable_room(b: &mut Bytes, accounts: bool) -> Option<Msg> {
    let r = b.byte()?;
    let t = b.byte()?;
    let rule_set = [RuleSet::Freestyle, RuleSet::Standard, RuleSet::Renju][(r % 3) as usize];
    let size = if r & 0x80 != 0 && rule_set != RuleSet::Renju {
        19
    } else {
        15
    };
    Some(Msg::CreateRoom {
        rules: RulesSpec {
            size,
            rule_set,
            forbidden_policy: [
                ForbiddenPolicy::Reject,
                ForbiddenPolicy::Lose,
                ForbiddenPolicy::Claim,
            ][(r / 3 % 3) as usize],
            opening: [
                Opening::None,
                Opening::SwapAfterThree,
                Opening::SwapAfterThreeFifthTwoOptions,
            ][(r / 9 % 3) as usize],
        },
        // Mostly no clock or a long one, so that games last; sometimes one that falls soon.
        time_control: TIME_CONTROLS[[0, 0, 2, 4, 0, 2, 1, 3][(t % 8) as usize]],
        rated: accounts && t & 0x08 != 0,
        public: t & 0x10 == 0,
        colour: [
            ColourChoice::Black,
            ColourChoice::White,
            ColourChoice::Random,
        ][(t >> 5) as usize % 3],
    })
}

fn read_room(b: &mut Bytes) -> Option<RoomPick> {
    let r = b.byte()?;
    Some(if r == 0xff {
        RoomPick::Unknown
    } else {
        RoomPick::Known(r)
    })
}

fn read_spot(b: &mut Bytes) -> Option<Spot> {
    let s = b.byte()?;
    Some(match s >> 6 {
        0 | 1 => Spot::Free(s & 0x3f),
        2 => Spot::Fifth(s & 1),
        _ => Spot::At(s & 0x3f, b.byte()?),
    })
}

fn read_ply(b: &mut Bytes) -> Option<Ply> {
    let p = b.byte()?;
    Some(match p {
        0..=0xdf => Ply::Next,
        0xe0..=0xf7 => Ply::Offset(p as i8 - 0xec_u8 as i8),
        _ => Ply::Exactly([0, 1, 2, 226, 362, u32::MAX, 1 << 31, 100][(p & 7) as usize]),
    })
}

fn read_token(t: u8) -> Token {
    match t % 8 {
        0..=2 => Token::Previous,
        3 | 4 => Token::Fresh,
        5 => Token::User(0),
        6 => Token::User(1),
        _ => Token::Garbage,
    }
}

/// A message for the kinds that take one; `None` for other kinds or when the bytes run out.
fn read_msg(kind: u8, flags: u8, b: &mut Bytes) -> Option<Msg> {
    let bit = |n: u8| flags & (1 << n) != 0;
    Some(match kind {
        0..=6 => Msg::Place {
            room: read_room(b)?,
            point: read_spot(b)?,
            ply: read_ply(b)?,
        },
        7 => {
            let r = b.byte()?;
            let t = b.byte()?;
            let rule_set =
                [RuleSet::Freestyle, RuleSet::Standard, RuleSet::Renju][(r % 3) as usize];
            let forbidden_policy = [
                ForbiddenPolicy::Reject,
                ForbiddenPolicy::Lose,
                ForbiddenPolicy::Claim,
            ][(r / 3 % 3) as usize];
            let opening = [
                Opening::None,
                Opening::SwapAfterThree,
                Opening::SwapAfterThreeFifthTwoOptions,
            ][(r / 9 % 3) as usize];
            let size = [15, 15, 19, 7][(r / 27 % 4) as usize];
            let time_control = TIME_CONTROLS[(t % 8) as usize];
            let colour = [
                ColourChoice::Black,
                ColourChoice::White,
                ColourChoice::Random,
            ][(t >> 5) as usize % 3];
            // Half the rooms are the Gomoku v1 form; the others any game of the list in the generic form, Gomoku
            // under every opening rule among them.
            let g = b.byte()?;
            if g & 1 == 1 {
                let kind = GameKind::ALL[usize::from(g >> 1) % GameKind::COUNT];
                let game = match GameSpec::from(kind.default_config()) {
                    GameSpec::Gomoku(mut spec) => {
                        spec.rule_set = rule_set;
                        spec.forbidden_policy = forbidden_policy;
                        spec.opening = OPENINGS[usize::from(g >> 4) % OPENINGS.len()];
                        GameSpec::Gomoku(spec)
                    }
                    other => other,
                };
                return Some(Msg::CreateGame {
                    game,
                    time_control,
                    rated: t & 0x08 != 0,
                    public: t & 0x10 == 0,
                    colour,
                });
            }
            Msg::CreateRoom {
                rules: RulesSpec {
                    size,
                    rule_set,
                    forbidden_policy,
                    opening,
                },
                time_control: TIME_CONTROLS[(t % 8) as usize],
                rated: t & 0x08 != 0,
                public: t & 0x10 == 0,
                colour: [
                    ColourChoice::Black,
                    ColourChoice::White,
                    ColourChoice::Random,
                ][(t >> 5) as usize % 3],
            }
        }
        8 | 9 => Msg::Join {
            room: read_room(b)?,
            spectator: bit(0),
            since: if !bit(1) {
                Since::Absent
            } else if !bit(2) {
                Since::Last
            } else {
                Since::Exactly(u64::from(b.byte()?))
            },
        },
        // Leaving and resigning end games: rarer than the other kinds, so that games get deep.
        10 if flags & 3 != 0 => return read_msg(0, flags, b),
        10 => Msg::Leave {
            room: read_room(b)?,
        },
        11 => Msg::DecideSwap {
            room: read_room(b)?,
            swap: bit(0),
        },
        12 => Msg::ProposeFifth {
            room: read_room(b)?,
            points: [read_spot(b)?, read_spot(b)?],
        },
        13 => Msg::ChooseFifth {
            room: read_room(b)?,
            point: read_spot(b)?,
        },
        14 => Msg::ClaimForbidden {
            room: read_room(b)?,
        },
        15 if flags & 3 != 0 => return read_msg(0, flags, b),
        15 => Msg::Resign {
            room: read_room(b)?,
        },
        16 => Msg::OfferDraw {
            room: read_room(b)?,
        },
        17 => Msg::AnswerDraw {
            room: read_room(b)?,
            accept: bit(0),
        },
        18 => Msg::RequestTakeback {
            room: read_room(b)?,
        },
        19 => Msg::AnswerTakeback {
            room: read_room(b)?,
            accept: bit(0),
        },
        20 => Msg::OfferRematch {
            room: read_room(b)?,
        },
        21 => Msg::AnswerRematch {
            room: read_room(b)?,
            accept: bit(0),
        },
        22 => {
            let room = read_room(b)?;
            let c = b.byte()?;
            let text = match c {
                0xf0..=0xff => "x".repeat(protocol::MAX_CHAT_CHARS + usize::from(c & 1)),
                _ => CHAT[(c % 5) as usize].to_owned(),
            };
            Msg::Chat { room, text }
        }
        23 => match flags % 3 {
            0 => Msg::SubscribeLobby,
            1 => Msg::UnsubscribeLobby,
            _ => Msg::Ping,
        },
        24 => Msg::Hello {
            version: if bit(0) { 1 } else { u32::from(flags >> 1) % 3 },
            token: read_token(flags >> 3),
        },
        _ => return None,
    })
}

/// One step; `None` when the bytes run out.
fn read_op(b: &mut Bytes) -> Option<Op> {
    let first = b.byte()?;
    let kind = first % 32;
    let game_action = matches!(kind, 0..=6 | 10..=15 | 31);
    let conn = match first / 32 {
        5..=7 if game_action => TO_ACT,
        n => n % CONNECTIONS as u8,
    };
    // Flags ride in the top bits the connection left over, plus a byte of their own for the kinds that need more.
    let flags = b.byte()?;
    Some(match kind {
        0..=24 => Op::Send {
            conn,
            msg: read_msg(kind, flags, b)?,
            // Most requests carry a rid, as clients send them.
            rid: flags & 0xc0 != 0xc0,
        },
        25 => {
            let inner = b.byte()? % 25;
            let at = u16::from(b.byte()?) | (u16::from(flags) << 8);
            let byte = b.byte()?;
            Op::Mutated {
                conn,
                msg: read_msg(inner, flags, b)?,
                at,
                byte,
            }
        }
        26 => {
            let len = usize::from(flags % 48);
            let mut raw = Vec::with_capacity(len);
            for _ in 0..len {
                raw.push(b.byte()?);
            }
            Op::Raw {
                conn,
                text: String::from_utf8_lossy(&raw).into_owned(),
            }
        }
        27 => Op::Close { conn },
        28 => Op::Reconnect {
            conn,
            token: read_token(flags),
        },
        29 => Op::Pause { conn },
        30 => Op::Advance {
            ms: ADVANCE_MS[(flags % 10) as usize],
        },
        _ => Op::Send {
            conn,
            msg: read_msg(0, flags, b)?,
            rid: true,
        },
    })
}

// ----- the shared runtime and store -----

struct Fixture {
    runtime: tokio::runtime::Runtime,
    store: Arc<dyn Store>,
    /// Session tokens of two registered users.
    users: Vec<String>,
    sessions: u32,
}

thread_local! {
    static FIXTURE: RefCell<Option<Fixture>> = const { RefCell::new(None) };
}

impl Fixture {
    fn new() -> Fixture {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let (store, users) = runtime.block_on(fresh_store());
        Fixture {
            runtime,
            store,
            users,
            sessions: 0,
        }
    }

    fn renew_store(&mut self) {
        let (store, users) = self.runtime.block_on(fresh_store());
        let old = std::mem::replace(&mut self.store, store);
        self.runtime.block_on(old.close());
        self.users = users;
        self.sessions = 0;
    }
}

async fn fresh_store() -> (Arc<dyn Store>, Vec<String>) {
    let store = store::open("sqlite::memory:")
        .await
        .expect("an in-memory SQLite store");
    let mut users = Vec::new();
    for name in ["fuzz-ann", "fuzz-bob"] {
        let user = store
            .create_user(name, "not-a-hash", 0)
            .await
            .expect("a user");
        let token = format!("token-of-{name}");
        store
            .create_session(&hash_token(&token), &SessionOwner::User(user), i64::MAX)
            .await
            .expect("a session");
        users.push(token);
    }
    (store, users)
}

// ----- running a script -----

/// What one client knows of one room.
#[derive(Clone, Debug, Default)]
struct View {
    /// The last version seen.
    version: u64,
    /// The game as seen, when the client has seen all of it (a snapshot, then every event since): the typed
    /// client's replica, so the oracle checks the same following of events that every client relies on.
    game: Option<Replica>,
    /// Changed since the store was last compared with it.
    dirty: bool,
}

struct Slot {
    conn: Option<VirtualConn>,
    /// The name the server welcomed this slot's connection with.
    name: Option<String>,
    token: Option<String>,
    paused: bool,
    views: HashMap<String, View>,
    /// The typed client's request ids, kept across reconnects like a client's.
    requests: Requests,
}

/// The request a step made, to check its answers.
struct Request {
    slot: usize,
    rid: Option<u64>,
    msg: Option<ClientMessage>,
    /// `since` of a join, as sent.
    since: Option<u64>,
}

struct Session<'a> {
    state: AppState,
    clock: Arc<ManualClock>,
    tuning: Tuning,
    users: &'a [String],
    slots: Vec<Slot>,
    /// Room ids in the order the server reported them.
    rooms: Vec<String>,
    /// Room events already counted in the report (every member gets its own copy).
    counted: HashSet<(String, u64)>,
    documented: HashSet<String>,
    report: Report,
    /// The last steps and frames, shown when a promise is broken.
    trail: VecDeque<String>,
}

/// The error codes `docs/protocol.md` documents (its error table), and the rules crate's.
fn documented_codes() -> HashSet<String> {
    let doc = include_str!("../../docs/protocol.md");
    let table = doc
        .split("## Errors")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or_default();
    let mut codes: HashSet<String> = table
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('|').nth(1))
        .flat_map(|cell| cell.split('`').skip(1).step_by(2).map(str::to_owned))
        .collect();
    codes.extend(IllegalAction::ALL.iter().map(|a| a.code().to_owned()));
    codes
}

impl<'a> Session<'a> {
    async fn run(script: &Script, store: Arc<dyn Store>, users: Vec<String>) -> Report {
        let tuning = script.tuning;
        let config = Config {
            outbox_capacity: tuning.outbox_capacity,
            msg_burst: tuning.msg_burst,
            event_log: tuning.event_log,
            abuse_limit: tuning.abuse_limit,
            // The oracle's clocks run from each game's start, as they did before the first-move allowance.
            first_move_secs: 0,
            ..Config::default()
        };
        let clock = ManualClock::new();
        let state = AppState::with_clock(config, store, clock.clone())
            .await
            .expect("the server state");
        assert!(
            state.rooms.is_empty(),
            "an earlier session left an unfinished game behind"
        );
        let mut session = Session {
            state,
            clock,
            tuning,
            users: &users,
            slots: Vec::new(),
            rooms: Vec::new(),
            counted: HashSet::new(),
            documented: documented_codes(),
            report: Report::default(),
            trail: VecDeque::new(),
        };
        for _ in 0..CONNECTIONS {
            session.slots.push(Slot {
                conn: None,
                name: None,
                token: None,
                paused: false,
                views: HashMap::new(),
                requests: Requests::new(),
            });
        }
        for slot in 0..CONNECTIONS {
            let token = if tuning.accounts && slot < 2 {
                Token::User(slot as u8)
            } else {
                Token::Fresh
            };
            session
                .step(&Op::Reconnect {
                    conn: slot as u8,
                    token,
                })
                .await;
        }
        for op in &script.ops {
            session.step(op).await;
        }
        session.finish().await;
        session.report
    }

    fn fail(&self, what: impl std::fmt::Display) -> ! {
        let trail: Vec<&str> = self.trail.iter().map(String::as_str).collect();
        panic!(
            "room session broke a promise: {what}\n--- last steps and frames (oldest first) ---\n{}",
            trail.join("\n")
        );
    }

    fn note(&mut self, line: String) {
        if self.trail.len() == 80 {
            self.trail.pop_front();
        }
        self.trail.push_back(line);
    }

    fn room_id(&self, pick: RoomPick) -> String {
        match pick {
            RoomPick::Known(n) if !self.rooms.is_empty() => {
                self.rooms[usize::from(n) % self.rooms.len()].clone()
            }
            _ => "nosuchroom".to_owned(),
        }
    }

    /// Whether the sender follows `room`'s game in the generic form (every game but Gomoku under the older
    /// openings, whose rooms speak the v1 form).
    /// Whether the room's game is picked from its listed actions (`act`): every game but Gomoku under the classic
    /// openings, whose scripts name points and whose `place`, `decide_swap`, … the server still reads.
    fn generic(&self, slot: usize, room: RoomPick) -> bool {
        let room = self.room_id(room);
        self.game_view(slot, &room).is_some_and(|v| {
            v.game.is_some()
                && !v.rules.is_some_and(|r| {
                    matches!(
                        r.opening,
                        rules::Opening::None
                            | rules::Opening::SwapAfterThree
                            | rules::Opening::SwapAfterThreeFifthTwoOptions
                    )
                })
        })
    }

    fn game_view(&self, slot: usize, room: &str) -> Option<&Replica> {
        self.slots[slot].views.get(room)?.game.as_ref()
    }

    fn spot(&self, slot: usize, room: &str, spot: Spot) -> Point {
        let view = self.game_view(slot, room);
        let free = |n: u8| {
            let size = view.and_then(|v| v.rules).map_or(15, |r| r.size);
            let taken: HashSet<Point> = match view.and_then(|v| v.game.as_ref()) {
                Some(games::AnyGame::Gomoku(g)) => g.rules_game().moves().iter().copied().collect(),
                _ => HashSet::new(),
            };
            let c = i32::from(size / 2);
            let mut points: Vec<Point> = (0..size)
                .flat_map(|x| (0..size).filter_map(move |y| Point::new(x, y)))
                .filter(|p| !taken.contains(p))
                .collect();
            points.sort_by_key(|p| {
                let (dx, dy) = (i32::from(p.x()) - c, i32::from(p.y()) - c);
                (dx.abs().max(dy.abs()), dx * dx + dy * dy, p.x(), p.y())
            });
            points
                // The first stone goes to the centre (renju and the swap openings require it).
                .get(usize::from(n) % points.len().clamp(1, if taken.is_empty() { 1 } else { 12 }))
                .copied()
                .unwrap_or(Point::new(0, 0).expect("a1"))
        };
        match spot {
            Spot::At(x, y) => Point::new(x % 19, y % 19).expect("under 19"),
            Spot::Free(n) => free(n),
            Spot::Fifth(n) => {
                match view
                    .and_then(|v| v.game.as_ref())
                    .and_then(|g| match g.view(false) {
                        games::AnyView::Gomoku(v) => v.fifth_options,
                        _ => None,
                    }) {
                    Some(points) => points[usize::from(n % 2)],
                    None => free(n),
                }
            }
        }
    }

    /// The slot an op's `conn` names: [`TO_ACT`] is the connected slot whose player is to act in the message's
    /// room, as that slot last saw it (slot 0 when none is).
    fn slot(&self, conn: u8, msg: &Msg) -> usize {
        if conn != TO_ACT {
            return usize::from(conn) % CONNECTIONS;
        }
        let room = match self.message(0, msg).room() {
            Some(room) => room.to_owned(),
            None => return 0,
        };
        (0..CONNECTIONS)
            .find(|&slot| {
                let s = &self.slots[slot];
                let game = s.views.get(&room).and_then(|v| v.game.as_ref());
                let to_act = game.and_then(Replica::acting_name);
                s.conn.is_some() && to_act.is_some() && to_act == s.name.as_deref()
            })
            .unwrap_or(0)
    }

    /// The protocol message a [`Msg`] stands for, sent by `slot` now.
    fn message(&self, slot: usize, msg: &Msg) -> ClientMessage {
        use ClientMessage as C;
        match msg {
            Msg::Hello { version, token } => C::Hello {
                version: *version,
                token: match token {
                    Token::Fresh => None,
                    Token::Previous => self.slots[slot].token.clone(),
                    Token::User(n) => Some(self.users[usize::from(*n) % self.users.len()].clone()),
                    Token::Garbage => Some("not-a-token".to_owned()),
                },
            },
            Msg::CreateRoom {
                rules,
                time_control,
                rated,
                public,
                colour,
            } => C::CreateRoom {
                rules: Some(*rules),
                game: None,
                time_control: *time_control,
                rated: *rated,
                public: *public,
                colour: *colour,
                rating_range: None,
            },
            Msg::CreateGame {
                game,
                time_control,
                rated,
                public,
                colour,
            } => C::CreateRoom {
                rules: None,
                game: Some(*game),
                time_control: *time_control,
                rated: *rated,
                public: *public,
                colour: *colour,
                rating_range: None,
            },
            Msg::Join {
                room,
                spectator,
                since: s,
            } => {
                let room = self.room_id(*room);
                let since = match s {
                    Since::Absent => None,
                    Since::Last => self.slots[slot].views.get(&room).map(|v| v.version),
                    Since::Exactly(v) => Some(*v),
                };
                C::Join {
                    room,
                    role: if *spectator {
                        JoinRole::Spectator
                    } else {
                        JoinRole::Player
                    },
                    since,
                }
            }
            Msg::Leave { room } => C::Leave {
                room: self.room_id(*room),
            },
            Msg::Place { room, point, ply } if self.generic(slot, *room) => {
                // A room of the generic form: the same bytes pick one of the game's listed actions.
                let room = self.room_id(*room);
                let game = self.game_view(slot, &room).and_then(|v| v.game.as_ref());
                let next = game.map_or(0, |g| i64::from(g.action_count() as u32));
                let at = match ply {
                    Ply::Next => next as u32,
                    Ply::Offset(d) => (next + i64::from(*d)).clamp(0, i64::from(u32::MAX)) as u32,
                    Ply::Exactly(p) => *p,
                };
                let listed = game.map(|g| g.legal_actions()).unwrap_or_default();
                let pick = match point {
                    Spot::Free(n) | Spot::Fifth(n) => usize::from(*n),
                    Spot::At(x, y) => usize::from(*x) * 19 + usize::from(*y),
                };
                let action = match listed.get(pick % listed.len().max(1)) {
                    Some(action) => action.notation(),
                    // Nothing to choose (over, or not the sender's game): a text the game refuses.
                    None => "z99".to_owned(),
                };
                C::Act { room, action, at }
            }
            Msg::Place { room, point, ply } => {
                let room = self.room_id(*room);
                let next = self
                    .game_view(slot, &room)
                    .map_or(1, |v| i64::from(v.next_ply()));
                let ply = match ply {
                    Ply::Next => next as u32,
                    Ply::Offset(d) => (next + i64::from(*d)).clamp(0, i64::from(u32::MAX)) as u32,
                    Ply::Exactly(p) => *p,
                };
                C::Place {
                    point: self.spot(slot, &room, *point),
                    room,
                    ply,
                }
            }
            Msg::DecideSwap { room, swap } => C::DecideSwap {
                room: self.room_id(*room),
                swap: *swap,
            },
            Msg::ProposeFifth { room, points } => {
                let room = self.room_id(*room);
                C::ProposeFifth {
                    points: [
                        self.spot(slot, &room, points[0]),
                        self.spot(slot, &room, points[1]),
                    ],
                    room,
                }
            }
            Msg::ChooseFifth { room, point } => {
                let room = self.room_id(*room);
                C::ChooseFifth {
                    point: self.spot(slot, &room, *point),
                    room,
                }
            }
            Msg::ClaimForbidden { room } => C::ClaimForbidden {
                room: self.room_id(*room),
            },
            Msg::Resign { room } => C::Resign {
                room: self.room_id(*room),
            },
            Msg::OfferDraw { room } => C::OfferDraw {
                room: self.room_id(*room),
            },
            Msg::AnswerDraw { room, accept } => C::AnswerDraw {
                room: self.room_id(*room),
                accept: *accept,
            },
            Msg::RequestTakeback { room } => C::RequestTakeback {
                room: self.room_id(*room),
            },
            Msg::AnswerTakeback { room, accept } => C::AnswerTakeback {
                room: self.room_id(*room),
                accept: *accept,
            },
            Msg::OfferRematch { room } => C::OfferRematch {
                room: self.room_id(*room),
            },
            Msg::AnswerRematch { room, accept } => C::AnswerRematch {
                room: self.room_id(*room),
                accept: *accept,
            },
            Msg::Chat { room, text } => C::Chat {
                room: self.room_id(*room),
                text: text.clone(),
            },
            Msg::SubscribeLobby => C::SubscribeLobby {},
            Msg::UnsubscribeLobby => C::UnsubscribeLobby {},
            Msg::Ping => C::Ping {},
        }
    }

    async fn step(&mut self, op: &Op) {
        self.report.steps += 1;
        self.note(format!("step {}: {op:?}", self.report.steps));
        let mut request = None;
        match op {
            Op::Send { conn, msg, rid } => {
                let slot = self.slot(*conn, msg);
                let m = self.message(slot, msg);
                // A message sent without a rid still spends one, so that ids follow the steps.
                let id = self.slots[slot].requests.next_rid();
                request = self.send(slot, encode(&m, rid.then_some(id))).await;
            }
            Op::Mutated {
                conn,
                msg,
                at,
                byte,
            } => {
                let slot = self.slot(*conn, msg);
                let m = self.message(slot, msg);
                let (_, text) = self.slots[slot].requests.encode(&m);
                let mut bytes = text.into_bytes();
                let i = usize::from(*at) % bytes.len();
                bytes[i] = *byte;
                let text = String::from_utf8_lossy(&bytes).into_owned();
                request = self.send(slot, text).await;
            }
            Op::Raw { conn, text } => {
                let slot = usize::from(*conn) % CONNECTIONS;
                request = self.send(slot, text.clone()).await;
            }
            Op::Close { conn } => {
                let slot = usize::from(*conn) % CONNECTIONS;
                self.close(slot).await;
            }
            Op::Reconnect { conn, token } => {
                let slot = usize::from(*conn) % CONNECTIONS;
                self.close(slot).await;
                self.slots[slot].conn = Some(VirtualConn::open(&self.state, None));
                let m = self.message(
                    slot,
                    &Msg::Hello {
                        version: protocol::PROTOCOL_VERSION,
                        token: *token,
                    },
                );
                let (_, text) = self.slots[slot].requests.encode(&m);
                request = self.send(slot, text).await;
            }
            Op::Pause { conn } => {
                let slot = usize::from(*conn) % CONNECTIONS;
                self.slots[slot].paused = true;
            }
            Op::Advance { ms } => self.clock.advance(Duration::from_millis(*ms)),
        }
        self.settle().await;
        self.collect(request.as_ref()).await;
        self.check_store().await;
    }

    /// Sends a text frame from a slot (reading everything queued for it first, as a client that wants to send
    /// would); the request it makes, when the slot is connected.
    async fn send(&mut self, slot: usize, text: String) -> Option<Request> {
        self.slots[slot].conn.as_ref()?;
        if self.slots[slot].paused {
            self.slots[slot].paused = false;
            self.take(slot, None);
        }
        // What the server will read, mutated and raw frames included.
        let (rid, msg) = match decode::<ClientMessage>(&text, self.state.config.max_frame_bytes) {
            Ok(frame) => (frame.rid, Some(frame.msg)),
            Err(e) => (e.rid, None),
        };
        let since = match &msg {
            Some(ClientMessage::Join { since, .. }) => *since,
            _ => None,
        };
        let shown: String = text.chars().take(300).collect();
        self.note(format!("  conn {slot} sends {shown}"));
        self.slots[slot]
            .conn
            .as_mut()
            .expect("connected")
            .send_text(&text)
            .await;
        Some(Request {
            slot,
            rid,
            msg,
            since,
        })
    }

    async fn close(&mut self, slot: usize) {
        let s = &mut self.slots[slot];
        if let Some(conn) = s.conn.take() {
            conn.close().await;
        }
        s.views.clear();
        s.paused = false;
    }

    /// Lets every room handle everything due, and the lobby everything sent to it.
    async fn settle(&mut self) {
        for room in self.state.rooms.all() {
            // A room that closes (its last player gone) drops what is still queued for it: not a failure.
            if !room.barrier().await && self.state.rooms.get(&room.id).is_some() {
                self.fail(format_args!(
                    "room {} is registered but its task is gone (did it panic?)",
                    room.id
                ));
            }
        }
        self.state.lobby.list().await;
    }

    /// Takes the frames of every reading client and checks them, and the answers to `request`.
    async fn collect(&mut self, request: Option<&Request>) {
        for slot in 0..CONNECTIONS {
            if self.slots[slot].paused {
                continue;
            }
            self.take(slot, request.filter(|r| r.slot == slot));
        }
        if let Some(r) = request {
            if self.slots[r.slot].paused {
                self.fail("a sender was left paused");
            }
        }
        for slot in 0..CONNECTIONS {
            let ended = self.slots[slot]
                .conn
                .as_mut()
                .is_some_and(VirtualConn::ended_by_server);
            if ended {
                self.report.ended_by_server += 1;
                self.note(format!("  conn {slot} ended by the server"));
                // The socket would now be closed; the next settle lets the rooms hear of it.
                self.close(slot).await;
            }
        }
    }

    /// Takes and checks the frames queued for one slot; `request` is the one it just made, if any.
    fn take(&mut self, slot: usize, request: Option<&Request>) {
        let Some(conn) = self.slots[slot].conn.as_mut() else {
            return;
        };
        let frames = conn.drain();
        if frames.len() >= self.tuning.outbox_capacity {
            // The queue filled up: a room may have dropped events for this client and owes it a snapshot.
            for view in self.slots[slot].views.values_mut() {
                view.game = None;
            }
        }
        let mut answers = 0;
        let mut rate_limited = false;
        for frame in frames {
            let text = match frame {
                Out::Close(code, reason) => {
                    self.note(format!("  conn {slot} <- close {code} {reason}"));
                    continue;
                }
                Out::Text(text) => text,
            };
            self.report.frames += 1;
            let shown: String = text.as_str().chars().take(300).collect();
            self.note(format!("  conn {slot} <- {shown}"));
            let frame = match client::decode(text.as_str()) {
                Ok(f) => f,
                Err(e) => self.fail(format_args!("a server frame does not decode ({e})")),
            };
            if let Some(rid) = frame.rid {
                match request {
                    Some(r) if r.rid == Some(rid) => answers += 1,
                    _ => self.fail(format_args!(
                        "conn {slot} got a frame with rid {rid} that answers no request it just made"
                    )),
                }
            }
            if let ServerMessage::Error { code, .. } = &frame.msg {
                *self.report.errors.entry(code.clone()).or_default() += 1;
                if !self.documented.contains(code.as_str()) {
                    self.fail(format_args!("undocumented error code {code}"));
                }
                if code == protocol::code::INTERNAL {
                    self.fail("a request failed with `internal`");
                }
                if code == protocol::code::RATE_LIMITED && frame.rid.is_none() {
                    rate_limited = true;
                }
            }
            self.apply(slot, frame.msg, request);
        }
        if let Some(r) = request {
            if let Some(rid) = r.rid {
                let expected = usize::from(!rate_limited);
                if answers != expected {
                    self.fail(format_args!(
                        "conn {slot}'s request with rid {rid} got {answers} frames carrying it, not {expected}"
                    ));
                }
            }
        }
    }
}

impl Session<'_> {
    /// Follows one server message in the slot's views of its rooms.
    fn apply(&mut self, slot: usize, msg: ServerMessage, request: Option<&Request>) {
        let asked = request.and_then(|r| r.msg.as_ref());
        match msg {
            ServerMessage::Welcome { token, you, .. } => {
                self.slots[slot].name = Some(you.name);
                if !token.is_empty() {
                    self.slots[slot].token = Some(token);
                }
            }
            ServerMessage::Room { room } => self.snapshot(slot, room, asked),
            ServerMessage::CatchUp { room, events } => {
                self.report.catch_ups += 1;
                let Some(since) = request.and_then(|r| r.since) else {
                    self.fail(format_args!(
                        "conn {slot} got a catch_up for {room} without having asked with `since`"
                    ));
                };
                self.catch_up(slot, room, since, events);
            }
            ServerMessage::Event {
                room,
                version,
                event,
            } => {
                let Some(view) = self.slots[slot].views.get(&room) else {
                    self.fail(format_args!(
                        "conn {slot} got an event of room {room}, which it is not in"
                    ));
                };
                if version != view.version + 1 {
                    self.fail(format_args!(
                        "conn {slot} saw room {room} jump from version {} to {version}",
                        view.version
                    ));
                }
                self.count(&room, version, &event);
                let view = self.slots[slot].views.get_mut(&room).expect("checked");
                view.version = version;
                if let Some(game) = view.game.as_mut() {
                    if let Err(e) = follow(game, version, &event) {
                        self.fail(format_args!("conn {slot}, room {room}: {e}"));
                    }
                    view.dirty = true;
                }
            }
            ServerMessage::Ack {
                room: Some(room), ..
            } => {
                if matches!(asked, Some(ClientMessage::Leave { room: left }) if *left == room) {
                    self.slots[slot].views.remove(&room);
                }
            }
            ServerMessage::Error { code, .. } => {
                // A client that is in a room (it has a view) is a member as far as the room is concerned.
                let about = asked.and_then(ClientMessage::room);
                if code == protocol::code::NOT_IN_ROOM {
                    if let Some(room) = about.filter(|r| self.slots[slot].views.contains_key(*r)) {
                        self.fail(format_args!(
                            "room {room} says conn {slot} is not in it, but it never left"
                        ));
                    }
                }
            }
            ServerMessage::Ack { room: None, .. }
            | ServerMessage::Lobby { .. }
            | ServerMessage::LobbyOnline { .. }
            | ServerMessage::LobbyRoom { .. }
            | ServerMessage::LobbyRoomRemoved { .. }
            | ServerMessage::SpectatorChat { .. }
            | ServerMessage::FriendPlaying { .. }
            | ServerMessage::Paired { .. }
            | ServerMessage::QuickCounts { .. }
            | ServerMessage::Challenge { .. }
            | ServerMessage::ChallengeClosed { .. }
            | ServerMessage::Pong {} => {}
        }
        self.report.longest_game = self.slots[slot]
            .views
            .values()
            .filter_map(|v| v.game.as_ref())
            .map(|g| g.next_ply() as usize - 1)
            .max()
            .unwrap_or(0)
            .max(self.report.longest_game);
    }

    fn snapshot(&mut self, slot: usize, snap: RoomSnapshot, asked: Option<&ClientMessage>) {
        if !self.rooms.contains(&snap.id) {
            self.rooms.push(snap.id.clone());
        }
        let reply = match asked {
            Some(ClientMessage::Join { room, .. }) => *room == snap.id,
            Some(ClientMessage::CreateRoom { .. }) => {
                self.report.rooms_created += 1;
                true
            }
            _ => false,
        };
        let old = self.slots[slot].views.get(&snap.id).map(|v| v.version);
        if !reply {
            self.report.resyncs += 1;
            if old.is_none() {
                self.fail(format_args!(
                    "conn {slot} got a snapshot of room {}, which it is not in",
                    snap.id
                ));
            }
        }
        if let Some(old) = old.filter(|&v| snap.version < v) {
            self.fail(format_args!(
                "conn {slot} saw room {} go back from version {old} to a snapshot of {}",
                snap.id, snap.version
            ));
        }
        // A Gomoku room of the v1 form sends its rules, every other room its game.
        if snap.rules.is_none() && snap.game.is_none() {
            self.fail(format_args!(
                "conn {slot} got a snapshot of {} naming neither rules nor game",
                snap.id
            ));
        }
        let game =
            Replica::from_snapshot(&snap, self.slots[slot].name.as_deref()).unwrap_or_else(|e| {
                self.fail(format_args!("conn {slot} cannot follow a snapshot: {e}"))
            });
        let view = View {
            version: snap.version,
            game: Some(game),
            dirty: true,
        };
        self.slots[slot].views.insert(snap.id, view);
    }

    fn catch_up(&mut self, slot: usize, room: String, since: u64, events: Vec<VersionedEvent>) {
        for (i, e) in events.iter().enumerate() {
            if e.version != since + 1 + i as u64 {
                self.fail(format_args!(
                    "conn {slot}'s catch_up of {room} from {since} has version {} at place {i}",
                    e.version
                ));
            }
            self.count(&room, e.version, &e.event);
        }
        let last = since + events.len() as u64;
        let old = self.slots[slot].views.remove(&room);
        let mut view = View {
            version: last,
            game: None,
            dirty: true,
        };
        if let Some(old) = old {
            if last < old.version {
                self.fail(format_args!(
                    "conn {slot} saw room {room} at version {} but a catch_up ends at {last}",
                    old.version
                ));
            }
            if since <= old.version {
                view.game = old.game;
                if let Some(game) = view.game.as_mut() {
                    let mut new = events.iter().filter(|e| e.version > old.version);
                    let first = first_colour(game);
                    if let Err(err) = new.try_for_each(|e| check_event(&e.event, first)) {
                        self.fail(format_args!("conn {slot}, room {room}: {err}"));
                    }
                    if let Err(err) = game.catch_up(since, &events) {
                        self.fail(format_args!("conn {slot}, room {room}: {err}"));
                    }
                    if game.version != last {
                        self.fail(format_args!(
                            "conn {slot}'s replica of room {room} is at version {} after a catch_up to {last}",
                            game.version
                        ));
                    }
                }
            }
        }
        self.slots[slot].views.insert(room, view);
    }

    /// Counts an event in the report the first time any client sees it.
    fn count(&mut self, room: &str, version: u64, event: &RoomEvent) {
        if !self.counted.insert((room.to_owned(), version)) {
            return;
        }
        let rule = self
            .slots
            .iter()
            .find_map(|s| s.views.get(room).and_then(|v| v.game.as_ref()))
            .map(rule_name);
        let r = &mut self.report;
        match event {
            RoomEvent::GameStarted { .. } => {
                r.games_started += 1;
                if let Some(rule) = rule {
                    *r.games_by_rule.entry(rule).or_default() += 1;
                }
            }
            RoomEvent::Action { change, .. } => {
                r.actions += 1;
                if let Some(rule) = rule {
                    *r.actions_by_rule.entry(rule).or_default() += 1;
                }
                if let protocol::GameChange::Gomoku(c) = change {
                    r.stones += usize::from(c.placed.is_some());
                    r.swaps_decided += usize::from(c.swapped.is_some());
                    r.fifths_proposed += usize::from(c.proposed.is_some());
                }
            }
            RoomEvent::ActionsTakenBack { .. } => r.takebacks += 1,
            RoomEvent::GameOver { result, .. } => {
                *r.results.entry(result.reason.clone()).or_default() += 1
            }
            _ => {}
        }
    }

    /// Compares every reading client's changed view of a game with the stored game.
    async fn check_store(&mut self) {
        let mut games: BTreeMap<GameId, Vec<(usize, String, Replica)>> = BTreeMap::new();
        for (slot, s) in self.slots.iter_mut().enumerate() {
            if s.paused || s.conn.is_none() {
                continue;
            }
            for (room, view) in &mut s.views {
                if !std::mem::take(&mut view.dirty) {
                    continue;
                }
                if let Some(game) = view.game.as_ref().filter(|g| g.game_id.is_some()) {
                    let id = game.game_id.expect("filtered");
                    games
                        .entry(id)
                        .or_default()
                        .push((slot, room.clone(), game.clone()));
                }
            }
        }
        for (id, views) in games {
            self.report.store_checks += views.len();
            let record = match self.state.store.game(id).await {
                Ok(Some(record)) => record,
                Ok(None) => self.fail(format_args!("game {id} was announced but is not stored")),
                Err(e) => self.fail(format_args!("game {id} could not be read: {e}")),
            };
            for (i, a) in record.actions.iter().enumerate() {
                if a.seq as usize != i {
                    self.fail(format_args!("game {id} stores seq {} at place {i}", a.seq));
                }
            }
            let replay = match server::stored::decode_any(&record) {
                Ok((config, actions)) => games::AnyGame::from_actions(
                    config,
                    server::stored::first_seat(config),
                    &actions,
                )
                .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            let replay = match replay {
                Ok(game) => game,
                Err(e) => self.fail(format_args!(
                    "game {id}'s stored actions do not replay: {e}"
                )),
            };
            if let Some(outcome) = replay.status().outcome() {
                let (winner, reason) = (outcome.winner, outcome.reason);
                match &record.end {
                    Some(end) if end.winner == winner.map(server::stored::side) && end.reason == reason => {}
                    end => self.fail(format_args!(
                        "game {id} is decided by the rules ({reason}, {winner:?}) but its stored end is {end:?}"
                    )),
                }
            }
            let stored: Vec<String> = replay.actions().iter().map(|a| a.notation()).collect();
            for (slot, room, view) in views {
                if view.game.is_none() {
                    self.fail(format_args!(
                        "conn {slot} saw game {id} (room {room}) without its game"
                    ));
                }
                if let Some(seen) = view.game.as_ref() {
                    let seen: Vec<String> = seen.actions().iter().map(|a| a.notation()).collect();
                    if seen != stored {
                        self.fail(format_args!(
                            "conn {slot} saw game {id} (room {room}) with actions {seen:?}, but the store holds {stored:?}"
                        ));
                    }
                }
                match (&view.result, &record.end) {
                    (None, None) => {}
                    (Some(r), Some(end)) if r.reason == end.reason && r.winner == end.winner.map(server::stored::colour) => {}
                    (result, end) => self.fail(format_args!(
                        "conn {slot} was told game {id} (room {room}) ended with {result:?}, the store says {end:?}"
                    )),
                }
            }
        }
    }

    /// Everyone goes away; after the grace period no room and no unfinished game may be left.
    async fn finish(&mut self) {
        self.note("teardown".to_owned());
        for slot in 0..CONNECTIONS {
            self.close(slot).await;
        }
        self.settle().await;
        let grace = self.state.config.grace() + Duration::from_secs(1);
        for _ in 0..3 {
            if self.state.rooms.is_empty() {
                break;
            }
            self.clock.advance(grace);
            self.settle().await;
        }
        if !self.state.rooms.is_empty() {
            let ids: Vec<String> = self
                .state
                .rooms
                .all()
                .iter()
                .map(|r| r.id.to_string())
                .collect();
            self.fail(format_args!(
                "rooms {ids:?} are still open after every player left and the grace period passed"
            ));
        }
        match self.state.store.unfinished_games().await {
            Ok(games) if games.is_empty() => {}
            Ok(games) => {
                let ids: Vec<GameId> = games.iter().map(|g| g.id).collect();
                self.fail(format_args!(
                    "games {ids:?} are unfinished after their rooms closed"
                ));
            }
            Err(e) => self.fail(format_args!("unfinished games could not be read: {e}")),
        }
    }
}

/// Follows one room event in a client's replica of the game: what the protocol promises of the event itself
/// ([`check_event`]), then the replica's own checks (the next version, plies that match the stones).
fn follow(game: &mut Replica, version: u64, event: &RoomEvent) -> Result<(), String> {
    check_event(event, first_colour(game))?;
    match game.apply(version, event) {
        Ok(Applied::Applied) => Ok(()),
        Ok(Applied::Stale) => Err(format!(
            "the replica at version {} already holds version {version}",
            game.version
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// What a Gomoku room event promises whatever the client saw before: black acts first in a new game, and white
/// chooses which of two proposed fifth moves stays.
fn check_event(event: &RoomEvent, first: Color) -> Result<(), String> {
    match event {
        RoomEvent::GameStarted { to_act, .. } if *to_act != Some(first) => {
            Err(format!("game_started says {to_act:?} acts first"))
        }
        RoomEvent::Action {
            change: protocol::GameChange::Gomoku(c),
            to_act,
            ..
        } if c.proposed.is_some() && *to_act != Some(Color::White) => {
            Err(format!("fifth_proposed says {to_act:?} chooses"))
        }
        _ => Ok(()),
    }
}

/// A game's name in the report: the game, and for Gomoku its opening rule (`gomoku/swap2`, `othello`), from the
/// game followed or, before it starts, the room's configuration.
fn rule_name(room: &Replica) -> String {
    use games::GameConfig;
    let config = room
        .game
        .as_ref()
        .map(|g| g.config())
        .or_else(|| room.spec.and_then(|spec| spec.to_config().ok()))
        .or_else(|| room.rules.and_then(|r| GameSpec::from(r).to_config().ok()));
    match config {
        Some(games::AnyConfig::Gomoku(c)) => {
            format!(
                "gomoku/{}",
                games::storage::opening_text(c.rules().opening())
            )
        }
        Some(config) => config.kind().as_str().to_owned(),
        None => GameKind::Gomoku.as_str().to_owned(),
    }
}

/// The colour that moves first in a room's game: the seam's answer (black in Gomoku, Othello and insect chess,
/// white in draughts), from the game followed or, before it starts, the room's configuration.
fn first_colour(room: &Replica) -> Color {
    use games::Game as _;
    if let Some(game) = room.game.as_ref() {
        return game.first_colour();
    }
    room.spec
        .and_then(|spec| spec.to_config().ok())
        .map_or(Color::Black, |config| {
            games::AnyGame::new(config, games::Seat::Zero).first_colour()
        })
}
