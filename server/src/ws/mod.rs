//! WebSocket endpoint: `GET /ws` upgrades, then one reader and one writer task per connection.

mod computer;
mod conn;
mod dispatch;
pub mod lag;
pub mod loopback;
pub mod outbox;
mod reader;
mod resume;
pub mod v1;
// A connection without a socket, for the fuzz harness in the `testkit` crate: not in the production build.
#[cfg(feature = "testkit")]
pub mod virtual_conn;
mod writer;

use axum::extract::{State, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use crate::http::ClientAddr;
use crate::AppState;

/// The `/ws` route.
pub fn router() -> Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

async fn upgrade(
    State(state): State<AppState>,
    client: ClientAddr,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // Before anything is counted: another site's page gets neither a guest nor a socket (#35).
    if let Some(refusal) = crate::http::origin::cross_site_socket(&headers) {
        return refusal;
    }
    // The client's address (behind a trusted proxy, the one it forwards), so one client's sockets cannot use up
    // everyone's share.
    let permit = state.limits.try_admit(client.ip);
    let addr = std::net::SocketAddr::new(client.ip, client.peer.port());
    // A browser's session cookie (HttpOnly: scripts cannot put it into `hello`) or a bearer token.
    let ambient_token = crate::accounts::token::for_upgrade(&headers);
    let config = &state.config;
    // Frames a little over the limit are read and answered with `too_large`; far larger ones end the connection.
    let hard_limit = (config.max_frame_bytes * 4).max(64 * 1024);
    ws.read_buffer_size(config.ws_buffer_bytes)
        .write_buffer_size(config.ws_buffer_bytes)
        .max_message_size(hard_limit)
        .max_frame_size(hard_limit)
        .on_upgrade(move |socket| conn::serve(socket, state, addr, permit, ambient_token))
}
