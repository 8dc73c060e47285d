//! Wire messages between clients and the server: one enum per direction, JSON text frames.
//!
//! Every frame is one JSON object whose `"t"` field names the message (snake_case). A client message may carry a
//! request id `"rid"` (an unsigned integer); the server's reply to it, or the error it caused, carries the same
//! `"rid"`. [`encode`] and [`decode`] do the framing; [`DecodeError`] says precisely why a frame was refused.
//!
//! The first client message on a connection is [`ClientMessage::Hello`], answered by [`ServerMessage::Welcome`].
//! Room events ([`ServerMessage::Event`]) carry the room's version, a counter that grows by one per event, so a
//! client that reconnects can ask for what it missed (`join` with `since`).

#![warn(missing_docs)]

mod client;
pub mod code;
mod examples;
mod frame;
mod game;
mod games;
pub mod schema;
mod server;
mod types;
pub mod whole;

pub use client::ClientMessage;
pub use examples::{doc_examples, Sender};
pub use frame::{
    decode, decode_checked, encode, peek_rid, with_rid, DecodeError, DecodeErrorKind, Frame, Tagged,
};
pub use game::{GamePhase, GameSpecError, WireGame};
pub use games::*;
pub use server::{RoomEvent, ServerMessage, VersionedEvent};
pub use types::{
    ChallengeView, ChatLine, Clocks, ColourChoice, ForbiddenPoint, GameResult, JoinRole,
    LobbyPlayer, LobbyRoom, OfferKind, OfferState, QuickCount, RatingDelta, RatingRange, RoomPhase,
    RoomSnapshot, RoomState, RulesSpec, Seat, Seats, SideClock, TimeControl, You,
};

/// The protocol version a client announces in `hello`: 2, in which every game, Gomoku too, speaks the generic
/// form (`act`, the `action` and `actions_taken_back` events, the snapshot's `game` and `view`).
pub const PROTOCOL_VERSION: u32 = 2;

/// The first protocol version, still served: a connection whose `hello` says it gets Gomoku rooms under the
/// classic openings in their old form (`place`, `move`, `swap_decided`, `fifth_proposed`, `taken_back`, the
/// snapshot's `moves` and `phase`), translated at the server's WebSocket edge (docs/protocol.md, "Changes from
/// version 1").
pub const PROTOCOL_VERSION_1: u32 = 1;

/// The default largest frame, in bytes, that a server accepts (16 KiB).
pub const DEFAULT_MAX_FRAME: usize = 16 * 1024;

/// The longest chat text, in characters.
pub const MAX_CHAT_CHARS: usize = 500;
