//! Stable error codes sent in [`crate::ServerMessage::Error`].
//!
//! The rules crate's own codes (`occupied`, `not_your_turn`, `forbidden_double_three`, …, see
//! `rules::IllegalAction::code`) pass through unchanged; the codes here are the wire's and the room's.

/// The frame is not valid JSON, or not a JSON object.
pub const BAD_JSON: &str = "bad_json";
/// The `"t"` field is missing or names no message.
pub const UNKNOWN_TYPE: &str = "unknown_type";
/// A field is missing or has the wrong type or value.
pub const INVALID_FIELD: &str = "invalid_field";
/// The frame is larger than the server's limit.
pub const TOO_LARGE: &str = "too_large";
/// Binary frames are not part of the protocol.
pub const BINARY_FRAME: &str = "binary_frame";
/// The first message must be `hello`.
pub const HELLO_REQUIRED: &str = "hello_required";
/// `hello` was sent twice.
pub const ALREADY_HELLO: &str = "already_hello";
/// The client speaks a protocol version the server does not.
pub const UNSUPPORTED_VERSION: &str = "unsupported_version";
/// The token in `hello` (or, when `hello` brings none, the upgrade request's session) is unknown or expired. The
/// connection stays open without an identity; a `hello` without a token then makes a new guest.
pub const INVALID_TOKEN: &str = "invalid_token";
/// No such room.
pub const UNKNOWN_ROOM: &str = "unknown_room";
/// The room's seats are taken.
pub const ROOM_FULL: &str = "room_full";
/// The action needs a seat in the room.
pub const NOT_A_PLAYER: &str = "not_a_player";
/// The connection has not joined that room.
pub const NOT_IN_ROOM: &str = "not_in_room";
/// The game has not started (the second seat is empty).
pub const GAME_NOT_STARTED: &str = "game_not_started";
/// The game is over.
pub const GAME_OVER: &str = "game_over";
/// The game has been decided but its result is still being stored; it is announced (`game_over`) once stored.
pub const RESULT_PENDING: &str = "result_pending";
/// A `place` named a ply that is not the next one.
pub const STALE_PLY: &str = "stale_ply";
/// An `act` whose text is not an action of the room's game (its notation is exact: `f5`, not `F5`).
pub const BAD_NOTATION: &str = "bad_notation";
/// `create_room` with both `rules` and `game`, saying different things.
pub const CONFLICTING_CONFIG: &str = "conflicting_config";
/// The same kind of offer by the same player is already pending.
pub const OFFER_PENDING: &str = "offer_pending";
/// The opponent declined this kind of offer less than two moves ago.
pub const OFFER_TOO_SOON: &str = "offer_too_soon";
/// There is no pending offer of that kind from the opponent to answer.
pub const NO_OFFER: &str = "no_offer";
/// Nothing to take back (no move of the requester on the board).
pub const NOTHING_TO_TAKE_BACK: &str = "nothing_to_take_back";
/// A takeback would undo an opening decision (the swap, the fifth-move proposal or choice), which stands once made:
/// undoing it would hand the colours or the choice back without either player deciding again.
pub const OPENING_DECIDED: &str = "opening_decided";
/// A rematch can be offered only after game over.
pub const GAME_NOT_OVER: &str = "game_not_over";
/// A rematch in a finished room whose other player has left (a game with anyone else needs a new room).
pub const OPPONENT_LEFT: &str = "opponent_left";
/// The chat text is empty or too long.
pub const BAD_CHAT: &str = "bad_chat";
/// The room's chat (or this member's share of it) takes no more messages for a moment.
pub const CHAT_RATE_LIMITED: &str = "chat_rate_limited";
/// `claim_win` in a game with a clock, or when the claimant is the one to act.
pub const NO_CLAIM: &str = "no_claim";
/// `claim_win` before the opponent has been idle for the server's idle time.
pub const CLAIM_TOO_SOON: &str = "claim_too_soon";
/// The time control is out of range.
pub const INVALID_TIME_CONTROL: &str = "invalid_time_control";
/// A rated room needs a registered account.
pub const ACCOUNT_REQUIRED: &str = "account_required";
/// The player holds as many rooms as allowed.
pub const TOO_MANY_ROOMS: &str = "too_many_rooms";
/// Too many messages in too short a time.
pub const RATE_LIMITED: &str = "rate_limited";
/// The server holds as many connections as allowed (overall or from this address).
pub const TOO_MANY_CONNECTIONS: &str = "too_many_connections";
/// The client fell too far behind its events; close code 1008 follows (sent only when the socket still takes
/// frames). Reconnecting with `since` catches up.
pub const SLOW_CLIENT: &str = "slow_client";
/// The session this connection was opened with was signed out (logout, "log out everywhere" or a new login in
/// its place); close code 4001 follows.
pub const SESSION_REVOKED: &str = "session_revoked";
/// The server is shutting down; close code 1001 follows.
pub const SHUTTING_DOWN: &str = "shutting_down";
/// `play_computer` / `invite_computer` with a level outside 1–8.
pub const BAD_LEVEL: &str = "bad_level";
/// The computer's search threads are saturated (or it plays as many games as the server allows): try again
/// after the error's `retry_after_ms`.
pub const COMPUTER_BUSY: &str = "computer_busy";
/// The asker (its account, or its address) already plays as many games against the computer at once as the
/// server allows; one of them must end first.
pub const TOO_MANY_COMPUTER_GAMES: &str = "too_many_computer_games";
/// The computer does not play this game (it plays Gomoku and Renju; Othello and draughts have no engine).
pub const NO_ENGINE: &str = "no_engine";
/// `play_computer` / `invite_computer` names an external engine the server was not started with.
pub const UNKNOWN_ENGINE: &str = "unknown_engine";
/// The computer plays only casual games: it is not invited into a rated room.
pub const CASUAL_ONLY: &str = "casual_only";
/// `play_computer` / `invite_computer` by a player seated in a rated game that is being played: the computer is
/// no helper during one's own rated game (it is again once that game is over).
pub const IN_RATED_GAME: &str = "in_rated_game";
/// `seek_quick` names no preset of the server's.
pub const UNKNOWN_PRESET: &str = "unknown_preset";
/// `seek_quick` on a connection that already waits in a quick-pairing queue (`cancel_quick` first).
pub const ALREADY_SEEKING: &str = "already_seeking";
/// `seek_quick` by a player who already waits on as many connections as allowed.
pub const TOO_MANY_SEEKS: &str = "too_many_seeks";
/// The quick-pairing queues hold as many players as the server allows: try again later.
pub const QUEUE_FULL: &str = "queue_full";
/// `challenge` names no registered player (or oneself).
pub const UNKNOWN_PLAYER: &str = "unknown_player";
/// The challenged player takes no challenges (or none from guests).
pub const CHALLENGES_REFUSED: &str = "challenges_refused";
/// The challenger has as many open challenges as allowed.
pub const TOO_MANY_CHALLENGES: &str = "too_many_challenges";
/// The challenged player declined this challenger's last challenge moments ago, or the challenger withdrew it.
pub const CHALLENGE_COOLDOWN: &str = "challenge_cooldown";
/// The challenger has sent as many challenges as allowed for now, or the challenged player has received as many;
/// the message says how many seconds to wait.
pub const CHALLENGE_RATE_LIMITED: &str = "challenge_rate_limited";
/// No open challenge with that id is addressed to (or was made by) this player.
pub const UNKNOWN_CHALLENGE: &str = "unknown_challenge";
/// The challenger's connection closed before the challenge was accepted.
pub const CHALLENGER_GONE: &str = "challenger_gone";
/// `create_room` with a `rating_range` whose `min` is above its `max` or outside 0–4000.
pub const BAD_RATING_RANGE: &str = "bad_rating_range";
/// `join` as a player of a room whose seek admits only ratings in its `rating_range`, by a player outside it.
pub const OUTSIDE_RATING_RANGE: &str = "outside_rating_range";
/// Cluster mode: this node has lost contact with NATS or Postgres (or may have lost the room's lease), so it
/// takes no game actions for its rooms until it is back; the game is safe, and another node takes the room over
/// if the partition lasts. Try again, or reconnect (through the load balancer) to another node.
pub const PARTITIONED: &str = "partitioned";
/// Something failed inside the server (details are logged, never sent).
pub const INTERNAL: &str = "internal";

// community (issue #38)
/// A block stands between the two players: a `challenge` to, a `chat` before or a `join` of a room of a player
/// who blocked the sender (blocks are private: the message does not say who blocked whom).
pub const BLOCKED: &str = "blocked";
/// `chat` by a player a moderator muted; the message says until when.
pub const MUTED: &str = "muted";
/// Anything but watching by a player (or a guest from an address range) a moderator banned.
pub const BANNED: &str = "banned";
