//! What a client hears when the server will not or can no longer serve it: a token it does not accept, and
//! shutdown (issue #14, item 5). The slow-client notice is tested with the writer (src/ws/writer.rs).

use crate::common;

use common::*;
use protocol::{code, ServerMessage};

#[tokio::test]
async fn a_hello_with_an_unknown_token_is_answered_invalid_token() {
    let (server, _db) = TestServer::start().await;
    let mut c = Client::connect(server.addr).await;
    let reply = c.request(hello(Some("no-such-token"))).await;
    assert_eq!(error_code(reply), code::INVALID_TOKEN);
}

#[tokio::test]
async fn after_invalid_token_a_hello_without_a_token_on_the_same_socket_makes_a_new_guest() {
    let (server, _db) = TestServer::start().await;
    let mut c = Client::connect(server.addr).await;
    c.request(hello(Some("no-such-token"))).await;
    let reply = c.request(hello(None)).await;
    let ServerMessage::Welcome { you, token, .. } = reply else {
        panic!("expected welcome, got {reply:?}");
    };
    assert!(you.guest && !token.is_empty(), "{you:?}");
}

#[tokio::test]
async fn an_unknown_session_cookie_is_answered_invalid_token_and_a_second_hello_makes_a_new_guest()
{
    let (server, _db) = TestServer::start().await;
    let mut c =
        Client::connect_with_cookie(server.addr, "gomoku_session=no-such-session-token-at-all")
            .await;
    assert_eq!(
        error_code(c.request(hello(None)).await),
        code::INVALID_TOKEN
    );
    let reply = c.request(hello(None)).await;
    assert!(
        matches!(&reply, ServerMessage::Welcome { you, .. } if you.guest),
        "{reply:?}"
    );
}

#[tokio::test]
async fn shutdown_says_shutting_down_before_closing_with_1001() {
    let (server, _db) = TestServer::start().await;
    let mut c = server.client().await;
    server.stop().await;
    let told = c.try_recv_or_end().await;
    assert!(
        matches!(&told, Ok(ServerMessage::Error { code, .. }) if code == code::SHUTTING_DOWN),
        "{told:?}"
    );
    assert_eq!(c.ended().await, Ended::Closed(Some(1001)));
}
