//! The store: the contract suite on SQLite and Postgres, the v1 fixture, room ownership and leases, shared
//! write buckets, the SQLite file. One test binary (one link) for the crate; each file is a module.

#[macro_use]
#[path = "../two_nodes/mod.rs"]
mod two_nodes;
mod contract;
mod events;
mod fixture;
mod ownership;
mod shared_buckets;
mod sqlite_file;
