//! Wire messages between clients and the server: one enum per direction, JSON text frames.

#![warn(missing_docs)]

/// The protocol version a client announces in `hello`.
pub const PROTOCOL_VERSION: u32 = 1;
