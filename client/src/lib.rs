//! The one typed protocol client: what every program that talks to the server as a client needs, whatever it
//! does with the answers (the server's tests, the hostile-input suite, the load generator, and later the computer
//! player).
//!
//! - [`Requests`]: request ids, and the frames that arrive while a request waits for its answer, kept in order
//!   for later. Transport-free, so a client with a socket loop of its own (loadgen) uses the same bookkeeping.
//! - [`Replica`]: one room's game as the client was told it, kept from snapshots and events (versions checked,
//!   stones, who acts, who holds which colour, the result; in rooms of any game, the game itself, replayed from
//!   the snapshot's actions and kept by each `action` event, its index checked).
//! - [`Connection`]: both over a WebSocket, with a bound on how long any one frame may take.

#![warn(missing_docs)]

pub mod connection;
pub mod replica;
pub mod requests;

pub use connection::{Connection, Next};
pub use replica::{Applied, Replica, ReplicaError};
pub use requests::{act, decode, Requests};
