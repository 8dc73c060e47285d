//! `GET /api/protocol.schema.json` and `GET /api/openapi.json`: the WebSocket protocol as JSON Schema and the HTTP
//! API as OpenAPI, both generated from the types the server speaks, for client authors in any language.
//! `docs/protocol.schema.json` and `docs/openapi.json` are checked-in copies (a test keeps them equal).

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use crate::AppState;

/// How long clients and caches may keep a document: it changes only with the server's version.
const CACHE_CONTROL: &str = "public, max-age=3600";

static PROTOCOL: LazyLock<String> = LazyLock::new(|| pretty(&protocol::schema::protocol_schema()));
static OPENAPI: LazyLock<String> = LazyLock::new(|| pretty(&super::openapi::document()));

/// The text served (and checked in): pretty JSON with a final newline, so a change reads well in review.
pub fn pretty(doc: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(doc).expect("a JSON value serialises");
    text.push('\n');
    text
}

/// The JSON Schema of the protocol, as served.
pub fn protocol_schema_text() -> &'static str {
    &PROTOCOL
}

/// The OpenAPI document, as served.
pub fn openapi_text() -> &'static str {
    &OPENAPI
}

/// The schema routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/protocol.schema.json",
            get(|| async { json(protocol_schema_text()) }),
        )
        .route("/api/openapi.json", get(|| async { json(openapi_text()) }))
}

fn json(text: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, CACHE_CONTROL),
        ],
        text,
    )
}
