//! The accounts API's error type: every failure is a JSON body `{"code": …, "message": …}` with a stable
//! snake_case code, so clients branch on the code and show their own words.

use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// Why an accounts request failed. The variants are the API's contract; their codes never change.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The username is not 3–20 letters, digits, `_` or `-` (2 Chinese, Japanese or Korean characters are enough),
    /// or mixes scripts (`username.rs`).
    #[error("a username is 3 to 20 letters or digits of one script, '_' or '-' (2 Chinese, Japanese or Korean characters are enough)")]
    InvalidUsername,
    /// The name looks like a guest's, the computer's, or a staff or system name (`admin`, `guest-…`).
    #[error("this username is reserved (it looks like a guest's, the computer's, or a staff or system name)")]
    ReservedUsername,
    /// Someone already registered this name (ignoring case).
    #[error("this username is taken")]
    UsernameTaken,
    /// The name looks like one already registered (`AIice` beside `Alice`).
    #[error("this username looks too much like a taken one")]
    UsernameConfusable,
    /// The password is shorter than the minimum.
    #[error("a password has at least {0} characters")]
    WeakPassword(usize),
    /// The password has control characters, or nothing but spaces and invisible characters.
    #[error("a password has no control characters and not only spaces or invisible characters")]
    InvalidPassword,
    /// The password is one of the most common ones.
    #[error("this password is one of the most common ones; choose another")]
    CommonPassword,
    /// The password is longer than the maximum (hashing megabytes is a denial of service).
    #[error("a password has at most {0} bytes")]
    PasswordTooLong(usize),
    /// Wrong password or unknown user: deliberately the same answer for both.
    #[error("wrong username or password")]
    InvalidCredentials,
    /// No session token, or one that is unknown, revoked or expired.
    #[error("sign in first")]
    NotAuthenticated,
    /// A password change gave the wrong current password.
    #[error("the current password is wrong")]
    WrongPassword,
    /// A password reset named an unknown user, or a code that is wrong, spent or expired: the same answer for all.
    #[error("wrong username or reset code, or the code was used or has expired")]
    InvalidResetCode,
    /// Too many attempts; try again after the given time.
    #[error("too many attempts; try again later")]
    RateLimited(Duration),
    /// The address, or its address range, registered as many accounts as it may a day; one more after the given
    /// time.
    #[error("too many accounts were registered from this network today; try again later")]
    TooManyRegistrations(Duration),
    /// No such player (or other resource).
    #[error("not found")]
    NotFound,
    /// The `pool` parameter names no rating pool.
    #[error("the pool is one of freestyle, standard, renju")]
    UnknownPool,
    /// A query parameter is missing, malformed or out of range.
    #[error("invalid query: {0}")]
    InvalidQuery(String),
    /// The request body is not the expected JSON.
    #[error("invalid body: {0}")]
    InvalidBody(String),
    /// Something failed inside the server; the detail goes to the log only.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::InvalidUsername => "invalid_username",
            ApiError::ReservedUsername => "reserved_username",
            ApiError::UsernameTaken => "username_taken",
            ApiError::UsernameConfusable => "username_confusable",
            ApiError::WeakPassword(_) => "weak_password",
            ApiError::PasswordTooLong(_) => "password_too_long",
            ApiError::InvalidPassword => "invalid_password",
            ApiError::CommonPassword => "common_password",
            ApiError::InvalidCredentials => "invalid_credentials",
            ApiError::NotAuthenticated => "not_authenticated",
            ApiError::WrongPassword => "wrong_password",
            ApiError::InvalidResetCode => "invalid_reset_code",
            ApiError::RateLimited(_) => "rate_limited",
            ApiError::TooManyRegistrations(_) => "too_many_registrations",
            ApiError::NotFound => "not_found",
            ApiError::UnknownPool => "unknown_pool",
            ApiError::InvalidQuery(_) => "invalid_query",
            ApiError::InvalidBody(_) => "invalid_body",
            ApiError::Internal(_) => "internal",
        }
    }

    /// The HTTP status that goes with the code.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::InvalidUsername
            | ApiError::ReservedUsername
            | ApiError::WeakPassword(_)
            | ApiError::PasswordTooLong(_)
            | ApiError::InvalidPassword
            | ApiError::CommonPassword
            | ApiError::InvalidResetCode
            | ApiError::UnknownPool
            | ApiError::InvalidQuery(_)
            | ApiError::InvalidBody(_) => StatusCode::BAD_REQUEST,
            ApiError::UsernameTaken | ApiError::UsernameConfusable => StatusCode::CONFLICT,
            ApiError::InvalidCredentials | ApiError::NotAuthenticated => StatusCode::UNAUTHORIZED,
            ApiError::WrongPassword => StatusCode::FORBIDDEN,
            ApiError::RateLimited(_) | ApiError::TooManyRegistrations(_) => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<store::StoreError> for ApiError {
    fn from(e: store::StoreError) -> ApiError {
        match e {
            store::StoreError::UsernameTaken => ApiError::UsernameTaken,
            store::StoreError::UsernameConfusable => ApiError::UsernameConfusable,
            other => ApiError::Internal(other.to_string()),
        }
    }
}

/// The JSON body of every error.
#[derive(Serialize)]
struct ErrorBody<'a> {
    code: &'a str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after: Option<u64>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = match &self {
            ApiError::Internal(detail) => {
                // The detail may name tables or paths: it goes to the log, the client gets the bare code.
                tracing::error!(code = self.code(), %detail, "accounts request failed");
                self.to_string()
            }
            other => other.to_string(),
        };
        let retry_after = match &self {
            ApiError::RateLimited(wait) | ApiError::TooManyRegistrations(wait) => {
                Some(retry_after_secs(*wait))
            }
            _ => None,
        };
        let body = ErrorBody {
            code: self.code(),
            message,
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

/// Whole seconds for a `Retry-After` header: rounded up, and at least one (0 would invite an immediate retry).
pub fn retry_after_secs(wait: Duration) -> u64 {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    secs.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(2000)), 2);
        assert_eq!(retry_after_secs(Duration::from_millis(2001)), 3);
    }

    #[test]
    fn every_code_is_snake_case() {
        let all = [
            ApiError::InvalidUsername,
            ApiError::ReservedUsername,
            ApiError::UsernameTaken,
            ApiError::UsernameConfusable,
            ApiError::WeakPassword(8),
            ApiError::PasswordTooLong(1024),
            ApiError::InvalidPassword,
            ApiError::CommonPassword,
            ApiError::InvalidCredentials,
            ApiError::NotAuthenticated,
            ApiError::WrongPassword,
            ApiError::InvalidResetCode,
            ApiError::RateLimited(Duration::from_secs(1)),
            ApiError::TooManyRegistrations(Duration::from_secs(1)),
            ApiError::NotFound,
            ApiError::UnknownPool,
            ApiError::InvalidQuery("x".into()),
            ApiError::InvalidBody("x".into()),
            ApiError::Internal("x".into()),
        ];
        for e in all {
            let code = e.code();
            assert!(
                code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{code}"
            );
        }
    }

    #[test]
    fn a_rate_limited_answer_says_when_to_retry() {
        let response = ApiError::RateLimited(Duration::from_millis(4500)).into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers()[header::RETRY_AFTER], "5");
    }
}
