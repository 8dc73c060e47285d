//! Computer analysis over HTTP (issue #33): `POST /api/games/{id}/analysis` asks for a finished game's
//! analysis, `GET` says where it stands (and gives it once done), `DELETE` cancels the request;
//! `POST /api/analysis/evaluate` is the analysis board's engine, one posted position at a time.
//!
//! Asking and cancelling need a session (an account's or a guest's, as `GET /api/me` reads it): the daily
//! limit is per player. Reading an analysis needs nothing but the game's id, like its record.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use store::GameRecord;

use super::ApiError;
use crate::accounts::ClientIp;
use crate::analysis::report::{AnalysisStatus, AnalysisView, ScoreView};
use crate::analysis::{judge, position_of, Refusal};
use crate::AppState;

/// The most actions a posted position may have.
pub const MAX_EVALUATE_ACTIONS: usize = 1_000;

/// The analysis routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/games/{id}/analysis",
            get(status).post(request).delete(cancel),
        )
        .route("/api/analysis/evaluate", post(evaluate))
}

fn error(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError {
        status,
        code,
        message: message.into(),
    }
}

/// The player a request's session stands for, as a key of the daily limit (`user:7`, `guest:guest-ab12`).
async fn requester(state: &AppState, headers: &HeaderMap) -> Result<String, ApiError> {
    let player = match crate::accounts::token::from_headers(headers) {
        Some(token) => state
            .analyses
            .player_of(&token)
            .await
            .map_err(ApiError::internal)?,
        None => None,
    };
    match player {
        Some(player) => Ok(player),
        None => Err(error(
            StatusCode::UNAUTHORIZED,
            "not_authenticated",
            "sign in (or play as a guest) to ask for an analysis",
        )),
    }
}

/// The positions of a record: its actions plus one.
fn total_of(record: &GameRecord) -> u32 {
    record.actions.len() as u32 + 1
}

async fn status(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AnalysisView>, ApiError> {
    let record = super::games::record_of(&state, &id).await?;
    let view = state
        .analyses
        .view(record.id, total_of(&record))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(view))
}

/// `POST /api/games/{id}/analysis`: `200` with the stored analysis, `202` queued or running (the same
/// answer for a repeated request, which costs nothing), `401 not_authenticated`, `404 unknown_game`,
/// `409 game_not_finished`, `422 no_engine`, `429 analysis_limit` (the player's requests of the last 24
/// hours used up), `503 analysis_busy` (every place in the queue taken, with `Retry-After`).
async fn request(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let record = super::games::record_of(&state, &id).await?;
    let player = requester(&state, &headers).await?;
    let now = state.analyses.now_ms();
    let answer = state
        .analyses
        .request(record.id, &record, &player, now)
        .await
        .map_err(ApiError::internal)?;
    match answer {
        Ok(view) => {
            let code = if view.status == AnalysisStatus::Done {
                StatusCode::OK
            } else {
                StatusCode::ACCEPTED
            };
            Ok((code, Json(view)).into_response())
        }
        Err(Refusal::DailyLimit(limit)) => Ok((
            StatusCode::TOO_MANY_REQUESTS,
            Json(json!({
                "code": "analysis_limit",
                "message": format!("at most {limit} analyses a day"),
                "limit": limit,
            })),
        )
            .into_response()),
        Err(Refusal::Busy) => {
            let mut response = error(
                StatusCode::SERVICE_UNAVAILABLE,
                "analysis_busy",
                "too many analyses are waiting; try again later",
            )
            .into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
            Ok(response)
        }
        Err(Refusal::NotFinished) => Err(error(
            StatusCode::CONFLICT,
            "game_not_finished",
            "only a finished game is analysed",
        )),
        Err(Refusal::NoEngine) => Err(error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "no_engine",
            "no engine analyses this game",
        )),
    }
}

/// `DELETE /api/games/{id}/analysis`: cancels the caller's request (`200`, status `cancelled`); `404
/// no_analysis_job` when none is queued or running, `403 not_requester` when someone else asked for it.
async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<AnalysisView>, ApiError> {
    let record = super::games::record_of(&state, &id).await?;
    let player = requester(&state, &headers).await?;
    match state.analyses.cancel(record.id, &player) {
        Some(true) => Ok(Json(AnalysisView {
            status: AnalysisStatus::Cancelled,
            done: 0,
            total: total_of(&record),
            ahead: None,
            result: None,
        })),
        Some(false) => Err(error(
            StatusCode::FORBIDDEN,
            "not_requester",
            "only the player who asked for an analysis cancels it",
        )),
        None => Err(ApiError::not_found(
            "no_analysis_job",
            "no analysis of this game is queued or running",
        )),
    }
}

/// A position for the analysis board's engine: a game, its configuration, the actions from the start.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateRequest {
    /// The game (`gomoku`, `othello`, `draughts`, `insect`).
    #[schemars(schema_with = "game_names")]
    pub game: String,
    /// Its configuration as a record stores it (`size=15,rule_set=renju,forbidden_policy=reject,opening=none`);
    /// none for the game's default.
    #[serde(default)]
    pub config: Option<String>,
    /// The actions from the start, in the game's notation (at most 1,000).
    #[schemars(length(max = 1000))]
    pub actions: Vec<String>,
    /// Milliseconds to think, at most the server's cap (`--analysis-evaluate-ms`, the default).
    #[serde(default, deserialize_with = "super::whole")]
    pub ms: Option<u64>,
}

/// The schema of a game's name: one of the games' list ([`games::GameKind::ALL`]).
fn game_names(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let names: Vec<&str> = games::GameKind::ALL.iter().map(|k| k.as_str()).collect();
    schemars::json_schema!({ "type": "string", "enum": names })
}

/// The engine's view of a posted position.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EvaluateAnswer {
    /// Who acts (`black`, `white`); none once the game is over.
    pub to_act: Option<String>,
    /// The score for the side to act (`over` when the game is over).
    pub score: ScoreView,
    /// The advantage of the game's first colour in -1…1.
    pub advantage: f64,
    /// The best action, in the game's notation.
    pub best: Option<String>,
    /// The expected line, `best` first.
    pub line: Vec<String>,
    /// Gomoku: the side to act has a VCF.
    pub vcf: bool,
    /// How deep the search went.
    pub depth: u32,
}

/// `POST /api/analysis/evaluate`: the engine's best action and line for a posted position, thinking at most
/// `--analysis-evaluate-ms`. `400` with `invalid_body`, `unknown_game`, `invalid_config`, `invalid_action`,
/// `illegal_action` or `too_many_actions`; `429 rate_limited` past `--analysis-evaluates-per-minute` from one
/// address (with `Retry-After`); `503 analysis_busy` while every turn at the engine is taken.
async fn evaluate(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    body: Result<Json<EvaluateRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) =
        body.map_err(|e| error(StatusCode::BAD_REQUEST, "invalid_body", e.body_text()))?;
    if let Err(wait) = state
        .analyses
        .take_board_turn(crate::limits::address_key(ip), state.analyses.now())
    {
        let mut e = error(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many positions evaluated; wait a little",
        )
        .into_response();
        let secs = wait.as_secs().max(1);
        e.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        return Ok(e);
    }
    let kind: games::GameKind = body.game.parse().map_err(|_| {
        error(
            StatusCode::BAD_REQUEST,
            "unknown_game",
            format!("no game is called {:?}", body.game),
        )
    })?;
    if body.actions.len() > MAX_EVALUATE_ACTIONS {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "too_many_actions",
            format!("at most {MAX_EVALUATE_ACTIONS} actions"),
        ));
    }
    let game = position_of(kind, body.config.as_deref(), &body.actions)
        .map_err(|(code, message)| error(StatusCode::BAD_REQUEST, code, message))?;
    let to_act = games::Game::to_act(&game);
    let first = games::Game::first_colour(&game);
    let evaluation = state
        .analyses
        .evaluate(game.clone(), body.ms)
        .await
        .map_err(|()| {
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "analysis_busy",
                "the engine is busy; try again in a moment",
            )
        })?;
    let answer = match (evaluation, to_act) {
        (Some(e), Some(side)) => EvaluateAnswer {
            to_act: Some(side.as_str().to_owned()),
            score: ScoreView::from(e.score),
            advantage: judge::advantage(kind, judge::Seen::of(e.score, side, first)),
            best: Some(e.best.notation()),
            line: e.pv.iter().map(games::AnyAction::notation).collect(),
            vcf: e.vcf,
            depth: e.depth,
        },
        _ => EvaluateAnswer {
            to_act: None,
            score: ScoreView::Over,
            advantage: 0.0,
            best: None,
            line: Vec::new(),
            vcf: false,
            depth: 0,
        },
    };
    Ok(Json(answer).into_response())
}

#[cfg(test)]
mod tests {
    use super::EvaluateRequest;

    fn ms(text: &str) -> Result<Option<u64>, String> {
        serde_json::from_str::<EvaluateRequest>(&format!(
            r#"{{"game":"gomoku","actions":[],"ms":{text}}}"#
        ))
        .map(|r| r.ms)
        .map_err(|e| e.to_string())
    }

    #[test]
    fn a_think_time_is_any_whole_number_json_can_write() {
        assert_eq!(ms("400"), Ok(Some(400)));
        assert_eq!(ms("400.0"), Ok(Some(400)));
        assert_eq!(ms("0"), Ok(Some(0)));
        assert_eq!(ms("null"), Ok(None));
        assert!(ms("400.5").is_err());
        assert!(ms("-1").is_err());
        assert!(ms("-1.0").is_err());
        assert!(ms("\"400\"").is_err());
    }
}
