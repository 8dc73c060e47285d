//! International draughts on the wire.

use games::{
    Draughts, DraughtsChange, DraughtsConfig, DraughtsCounters, DraughtsDelta, DraughtsDetail,
    DraughtsLegalMove, DraughtsView, Game,
};
use rules::draughts::{Piece, Role};
use rules::Color;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::{GamePhase, GameSpecError, WireGame};

/// Draughts' configuration on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DraughtsSpec {
    /// The variant (default, and only, `international`).
    #[serde(default)]
    pub variant: DraughtsVariant,
}

/// A draughts variant, on the wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DraughtsVariant {
    /// International draughts: 10x10, FMJD rules (the default and only one).
    #[default]
    International,
}

/// A draughts position as [`crate::GameView`] carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DraughtsPosition {
    /// The 50 squares, square 1 first: `.` empty, `w`/`b` a white/black man, `W`/`B` a king.
    pub board: String,
    /// Who acts, while the game runs.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub to_act: Option<Color>,
    /// The legal moves, while the game runs (already cut to the majority captures).
    pub legal: Vec<LegalDraughtsMove>,
    /// The draw counters.
    pub counters: DrawCounters,
    /// Moves made.
    pub ply: u32,
    /// Every accepted move's notation (its listed path), in order.
    pub actions: Vec<String>,
}

/// One legal draughts move, as a client draws its route.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LegalDraughtsMove {
    /// Its notation, to send as `act.action` (`32-28`, `28x19x10`).
    #[serde(rename = "move")]
    pub notation: String,
    /// The squares the piece stands on, start first.
    pub path: Vec<u8>,
    /// The squares of the pieces it takes, in increasing order.
    pub captured: Vec<u8>,
    /// Whether a man ends on the far row and is crowned.
    pub crowned: bool,
}

/// The draughts draw counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DrawCounters {
    /// Plies in a row of king moves without capture (the 25-move rule draws at 50).
    pub king_plies: u32,
    /// While an endgame limit runs: its moves each and the plies played under it.
    pub endgame: Option<EndgameCount>,
    /// How often the position now has occurred with this side to move (a third time draws).
    pub repetitions: u32,
}

/// A running endgame limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EndgameCount {
    /// The limit: 16 or 5 moves by each side.
    pub moves_each: u32,
    /// Plies played under it.
    pub played: u32,
}

/// What a draughts move changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DraughtsChanged {
    /// The move's listed path.
    pub path: Vec<u8>,
    /// The pieces taken off, in increasing order.
    pub captured: Vec<u8>,
    /// Whether the man was crowned.
    pub crowned: bool,
    /// Moves made after it (the first move is ply 1).
    pub ply: u32,
    /// The draw counters after it.
    pub counters: DrawCounters,
    /// The next side's legal moves (empty once the game is over).
    pub legal: Vec<LegalDraughtsMove>,
}

/// What a draughts result carries: the rule that decided it (`no_pieces`, `no_moves`, `threefold`,
/// `twenty_five_moves`, `endgame_limit`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DraughtsOutcome {
    /// The rule's code.
    pub rule: String,
}

fn squares(set: impl IntoIterator<Item = rules::draughts::Square>) -> Vec<u8> {
    set.into_iter().map(|s| s.number()).collect()
}

fn legal_moves(moves: &[DraughtsLegalMove]) -> Vec<LegalDraughtsMove> {
    moves
        .iter()
        .map(|m| LegalDraughtsMove {
            notation: games::draughts_text(&m.action()),
            path: squares(m.path.iter().copied()),
            captured: squares(m.captured.iter()),
            crowned: m.crowned,
        })
        .collect()
}

impl From<DraughtsCounters> for DrawCounters {
    fn from(c: DraughtsCounters) -> DrawCounters {
        DrawCounters {
            king_plies: c.king_plies,
            endgame: c
                .endgame
                .map(|(moves_each, played)| EndgameCount { moves_each, played }),
            repetitions: c.repetitions,
        }
    }
}

fn piece_char(piece: Option<Piece>) -> char {
    match piece {
        None => '.',
        Some(Piece {
            colour: Color::White,
            role: Role::Man,
        }) => 'w',
        Some(Piece {
            colour: Color::Black,
            role: Role::Man,
        }) => 'b',
        Some(Piece {
            colour: Color::White,
            role: Role::King,
        }) => 'W',
        Some(Piece {
            colour: Color::Black,
            role: Role::King,
        }) => 'B',
    }
}

impl WireGame for Draughts {
    const DOC: &'static str = "International draughts.";
    const PHASES: &'static [&'static str] = &["move"];
    type Spec = DraughtsSpec;
    type Position = DraughtsPosition;
    type Changed = DraughtsChanged;
    type Outcome = DraughtsOutcome;

    fn spec(_: &DraughtsConfig) -> DraughtsSpec {
        // International draughts is the only variant a configuration can hold.
        DraughtsSpec {
            variant: DraughtsVariant::International,
        }
    }

    fn config(spec: &DraughtsSpec) -> Result<DraughtsConfig, GameSpecError> {
        match spec.variant {
            DraughtsVariant::International => Ok(DraughtsConfig::international()),
        }
    }

    fn position(v: &DraughtsView, actions: Vec<String>) -> DraughtsPosition {
        DraughtsPosition {
            board: v.squares.iter().copied().map(piece_char).collect(),
            to_act: v.to_act,
            legal: legal_moves(&v.legal),
            counters: v.counters.into(),
            ply: v.ply,
            actions,
        }
    }

    fn position_actions(p: &DraughtsPosition) -> &[String] {
        &p.actions
    }

    fn changed(d: &DraughtsDelta, after: Option<&Draughts>) -> DraughtsChanged {
        let DraughtsChange::Moved {
            path,
            captured,
            crowned,
            ..
        } = &d.change;
        let legal = match after {
            Some(g) if !d.status.is_over() => legal_moves(&g.legal().moves),
            _ => Vec::new(),
        };
        DraughtsChanged {
            path: squares(path.iter().copied()),
            captured: squares(captured.iter()),
            crowned: *crowned,
            ply: d.ply,
            counters: d.counters.into(),
            legal,
        }
    }

    fn next(d: &DraughtsDelta) -> (Option<Color>, Option<GamePhase>) {
        (d.status.to_act(), d.status.phase().map(GamePhase::of))
    }

    fn outcome(d: &DraughtsDetail) -> Option<DraughtsOutcome> {
        Some(DraughtsOutcome {
            rule: match d {
                DraughtsDetail::Win(reason) => reason.code(),
                DraughtsDetail::Draw(reason) => reason.code(),
            }
            .to_owned(),
        })
    }
}
