//! A game: a start position, the moves played, and the end rules that need its history (threefold repetition and
//! 100 plies without capture), with undo.

use std::fmt;

use super::notation::PlacementError;
use super::piece::{Kind, Side};
use super::position::{IllegalMove, Move, Position};

/// Plies in a row without a capture that draw the game (both sides' moves counted).
pub const NO_CAPTURE_LIMIT: u32 = 100;

/// How many times the same position must stand (the start counting as one) to draw.
pub const REPETITION_LIMIT: usize = 3;

/// Why a side won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum WinReason {
    /// The winner's piece stepped onto the loser's food.
    Food,
    /// The loser's last piece was captured.
    NoPieces,
    /// The loser, to move, has pieces but no legal move.
    NoMoves,
}

impl WinReason {
    /// Stable snake_case code (`food`, `no_pieces`, `no_moves`).
    pub const fn code(self) -> &'static str {
        match self {
            WinReason::Food => "food",
            WinReason::NoPieces => "no_pieces",
            WinReason::NoMoves => "no_moves",
        }
    }
}

/// Why the rules drew the game (a draw by agreement is the room's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum DrawReason {
    /// The same position, with the same side to move, for the third time (the start counts as one).
    Repetition,
    /// [`NO_CAPTURE_LIMIT`] plies in a row without a capture.
    NoCapture,
}

impl DrawReason {
    /// Stable snake_case code (`repetition`, `no_capture`).
    pub const fn code(self) -> &'static str {
        match self {
            DrawReason::Repetition => "repetition",
            DrawReason::NoCapture => "no_capture",
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "status", rename_all = "snake_case")
)]
pub enum Status {
    /// The side to move must move.
    Ongoing {
        /// Who.
        to_move: Side,
    },
    /// A side won.
    Won {
        /// Who.
        winner: Side,
        /// Why.
        reason: WinReason,
    },
    /// Drawn by a rule.
    Drawn {
        /// Why.
        reason: DrawReason,
    },
}

impl Status {
    /// Whether the game is over.
    pub const fn is_over(&self) -> bool {
        !matches!(self, Status::Ongoing { .. })
    }

    /// The result's stable code: `ongoing`, `south_wins`, `north_wins` or `draw`.
    pub const fn code(&self) -> &'static str {
        match self {
            Status::Ongoing { .. } => "ongoing",
            Status::Won {
                winner: Side::South,
                ..
            } => "south_wins",
            Status::Won {
                winner: Side::North,
                ..
            } => "north_wins",
            Status::Drawn { .. } => "draw",
        }
    }

    /// The end reason's stable code (`food`, `no_pieces`, `no_moves`, `repetition`, `no_capture`); `None` while
    /// ongoing.
    pub const fn reason(&self) -> Option<&'static str> {
        match self {
            Status::Ongoing { .. } => None,
            Status::Won { reason, .. } => Some(reason.code()),
            Status::Drawn { reason } => Some(reason.code()),
        }
    }

    /// The same status with the sides exchanged (see [`Position::rotated`]).
    pub const fn rotated(self) -> Status {
        match self {
            Status::Ongoing { to_move } => Status::Ongoing {
                to_move: to_move.opposite(),
            },
            Status::Won { winner, reason } => Status::Won {
                winner: winner.opposite(),
                reason,
            },
            drawn => drawn,
        }
    }
}

impl fmt::Display for Status {
    /// The code, and the reason after a space when over (`north_wins food`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())?;
        if let Some(reason) = self.reason() {
            write!(f, " {reason}")?;
        }
        Ok(())
    }
}

/// What an accepted move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// Who moved.
    pub side: Side,
    /// The move.
    pub mv: Move,
    /// The insect that moved.
    pub kind: Kind,
    /// The enemy insect it captured, if any.
    pub captured: Option<Kind>,
    /// Where the game stands after it.
    pub status: Status,
}

/// A game of insect chess: a validated start, the moves played, the positions they led to and the status. It
/// changes only through [`Game::apply`] and [`Game::undo`], so it is always a game the rules allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Every position of the game, the start first (one more than `moves`).
    positions: Vec<Position>,
    /// Plies without capture up to each position (same length as `positions`; zero at the start).
    quiet: Vec<u32>,
    moves: Vec<Move>,
    status: Status,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the start position, south to move.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from any position: it stands once (the first of three for a repetition) and its count of plies
    /// without capture is zero. The status is judged at once, so a position without a move for the side to
    /// move, or with a food taken, is a finished game.
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            positions: vec![start],
            quiet: vec![0],
            moves: Vec::new(),
            status: Status::Ongoing {
                to_move: start.turn(),
            },
        };
        game.status = game.judge();
        game
    }

    /// A game from a placement text (see [`Position::from_placement`]).
    pub fn from_placement(text: &str) -> Result<Game, PlacementError> {
        Position::from_placement(text).map(Game::from_position)
    }

    /// A game replayed from the start; the first refused move is returned with its index (zero-based).
    pub fn from_moves(moves: &[Move]) -> Result<Game, (usize, IllegalMove)> {
        Game::new().replayed(moves)
    }

    /// This game with more moves played; the first refused move is returned with its index in `moves`.
    pub fn replayed(mut self, moves: &[Move]) -> Result<Game, (usize, IllegalMove)> {
        for (index, &mv) in moves.iter().enumerate() {
            self.apply(mv).map_err(|e| (index, e))?;
        }
        Ok(self)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Where the game stands.
    pub const fn status(&self) -> Status {
        self.status
    }

    /// The side to move, or `None` once the game is over.
    pub fn to_act(&self) -> Option<Side> {
        (!self.status.is_over()).then(|| self.position().turn())
    }

    /// Plies in a row without a capture up to now (a draw at [`NO_CAPTURE_LIMIT`]).
    pub fn no_capture_plies(&self) -> u32 {
        *self.quiet.last().expect("a game has a count")
    }

    /// How many times the current position (with the same side to move) has stood in this game, now included.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        // A capture makes every earlier position unreachable (fewer pieces), so only the positions since the last
        // capture can be the same.
        let since = self.no_capture_plies() as usize;
        self.positions[self.positions.len() - 1 - since..]
            .iter()
            .filter(|p| *p == now)
            .count()
    }

    /// The legal moves now, ordered as [`Position::legal_moves`]; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.status.is_over() {
            Vec::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays a move for the side to move: the new state, or why the move is refused (the game is then
    /// unchanged).
    pub fn apply(&mut self, mv: Move) -> Result<Played, IllegalMove> {
        if self.status.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let before = *self.position();
        let after = before.play(mv)?;
        let kind = before
            .piece_at(mv.from())
            .expect("a legal move moves a piece")
            .kind;
        let captured = before.piece_at(mv.to()).map(|p| p.kind);
        let quiet = if captured.is_some() {
            0
        } else {
            self.no_capture_plies() + 1
        };
        self.positions.push(after);
        self.quiet.push(quiet);
        self.moves.push(mv);
        self.status = self.judge();
        Ok(Played {
            side: before.turn(),
            mv,
            kind,
            captured,
            status: self.status,
        })
    }

    /// Plays a move for a side: [`IllegalMove::NotYourTurn`] when the other side is to move (and
    /// [`IllegalMove::GameOver`] once over, whoever asks).
    pub fn apply_as(&mut self, side: Side, mv: Move) -> Result<Played, IllegalMove> {
        if self.status.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if side != self.position().turn() {
            return Err(IllegalMove::NotYourTurn);
        }
        self.apply(mv)
    }

    /// Takes back the last move and returns it; `None` at the start. The game is then exactly as before it.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.quiet.pop();
        self.status = self.judge();
        Some(mv)
    }

    /// The end checks of the rules page, in its order: food, no pieces, no move, repetition, 100 plies.
    fn judge(&self) -> Status {
        let position = self.position();
        if let Some(winner) = position.food_taken() {
            return Status::Won {
                winner,
                reason: WinReason::Food,
            };
        }
        let to_move = position.turn();
        if position.count(to_move) == 0 {
            return Status::Won {
                winner: to_move.opposite(),
                reason: WinReason::NoPieces,
            };
        }
        if !position.has_legal_move() {
            return Status::Won {
                winner: to_move.opposite(),
                reason: WinReason::NoMoves,
            };
        }
        if self.repetitions() >= REPETITION_LIMIT {
            return Status::Drawn {
                reason: DrawReason::Repetition,
            };
        }
        if self.no_capture_plies() >= NO_CAPTURE_LIMIT {
            return Status::Drawn {
                reason: DrawReason::NoCapture,
            };
        }
        Status::Ongoing { to_move }
    }
}
