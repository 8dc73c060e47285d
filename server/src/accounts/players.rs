//! `GET /api/players/{name}` (a profile, with the games the player is playing now) and
//! `GET /api/players/{name}/games?before=…&limit=…` (its games, newest first, page by page, with filters).
//!
//! Every game is public unless it was made private on purpose (issue #36: quick pairing, challenges and the
//! computer open public rooms), so a profile shows what the player plays and has played.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};
use store::{SessionOwner, User};

use super::error::ApiError;
use super::view::{GameSummary, HistoryView, StandingView};
use super::{username, Accounts};

/// Games in a profile.
pub const PROFILE_GAMES: u32 = 20;
/// Default games per page.
pub const DEFAULT_PAGE: u32 = 20;
/// Most games per page.
pub const MAX_PAGE: u32 = 100;
/// Most games in progress a profile shows as "playing now" (newest first): more than a person plays at once.
pub const PLAYING_SHOWN: u32 = 10;

/// The values of the games list's `result` filter, in the order of [`store::Outcome`]'s variants.
pub const RESULTS: [&str; 3] = ["win", "loss", "draw"];

/// A pool's standing with its rating history.
#[derive(Serialize)]
pub struct PoolView {
    /// Standing.
    #[serde(flatten)]
    pub standing: StandingView,
    /// Rating after each rated game in the pool, oldest first.
    pub history: Vec<HistoryView>,
}

/// A player's profile.
#[derive(Serialize)]
pub struct ProfileView {
    /// Name as registered.
    pub name: String,
    /// When registered.
    pub created_at: i64,
    /// One entry per pool played, in pool order.
    pub ratings: Vec<PoolView>,
    /// The games the player is playing now (not finished), newest first, at most [`PLAYING_SHOWN`]: each
    /// names its `room`, to watch it. Private ones only to the player.
    pub playing: Vec<GameSummary>,
    /// The latest games, newest first.
    pub games: Vec<GameSummary>,
    /// Pass as `before` to `/api/players/{name}/games` for older games; `null` when there are none.
    pub next_before: Option<i64>,
    /// Issue #38: a moderator marked this account a cheater (when, in ms); absent otherwise. Its rated games'
    /// gains were removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marked_cheater_at: Option<i64>,
}

/// A page of games.
#[derive(Serialize)]
pub struct GamesPage {
    /// Games, newest first.
    pub games: Vec<GameSummary>,
    /// Pass as `before` for the next page; `null` on the last page.
    pub next_before: Option<i64>,
}

/// The query of the games list.
#[derive(Deserialize)]
pub struct GamesQuery {
    /// Only games with a smaller id.
    pub before: Option<i64>,
    /// Games per page (1–100, default 20).
    pub limit: Option<u32>,
    /// Only games of this rating pool (as `GET /api/leaderboard?pool=`).
    pub pool: Option<String>,
    /// Only rated (`true`) or casual (`false`) games.
    pub rated: Option<bool>,
    /// Only the games the player won (`win`), lost (`loss`) or drew (`draw`).
    pub result: Option<String>,
    /// Only finished games (`true`, the archive) or only games being played (`false`).
    pub finished: Option<bool>,
}

impl GamesQuery {
    /// The store's filter for these parameters, or why they name nothing: `unknown_pool`, `invalid_query`.
    fn filter(&self) -> Result<store::GameFilter, ApiError> {
        let pool = match &self.pool {
            None => None,
            Some(name) => Some(crate::stored::pool_named(name).ok_or(ApiError::UnknownPool)?),
        };
        let outcome = match self.result.as_deref() {
            None => None,
            Some(result) => {
                let outcomes = [
                    store::Outcome::Win,
                    store::Outcome::Loss,
                    store::Outcome::Draw,
                ];
                let at = RESULTS.iter().position(|r| *r == result).ok_or_else(|| {
                    ApiError::InvalidQuery(format!("result is one of {}", RESULTS.join(", ")))
                })?;
                Some(outcomes[at])
            }
        };
        Ok(store::GameFilter {
            pool,
            rated: self.rated,
            outcome,
            finished: self.finished,
        })
    }
}

async fn user(accounts: &Accounts, name: &str) -> Result<User, ApiError> {
    // A name that breaks the rules cannot be registered: no need to ask the database.
    let name = username::validate(name).map_err(|_| ApiError::NotFound)?;
    accounts
        .store()
        .user_by_name(&name)
        .await?
        .ok_or(ApiError::NotFound)
}

/// Whether the request's session is `user` themself: only they see their private games in their lists.
async fn is_self(accounts: &Accounts, headers: &HeaderMap, user: &User) -> Result<bool, ApiError> {
    Ok(matches!(
        accounts.owner(headers).await?,
        Some(SessionOwner::User(me)) if me.id == user.id
    ))
}

/// Up to `limit` games of `user` below `before`, and where the next page starts; private games only when
/// `private` (the player looks at their own list).
async fn page(
    accounts: &Accounts,
    user: &User,
    before: Option<i64>,
    limit: u32,
    private: bool,
    filter: &store::GameFilter,
) -> Result<GamesPage, ApiError> {
    // One more than asked tells whether another page exists without a count query.
    let store = accounts.store();
    let mut records = store
        .games_filtered(user.id, before, limit + 1, private, filter)
        .await?;
    let more = records.len() > limit as usize;
    records.truncate(limit as usize);
    let games: Vec<GameSummary> = records
        .iter()
        .map(|r| GameSummary::of(r, user.id))
        .collect::<Result<_, _>>()
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let next_before = if more {
        games.last().map(|g| g.id)
    } else {
        None
    };
    Ok(GamesPage { games, next_before })
}

/// A player's profile; `404 not_found` for an unknown name. Private games are listed only to the player.
pub async fn profile(
    State(accounts): State<Accounts>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ProfileView>, ApiError> {
    let user = user(&accounts, &name).await?;
    let private = is_self(&accounts, &headers, &user).await?;
    let mut standings = accounts.store().standings(user.id).await?;
    standings.sort_by_key(|s| crate::stored::display_rank(&s.pool));
    let history = accounts.store().rating_history(user.id).await?;
    let now = accounts.now_ms();
    let ratings = standings
        .iter()
        .map(|s| PoolView {
            standing: StandingView::at(s, now),
            history: history
                .iter()
                .filter(|h| h.pool == s.pool)
                .map(HistoryView::from)
                .collect(),
        })
        .collect();
    let GamesPage { games, next_before } = page(
        &accounts,
        &user,
        None,
        PROFILE_GAMES,
        private,
        &store::GameFilter::default(),
    )
    .await?;
    let playing = page(
        &accounts,
        &user,
        None,
        PLAYING_SHOWN,
        private,
        &store::GameFilter {
            finished: Some(false),
            ..store::GameFilter::default()
        },
    )
    .await?
    .games;
    let marked_cheater_at = match accounts.store().community() {
        Some(t) => t.marked_cheater_at(user.id).await?,
        None => None,
    };
    Ok(Json(ProfileView {
        name: user.name,
        created_at: user.created_at,
        ratings,
        playing,
        games,
        next_before,
        marked_cheater_at,
    }))
}

/// A page of a player's games, newest first (private ones only to the player).
pub async fn games(
    State(accounts): State<Accounts>,
    Path(name): Path<String>,
    headers: HeaderMap,
    query: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Json<GamesPage>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::InvalidQuery(e.body_text()))?;
    let limit = q.limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::InvalidQuery(format!(
            "limit is between 1 and {MAX_PAGE}"
        )));
    }
    let filter = q.filter()?;
    let user = user(&accounts, &name).await?;
    let private = is_self(&accounts, &headers, &user).await?;
    Ok(Json(
        page(&accounts, &user, q.before, limit, private, &filter).await?,
    ))
}
