//! `POST /api/register`, `POST /api/login`, `POST /api/logout` and `GET /api/me`.

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
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"***")
            .finish()
    }
}

/// The answer to a successful register or login. The token is also set as the session cookie.
#[derive(Serialize)]
pub struct SessionView {
    /// The session token, for clients that send `Authorization: Bearer …` or a WebSocket `hello`.
    pub token: String,
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
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = credentials(body)?;
    let name = username::validate(&c.username)?;
    password::validate(&c.password)?;
    accounts.limit(ip, name)?;
    // Saves an argon2 run for the common case; the store still decides races between two registrations.
    if accounts.store().user_by_name(name).await?.is_some() {
        return Err(ApiError::UsernameTaken);
    }
    let hash = accounts.inner.hasher.hash(&c.password).await?;
    let user = accounts
        .store()
        .create_user(name, &hash, accounts.now_ms())
        .await?;
    tracing::info!(user = %user.name, "account registered");
    start_session(&accounts, &user, StatusCode::CREATED).await
}

/// Signs in: `200` with a [`SessionView`] and the session cookie. A wrong password and an unknown name get
/// the same `invalid_credentials`, after the same amount of hashing.
pub async fn login(
    State(accounts): State<Accounts>,
    ClientIp(ip): ClientIp,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = credentials(body)?;
    accounts.limit(ip, &c.username)?;
    let user = match username::validate(&c.username) {
        // No stored password is longer than the limit; refusing before hashing keeps huge bodies cheap.
        Ok(_) if c.password.len() > password::MAX_BYTES => {
            return Err(ApiError::InvalidCredentials)
        }
        Ok(name) => accounts.store().user_by_name(name).await?,
        // No account can have this name, and no timing can reveal more than the rules already say.
        Err(_) => return Err(ApiError::InvalidCredentials),
    };
    let Some(user) = user else {
        accounts.inner.hasher.verify_decoy(&c.password).await?;
        return Err(ApiError::InvalidCredentials);
    };
    if !accounts
        .inner
        .hasher
        .verify(&c.password, &user.password_hash)
        .await?
    {
        tracing::info!(user = %user.name, "login refused: wrong password");
        return Err(ApiError::InvalidCredentials);
    }
    start_session(&accounts, &user, StatusCode::OK).await
}

async fn start_session(
    accounts: &Accounts,
    user: &User,
    status: StatusCode,
) -> Result<Response, ApiError> {
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
    let cookie = token::set_cookie(&token, ttl, accounts.settings().secure_cookies);
    let body = SessionView {
        token,
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

/// Revokes the session the request carries (if any) and clears the cookie: `204` either way, so signing
/// out twice is harmless.
pub async fn logout(
    State(accounts): State<Accounts>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(t) = token::from_headers(&headers) {
        accounts.store().delete_session(&token::hash(&t)).await?;
    }
    let cookie = token::clear_cookie(accounts.settings().secure_cookies);
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
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
                ratings: ratings.iter().map(StandingView::from).collect(),
            }))
        }
        Some(SessionOwner::Guest(g)) => Ok(Json(MeView::Guest {
            name: g.name,
            guest: true,
        })),
        None => Err(ApiError::NotAuthenticated),
    }
}
