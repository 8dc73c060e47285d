//! `GET /api/computer`: the computer's levels (with the names a client shows) and whether it takes new games now,
//! for a "Play the computer" dialog. Games are started over the WebSocket (`play_computer`, `invite_computer`).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use schemars::JsonSchema;
use serde::Serialize;

use crate::computer::account::{name_of, MAX_LEVEL, MIN_LEVEL};
use crate::AppState;

/// The computer route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/computer", get(computer))
}

/// One level of the computer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ComputerLevel {
    /// 1 (beginner) to 8 (full strength).
    pub level: u8,
    /// Its account's name, as seats show it (`computer-5`).
    pub name: String,
    /// Its label in English (`Computer · level 5`).
    pub en: String,
    /// Its label in Chinese (`电脑 · 5级`).
    pub zh: String,
}

/// A game the computer plays, and its strongest level there (a level asked above it plays this one).
#[derive(Debug, Serialize, JsonSchema)]
pub struct ComputerGame {
    /// The game's name (`gomoku`, `othello`, `insect`).
    pub game: &'static str,
    /// Its strongest level (8 for Gomoku and Othello, 4 for insect chess).
    pub max_level: u8,
}

/// The games the computer plays, in the list's order ([`crate::computer::max_level`]).
pub fn games_played() -> Vec<ComputerGame> {
    games::GameKind::ALL
        .into_iter()
        .filter_map(|kind| {
            crate::computer::max_level(kind).map(|max_level| ComputerGame {
                game: kind.as_str(),
                max_level,
            })
        })
        .collect()
}

/// The computer as a client offers it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ComputerView {
    /// Its levels, 1 to 8.
    pub levels: Vec<ComputerLevel>,
    /// Whether a new game would be refused now (`computer_busy`): every search thread busy and every queue
    /// place taken, or as many games as the server plays at once.
    pub busy: bool,
    /// Games against the computer being played now.
    pub games: usize,
    /// The most games the server plays against people at once.
    pub max_games: usize,
    /// Search threads.
    pub threads: usize,
    /// The external engines this server offers (`play_computer` with `engine`).
    pub engines: Vec<String>,
    /// The games it plays, with each one's strongest level (`play_computer` with another game is `no_engine`).
    pub plays: Vec<ComputerGame>,
}

async fn computer(State(state): State<AppState>) -> Json<ComputerView> {
    let c = &state.computer;
    Json(ComputerView {
        levels: (MIN_LEVEL..=MAX_LEVEL)
            .map(|level| ComputerLevel {
                level,
                name: name_of(level),
                en: format!("Computer · level {level}"),
                zh: format!("电脑 · {level}级"),
            })
            .collect(),
        busy: c.pool().saturated() || c.games() >= c.max_games(),
        games: c.games(),
        max_games: c.max_games(),
        threads: c.pool().threads(),
        engines: c.engine_names(),
        plays: games_played(),
    })
}
