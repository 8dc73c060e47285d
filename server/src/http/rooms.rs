//! `GET /api/rooms`: the lobby's public rooms (the same list `subscribe_lobby` sends).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use protocol::LobbyRoom;

use crate::AppState;

/// The rooms route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/rooms", get(rooms))
}

async fn rooms(State(state): State<AppState>) -> Json<Vec<LobbyRoom>> {
    Json(state.lobby.list().await)
}
