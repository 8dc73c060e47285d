//! Insect chess (昆虫棋) on the wire. South, who moves first, is the seam's `black`; north is `white`.

use games::insect::{Insect, InsectConfig, InsectDelta, InsectDetail, InsectView};
use rules::insect::{Kind, Piece, Side};
use rules::Color;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::{texts, GamePhase, GameSpecError, WireGame};

/// Insect chess's configuration on the wire: no fields (the settled rules are the only variant).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct InsectSpec {}

/// An insect-chess position as [`crate::GameView`] carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InsectPosition {
    /// The 77 squares, rank 11 first down to rank 1, files `a` to `g` within a rank: `.` empty, `S` scorpion, `C`
    /// centipede, `L` wolf spider, `T` tiger beetle, `W` wasp, `D` diving beetle; upper case south's, lower case
    /// north's (the rules page's placement, one character a square).
    pub board: String,
    /// Who acts, while the game runs (`black` is south).
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub to_act: Option<Color>,
    /// `move`, while the game runs.
    pub phase: Option<GamePhase>,
    /// The legal moves of the side to act (`e2-e3`), while the game runs.
    pub legal: Vec<String>,
    /// The last move, to mark on the board.
    pub last: Option<String>,
    /// Plies in a row without a capture (the game is drawn at 100).
    pub no_capture: u32,
    /// How often the position now has stood, now included (drawn at 3).
    pub repetitions: u32,
    /// Moves made.
    pub ply: u32,
    /// Every accepted move's notation, in order.
    pub actions: Vec<String>,
}

/// What an insect-chess move changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InsectChanged {
    /// The square the piece left.
    pub from: String,
    /// The square it landed on.
    pub to: String,
    /// The insect that moved: `scorpion`, `centipede`, `wolf_spider`, `tiger_beetle`, `wasp`, `diving_beetle`.
    pub piece: String,
    /// The enemy insect it captured, if any.
    pub captured: Option<String>,
    /// Moves made after it (the first move is ply 1).
    pub ply: u32,
    /// Plies in a row without a capture after it.
    pub no_capture: u32,
    /// The next side's legal moves (empty once the game is over).
    pub legal: Vec<String>,
}

/// What an insect-chess result carries: the rule that decided it (`food`, `no_pieces`, `no_moves`,
/// `repetition`, `no_capture`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InsectOutcome {
    /// The rule's code.
    pub rule: String,
}

fn piece_char(piece: Option<Piece>) -> char {
    piece.map_or('.', |p| match p.side {
        Side::South => p.kind.letter(),
        Side::North => p.kind.letter().to_ascii_lowercase(),
    })
}

fn kind_name(kind: Kind) -> String {
    kind.as_str().to_owned()
}

impl WireGame for Insect {
    const DOC: &'static str = "Insect chess (昆虫棋).";
    const PHASES: &'static [&'static str] = &["move"];
    type Spec = InsectSpec;
    type Position = InsectPosition;
    type Changed = InsectChanged;
    type Outcome = InsectOutcome;

    fn spec(_: &InsectConfig) -> InsectSpec {
        InsectSpec {}
    }

    fn config(_: &InsectSpec) -> Result<InsectConfig, GameSpecError> {
        Ok(InsectConfig::standard())
    }

    fn position(v: &InsectView, actions: Vec<String>) -> InsectPosition {
        let files = rules::insect::FILES as usize;
        // The view lists squares in index order (rank 1 first); the wire reads from rank 11 down.
        let board = v
            .squares
            .chunks(files)
            .rev()
            .flat_map(|rank| rank.iter().copied().map(piece_char))
            .collect();
        InsectPosition {
            board,
            to_act: v.to_act,
            phase: v.phase.as_ref().map(GamePhase::of),
            legal: texts(&v.legal),
            last: v.last.map(|m| m.to_string()),
            no_capture: v.no_capture,
            repetitions: v.repetitions,
            ply: v.ply,
            actions,
        }
    }

    fn position_actions(p: &InsectPosition) -> &[String] {
        &p.actions
    }

    fn changed(d: &InsectDelta, _after: Option<&Insect>) -> InsectChanged {
        InsectChanged {
            from: d.change.mv.from().to_string(),
            to: d.change.mv.to().to_string(),
            piece: kind_name(d.change.kind),
            captured: d.change.captured.map(kind_name),
            ply: d.ply,
            no_capture: d.no_capture,
            legal: texts(&d.legal),
        }
    }

    fn next(d: &InsectDelta) -> (Option<Color>, Option<GamePhase>) {
        (d.status.to_act(), d.status.phase().map(GamePhase::of))
    }

    fn outcome(d: &InsectDetail) -> Option<InsectOutcome> {
        Some(InsectOutcome {
            rule: d.rule.to_owned(),
        })
    }
}
