//! The games on the wire: each game's own forms in its own file (a [`WireGame`](crate::WireGame)), and the one
//! list below that makes the tagged unions [`GameSpec`], [`GameView`], [`GameChange`] and [`GameDetail`].

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

use crate::game::{wire_games, GamePhase, GameSpecError, WireGame};

// The one list of games on the wire: a game is its own module and one line here.
mod draughts;
mod gomoku;
mod insect;
mod othello;

pub use draughts::*;
pub use gomoku::*;
pub use insect::*;
pub use othello::*;

wire_games! {
    Gomoku(games::Gomoku) = "gomoku",
    Othello(games::Othello) = "othello",
    Draughts(games::Draughts) = "draughts",
    Insect(games::insect::Insect) = "insect",
}
