//! International draughts on the seam: [`rules::draughts::Game`] wrapped, with its configuration, notation, view,
//! delta and legal listing.
//!
//! An action is a move written as its path (`32-28`, `28x19x10`): the text alone says which squares and whether it
//! captures, so a stored action reads without the position. Which pieces it takes follows from the position and
//! comes in the delta. A path that names a legal move another way (the short form `28x10` when unambiguous, or
//! another route of the same move) is applied as that move and recorded under the move's listed path.

use rules::draughts::{
    DrawReason, IllegalMove, Move, MoveError, Piece, Role, Square, SquareSet, WinReason,
};
use rules::Color;

use crate::game::{
    fischer, Coded, Game, GameConfig, Listed, Outcome, PoolKey, QuickPreset, RecordFormat,
    RecordHeader, Seat, Status,
};
use crate::notation::NotationError;
use crate::storage::ConfigError;
use crate::GameKind;

/// The game's name, as stored (`draughts`): [`GameKind::Draughts`]'s name.
pub const DRAUGHTS: &str = "draughts";

/// The rating pool of international draughts (`draughts/international`).
const POOL: PoolKey = PoolKey {
    game: DRAUGHTS,
    variant: "international",
};

/// The only configuration text: international draughts, FMJD rules.
const INTERNATIONAL_TEXT: &str = "variant=international";

/// A validated draughts configuration. International draughts (10x10, FMJD) is the only variant now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DraughtsConfig {
    _variant: (),
}

impl DraughtsConfig {
    /// International draughts: 10x10, flying kings, majority captures, White first.
    pub const fn international() -> DraughtsConfig {
        DraughtsConfig { _variant: () }
    }

    /// A configuration back from its stored text (`variant=international`, exactly). A second field is
    /// [`ConfigError::Malformed`], as for Othello.
    pub fn decode(text: &str) -> Result<DraughtsConfig, ConfigError> {
        if text.contains(',') {
            return Err(ConfigError::Malformed);
        }
        match text.split_once('=') {
            Some(("variant", "international")) => Ok(DraughtsConfig::international()),
            Some(("variant", _)) => Err(ConfigError::UnknownValue { field: "variant" }),
            _ => Err(ConfigError::Malformed),
        }
    }
}

impl Default for DraughtsConfig {
    fn default() -> DraughtsConfig {
        DraughtsConfig::international()
    }
}

impl GameConfig for DraughtsConfig {
    fn kind(&self) -> GameKind {
        GameKind::Draughts
    }

    fn pool(&self) -> PoolKey {
        POOL
    }

    fn encode(&self) -> String {
        INTERNATIONAL_TEXT.to_owned()
    }
}

/// What a draughts player does: move a piece along a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DraughtsAction {
    /// A move: every square the piece stands on, the start first, and whether it captures (a king's `46-5` and
    /// `46x5` have the same squares).
    Move {
        /// The squares, start first: two for a quiet move, one more per capture (or two in the short form).
        path: Vec<Square>,
        /// Whether it is written as a capture.
        capture: bool,
    },
}

impl DraughtsAction {
    /// The action of a listed move.
    pub fn of(mv: &Move) -> DraughtsAction {
        DraughtsAction::Move {
            path: mv.path().to_vec(),
            capture: mv.is_capture(),
        }
    }
}

/// A draughts action's text: `32-28`, `28x19x10`.
pub fn draughts_text(action: &DraughtsAction) -> String {
    let DraughtsAction::Move { path, capture } = action;
    let squares: Vec<String> = path.iter().map(Square::to_string).collect();
    squares.join(if *capture { "x" } else { "-" })
}

/// A draughts action from its text, exactly as [`draughts_text`] writes it (`032-28` and `32 - 28` are refused).
/// Whether it is legal is the game's to say.
pub fn parse_draughts(text: &str) -> Result<DraughtsAction, NotationError> {
    let capture = text.contains('x');
    let squares = text
        .split(if capture { 'x' } else { '-' })
        .map(|s| {
            if !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()) {
                s.parse::<Square>().map_err(|_| NotationError::Malformed)
            } else {
                Err(NotationError::Malformed)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 || (!capture && squares.len() != 2) || squares.len() > 21 {
        return Err(NotationError::Malformed);
    }
    let action = DraughtsAction::Move {
        path: squares,
        capture,
    };
    let canonical = draughts_text(&action);
    if canonical == text {
        Ok(action)
    } else {
        Err(NotationError::NotCanonical { canonical })
    }
}

/// Why a draughts action was refused.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DraughtsIllegal {
    /// The game is over.
    GameOver,
    /// The other seat must move.
    NotYourTurn,
    /// No legal move has this path.
    IllegalMove,
    /// The short form fits several moves that take different pieces.
    AmbiguousMove {
        /// Their full paths.
        candidates: Vec<String>,
    },
}

impl Coded for DraughtsIllegal {
    fn code(&self) -> &'static str {
        match self {
            DraughtsIllegal::GameOver => "game_over",
            DraughtsIllegal::NotYourTurn => "not_your_turn",
            DraughtsIllegal::IllegalMove => "illegal_move",
            DraughtsIllegal::AmbiguousMove { .. } => "ambiguous_move",
        }
    }
}

impl std::fmt::Display for DraughtsIllegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DraughtsIllegal::GameOver => f.write_str("the game is over"),
            DraughtsIllegal::NotYourTurn => f.write_str("it is not your turn"),
            DraughtsIllegal::IllegalMove => f.write_str("no legal move has this path"),
            DraughtsIllegal::AmbiguousMove { candidates } => {
                write!(
                    f,
                    "several moves fit; play one of {}",
                    candidates.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for DraughtsIllegal {}

/// What the side to act must do in draughts: always move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DraughtsPhase {
    /// Move a piece (a capture when one is possible).
    Move,
}

impl Coded for DraughtsPhase {
    fn code(&self) -> &'static str {
        "move"
    }
}

/// What a draughts outcome carries: the rule that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DraughtsDetail {
    /// A win (`no_pieces`, `no_moves`).
    Win(WinReason),
    /// A draw by a rule (`threefold`, `twenty_five_moves`, `endgame_limit` with its 16 or 5 moves each).
    Draw(DrawReason),
}

/// One legal move as a client draws it: its route, what it takes and whether it crowns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraughtsLegalMove {
    /// The move's listed path (the action's text is these squares).
    pub path: Vec<Square>,
    /// Whether it captures.
    pub capture: bool,
    /// The pieces it takes.
    pub captured: SquareSet,
    /// The moving piece's role.
    pub role: Role,
    /// Whether a man ends on the far row and is crowned.
    pub crowned: bool,
}

impl DraughtsLegalMove {
    fn of(mv: &Move) -> DraughtsLegalMove {
        DraughtsLegalMove {
            path: mv.path().to_vec(),
            capture: mv.is_capture(),
            captured: mv.captured(),
            role: mv.role(),
            crowned: mv.promotes(),
        }
    }

    /// The move's action.
    pub fn action(&self) -> DraughtsAction {
        DraughtsAction::Move {
            path: self.path.clone(),
            capture: self.capture,
        }
    }
}

/// The legal moves of a draughts position: complete moves with their paths, already cut to the majority captures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DraughtsLegal {
    /// Sorted by start, end and path; empty once over.
    pub moves: Vec<DraughtsLegalMove>,
}

impl DraughtsLegal {
    /// Whether an action is one of the listed moves as listed (its exact path).
    pub fn contains(&self, action: &DraughtsAction) -> bool {
        self.moves.iter().any(|m| m.action() == *action)
    }
}

/// The draw counters a client shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DraughtsCounters {
    /// Plies in a row of king moves without capture (the 25-move rule draws at 50).
    pub king_plies: u32,
    /// While an endgame limit runs: its moves each (16 or 5) and the plies played under it.
    pub endgame: Option<(u32, u32)>,
    /// How many times the position now has occurred with this side to move (a third time draws).
    pub repetitions: u32,
}

/// The public position of a draughts game, as a snapshot carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraughtsView {
    /// The 50 squares, square 1 first: the piece on each.
    pub squares: Vec<Option<Piece>>,
    /// The colour to act, while the game runs.
    pub to_act: Option<Color>,
    /// The legal moves with their paths, while the game runs.
    pub legal: Vec<DraughtsLegalMove>,
    /// The draw counters.
    pub counters: DraughtsCounters,
    /// Moves made.
    pub ply: u32,
}

/// What one accepted draughts move changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraughtsChange {
    /// A piece moved.
    Moved {
        /// Whose.
        colour: Color,
        /// The move's listed path.
        path: Vec<Square>,
        /// The pieces taken off.
        captured: SquareSet,
        /// Whether the man was crowned.
        crowned: bool,
    },
}

/// An accepted action's delta: the change, the new status and the draw counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraughtsDelta {
    /// What changed.
    pub change: DraughtsChange,
    /// Moves made after it (the first move is ply 1).
    pub ply: u32,
    /// The new status.
    pub status: Status<DraughtsPhase, DraughtsDetail>,
    /// The draw counters after it.
    pub counters: DraughtsCounters,
}

/// A game of international draughts on the seam.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draughts {
    config: DraughtsConfig,
    game: rules::draughts::Game,
    /// The seat that holds White (colours never change in draughts).
    white: Seat,
}

impl Draughts {
    /// A game from a set-up position, for analysis and tests: the configuration has no setup, so a game stored
    /// and replayed from its actions starts from the initial position.
    pub fn from_position(
        config: DraughtsConfig,
        first_seat: Seat,
        start: rules::draughts::Position,
    ) -> Draughts {
        Draughts {
            config,
            game: rules::draughts::Game::from_position(start),
            white: first_seat,
        }
    }

    /// The rules crate's game underneath (position, FEN, PDN export).
    pub fn rules_game(&self) -> &rules::draughts::Game {
        &self.game
    }

    fn counters(&self) -> DraughtsCounters {
        let c = self.game.counters();
        DraughtsCounters {
            king_plies: c.king_plies,
            endgame: c.endgame.map(|e| (e.moves_each, e.plies)),
            repetitions: self.game.repetitions() as u32,
        }
    }

    /// The listed move an action names (its path, another route of it, or the unambiguous short form).
    fn resolve(&self, action: &DraughtsAction) -> Result<Move, DraughtsIllegal> {
        if self.game.status().is_over() {
            return Err(DraughtsIllegal::GameOver);
        }
        match self.game.position().parse_move(&draughts_text(action)) {
            Ok(mv) => Ok(mv),
            Err(MoveError::Ambiguous { candidates }) => {
                Err(DraughtsIllegal::AmbiguousMove { candidates })
            }
            Err(_) => Err(DraughtsIllegal::IllegalMove),
        }
    }
}

impl Game for Draughts {
    type Config = DraughtsConfig;
    type Action = DraughtsAction;
    type Illegal = DraughtsIllegal;
    type Phase = DraughtsPhase;
    type Detail = DraughtsDetail;
    type View = DraughtsView;
    type Delta = DraughtsDelta;
    type Legal = DraughtsLegal;

    fn new(config: DraughtsConfig, first_seat: Seat) -> Draughts {
        Draughts {
            config,
            game: rules::draughts::Game::new(),
            white: first_seat,
        }
    }

    fn config(&self) -> DraughtsConfig {
        self.config
    }

    fn status(&self) -> Status<DraughtsPhase, DraughtsDetail> {
        use rules::draughts::Status as S;
        match self.game.status() {
            S::Ongoing { to_move } => Status::Ongoing {
                to_act: to_move,
                phase: DraughtsPhase::Move,
            },
            S::Won { winner, reason } => Status::Over(Outcome {
                winner: Some(winner),
                reason: reason.code(),
                detail: DraughtsDetail::Win(reason),
            }),
            S::Drawn(reason) => Status::Over(Outcome {
                winner: None,
                reason: reason.code(),
                detail: DraughtsDetail::Draw(reason),
            }),
        }
    }

    fn first_colour(&self) -> Color {
        Color::White
    }

    fn first_seat(&self) -> Seat {
        self.white
    }

    fn apply(&mut self, action: DraughtsAction) -> Result<DraughtsDelta, DraughtsIllegal> {
        let mv = self.resolve(&action)?;
        let colour = self.game.position().turn();
        self.game.play(&mv).map_err(|e: IllegalMove| match e {
            IllegalMove::GameOver => DraughtsIllegal::GameOver,
            IllegalMove::Illegal(_) => DraughtsIllegal::IllegalMove,
        })?;
        Ok(DraughtsDelta {
            change: DraughtsChange::Moved {
                colour,
                path: mv.path().to_vec(),
                captured: mv.captured(),
                crowned: mv.promotes(),
            },
            ply: self.ply(),
            status: self.status(),
            counters: self.counters(),
        })
    }

    fn apply_as(
        &mut self,
        seat: Seat,
        action: DraughtsAction,
    ) -> Result<DraughtsDelta, DraughtsIllegal> {
        match self.to_act() {
            None => Err(DraughtsIllegal::GameOver),
            Some(colour) if self.seat_of(colour) != seat => Err(DraughtsIllegal::NotYourTurn),
            Some(_) => self.apply(action),
        }
    }

    fn undo(&mut self) -> Option<DraughtsAction> {
        self.game.undo().map(|m| DraughtsAction::of(&m))
    }

    fn action_count(&self) -> usize {
        self.game.moves().len()
    }

    /// The moves as listed (a short form or another route applied is recorded as the move's listed path).
    fn actions(&self) -> Vec<DraughtsAction> {
        self.game.moves().iter().map(DraughtsAction::of).collect()
    }

    fn ply(&self) -> u32 {
        self.game.moves().len() as u32
    }

    fn is_move(_: &DraughtsAction) -> bool {
        true
    }

    fn is_opening_decision(_: &DraughtsAction) -> bool {
        false
    }

    fn at_most_once(_: &DraughtsAction) -> bool {
        false
    }

    fn legal(&self) -> DraughtsLegal {
        DraughtsLegal {
            moves: self
                .game
                .legal_moves()
                .iter()
                .map(DraughtsLegalMove::of)
                .collect(),
        }
    }

    /// Every legal move (already cut to the majority captures) with its full listed path.
    fn legal_actions(&self) -> Vec<DraughtsAction> {
        self.legal()
            .moves
            .iter()
            .map(DraughtsLegalMove::action)
            .collect()
    }

    fn view(&self, room_result: bool) -> DraughtsView {
        let status = self.status();
        let running = !room_result && !status.is_over();
        let position = self.game.position();
        DraughtsView {
            squares: Square::all().map(|s| position.piece_at(s)).collect(),
            to_act: status.to_act().filter(|_| running),
            legal: if running {
                self.legal().moves
            } else {
                Vec::new()
            },
            counters: self.counters(),
            ply: self.ply(),
        }
    }

    fn notation(action: &DraughtsAction) -> String {
        draughts_text(action)
    }

    fn parse_action(&self, text: &str) -> Result<DraughtsAction, NotationError> {
        parse_draughts(text)
    }
}

impl Listed for Draughts {
    const KIND: GameKind = GameKind::Draughts;
    const RECORD: RecordFormat = RecordFormat {
        extension: "pdn",
        mime: "text/plain; charset=utf-8",
    };

    fn pools() -> &'static [PoolKey] {
        &[POOL]
    }

    fn default_config() -> DraughtsConfig {
        DraughtsConfig::international()
    }

    /// International draughts at the FMJD's blitz-like and rapid clocks (a game is longer than a Gomoku one).
    fn quick_presets() -> Vec<QuickPreset<DraughtsConfig>> {
        let config = Self::default_config();
        [
            ("draughts-5+5", fischer(5, 5)),
            ("draughts-10+5", fischer(10, 5)),
        ]
        .into_iter()
        .map(|(id, clock)| QuickPreset { id, config, clock })
        .collect()
    }

    fn read_notation(text: &str) -> Result<DraughtsAction, NotationError> {
        parse_draughts(text)
    }

    fn decode_config(text: &str) -> Result<DraughtsConfig, ConfigError> {
        DraughtsConfig::decode(text)
    }

    /// PDN: the seven tags of the roster (`Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`), then
    /// `GameType "20"` (international draughts), `FEN` when it did not start from the initial position and
    /// `TimeControl`; then the numbered moves and the result as the room recorded it (`2-0`, `0-2`, `1-1`, `*`
    /// while it runs or when aborted).
    fn record(&self, header: &RecordHeader<'_>) -> String {
        let result = match header.result {
            None => "*",
            Some(Some(Color::White)) => "2-0",
            Some(Some(Color::Black)) => "0-2",
            Some(None) => "1-1",
        };
        let game = self.rules_game();
        let mut extra = vec![("GameType", "20".to_owned())];
        if let Some(fen) = game.pdn_fen() {
            extra.push(("FEN", fen));
        }
        let tags = header.tags(
            [("White", header.white), ("Black", header.black)],
            result,
            &extra,
        );
        format!("{tags}\n{}", game.pdn_movetext(result))
    }
}
