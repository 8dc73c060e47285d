//! Rate limits for login and registration: a token bucket per key (an address, an account name, or an address and
//! an account name together). A refused attempt learns how long to wait (`Retry-After`).
//!
//! Besides [`RateLimiter::take`], a bucket can be charged after the fact ([`RateLimiter::charge`], for failures
//! that are only known once the password is checked), refunded ([`RateLimiter::refund`], for an attempt that turned
//! out to be the owner's), and asked whether it is full ([`RateLimiter::take_if_full`]: no recent use at all).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many attempts a key may make: `burst` at once, then `per_minute` on average.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// Attempts allowed in a burst.
    pub burst: u32,
    /// Attempts regained per minute.
    pub per_minute: f64,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

/// Past this many keys, buckets that have refilled completely are dropped: they hold no information
/// (a new bucket starts full), and an attacker cycling names or addresses must not grow the map forever.
const PRUNE_ABOVE: usize = 50_000;

/// One token bucket per key (an address, or a lower-cased username).
#[derive(Debug)]
pub struct RateLimiter {
    limit: Limit,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl RateLimiter {
    /// A limiter applying `limit` to every key.
    pub fn new(limit: Limit) -> RateLimiter {
        RateLimiter {
            limit,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn rate_per_sec(&self) -> f64 {
        self.limit.per_minute / 60.0
    }

    fn refilled(&self, bucket: Bucket, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(bucket.last).as_secs_f64();
        (bucket.tokens + elapsed * self.rate_per_sec()).min(f64::from(self.limit.burst))
    }

    /// Takes one attempt for `key` at `now`, or says how long until one is available.
    pub fn take(&self, key: &str, now: Instant) -> Result<(), Duration> {
        // A poisoned lock only means another request panicked mid-update; the counts are still usable.
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > PRUNE_ABOVE {
            let burst = f64::from(self.limit.burst);
            buckets.retain(|_, b| self.refilled(*b, now) < burst);
        }
        let full = Bucket {
            tokens: f64::from(self.limit.burst),
            last: now,
        };
        let bucket = buckets.entry(key.to_owned()).or_insert(full);
        let tokens = self.refilled(*bucket, now);
        // The tolerance absorbs floating-point error, so a wait of exactly the announced time always succeeds.
        if tokens >= 1.0 - 1e-9 {
            *bucket = Bucket {
                tokens: (tokens - 1.0).max(0.0),
                last: now,
            };
            Ok(())
        } else {
            // A refusal leaves the bucket as it was: refused attempts neither cost nor delay anything.
            Err(self.wait_for(1.0 - tokens))
        }
    }

    /// Takes one attempt for `key` only when its bucket is full, that is when the key was not used recently; else
    /// says how long until it is full again. An account under attack admits only addresses with a clean record.
    pub fn take_if_full(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let burst = f64::from(self.limit.burst);
        let tokens = buckets.get(key).map_or(burst, |b| self.refilled(*b, now));
        if tokens >= burst - 1e-9 {
            buckets.insert(
                key.to_owned(),
                Bucket {
                    tokens: (burst - 1.0).max(0.0),
                    last: now,
                },
            );
            Ok(())
        } else {
            Err(self.wait_for(burst - tokens))
        }
    }

    /// Whether `key` has an attempt left at `now` (nothing is taken).
    pub fn has_room(&self, key: &str, now: Instant) -> bool {
        let buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        buckets
            .get(key)
            .is_none_or(|b| self.refilled(*b, now) >= 1.0 - 1e-9)
    }

    /// Takes one attempt for `key` even when none is left (the bucket stays at zero): for a failure that counts
    /// whether or not the key had room, since it is only known after the attempt was let through.
    pub fn charge(&self, key: &str, now: Instant) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let tokens = buckets
            .get(key)
            .map_or(f64::from(self.limit.burst), |b| self.refilled(*b, now));
        buckets.insert(
            key.to_owned(),
            Bucket {
                tokens: (tokens - 1.0).max(0.0),
                last: now,
            },
        );
    }

    /// Gives back one attempt taken for `key` (never above the burst): the attempt turned out not to count.
    pub fn refund(&self, key: &str, now: Instant) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bucket) = buckets.get_mut(key) {
            let tokens = self.refilled(*bucket, now);
            *bucket = Bucket {
                tokens: (tokens + 1.0).min(f64::from(self.limit.burst)),
                last: now,
            };
        }
    }

    /// How long until `missing` tokens have come back.
    fn wait_for(&self, missing: f64) -> Duration {
        wait_for(self.limit, missing)
    }

    /// How many keys are tracked (for tests of the pruning).
    pub fn keys(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// How long a bucket of `limit` takes to regain `missing` tokens.
pub(crate) fn wait_for(limit: Limit, missing: f64) -> Duration {
    let rate = limit.per_minute / 60.0;
    if rate > 0.0 {
        Duration::from_secs_f64((missing / rate).max(0.0))
    } else {
        // No refill configured: effectively never again; say a day rather than infinity.
        Duration::from_secs(86_400)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Limit = Limit {
        burst: 3,
        per_minute: 6.0,
    };

    #[test]
    fn a_burst_passes_then_the_next_attempt_waits_for_a_refill() {
        let limiter = RateLimiter::new(LIMIT);
        let t0 = Instant::now();
        for _ in 0..3 {
            limiter.take("1.2.3.4", t0).unwrap();
        }
        let wait = limiter.take("1.2.3.4", t0).unwrap_err();
        assert_eq!(
            wait,
            Duration::from_secs(10),
            "6 per minute: one every 10 s"
        );
        let wait = limiter
            .take("1.2.3.4", t0 + Duration::from_secs(4))
            .unwrap_err();
        assert!(
            (wait.as_secs_f64() - 6.0).abs() < 1e-6,
            "the wait shrinks as time passes: {wait:?}"
        );
        limiter
            .take("1.2.3.4", t0 + Duration::from_secs(10))
            .unwrap();
    }

    #[test]
    fn keys_are_limited_separately() {
        let limiter = RateLimiter::new(LIMIT);
        let t0 = Instant::now();
        for _ in 0..3 {
            limiter.take("alice", t0).unwrap();
        }
        assert!(limiter.take("alice", t0).is_err());
        assert!(limiter.take("bob", t0).is_ok());
    }

    #[test]
    fn refused_attempts_do_not_extend_the_wait() {
        let limiter = RateLimiter::new(LIMIT);
        let t0 = Instant::now();
        for _ in 0..3 {
            limiter.take("k", t0).unwrap();
        }
        for s in 1..10 {
            assert!(limiter.take("k", t0 + Duration::from_secs(s)).is_err());
        }
        assert!(limiter.take("k", t0 + Duration::from_secs(10)).is_ok());
    }

    #[test]
    fn take_if_full_admits_only_a_key_without_recent_use() {
        let limiter = RateLimiter::new(LIMIT);
        let t0 = Instant::now();
        limiter.take_if_full("k", t0).unwrap();
        let wait = limiter.take_if_full("k", t0).unwrap_err();
        assert_eq!(wait, Duration::from_secs(10), "one token short: 10 s");
        assert!(limiter
            .take_if_full("k", t0 + Duration::from_millis(9_999))
            .is_err());
        limiter
            .take_if_full("k", t0 + Duration::from_secs(10))
            .unwrap();
        assert!(limiter.take_if_full("other", t0).is_ok());
    }

    #[test]
    fn a_charge_counts_even_without_room_and_a_refund_gives_one_back() {
        let limiter = RateLimiter::new(LIMIT);
        let t0 = Instant::now();
        assert!(limiter.has_room("k", t0), "an unknown key has room");
        for _ in 0..5 {
            limiter.charge("k", t0);
        }
        assert!(!limiter.has_room("k", t0));
        assert!(
            limiter.has_room("k", t0 + Duration::from_secs(10)),
            "charges below zero do not extend the wait"
        );
        limiter.refund("k", t0);
        assert!(limiter.has_room("k", t0));
        limiter.take("k", t0).unwrap();
        assert!(limiter.take("k", t0).is_err());
        for _ in 0..5 {
            limiter.refund("k", t0);
        }
        for _ in 0..3 {
            limiter.take("k", t0).unwrap();
        }
        assert!(limiter.take("k", t0).is_err(), "refunds stop at the burst");
    }

    #[test]
    fn refilled_buckets_are_pruned_when_the_map_grows() {
        let limiter = RateLimiter::new(LIMIT);
        let t0 = Instant::now();
        for i in 0..=PRUNE_ABOVE {
            limiter.take(&format!("k{i}"), t0).unwrap();
        }
        assert_eq!(limiter.keys(), PRUNE_ABOVE + 1);
        limiter.take("late", t0 + Duration::from_secs(60)).unwrap();
        assert_eq!(limiter.keys(), 1, "only the key just used remains");
    }
}
