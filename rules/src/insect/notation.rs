//! Text forms: moves `from-to` and placements `ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL s`.
//!
//! A placement is read strictly, so that every accepted text is the one [`Position::placement`] writes back:
//! eleven ranks from 11 down to 1, each exactly seven files of piece letters and single digits `1`–`7` (never two
//! digits in a row), one space, and `s` or `n`. Beyond the text, a placement must be a position the rules can
//! reach from some set-up (the choices of `docs/rules-insect.md`):
//!
//! - at most one insect of each kind per side (fewer is fine: pieces get captured);
//! - only a diving beetle in the pond (any piece may stand in any mud: enemy mud by walking in, its own by
//!   capturing there);
//! - no piece on its own side's food;
//! - at most one piece on an enemy's food, and then its side is not to move (it just won by stepping there);
//! - at least one piece on the board, and a side with no pieces is the side to move (its last piece was just
//!   captured).

use std::fmt;
use std::str::FromStr;

use super::board::{Terrain, FOOD};
use super::piece::{Kind, Piece, Side};
use super::position::{Move, Position};
use super::square::{Square, FILES, RANKS};
use crate::ParsePointError;

/// Why a text is not a placement, or not one the rules can reach. Each reason has a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlacementError {
    /// Not eleven `/`-separated ranks of seven files, a space and a side: a rank of the wrong length, an unknown
    /// character, a `0`, two digits in a row, or stray spaces.
    Malformed,
    /// The side to move is not `s` or `n`.
    BadSide,
    /// A side has two insects of this kind.
    Duplicate(Piece),
    /// A piece other than a diving beetle stands in the pond.
    InPond(Square),
    /// A piece stands on its own side's food.
    OnOwnFood(Square),
    /// Both foods are taken: the game ended when the first was.
    BothFoodsTaken,
    /// No piece on the board at all.
    Empty,
    /// The side that won (by food) or lost its last piece does not fit the side to move: the side standing on
    /// the enemy's food moved last, and a side without pieces has just lost its last one and is to move.
    ImpossibleTurn,
}

impl PlacementError {
    /// Stable snake_case code.
    pub const fn code(self) -> &'static str {
        match self {
            PlacementError::Malformed => "malformed_placement",
            PlacementError::BadSide => "malformed_side",
            PlacementError::Duplicate(_) => "placement_duplicate_piece",
            PlacementError::InPond(_) => "placement_piece_in_pond",
            PlacementError::OnOwnFood(_) => "placement_piece_on_own_food",
            PlacementError::BothFoodsTaken => "placement_both_foods_taken",
            PlacementError::Empty => "placement_empty",
            PlacementError::ImpossibleTurn => "placement_impossible_turn",
        }
    }
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::Malformed => f.write_str(
                "a placement is eleven ranks of seven files separated by /, a space and s or n",
            ),
            PlacementError::BadSide => f.write_str("the side to move is s or n"),
            PlacementError::Duplicate(p) => write!(f, "{} has two of {}", p.side, p.kind),
            PlacementError::InPond(s) => {
                write!(f, "only a diving beetle may stand in the pond ({s})")
            }
            PlacementError::OnOwnFood(s) => write!(f, "a piece stands on its own food ({s})"),
            PlacementError::BothFoodsTaken => f.write_str("both foods are taken"),
            PlacementError::Empty => f.write_str("the board is empty"),
            PlacementError::ImpossibleTurn => {
                f.write_str("the side to move cannot be to move after the game's last move")
            }
        }
    }
}

impl std::error::Error for PlacementError {}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Not two squares joined by `-`.
    Malformed,
    /// One of the squares is not a square of the board.
    Square(ParsePointError),
}

impl ParseMoveError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            ParseMoveError::Malformed => "malformed_move",
            ParseMoveError::Square(e) => e.code(),
        }
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Malformed => f.write_str("a move is from-to, such as e2-e3"),
            ParseMoveError::Square(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `from-to` (`e2-e3`, `e4-e8`): two squares of the board; whether the move is legal is not asked.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let (from, to) = s.split_once('-').ok_or(ParseMoveError::Malformed)?;
        let from = from.parse().map_err(ParseMoveError::Square)?;
        let to = to.parse().map_err(ParseMoveError::Square)?;
        Ok(Move::new(from, to))
    }
}

impl Position {
    /// Reads a placement (see the module's notes for what it may hold).
    pub fn from_placement(text: &str) -> Result<Position, PlacementError> {
        let (board, side) = text.split_once(' ').ok_or(PlacementError::Malformed)?;
        let turn = match side {
            "s" => Side::South,
            "n" => Side::North,
            _ => return Err(PlacementError::BadSide),
        };
        let mut position = Position::empty(turn);
        let mut ranks = 0u8;
        for (i, rank_text) in board.split('/').enumerate() {
            if i >= RANKS as usize {
                return Err(PlacementError::Malformed);
            }
            ranks += 1;
            let rank = RANKS - 1 - i as u8;
            let mut file = 0u8;
            let mut after_digit = false;
            for c in rank_text.chars() {
                if let Some(run) = c.to_digit(10) {
                    if run == 0 || after_digit {
                        return Err(PlacementError::Malformed);
                    }
                    file = file.saturating_add(run as u8);
                    after_digit = true;
                    if file > FILES {
                        return Err(PlacementError::Malformed);
                    }
                    continue;
                }
                after_digit = false;
                let piece = Piece::from_letter(c).ok_or(PlacementError::Malformed)?;
                let square = Square::at(file, rank).ok_or(PlacementError::Malformed)?;
                if position.square_of(piece).is_some() {
                    return Err(PlacementError::Duplicate(piece));
                }
                match Terrain::of(square) {
                    Terrain::Pond if piece.kind != Kind::DivingBeetle => {
                        return Err(PlacementError::InPond(square))
                    }
                    Terrain::Food(side) if side == piece.side => {
                        return Err(PlacementError::OnOwnFood(square))
                    }
                    _ => {}
                }
                position.put(square, piece);
                file += 1;
            }
            if file != FILES {
                return Err(PlacementError::Malformed);
            }
        }
        if ranks != RANKS {
            return Err(PlacementError::Malformed);
        }
        let on_food =
            |side: Side| position.occupied[side.index()] & FOOD[side.opposite().index()] != 0;
        if on_food(Side::South) && on_food(Side::North) {
            return Err(PlacementError::BothFoodsTaken);
        }
        if position.count(Side::South) + position.count(Side::North) == 0 {
            return Err(PlacementError::Empty);
        }
        if on_food(turn) || position.count(turn.opposite()) == 0 {
            return Err(PlacementError::ImpossibleTurn);
        }
        Ok(position)
    }

    /// The placement text: ranks 11 down to 1, south upper case, north lower case, digits for empty runs, then
    /// `s` or `n`.
    pub fn placement(&self) -> String {
        let mut out = String::with_capacity(40);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let square = Square::at(file, rank).expect("on the board");
                match self.piece_at(square) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.turn.letter());
        out
    }
}

impl fmt::Display for Position {
    /// The placement text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.placement())
    }
}

impl FromStr for Position {
    type Err = PlacementError;

    /// [`Position::from_placement`].
    fn from_str(s: &str) -> Result<Position, PlacementError> {
        Position::from_placement(s)
    }
}
