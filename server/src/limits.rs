//! Abuse limits: message rate per connection, connections overall and per address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A token bucket: `burst` tokens, refilled at `rate` per second; each message takes one.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    capacity: f64,
    tokens: f64,
    rate: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: u32, now: Instant) -> TokenBucket {
        TokenBucket {
            capacity: burst as f64,
            tokens: burst as f64,
            rate,
            last: now,
        }
    }

    /// Takes a token if there is one.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.capacity);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Counts open connections overall and per IP address.
#[derive(Debug)]
pub struct ConnectionLimits {
    max_total: usize,
    max_per_ip: usize,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One admitted connection; dropping it frees its place.
#[derive(Debug)]
pub struct ConnectionPermit {
    limits: Arc<ConnectionLimits>,
    ip: IpAddr,
}

impl ConnectionLimits {
    /// Limits with the given maxima.
    pub fn new(max_total: usize, max_per_ip: usize) -> Arc<ConnectionLimits> {
        Arc::new(ConnectionLimits {
            max_total,
            max_per_ip,
            open: Mutex::new((0, HashMap::new())),
        })
    }

    /// Admits a connection from `ip`, or `None` when a limit is reached.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<ConnectionPermit> {
        let mut open = self.open.lock().expect("limits lock");
        let (total, per_ip) = &mut *open;
        let here = per_ip.get(&ip).copied().unwrap_or(0);
        if *total >= self.max_total || here >= self.max_per_ip {
            return None;
        }
        *total += 1;
        per_ip.insert(ip, here + 1);
        Some(ConnectionPermit {
            limits: self.clone(),
            ip,
        })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.lock().expect("limits lock").0
    }
}

impl Drop for ConnectionPermit {
    fn drop(&mut self) {
        let mut open = self.limits.open.lock().expect("limits lock");
        let (total, per_ip) = &mut *open;
        *total -= 1;
        if let Some(n) = per_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                per_ip.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_allows_a_burst_then_the_rate() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(2.0, 3, t0);
        assert!((0..3).all(|_| b.take(t0)));
        assert!(!b.take(t0));
        assert!(b.take(t0 + Duration::from_millis(500)));
        assert!(!b.take(t0 + Duration::from_millis(500)));
    }

    #[test]
    fn permits_count_per_address_and_free_on_drop() {
        let limits = ConnectionLimits::new(3, 2);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let p1 = limits.admit(a).unwrap();
        let _p2 = limits.admit(a).unwrap();
        assert!(limits.admit(a).is_none());
        let _p3 = limits.admit(b).unwrap();
        assert!(limits.admit(b).is_none(), "total reached");
        drop(p1);
        assert!(limits.admit(a).is_some());
    }
}
