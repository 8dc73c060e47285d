//! `GET` / `PUT /api/me/challenges`: who may challenge the signed-in player (issue #18): `all` (the default),
//! `accounts` (registered players only, no guests) or `none`.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use store::SessionOwner;

use super::error::ApiError;
use super::Accounts;

/// The values the setting takes.
pub const POLICIES: &[&str] = &["all", "accounts", "none"];

/// The setting, as read and written.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ChallengeSetting {
    /// `all`, `accounts` or `none`.
    #[schemars(schema_with = "policy_schema")]
    pub accept: String,
}

/// `accept` in the OpenAPI document: one of [`POLICIES`], the list the handler checks.
fn policy_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "`all`, `accounts` (no guests) or `none`.",
        "type": "string",
        "enum": POLICIES,
    })
}

async fn user_of(accounts: &Accounts, headers: &HeaderMap) -> Result<store::User, ApiError> {
    match accounts.owner(headers).await? {
        Some(SessionOwner::User(user)) => Ok(user),
        _ => Err(ApiError::NotAuthenticated),
    }
}

/// `GET /api/me/challenges`: the signed-in player's setting (`401` for guests and the signed-out).
pub async fn get_setting(
    State(accounts): State<Accounts>,
    headers: HeaderMap,
) -> Result<Json<ChallengeSetting>, ApiError> {
    let user = user_of(&accounts, &headers).await?;
    let accept = accounts.store().challenge_policy(user.id).await?;
    Ok(Json(ChallengeSetting { accept }))
}

/// `PUT /api/me/challenges` with `{"accept":"all"|"accounts"|"none"}`: sets it and answers the setting; another
/// value is `400 invalid_body`.
pub async fn put_setting(
    State(accounts): State<Accounts>,
    headers: HeaderMap,
    body: Result<Json<ChallengeSetting>, JsonRejection>,
) -> Result<Json<ChallengeSetting>, ApiError> {
    let user = user_of(&accounts, &headers).await?;
    let Json(setting) = body.map_err(|e| ApiError::InvalidBody(e.body_text()))?;
    if !POLICIES.contains(&setting.accept.as_str()) {
        return Err(ApiError::InvalidBody(format!(
            "accept is one of {}",
            POLICIES.join(", ")
        )));
    }
    accounts
        .store()
        .set_challenge_policy(user.id, &setting.accept)
        .await?;
    Ok(Json(setting))
}
