//! A position: where the men and kings stand and who moves; its legal moves, and playing one.

use std::fmt;

use super::movegen::{self, RawMove, Route, Sides, BLACK_CROWN, VALID, WHITE_CROWN};
use super::notation::MoveError;
use super::square::{Square, SquareSet};
use crate::Color;

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Moves one square forward, captures forward and backward.
    Man,
    /// Flies along whole diagonals.
    King,
}

impl Role {
    /// Stable lower-case name (`man`, `king`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::Man => "man",
            Role::King => "king",
        }
    }
}

/// A piece: its colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose.
    pub colour: Color,
    /// Man or king.
    pub role: Role,
}

/// A legal move of a position: its route, what it captures and whether it crowns. Only a position's move
/// generator makes one, so every `Move` was legal where it was listed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) raw: RawMove,
    pub(crate) path: Vec<Square>,
    pub(crate) role: Role,
    pub(crate) promotes: bool,
}

impl Move {
    /// The start square.
    pub fn from(&self) -> Square {
        Square::from_bit(self.raw.from.into())
    }

    /// The final square.
    pub fn to(&self) -> Square {
        Square::from_bit(self.raw.to.into())
    }

    /// Every square the piece stands on, the start first: two squares for a quiet move, one more per capture.
    /// Of several routes with the same start, end and captured set, the one listed is the smallest (by square
    /// numbers, in order).
    pub fn path(&self) -> &[Square] {
        &self.path
    }

    /// The captured pieces' squares.
    pub fn captured(&self) -> SquareSet {
        SquareSet::from_board(self.raw.captured)
    }

    /// Whether it captures.
    pub fn is_capture(&self) -> bool {
        self.raw.captured != 0
    }

    /// The role of the moving piece (before any crowning).
    pub fn role(&self) -> Role {
        self.role
    }

    /// Whether a man ends the move on the far row and is crowned.
    pub fn promotes(&self) -> bool {
        self.promotes
    }
}

impl fmt::Display for Move {
    /// PDN: `32-28` for a quiet move, the whole path `28x19x10` for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { "x" } else { "-" };
        for (i, s) in self.path.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// A position of international draughts: 50 squares with men and kings, and the side to move. Built only by
/// [`Position::initial`], [`Position::from_fen`] and playing legal moves, so no man stands on its crowning row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) white: u64,
    pub(crate) black: u64,
    pub(crate) kings: u64,
    pub(crate) turn: Color,
}

/// Reusable move buffers for [`Position::perft`], one per remaining depth.
#[derive(Default)]
struct Buffers(Vec<Vec<RawMove>>);

impl Position {
    /// The starting position: Black men on 1–20, White men on 31–50, White to move.
    pub fn initial() -> Position {
        let set = |a: u8, b: u8| {
            (a..=b)
                .filter_map(Square::new)
                .fold(0u64, |acc, s| acc | 1 << s.bit())
        };
        Position {
            white: set(31, 50),
            black: set(1, 20),
            kings: 0,
            turn: Color::White,
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let b = 1u64 << square.bit();
        let colour = if self.white & b != 0 {
            Color::White
        } else if self.black & b != 0 {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings & b != 0 {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { colour, role })
    }

    /// The squares of a colour's pieces.
    pub fn pieces(&self, colour: Color) -> SquareSet {
        SquareSet::from_board(self.side(colour))
    }

    /// The squares of a colour's pieces of a role.
    pub fn pieces_of(&self, colour: Color, role: Role) -> SquareSet {
        let side = self.side(colour);
        SquareSet::from_board(match role {
            Role::King => side & self.kings,
            Role::Man => side & !self.kings,
        })
    }

    /// How many men and kings a colour has: `(men, kings)`.
    pub fn count(&self, colour: Color) -> (u32, u32) {
        let side = self.side(colour);
        (
            (side & !self.kings).count_ones(),
            (side & self.kings).count_ones(),
        )
    }

    pub(crate) fn side(&self, colour: Color) -> u64 {
        match colour {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub(crate) fn sides(&self) -> Sides {
        let us = self.side(self.turn);
        Sides {
            men: us & !self.kings,
            kings: us & self.kings,
            them: self.side(self.turn.opposite()),
            empty: VALID & !(self.white | self.black),
            white: self.turn == Color::White,
        }
    }

    /// Builds a position from piece lists the caller has checked (disjoint, no man on its crowning row).
    pub(crate) fn from_parts(
        white: SquareSet,
        black: SquareSet,
        kings: SquareSet,
        turn: Color,
    ) -> Position {
        Position {
            white: white.to_board(),
            black: black.to_board(),
            kings: kings.to_board(),
            turn,
        }
    }

    fn listed(&self, raw: RawMove, path: Vec<Square>) -> Move {
        let from = 1u64 << raw.from;
        let role = if self.kings & from != 0 {
            Role::King
        } else {
            Role::Man
        };
        let crown = match self.turn {
            Color::White => WHITE_CROWN,
            Color::Black => BLACK_CROWN,
        };
        Move {
            raw,
            path,
            role,
            promotes: role == Role::Man && crown & (1 << raw.to) != 0,
        }
    }

    /// Every route of every legal capture (before routes of the same move are merged), or nothing when no
    /// capture is possible.
    pub(crate) fn routes(&self) -> Vec<Route> {
        let mut moves = Vec::new();
        let mut routes = Vec::new();
        let max = movegen::generate(self.sides(), &mut moves, Some(&mut routes));
        if max == 0 {
            routes.clear();
        }
        routes
    }

    /// Every legal move, sorted by start, end and path: captures only if one is possible, and then only those
    /// that take the most pieces; each move once (the smallest of its routes).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut raws = Vec::new();
        let mut routes = Vec::new();
        let max = movegen::generate(self.sides(), &mut raws, Some(&mut routes));
        let mut moves: Vec<Move> = if max == 0 {
            raws.iter()
                .map(|&r| {
                    let path = vec![
                        Square::from_bit(r.from.into()),
                        Square::from_bit(r.to.into()),
                    ];
                    self.listed(r, path)
                })
                .collect()
        } else {
            let mut best: Vec<(RawMove, Vec<Square>)> = Vec::new();
            for route in routes {
                let path: Vec<Square> = route
                    .path
                    .iter()
                    .map(|&b| Square::from_bit(b.into()))
                    .collect();
                match best.iter_mut().find(|(m, _)| *m == route.mv) {
                    Some((_, p)) => {
                        if path < *p {
                            *p = path;
                        }
                    }
                    None => best.push((route.mv, path)),
                }
            }
            best.into_iter().map(|(r, p)| self.listed(r, p)).collect()
        };
        moves.sort_by(|a, b| (a.from(), a.to(), &a.path).cmp(&(b.from(), b.to(), &b.path)));
        moves
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut buf = Vec::new();
        movegen::count(self.sides(), &mut buf) > 0
    }

    /// The position after a legal move of this position; a move listed by another position that is not legal
    /// here is refused ([`MoveError::Illegal`]), so playing never makes a position the rules cannot reach.
    pub fn play(&self, mv: &Move) -> Result<Position, MoveError> {
        let mut moves = Vec::new();
        movegen::generate(self.sides(), &mut moves, None);
        if moves.contains(&mv.raw) {
            Ok(self.play_raw(mv.raw))
        } else {
            Err(MoveError::Illegal)
        }
    }

    pub(crate) fn play_raw(&self, mv: RawMove) -> Position {
        let mut p = *self;
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let king = p.kings & from != 0;
        // `from` and `to` may be one square (a capture that comes round to its start).
        match p.turn {
            Color::White => {
                p.white = (p.white & !from) | to;
                p.black &= !mv.captured;
            }
            Color::Black => {
                p.black = (p.black & !from) | to;
                p.white &= !mv.captured;
            }
        }
        p.kings &= !mv.captured;
        if king {
            p.kings = (p.kings & !from) | to;
        } else {
            let crown = match p.turn {
                Color::White => WHITE_CROWN,
                Color::Black => BLACK_CROWN,
            };
            p.kings |= to & crown;
        }
        p.turn = p.turn.opposite();
        p
    }

    /// The number of move sequences of `depth` plies from here (leaves at full depth only; a position without a
    /// legal move before that adds nothing), with routes of the same move counted once.
    pub fn perft(&self, depth: u32) -> u64 {
        let mut bufs = Buffers::default();
        bufs.0.resize_with(depth as usize + 1, Vec::new);
        perft(self, depth, &mut bufs.0)
    }

    /// The position with colours exchanged and the board turned by 180 degrees (square `n` to `51 - n`): the
    /// same game seen from the other side.
    pub fn mirrored(&self) -> Position {
        let flip = |b: u64| {
            SquareSet::from_board(b)
                .iter()
                .fold(0u64, |acc, s| acc | 1 << s.rotated().bit())
        };
        Position {
            white: flip(self.black),
            black: flip(self.white),
            kings: flip(self.kings),
            turn: self.turn.opposite(),
        }
    }
}

fn perft(pos: &Position, depth: u32, bufs: &mut [Vec<RawMove>]) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count(pos.sides(), &mut bufs[0]),
        _ => {
            let (buf, rest) = bufs.split_last_mut().expect("one buffer per depth");
            movegen::generate(pos.sides(), buf, None);
            let mut total = 0;
            for &mv in buf.iter() {
                total += perft(&pos.play_raw(mv), depth - 1, rest);
            }
            total
        }
    }
}
