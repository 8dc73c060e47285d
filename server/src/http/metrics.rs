//! `GET /metrics`: Prometheus text exposition, not for the public. With `--metrics-bind` it is served only on that
//! separate address; with `--metrics-token` it needs `Authorization: Bearer <token>`; with neither, only clients
//! on loopback (this host) may read it.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sha2::{Digest, Sha256};

use super::client_addr::ClientAddr;
use super::ApiError;
use crate::AppState;

/// The metrics route of the main address.
pub fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(metrics))
}

/// The router of `--metrics-bind`: only `/metrics`, to anyone who can reach that address (a token still counts).
pub fn standalone(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(standalone_metrics))
        .with_state(state)
}

async fn metrics(
    State(state): State<AppState>,
    client: ClientAddr,
    headers: HeaderMap,
) -> Response {
    if state.config.metrics_bind.is_some() {
        return ApiError::not_found("not_found", "not found").into_response();
    }
    if state.config.metrics_token.is_none() && !from_this_host(&client, &headers) {
        return ApiError {
            status: StatusCode::FORBIDDEN,
            code: "metrics_forbidden",
            message: "metrics are for this host only (or with the operator's metrics token)"
                .to_owned(),
        }
        .into_response();
    }
    standalone_metrics(State(state), headers).await
}

async fn standalone_metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(token) = &state.config.metrics_token {
        if !bearer_matches(&headers, token) {
            let mut response = ApiError {
                status: StatusCode::UNAUTHORIZED,
                code: "not_authenticated",
                message: "metrics need the operator's bearer token".to_owned(),
            }
            .into_response();
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, "Bearer".parse().expect("static"));
            return response;
        }
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
        .into_response()
}

/// A loopback client that is not an unconfigured proxy passing someone else's request on (a forwarding header
/// from a peer that is not trusted says so).
fn from_this_host(client: &ClientAddr, headers: &HeaderMap) -> bool {
    let forwarded = client.ip == client.peer.ip().to_canonical()
        && (headers.contains_key("x-forwarded-for") || headers.contains_key("forwarded"));
    client.ip.is_loopback() && !forwarded
}

/// Whether the request's bearer token is `expected`, compared by digest so the time taken says nothing about
/// how much of a guess was right.
fn bearer_matches(headers: &HeaderMap, expected: &str) -> bool {
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    given.is_some_and(|g| Sha256::digest(g.as_bytes()) == Sha256::digest(expected.as_bytes()))
}
