//! Insect chess (昆虫棋) on the seam: [`rules::insect::Game`] wrapped, with its configuration, notation, view,
//! delta and legal listing (rules: `docs/rules-insect.md`, settled by `../shared/rules/insect-chess.md`).
//!
//! South moves first and is the seam's first colour, black; north is white. There are no opening decisions, so
//! the seat given at the start holds south for the whole game. Every action is a move (`e2-e3`, the wasp's flight
//! `e4-e8`); there is no passing.

use rules::insect::{self, IllegalMove, Kind, Move, Side, Square, Status as InsectStatus};
use rules::Color;

use crate::game::{
    fischer, Coded, Game, GameConfig, Listed, Outcome, PoolKey, QuickPreset, RecordFormat,
    RecordHeader, Seat, Status,
};
use crate::notation::NotationError;
use crate::storage::ConfigError;
use crate::GameKind;

/// The game's name, as stored (`insect`).
const INSECT: &str = "insect";

/// Its one rating pool (`insect/standard`).
const POOL: PoolKey = PoolKey {
    game: INSECT,
    variant: "standard",
};

/// The only configuration text: the rules of the settled page.
const STANDARD_TEXT: &str = "variant=standard";

/// A validated insect-chess configuration. The settled rules are the only variant now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InsectConfig {
    _variant: (),
}

impl InsectConfig {
    /// The rules of `docs/rules-insect.md`.
    pub const fn standard() -> InsectConfig {
        InsectConfig { _variant: () }
    }

    /// A configuration back from its stored text (`variant=standard`, exactly).
    pub fn decode(text: &str) -> Result<InsectConfig, ConfigError> {
        if text.contains(',') {
            return Err(ConfigError::Malformed);
        }
        match text.split_once('=') {
            Some(("variant", "standard")) => Ok(InsectConfig::standard()),
            Some(("variant", _)) => Err(ConfigError::UnknownValue { field: "variant" }),
            _ => Err(ConfigError::Malformed),
        }
    }
}

impl GameConfig for InsectConfig {
    fn kind(&self) -> GameKind {
        GameKind::Insect
    }

    fn pool(&self) -> PoolKey {
        POOL
    }

    fn encode(&self) -> String {
        STANDARD_TEXT.to_owned()
    }
}

/// What the side to act must do: move (there is nothing else).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InsectPhase {
    /// Move a piece.
    Move,
}

impl Coded for InsectPhase {
    fn code(&self) -> &'static str {
        "move"
    }
}

impl Coded for IllegalMove {
    fn code(&self) -> &'static str {
        IllegalMove::code(*self)
    }
}

/// What an insect-chess outcome carries: the rule that decided it (`food`, `no_pieces`, `no_moves`, `repetition`,
/// `no_capture`), as its reason also says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InsectDetail {
    /// The deciding rule's code.
    pub rule: &'static str,
}

/// The public position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsectView {
    /// Every square's piece, `a1`, `b1`, …, `g1`, `a2`, … (index order).
    pub squares: Vec<Option<insect::Piece>>,
    /// The colour to act (black: south), `None` once over or when the room holds a result.
    pub to_act: Option<Color>,
    /// What it must do.
    pub phase: Option<InsectPhase>,
    /// The legal moves of the side to act (none once over).
    pub legal: Vec<Move>,
    /// The last move, to mark on the board.
    pub last: Option<Move>,
    /// Plies in a row without a capture (a draw at 100).
    pub no_capture: u32,
    /// How often the position now has stood, now included (a draw at three).
    pub repetitions: u32,
    /// Moves made.
    pub ply: u32,
}

/// What one move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InsectChange {
    /// The colour that moved.
    pub colour: Color,
    /// The move.
    pub mv: Move,
    /// The insect that moved.
    pub kind: Kind,
    /// The enemy insect it captured, if any.
    pub captured: Option<Kind>,
}

/// A move's delta: what it did and where the game stands after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsectDelta {
    /// What it did.
    pub change: InsectChange,
    /// The status after it.
    pub status: Status<InsectPhase, InsectDetail>,
    /// Moves made after it (the first move is ply 1).
    pub ply: u32,
    /// Plies in a row without a capture after it.
    pub no_capture: u32,
    /// The next side's legal moves (none once over).
    pub legal: Vec<Move>,
}

/// The legal moves now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsectLegal {
    /// Every legal move of the side to act.
    pub moves: Vec<Move>,
}

/// A game of insect chess on the seam.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insect {
    config: InsectConfig,
    game: insect::Game,
    start: Seat,
}

/// The seam's colour of a side: south (first to move) is black.
pub const fn colour_of_side(side: Side) -> Color {
    match side {
        Side::South => Color::Black,
        Side::North => Color::White,
    }
}

/// The side of a seam colour.
pub const fn side_of_colour(colour: Color) -> Side {
    match colour {
        Color::Black => Side::South,
        Color::White => Side::North,
    }
}

impl Insect {
    /// The rules crate's game.
    pub fn rules_game(&self) -> &insect::Game {
        &self.game
    }

    fn status_of(&self, status: InsectStatus) -> Status<InsectPhase, InsectDetail> {
        match status {
            InsectStatus::Ongoing { to_move } => Status::Ongoing {
                to_act: colour_of_side(to_move),
                phase: InsectPhase::Move,
            },
            InsectStatus::Won { winner, reason } => Status::Over(Outcome {
                winner: Some(colour_of_side(winner)),
                reason: reason.code(),
                detail: InsectDetail {
                    rule: reason.code(),
                },
            }),
            InsectStatus::Drawn { reason } => Status::Over(Outcome {
                winner: None,
                reason: reason.code(),
                detail: InsectDetail {
                    rule: reason.code(),
                },
            }),
        }
    }

    fn ply_now(&self) -> u32 {
        self.game.moves().len() as u32
    }
}

impl Game for Insect {
    type Config = InsectConfig;
    type Action = Move;
    type Illegal = IllegalMove;
    type Phase = InsectPhase;
    type Detail = InsectDetail;
    type View = InsectView;
    type Delta = InsectDelta;
    type Legal = InsectLegal;

    fn new(config: InsectConfig, first_seat: Seat) -> Insect {
        Insect {
            config,
            game: insect::Game::new(),
            start: first_seat,
        }
    }

    fn config(&self) -> InsectConfig {
        self.config
    }

    fn status(&self) -> Status<InsectPhase, InsectDetail> {
        self.status_of(self.game.status())
    }

    fn first_colour(&self) -> Color {
        Color::Black
    }

    fn first_seat(&self) -> Seat {
        self.start
    }

    fn apply(&mut self, mv: Move) -> Result<InsectDelta, IllegalMove> {
        let played = self.game.apply(mv)?;
        Ok(InsectDelta {
            change: InsectChange {
                colour: colour_of_side(played.side),
                mv: played.mv,
                kind: played.kind,
                captured: played.captured,
            },
            status: self.status_of(played.status),
            ply: self.ply_now(),
            no_capture: self.game.no_capture_plies(),
            legal: self.game.legal_moves(),
        })
    }

    fn apply_as(&mut self, seat: Seat, mv: Move) -> Result<InsectDelta, IllegalMove> {
        match self.game.to_act() {
            None => Err(IllegalMove::GameOver),
            Some(side) if self.seat_of(colour_of_side(side)) != seat => {
                Err(IllegalMove::NotYourTurn)
            }
            Some(_) => self.apply(mv),
        }
    }

    fn undo(&mut self) -> Option<Move> {
        self.game.undo()
    }

    fn action_count(&self) -> usize {
        self.game.moves().len()
    }

    fn actions(&self) -> Vec<Move> {
        self.game.moves().to_vec()
    }

    fn ply(&self) -> u32 {
        self.ply_now()
    }

    fn is_move(_: &Move) -> bool {
        true
    }

    fn is_opening_decision(_: &Move) -> bool {
        false
    }

    fn at_most_once(_: &Move) -> bool {
        false
    }

    fn legal(&self) -> InsectLegal {
        InsectLegal {
            moves: self.game.legal_moves(),
        }
    }

    fn legal_actions(&self) -> Vec<Move> {
        self.game.legal_moves()
    }

    fn view(&self, room_result: bool) -> InsectView {
        let position = self.game.position();
        let live = !room_result && !self.game.status().is_over();
        InsectView {
            squares: Square::all().map(|s| position.piece_at(s)).collect(),
            to_act: self.game.to_act().filter(|_| live).map(colour_of_side),
            phase: live.then_some(InsectPhase::Move),
            legal: if live {
                self.game.legal_moves()
            } else {
                Vec::new()
            },
            last: self.game.moves().last().copied(),
            no_capture: self.game.no_capture_plies(),
            repetitions: self.game.repetitions() as u32,
            ply: self.ply_now(),
        }
    }

    fn notation(action: &Move) -> String {
        action.to_string()
    }

    fn parse_action(&self, text: &str) -> Result<Move, NotationError> {
        parse_insect(text)
    }
}

impl Listed for Insect {
    const KIND: GameKind = GameKind::Insect;
    const RECORD: RecordFormat = RecordFormat {
        extension: "txt",
        mime: "text/plain; charset=utf-8",
    };

    fn pools() -> &'static [PoolKey] {
        &[POOL]
    }

    fn default_config() -> InsectConfig {
        InsectConfig::standard()
    }

    /// The standard game (it has no options) at two short clocks.
    fn quick_presets() -> Vec<QuickPreset<InsectConfig>> {
        let config = Self::default_config();
        [("insect-3+2", fischer(3, 2)), ("insect-5+3", fischer(5, 3))]
            .into_iter()
            .map(|(id, clock)| QuickPreset { id, config, clock })
            .collect()
    }

    fn read_notation(text: &str) -> Result<Move, NotationError> {
        parse_insect(text)
    }

    fn decode_config(text: &str) -> Result<InsectConfig, ConfigError> {
        InsectConfig::decode(text)
    }

    /// A PGN-like record: tag pairs (the PGN roster with `South` and `North` for the players: `Event`, `Site`,
    /// `Date`, `Round`, `South`, `North`, `Result`, then `Game "insect"` and `TimeControl`; `Result` is `1-0`
    /// south won, `0-1` north won, `1/2-1/2` drawn, `*` running or aborted), a blank line, then the moves by
    /// their notation, space-separated (`e2-e3 e10-e9 …`), and the result again, as PGN ends its movetext.
    fn record(&self, header: &RecordHeader<'_>) -> String {
        let result = match header.result {
            None => "*",
            Some(Some(Color::Black)) => "1-0",
            Some(Some(Color::White)) => "0-1",
            Some(None) => "1/2-1/2",
        };
        let mut moves: Vec<String> = self.game.moves().iter().map(Move::to_string).collect();
        moves.push(result.to_owned());
        let tags = header.tags(
            [("South", header.black), ("North", header.white)],
            result,
            &[("Game", "insect".to_owned())],
        );
        format!("{tags}\n{}\n", moves.join(" "))
    }
}

/// An insect-chess move from its text, exactly as [`Insect::notation`] writes it: `from-to` with lower-case files
/// (`e2-e3`). `E2-E3` and `e02-e3` are refused as not canonical, a square off the board as such, anything else as
/// malformed. Whether the move is legal is the game's to say.
pub fn parse_insect(text: &str) -> Result<Move, NotationError> {
    let lower = text.to_ascii_lowercase();
    let mv: Move = lower.parse().map_err(|e| match e {
        insect::ParseMoveError::Malformed => NotationError::Malformed,
        insect::ParseMoveError::Square(e) => NotationError::Point(e),
    })?;
    let canonical = mv.to_string();
    if canonical == text {
        Ok(mv)
    } else {
        Err(NotationError::NotCanonical { canonical })
    }
}
