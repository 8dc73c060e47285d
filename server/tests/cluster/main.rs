//! The server as a cluster of nodes on Postgres and NATS: play across nodes, failover, partitions, limits,
//! the lobby on every node, authentication to NATS. One test binary (one link) for the area; each file is a module.
//! The NATS server is the one `TEST_NATS_URL` (with `TEST_NATS_USER`, `TEST_NATS_PASSWORD`, `TEST_NATS_CA_FILE`)
//! names, as under CI: authenticated, over TLS; without them the anonymous one on 127.0.0.1:4222
//! (`testkit::cluster::nats`).

mod cluster;
mod cluster_auth;
mod cluster_community;
mod cluster_failover;
mod cluster_limits;
mod cluster_partition;
#[path = "../common/mod.rs"]
mod common;
