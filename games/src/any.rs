//! The closed enum over the games (as shakmaty's `VariantPosition`): the types the room, the protocol and the
//! store hold, each an enum with one variant per game. [`AnyGame`] is itself a [`Game`], so the layers above are
//! typed against the trait and this enum alone. A game added here adds a variant to each enum and an arm to each
//! match; the compiler lists every place.

use std::fmt;

use rules::{Color, IllegalAction, Phase};

use crate::draughts::{
    Draughts, DraughtsAction, DraughtsConfig, DraughtsDelta, DraughtsDetail, DraughtsIllegal,
    DraughtsLegal, DraughtsPhase, DraughtsView,
};
use crate::game::{Coded, Game, GameConfig, Outcome, PoolKey, ReplayError, Seat, Status};
use crate::gomoku::{Gomoku, GomokuConfig, GomokuDelta, GomokuDetail, GomokuLegal, GomokuView};
use crate::notation::NotationError;
use crate::othello::{
    Othello, OthelloConfig, OthelloDelta, OthelloDetail, OthelloLegal, OthelloPhase, OthelloView,
};
use crate::storage::DecodeError;
use crate::GameKind;

/// Any game's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyConfig {
    /// Gomoku or Renju.
    Gomoku(GomokuConfig),
    /// Othello.
    Othello(OthelloConfig),
    /// International draughts.
    Draughts(DraughtsConfig),
}

/// Any game's action (not `Copy`: a draughts move holds its path).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyAction {
    /// Gomoku or Renju.
    Gomoku(rules::Action),
    /// Othello.
    Othello(rules::othello::Move),
    /// International draughts.
    Draughts(DraughtsAction),
}

/// Any game's refusal of an action (not `Copy`: an ambiguous draughts move lists its candidates).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyIllegal {
    /// Gomoku or Renju.
    Gomoku(IllegalAction),
    /// Othello.
    Othello(rules::othello::IllegalMove),
    /// International draughts.
    Draughts(DraughtsIllegal),
    /// An action of another game than the one it was applied to.
    WrongGame,
}

/// Any game's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyPhase {
    /// Gomoku or Renju.
    Gomoku(Phase),
    /// Othello.
    Othello(OthelloPhase),
    /// International draughts.
    Draughts(DraughtsPhase),
}

/// Any game's outcome detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyDetail {
    /// Gomoku or Renju.
    Gomoku(GomokuDetail),
    /// Othello.
    Othello(OthelloDetail),
    /// International draughts.
    Draughts(DraughtsDetail),
}

/// Any game's public view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyView {
    /// Gomoku or Renju.
    Gomoku(GomokuView),
    /// Othello.
    Othello(OthelloView),
    /// International draughts.
    Draughts(DraughtsView),
}

/// Any game's per-action delta.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyDelta {
    /// Gomoku or Renju.
    Gomoku(GomokuDelta),
    /// Othello.
    Othello(OthelloDelta),
    /// International draughts.
    Draughts(DraughtsDelta),
}

/// Any game's legal-action listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyLegal {
    /// Gomoku or Renju.
    Gomoku(GomokuLegal),
    /// Othello.
    Othello(OthelloLegal),
    /// International draughts.
    Draughts(DraughtsLegal),
}

/// Any game.
// A room holds one game for its life and moves it rarely; boxing Gomoku's board would cost every Gomoku access
// an indirection to save Othello's few hundred bytes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// Gomoku or Renju.
    Gomoku(Gomoku),
    /// Othello.
    Othello(Othello),
    /// International draughts.
    Draughts(Draughts),
}

/// Why a stored game does not replay: an action's text does not decode, or the action is illegal there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredReplayError {
    /// The stored text is no action of the game.
    Decode(DecodeError),
    /// The action is illegal at that point of the game.
    Illegal(AnyIllegal),
}

impl StoredReplayError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            StoredReplayError::Decode(e) => e.code(),
            StoredReplayError::Illegal(e) => e.code(),
        }
    }
}

impl fmt::Display for StoredReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredReplayError::Decode(e) => e.fmt(f),
            StoredReplayError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StoredReplayError {}

impl AnyAction {
    /// The game the action belongs to.
    pub const fn kind(&self) -> GameKind {
        match self {
            AnyAction::Gomoku(_) => GameKind::Gomoku,
            AnyAction::Othello(_) => GameKind::Othello,
            AnyAction::Draughts(_) => GameKind::Draughts,
        }
    }

    /// The action's notation.
    pub fn notation(&self) -> String {
        match self {
            AnyAction::Gomoku(a) => Gomoku::notation(a),
            AnyAction::Othello(a) => Othello::notation(a),
            AnyAction::Draughts(a) => Draughts::notation(a),
        }
    }
}

impl fmt::Display for AnyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

impl GameConfig for AnyConfig {
    fn kind(&self) -> GameKind {
        match self {
            AnyConfig::Gomoku(c) => c.kind(),
            AnyConfig::Othello(c) => c.kind(),
            AnyConfig::Draughts(c) => c.kind(),
        }
    }

    fn pool(&self) -> PoolKey {
        match self {
            AnyConfig::Gomoku(c) => c.pool(),
            AnyConfig::Othello(c) => c.pool(),
            AnyConfig::Draughts(c) => c.pool(),
        }
    }

    fn encode(&self) -> String {
        match self {
            AnyConfig::Gomoku(c) => c.encode(),
            AnyConfig::Othello(c) => c.encode(),
            AnyConfig::Draughts(c) => c.encode(),
        }
    }
}

impl Coded for AnyIllegal {
    fn code(&self) -> &'static str {
        match self {
            AnyIllegal::Gomoku(e) => Coded::code(e),
            AnyIllegal::Othello(e) => Coded::code(e),
            AnyIllegal::Draughts(e) => Coded::code(e),
            AnyIllegal::WrongGame => "wrong_game",
        }
    }
}

impl fmt::Display for AnyIllegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyIllegal::Gomoku(e) => e.fmt(f),
            AnyIllegal::Othello(e) => e.fmt(f),
            AnyIllegal::Draughts(e) => e.fmt(f),
            AnyIllegal::WrongGame => f.write_str("the action belongs to another game"),
        }
    }
}

impl std::error::Error for AnyIllegal {}

impl Coded for AnyPhase {
    fn code(&self) -> &'static str {
        match self {
            AnyPhase::Gomoku(p) => p.code(),
            AnyPhase::Othello(p) => p.code(),
            AnyPhase::Draughts(p) => p.code(),
        }
    }
}

fn any_status<P, D>(
    status: Status<P, D>,
    phase: impl FnOnce(P) -> AnyPhase,
    detail: impl FnOnce(D) -> AnyDetail,
) -> Status<AnyPhase, AnyDetail> {
    match status {
        Status::Ongoing { to_act, phase: p } => Status::Ongoing {
            to_act,
            phase: phase(p),
        },
        Status::Over(o) => Status::Over(Outcome {
            winner: o.winner,
            reason: o.reason,
            detail: detail(o.detail),
        }),
    }
}

impl AnyGame {
    /// The game's kind.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Gomoku(_) => GameKind::Gomoku,
            AnyGame::Othello(_) => GameKind::Othello,
            AnyGame::Draughts(_) => GameKind::Draughts,
        }
    }

    /// Replays a stored game: its configuration, the seat that held the first colour at the start, and its
    /// actions' stored texts in order (notation, or the JSON stored before it).
    pub fn replay_stored<S: AsRef<str>>(
        config: AnyConfig,
        first_seat: Seat,
        texts: &[S],
    ) -> Result<AnyGame, ReplayError<StoredReplayError>> {
        let kind = config.kind();
        let mut game = AnyGame::new(config, first_seat);
        for (index, text) in texts.iter().enumerate() {
            let action = AnyAction::decode(kind, text.as_ref()).map_err(|e| ReplayError {
                index,
                reason: StoredReplayError::Decode(e),
            })?;
            game.apply(action).map_err(|e| ReplayError {
                index,
                reason: StoredReplayError::Illegal(e),
            })?;
        }
        Ok(game)
    }
}

impl Game for AnyGame {
    type Config = AnyConfig;
    type Action = AnyAction;
    type Illegal = AnyIllegal;
    type Phase = AnyPhase;
    type Detail = AnyDetail;
    type View = AnyView;
    type Delta = AnyDelta;
    type Legal = AnyLegal;

    fn new(config: AnyConfig, first_seat: Seat) -> AnyGame {
        match config {
            AnyConfig::Gomoku(c) => AnyGame::Gomoku(Gomoku::new(c, first_seat)),
            AnyConfig::Othello(c) => AnyGame::Othello(Othello::new(c, first_seat)),
            AnyConfig::Draughts(c) => AnyGame::Draughts(Draughts::new(c, first_seat)),
        }
    }

    fn config(&self) -> AnyConfig {
        match self {
            AnyGame::Gomoku(g) => AnyConfig::Gomoku(g.config()),
            AnyGame::Othello(g) => AnyConfig::Othello(g.config()),
            AnyGame::Draughts(g) => AnyConfig::Draughts(g.config()),
        }
    }

    fn status(&self) -> Status<AnyPhase, AnyDetail> {
        match self {
            AnyGame::Gomoku(g) => any_status(g.status(), AnyPhase::Gomoku, AnyDetail::Gomoku),
            AnyGame::Othello(g) => any_status(g.status(), AnyPhase::Othello, AnyDetail::Othello),
            AnyGame::Draughts(g) => any_status(g.status(), AnyPhase::Draughts, AnyDetail::Draughts),
        }
    }

    fn first_colour(&self) -> Color {
        match self {
            AnyGame::Gomoku(g) => g.first_colour(),
            AnyGame::Othello(g) => g.first_colour(),
            AnyGame::Draughts(g) => g.first_colour(),
        }
    }

    fn first_seat(&self) -> Seat {
        match self {
            AnyGame::Gomoku(g) => g.first_seat(),
            AnyGame::Othello(g) => g.first_seat(),
            AnyGame::Draughts(g) => g.first_seat(),
        }
    }

    fn apply(&mut self, action: AnyAction) -> Result<AnyDelta, AnyIllegal> {
        match (self, action) {
            (AnyGame::Gomoku(g), AnyAction::Gomoku(a)) => {
                g.apply(a).map(AnyDelta::Gomoku).map_err(AnyIllegal::Gomoku)
            }
            (AnyGame::Othello(g), AnyAction::Othello(a)) => g
                .apply(a)
                .map(AnyDelta::Othello)
                .map_err(AnyIllegal::Othello),
            (AnyGame::Draughts(g), AnyAction::Draughts(a)) => g
                .apply(a)
                .map(AnyDelta::Draughts)
                .map_err(AnyIllegal::Draughts),
            _ => Err(AnyIllegal::WrongGame),
        }
    }

    fn apply_as(&mut self, seat: Seat, action: AnyAction) -> Result<AnyDelta, AnyIllegal> {
        match (self, action) {
            (AnyGame::Gomoku(g), AnyAction::Gomoku(a)) => g
                .apply_as(seat, a)
                .map(AnyDelta::Gomoku)
                .map_err(AnyIllegal::Gomoku),
            (AnyGame::Othello(g), AnyAction::Othello(a)) => g
                .apply_as(seat, a)
                .map(AnyDelta::Othello)
                .map_err(AnyIllegal::Othello),
            (AnyGame::Draughts(g), AnyAction::Draughts(a)) => g
                .apply_as(seat, a)
                .map(AnyDelta::Draughts)
                .map_err(AnyIllegal::Draughts),
            _ => Err(AnyIllegal::WrongGame),
        }
    }

    fn undo(&mut self) -> Option<AnyAction> {
        match self {
            AnyGame::Gomoku(g) => g.undo().map(AnyAction::Gomoku),
            AnyGame::Othello(g) => g.undo().map(AnyAction::Othello),
            AnyGame::Draughts(g) => g.undo().map(AnyAction::Draughts),
        }
    }

    fn action_count(&self) -> usize {
        match self {
            AnyGame::Gomoku(g) => g.action_count(),
            AnyGame::Othello(g) => g.action_count(),
            AnyGame::Draughts(g) => g.action_count(),
        }
    }

    fn actions(&self) -> Vec<AnyAction> {
        match self {
            AnyGame::Gomoku(g) => g
                .rules_game()
                .actions()
                .iter()
                .map(|&a| AnyAction::Gomoku(a))
                .collect(),
            AnyGame::Othello(g) => g
                .rules_game()
                .moves()
                .iter()
                .map(|&a| AnyAction::Othello(a))
                .collect(),
            AnyGame::Draughts(g) => g.actions().into_iter().map(AnyAction::Draughts).collect(),
        }
    }

    fn ply(&self) -> u32 {
        match self {
            AnyGame::Gomoku(g) => g.ply(),
            AnyGame::Othello(g) => g.ply(),
            AnyGame::Draughts(g) => g.ply(),
        }
    }

    fn is_move(action: &AnyAction) -> bool {
        match action {
            AnyAction::Gomoku(a) => Gomoku::is_move(a),
            AnyAction::Othello(a) => Othello::is_move(a),
            AnyAction::Draughts(a) => Draughts::is_move(a),
        }
    }

    fn is_opening_decision(action: &AnyAction) -> bool {
        match action {
            AnyAction::Gomoku(a) => Gomoku::is_opening_decision(a),
            AnyAction::Othello(a) => Othello::is_opening_decision(a),
            AnyAction::Draughts(a) => Draughts::is_opening_decision(a),
        }
    }

    fn at_most_once(action: &AnyAction) -> bool {
        match action {
            AnyAction::Gomoku(a) => Gomoku::at_most_once(a),
            AnyAction::Othello(a) => Othello::at_most_once(a),
            AnyAction::Draughts(a) => Draughts::at_most_once(a),
        }
    }

    fn legal(&self) -> AnyLegal {
        match self {
            AnyGame::Gomoku(g) => AnyLegal::Gomoku(g.legal()),
            AnyGame::Othello(g) => AnyLegal::Othello(g.legal()),
            AnyGame::Draughts(g) => AnyLegal::Draughts(g.legal()),
        }
    }

    fn legal_actions(&self) -> Vec<AnyAction> {
        match self {
            AnyGame::Gomoku(g) => g
                .legal_actions()
                .into_iter()
                .map(AnyAction::Gomoku)
                .collect(),
            AnyGame::Othello(g) => g
                .legal_actions()
                .into_iter()
                .map(AnyAction::Othello)
                .collect(),
            AnyGame::Draughts(g) => g
                .legal_actions()
                .into_iter()
                .map(AnyAction::Draughts)
                .collect(),
        }
    }

    fn forced(&self) -> Option<AnyAction> {
        match self {
            AnyGame::Gomoku(g) => g.forced().map(AnyAction::Gomoku),
            AnyGame::Othello(g) => g.forced().map(AnyAction::Othello),
            AnyGame::Draughts(g) => g.forced().map(AnyAction::Draughts),
        }
    }

    fn view(&self, room_result: bool) -> AnyView {
        match self {
            AnyGame::Gomoku(g) => AnyView::Gomoku(g.view(room_result)),
            AnyGame::Othello(g) => AnyView::Othello(g.view(room_result)),
            AnyGame::Draughts(g) => AnyView::Draughts(g.view(room_result)),
        }
    }

    fn notation(action: &AnyAction) -> String {
        action.notation()
    }

    fn parse_action(&self, text: &str) -> Result<AnyAction, NotationError> {
        self.kind().parse_action(text)
    }
}
