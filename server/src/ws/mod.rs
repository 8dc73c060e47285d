//! WebSocket endpoint: `GET /ws` upgrades, then one reader and one writer task per connection.

mod conn;
pub mod outbox;
pub mod virtual_conn;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use crate::AppState;

/// The `/ws` route.
pub fn router() -> Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

async fn upgrade(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let permit = state.limits.admit(addr.ip());
    // A browser's session cookie (HttpOnly: scripts cannot put it into `hello`; only from this site's own pages)
    // or a bearer token.
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
