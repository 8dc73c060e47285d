//! `GET /api/games/{id}`: the record of a game, finished or live.
//!
//! `{id}` is the game's public id (random, unguessable), which is how links name games. A private game's record
//! is served only by it: its public id reaches only the players and those in its room (who had the invite
//! link). The integer id still finds a public game, so old links keep working; it never finds a private one.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use protocol::{RulesSpec, TimeControl};
use rules::{Action, Color, Point, Status, WinReason};
use schemars::JsonSchema;
use serde::Serialize;
use store::{GameId, GameRecord, PlayerRef, SeatsAtEnd};

use super::ApiError;
use crate::room::stored_time_control;
use crate::AppState;

/// Longer ids are not looked up (the server makes 16 characters; backfilled ones have 20).
const MAX_PUBLIC_ID: usize = 64;

/// The games route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}", get(game))
}

/// A player of a game record.
#[derive(Serialize, JsonSchema)]
struct PlayerView {
    name: String,
    guest: bool,
}

/// One stored action.
#[derive(Serialize, JsonSchema)]
struct ActionView {
    seq: u32,
    #[schemars(with = "protocol::schema::ActionDef")]
    action: Action,
    used_ms: i64,
    remaining_ms: Option<[i64; 2]>,
    at: i64,
}

/// How the game ended.
#[derive(Serialize, JsonSchema)]
struct EndView {
    #[schemars(with = "Option<protocol::schema::ColorDef>")]
    winner: Option<Color>,
    /// The winner's name (the player who held the winning colour at the end).
    winner_name: Option<String>,
    /// A five's stones, when a five decided the game.
    #[schemars(with = "Option<Vec<protocol::schema::PointDef>>")]
    line: Option<Vec<Point>>,
    aborted: bool,
    reason: String,
    ended_at: i64,
}

/// A rating change.
#[derive(Serialize, JsonSchema)]
struct RatingView {
    name: String,
    before: f64,
    after: f64,
}

/// A game record as JSON.
#[derive(Serialize, JsonSchema)]
pub(super) struct GameView {
    id: GameId,
    public_id: String,
    /// The room, for a public game only: a private room's id is its invite link, and a record may be shared
    /// further than the room.
    room: Option<String>,
    rules: RulesSpec,
    time_control: TimeControl,
    rated: bool,
    /// The player who held black at the end (after any swap), as the room and profiles name them.
    black: PlayerView,
    /// The player who held white at the end.
    white: PlayerView,
    started_at: i64,
    /// Every action in order.
    actions: Vec<ActionView>,
    /// The stones in order (black first, alternating).
    #[schemars(with = "Vec<protocol::schema::PointDef>")]
    moves: Vec<Point>,
    /// Whether the players exchanged colours after move 3 (so `black` started with white).
    swapped: bool,
    result: Option<EndView>,
    ratings: Option<Vec<RatingView>>,
}

fn player(p: &PlayerRef) -> PlayerView {
    PlayerView {
        name: p.name.clone(),
        guest: p.user_id.is_none(),
    }
}

fn view(record: GameRecord) -> GameView {
    let replay = crate::gomoku::replay(&record);
    let names = [&record.game.black, &record.game.white];
    let ratings = record.rating_changes.as_ref().map(|changes| {
        changes
            .iter()
            .map(|c| RatingView {
                name: names
                    .iter()
                    .find(|p| p.user_id == Some(c.user_id))
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                before: c.before.rating,
                after: c.after.rating,
            })
            .collect()
    });
    // One rule everywhere (the room, profiles, records): the players as they held the colours at the end. The store
    // keeps the seats at the start; a swap in the opening exchanged them.
    let seats = replay
        .as_ref()
        .map_or(SeatsAtEnd::AsStarted, crate::gomoku::seats_now);
    let swapped = seats == SeatsAtEnd::Exchanged;
    let (black, white) = seats.arrange(&record.game.black, &record.game.white);
    let line = replay.as_ref().and_then(|g| match g.status() {
        Status::Won {
            reason: WinReason::Five { line },
            ..
        } => Some(line.points().to_vec()),
        _ => None,
    });
    let winner_name = |c: Color| match c {
        Color::Black => black.name.clone(),
        Color::White => white.name.clone(),
    };
    GameView {
        id: record.id,
        public_id: record.game.public_id.clone(),
        room: record.game.public.then(|| record.game.room.clone()),
        rules: RulesSpec::from(record.game.rules),
        time_control: stored_time_control(&record.game.time_control),
        rated: record.game.rated,
        black: player(black),
        white: player(white),
        started_at: record.game.started_at,
        moves: replay
            .as_ref()
            .map(|g| g.moves().to_vec())
            .unwrap_or_default(),
        swapped,
        actions: record
            .actions
            .into_iter()
            .map(|a| ActionView {
                seq: a.seq,
                action: a.action,
                used_ms: a.used_ms,
                remaining_ms: a.remaining_ms,
                at: a.at,
            })
            .collect(),
        result: record.end.map(|e| EndView {
            winner: e.winner,
            winner_name: e.winner.map(winner_name),
            line,
            aborted: e.aborted,
            reason: e.reason,
            ended_at: e.ended_at,
        }),
        ratings,
    }
}

async fn game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let not_found = || ApiError::not_found("unknown_game", "no such game");
    let record = match id.parse::<GameId>() {
        // Sequential ids can be walked: they reach public games only, and a private one is as unknown.
        Ok(number) => state
            .store
            .game(number)
            .await
            .map_err(ApiError::internal)?
            .filter(|r| r.game.public),
        Err(_) if id.len() <= MAX_PUBLIC_ID => state
            .store
            .game_by_public_id(&id)
            .await
            .map_err(ApiError::internal)?,
        Err(_) => None,
    }
    .ok_or_else(not_found)?;
    Ok(Json(
        serde_json::to_value(view(record)).map_err(ApiError::internal)?,
    ))
}
