//! Lag measurement: every ping the writer sends carries the instant it was sent (milliseconds since the
//! connection opened, on the server's clock), the client's pong echoes it, and the reader turns the echo into a
//! round-trip time. The room credits each move with part of it ([`crate::room::lag_credit_ms`]).
//!
//! A client may forge the echo (claim an old instant, so a huge lag): the credit's cap is what bounds what that
//! gains. An echo from the future, or one that is not eight bytes, is ignored.

use std::time::Instant;

use crate::time::Clock;

/// The clock pings are stamped on, and the connection's start.
#[derive(Clone)]
pub struct Stamp {
    clock: Clock,
    opened: Instant,
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
        Stamp { clock, opened }
    }

    fn since_open_ms(&self) -> u64 {
        self.clock
            .now()
            .saturating_duration_since(self.opened)
            .as_millis() as u64
    }

    /// A ping's payload: now.
    pub fn payload(&self) -> [u8; 8] {
        self.since_open_ms().to_be_bytes()
    }

    /// The round-trip time a pong's payload tells, if it is a stamp from the past.
    pub fn rtt_ms(&self, payload: &[u8]) -> Option<u64> {
        let sent = u64::from_be_bytes(payload.try_into().ok()?);
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
    fn the_estimate_averages_new_samples_in() {
        let mut e = RttEstimate::default();
        assert_eq!(e.ms(), 0);
        e.sample(400);
        assert_eq!(e.ms(), 400);
        e.sample(0);
        assert_eq!(e.ms(), 200);
    }
}
