//! `GET /api/quick`: the quick-pairing presets of every game (what the lobby draws a tile for), in the order of
//! `quick_counts`. Seeks are made over the WebSocket (`seek_quick`).

use axum::routing::get;
use axum::{Json, Router};
use protocol::{GameSpec, TimeControl};
use schemars::JsonSchema;
use serde::Serialize;

use crate::AppState;

/// The quick-pairing route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/quick", get(quick))
}

/// One quick-pairing preset.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QuickPresetView {
    /// Its id, as `seek_quick` and `quick_counts` name it (`renju-5+3`, `othello-3+2`).
    pub id: &'static str,
    /// The game and its configuration (the game's name is its `game`).
    pub game: GameSpec,
    /// Its time control.
    pub time_control: TimeControl,
}

/// Every preset, game by game in the server's list of games.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QuickPresets {
    /// The presets, in the order of `quick_counts` (which ends with `custom`, not listed here).
    pub presets: Vec<QuickPresetView>,
}

/// The presets as served.
pub fn presets() -> QuickPresets {
    QuickPresets {
        presets: crate::pairing::presets()
            .iter()
            .map(|p| QuickPresetView {
                id: p.id,
                game: GameSpec::from(p.config),
                time_control: p.time_control,
            })
            .collect(),
    }
}

async fn quick() -> Json<QuickPresets> {
    Json(presets())
}
