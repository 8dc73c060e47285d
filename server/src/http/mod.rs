//! HTTP routes: each feature module exposes `router()`; [`router`] puts them together with the WebSocket route
//! and the embedded web client.

mod assets;
mod error;
mod games;
mod health;
mod metrics;
mod rooms;

use axum::Router;

pub use error::ApiError;

use crate::AppState;

/// The whole application: API, metrics, WebSocket and static files.
pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(health::router())
        .merge(rooms::router())
        .merge(games::router())
        .merge(crate::accounts::router(
            crate::accounts::Accounts::from_app(&state),
        ))
        .merge(metrics::router())
        .merge(crate::ws::router())
        .merge(assets::router())
        .with_state(state)
}
