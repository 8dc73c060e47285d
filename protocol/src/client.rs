//! Messages from a client to the server.

use rules::Point;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::frame::Tagged;
use crate::types::{ColourChoice, JoinRole, RulesSpec, TimeControl};

fn yes() -> bool {
    true
}

/// A message from a client. Every one may carry a request id (`"rid"`) that the reply or the error echoes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMessage {
    /// First message on a connection: the protocol version, and a token to resume an identity.
    Hello {
        /// The client's [`crate::PROTOCOL_VERSION`].
        version: u32,
        /// A token from an earlier `welcome` (or a login), to be the same player again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// Creates a room and sits in it; answered by its `room` snapshot.
    CreateRoom {
        /// Rules.
        rules: RulesSpec,
        /// Time control (default none).
        #[serde(default)]
        time_control: TimeControl,
        /// Rated or casual (default casual).
        #[serde(default)]
        rated: bool,
        /// Listed in the lobby (default true); a private room is reached through its id.
        #[serde(default = "yes")]
        public: bool,
        /// The creator's colour (default black).
        #[serde(default)]
        colour: ColourChoice,
    },
    /// Joins a room as a player (the free seat, or one's own seat again) or as a spectator. With `since`, the last
    /// version the client saw, the reply is a `catch_up` with the missed events when the room still has them,
    /// otherwise a `room` snapshot.
    Join {
        /// Room id.
        room: String,
        /// Player (default) or spectator.
        #[serde(default, rename = "as")]
        role: JoinRole,
        /// The last version seen, when reconnecting.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
    },
    /// Leaves a room. A player leaving a waiting room frees the seat; leaving a running game is resigning.
    Leave {
        /// Room id.
        room: String,
    },
    /// Places a stone.
    Place {
        /// Room id.
        room: String,
        /// The point.
        #[schemars(with = "crate::schema::PointDef")]
        point: Point,
        /// The ply the stone is meant to be (1 for the first stone): a `place` for an older ply is acknowledged
        /// again when it was this player's same stone, and refused with `stale_ply` otherwise.
        ply: u32,
    },
    /// Swap after three: the player holding white swaps colours or keeps white.
    DecideSwap {
        /// Room id.
        room: String,
        /// Whether to swap.
        swap: bool,
    },
    /// Fifth move, two options: black proposes two points.
    ProposeFifth {
        /// Room id.
        room: String,
        /// The two points.
        #[schemars(with = "[crate::schema::PointDef; 2]")]
        points: [Point; 2],
    },
    /// White chooses which proposed fifth move stays.
    ChooseFifth {
        /// Room id.
        room: String,
        /// One of the two proposed points.
        #[schemars(with = "crate::schema::PointDef")]
        point: Point,
    },
    /// White claims black's forbidden move (claim policy).
    ClaimForbidden {
        /// Room id.
        room: String,
    },
    /// Resigns the game.
    Resign {
        /// Room id.
        room: String,
    },
    /// Offers a draw.
    OfferDraw {
        /// Room id.
        room: String,
    },
    /// Accepts or declines the opponent's draw offer.
    AnswerDraw {
        /// Room id.
        room: String,
        /// Accept?
        accept: bool,
    },
    /// Asks to take back one's last move.
    RequestTakeback {
        /// Room id.
        room: String,
    },
    /// Accepts or declines the opponent's takeback request.
    AnswerTakeback {
        /// Room id.
        room: String,
        /// Accept?
        accept: bool,
    },
    /// After game over: offers a rematch with colours exchanged (accepts it when the opponent already offered).
    OfferRematch {
        /// Room id.
        room: String,
    },
    /// Accepts or declines the opponent's rematch offer.
    AnswerRematch {
        /// Room id.
        room: String,
        /// Accept?
        accept: bool,
    },
    /// Says something in the room: a player to the players' chat (which everyone in the room reads), a
    /// spectator to the spectators' chat (which players read only when they chose to).
    Chat {
        /// Room id.
        room: String,
        /// Up to [`crate::MAX_CHAT_CHARS`] characters (control, bidi and zero-width characters are removed).
        text: String,
    },
    /// A player shows or hides the spectators' chat (hidden until shown; spectators always see it). Showing is
    /// answered with the room's `room` snapshot, whose `chat` then holds the spectators' lines too; hiding with
    /// `ack`.
    ShowSpectatorChat {
        /// Room id.
        room: String,
        /// Show it?
        show: bool,
    },
    /// In a game without a clock: claims the win when the opponent, to act, has not acted for the server's idle
    /// time (a player cannot stall a lost game for ever).
    ClaimWin {
        /// Room id.
        room: String,
    },
    /// Starts receiving the lobby: a `lobby` snapshot, then `lobby_room` / `lobby_room_removed` changes.
    SubscribeLobby {},
    /// Stops receiving lobby changes.
    UnsubscribeLobby {},
    /// Answered by `pong`.
    Ping {},
}

impl ClientMessage {
    /// The room the message is about, when it is about one.
    pub fn room(&self) -> Option<&str> {
        use ClientMessage::*;
        match self {
            Join { room, .. }
            | Leave { room }
            | Place { room, .. }
            | DecideSwap { room, .. }
            | ProposeFifth { room, .. }
            | ChooseFifth { room, .. }
            | ClaimForbidden { room }
            | Resign { room }
            | OfferDraw { room }
            | AnswerDraw { room, .. }
            | RequestTakeback { room }
            | AnswerTakeback { room, .. }
            | OfferRematch { room }
            | AnswerRematch { room, .. }
            | Chat { room, .. }
            | ShowSpectatorChat { room, .. }
            | ClaimWin { room } => Some(room),
            Hello { .. }
            | CreateRoom { .. }
            | SubscribeLobby {}
            | UnsubscribeLobby {}
            | Ping {} => None,
        }
    }
}

impl Tagged for ClientMessage {
    const TYPES: &'static [&'static str] = &[
        "hello",
        "create_room",
        "join",
        "leave",
        "place",
        "decide_swap",
        "propose_fifth",
        "choose_fifth",
        "claim_forbidden",
        "resign",
        "offer_draw",
        "answer_draw",
        "request_takeback",
        "answer_takeback",
        "offer_rematch",
        "answer_rematch",
        "chat",
        "show_spectator_chat",
        "claim_win",
        "subscribe_lobby",
        "unsubscribe_lobby",
        "ping",
    ];
}
