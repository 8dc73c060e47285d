//! Lag measurement: every ping the writer sends carries the instant it was sent (milliseconds since the
//! connection opened, on the server's clock), the client's pong echoes it, and the reader turns the echo into a
//! round-trip time. The room credits each move with part of it ([`crate::room::lag_credit_ms`]).
//!
//! Only a pong that answers the server's latest ping counts, once: the stamp remembers what that ping carried.
//! An unsolicited pong (any payload: a forged old instant would claim a huge lag), an echo of an earlier ping,
//! or a second echo of the same one tells nothing. What a client can still do is answer late on purpose; the
//! credit's cap bounds what that gains.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::time::Clock;

/// No ping is waiting for its pong.
const NONE_PENDING: u64 = u64::MAX;

/// The clock pings are stamped on, the connection's start, and the stamp of the ping waiting for its pong (shared
/// by the writer, which pings, and the reader, which reads the pongs).
#[derive(Clone)]
pub struct Stamp {
    clock: Clock,
    opened: Instant,
    pending: Arc<AtomicU64>,
}

impl std::fmt::Debug for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ping stamp")
    }
}

impl Stamp {
    /// Stamps on `clock`, from now.
    pub fn new(clock: Clock) -> Stamp {
        let opened = clock.now();
        Stamp {
            clock,
            opened,
            pending: Arc::new(AtomicU64::new(NONE_PENDING)),
        }
    }

    fn since_open_ms(&self) -> u64 {
        self.clock
            .now()
            .saturating_duration_since(self.opened)
            .as_millis() as u64
    }

    /// The payload of a ping sent now: now. It becomes the one pong that counts (an earlier ping not answered yet
    /// no longer does).
    pub fn payload(&self) -> [u8; 8] {
        let now = self.since_open_ms();
        self.pending.store(now, Ordering::Release);
        now.to_be_bytes()
    }

    /// The round-trip time a pong tells: only when it echoes the latest ping, the first time it does.
    pub fn rtt_ms(&self, payload: &[u8]) -> Option<u64> {
        let sent = u64::from_be_bytes(payload.try_into().ok()?);
        if sent == NONE_PENDING {
            return None;
        }
        self.pending
            .compare_exchange(sent, NONE_PENDING, Ordering::AcqRel, Ordering::Acquire)
            .ok()?;
        self.since_open_ms().checked_sub(sent)
    }
}

/// A connection's round-trip estimate: the first sample, then each new sample averaged in with weight ½.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RttEstimate(Option<u64>);

impl RttEstimate {
    /// Takes a sample in.
    pub fn sample(&mut self, rtt_ms: u64) {
        self.0 = Some(match self.0 {
            None => rtt_ms,
            Some(e) => (e + rtt_ms) / 2,
        });
    }

    /// The estimate (0 before any sample).
    pub fn ms(&self) -> u64 {
        self.0.unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::time::ManualClock;

    #[test]
    fn a_pong_echoing_a_ping_tells_the_time_in_between() {
        let clock = ManualClock::new();
        let stamp = Stamp::new(clock.clone() as Clock);
        clock.advance(Duration::from_secs(5));
        let ping = stamp.payload();
        clock.advance(Duration::from_millis(340));
        assert_eq!(stamp.rtt_ms(&ping), Some(340));
    }

    #[test]
    fn a_stamp_from_the_future_or_of_the_wrong_length_is_ignored() {
        let clock = ManualClock::new();
        let stamp = Stamp::new(clock.clone() as Clock);
        assert_eq!(stamp.rtt_ms(&u64::MAX.to_be_bytes()), None);
        assert_eq!(stamp.rtt_ms(b"abc"), None);
        assert_eq!(stamp.rtt_ms(&[]), None);
        let _ = Arc::strong_count(&clock);
    }

    #[test]
    fn an_unsolicited_pong_tells_nothing() {
        // The forged credit of #35: eight zero bytes, no ping asked for, claimed the whole connection's age as lag.
        let clock = ManualClock::new();
        let stamp = Stamp::new(clock.clone() as Clock);
        clock.advance(Duration::from_secs(30));
        assert_eq!(stamp.rtt_ms(&0u64.to_be_bytes()), None);
        let ping = stamp.payload();
        clock.advance(Duration::from_millis(80));
        assert_eq!(
            stamp.rtt_ms(&0u64.to_be_bytes()),
            None,
            "not the ping's stamp"
        );
        assert_eq!(stamp.rtt_ms(&ping), Some(80), "the real echo still counts");
    }

    #[test]
    fn a_ping_is_answered_once_and_only_the_latest_counts() {
        let clock = ManualClock::new();
        let stamp = Stamp::new(clock.clone() as Clock);
        clock.advance(Duration::from_secs(1));
        let first = stamp.payload();
        clock.advance(Duration::from_secs(1));
        let second = stamp.payload();
        clock.advance(Duration::from_millis(50));
        assert_eq!(stamp.rtt_ms(&first), None, "an earlier ping's echo");
        assert_eq!(stamp.rtt_ms(&second), Some(50));
        clock.advance(Duration::from_millis(500));
        assert_eq!(stamp.rtt_ms(&second), None, "the same echo again");
    }

    #[test]
    fn the_estimate_averages_new_samples_in() {
        let mut e = RttEstimate::default();
        assert_eq!(e.ms(), 0);
        e.sample(400);
        assert_eq!(e.ms(), 400);
        e.sample(0);
        assert_eq!(e.ms(), 200);
    }
}
