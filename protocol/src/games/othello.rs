//! Othello on the wire.

use games::{OthelloChange, OthelloConfig, OthelloDelta, OthelloDetail, OthelloView};
use rules::othello::Scoring;
use rules::Color;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::{texts, GamePhase, GameSpecError, WireGame};

/// Othello's configuration on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OthelloSpec {
    /// How the empty squares of a board left unfinished are scored (default `japanese`).
    #[serde(default)]
    pub scoring: OthelloScoring,
}

/// How an Othello board with empty squares left is scored, on the wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OthelloScoring {
    /// Every empty square goes to the winner (the default).
    #[default]
    Japanese,
    /// The empty squares are split evenly; an odd one goes to the winner.
    European,
}

impl From<Scoring> for OthelloScoring {
    fn from(s: Scoring) -> OthelloScoring {
        match s {
            Scoring::Japanese => OthelloScoring::Japanese,
            Scoring::European => OthelloScoring::European,
        }
    }
}

impl From<OthelloScoring> for Scoring {
    fn from(s: OthelloScoring) -> Scoring {
        match s {
            OthelloScoring::Japanese => Scoring::Japanese,
            OthelloScoring::European => Scoring::European,
        }
    }
}

/// An Othello position as [`crate::GameView`] carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OthelloPosition {
    /// The 64 squares `a1`, `b1`, …, `h1`, then `a2`, …: `.` empty, `b` black, `w` white.
    pub board: String,
    /// Black discs.
    pub black: u8,
    /// White discs.
    pub white: u8,
    /// Who acts, while the game runs.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub to_act: Option<Color>,
    /// `place` or `pass`, while the game runs.
    pub phase: Option<GamePhase>,
    /// Where the side to act may place, while the game runs (empty when it must pass).
    pub legal: Vec<String>,
    /// The last action (`f5` or `pass`), to mark on the board.
    pub last: Option<String>,
    /// Every accepted action's notation, in order.
    pub actions: Vec<String>,
}

/// What an Othello action changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OthelloChanged {
    /// The disc placed, `null` for a pass.
    pub placed: Option<String>,
    /// The discs it flipped, in index order.
    pub flipped: Vec<String>,
    /// Black discs after it.
    pub black: u8,
    /// White discs after it.
    pub white: u8,
    /// Where the side to act next may place (empty when it must pass or the game is over).
    pub legal: Vec<String>,
}

/// What an Othello result carries: the discs and the score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OthelloOutcome {
    /// The discs on the board.
    pub discs: Discs,
    /// The final counts with the empty squares given out.
    pub scored: Discs,
    /// The scoring used.
    pub scoring: OthelloScoring,
    /// The result as shown, from `scored`: `black 40–24`, `white 33–31`, `draw 32–32` (empty from a server that
    /// predates it).
    #[serde(default)]
    pub score: String,
}

/// Disc counts of Othello.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Discs {
    /// Black's.
    pub black: u8,
    /// White's.
    pub white: u8,
}

fn disc_char(disc: Option<Color>) -> char {
    match disc {
        None => '.',
        Some(Color::Black) => 'b',
        Some(Color::White) => 'w',
    }
}

impl WireGame for games::Othello {
    const DOC: &'static str = "Othello.";
    const PHASES: &'static [&'static str] = &["place", "pass"];
    type Spec = OthelloSpec;
    type Position = OthelloPosition;
    type Changed = OthelloChanged;
    type Outcome = OthelloOutcome;

    fn spec(config: &OthelloConfig) -> OthelloSpec {
        OthelloSpec {
            scoring: config.scoring().into(),
        }
    }

    fn config(spec: &OthelloSpec) -> Result<OthelloConfig, GameSpecError> {
        Ok(OthelloConfig::new(spec.scoring.into()))
    }

    fn position(v: &OthelloView, actions: Vec<String>) -> OthelloPosition {
        OthelloPosition {
            board: v.cells.iter().copied().map(disc_char).collect(),
            black: v.black,
            white: v.white,
            to_act: v.to_act,
            phase: v.phase.as_ref().map(GamePhase::of),
            legal: texts(&v.legal),
            last: v.last.map(|m| m.to_string()),
            actions,
        }
    }

    fn position_actions(p: &OthelloPosition) -> &[String] {
        &p.actions
    }

    fn changed(d: &OthelloDelta, _after: Option<&games::Othello>) -> OthelloChanged {
        let (placed, flipped) = match &d.change {
            OthelloChange::Placed {
                square, flipped, ..
            } => (Some(square.to_string()), texts(flipped)),
            OthelloChange::Passed { .. } => (None, Vec::new()),
        };
        OthelloChanged {
            placed,
            flipped,
            black: d.black,
            white: d.white,
            legal: texts(&d.legal),
        }
    }

    fn next(d: &OthelloDelta) -> (Option<Color>, Option<GamePhase>) {
        (d.status.to_act(), d.status.phase().map(GamePhase::of))
    }

    fn outcome(d: &OthelloDetail) -> Option<OthelloOutcome> {
        Some(OthelloOutcome {
            discs: Discs {
                black: d.discs.black,
                white: d.discs.white,
            },
            scored: Discs {
                black: d.scored.black,
                white: d.scored.white,
            },
            scoring: d.scoring.into(),
            score: d.result_text(),
        })
    }
}
