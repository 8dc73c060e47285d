//! The wire: golden frames, round trips, the JSON Schema and the protocol document. One test binary (one
//! link) for the crate; each file is a module.

mod docs;
mod golden;
mod roundtrip;
mod schema;
