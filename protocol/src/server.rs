//! Messages from the server to a client.

use rules::{Color, ForbiddenKind, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::frame::{Frame, Tagged};
use crate::types::{
    ChallengeView, Clocks, ForbiddenPoint, GameResult, LobbyRoom, OfferKind, QuickCount, RoomPhase,
    RoomSnapshot, Seat, You,
};
use crate::{next_to_act, GameChange, GamePhase, GameView};

/// A message from the server. Replies and errors carry the `"rid"` of the client message they answer.
// Messages live only between building and encoding, so their size does not matter; plain fields keep matching easy.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        /// Who the server knows the client as.
        you: You,
        /// The token to present in a later `hello` to be the same player again; empty when the identity came from
        /// the browser's session cookie (which is never handed to scripts).
        token: String,
        /// The server's version (its crate version).
        server_version: String,
    },
    /// The lobby: the public rooms that are waiting or playing that the server shows (at most its lobby size,
    /// ranked as docs/protocol.md says), and how many players are online. Changes then keep the subscriber's list
    /// to the shown rooms.
    Lobby {
        /// The rooms, in the lobby's order (established players' first, newest first within a standing).
        rooms: Vec<LobbyRoom>,
        /// Distinct players (registered or guest) with at least one open connection.
        #[serde(default)]
        online: u32,
        /// How many public rooms are listed in all (more than `rooms` holds when the lobby is full).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<u32>,
    },
    /// The number of players online changed (sent to lobby subscribers at most once a second).
    LobbyOnline {
        /// Distinct players with at least one open connection.
        online: u32,
    },
    /// A lobby room appeared or changed.
    LobbyRoom {
        /// The room as it is now.
        room: LobbyRoom,
    },
    /// A lobby room closed or is no longer listed.
    LobbyRoomRemoved {
        /// Its id.
        id: String,
    },
    /// Quick pairing found an opponent, or a challenge was accepted: the room is open with both players seated
    /// (its `room` snapshot and `game_started` came before this message, on this connection). Sent to the
    /// connection that sent `seek_quick` (or `challenge`, or accepted it).
    Paired {
        /// The room's id.
        room: String,
        /// The preset the seek was in (`custom` for a custom one).
        preset: String,
        /// This player's colour at the start (the opening rule's colour decisions then apply as usual).
        #[schemars(with = "crate::schema::ColorDef")]
        colour: Color,
        /// The opponent's name.
        opponent: String,
    },
    /// A challenge: to the challenger as the answer to `challenge`, and to every connection of the challenged
    /// player (also those that open while it is open).
    Challenge {
        /// The challenge.
        challenge: ChallengeView,
    },
    /// A challenge is no longer open: `accepted` (with the room), `declined` (with the reason), `cancelled` or
    /// `expired`. Sent to the challenger's connection and the challenged player's connections.
    ChallengeClosed {
        /// The challenge's id.
        id: u64,
        /// Why.
        reason: String,
        /// The decline's reason.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decline: Option<String>,
        /// The room, when accepted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<String>,
    },
    /// How many players wait and play in each quick-pairing preset: sent to lobby subscribers after the `lobby`
    /// snapshot, then when the numbers change (at most once a second).
    QuickCounts {
        /// One entry per preset, in the server's order (then `custom`).
        presets: Vec<QuickCount>,
    },
    /// A room's whole state (on join, create, resync, or a reconnect too old for events).
    Room {
        /// The state.
        room: RoomSnapshot,
    },
    /// The events a reconnecting client missed, oldest first (the answer to `join` with `since`).
    CatchUp {
        /// Room id.
        room: String,
        /// The missed events (possibly none).
        events: Vec<VersionedEvent>,
    },
    /// Something happened in a room. Versions grow by one per event.
    Event {
        /// Room id.
        room: String,
        /// The room's version after this event.
        version: u64,
        /// What happened.
        event: RoomEvent,
    },
    /// A request that changes nothing was accepted (a `place` already played, `leave`, an unsubscribe).
    Ack {
        /// The room concerned, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<String>,
        /// The room's version, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<u64>,
    },
    /// A request was refused, or a frame could not be read.
    Error {
        /// Stable snake_case code (see [`crate::code`] and the rules crate's codes).
        code: String,
        /// A human-readable explanation.
        message: String,
        /// Milliseconds after which the same request may succeed, when the server can tell (`computer_busy`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<u64>,
    },
    /// The answer to `ping`.
    Pong {},
    /// A spectator said something: sent to the room's spectators and to the players who chose to see it. Not a
    /// versioned event (not everyone in the room gets it, and `catch_up` does not bring it); the room's snapshots
    /// carry the last lines in [`RoomSnapshot::chat`] for those who read it.
    SpectatorChat {
        /// Room id.
        room: String,
        /// Who.
        from: String,
        /// What.
        text: String,
        /// The line's id as the server keeps it (issue #38): a moderator's `chat_removed` names it. Absent for a
        /// line the server did not keep (a computer's, or when keeping it failed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<i64>,
    },
    /// A player this account follows started a public game (issue #38): sent to each of the follower's
    /// connections, unless the player hides their games from followers (`PUT /api/me/privacy`) or blocks the
    /// follower. `room` is where to watch it.
    FriendPlaying {
        /// The followed player's name.
        player: String,
        /// The room to watch.
        room: String,
        /// The other player's name (empty while the other seat is the computer's or unknown).
        opponent: String,
    },
}

/// A room event with its version (inside `catch_up`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VersionedEvent {
    /// The room's version after the event.
    pub version: u64,
    /// The event.
    pub event: RoomEvent,
}

/// What happened in a room.
// As for `ServerMessage`: events live between building and encoding (and in the room's bounded log), so a
// variant carrying a game's view costs nothing worth boxing it for.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RoomEvent {
    /// A player sat down in a waiting room.
    PlayerJoined {
        /// The seat's colour.
        #[schemars(with = "crate::schema::ColorDef")]
        colour: Color,
        /// The player.
        player: Seat,
    },
    /// A player left a waiting room.
    PlayerLeft {
        /// The seat's colour.
        #[schemars(with = "crate::schema::ColorDef")]
        colour: Color,
        /// The player's name.
        name: String,
    },
    /// A game started (the first, or a rematch with colours exchanged).
    GameStarted {
        /// The stored game's id (internal: a private game's record is not served by it).
        game_id: i64,
        /// The game's public id: its record is `GET /api/games/{record}`, the link to share.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        record: Option<String>,
        /// The player holding black.
        black: Seat,
        /// The player holding white.
        white: Seat,
        /// Clocks, under a time control.
        clocks: Option<Clocks>,
        /// Black's forbidden points (none on an empty board; present for uniformity).
        forbidden: Vec<ForbiddenPoint>,
        /// Who acts first (black), so a client following events never has to know the rule.
        #[serde(default)]
        #[schemars(with = "Option<crate::schema::ColorDef>")]
        to_act: Option<Color>,
        /// What they must do first.
        #[serde(default)]
        phase: RoomPhase,
        /// In a rated room, `repeated_pairing` when this game will not change ratings (see
        /// [`GameResult::unrated`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unrated: Option<String>,
        /// The game's starting position (every room in protocol version 2; version 1's classic Gomoku rooms
        /// leave it out): who acts first and what they must do (`to_act` above names the first colour too;
        /// `phase` above is `none`), the board and the legal actions.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        view: Option<GameView>,
    },
    /// A stone was placed (protocol version 1's classic Gomoku rooms; version 2 announces it by `action`).
    Move {
        /// Its colour.
        #[schemars(with = "crate::schema::ColorDef")]
        colour: Color,
        /// Where.
        #[schemars(with = "crate::schema::PointDef")]
        point: Point,
        /// Stones on the board after it (the first stone is ply 1).
        ply: u32,
        /// Under the claim policy: the stone is forbidden for this reason and white may claim it now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Option<crate::schema::ForbiddenKindDef>")]
        claimable: Option<ForbiddenKind>,
        /// Who acts next (`null` when the game is over).
        #[schemars(with = "Option<crate::schema::ColorDef>")]
        to_act: Option<Color>,
        /// What they must do.
        phase: RoomPhase,
        /// Clocks after the move.
        clocks: Option<Clocks>,
        /// Black's forbidden points in the new position, when black is to place under renju.
        forbidden: Vec<ForbiddenPoint>,
    },
    /// After move 3: the player holding white decided (protocol version 1's classic Gomoku rooms).
    SwapDecided {
        /// Whether the players exchanged colours.
        swapped: bool,
        /// Who holds black now.
        black: String,
        /// Who holds white now.
        white: String,
        /// Who acts next.
        #[schemars(with = "Option<crate::schema::ColorDef>")]
        to_act: Option<Color>,
        /// What they must do.
        phase: RoomPhase,
        /// Clocks (they follow the players, not the colours).
        clocks: Option<Clocks>,
    },
    /// Black proposed two fifth moves; white chooses (protocol version 1's classic Gomoku rooms).
    FifthProposed {
        /// The two points.
        #[schemars(with = "[crate::schema::PointDef; 2]")]
        points: [Point; 2],
        /// Who acts next: white, to choose one of them.
        #[serde(default)]
        #[schemars(with = "Option<crate::schema::ColorDef>")]
        to_act: Option<Color>,
        /// What they must do (`choose_fifth`).
        #[serde(default)]
        phase: RoomPhase,
        /// Clocks.
        clocks: Option<Clocks>,
    },
    /// Moves were taken back (protocol version 1's classic Gomoku rooms; version 2 sends `actions_taken_back`).
    TakenBack {
        /// Stones on the board after the takeback.
        ply: u32,
        /// The stones in order after it.
        #[schemars(with = "Vec<crate::schema::PointDef>")]
        moves: Vec<Point>,
        /// Who acts next.
        #[schemars(with = "Option<crate::schema::ColorDef>")]
        to_act: Option<Color>,
        /// What they must do.
        phase: RoomPhase,
        /// Clocks.
        clocks: Option<Clocks>,
        /// Black's forbidden points in the new position.
        forbidden: Vec<ForbiddenPoint>,
    },
    /// Actions were taken back (every room in protocol version 2; version 1's classic Gomoku rooms send
    /// `taken_back`).
    ActionsTakenBack {
        /// How many actions the game holds after the takeback: the `at` of the next `act`.
        at: u32,
        /// Moves made after it, as the game counts them (the `ply` of offers).
        ply: u32,
        /// The position after it, with every action that led there.
        view: GameView,
        /// Who acts next.
        #[schemars(with = "Option<crate::schema::ColorDef>")]
        to_act: Option<Color>,
        /// What they must do.
        phase: Option<GamePhase>,
        /// Clocks.
        clocks: Option<Clocks>,
    },
    /// Any game's accepted action (every room in protocol version 2; version 1's classic Gomoku rooms send
    /// `move`, `swap_decided`, `fifth_proposed`).
    Action {
        /// How many actions the game had accepted before this one (the first action is `at` 0).
        at: u32,
        /// The acting colour.
        #[schemars(with = "crate::schema::ColorDef")]
        by: Color,
        /// The action's notation, as the game records it (a draughts move under its listed path).
        action: String,
        /// What it changed.
        change: GameChange,
        /// Who acts next (`null` when the game is over).
        #[schemars(with = "Option<crate::schema::ColorDef>")]
        to_act: Option<Color>,
        /// What they must do (`null` when the game is over).
        phase: Option<GamePhase>,
        /// Clocks after the action.
        clocks: Option<Clocks>,
    },
    /// A player offered or requested something.
    Offered {
        /// What.
        offer: OfferKind,
        /// The offering player's colour.
        #[schemars(with = "crate::schema::ColorDef")]
        by: Color,
    },
    /// The opponent answered an offer.
    OfferAnswered {
        /// What was offered.
        offer: OfferKind,
        /// The answering player's colour.
        #[schemars(with = "crate::schema::ColorDef")]
        by: Color,
        /// Accepted?
        accept: bool,
    },
    /// A seated player lost their connection; the seat is kept for `grace_ms`.
    PlayerDisconnected {
        /// The seat's colour.
        #[schemars(with = "crate::schema::ColorDef")]
        colour: Color,
        /// The player's name.
        name: String,
        /// Milliseconds before the seat is given up (during a game: the game is lost, or aborted before two
        /// stones).
        grace_ms: u64,
    },
    /// A disconnected player is back.
    PlayerReconnected {
        /// The seat's colour.
        #[schemars(with = "crate::schema::ColorDef")]
        colour: Color,
        /// The player's name.
        name: String,
    },
    /// The spectator count changed.
    Spectators {
        /// How many watch now.
        count: u32,
    },
    /// A player said something (the players' chat: everyone in the room reads it; spectators' chat comes as
    /// `spectator_chat` instead).
    Chat {
        /// Who.
        from: String,
        /// Whether they are a spectator (always `false` now; kept for older clients).
        spectator: bool,
        /// What.
        text: String,
        /// The line's id as the server keeps it (issue #38): a moderator's `chat_removed` names it. Absent for a
        /// line the server did not keep (a computer's, or when keeping it failed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<i64>,
    },
    /// A moderator removed a chat line for everyone (issue #38): every view drops the line of that id, from the
    /// players' and the spectators' chat alike; later snapshots no longer carry it.
    ChatRemoved {
        /// The removed line's id (as `chat` and `spectator_chat` carried it).
        line: i64,
    },
    /// The game ended.
    GameOver {
        /// How.
        result: GameResult,
        /// Final clocks.
        clocks: Option<Clocks>,
    },
    /// The room closed: `expired` (no second player came within the server's waiting time). Its seats are empty
    /// and it takes no more requests.
    RoomClosed {
        /// Why.
        reason: String,
    },
}

impl Tagged for ServerMessage {
    const TYPES: &'static [&'static str] = &[
        "welcome",
        "lobby",
        "lobby_room",
        "lobby_room_removed",
        "lobby_online",
        "paired",
        "quick_counts",
        "challenge",
        "challenge_closed",
        "room",
        "catch_up",
        "event",
        "ack",
        "error",
        "pong",
        "spectator_chat",
        "friend_playing",
    ];

    /// A `move` event: most of what a server sends during play.
    fn decode_hot(text: &str) -> Option<Frame<Self>> {
        let frame: hot::MoveFrame = serde_json::from_str(text).ok()?;
        let e = frame.event;
        let msg = ServerMessage::Event {
            room: frame.room,
            version: frame.version,
            event: RoomEvent::Move {
                colour: e.colour,
                point: e.point,
                ply: e.ply,
                claimable: e.claimable,
                to_act: e.to_act,
                phase: e.phase,
                clocks: e.clocks,
                forbidden: e.forbidden,
            },
        };
        Some(Frame {
            rid: frame.rid,
            msg,
        })
    }
}

/// The `move` event as plain structs, for [`ServerMessage::decode_hot`]: the same fields and types as
/// `ServerMessage::Event` holding `RoomEvent::Move`, with the tags as one-value enums. Unknown fields are refused
/// (the derive would skip them): such a frame goes the derive's way, which is the reference.
mod hot {
    use rules::{Color, ForbiddenKind, Point};
    use serde::Deserialize;

    use crate::types::{Clocks, ForbiddenPoint, RoomPhase};

    #[derive(Deserialize)]
    enum EventTag {
        #[serde(rename = "event")]
        Event,
    }

    #[derive(Deserialize)]
    enum MoveTag {
        #[serde(rename = "move")]
        Move,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(super) struct MoveFrame {
        #[allow(dead_code)]
        t: EventTag,
        #[serde(default)]
        pub rid: Option<u64>,
        pub room: String,
        pub version: u64,
        pub event: Move,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(super) struct Move {
        #[allow(dead_code)]
        kind: MoveTag,
        pub colour: Color,
        pub point: Point,
        pub ply: u32,
        #[serde(default)]
        pub claimable: Option<ForbiddenKind>,
        pub to_act: Option<Color>,
        pub phase: RoomPhase,
        pub clocks: Option<Clocks>,
        pub forbidden: Vec<ForbiddenPoint>,
    }
}

impl RoomEvent {
    /// The `action` event of an accepted action: `at` the number of actions before it, `by` the colour that acted,
    /// `delta` what applying it returned and `after` the game after it.
    pub fn action(
        at: u32,
        by: Color,
        action: &games::AnyAction,
        delta: &games::AnyDelta,
        after: &games::AnyGame,
        clocks: Option<Clocks>,
    ) -> RoomEvent {
        let (to_act, phase) = next_to_act(delta);
        RoomEvent::Action {
            at,
            by,
            action: action.notation(),
            change: GameChange::from_delta(delta, after),
            to_act,
            phase,
            clocks,
        }
    }
}

impl ServerMessage {
    /// An `error` message.
    pub fn error(code: impl Into<String>, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code: code.into(),
            message: message.into(),
            retry_after_ms: None,
        }
    }

    /// An `error` message that says when to try again.
    pub fn error_retry(
        code: impl Into<String>,
        message: impl Into<String>,
        retry_after_ms: Option<u64>,
    ) -> ServerMessage {
        ServerMessage::Error {
            code: code.into(),
            message: message.into(),
            retry_after_ms,
        }
    }
}
