//! Where a login limit keeps its buckets: in this process ([`RateLimiter`]) on a single node, or in cluster mode
//! (issue #22) in the store, shared by every node ([`store::Store::use_bucket`]), so that attempts spread over
//! the nodes meet the limits they would meet on one. The rules and the answers are the same either way; the
//! shared buckets follow the database's clock instead of the node's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use store::{BucketAnswer, BucketShape, BucketUse, Store, StoreError};

use super::rate_limit::{self, Limit, RateLimiter};

/// Slack in the comparisons, as in [`RateLimiter`].
const SLACK: f64 = 1e-9;

/// One login limit (per address, per account name, or per address and name), kept here or in the store.
pub(crate) enum Limiter {
    /// This process's buckets.
    Local(RateLimiter),
    /// The store's buckets, their keys prefixed with `kind` (the limits share one table).
    Shared {
        /// The cluster's database.
        store: Arc<dyn Store>,
        /// Which limit: the first word of its keys.
        kind: &'static str,
        /// Its burst and refill.
        limit: Limit,
    },
}

impl Limiter {
    /// A limit kept in this process.
    pub(crate) fn local(limit: Limit) -> Limiter {
        Limiter::Local(RateLimiter::new(limit))
    }

    /// A limit kept in `store` for every node, under keys starting with `kind`.
    pub(crate) fn shared(store: Arc<dyn Store>, kind: &'static str, limit: Limit) -> Limiter {
        Limiter::Shared { store, kind, limit }
    }

    /// Takes one attempt for `key`, or says how long until one is available (`Ok(Err(wait))`).
    pub(crate) async fn take(
        &self,
        key: &str,
        now: Instant,
    ) -> Result<Result<(), Duration>, StoreError> {
        match self {
            Limiter::Local(l) => Ok(l.take(key, now)),
            Limiter::Shared { store, kind, limit } => {
                shared_use(store, kind, *limit, key, 1.0, 1.0).await
            }
        }
    }

    /// Takes one attempt for `key` only when its bucket is full (see [`RateLimiter::take_if_full`]).
    pub(crate) async fn take_if_full(
        &self,
        key: &str,
        now: Instant,
    ) -> Result<Result<(), Duration>, StoreError> {
        match self {
            Limiter::Local(l) => Ok(l.take_if_full(key, now)),
            Limiter::Shared { store, kind, limit } => {
                shared_use(store, kind, *limit, key, f64::from(limit.burst), 1.0).await
            }
        }
    }

    /// Whether `key` has an attempt left (nothing is taken).
    pub(crate) async fn has_room(&self, key: &str, now: Instant) -> Result<bool, StoreError> {
        match self {
            Limiter::Local(l) => Ok(l.has_room(key, now)),
            Limiter::Shared { store, kind, limit } => Ok(store
                .bucket_tokens(&format!("{kind} {key}"), shape(*limit))
                .await?
                >= 1.0 - SLACK),
        }
    }

    /// Takes one attempt for `key` even when none is left (see [`RateLimiter::charge`]).
    pub(crate) async fn charge(&self, key: &str, now: Instant) -> Result<(), StoreError> {
        match self {
            Limiter::Local(l) => {
                l.charge(key, now);
                Ok(())
            }
            Limiter::Shared { store, kind, limit } => {
                shared_use(store, kind, *limit, key, -1.0, 1.0)
                    .await
                    .map(drop)
            }
        }
    }

    /// Gives back one attempt taken for `key`, never above the burst (see [`RateLimiter::refund`]).
    pub(crate) async fn refund(&self, key: &str, now: Instant) -> Result<(), StoreError> {
        match self {
            Limiter::Local(l) => {
                l.refund(key, now);
                Ok(())
            }
            Limiter::Shared { store, kind, limit } => {
                shared_use(store, kind, *limit, key, -1.0, -1.0)
                    .await
                    .map(drop)
            }
        }
    }
}

/// One use of the shared bucket of `key` under limit `kind`: `cost` tokens when `need` are there, or how long
/// until they are.
async fn shared_use(
    store: &Arc<dyn Store>,
    kind: &str,
    limit: Limit,
    key: &str,
    need: f64,
    cost: f64,
) -> Result<Result<(), Duration>, StoreError> {
    let answer = store
        .use_bucket(
            &format!("{kind} {key}"),
            shape(limit),
            BucketUse { need, cost },
        )
        .await?;
    Ok(match answer {
        BucketAnswer::Taken => Ok(()),
        BucketAnswer::Short { tokens } => Err(rate_limit::wait_for(limit, need - tokens)),
    })
}

/// A limit as the store's bucket shape.
fn shape(limit: Limit) -> BucketShape {
    BucketShape {
        burst: f64::from(limit.burst),
        per_ms: limit.per_minute / 60_000.0,
    }
}
