//! The web client, embedded in the binary (read from `web-client/` on disk in debug builds) and served at `/`.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rust_embed::RustEmbed;

use crate::AppState;

#[derive(RustEmbed)]
#[folder = "../web-client/"]
#[exclude = "node_modules/*"]
#[exclude = "tests/*"]
#[exclude = "package*.json"]
struct Assets;

/// Routes for the static files: `/` and any path not taken by the API.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { file("index.html") }))
        .route(
            "/{*path}",
            get(|Path(path): Path<String>| async move { file(&path) }),
        )
}

fn file(path: &str) -> Response {
    if path.starts_with("api/") {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    // Client-side routes (a room, a game record) all load the app itself.
    let (path, asset) = match Assets::get(path) {
        Some(asset) => (path, asset),
        None if !path.contains('.') => match Assets::get("index.html") {
            Some(asset) => ("index.html", asset),
            None => return (StatusCode::NOT_FOUND, "not found").into_response(),
        },
        None => return (StatusCode::NOT_FOUND, "not found").into_response(),
    };
    let mime = asset.metadata.mimetype().to_owned();
    let cache = if path == "index.html" {
        "no-cache"
    } else {
        "public, max-age=300"
    };
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, cache.to_owned()),
        ],
        asset.data.into_owned(),
    )
        .into_response()
}
