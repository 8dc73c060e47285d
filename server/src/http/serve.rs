//! The TCP side of serving: the accept loop. Every connection is capped overall and per address before hyper sees
//! a byte of it, and keeps its place until it closes (after a WebSocket upgrade too, since the socket then owns
//! the stream). Each is served by hyper's HTTP/1 with a timer, so a client that sends headers slowly, or keeps a
//! connection open without sending its next request, is closed after `--header-read-secs`. Accept errors (the
//! process out of file descriptors) back off and retry rather than spin or stop.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use super::client_addr::{ClientAddr, TrustedProxies};
use crate::limits::{ConnectionLimits, ConnectionPermit};

/// The first pause after an accept error; it doubles with every further error, up to [`ACCEPT_BACKOFF_MAX`].
const ACCEPT_BACKOFF_MIN: Duration = Duration::from_millis(10);
/// The longest pause between accept attempts while they keep failing.
const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);
/// Largest request head (and read buffer) hyper keeps per connection: a slow client cannot make it hold more.
const MAX_BUF_BYTES: usize = 64 * 1024;
/// How long shutdown waits for HTTP requests in flight.
const DRAIN_HTTP: Duration = Duration::from_secs(10);

/// How connections are accepted and served.
#[derive(Clone, Debug)]
pub struct Transport {
    /// Open TCP connections overall and per address.
    pub limits: Arc<ConnectionLimits>,
    /// Proxies whose forwarding headers name the client; exempt from the per-address cap.
    pub proxies: TrustedProxies,
    /// How long a request head may take, counted from when the connection begins to wait for it.
    pub header_read_timeout: Duration,
}

/// Serves `app` on `listener` until `shutdown` completes; then stops accepting, lets requests in flight finish
/// (idle connections close at once) and returns. Upgraded sockets are not waited for: they close through the
/// application's own shutdown signal.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    transport: Transport,
    shutdown: impl Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    // Every connection task holds a receiver: closing the sender asks them to finish, and `closed()` tells when
    // the last one has.
    let (closing, closing_rx) = watch::channel(false);
    let transport = Arc::new(transport);
    let mut backoff = ACCEPT_BACKOFF_MIN;
    loop {
        let accepted = tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => {
                backoff = ACCEPT_BACKOFF_MIN;
                accepted
            }
            // The client gave up before we took the connection: nothing to do.
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                tracing::error!(error = %e, retry_in = ?backoff, "accept failed");
                tokio::select! {
                    biased;
                    () = &mut shutdown => break,
                    () = tokio::time::sleep(backoff) => {}
                }
                backoff = (backoff * 2).min(ACCEPT_BACKOFF_MAX);
                continue;
            }
        };
        let permit = if transport.proxies.contains(peer.ip()) {
            transport.limits.admit_without_address()
        } else {
            transport.limits.admit(peer.ip())
        };
        let Some(permit) = permit else {
            // Closed at once, so the file descriptor is free again before the next accept.
            tracing::debug!(%peer, "too many connections; closing");
            drop(tcp);
            continue;
        };
        // Moves are small frames that must leave at once: without TCP_NODELAY an event can wait for the client's
        // delayed ACK (about 40 ms), which the load tests saw as a 22 ms median per move even at light load.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        let io = Admitted {
            stream: tcp,
            _permit: permit,
        };
        tokio::spawn(connection(
            io,
            peer,
            app.clone(),
            transport.clone(),
            closing_rx.clone(),
        ));
    }
    drop(listener);
    drop(closing_rx);
    closing.send_replace(true);
    if tokio::time::timeout(DRAIN_HTTP, closing.closed())
        .await
        .is_err()
    {
        tracing::warn!("some HTTP requests did not finish in time");
    }
}

/// Serves one connection until it closes, is upgraded, or times out.
async fn connection(
    io: Admitted,
    peer: SocketAddr,
    app: Router,
    transport: Arc<Transport>,
    mut closing: watch::Receiver<bool>,
) {
    let proxies = transport.proxies.clone();
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        let client = ClientAddr::resolve(peer, req.headers(), &proxies);
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(client);
        tower_service::Service::call(&mut app.clone(), req)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(transport.header_read_timeout)
        .max_buf_size(MAX_BUF_BYTES);
    let conn = builder
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut asked_to_close = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(%peer, error = %e, "connection ended");
                }
                break;
            }
            _ = closing.wait_for(|&c| c), if !asked_to_close => {
                // Finishes the request in flight, if any, then closes.
                conn.as_mut().graceful_shutdown();
                asked_to_close = true;
            }
        }
    }
}

/// Errors of one connection that the client caused, not the listener.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// An accepted TCP stream with its place under the connection caps, which it frees when dropped.
struct Admitted {
    stream: TcpStream,
    _permit: ConnectionPermit,
}

impl AsyncRead for Admitted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Admitted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
