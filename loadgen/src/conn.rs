//! One client WebSocket: the loopback-only target, connecting from a chosen source address with small buffers,
//! and sending and reading protocol frames.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use anyhow::{bail, Context};
use futures_util::SinkExt;
use protocol::{ClientMessage, DecodeError, Frame, ServerMessage};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// A client socket as loadgen uses it.
pub type Ws = WebSocketStream<TcpStream>;

/// Per-connection read and write buffer, in bytes. tungstenite's default read buffer is 128 KiB, which would cost
/// loadgen 2.4 GiB at 19,000 connections; game frames are a few hundred bytes.
pub const CLIENT_BUFFER: usize = 4096;

/// Where loadgen connects: a `ws://` URL whose host is a loopback address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The server's socket address.
    pub addr: SocketAddr,
    /// The URL as given (host, port and path), for the handshake.
    pub url: String,
}

impl Target {
    /// Parses `ws://HOST:PORT/PATH`. Only loopback hosts are accepted: loadgen is a tool for this machine, not a
    /// way to flood someone else's server.
    pub fn parse(url: &str) -> anyhow::Result<Target> {
        let rest = url
            .strip_prefix("ws://")
            .context("the target must be a ws:// URL")?;
        let (hostport, _path) = rest.split_once('/').unwrap_or((rest, ""));
        let (host, port) = hostport
            .rsplit_once(':')
            .context("the target needs an explicit port")?;
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let ip: IpAddr = if host == "localhost" {
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        } else {
            host.parse()
                .with_context(|| format!("{host} is not an IP address or localhost"))?
        };
        if !ip.is_loopback() {
            bail!("refusing {ip}: loadgen only targets loopback addresses");
        }
        let port: u16 = port.parse().context("bad port")?;
        Ok(Target {
            addr: SocketAddr::new(ip, port),
            url: url.to_owned(),
        })
    }

    /// The HTTP base URL of the same server (`http://HOST:PORT`).
    pub fn http_base(&self) -> String {
        format!("http://{}", self.addr)
    }
}

/// The source address of the `index`-th connection when connections are spread over `spread` loopback
/// addresses (127.0.0.1, 127.0.0.2, …), so that a per-address connection limit or the ephemeral port range of one
/// address does not cap a run.
pub fn source_ip(index: usize, spread: usize) -> Option<IpAddr> {
    if spread <= 1 {
        return None;
    }
    let n = (index % spread.min(250)) as u8;
    Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1 + n)))
}

/// Opens a WebSocket to `target`, from `source` when given.
pub async fn connect(target: &Target, source: Option<IpAddr>) -> anyhow::Result<Ws> {
    let socket = if target.addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    if let Some(ip) = source {
        socket
            .bind(SocketAddr::new(ip, 0))
            .with_context(|| format!("binding {ip}"))?;
    }
    let stream = socket.connect(target.addr).await?;
    stream.set_nodelay(true)?;
    let config = WebSocketConfig::default()
        .read_buffer_size(CLIENT_BUFFER)
        .write_buffer_size(0);
    let (ws, _) =
        tokio_tungstenite::client_async_with_config(target.url.as_str(), stream, Some(config))
            .await?;
    Ok(ws)
}

/// Sends one client message (as the typed client's `Connection::send_as` does, on loadgen's socket type).
pub async fn send(ws: &mut Ws, msg: &ClientMessage, rid: Option<u64>) -> anyhow::Result<()> {
    ws.send(Message::text(protocol::encode(msg, rid))).await?;
    Ok(())
}

/// Reads a server frame: the typed client's [`client::decode`] (servers are trusted to stay under any size).
pub fn parse(text: &str) -> Result<Frame<ServerMessage>, DecodeError> {
    client::decode(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_targets_are_accepted() {
        let t = Target::parse("ws://127.0.0.1:8080/ws").unwrap();
        assert_eq!(t.addr, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(t.http_base(), "http://127.0.0.1:8080");
        assert!(Target::parse("ws://localhost:9/ws").is_ok());
        assert!(Target::parse("ws://[::1]:9/ws").is_ok());
        assert!(Target::parse("ws://127.3.2.1:9/").is_ok());
    }

    #[test]
    fn other_targets_are_refused() {
        for url in [
            "ws://10.0.0.1:8080/ws",
            "ws://example.com:80/ws",
            "http://127.0.0.1:8080/ws",
            "ws://127.0.0.1/ws",
            "ws://192.168.1.1:1/",
        ] {
            assert!(Target::parse(url).is_err(), "{url}");
        }
    }

    #[test]
    fn source_addresses_cycle_through_loopback() {
        assert_eq!(source_ip(5, 1), None);
        assert_eq!(source_ip(0, 4), Some("127.0.0.1".parse().unwrap()));
        assert_eq!(source_ip(5, 4), Some("127.0.0.2".parse().unwrap()));
    }
}
