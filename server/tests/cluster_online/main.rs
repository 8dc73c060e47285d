//! The lobby's online count across a cluster, in a test binary of its own: every node on the NATS server hears
//! every other node's count, so the cluster tests of `tests/cluster/` running beside it in one process would add
//! their players to the count it waits for (a flaky count, seen once in CI). The NATS server is the one
//! `TEST_NATS_URL` names, as for `tests/cluster/`.

#[path = "../common/mod.rs"]
mod common;
mod online;
