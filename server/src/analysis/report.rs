//! What an analysis says, as the HTTP API sends it and the store keeps it (JSON): an evaluation of every
//! position of a game and a judgment of every move.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a game's analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    /// Nobody asked for one (or the last request was cancelled).
    None,
    /// Waiting for its turn (one analysis runs at a time by default).
    Queued,
    /// The engine is at it.
    Running,
    /// Stored: `result` holds it.
    Done,
    /// The request was cancelled before it finished.
    Cancelled,
    /// The engine could not analyse this game (it does not replay, say).
    Failed,
}

/// `GET`, `POST` and `DELETE /api/games/{id}/analysis`: a game's analysis, finished or under way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AnalysisView {
    /// Where it stands.
    pub status: AnalysisStatus,
    /// Positions evaluated so far (all of them once done).
    pub done: u32,
    /// Positions to evaluate (the actions plus one).
    pub total: u32,
    /// While queued: analyses ahead of this one (0 is next).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ahead: Option<u32>,
    /// Once done: the analysis.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Analysis>,
}

/// A finished analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Analysis {
    /// The game's kind (`gomoku`, `othello`, `draughts`, `insect`).
    pub game: String,
    /// What analysed it: the brain and its level (`engine 8`).
    pub engine: String,
    /// Milliseconds the engine had for each position.
    pub ms_per_position: u64,
    /// Every position from the start: `positions[i]` is the position before action `i`, the last one the final
    /// position.
    pub positions: Vec<PositionEval>,
    /// Every action, in order, with the engine's judgment.
    pub moves: Vec<MoveJudgment>,
    /// When it finished (milliseconds since the epoch).
    pub created_at: i64,
}

/// The engine's view of one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PositionEval {
    /// The game's move number here (moves played so far, as the record counts them: opening decisions and
    /// passes are not moves).
    pub ply: u32,
    /// Who acts here (`black`, `white`); none once the game is over.
    pub to_act: Option<String>,
    /// Whether the side to act is the game's first colour (Gomoku's and Othello's black, draughts' white).
    pub first_to_act: bool,
    /// The score for the side to act.
    pub score: ScoreView,
    /// The advantage of the game's first colour in -1…1 (1: a win for it), what the graph draws.
    pub advantage: f64,
    /// The engine's best action here, in the game's notation (none once over).
    pub best: Option<String>,
    /// The line it expects, `best` first.
    pub line: Vec<String>,
    /// Gomoku: the side to act has a VCF (a victory by continuous fours).
    pub vcf: bool,
    /// How deep the search went.
    pub depth: u32,
}

/// A score for the side to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum ScoreView {
    /// The search's estimate in hundredths of the game's unit (a disc, a man; Gomoku's and insect chess's own
    /// evaluation points).
    Units(i32),
    /// Othello: the exact final disc difference under perfect play (the solver's).
    Exact(i32),
    /// A forced win for the side to act.
    Win,
    /// A forced loss for the side to act.
    Loss,
    /// The game is over: a win, a loss or a draw for the side that moved last is in `advantage`.
    Over,
}

impl From<engine::brain::Score> for ScoreView {
    fn from(score: engine::brain::Score) -> ScoreView {
        use engine::brain::Score;
        match score {
            Score::Units(u) => ScoreView::Units(u),
            Score::Exact(d) => ScoreView::Exact(d),
            Score::Win => ScoreView::Win,
            Score::Loss => ScoreView::Loss,
        }
    }
}

/// How bad a move was.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Judgment {
    /// A small loss.
    Inaccuracy,
    /// A clear loss.
    Mistake,
    /// A loss that changes the result.
    Blunder,
}

/// Why a move was judged (the thresholds of each game are in `docs/engine.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Gomoku: the mover had a VCF and played something that lost it.
    MissedVcf,
    /// Gomoku: the move left the opponent a VCF.
    AllowedVcf,
    /// The mover had a proved win and lost it.
    MissedWin,
    /// The move left the opponent a proved win.
    AllowedWin,
    /// Othello: discs lost against the exact solver's best.
    DiscLoss,
    /// Draughts: material lost (the evaluation's drop, in men).
    MaterialLoss,
    /// The evaluation dropped.
    EvalDrop,
}

/// One action and what the engine thinks of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MoveJudgment {
    /// The action, in the game's notation.
    pub notation: String,
    /// Who took it (`black`, `white`).
    pub mover: Option<String>,
    /// How bad it was; none for a good move.
    pub judgment: Option<Judgment>,
    /// Why.
    pub reason: Option<Reason>,
    /// What it lost, in the reason's unit (discs, hundredths of a man, evaluation points); none for a win or a
    /// VCF missed or allowed.
    pub loss: Option<i32>,
    /// The engine's best action instead, when it was another.
    pub best: Option<String>,
}
