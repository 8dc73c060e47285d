//! Where a request comes from: the one place that decides a client's address. A connection's own peer address is
//! its client's, unless the peer is a configured trusted proxy; then the client is the address that proxy names in
//! its forwarding header (`X-Forwarded-For` or `Forwarded`, whichever the operator says the proxy sets).
//!
//! The accept loop ([`super::serve`]) resolves a [`ClientAddr`] for every request and puts it into the request's
//! extensions; handlers take it with the [`ClientAddr`] extractor (any router state), code holding only the
//! extensions calls [`ClientAddr::of`].

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap};
use ipnet::IpNet;

use crate::config::ForwardedHeader;
use crate::Config;

/// The reverse proxies whose forwarding headers are believed, and which header they set.
#[derive(Clone, Debug)]
pub struct TrustedProxies {
    nets: Vec<IpNet>,
    header: ForwardedHeader,
}

impl TrustedProxies {
    /// The proxies of the configuration (`--trusted-proxies`, `--forwarded-header`).
    pub fn from_config(config: &Config) -> TrustedProxies {
        TrustedProxies::new(config.trusted_proxies.clone(), config.forwarded_header)
    }

    /// Proxies in `nets` that name clients in `header`.
    pub fn new(nets: Vec<IpNet>, header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies { nets, header }
    }

    /// Whether a connection from `ip` comes from a trusted proxy.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.nets.iter().any(|net| net.contains(&ip))
    }
}

/// A request's client as the server sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr {
    /// The client's address: the peer's, or the one a trusted proxy forwarded.
    pub ip: IpAddr,
    /// The TCP peer the request arrived from (the proxy itself when there is one).
    pub peer: SocketAddr,
    /// Whether a trusted proxy says the client reached it over HTTPS.
    pub https: bool,
}

impl ClientAddr {
    /// The client of a request that arrived from `peer` with `headers`. Forwarding headers count only when `peer`
    /// is a trusted proxy; the client is then the nearest address in them that is not itself a trusted proxy
    /// (addresses further left were written by whoever talked to that proxy, so anyone may have forged them).
    pub fn resolve(peer: SocketAddr, headers: &HeaderMap, proxies: &TrustedProxies) -> ClientAddr {
        let direct = ClientAddr {
            ip: canonical(peer.ip()),
            peer,
            https: false,
        };
        if !proxies.contains(peer.ip()) {
            return direct;
        }
        let hops = match proxies.header {
            ForwardedHeader::XForwardedFor => x_forwarded_for(headers),
            ForwardedHeader::Forwarded => forwarded(headers),
        };
        let mut ip = direct.ip;
        let mut proto = None;
        for hop in hops.into_iter().rev() {
            // An unreadable entry ("unknown", an obfuscated name) ends the chain: the last proxy is all we know.
            let Some(addr) = hop.addr else { break };
            ip = addr;
            proto = hop.proto.or(proto);
            if !proxies.contains(addr) {
                break;
            }
        }
        let proto = match proxies.header {
            ForwardedHeader::XForwardedFor => last_value(headers, "x-forwarded-proto"),
            ForwardedHeader::Forwarded => proto,
        };
        ClientAddr {
            ip,
            peer,
            https: proto.is_some_and(|p| p.eq_ignore_ascii_case("https")),
        }
    }

    /// The client of a request from its extensions: the resolved [`ClientAddr`], else the bare peer address
    /// (a router served without [`super::serve`]); `None` when neither is there.
    pub fn of(extensions: &Extensions) -> Option<ClientAddr> {
        extensions.get::<ClientAddr>().copied().or_else(|| {
            extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|ConnectInfo(peer)| ClientAddr {
                    ip: canonical(peer.ip()),
                    peer: *peer,
                    https: false,
                })
        })
    }
}

/// Takes the request's client. Without connect info every client shares the unspecified address, so limits keyed
/// by it still hold, only more tightly.
impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<ClientAddr, Infallible> {
        Ok(ClientAddr::of(&parts.extensions).unwrap_or(ClientAddr {
            ip: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            peer: SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0),
            https: false,
        }))
    }
}

/// An IPv4-mapped IPv6 address (a dual-stack socket's view of an IPv4 client) as the IPv4 address it is.
fn canonical(ip: IpAddr) -> IpAddr {
    ip.to_canonical()
}

/// One hop of a forwarding header: the address it names (if readable) and, for `Forwarded`, its `proto`.
struct Hop {
    addr: Option<IpAddr>,
    proto: Option<String>,
}

/// Every comma-separated entry of every `name` header line, in order.
fn entries<'a>(headers: &'a HeaderMap, name: &str) -> impl Iterator<Item = &'a str> {
    headers
        .get_all(name)
        .into_iter()
        .flat_map(|v| v.to_str().unwrap_or("").split(','))
        .map(str::trim)
}

fn x_forwarded_for(headers: &HeaderMap) -> Vec<Hop> {
    entries(headers, "x-forwarded-for")
        .map(|e| Hop {
            addr: parse_node(e),
            proto: None,
        })
        .collect()
}

/// RFC 7239: `Forwarded: for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"`.
fn forwarded(headers: &HeaderMap) -> Vec<Hop> {
    entries(headers, "forwarded")
        .map(|element| {
            let mut hop = Hop {
                addr: None,
                proto: None,
            };
            for pair in element.split(';') {
                let Some((key, value)) = pair.split_once('=') else {
                    continue;
                };
                let value = value.trim().trim_matches('"');
                match key.trim().to_ascii_lowercase().as_str() {
                    "for" => hop.addr = parse_node(value),
                    "proto" => hop.proto = Some(value.to_owned()),
                    _ => {}
                }
            }
            hop
        })
        .collect()
}

/// The last comma-separated value of a header: the one the nearest proxy wrote.
fn last_value(headers: &HeaderMap, name: &str) -> Option<String> {
    entries(headers, name)
        .filter(|e| !e.is_empty())
        .last()
        .map(str::to_owned)
}

/// An address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1` or `[2001:db8::1]:4711`.
fn parse_node(s: &str) -> Option<IpAddr> {
    let s = s.trim();
    if let Ok(ip) = s.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    if let Ok(sa) = s.parse::<SocketAddr>() {
        return Some(canonical(sa.ip()));
    }
    s.strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|inner| inner.parse::<IpAddr>().ok())
        .map(canonical)
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn proxies(header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies::new(
            vec!["10.0.0.0/8".parse().unwrap(), "::1/128".parse().unwrap()],
            header,
        )
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn client(peer: &str, pairs: &[(&'static str, &str)], header: ForwardedHeader) -> ClientAddr {
        ClientAddr::resolve(peer.parse().unwrap(), &headers(pairs), &proxies(header))
    }

    const XFF: ForwardedHeader = ForwardedHeader::XForwardedFor;

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let c = client(
            "203.0.113.9:5000",
            &[
                ("x-forwarded-for", "198.51.100.1"),
                ("x-forwarded-proto", "https"),
            ],
            XFF,
        );
        assert_eq!(c.ip.to_string(), "203.0.113.9");
        assert!(!c.https);
    }

    #[test]
    fn a_trusted_proxy_names_the_client_in_x_forwarded_for() {
        let c = client(
            "10.1.2.3:5000",
            &[
                ("x-forwarded-for", "198.51.100.1"),
                ("x-forwarded-proto", "https"),
            ],
            XFF,
        );
        assert_eq!(c.ip.to_string(), "198.51.100.1");
        assert_eq!(c.peer.to_string(), "10.1.2.3:5000");
        assert!(c.https);
    }

    #[test]
    fn the_client_is_the_nearest_untrusted_hop_so_forged_entries_on_the_left_do_not_count() {
        let c = client(
            "10.1.2.3:5000",
            &[
                ("x-forwarded-for", "1.1.1.1, 198.51.100.1"),
                ("x-forwarded-for", "10.9.9.9"),
            ],
            XFF,
        );
        assert_eq!(c.ip.to_string(), "198.51.100.1");
    }

    #[test]
    fn a_trusted_proxy_without_a_header_is_its_own_client() {
        assert_eq!(client("10.1.2.3:5000", &[], XFF).ip.to_string(), "10.1.2.3");
        let garbage = client("10.1.2.3:5000", &[("x-forwarded-for", "unknown")], XFF);
        assert_eq!(garbage.ip.to_string(), "10.1.2.3");
    }

    #[test]
    fn addresses_with_ports_and_brackets_are_read() {
        let c = client(
            "[::1]:5000",
            &[("x-forwarded-for", "[2001:db8::7]:4711")],
            XFF,
        );
        assert_eq!(c.ip.to_string(), "2001:db8::7");
        let c = client("10.0.0.1:1", &[("x-forwarded-for", "192.0.2.4:80")], XFF);
        assert_eq!(c.ip.to_string(), "192.0.2.4");
    }

    #[test]
    fn forwarded_is_read_only_when_configured() {
        let pairs = [(
            "forwarded",
            r#"for=192.0.2.60;proto=https;by=203.0.113.43, for="[2001:db8:cafe::17]:4711";proto=https"#,
        )];
        let c = client("10.0.0.1:1", &pairs, ForwardedHeader::Forwarded);
        assert_eq!(c.ip.to_string(), "2001:db8:cafe::17");
        assert!(c.https);
        let ignored = client("10.0.0.1:1", &pairs, XFF);
        assert_eq!(ignored.ip.to_string(), "10.0.0.1");
    }

    #[test]
    fn ipv4_mapped_peers_are_ipv4() {
        let c = client("[::ffff:203.0.113.9]:5000", &[], XFF);
        assert_eq!(c.ip.to_string(), "203.0.113.9");
        assert!(
            TrustedProxies::new(vec!["10.0.0.0/8".parse().unwrap()], XFF)
                .contains("::ffff:10.0.0.1".parse().unwrap())
        );
    }
}
