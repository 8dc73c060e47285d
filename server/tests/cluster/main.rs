//! The server as a cluster of nodes on Postgres and NATS: play across nodes, failover, partitions, limits,
//! the lobby on every node. One test binary (one link) for the area; each file is a module.

mod cluster;
mod cluster_failover;
mod cluster_limits;
mod cluster_online;
mod cluster_partition;
#[path = "../cluster_support/mod.rs"]
mod cluster_support;
#[path = "../common/mod.rs"]
mod common;
