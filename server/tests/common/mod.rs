//! The server tests' kit: the one test server (the real app on port 0 with a fresh database and a hand-driven
//! clock) and the test client over the typed protocol client, both from the `testkit` crate.

#![allow(dead_code, unused_imports)]

pub use testkit::table::{
    act, chat, close_code, create_room, error_code, freestyle, hello, p, rules, Client, Ended,
    Registered, Table,
};
pub use testkit::test_server::{test_config, Db, TestServer, WAIT};

/// The pools a player's profile (`GET /api/players/{name}`) lists ratings in, in its order.
pub fn rating_pools(profile: &serde_json::Value) -> Vec<&str> {
    profile["ratings"]
        .as_array()
        .expect("a profile lists its ratings")
        .iter()
        .map(|r| r["pool"].as_str().expect("a rating names its pool"))
        .collect()
}
