//! A deadline for each HTTP request, its body included: a client that sends a body a byte at a time, or a handler
//! that waits too long, gets 408 instead of holding a connection and a task for ever. (Request heads have their
//! own timeout in [`super::serve`]; a WebSocket is answered at once and lives on outside this deadline.)

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// The middleware: runs the request under `limit`, answering 408 `request_timeout` when it passes.
pub async fn deadline(State(limit): State<Duration>, req: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            code: "request_timeout",
            message: format!("the request took longer than {} s", limit.as_secs()),
        }
        .into_response(),
    }
}
