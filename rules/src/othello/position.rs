//! A position: the discs of both sides and the side to move, and the checked moves on it.

use std::fmt;

use super::bitboard;
use super::score::{EndReason, Score};
use super::square::{Square, SquareSet};
use crate::Color;

/// A move: a disc on a square, or a pass (legal only when the side to move has no move and the opponent has one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a disc.
    Place(Square),
    /// Pass the turn.
    Pass,
}

impl fmt::Display for Move {
    /// `f5`, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(square) => square.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The square holds a disc.
    Occupied,
    /// A disc there would flip nothing.
    NoFlip,
    /// The side to move has no move: it must pass.
    MustPass,
    /// A pass while the side to move has a move.
    CannotPass,
    /// Neither side can move.
    GameOver,
    /// The other colour is to move.
    NotYourTurn,
}

impl IllegalMove {
    /// Stable snake_case code for the wire.
    pub const fn code(self) -> &'static str {
        match self {
            IllegalMove::Occupied => "occupied",
            IllegalMove::NoFlip => "no_flip",
            IllegalMove::MustPass => "must_pass",
            IllegalMove::CannotPass => "cannot_pass",
            IllegalMove::GameOver => "game_over",
            IllegalMove::NotYourTurn => "not_your_turn",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::Occupied => "the square is taken",
            IllegalMove::NoFlip => "a disc there flips nothing",
            IllegalMove::MustPass => "no move flips anything: the side to move must pass",
            IllegalMove::CannotPass => "a pass is allowed only without a legal move",
            IllegalMove::GameOver => "the game is over",
            IllegalMove::NotYourTurn => "it is the other side's turn",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// Why a board text is not a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionError {
    /// Not 64 characters of `X`, `O`, `-`.
    Malformed,
    /// The side to move is not `X` or `O`.
    BadSide,
}

impl PositionError {
    /// Stable snake_case code.
    pub const fn code(self) -> &'static str {
        match self {
            PositionError::Malformed => "malformed_board",
            PositionError::BadSide => "malformed_side",
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionError::Malformed => "a board is 64 characters of X, O and -",
            PositionError::BadSide => "the side to move is X or O",
        })
    }
}

impl std::error::Error for PositionError {}

/// Where a position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionStatus {
    /// The side to move has a legal move.
    Play,
    /// It has none and must pass; the opponent has one.
    MustPass,
    /// Neither side can move.
    Over(EndReason),
}

/// The discs of both sides and the side to move. Any two disjoint bitboards are a position (the rules decide
/// what happens next; a set-up from a board text is not checked for reachability).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    black: u64,
    white: u64,
    to_move: Color,
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The start: white on d4 and e5, black on d5 and e4, black to move.
    pub const fn start() -> Position {
        // d4 = 27, e4 = 28, d5 = 35, e5 = 36.
        Position {
            black: (1 << 28) | (1 << 35),
            white: (1 << 27) | (1 << 36),
            to_move: Color::Black,
        }
    }

    /// A position from two bitboards; `None` if they share a square.
    pub const fn from_bits(black: u64, white: u64, to_move: Color) -> Option<Position> {
        if black & white != 0 {
            None
        } else {
            Some(Position {
                black,
                white,
                to_move,
            })
        }
    }

    /// A position from the conformance files' board text (64 of `X` black, `O` white, `-` empty, `a1` first) and
    /// side (`X` or `O`).
    pub fn from_text(board: &str, to_move: &str) -> Result<Position, PositionError> {
        let to_move = match to_move {
            "X" => Color::Black,
            "O" => Color::White,
            _ => return Err(PositionError::BadSide),
        };
        if board.len() != 64 {
            return Err(PositionError::Malformed);
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in board.bytes().enumerate() {
            match c {
                b'X' => black |= 1 << i,
                b'O' => white |= 1 << i,
                b'-' => {}
                _ => return Err(PositionError::Malformed),
            }
        }
        Ok(Position {
            black,
            white,
            to_move,
        })
    }

    /// The board text (as [`Position::from_text`] reads it).
    pub fn board_text(&self) -> String {
        Square::all()
            .map(|s| match self.disc(s) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '-',
            })
            .collect()
    }

    /// Black's discs.
    pub const fn black(&self) -> u64 {
        self.black
    }

    /// White's discs.
    pub const fn white(&self) -> u64 {
        self.white
    }

    /// The side to move (also after the game ended: the side that would move).
    pub const fn to_move(&self) -> Color {
        self.to_move
    }

    /// The disc on a square.
    pub const fn disc(&self, square: Square) -> Option<Color> {
        if self.black & square.bit() != 0 {
            Some(Color::Black)
        } else if self.white & square.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The side to move's and the opponent's discs.
    #[inline]
    pub const fn sides(&self) -> (u64, u64) {
        match self.to_move {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        }
    }

    /// The side to move's legal squares as a bitboard.
    #[inline]
    pub fn move_bits(&self) -> u64 {
        let (p, o) = self.sides();
        bitboard::moves(p, o)
    }

    /// The side to move's legal squares.
    pub fn legal_moves(&self) -> SquareSet {
        SquareSet(self.move_bits())
    }

    /// The discs a move on `square` would flip (empty when it is illegal).
    pub fn flips(&self, square: Square) -> SquareSet {
        let (p, o) = self.sides();
        if (p | o) & square.bit() != 0 {
            return SquareSet(0);
        }
        SquareSet(bitboard::flips(p, o, square.index()))
    }

    /// Where the position stands.
    pub fn status(&self) -> PositionStatus {
        let (p, o) = self.sides();
        if bitboard::moves(p, o) != 0 {
            PositionStatus::Play
        } else if bitboard::moves(o, p) != 0 {
            PositionStatus::MustPass
        } else {
            PositionStatus::Over(self.score().end_reason())
        }
    }

    /// The disc counts.
    pub const fn score(&self) -> Score {
        Score::new(self.black.count_ones() as u8, self.white.count_ones() as u8)
    }

    /// Plays a move and returns the position after it with the flipped discs. The position is unchanged on
    /// refusal.
    pub fn play(&self, mv: Move) -> Result<(Position, SquareSet), IllegalMove> {
        let (p, o) = self.sides();
        let mine = bitboard::moves(p, o);
        match mv {
            Move::Pass => {
                if mine != 0 {
                    Err(IllegalMove::CannotPass)
                } else if bitboard::moves(o, p) == 0 {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok((self.passed(), SquareSet(0)))
                }
            }
            Move::Place(square) => {
                if mine == 0 {
                    return Err(if bitboard::moves(o, p) == 0 {
                        IllegalMove::GameOver
                    } else {
                        IllegalMove::MustPass
                    });
                }
                if (p | o) & square.bit() != 0 {
                    return Err(IllegalMove::Occupied);
                }
                if mine & square.bit() == 0 {
                    return Err(IllegalMove::NoFlip);
                }
                let flipped = bitboard::flips(p, o, square.index());
                Ok((self.placed(square.index(), flipped), SquareSet(flipped)))
            }
        }
    }

    /// The position after a disc on `square` flipping `flipped`, unchecked (the caller computed both).
    #[inline]
    pub fn placed(&self, square: u8, flipped: u64) -> Position {
        let (p, o) = self.sides();
        let p = p | flipped | (1 << square);
        let o = o & !flipped;
        match self.to_move {
            Color::Black => Position {
                black: p,
                white: o,
                to_move: Color::White,
            },
            Color::White => Position {
                black: o,
                white: p,
                to_move: Color::Black,
            },
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub const fn passed(&self) -> Position {
        Position {
            black: self.black,
            white: self.white,
            to_move: self.to_move.opposite(),
        }
    }
}
