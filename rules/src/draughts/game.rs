//! A game: a start position, the moves played, and the results the rules decide, draws included (they depend on
//! the game's history, so they live here and not in [`Position`]).

use std::fmt;

use super::notation::MoveError;
use super::position::{Move, Position, Role};
use crate::Color;

/// Plies in a row of king moves without capture that draw (25 moves each).
pub const KING_MOVES_LIMIT: u32 = 50;

/// Why a side won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// The loser has no pieces left.
    NoPieces,
    /// The loser, to move, has no legal move.
    NoMoves,
}

impl WinReason {
    /// Stable snake_case code.
    pub const fn code(self) -> &'static str {
        match self {
            WinReason::NoPieces => "no_pieces",
            WinReason::NoMoves => "no_moves",
        }
    }
}

/// Why the rules drew the game (a draw by agreement is the room's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The same position, with the same side to move, for the third time.
    Threefold,
    /// 25 moves in a row by each side with kings only, no capture and no man moved.
    TwentyFiveMoves,
    /// An endgame limit of FMJD Annex 1 (articles 6.3 and 6.4): `moves_each` (16 or 5) moves by each side since
    /// the material arose.
    EndgameLimit {
        /// 16 (three pieces, at least one a king, against a lone king) or 5 (two pieces or one king against a lone
        /// king).
        moves_each: u32,
    },
}

impl DrawReason {
    /// Stable snake_case code.
    pub const fn code(self) -> &'static str {
        match self {
            DrawReason::Threefold => "threefold",
            DrawReason::TwentyFiveMoves => "twenty_five_moves",
            DrawReason::EndgameLimit { .. } => "endgame_limit",
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move must move.
    Ongoing {
        /// Who.
        to_move: Color,
    },
    /// A side won.
    Won {
        /// Who.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Drawn by a rule.
    Drawn(DrawReason),
}

impl Status {
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        !matches!(self, Status::Ongoing { .. })
    }

    /// The result's code: the win or draw reason, or `ongoing`.
    pub fn code(&self) -> &'static str {
        match self {
            Status::Ongoing { .. } => "ongoing",
            Status::Won { reason, .. } => reason.code(),
            Status::Drawn(reason) => reason.code(),
        }
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is over.
    GameOver,
    /// The move is not one of the position's legal moves (or its text names none).
    Illegal(MoveError),
}

impl IllegalMove {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::Illegal(e) => e.code(),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// The endgame count running now: its limit and how many plies were played since the material arose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameCount {
    /// 16 or 5 moves each.
    pub moves_each: u32,
    /// Plies played since the material arose (the limit is reached at `2 * moves_each`).
    pub plies: u32,
    /// Pieces on the board when the count began; a capture starts a new count.
    pieces: u32,
}

/// The draw counters after a ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Counters {
    /// Plies in a row that moved a king without capturing (draw at [`KING_MOVES_LIMIT`]).
    pub king_plies: u32,
    /// The endgame count, while the material is one the limits name.
    pub endgame: Option<EndgameCount>,
}

/// The limit, in moves each, that an endgame's material falls under (FMJD Annex 1, 6.3–6.4), if any.
pub fn endgame_limit(position: &Position) -> Option<u32> {
    let white = position.count(Color::White);
    let black = position.count(Color::Black);
    let lone_king = (0, 1);
    let class = |strong: (u32, u32)| match strong {
        (0, 3) | (1, 2) | (2, 1) => Some(16),
        (0, 2) | (1, 1) | (0, 1) => Some(5),
        _ => None,
    };
    if black == lone_king {
        class(white)
    } else if white == lone_king {
        class(black)
    } else {
        None
    }
}

fn endgame_count(position: &Position, before: Option<EndgameCount>) -> Option<EndgameCount> {
    let moves_each = endgame_limit(position)?;
    let (wm, wk) = position.count(Color::White);
    let (bm, bk) = position.count(Color::Black);
    let pieces = wm + wk + bm + bk;
    Some(match before {
        Some(c) if c.moves_each == moves_each && c.pieces == pieces => EndgameCount {
            plies: c.plies + 1,
            ..c
        },
        _ => EndgameCount {
            moves_each,
            plies: 0,
            pieces,
        },
    })
}

/// A game of international draughts: a validated start, the moves played, the draw counters and the status.
/// Changes only through [`Game::play`] and [`Game::undo`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    /// Every position of the game, the start first (one more than moves).
    positions: Vec<Position>,
    /// Counters after each position (same length as `positions`).
    counters: Vec<Counters>,
    moves: Vec<Move>,
    status: Status,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the initial position.
    pub fn new() -> Game {
        Game::from_position(Position::initial())
    }

    /// A game from any position (a FEN setup); the counters start at zero there.
    pub fn from_position(start: Position) -> Game {
        let counters = Counters {
            king_plies: 0,
            endgame: endgame_count(&start, None),
        };
        let mut game = Game {
            start,
            positions: vec![start],
            counters: vec![counters],
            moves: Vec::new(),
            status: Status::Ongoing {
                to_move: start.turn(),
            },
        };
        game.status = game.judge();
        game
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The draw counters now.
    pub fn counters(&self) -> Counters {
        *self.counters.last().expect("a game has counters")
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// How many times the current position (with the same side to move) has occurred in this game.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        self.positions.iter().filter(|p| *p == now).count()
    }

    /// The legal moves now; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.status.is_over() {
            Vec::new()
        } else {
            self.position().legal_moves()
        }
    }

    fn judge(&self) -> Status {
        let position = self.position();
        let to_move = position.turn();
        let winner = to_move.opposite();
        if position.pieces(to_move).is_empty() {
            return Status::Won {
                winner,
                reason: WinReason::NoPieces,
            };
        }
        if !position.has_legal_move() {
            return Status::Won {
                winner,
                reason: WinReason::NoMoves,
            };
        }
        if self.repetitions() >= 3 {
            return Status::Drawn(DrawReason::Threefold);
        }
        let counters = self.counters();
        if counters.king_plies >= KING_MOVES_LIMIT {
            return Status::Drawn(DrawReason::TwentyFiveMoves);
        }
        if let Some(c) = counters.endgame {
            if c.plies >= 2 * c.moves_each {
                return Status::Drawn(DrawReason::EndgameLimit {
                    moves_each: c.moves_each,
                });
            }
        }
        Status::Ongoing { to_move }
    }

    /// Plays a move, which must be one of [`Game::legal_moves`] now.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        if self.status.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let listed = self
            .position()
            .legal_moves()
            .into_iter()
            .find(|m| m.raw == mv.raw)
            .ok_or(IllegalMove::Illegal(MoveError::Illegal))?;
        self.push(listed);
        Ok(())
    }

    /// Plays the move a PDN text names (see [`Position::parse_move`]) and returns it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, IllegalMove> {
        if self.status.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let mv = self
            .position()
            .parse_move(text)
            .map_err(IllegalMove::Illegal)?;
        self.push(mv.clone());
        Ok(mv)
    }

    fn push(&mut self, mv: Move) {
        let before = self.counters();
        let after = self.position().play_raw(mv.raw);
        let counters = Counters {
            king_plies: if mv.role() == Role::King && !mv.is_capture() {
                before.king_plies + 1
            } else {
                0
            },
            endgame: endgame_count(&after, before.endgame),
        };
        self.positions.push(after);
        self.counters.push(counters);
        self.moves.push(mv);
        self.status = self.judge();
    }

    /// Takes back the last move and returns it; `None` at the start. The game is then exactly as before it.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.counters.pop();
        self.status = self.judge();
        Some(mv)
    }
}
