//! `GET /api/leaderboard?pool=…&limit=…&offset=…` and `GET /api/tiers`.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use ratings::established as rule;
use ratings::{Tier, PROVISIONAL_DEVIATION};
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::view::StandingView;
use super::Accounts;

/// Rated games a player needs in a pool to be listed (one part of the rule, [`ratings::established`]).
pub const MIN_GAMES: u32 = rule::BOARD_GAMES;
/// Default entries per page.
pub const DEFAULT_LIMIT: u32 = 50;
/// Most entries per page.
pub const MAX_LIMIT: u32 = 100;
/// Deepest offset: beyond it an `OFFSET` walks too much of the index for a public, unauthenticated endpoint.
pub const MAX_OFFSET: u32 = 10_000;

/// The leaderboard's query.
#[derive(Deserialize)]
pub struct LeaderboardQuery {
    /// `freestyle`, `standard`, `renju`, `othello/standard` or `draughts/international` (a pool's name).
    pub pool: Option<String>,
    /// Entries (1–100, default 50).
    pub limit: Option<u32>,
    /// Entries to skip (default 0).
    pub offset: Option<u32>,
}

/// One leaderboard line.
#[derive(Serialize)]
pub struct Entry {
    /// 1 for the best player.
    pub rank: u32,
    /// Player name.
    pub name: String,
    /// Rating, tier and record in the pool.
    #[serde(flatten)]
    pub standing: StandingView,
}

/// A leaderboard page.
#[derive(Serialize)]
pub struct LeaderboardView {
    /// The pool.
    pub pool: String,
    /// Rated games needed to be listed (and to be established).
    pub min_games: u32,
    /// Different established opponents needed to be listed.
    pub min_opponents: u32,
    /// The highest rating deviation listed.
    pub max_deviation: f64,
    /// Days since the last rated game in the pool within which a player stays listed.
    pub active_days: u32,
    /// As asked.
    pub limit: u32,
    /// As asked.
    pub offset: u32,
    /// Best first.
    pub entries: Vec<Entry>,
}

/// The best players of a pool that the rule of [`ratings::established`] lists: established players with
/// [`MIN_GAMES`] rated games there, different established opponents, a deviation within the rule's bound and a recent
/// rated game (docs/ratings.md).
pub async fn leaderboard(
    State(accounts): State<Accounts>,
    query: Result<Query<LeaderboardQuery>, QueryRejection>,
) -> Result<Json<LeaderboardView>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::InvalidQuery(e.body_text()))?;
    let name = q
        .pool
        .as_deref()
        .ok_or_else(|| ApiError::InvalidQuery("pool is required".into()))?;
    let pool = crate::stored::pool_named(name).ok_or(ApiError::UnknownPool)?;
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::InvalidQuery(format!(
            "limit is between 1 and {MAX_LIMIT}"
        )));
    }
    let offset = q.offset.unwrap_or(0);
    if offset > MAX_OFFSET {
        return Err(ApiError::InvalidQuery(format!(
            "offset is at most {MAX_OFFSET}"
        )));
    }
    let now = accounts.now_ms();
    let standings = accounts
        .store()
        .leaderboard(pool.clone(), &store::BoardRule::at(now), limit, offset)
        .await?;
    let entries = standings
        .iter()
        .zip(offset + 1..)
        .map(|(s, rank)| Entry {
            rank,
            name: s.name.clone(),
            standing: StandingView::at(s, now),
        })
        .collect();
    Ok(Json(LeaderboardView {
        pool: pool.name().into_owned(),
        min_games: MIN_GAMES,
        min_opponents: rule::BOARD_OPPONENTS,
        max_deviation: rule::BOARD_DEVIATION,
        active_days: rule::BOARD_ACTIVE_DAYS,
        limit,
        offset,
        entries,
    }))
}

/// One row of the tier table.
#[derive(Serialize)]
pub struct TierView {
    /// Stable code.
    pub code: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Lowest rating that earns it; `null` for Unranked (no rating) and Beginner (no floor).
    pub min_rating: Option<f64>,
}

/// The tier table.
#[derive(Serialize)]
pub struct TiersView {
    /// A rating whose deviation is above this is provisional: its number and tier are marked so.
    pub provisional_deviation: f64,
    /// Unranked first, then lowest to highest.
    pub tiers: Vec<TierView>,
}

/// The tier table from the ratings crate, so clients take names and thresholds from the server.
pub async fn tiers() -> Json<TiersView> {
    Json(TiersView {
        provisional_deviation: PROVISIONAL_DEVIATION,
        tiers: Tier::all()
            .map(|t| TierView {
                code: t.code(),
                name: t.name(),
                min_rating: t.min_rating().filter(|m| m.is_finite()),
            })
            .collect(),
    })
}
