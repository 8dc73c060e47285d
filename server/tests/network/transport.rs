//! The transport under attack, over real sockets against the real app on port 0: slowloris (half-sent requests),
//! idle keep-alive connections, slow bodies, TCP connections per address, sockets that never say `hello`, and a
//! fake reverse proxy whose forwarded addresses the per-address limits must count (and an untrusted peer's must
//! not). Then the HTTP side: the cross-site check on state-changing requests, security headers and `/metrics`.
//!
//! Timeouts are set to one second here, so each test that waits for one takes about a second of real time.

use crate::common;

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use common::{test_config, Db, TestServer};
use futures_util::{SinkExt, StreamExt};
use protocol::{code, ClientMessage, ServerMessage};
use server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// How long a test waits for the server to close a connection it should close.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// The fake proxy's address: the only trusted one.
const PROXY: &str = "127.0.0.1";
/// A client talking to the server directly (Linux routes all of 127/8 to loopback).
const DIRECT: &str = "127.0.0.2";

async fn start(config: Config) -> (TestServer, Db) {
    let db = Db::sqlite();
    let server = TestServer::start_on(&db, config).await;
    (server, db)
}

/// A TCP connection to the server from `source`.
async fn tcp_from(addr: SocketAddr, source: &str) -> TcpStream {
    let source: IpAddr = source.parse().unwrap();
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(source, 0)).unwrap();
    socket.connect(addr).await.expect("tcp connect")
}

/// Waits until the server closes `s` (end of stream or reset), returning how long that took, or `None` if it
/// stays open for [`CLOSE_WAIT`]. Anything the server sends first is read and dropped.
async fn closed_within(s: &mut TcpStream) -> Option<Duration> {
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    let closed = tokio::time::timeout(CLOSE_WAIT, async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => continue,
            }
        }
    })
    .await;
    closed.ok().map(|()| started.elapsed())
}

/// One HTTP/1.1 request from `source` with extra header lines; the status, lower-cased head and body.
async fn http(
    addr: SocketAddr,
    source: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let mut s = tcp_from(addr, source).await;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() {
        req.push_str("Content-Type: application/json\r\n");
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut raw))
        .await
        .expect("an answer in time")
        .expect("read");
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").expect("an HTTP head");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_owned())
}

fn json_code(body: &str) -> String {
    let v: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|_| panic!("JSON: {body}"));
    v["code"].as_str().expect("a code").to_owned()
}

fn behind_proxy(config: Config) -> Config {
    Config {
        trusted_proxies: vec![format!("{PROXY}/32").parse().unwrap()],
        ..config
    }
}

type Ws = WebSocketStream<TcpStream>;

/// A WebSocket from `source` whose upgrade request carries `headers`.
async fn ws_from(addr: SocketAddr, source: &str, headers: &[(&'static str, &str)]) -> Ws {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    for (k, v) in headers {
        request.headers_mut().insert(*k, v.parse().unwrap());
    }
    let tcp = tcp_from(addr, source).await;
    let (ws, _) = tokio_tungstenite::client_async(request, tcp)
        .await
        .expect("upgrade");
    ws
}

/// Says hello; the server's answer.
async fn hello(ws: &mut Ws) -> ServerMessage {
    let hello = ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: None,
    };
    ws.send(Message::Text(protocol::encode(&hello, Some(1)).into()))
        .await
        .unwrap();
    next_message(ws).await
}

async fn next_message(ws: &mut Ws) -> ServerMessage {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame in time")
        {
            Some(Ok(Message::Text(t))) => {
                return protocol::decode::<ServerMessage>(&t, usize::MAX)
                    .unwrap()
                    .msg
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

/// How a socket ended: the close code, `None` for a drop without one; panics if it stays open.
async fn close_code(ws: &mut Ws) -> Option<u16> {
    loop {
        match tokio::time::timeout(CLOSE_WAIT, ws.next())
            .await
            .expect("the server closes the socket in time")
        {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return None,
        }
    }
}

// --- Slowloris, idle connections, slow bodies -------------------------------------------------------------

fn one_second_timeouts() -> Config {
    Config {
        header_read_secs: 1,
        request_secs: 1,
        ..test_config()
    }
}

#[tokio::test]
async fn a_slowloris_client_dribbling_headers_is_closed_after_the_header_read_timeout() {
    let (server, _db) = start(one_second_timeouts()).await;
    let mut s = tcp_from(server.addr, DIRECT).await;
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // A header line every 300 ms: the connection is never idle, but the head never ends.
    let dribble = async {
        for i in 0..30 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if s.write_all(format!("X-{i}: y\r\n").as_bytes())
                .await
                .is_err()
            {
                break;
            }
        }
    };
    let started = Instant::now();
    dribble.await;
    let mut s2 = s;
    let elapsed = closed_within(&mut s2).await.map(|_| started.elapsed());
    let elapsed = elapsed.expect("the half-sent request was closed");
    assert!(elapsed < Duration::from_millis(2500), "{elapsed:?}");
    server.stop().await;
}

#[tokio::test]
async fn many_half_sent_requests_are_all_closed_and_the_server_keeps_answering() {
    let (server, _db) = start(one_second_timeouts()).await;
    let mut held = Vec::new();
    for _ in 0..200 {
        let mut s = tcp_from(server.addr, DIRECT).await;
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        held.push(s);
    }
    let started = Instant::now();
    for s in &mut held {
        assert!(
            closed_within(s).await.is_some(),
            "a half-sent request stayed open"
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let (status, _, _) = http(server.addr, DIRECT, "GET", "/api/health", &[], "").await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_header_read_timeout() {
    let (server, _db) = start(one_second_timeouts()).await;
    let mut s = tcp_from(server.addr, DIRECT).await;
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 4096];
    let n = s.read(&mut buf).await.unwrap();
    assert!(
        buf[..n].starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&buf[..n])
    );
    let waited = closed_within(&mut s)
        .await
        .expect("the idle connection was closed");
    assert!(
        (Duration::from_millis(800)..Duration::from_millis(2500)).contains(&waited),
        "{waited:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_request_whose_body_never_arrives_gets_408() {
    let (server, _db) = start(one_second_timeouts()).await;
    let mut s = tcp_from(server.addr, DIRECT).await;
    s.write_all(
        b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"user",
    )
    .await
    .unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(CLOSE_WAIT, s.read_to_end(&mut raw))
        .await
        .expect("an answer in time")
        .unwrap();
    let raw = String::from_utf8_lossy(&raw);
    assert!(raw.starts_with("HTTP/1.1 408"), "{raw}");
    assert_eq!(
        json_code(raw.split_once("\r\n\r\n").unwrap().1),
        "request_timeout"
    );
    server.stop().await;
}

// --- TCP connections per address ----------------------------------------------------------------------------

#[tokio::test]
async fn tcp_connections_past_the_per_address_cap_are_closed_at_once_and_others_still_get_in() {
    let (server, _db) = start(Config {
        max_tcp_connections_per_ip: 3,
        ..test_config()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(tcp_from(server.addr, DIRECT).await);
    }
    // The server takes them in order: once the fourth is closed, the first three hold their places.
    let mut fourth = tcp_from(server.addr, DIRECT).await;
    let waited = closed_within(&mut fourth)
        .await
        .expect("the fourth was closed");
    assert!(waited < Duration::from_millis(500), "{waited:?}");
    let (status, _, _) = http(server.addr, "127.0.0.3", "GET", "/api/health", &[], "").await;
    assert_eq!(status, 200, "another address gets in");
    drop(held.pop());
    // Its place is free once the server has seen it close.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _, _) = http(server.addr, DIRECT, "GET", "/api/health", &[], "").await;
    assert_eq!(status, 200, "a freed place is taken again");
    server.stop().await;
}

#[tokio::test]
async fn upgraded_websockets_keep_their_tcp_place_under_the_per_address_cap() {
    let (server, _db) = start(Config {
        max_tcp_connections_per_ip: 2,
        ..test_config()
    })
    .await;
    let mut a = ws_from(server.addr, DIRECT, &[]).await;
    let mut b = ws_from(server.addr, DIRECT, &[]).await;
    assert!(matches!(hello(&mut a).await, ServerMessage::Welcome { .. }));
    assert!(matches!(hello(&mut b).await, ServerMessage::Welcome { .. }));
    let mut third = tcp_from(server.addr, DIRECT).await;
    assert!(
        closed_within(&mut third).await.is_some(),
        "a third connection was let in"
    );
    server.stop().await;
}

// --- Sockets that never say hello -----------------------------------------------------------------------------

#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed_with_1008_even_while_it_answers_pings() {
    let (server, _db) = start(Config {
        hello_secs: 1,
        ping_secs: 1,
        ..test_config()
    })
    .await;
    let mut silent = ws_from(server.addr, DIRECT, &[]).await;
    let started = Instant::now();
    // Reading answers the server's pings, as a browser would.
    match next_message(&mut silent).await {
        ServerMessage::Error { code: c, .. } => assert_eq!(c, code::HELLO_REQUIRED),
        other => panic!("expected hello_required, got {other:?}"),
    }
    assert_eq!(close_code(&mut silent).await, Some(1008));
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
    server.stop().await;
}

#[tokio::test]
async fn a_socket_that_said_hello_lives_past_the_hello_deadline() {
    let (server, _db) = start(Config {
        hello_secs: 1,
        ..test_config()
    })
    .await;
    let mut ws = ws_from(server.addr, DIRECT, &[]).await;
    assert!(matches!(
        hello(&mut ws).await,
        ServerMessage::Welcome { .. }
    ));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let ping = ClientMessage::Ping {};
    ws.send(Message::Text(protocol::encode(&ping, Some(2)).into()))
        .await
        .unwrap();
    assert_eq!(next_message(&mut ws).await, ServerMessage::Pong {});
    server.stop().await;
}

// --- A fake reverse proxy --------------------------------------------------------------------------------------

async fn junk_login(server: &TestServer, source: &str, headers: &[(&str, &str)]) -> u16 {
    let body = r#"{"username":"nobody_here","password":"not the password"}"#;
    http(server.addr, source, "POST", "/api/login", headers, body)
        .await
        .0
}

fn login_limit_of_two(config: Config) -> Config {
    Config {
        password_memory_kib: 64,
        login_burst_per_ip: 2,
        login_burst_per_account: 1000,
        ..config
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_one_client_using_up_its_logins_does_not_lock_out_the_others() {
    let (server, _db) = start(behind_proxy(login_limit_of_two(test_config()))).await;
    let attacker = [("X-Forwarded-For", "198.51.100.66")];
    assert_eq!(junk_login(&server, PROXY, &attacker).await, 401);
    assert_eq!(junk_login(&server, PROXY, &attacker).await, 401);
    assert_eq!(junk_login(&server, PROXY, &attacker).await, 429);
    let someone_else = [("X-Forwarded-For", "203.0.113.5")];
    assert_eq!(junk_login(&server, PROXY, &someone_else).await, 401);
    server.stop().await;
}

#[tokio::test]
async fn a_peer_that_is_not_a_trusted_proxy_cannot_choose_its_address_with_x_forwarded_for() {
    let (server, _db) = start(behind_proxy(login_limit_of_two(test_config()))).await;
    for (i, expected) in [401, 401, 429].into_iter().enumerate() {
        let forged = format!("198.51.100.{i}");
        let status = junk_login(&server, DIRECT, &[("X-Forwarded-For", &forged)]).await;
        assert_eq!(status, expected, "attempt {i}");
    }
    server.stop().await;
}

#[tokio::test]
async fn without_trusted_proxies_forwarding_headers_are_ignored() {
    let (server, _db) = start(login_limit_of_two(test_config())).await;
    for (i, expected) in [401, 401, 429].into_iter().enumerate() {
        let forged = format!("198.51.100.{i}");
        let status = junk_login(&server, PROXY, &[("X-Forwarded-For", &forged)]).await;
        assert_eq!(status, expected, "attempt {i}");
    }
    server.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_websocket_cap_counts_each_forwarded_client_and_ipv6_by_64() {
    let (server, _db) = start(behind_proxy(Config {
        max_connections_per_ip: 2,
        max_tcp_connections_per_ip: 2,
        ..test_config()
    }))
    .await;
    // Two addresses of one /64 fill its two places; the proxy itself is not held to the TCP cap of 2.
    let mut held = Vec::new();
    for ip in ["2001:db8:1:2::1", "2001:db8:1:2::2"] {
        let mut ws = ws_from(server.addr, PROXY, &[("x-forwarded-for", ip)]).await;
        assert!(
            matches!(hello(&mut ws).await, ServerMessage::Welcome { .. }),
            "{ip}"
        );
        held.push(ws);
    }
    let mut same_64 = ws_from(
        server.addr,
        PROXY,
        &[("x-forwarded-for", "2001:db8:1:2:ffff::3")],
    )
    .await;
    match next_message(&mut same_64).await {
        ServerMessage::Error { code: c, .. } => assert_eq!(c, code::TOO_MANY_CONNECTIONS),
        other => panic!("expected too_many_connections, got {other:?}"),
    }
    assert_eq!(close_code(&mut same_64).await, Some(1013));
    for ip in ["2001:db8:1:3::1", "198.51.100.7"] {
        let mut ws = ws_from(server.addr, PROXY, &[("x-forwarded-for", ip)]).await;
        assert!(
            matches!(hello(&mut ws).await, ServerMessage::Welcome { .. }),
            "{ip}"
        );
        held.push(ws);
    }
    server.stop().await;
}

// --- Cross-site requests ------------------------------------------------------------------------------------------

#[tokio::test]
async fn a_cross_site_post_is_refused_with_403_and_a_json_body() {
    let (server, _db) = start(test_config()).await;
    for headers in [
        vec![("Origin", "https://evil.test")],
        vec![
            ("Sec-Fetch-Site", "cross-site"),
            ("Origin", "https://evil.test"),
        ],
        vec![("Sec-Fetch-Site", "same-site")],
        vec![("Origin", "null")],
    ] {
        let (status, head, body) =
            http(server.addr, DIRECT, "POST", "/api/logout", &headers, "").await;
        assert_eq!(status, 403, "{headers:?}");
        assert_eq!(json_code(&body), "cross_site_request", "{headers:?}");
        assert!(!head.contains("set-cookie"), "{head}");
    }
    server.stop().await;
}

/// A WebSocket upgrade from `source` with `headers` that the server must refuse: its status and body.
async fn ws_refused(
    addr: SocketAddr,
    source: &str,
    headers: &[(&'static str, &str)],
) -> (u16, String) {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    for (k, v) in headers {
        request.headers_mut().insert(*k, v.parse().unwrap());
    }
    let tcp = tcp_from(addr, source).await;
    match tokio_tungstenite::client_async(request, tcp).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => (
            response.status().as_u16(),
            String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into_owned(),
        ),
        Ok(_) => panic!("the upgrade with {headers:?} was accepted"),
        Err(e) => panic!("the upgrade with {headers:?} failed otherwise: {e}"),
    }
}

#[tokio::test]
async fn another_sites_page_gets_no_socket_and_spends_no_guest() {
    // One new guest per address: had another site's page made one, the site's own page would get none.
    let config = Config {
        guest_burst_per_ip: 1,
        ..test_config()
    };
    let (server, _db) = start(config).await;
    for headers in [
        vec![("Origin", "https://evil.test")],
        vec![("Origin", "null")],
        vec![
            ("Sec-Fetch-Site", "cross-site"),
            ("Origin", "https://evil.test"),
        ],
    ] {
        let (status, body) = ws_refused(server.addr, DIRECT, &headers).await;
        assert_eq!(status, 403, "{headers:?}");
        assert_eq!(json_code(&body), "cross_site_request", "{headers:?}");
    }
    assert_eq!(server.state.limits.open(), 0, "no socket was counted");
    let own = format!("http://{}", server.addr);
    let mut ws = ws_from(server.addr, DIRECT, &[("Origin", own.as_str())]).await;
    match hello(&mut ws).await {
        ServerMessage::Welcome { you, .. } => assert!(you.guest),
        other => panic!("expected welcome, got {other:?}"),
    }
    server.stop().await;
}

#[tokio::test]
async fn same_origin_and_non_browser_posts_pass_the_cross_site_check() {
    let (server, _db) = start(test_config()).await;
    let origin = format!("http://{}", server.addr);
    for headers in [
        vec![
            ("Sec-Fetch-Site", "same-origin"),
            ("Origin", origin.as_str()),
        ],
        vec![("Origin", origin.as_str())],
        vec![],
    ] {
        let (status, _, _) = http(server.addr, DIRECT, "POST", "/api/logout", &headers, "").await;
        assert_ne!(status, 403, "{headers:?}");
    }
    server.stop().await;
}

// --- Security headers --------------------------------------------------------------------------------------------

#[tokio::test]
async fn every_response_carries_the_security_headers_and_no_hsts_over_plain_http() {
    let (server, _db) = start(test_config()).await;
    for path in ["/", "/js/main.js", "/api/health", "/api/games/999999"] {
        let (_, head, _) = http(server.addr, DIRECT, "GET", path, &[], "").await;
        let csp = head
            .lines()
            .find_map(|l| l.strip_prefix("content-security-policy: "))
            .unwrap_or_else(|| panic!("no CSP on {path}: {head}"));
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(directive), "{path}: {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert!(
            head.contains("x-content-type-options: nosniff"),
            "{path}: {head}"
        );
        assert!(
            head.contains("referrer-policy: same-origin"),
            "{path}: {head}"
        );
        assert!(head.contains("x-frame-options: deny"), "{path}: {head}");
        assert!(
            !head.contains("strict-transport-security"),
            "{path}: {head}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn hsts_is_sent_when_the_site_is_served_over_https() {
    let (server, _db) = start(Config {
        secure_cookies: true,
        ..test_config()
    })
    .await;
    let (_, head, _) = http(server.addr, DIRECT, "GET", "/", &[], "").await;
    assert!(
        head.contains("strict-transport-security: max-age=31536000"),
        "{head}"
    );
    server.stop().await;
}

#[tokio::test]
async fn hsts_follows_a_trusted_proxys_x_forwarded_proto_only() {
    let (server, _db) = start(behind_proxy(test_config())).await;
    let https = [
        ("X-Forwarded-For", "198.51.100.1"),
        ("X-Forwarded-Proto", "https"),
    ];
    let (_, head, _) = http(server.addr, PROXY, "GET", "/", &https, "").await;
    assert!(head.contains("strict-transport-security"), "{head}");
    let (_, head, _) = http(server.addr, DIRECT, "GET", "/", &https, "").await;
    assert!(
        !head.contains("strict-transport-security"),
        "untrusted peer: {head}"
    );
    server.stop().await;
}

// --- /metrics ---------------------------------------------------------------------------------------------------

#[tokio::test]
async fn metrics_are_refused_to_clients_that_are_not_on_this_host() {
    let (server, _db) = start(behind_proxy(test_config())).await;
    let (status, _, body) = http(server.addr, DIRECT, "GET", "/metrics", &[], "").await;
    assert_eq!(status, 200, "loopback: {body}");
    let public = [("X-Forwarded-For", "198.51.100.1")];
    let (status, _, body) = http(server.addr, PROXY, "GET", "/metrics", &public, "").await;
    assert_eq!(status, 403, "through the proxy: {body}");
    assert_eq!(json_code(&body), "metrics_forbidden");
    // An unconfigured proxy on this host passing a request on looks like loopback; its header gives it away.
    let (status, _, _) = http(server.addr, DIRECT, "GET", "/metrics", &public, "").await;
    assert_eq!(status, 403);
    server.stop().await;
}

#[tokio::test]
async fn with_a_metrics_token_metrics_need_it_as_a_bearer_token() {
    let (server, _db) = start(Config {
        metrics_token: Some("scrape-me".into()),
        ..test_config()
    })
    .await;
    let (status, head, body) = http(server.addr, DIRECT, "GET", "/metrics", &[], "").await;
    assert_eq!(status, 401);
    assert_eq!(json_code(&body), "not_authenticated");
    assert!(head.contains("www-authenticate: bearer"), "{head}");
    let wrong = [("Authorization", "Bearer scrape-you")];
    assert_eq!(
        http(server.addr, DIRECT, "GET", "/metrics", &wrong, "")
            .await
            .0,
        401
    );
    let right = [("Authorization", "Bearer scrape-me")];
    let (status, _, body) = http(server.addr, DIRECT, "GET", "/metrics", &right, "").await;
    assert_eq!(status, 200);
    assert!(body.contains("gomoku_"), "{body}");
    server.stop().await;
}

#[tokio::test]
async fn with_a_metrics_bind_metrics_are_served_there_and_not_on_the_main_address() {
    let (server, _db) = start(Config {
        metrics_bind: Some("127.0.0.1:0".parse().unwrap()),
        ..test_config()
    })
    .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let metrics_addr = listener.local_addr().unwrap();
    let task = tokio::spawn(server::run_metrics(listener, server.state.clone()));
    let (status, _, _) = http(server.addr, DIRECT, "GET", "/metrics", &[], "").await;
    assert_eq!(status, 404);
    let (status, _, body) = http(metrics_addr, DIRECT, "GET", "/metrics", &[], "").await;
    assert_eq!(status, 200);
    assert!(body.contains("gomoku_"), "{body}");
    server.stop().await;
    tokio::time::timeout(Duration::from_secs(15), task)
        .await
        .expect("the metrics server stops with the server")
        .unwrap()
        .unwrap();
}

// --- Sockets per player and per address range (#35: one guest token held 500 sockets) ---------------------

/// Says hello with `token`; the server's answer.
async fn hello_as(ws: &mut Ws, token: &str) -> ServerMessage {
    let hello = ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
        token: Some(token.to_owned()),
    };
    ws.send(Message::Text(protocol::encode(&hello, Some(1)).into()))
        .await
        .unwrap();
    next_message(ws).await
}

/// Asserts a `too_many_connections` answer followed by close code 1013 with `reason`.
async fn refused_with(ws: &mut Ws, answer: ServerMessage, reason: &str) {
    match answer {
        ServerMessage::Error { code: c, .. } => assert_eq!(c, code::TOO_MANY_CONNECTIONS),
        other => panic!("expected too_many_connections, got {other:?}"),
    }
    let frame = loop {
        match tokio::time::timeout(CLOSE_WAIT, ws.next())
            .await
            .expect("the server closes the socket in time")
        {
            Some(Ok(Message::Close(frame))) => break frame.expect("a close frame with a code"),
            Some(Ok(_)) => continue,
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    assert_eq!(u16::from(frame.code), 1013);
    assert_eq!(frame.reason.as_str(), reason);
}

/// Closes `ws` and waits for the server's answering close (the server then drops the connection's places).
async fn close(mut ws: Ws) {
    ws.close(None).await.unwrap();
    let _ = close_code(&mut ws).await;
}

/// Sockets whose `hello` (`connect`) the server refuses until a place frees; the first one admitted. The place a
/// closed socket held is freed when the server's task for it ends, just after its close.
async fn admitted_once_freed<F, Fut>(mut connect: F) -> Ws
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = (Ws, ServerMessage)>,
{
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (ws, answer) = connect().await;
        match answer {
            ServerMessage::Welcome { .. } => return ws,
            ServerMessage::Error { code: c, .. } if c == code::TOO_MANY_CONNECTIONS => {
                assert!(
                    Instant::now() < deadline,
                    "the closed socket's place was never freed"
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            other => panic!("{other:?}"),
        }
    }
}

#[tokio::test]
async fn one_guest_token_holds_at_most_its_cap_of_sockets_and_a_closed_one_frees_its_place() {
    let (server, _db) = start(Config {
        max_connections_per_player: 3,
        ..test_config()
    })
    .await;
    let mut first = ws_from(server.addr, DIRECT, &[]).await;
    let ServerMessage::Welcome { token, .. } = hello(&mut first).await else {
        panic!("a new guest");
    };
    let mut held = vec![first];
    for _ in 1..3 {
        let mut ws = ws_from(server.addr, DIRECT, &[]).await;
        let answer = hello_as(&mut ws, &token).await;
        assert!(
            matches!(answer, ServerMessage::Welcome { .. }),
            "{answer:?}"
        );
        held.push(ws);
    }
    // The cap's fourth: refused with a typed answer and 1013, as the per-address cap does.
    let mut fourth = ws_from(server.addr, DIRECT, &[]).await;
    let answer = hello_as(&mut fourth, &token).await;
    refused_with(&mut fourth, answer, "too many connections for this player").await;
    // Another guest from the same address is not held back by this one.
    let mut other = ws_from(server.addr, DIRECT, &[]).await;
    assert!(matches!(
        hello(&mut other).await,
        ServerMessage::Welcome { .. }
    ));
    // One of the three closes: the token may open one more, and only one.
    close(held.remove(0)).await;
    let addr = server.addr;
    let again = admitted_once_freed(|| {
        let token = token.clone();
        async move {
            let mut ws = ws_from(addr, DIRECT, &[]).await;
            let answer = hello_as(&mut ws, &token).await;
            (ws, answer)
        }
    })
    .await;
    held.push(again);
    let mut over = ws_from(server.addr, DIRECT, &[]).await;
    let answer = hello_as(&mut over, &token).await;
    refused_with(&mut over, answer, "too many connections for this player").await;
    server.stop().await;
}

#[tokio::test]
async fn an_accounts_sessions_share_its_cap_of_sockets() {
    let (server, _db) = start(Config {
        max_connections_per_player: 2,
        ..test_config()
    })
    .await;
    let alice = server.registered("alice").await;
    // A second session of the same account (another device).
    let store = &server.state.store;
    let user = store.user_by_name("alice").await.unwrap().unwrap();
    let second = server::identity::new_token();
    store
        .create_session(
            &server::identity::hash_token(&second),
            &store::SessionOwner::User(user),
            i64::MAX,
        )
        .await
        .unwrap();
    let mut tab = ws_from(server.addr, DIRECT, &[]).await;
    let answer = hello_as(&mut tab, &second).await;
    assert!(
        matches!(answer, ServerMessage::Welcome { .. }),
        "{answer:?}"
    );
    for token in [&alice.token, &second] {
        let mut ws = ws_from(server.addr, DIRECT, &[]).await;
        let answer = hello_as(&mut ws, token).await;
        refused_with(&mut ws, answer, "too many connections for this player").await;
    }
    drop(alice);
    server.stop().await;
}

#[tokio::test]
async fn one_address_range_holds_at_most_its_cap_of_sockets_and_a_closed_one_frees_its_place() {
    let (server, _db) = start(Config {
        max_connections_per_range: 3,
        ..test_config()
    })
    .await;
    // Three addresses of 127.0.0.0/24 fill its three places.
    let mut held = Vec::new();
    for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
        let mut ws = ws_from(server.addr, source, &[]).await;
        assert!(
            matches!(hello(&mut ws).await, ServerMessage::Welcome { .. }),
            "{source}"
        );
        held.push(ws);
    }
    // A fourth address of the range is refused as soon as it is upgraded, before its hello.
    let mut fourth = ws_from(server.addr, "127.0.0.5", &[]).await;
    let answer = next_message(&mut fourth).await;
    refused_with(
        &mut fourth,
        answer,
        "too many connections from this network",
    )
    .await;
    // Another range is not.
    let mut elsewhere = ws_from(server.addr, "127.0.1.2", &[]).await;
    assert!(matches!(
        hello(&mut elsewhere).await,
        ServerMessage::Welcome { .. }
    ));
    // One closes: the range may hold one more.
    close(held.remove(0)).await;
    let addr = server.addr;
    let again = admitted_once_freed(|| async move {
        let mut ws = ws_from(addr, "127.0.0.5", &[]).await;
        let answer = hello(&mut ws).await;
        (ws, answer)
    })
    .await;
    held.push(again);
    server.stop().await;
}
