//! HTTP routes: each feature module exposes `router()`; [`router`] puts them together with the WebSocket route
//! and the embedded web client, under the layers every request passes: security headers, the cross-site check
//! for state-changing requests, and a deadline. [`serve`] is the accept loop that feeds it.

mod analysis;
mod assets;
pub mod client_addr;
pub mod community;
mod computer;
mod error;
mod games;
mod health;
mod metrics;
mod openapi;
pub mod origin;
mod quick;
mod rooms;
pub mod schemas;
pub mod security_headers;
pub mod serve;
pub mod timeout;

use std::time::Duration;

use axum::middleware::{from_fn, from_fn_with_state};
use axum::Router;

pub use analysis::MAX_EVALUATE_ACTIONS;
pub use client_addr::{ClientAddr, TrustedProxies};
pub use error::ApiError;
pub use metrics::standalone as metrics_router;

use crate::AppState;

/// The whole application: API, metrics, WebSocket and static files.
pub fn router(state: AppState) -> Router {
    let request_deadline = Duration::from_secs(state.config.request_secs.max(1));
    let https = security_headers::Https(state.config.secure_cookies);
    Router::new()
        .merge(health::router())
        .merge(computer::router())
        .merge(rooms::router())
        .merge(quick::router())
        .merge(community::router())
        .merge(games::router())
        .merge(crate::matches::router())
        .merge(crate::events::router())
        .merge(analysis::router())
        .merge(schemas::router())
        .merge(crate::accounts::router(
            crate::accounts::Accounts::from_app(&state),
        ))
        .merge(metrics::router())
        .merge(crate::ws::router())
        .merge(assets::router())
        .with_state(state)
        // The last layer added runs first: headers go on every answer, the 403 and the 408 included.
        .layer(from_fn_with_state(request_deadline, timeout::deadline))
        .layer(from_fn(origin::same_origin_only))
        .layer(from_fn_with_state(https, security_headers::add))
}

/// An optional whole number in a JSON body, written as JSON allows one: `5` or `5.0` ([`protocol::whole::number`]).
/// Anything else, or a number out of `T`'s range, is a deserialization error (the body's `invalid_body`). For
/// `#[serde(default, deserialize_with = …)]`.
pub(crate) fn whole<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i128>,
{
    use serde::Deserialize;
    #[derive(Deserialize)]
    #[serde(bound(deserialize = "T: TryFrom<i128>"))]
    struct Whole<T>(#[serde(deserialize_with = "protocol::whole::number")] T);
    Ok(Option::<Whole<T>>::deserialize(d)?.map(|w| w.0))
}
