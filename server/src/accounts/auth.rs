//! `POST /api/register`, `POST /api/login`, `POST /api/logout`, `POST /api/logout/everywhere` and `GET /api/me`.
//!
//! No session is ever left valid but out of its holder's reach: a logout revokes every session the request
//! names (bearer and cookie) and clears the cookie only when it sent one, and a login over an existing cookie
//! revokes the session it replaces. Revoking a session also closes its WebSocket connections
//! ([`super::live`]).

use std::fmt;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use store::{SessionOwner, User};

use super::error::ApiError;
use super::view::StandingView;
use super::{password, token, username, Accounts, ClientIp};

/// The body of register and login. `Debug` hides the password, so a stray `?credentials` in a log line is
/// harmless.
#[derive(Deserialize)]
pub struct Credentials {
    /// The username.
    pub username: String,
    /// The password.
    pub password: String,
    /// Whether the answer should carry the session token in its body, for clients that are not browsers (bots,
    /// load tools) and send it as `Authorization: Bearer …` or in the WebSocket `hello`. Browsers leave it out:
    /// their `HttpOnly` cookie is all they need, and a token in the body would be readable by page scripts.
    #[serde(default)]
    pub issue_token: bool,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"***")
            .field("issue_token", &self.issue_token)
            .finish()
    }
}

/// The answer to a successful register or login. The token is set as the session cookie.
#[derive(Serialize)]
pub struct SessionView {
    /// The session token, only when asked for with `issue_token` (for clients that send `Authorization:
    /// Bearer …` or a WebSocket `hello`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The signed-in user.
    pub user: UserView,
    /// When the session expires (milliseconds since the Unix epoch).
    pub expires_at: i64,
}

/// A registered user as the API shows them to themselves.
#[derive(Serialize)]
pub struct UserView {
    /// Name as registered.
    pub name: String,
    /// Always `false` here; present so clients read one shape for guests and users.
    pub guest: bool,
    /// When registered.
    pub created_at: i64,
}

impl From<&User> for UserView {
    fn from(u: &User) -> UserView {
        UserView {
            name: u.name.clone(),
            guest: false,
            created_at: u.created_at,
        }
    }
}

fn credentials(body: Result<Json<Credentials>, JsonRejection>) -> Result<Credentials, ApiError> {
    body.map(|Json(c)| c)
        .map_err(|e| ApiError::InvalidBody(e.body_text()))
}

/// Registers an account and signs it in: `201` with a [`SessionView`] and the session cookie.
pub async fn register(
    State(accounts): State<Accounts>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = credentials(body)?;
    let name = username::validate_new(&c.username)?;
    let password = password::validate(&c.password)?;
    let slot = accounts.admit_registration(ip).await?;
    let user = match create(&accounts, &name, &password).await {
        Ok(user) => user,
        Err(e) => {
            // No account was made: it does not count against the address's daily registrations.
            slot.give_back().await;
            return Err(e);
        }
    };
    tracing::info!(user = %user.name, "account registered");
    start_session(&accounts, &headers, &c, &user, StatusCode::CREATED).await
}

/// Makes the account once its name is known to be free.
async fn create(accounts: &Accounts, name: &str, password: &str) -> Result<User, ApiError> {
    // Saves an argon2 run for the common cases; the store's unique keys still decide races between registrations.
    if accounts.store().user_by_name(name).await?.is_some() {
        return Err(ApiError::UsernameTaken);
    }
    if accounts.store().user_by_skeleton(name).await?.is_some() {
        return Err(ApiError::UsernameConfusable);
    }
    let hash = accounts.inner.hasher.hash(password).await?;
    Ok(accounts
        .store()
        .create_user(name, &hash, accounts.now_ms())
        .await?)
}

/// Signs in: `200` with a [`SessionView`] and the session cookie. A wrong password and an unknown name get
/// the same `invalid_credentials`, after the same amount of hashing.
pub async fn login(
    State(accounts): State<Accounts>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = credentials(body)?;
    let attempt = accounts.admit_login(ip, &c.username).await?;
    let user = match username::validate(&c.username) {
        // No stored password is longer than the limit; refusing before hashing keeps huge bodies cheap.
        Ok(_) if c.password.len() > password::MAX_BYTES => {
            attempt.failed().await;
            return Err(ApiError::InvalidCredentials);
        }
        Ok(name) => accounts.store().user_by_name(&name).await?,
        // No account can have this name, and no timing can reveal more than the rules already say.
        Err(_) => {
            attempt.failed().await;
            return Err(ApiError::InvalidCredentials);
        }
    };
    let forms = password::login_forms(&c.password);
    let Some(user) = user else {
        // As many verifications as a real user would cost.
        for form in &forms {
            accounts.inner.hasher.verify_decoy(form).await?;
        }
        attempt.failed().await;
        return Err(ApiError::InvalidCredentials);
    };
    let mut matched = None;
    for (i, form) in forms.iter().enumerate() {
        if accounts
            .inner
            .hasher
            .verify(form, &user.password_hash)
            .await?
        {
            matched = Some(i);
            break;
        }
    }
    if matched.is_some_and(|i| i > 0) {
        // A hash from before normalisation: from now on the password verifies in any Unicode form. Failing to
        // upgrade costs nothing (the typed form keeps working), so it does not fail the login.
        match accounts.inner.hasher.hash(&forms[0]).await {
            Ok(hash) => {
                if let Err(e) = accounts.store().set_password_hash(user.id, &hash).await {
                    tracing::warn!(error = %e, "could not upgrade a password hash");
                }
            }
            Err(e) => tracing::warn!(code = e.code(), "could not upgrade a password hash"),
        }
    }
    if matched.is_none() {
        attempt.failed().await;
        tracing::info!(user = %user.name, "login refused: wrong password");
        return Err(ApiError::InvalidCredentials);
    }
    attempt.succeeded().await;
    start_session(&accounts, &headers, &c, &user, StatusCode::OK).await
}

async fn start_session(
    accounts: &Accounts,
    headers: &HeaderMap,
    credentials: &Credentials,
    user: &User,
    status: StatusCode,
) -> Result<Response, ApiError> {
    // The new cookie overwrites the old one in the browser: the old session would stay valid with nobody
    // holding its token any more.
    if let Some(previous) = token::cookie(headers) {
        accounts.revoke(&previous).await?;
    }
    let token = token::new_token();
    let ttl = accounts.settings().session_ttl;
    let expires_at = accounts.now_ms() + i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX / 4);
    accounts
        .store()
        .create_session(
            &token::hash(&token),
            &SessionOwner::User(user.clone()),
            expires_at,
        )
        .await?;
    let cookie = token::set_cookie(&token, ttl, accounts.secure_cookies(headers));
    let body = SessionView {
        token: credentials.issue_token.then_some(token),
        user: UserView::from(user),
        expires_at,
    };
    // The body holds a credential: no cache may keep it.
    let headers = [
        (header::SET_COOKIE, cookie),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
    ];
    Ok((status, headers, Json(body)).into_response())
}

/// Revokes every session the request carries (its bearer token and its cookie, which may differ) and clears the
/// cookie when one was sent: `204` either way, so signing out twice is harmless. A request without a cookie
/// (such as another site's form post, which `SameSite=Lax` strips of it) gets no `Set-Cookie`: clearing a cookie
/// whose session was not revoked would leave that session valid and beyond its owner's reach.
pub async fn logout(
    State(accounts): State<Accounts>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    revoke_carried(&accounts, &headers).await?;
    Ok(signed_out(
        &accounts,
        &headers,
        StatusCode::NO_CONTENT.into_response(),
    ))
}

/// The answer to `POST /api/logout/everywhere`.
#[derive(Serialize)]
pub struct EverywhereView {
    /// How many sessions were revoked (this one included).
    pub revoked: usize,
}

/// "Log out everywhere": revokes every session of the request's user (a guest's token: that session) and closes
/// all their connections; `200` with the count, `401 not_authenticated` without a valid session.
pub async fn logout_everywhere(
    State(accounts): State<Accounts>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let revoked = match accounts.owner(&headers).await? {
        Some(SessionOwner::User(user)) => accounts.revoke_all(user.id).await?,
        Some(SessionOwner::Guest(_)) => 1,
        None => return Err(ApiError::NotAuthenticated),
    };
    // The cookie may belong to another session than the bearer token that named the user.
    revoke_carried(&accounts, &headers).await?;
    let response = Json(EverywhereView { revoked }).into_response();
    Ok(signed_out(&accounts, &headers, response))
}

async fn revoke_carried(accounts: &Accounts, headers: &HeaderMap) -> Result<(), ApiError> {
    for t in [token::bearer(headers), token::cookie(headers)]
        .into_iter()
        .flatten()
    {
        accounts.revoke(&t).await?;
    }
    Ok(())
}

/// Adds the clearing `Set-Cookie` when the request sent a session cookie (whose session is revoked by now).
fn signed_out(accounts: &Accounts, headers: &HeaderMap, mut response: Response) -> Response {
    if token::has_cookie(headers) {
        let cookie = token::clear_cookie(accounts.secure_cookies(headers));
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    response
}

/// `GET /api/me`: who the session stands for.
#[derive(Serialize)]
#[serde(untagged)]
pub enum MeView {
    /// A registered user, with their standings.
    User {
        /// Who.
        #[serde(flatten)]
        user: UserView,
        /// Standings in the pools played.
        ratings: Vec<StandingView>,
    },
    /// A guest (a WebSocket `welcome` token sent as a bearer token).
    Guest {
        /// The guest's name.
        name: String,
        /// Always `true`.
        guest: bool,
    },
}

/// Who the request's session stands for; `401 not_authenticated` without a valid session.
pub async fn me(
    State(accounts): State<Accounts>,
    headers: HeaderMap,
) -> Result<Json<MeView>, ApiError> {
    match accounts.owner(&headers).await? {
        Some(SessionOwner::User(user)) => {
            let ratings = accounts.store().standings(user.id).await?;
            Ok(Json(MeView::User {
                user: UserView::from(&user),
                ratings: ratings
                    .iter()
                    .map(|s| StandingView::at(s, accounts.now_ms()))
                    .collect(),
            }))
        }
        Some(SessionOwner::Guest(g)) => Ok(Json(MeView::Guest {
            name: g.name,
            guest: true,
        })),
        None => Err(ApiError::NotAuthenticated),
    }
}
