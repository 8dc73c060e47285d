//! Messages from a client to the server.

use rules::Point;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::frame::Tagged;
use crate::types::{ColourChoice, JoinRole, RatingRange, RulesSpec, TimeControl};
use crate::GameSpec;

fn yes() -> bool {
    true
}

/// An optional field that, when present, holds a value: `null` is refused as the value's own decoder refuses it
/// (as `"rules":null` was when `rules` was required), so leaving the field out is the only way to give none.
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
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
    /// Creates a room and sits in it; answered by its `room` snapshot. The game is given by `rules` (Gomoku) or by
    /// `game` (any game); both may be given when they agree, and one of them must be.
    CreateRoom {
        /// Gomoku's rules.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        #[schemars(with = "RulesSpec")]
        rules: Option<RulesSpec>,
        /// The game and its configuration.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        #[schemars(with = "GameSpec")]
        game: Option<GameSpec>,
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
        /// Only players rated inside it may take the free seat (default: anyone).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating_range: Option<RatingRange>,
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
    /// Any game's action, in the game's notation (`f5`, `pass`, `32-28`, `28x19x10`; Gomoku's `h8`, `swap`, …).
    Act {
        /// Room id.
        room: String,
        /// The action's notation.
        action: String,
        /// How many actions the game had accepted before this one (0 for the first): an `act` below the count is
        /// acknowledged again when it was this player's same action, and refused with `stale_ply` otherwise.
        at: u32,
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
    /// Starts a casual game against the computer: creates a room (the same `rules`/`game`, `time_control`,
    /// `public` and `colour` as `create_room`; never rated) and seats the computer of `level` (1–8) in it at once.
    /// Answered by the room's `room` snapshot; the computer's `player_joined` and `game_started` follow. Refused
    /// with `bad_level`, `no_engine` (a game the computer does not play) or `computer_busy` (the server's search
    /// threads are saturated, or it plays as many games as it allows).
    PlayComputer {
        /// Gomoku's rules.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        #[schemars(with = "RulesSpec")]
        rules: Option<RulesSpec>,
        /// The game and its configuration.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        #[schemars(with = "GameSpec")]
        game: Option<GameSpec>,
        /// Time control (default none).
        #[serde(default)]
        time_control: TimeControl,
        /// Listed in the lobby, watchable and on the player's profile (default true, as every game is unless made
        /// private on purpose); `false` keeps the game private (reached by its room id only).
        #[serde(default = "yes")]
        public: bool,
        /// The human's colour (default black).
        #[serde(default)]
        colour: ColourChoice,
        /// The computer's level, 1 (beginner) to 8 (full strength); required unless `engine` is given.
        #[serde(default)]
        level: u8,
        /// An external engine the server was started with (`--engine NAME=PATH`) to play instead of its own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        engine: Option<String>,
    },
    /// Seats the computer of `level` in one's own waiting room (a casual Gomoku room whose other seat is free).
    /// Answered by `ack`; the computer's `player_joined` and `game_started` follow. Refused with `bad_level`,
    /// `no_engine`, `computer_busy`, `casual_only` (a rated room), `not_a_player` (not one's seat) or `room_full`.
    InviteComputer {
        /// Room id.
        room: String,
        /// The computer's level, 1 to 8; required unless `engine` is given.
        #[serde(default)]
        level: u8,
        /// An external engine the server was started with, instead of its own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        engine: Option<String>,
    },
    /// Enters a quick-pairing queue: `preset` names one of the server's presets (`renju-5+3`, …; see
    /// `docs/protocol.md`), or `custom` with the game (`rules` or `game`) and `time_control` given here. Answered
    /// by `ack`; a `paired` message follows once a compatible player is found (the room is then open with both
    /// seated). Refused with `unknown_preset`, `account_required` (a rated seek by a guest), `already_seeking`
    /// (this connection already waits), `too_many_seeks` (the player waits on as many connections as allowed),
    /// `queue_full`, or the room settings' own codes for a bad custom game or time control.
    SeekQuick {
        /// The preset's id, or `custom`.
        preset: String,
        /// Gomoku's rules (`custom` only).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        #[schemars(with = "RulesSpec")]
        rules: Option<RulesSpec>,
        /// The game and its configuration (`custom` only).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        #[schemars(with = "GameSpec")]
        game: Option<GameSpec>,
        /// The time control (`custom` only; default none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_control: Option<TimeControl>,
        /// Rated or casual (default casual; rated needs an account).
        #[serde(default)]
        rated: bool,
    },
    /// Challenges the registered player named `to` to a game (the same `rules`/`game`, `time_control`, `rated`
    /// and `colour` as `create_room`; the challenger's colour). Answered by a `challenge` message; the challenged
    /// player's connections get the same `challenge`. Refused with `unknown_player` (no such account, or oneself),
    /// `challenges_refused` (the player takes no challenges, or none from guests), `too_many_challenges` (the
    /// challenger has as many open challenges as allowed), `challenge_cooldown` (the player declined this
    /// challenger's last challenge moments ago), `account_required` (rated, by a guest) or the room settings'
    /// codes.
    Challenge {
        /// The challenged player's username.
        to: String,
        /// Gomoku's rules.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        #[schemars(with = "RulesSpec")]
        rules: Option<RulesSpec>,
        /// The game and its configuration.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        #[schemars(with = "GameSpec")]
        game: Option<GameSpec>,
        /// Time control (default none).
        #[serde(default)]
        time_control: TimeControl,
        /// Rated or casual (default casual).
        #[serde(default)]
        rated: bool,
        /// The challenger's colour (default black): in a match, the colour of the first game.
        #[serde(default)]
        colour: ColourChoice,
        /// A match of this many games (issue #34): 1 to 20, even for every game but Gomoku (colours
        /// alternate); absent or 1 is one game, as before. Refused with `invalid_field` outside those.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        games: Option<u32>,
    },
    /// The challenged player accepts (a room opens with both seated: both get `paired` with preset
    /// `challenge`) or declines, with one of the reasons `generic`, `later`, `time_control`, `rated`, `casual`,
    /// `rules`. Answered by `ack`; both players get `challenge_closed`. Refused with `unknown_challenge` (not one
    /// addressed to this player, or no longer open), `challenger_gone` (accepting after the challenger's
    /// connection closed) or `invalid_field` (an unknown reason).
    AnswerChallenge {
        /// The challenge's id.
        id: u64,
        /// Accept?
        accept: bool,
        /// Why not (declining only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// The challenger withdraws an open challenge; answered by `ack`, both players get `challenge_closed`.
    CancelChallenge {
        /// The challenge's id.
        id: u64,
    },
    /// Leaves the quick-pairing queue this connection waits in; answered by `ack` (also when it waited in none).
    CancelQuick {},
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
            | Act { room, .. }
            | Resign { room }
            | OfferDraw { room }
            | AnswerDraw { room, .. }
            | RequestTakeback { room }
            | AnswerTakeback { room, .. }
            | OfferRematch { room }
            | AnswerRematch { room, .. }
            | Chat { room, .. }
            | ShowSpectatorChat { room, .. }
            | ClaimWin { room }
            | InviteComputer { room, .. } => Some(room),
            Hello { .. }
            | CreateRoom { .. }
            | PlayComputer { .. }
            | SeekQuick { .. }
            | CancelQuick {}
            | Challenge { .. }
            | AnswerChallenge { .. }
            | CancelChallenge { .. }
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
        "act",
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
        "play_computer",
        "invite_computer",
        "seek_quick",
        "cancel_quick",
        "challenge",
        "answer_challenge",
        "cancel_challenge",
        "subscribe_lobby",
        "unsubscribe_lobby",
        "ping",
    ];
}
