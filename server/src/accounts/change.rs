//! `POST /api/password`: a signed-in player changes their password by giving the old one and the new one.
//!
//! The new password passes the registration rules ([`password::validate`]). The old one is checked like a
//! login, against the same limits (`Accounts::admit_login`), so the form cannot be used to guess a password
//! faster than the login page allows. A change ends every other session of the account and closes their
//! sockets: whoever else held one (a stolen token, a forgotten tab) is out; the session that asked stays.

use std::fmt;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};
use store::{SessionOwner, User};

use super::error::ApiError;
use super::{password, token, Accounts, ClientIp};

/// The body of `POST /api/password`. `Debug` hides both passwords.
#[derive(Deserialize)]
pub struct PasswordChange {
    /// The password now in force.
    pub old_password: String,
    /// The password wanted from now on.
    pub new_password: String,
}

impl fmt::Debug for PasswordChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PasswordChange").finish_non_exhaustive()
    }
}

/// The answer to a password change or reset.
#[derive(Serialize)]
pub struct ChangedView {
    /// How many sessions were ended (on a change, the other sessions; on a reset, all of them).
    pub revoked: usize,
}

/// Changes the password of the request's account: `200` with how many other sessions ended;
/// `401 not_authenticated` without an account's session (guests have no password), `403 wrong_password`,
/// `429 rate_limited`, or the registration rules' `400`s for the new password.
pub async fn change_password(
    State(accounts): State<Accounts>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Json<PasswordChange>, JsonRejection>,
) -> Result<Json<ChangedView>, ApiError> {
    let Json(change) = body.map_err(|e| ApiError::InvalidBody(e.body_text()))?;
    // The session that authenticated the request (bearer first, as `owner` reads it) is the one kept.
    let Some(current) = token::from_headers(&headers) else {
        return Err(ApiError::NotAuthenticated);
    };
    let Some(SessionOwner::User(user)) = accounts.owner(&headers).await? else {
        return Err(ApiError::NotAuthenticated);
    };
    let new = password::validate(&change.new_password)?;
    let attempt = accounts.admit_login(ip, &user.name).await?;
    if !verifies(&accounts, ip, &user, &change.old_password).await? {
        attempt.failed().await;
        tracing::info!(user = %user.name, "password change refused: wrong password");
        return Err(ApiError::WrongPassword);
    }
    attempt.succeeded().await;
    let hash = accounts.inner.hasher.hash(ip, &new).await?;
    let revoked = accounts
        .set_password(user.id, &hash, Some(&token::hash(&current)))
        .await?;
    tracing::info!(user = %user.name, revoked, "password changed");
    Ok(Json(ChangedView { revoked }))
}

/// Whether `password` is the user's, in any of the forms a login accepts ([`password::login_forms`]).
async fn verifies(
    accounts: &Accounts,
    ip: std::net::IpAddr,
    user: &User,
    password: &str,
) -> Result<bool, ApiError> {
    if password.len() > password::MAX_BYTES {
        return Ok(false);
    }
    for form in password::login_forms(password) {
        if accounts
            .inner
            .hasher
            .verify(ip, &form, &user.password_hash)
            .await?
        {
            return Ok(true);
        }
    }
    Ok(false)
}
