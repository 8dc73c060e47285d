//! The community API's errors: a JSON body `{"code": …, "message": …}` like every HTTP error of the server.

use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// Why a community request failed; the codes are stable.
#[derive(Debug, thiserror::Error)]
pub enum CommunityError {
    /// No session, or a guest's where an account is needed.
    #[error("sign in first")]
    NotAuthenticated,
    /// The request needs a moderator (or an administrator).
    #[error("this needs a moderator")]
    Forbidden,
    /// No such player, report or chat line.
    #[error("not found")]
    NotFound,
    /// A player cannot follow, block or report themselves.
    #[error("not yourself")]
    SelfTarget,
    /// The body is not the expected JSON, or a value is out of range.
    #[error("invalid body: {0}")]
    InvalidBody(String),
    /// The query string does not parse (a parameter twice, say).
    #[error("invalid query: {0}")]
    InvalidQuery(String),
    /// Too many reports: one more after the given time.
    #[error("you have sent as many reports as allowed for now; try again later")]
    RateLimited(Duration),
    /// A rename to a name that is invalid, reserved, taken or too much like a taken one.
    #[error("that name cannot be used: {0}")]
    BadName(String),
    /// The password given to close an account is wrong.
    #[error("the password is wrong")]
    WrongPassword,
    /// Something failed inside the server; the detail goes to the log only.
    #[error("internal error")]
    Internal(String),
}

impl CommunityError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            CommunityError::NotAuthenticated => "not_authenticated",
            CommunityError::Forbidden => "forbidden",
            CommunityError::NotFound => "not_found",
            CommunityError::SelfTarget => "self_target",
            CommunityError::InvalidBody(_) => "invalid_body",
            CommunityError::InvalidQuery(_) => "invalid_query",
            CommunityError::RateLimited(_) => "rate_limited",
            CommunityError::BadName(_) => "bad_name",
            CommunityError::WrongPassword => "wrong_password",
            CommunityError::Internal(_) => "internal",
        }
    }

    /// The HTTP status of the code.
    pub fn status(&self) -> StatusCode {
        match self {
            CommunityError::NotAuthenticated => StatusCode::UNAUTHORIZED,
            CommunityError::Forbidden | CommunityError::WrongPassword => StatusCode::FORBIDDEN,
            CommunityError::NotFound => StatusCode::NOT_FOUND,
            CommunityError::SelfTarget
            | CommunityError::InvalidBody(_)
            | CommunityError::InvalidQuery(_) => StatusCode::BAD_REQUEST,
            CommunityError::BadName(_) => StatusCode::CONFLICT,
            CommunityError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            CommunityError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<store::StoreError> for CommunityError {
    fn from(e: store::StoreError) -> CommunityError {
        match e {
            store::StoreError::UsernameTaken => CommunityError::BadName("taken".to_owned()),
            store::StoreError::UsernameConfusable => {
                CommunityError::BadName("too much like a taken name".to_owned())
            }
            other => CommunityError::Internal(other.to_string()),
        }
    }
}

impl From<crate::accounts::ApiError> for CommunityError {
    fn from(e: crate::accounts::ApiError) -> CommunityError {
        use crate::accounts::ApiError as A;
        match e {
            A::NotAuthenticated => CommunityError::NotAuthenticated,
            A::NotFound => CommunityError::NotFound,
            A::Internal(d) => CommunityError::Internal(d),
            other => CommunityError::InvalidBody(other.to_string()),
        }
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    code: &'a str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after: Option<u64>,
}

impl IntoResponse for CommunityError {
    fn into_response(self) -> Response {
        if let CommunityError::Internal(detail) = &self {
            tracing::error!(%detail, "community request failed");
        }
        let retry_after = match &self {
            CommunityError::RateLimited(wait) => {
                Some(crate::accounts::error::retry_after_secs(*wait))
            }
            _ => None,
        };
        let body = ErrorBody {
            code: self.code(),
            message: self.to_string(),
            retry_after,
        };
        let mut response = (self.status(), Json(body)).into_response();
        if let Some(secs) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}
