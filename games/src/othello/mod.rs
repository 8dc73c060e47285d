//! Othello on the seam: [`rules::othello::Game`] wrapped, with its configuration (the scoring of an unfinished
//! board), notation, view, delta and legal listing.
//!
//! A pass is an action (`pass`), legal exactly when the side to move has no move while the opponent has one, and
//! refused otherwise, so that clocks and records see it. Black moves first; there are no opening decisions, so
//! the seat given at the start holds black for the whole game.

use rules::othello::{self, IllegalMove, Move, PositionStatus, Score, Scoring, Square};
use rules::{Color, ParsePointError};

use crate::game::{
    fischer, Coded, Game, GameConfig, Listed, Outcome, PoolKey, QuickPreset, RecordFormat,
    RecordHeader, Seat, Status,
};
use crate::notation::NotationError;
use crate::storage::{text_of, value_of, ConfigError};
use crate::GameKind;

/// A validated Othello configuration: how a board left unfinished is scored. Every value is playable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OthelloConfig {
    scoring: Scoring,
}

impl OthelloConfig {
    /// A configuration with a scoring.
    pub const fn new(scoring: Scoring) -> OthelloConfig {
        OthelloConfig { scoring }
    }

    /// How empty squares of a finished board are given out.
    pub const fn scoring(&self) -> Scoring {
        self.scoring
    }
}

impl GameConfig for OthelloConfig {
    fn kind(&self) -> GameKind {
        GameKind::Othello
    }

    /// One pool for Othello: the scoring of empty squares never changes who won.
    fn pool(&self) -> PoolKey {
        POOL
    }

    /// `scoring=japanese` or `scoring=european`.
    fn encode(&self) -> String {
        format!("scoring={}", text_of(&SCORINGS, self.scoring))
    }
}

/// What the side to act must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OthelloPhase {
    /// Place a disc (it has a legal move).
    Place,
    /// Pass (it has none; the opponent has one).
    Pass,
}

impl Coded for OthelloPhase {
    fn code(&self) -> &'static str {
        match self {
            OthelloPhase::Place => "place",
            OthelloPhase::Pass => "pass",
        }
    }
}

impl Coded for IllegalMove {
    fn code(&self) -> &'static str {
        IllegalMove::code(*self)
    }
}

/// What an Othello outcome carries: the discs on the board and the final score under the game's scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OthelloDetail {
    /// The discs as they stand.
    pub discs: Score,
    /// The scoring the room chose.
    pub scoring: Scoring,
    /// The final counts with the empty squares given out (they add up to 64).
    pub scored: Score,
}

impl OthelloDetail {
    /// The result as shown: `black 40–24`, `white 33–31`, `draw 32–32`.
    pub fn result_text(&self) -> String {
        self.scored.to_string()
    }
}

/// The public position of an Othello game, as a snapshot carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OthelloView {
    /// The 64 cells in index order (`a1`, `b1`, …, `h8`; `a1` top left).
    pub cells: [Option<Color>; 64],
    /// Black discs.
    pub black: u8,
    /// White discs.
    pub white: u8,
    /// The colour to act, while the game runs.
    pub to_act: Option<Color>,
    /// What it must do, while the game runs.
    pub phase: Option<OthelloPhase>,
    /// Where the side to act may place (the client's dots), while the game runs.
    pub legal: Vec<Square>,
    /// The last action, to mark on the board.
    pub last: Option<Move>,
}

/// What one accepted Othello action changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OthelloChange {
    /// A disc was placed.
    Placed {
        /// Its colour.
        colour: Color,
        /// Where.
        square: Square,
        /// The discs it flipped, in index order.
        flipped: Vec<Square>,
    },
    /// A colour passed.
    Passed {
        /// Who passed.
        colour: Color,
    },
}

/// An accepted action's delta: the change, the new status, the disc counts and the next side's legal squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OthelloDelta {
    /// What changed.
    pub change: OthelloChange,
    /// The new status.
    pub status: Status<OthelloPhase, OthelloDetail>,
    /// Black discs after it.
    pub black: u8,
    /// White discs after it.
    pub white: u8,
    /// Where the side to act next may place (empty when it must pass or the game is over).
    pub legal: Vec<Square>,
}

/// The legal actions of an Othello position. Empty once the game is over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OthelloLegal {
    /// Where a disc may go.
    pub places: Vec<Square>,
    /// Whether a pass is due (then `places` is empty).
    pub pass: bool,
}

impl OthelloLegal {
    /// Whether the listing holds an action.
    pub fn contains(&self, action: &Move) -> bool {
        match action {
            Move::Place(square) => self.places.contains(square),
            Move::Pass => self.pass,
        }
    }

    /// Whether nothing is legal (the game is over).
    pub fn is_empty(&self) -> bool {
        self.places.is_empty() && !self.pass
    }
}

/// A game of Othello on the seam.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Othello {
    config: OthelloConfig,
    game: othello::Game,
    /// The seat that holds black.
    start: Seat,
}

impl Othello {
    /// The rules crate's game underneath (its position, record and transcript).
    pub fn rules_game(&self) -> &othello::Game {
        &self.game
    }

    fn legal_squares(&self) -> Vec<Square> {
        self.game.position().legal_moves().to_vec()
    }

    fn delta(&self, played: othello::Played) -> OthelloDelta {
        let change = match played.mv {
            Move::Place(square) => OthelloChange::Placed {
                colour: played.colour,
                square,
                flipped: played.flipped,
            },
            Move::Pass => OthelloChange::Passed {
                colour: played.colour,
            },
        };
        let score = self.game.position().score();
        OthelloDelta {
            change,
            status: self.status(),
            black: score.black,
            white: score.white,
            legal: self.legal_squares(),
        }
    }
}

impl Game for Othello {
    type Config = OthelloConfig;
    type Action = Move;
    type Illegal = IllegalMove;
    type Phase = OthelloPhase;
    type Detail = OthelloDetail;
    type View = OthelloView;
    type Delta = OthelloDelta;
    type Legal = OthelloLegal;

    fn new(config: OthelloConfig, first_seat: Seat) -> Othello {
        Othello {
            config,
            game: othello::Game::new(),
            start: first_seat,
        }
    }

    fn config(&self) -> OthelloConfig {
        self.config
    }

    fn status(&self) -> Status<OthelloPhase, OthelloDetail> {
        let position = self.game.position();
        let phase = match position.status() {
            PositionStatus::Play => OthelloPhase::Place,
            PositionStatus::MustPass => OthelloPhase::Pass,
            PositionStatus::Over(reason) => {
                let discs = position.score();
                return Status::Over(Outcome {
                    winner: discs.winner(),
                    reason: reason.code(),
                    detail: OthelloDetail {
                        discs,
                        scoring: self.config.scoring,
                        scored: discs.scored(self.config.scoring),
                    },
                });
            }
        };
        Status::Ongoing {
            to_act: position.to_move(),
            phase,
        }
    }

    fn first_colour(&self) -> Color {
        Color::Black
    }

    /// The seat given at the start: Othello has no swap or colour choice.
    fn first_seat(&self) -> Seat {
        self.start
    }

    fn apply(&mut self, action: Move) -> Result<OthelloDelta, IllegalMove> {
        let played = self.game.play(action)?;
        Ok(self.delta(played))
    }

    fn apply_as(&mut self, seat: Seat, action: Move) -> Result<OthelloDelta, IllegalMove> {
        let colour = self.colour_of(seat);
        let played = self.game.play_as(colour, action)?;
        Ok(self.delta(played))
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

    /// Discs placed: passes are actions but not moves.
    fn ply(&self) -> u32 {
        self.game.discs_placed() as u32
    }

    fn is_move(action: &Move) -> bool {
        matches!(action, Move::Place(_))
    }

    fn is_opening_decision(_: &Move) -> bool {
        false
    }

    /// Nothing: a pass may come many times a game (never twice running, which the rules refuse anyway).
    fn at_most_once(_: &Move) -> bool {
        false
    }

    fn legal(&self) -> OthelloLegal {
        match self.game.status() {
            PositionStatus::Play => OthelloLegal {
                places: self.legal_squares(),
                pass: false,
            },
            PositionStatus::MustPass => OthelloLegal {
                places: Vec::new(),
                pass: true,
            },
            PositionStatus::Over(_) => OthelloLegal::default(),
        }
    }

    /// The legal squares as placements, or the pass when it is forced; every legal action.
    fn legal_actions(&self) -> Vec<Move> {
        let legal = self.legal();
        if legal.pass {
            vec![Move::Pass]
        } else {
            legal.places.into_iter().map(Move::Place).collect()
        }
    }

    /// The pass, when the side to move has no disc to place and the opponent has.
    fn forced(&self) -> Option<Move> {
        (self.game.status() == PositionStatus::MustPass).then_some(Move::Pass)
    }

    fn view(&self, room_result: bool) -> OthelloView {
        let position = self.game.position();
        let status = self.status();
        let running = !room_result && !status.is_over();
        let score = position.score();
        let mut cells = [None; 64];
        for square in Square::all() {
            cells[usize::from(square.index())] = position.disc(square);
        }
        OthelloView {
            cells,
            black: score.black,
            white: score.white,
            to_act: status.to_act().filter(|_| running),
            phase: status.phase().copied().filter(|_| running),
            legal: if running {
                self.legal_squares()
            } else {
                Vec::new()
            },
            last: self.game.moves().last().copied(),
        }
    }

    fn notation(action: &Move) -> String {
        action.to_string()
    }

    fn parse_action(&self, text: &str) -> Result<Move, NotationError> {
        parse_othello(text)
    }
}

/// Othello's one rating pool (`othello/standard`), both scorings together.
const POOL: PoolKey = PoolKey {
    game: "othello",
    variant: "standard",
};

const SCORINGS: [(Scoring, &str); 2] = [
    (Scoring::Japanese, "japanese"),
    (Scoring::European, "european"),
];

impl OthelloConfig {
    /// A configuration from its stored text (exactly as [`GameConfig::encode`] writes it: `scoring=japanese` or
    /// `scoring=european`).
    pub fn decode(text: &str) -> Result<OthelloConfig, ConfigError> {
        let value = text
            .strip_prefix("scoring=")
            .ok_or(ConfigError::Malformed)?;
        if value.contains(',') {
            return Err(ConfigError::Malformed);
        }
        value_of(&SCORINGS, "scoring", value).map(OthelloConfig::new)
    }
}

impl Listed for Othello {
    const KIND: GameKind = GameKind::Othello;
    const RECORD: RecordFormat = RecordFormat {
        extension: "txt",
        mime: "text/plain; charset=utf-8",
    };

    fn pools() -> &'static [PoolKey] {
        &[POOL]
    }

    fn default_config() -> OthelloConfig {
        OthelloConfig::new(Scoring::Japanese)
    }

    /// The default scoring, at the blitz and rapid clocks of online Othello.
    fn quick_presets() -> Vec<QuickPreset<OthelloConfig>> {
        let config = Self::default_config();
        [
            ("othello-3+2", fischer(3, 2)),
            ("othello-5+3", fischer(5, 3)),
            ("othello-10+5", fischer(10, 5)),
        ]
        .into_iter()
        .map(|(id, clock)| QuickPreset { id, config, clock })
        .collect()
    }

    fn read_notation(text: &str) -> Result<Move, NotationError> {
        parse_othello(text)
    }

    fn decode_config(text: &str) -> Result<OthelloConfig, ConfigError> {
        OthelloConfig::decode(text)
    }

    /// A PGN-like header (the PGN roster: `Event`, `Site`, `Date`, `Round`, `Black`, `White`, `Result` as
    /// `1-0` black won, `0-1`, `1/2-1/2`, `*`; then `Scoring`, `Discs` — the final count under that scoring,
    /// black's first, when the game ended on the board — and `TimeControl`), a blank line, then the move list
    /// (`f5d6c3…`): the squares alone, as the field writes it (passes are forced, so an importer restores them).
    fn record(&self, header: &RecordHeader<'_>) -> String {
        let result = match header.result {
            None => "*",
            Some(Some(Color::Black)) => "1-0",
            Some(Some(Color::White)) => "0-1",
            Some(None) => "1/2-1/2",
        };
        let scoring = self.config.scoring;
        let mut extra = vec![("Scoring", scoring.as_str().to_owned())];
        if let PositionStatus::Over(_) = self.game.status() {
            let score = self.game.position().score().scored(scoring);
            extra.push(("Discs", format!("{}-{}", score.black, score.white)));
        }
        let tags = header.tags(
            [("Black", header.black), ("White", header.white)],
            result,
            &extra,
        );
        format!("{tags}\n{}\n", self.game.transcript())
    }
}

const PASS: &str = "pass";

/// An Othello action from its text, exactly as [`Othello::notation`] writes it: a square `a1`..`h8` or `pass`.
/// `F5` and `PASS` are refused as not canonical, a square beyond the board (`i1`, `a9`, `a10`) as off the board,
/// anything else as malformed.
pub fn parse_othello(text: &str) -> Result<Move, NotationError> {
    if text == PASS {
        return Ok(Move::Pass);
    }
    if text.eq_ignore_ascii_case(PASS) {
        return Err(NotationError::NotCanonical {
            canonical: PASS.to_owned(),
        });
    }
    let bytes = text.as_bytes();
    let square_like = (2..=3).contains(&bytes.len())
        && bytes[0].is_ascii_alphabetic()
        && bytes[1..].iter().all(u8::is_ascii_digit);
    if !square_like {
        return Err(NotationError::Malformed);
    }
    if bytes.len() == 3 {
        return Err(NotationError::Point(ParsePointError::OutOfRange));
    }
    let square: Square = text
        .to_ascii_lowercase()
        .parse()
        .map_err(NotationError::Point)?;
    let canonical = square.to_string();
    if canonical == text {
        Ok(Move::Place(square))
    } else {
        Err(NotationError::NotCanonical { canonical })
    }
}
