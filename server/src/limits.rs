//! Abuse limits: message rate per connection, connections overall, per address, per address range and per player.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ipnet::IpNet;

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

/// The address range `ip` counts under for [`ConnectionLimits`]' range cap: its first `v4_prefix` bits (IPv4, an
/// IPv4-mapped IPv6 address as its IPv4 address) or `v6_prefix` bits (IPv6); longer prefixes are the whole address.
pub fn connection_range(ip: IpAddr, v4_prefix: u8, v6_prefix: u8) -> IpNet {
    let ip = address_key(ip);
    let prefix = match ip {
        IpAddr::V4(_) => v4_prefix.min(32),
        IpAddr::V6(_) => v6_prefix.min(128),
    };
    IpNet::new(ip, prefix)
        .expect("a prefix within the address's length")
        .trunc()
}

/// Which cap refused a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server holds as many as it allows.
    Total,
    /// The client's address holds as many as it may.
    Address,
    /// The client's address range holds as many as it may.
    Range,
    /// The player (an account, or a guest) holds as many as it may.
    Player,
}

impl Refusal {
    /// The words of the `too_many_connections` error.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Total => "the server holds as many connections as it allows; try again later",
            Refusal::Address => {
                "your address holds as many connections as it may; close some and try again"
            }
            Refusal::Range => {
                "your network holds as many connections as it may; try again later"
            }
            Refusal::Player => {
                "you have as many connections open as a player may (other tabs or devices); close one and try again"
            }
        }
    }

    /// The reason of the close frame (at most 123 bytes).
    pub fn close_reason(self) -> &'static str {
        match self {
            Refusal::Total | Refusal::Address => "too many connections",
            Refusal::Range => "too many connections from this network",
            Refusal::Player => "too many connections for this player",
        }
    }
}

/// Counts open connections overall, per address (IPv6 by /64, see [`address_key`]) and per address range
/// ([`connection_range`]).
#[derive(Debug)]
pub struct ConnectionLimits {
    max_total: usize,
    max_per_ip: usize,
    max_per_range: usize,
    range_prefixes: (u8, u8),
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_ip: HashMap<IpAddr, usize>,
    per_range: HashMap<IpNet, usize>,
}

/// One admitted connection; dropping it frees its place.
#[derive(Debug)]
pub struct ConnectionPermit {
    limits: Arc<ConnectionLimits>,
    /// The per-address key and range it counts under; `None` when it counts only toward the total.
    ip: Option<(IpAddr, IpNet)>,
}

/// Decrements `key`'s count, forgetting it at zero.
fn release<K: std::hash::Hash + Eq>(counts: &mut HashMap<K, usize>, key: &K) {
    if let Some(n) = counts.get_mut(key) {
        *n -= 1;
        if *n == 0 {
            counts.remove(key);
        }
    }
}

impl ConnectionLimits {
    /// Limits with the given maxima and no cap per address range.
    pub fn new(max_total: usize, max_per_ip: usize) -> Arc<ConnectionLimits> {
        ConnectionLimits::with_ranges(max_total, max_per_ip, usize::MAX, (32, 128))
    }

    /// Limits with the given maxima, address ranges being `range_prefixes` (IPv4, IPv6) bits long.
    pub fn with_ranges(
        max_total: usize,
        max_per_ip: usize,
        max_per_range: usize,
        range_prefixes: (u8, u8),
    ) -> Arc<ConnectionLimits> {
        Arc::new(ConnectionLimits {
            max_total,
            max_per_ip,
            max_per_range,
            range_prefixes,
            open: Mutex::default(),
        })
    }

    /// Admits a connection from `ip`, or `None` when a limit is reached.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<ConnectionPermit> {
        self.try_admit(ip).ok()
    }

    /// Admits a connection from `ip`, or says which cap refuses it.
    pub fn try_admit(self: &Arc<Self>, ip: IpAddr) -> Result<ConnectionPermit, Refusal> {
        let (v4, v6) = self.range_prefixes;
        let range = connection_range(ip, v4, v6);
        let ip = address_key(ip);
        let mut open = self.open.lock().expect("limits lock");
        if open.total >= self.max_total {
            return Err(Refusal::Total);
        }
        if open.per_ip.get(&ip).copied().unwrap_or(0) >= self.max_per_ip {
            return Err(Refusal::Address);
        }
        if open.per_range.get(&range).copied().unwrap_or(0) >= self.max_per_range {
            return Err(Refusal::Range);
        }
        open.total += 1;
        *open.per_ip.entry(ip).or_default() += 1;
        *open.per_range.entry(range).or_default() += 1;
        Ok(ConnectionPermit {
            limits: self.clone(),
            ip: Some((ip, range)),
        })
    }

    /// Admits a connection that counts only toward the total (one from a trusted proxy, which carries many
    /// clients), or `None` when the total is reached.
    pub fn admit_without_address(self: &Arc<Self>) -> Option<ConnectionPermit> {
        let mut open = self.open.lock().expect("limits lock");
        if open.total >= self.max_total {
            return None;
        }
        open.total += 1;
        Some(ConnectionPermit {
            limits: self.clone(),
            ip: None,
        })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.lock().expect("limits lock").total
    }
}

impl Drop for ConnectionPermit {
    fn drop(&mut self) {
        let mut open = self.limits.open.lock().expect("limits lock");
        open.total -= 1;
        if let Some((ip, range)) = &self.ip {
            release(&mut open.per_ip, ip);
            release(&mut open.per_range, range);
        }
    }
}

/// Counts each player's open connections (an account's, all its sessions together, or a guest's), so that one
/// token cannot hold hundreds of sockets (#35): a few tabs each.
#[derive(Debug)]
pub struct PlayerConnections {
    max: usize,
    open: Mutex<HashMap<Arc<str>, usize>>,
}

/// One admitted connection of a player; dropping it frees its place.
#[derive(Debug)]
pub struct PlayerPermit {
    limits: Arc<PlayerConnections>,
    player: Arc<str>,
}

impl PlayerPermit {
    /// The player it counts for.
    pub fn player(&self) -> &str {
        &self.player
    }
}

impl PlayerConnections {
    /// At most `max` connections per player.
    pub fn new(max: usize) -> Arc<PlayerConnections> {
        Arc::new(PlayerConnections {
            max,
            open: Mutex::default(),
        })
    }

    /// Admits one more connection of `player` (an identity's id), or `None` when it holds `max`.
    pub fn admit(self: &Arc<Self>, player: &str) -> Option<PlayerPermit> {
        let mut open = self.open.lock().expect("player limits lock");
        let here = open.get(player).copied().unwrap_or(0);
        if here >= self.max {
            return None;
        }
        let player: Arc<str> = player.into();
        open.insert(player.clone(), here + 1);
        Some(PlayerPermit {
            limits: self.clone(),
            player,
        })
    }

    /// The connections `player` holds now.
    pub fn open(&self, player: &str) -> usize {
        let open = self.open.lock().expect("player limits lock");
        open.get(player).copied().unwrap_or(0)
    }
}

impl Drop for PlayerPermit {
    fn drop(&mut self) {
        let mut open = self.limits.open.lock().expect("player limits lock");
        release(&mut open, &self.player);
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
    fn ranges_are_an_ipv4_24_and_an_ipv6_48_by_default() {
        let range = |ip: &str| connection_range(ip.parse().unwrap(), 24, 48).to_string();
        assert_eq!(range("203.0.113.77"), "203.0.113.0/24");
        assert_eq!(range("::ffff:203.0.113.77"), "203.0.113.0/24");
        assert_eq!(range("2001:db8:aa:bb:cc::1"), "2001:db8:aa::/48");
        assert_eq!(
            connection_range("10.1.2.3".parse().unwrap(), 40, 200).to_string(),
            "10.1.2.3/32"
        );
    }

    #[test]
    fn the_range_cap_admits_n_from_one_range_refuses_the_next_and_frees_a_place_on_drop() {
        let limits = ConnectionLimits::with_ranges(100, 2, 3, (24, 48));
        let ip = |s: &str| -> IpAddr { s.parse().unwrap() };
        let a1 = limits.try_admit(ip("198.51.100.1")).unwrap();
        let _a2 = limits.try_admit(ip("198.51.100.1")).unwrap();
        assert_eq!(
            limits.try_admit(ip("198.51.100.1")).unwrap_err(),
            Refusal::Address
        );
        let _b = limits.try_admit(ip("198.51.100.2")).unwrap();
        assert_eq!(
            limits.try_admit(ip("198.51.100.3")).unwrap_err(),
            Refusal::Range,
            "three in 198.51.100.0/24"
        );
        let _other = limits.try_admit(ip("198.51.101.1")).unwrap();
        drop(a1);
        let _c = limits.try_admit(ip("198.51.100.3")).unwrap();
        // IPv6 by /48: two /64s of one /48 share it.
        let _v1 = limits.try_admit(ip("2001:db8:1:1::1")).unwrap();
        let _v2 = limits.try_admit(ip("2001:db8:1:1::2")).unwrap();
        let _v3 = limits.try_admit(ip("2001:db8:1:2::1")).unwrap();
        assert_eq!(
            limits.try_admit(ip("2001:db8:1:3::1")).unwrap_err(),
            Refusal::Range
        );
        assert!(limits.try_admit(ip("2001:db8:2::1")).is_ok());
    }

    #[test]
    fn a_player_holds_at_most_n_connections_and_a_closed_one_frees_its_place() {
        let players = PlayerConnections::new(2);
        let first = players.admit("g1").unwrap();
        let _second = players.admit("g1").unwrap();
        assert!(players.admit("g1").is_none());
        assert!(players.admit("u7").is_some(), "another player");
        assert_eq!(players.open("g1"), 2);
        drop(first);
        assert_eq!(players.open("g1"), 1);
        assert!(players.admit("g1").is_some());
        drop(_second);
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
