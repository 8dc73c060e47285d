//! Rate limits for login and registration, per client address and per account name: a token bucket per key.
//! A refused attempt learns how long to wait (`Retry-After`).

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
            let rate = self.rate_per_sec();
            Err(if rate > 0.0 {
                Duration::from_secs_f64(((1.0 - tokens) / rate).max(0.0))
            } else {
                // No refill configured: effectively never again; say a day rather than infinity.
                Duration::from_secs(86_400)
            })
        }
    }

    /// How many keys are tracked (for tests of the pruning).
    pub fn keys(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
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
