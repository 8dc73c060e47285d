//! Abuse limits: message rate per connection, connections overall and per address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
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

/// The key per-address limits count by: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4
/// address), an IPv6 address by its /64 prefix, since one subscriber usually holds a whole /64 and could
/// otherwise take a fresh address for every connection.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

/// The address range `ip` belongs to, as text (`203.0.113.0/24`): its first `v4_prefix` bits for IPv4 (an
/// IPv4-mapped IPv6 address as its IPv4 address), its first `v6_prefix` bits for IPv6. Prefixes longer than the
/// address are taken as the whole address.
pub fn range_key(ip: IpAddr, v4_prefix: u8, v6_prefix: u8) -> String {
    match address_key(ip) {
        IpAddr::V4(v4) => {
            let bits = u32::from(v4_prefix.min(32));
            let mask = u32::MAX.checked_shl(32 - bits).unwrap_or(0);
            format!(
                "{}/{bits}",
                std::net::Ipv4Addr::from_bits(v4.to_bits() & mask)
            )
        }
        IpAddr::V6(v6) => {
            let bits = u32::from(v6_prefix.min(128));
            let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
            format!("{}/{bits}", Ipv6Addr::from_bits(v6.to_bits() & mask))
        }
    }
}

/// Counts open connections overall and per address (IPv6 by /64, see [`address_key`]).
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
    /// The per-address key it counts under; `None` when it counts only toward the total.
    ip: Option<IpAddr>,
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
        let ip = address_key(ip);
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
            ip: Some(ip),
        })
    }

    /// Admits a connection that counts only toward the total (one from a trusted proxy, which carries many
    /// clients), or `None` when the total is reached.
    pub fn admit_without_address(self: &Arc<Self>) -> Option<ConnectionPermit> {
        let mut open = self.open.lock().expect("limits lock");
        if open.0 >= self.max_total {
            return None;
        }
        open.0 += 1;
        Some(ConnectionPermit {
            limits: self.clone(),
            ip: None,
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
        if let Some(ip) = self.ip {
            if let Some(n) = per_ip.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    per_ip.remove(&ip);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn ranges_are_the_address_s_prefix() {
        let range = |ip: &str, v4, v6| range_key(ip.parse().unwrap(), v4, v6);
        assert_eq!(range("203.0.113.77", 24, 48), "203.0.113.0/24");
        assert_eq!(range("203.0.113.77", 16, 48), "203.0.0.0/16");
        assert_eq!(range("203.0.113.77", 32, 48), "203.0.113.77/32");
        assert_eq!(range("::ffff:203.0.113.77", 24, 48), "203.0.113.0/24");
        assert_eq!(range("2001:db8:aa:bb:cc::1", 24, 48), "2001:db8:aa::/48");
        assert_eq!(range("2001:db8:aa:bb:cc::1", 24, 64), "2001:db8:aa:bb::/64");
        assert_eq!(range("2001:db8:aa:bb:cc::1", 24, 0), "::/0");
        assert_eq!(range("10.1.2.3", 0, 48), "0.0.0.0/0");
    }

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

    #[test]
    fn ipv6_addresses_count_by_their_64_bit_prefix() {
        let key = |s: &str| address_key(s.parse().unwrap());
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::2"));
        assert_eq!(
            key("2001:db8:1:2:ffff:ffff:ffff:ffff"),
            key("2001:db8:1:2::")
        );
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("2001:db8:1:2:aaaa::1").to_string(), "2001:db8:1:2::");
        assert_eq!(key("::ffff:10.0.0.7").to_string(), "10.0.0.7");
        assert_eq!(key("10.0.0.7").to_string(), "10.0.0.7");
    }

    #[test]
    fn the_per_address_cap_holds_a_whole_ipv6_64_to_the_limit() {
        let limits = ConnectionLimits::new(100, 2);
        let _a = limits.admit("2001:db8::1".parse().unwrap()).unwrap();
        let _b = limits.admit("2001:db8::2".parse().unwrap()).unwrap();
        assert!(limits.admit("2001:db8::3".parse().unwrap()).is_none());
        assert!(limits.admit("2001:db8:0:1::1".parse().unwrap()).is_some());
    }

    #[test]
    fn permits_without_an_address_count_only_toward_the_total() {
        let limits = ConnectionLimits::new(2, 1);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let p = limits.admit_without_address().unwrap();
        let _q = limits.admit(a).unwrap();
        assert!(limits.admit_without_address().is_none(), "total reached");
        drop(p);
        assert_eq!(limits.open(), 1);
        let _r = limits.admit_without_address().unwrap();
        assert!(limits.admit(a).is_none());
    }
}
