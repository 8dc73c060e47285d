//! Test machinery, kept out of the production build (the server binary does not depend on this crate, and the
//! server's `testkit` feature, which only this crate turns on, is what exposes its socket-less connection):
//!
//! - [`test_server`]: the one test server (the real app on 127.0.0.1:0 with a fresh database, on a hand-driven or
//!   the real clock) that the server's tests, the hostile-input suite and loadgen's own tests start;
//! - [`table`]: the server tests' client ([`table::Client`], the typed [`client::Connection`] with the tests'
//!   panics and helpers) and a two-player [`table::Table`];
//! - [`game_table`]: a two-player table of any game ([`game_table::GameTable`]), followed by a spectator's
//!   [`client::Replica`], whose players act by notation;
//! - [`postgres`]: a fresh Postgres schema or database per test beside `TEST_DATABASE_URL`'s, for every crate's
//!   tests;
//! - [`accounts`]: the accounts and leaderboard tests' app (the test server with cheap password hashing, on
//!   SQLite and Postgres) and JSON sockets, and [`on_both_stores!`] to write a test for both databases;
//! - [`cluster`]: the cluster tests' NATS server, services, fresh database, node settings and partitions (the
//!   server's cluster tests and loadgen's);
//! - [`seed`]: the seeded randomness of randomised tests, replayable with `TEST_SEED`;
//! - [`records`]: finished rated games arranged straight in the store, for players with a history;
//! - [`fuzzing`]: the room-session fuzz harness over [`server::ws::virtual_conn::VirtualConn`] (the `room_session`
//!   fuzz target and `server/tests/rooms/room_fuzz.rs`), whose clients are the typed client's [`client::Requests`] and
//!   [`client::Replica`].

#![warn(missing_docs)]

pub mod accounts;
pub mod cluster;
pub mod fuzzing;
pub mod game_table;
pub mod postgres;
pub mod records;
pub mod seed;
pub mod table;
pub mod test_server;
