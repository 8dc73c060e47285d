//! A position: where each insect stands and who moves; its legal moves, why a move is refused, and playing one.

use std::fmt;

use super::board::{Terrain, FLIGHTS, STEPS};
use super::movegen::{self, NONE};
use super::piece::{Kind, Piece, Side};
use super::square::Square;

/// A move: a piece goes from one square to another (a step, or the wasp's flight over the pond); a capture is
/// written the same way. Any two squares make a `Move`; whether it is legal is the position's to say
/// ([`Position::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The square the piece leaves.
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square it lands on.
    pub const fn to(self) -> Square {
        self.to
    }

    /// The same move turned half a circle (see [`Square::rotated`]).
    pub const fn rotated(self) -> Move {
        Move {
            from: self.from.rotated(),
            to: self.to.rotated(),
        }
    }
}

impl fmt::Display for Move {
    /// `from-to`, such as `e2-e3` or the flight `e4-e8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a move is refused. Each reason has a stable code ([`IllegalMove::code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The game is over (a piece stands on the food of the side to move, or a game's end rule ended it).
    GameOver,
    /// It is the other side's turn (for a caller that says who moves).
    NotYourTurn,
    /// No piece stands on the start square.
    NoPiece,
    /// The piece on the start square is the other side's.
    NotYourPiece,
    /// The end square is neither next to the start square nor, for a wasp, the far side of a flight.
    NotAStep,
    /// Only the diving beetle may enter the pond.
    Pond,
    /// No piece may stand on its own side's food.
    OwnFood,
    /// One's own piece stands on the end square.
    OwnPiece,
    /// One's own mud may be entered only to capture an enemy standing there.
    OwnMud,
    /// Nothing is captured in the pond, nor by a piece leaving it.
    CaptureInPond,
    /// A piece in the enemy's mud has no strength and captures nothing.
    NoStrength,
    /// The mover does not beat the piece on the end square.
    TooWeak,
}

impl IllegalMove {
    /// Stable snake_case code for the wire.
    pub const fn code(self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::NotYourTurn => "not_your_turn",
            IllegalMove::NoPiece => "no_piece",
            IllegalMove::NotYourPiece => "not_your_piece",
            IllegalMove::NotAStep => "not_a_step",
            IllegalMove::Pond => "pond",
            IllegalMove::OwnFood => "own_food",
            IllegalMove::OwnPiece => "own_piece",
            IllegalMove::OwnMud => "own_mud",
            IllegalMove::CaptureInPond => "capture_in_pond",
            IllegalMove::NoStrength => "no_strength",
            IllegalMove::TooWeak => "too_weak",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::GameOver => "the game is over",
            IllegalMove::NotYourTurn => "it is the other side's turn",
            IllegalMove::NoPiece => "no piece stands there",
            IllegalMove::NotYourPiece => "that piece is the other side's",
            IllegalMove::NotAStep => {
                "a piece steps to a square next to it (a wasp also flies over the pond)"
            }
            IllegalMove::Pond => "only the diving beetle enters the pond",
            IllegalMove::OwnFood => "no piece may stand on its own food",
            IllegalMove::OwnPiece => "one's own piece stands there",
            IllegalMove::OwnMud => "one's own mud is entered only to capture",
            IllegalMove::CaptureInPond => "nothing is captured in or from the pond",
            IllegalMove::NoStrength => "a piece in the enemy's mud captures nothing",
            IllegalMove::TooWeak => "the mover does not beat that piece",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// Where the insects stand and who moves. Built only by [`Position::start`], a checked placement
/// ([`Position::from_placement`]) and legal moves, so at most one insect of each kind per side, only diving
/// beetles in the pond, nobody on its own food, and at most one food taken (by the side that just moved).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Each side's pieces (by side index), bit = square index.
    pub(crate) occupied: [u128; 2],
    /// The square index of each side's insect of each kind, or [`NONE`].
    pub(crate) squares: [[u8; 6]; 2],
    pub(crate) turn: Side,
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// A position without pieces, `turn` to move; filled by the placement reader, which checks it.
    pub(crate) const fn empty(turn: Side) -> Position {
        Position {
            occupied: [0, 0],
            squares: [[NONE; 6]; 2],
            turn,
        }
    }

    /// Puts a piece on an empty square (the caller checks the rest).
    pub(crate) fn put(&mut self, square: Square, piece: Piece) {
        let (side, kind) = (piece.side.index(), piece.kind.index());
        self.occupied[side] |= square.bit();
        self.squares[side][kind] = square.index();
    }

    /// The start: south's `S C . . . D L` on rank 1 and `T . W` on c2/e2, north the same turned half a circle;
    /// south to move (`ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL s`).
    pub fn start() -> Position {
        let mut p = Position::empty(Side::South);
        let south = [
            ("a1", Kind::Scorpion),
            ("b1", Kind::Centipede),
            ("g1", Kind::WolfSpider),
            ("c2", Kind::TigerBeetle),
            ("e2", Kind::Wasp),
            ("f1", Kind::DivingBeetle),
        ];
        for (name, kind) in south {
            let s: Square = name.parse().expect("a square of the board");
            p.put(
                s,
                Piece {
                    side: Side::South,
                    kind,
                },
            );
            p.put(
                s.rotated(),
                Piece {
                    side: Side::North,
                    kind,
                },
            );
        }
        p
    }

    /// The side to move.
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        for side in Side::ALL {
            if self.occupied[side.index()] & square.bit() != 0 {
                let kind = self.squares[side.index()]
                    .iter()
                    .position(|&s| s == square.index())
                    .map(|k| Kind::ALL[k])
                    .expect("an occupied square holds a kind");
                return Some(Piece { side, kind });
            }
        }
        None
    }

    /// Where a side's insect of a kind stands; `None` once it was captured (or, in a placement, never there).
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        match self.squares[piece.side.index()][piece.kind.index()] {
            NONE => None,
            s => Some(Square::from_index(s)),
        }
    }

    /// Every piece with its square, in square order (`a1`, `b1`, …, `g11`).
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        Square::of_bits(self.occupied[0] | self.occupied[1])
            .map(|s| (s, self.piece_at(s).expect("an occupied square")))
            .collect()
    }

    /// How many pieces a side has.
    pub const fn count(&self, side: Side) -> u32 {
        self.occupied[side.index()].count_ones()
    }

    /// The side whose piece stands on the other side's food, if any: it has won.
    pub fn food_taken(&self) -> Option<Side> {
        Side::ALL.into_iter().find(|&side| {
            let food = super::board::FOOD[side.opposite().index()];
            self.occupied[side.index()] & food != 0
        })
    }

    /// Every legal move of the side to move, ordered by start square and then end square (square index order:
    /// `a1`, `b1`, …, `g1`, `a2`, …). None once a piece stands on the mover's food.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(32);
        movegen::for_each_piece(self, |_, from, t| {
            let from = Square::from_index(from);
            moves.extend(Square::of_bits(t).map(|to| Move::new(from, to)));
        });
        moves.sort_unstable();
        moves
    }

    /// How many legal moves the side to move has.
    pub fn count_legal_moves(&self) -> u32 {
        movegen::count(self)
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        movegen::count(self) > 0
    }

    /// Whether a move is legal here, and if not the first rule it breaks, checked one by one in the order of the
    /// rules page (independently of the move generator, which the tests hold it to).
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let us = self.turn;
        if self.food_taken().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let piece = self.piece_at(mv.from).ok_or(IllegalMove::NoPiece)?;
        if piece.side != us {
            return Err(IllegalMove::NotYourPiece);
        }
        let (from, to) = (mv.from.index() as usize, mv.to.bit());
        let flight = piece.kind == Kind::Wasp && FLIGHTS[from] & to != 0;
        if STEPS[from] & to == 0 && !flight {
            return Err(IllegalMove::NotAStep);
        }
        let ground = Terrain::of(mv.to);
        if ground == Terrain::Pond && piece.kind != Kind::DivingBeetle {
            return Err(IllegalMove::Pond);
        }
        if ground == Terrain::Food(us) {
            return Err(IllegalMove::OwnFood);
        }
        let Some(target) = self.piece_at(mv.to) else {
            return if ground == Terrain::Mud(us) {
                Err(IllegalMove::OwnMud)
            } else {
                Ok(())
            };
        };
        if target.side == us {
            return Err(IllegalMove::OwnPiece);
        }
        if ground == Terrain::Pond || Terrain::of(mv.from) == Terrain::Pond {
            return Err(IllegalMove::CaptureInPond);
        }
        if Terrain::of(mv.from) == Terrain::Mud(us.opposite()) {
            return Err(IllegalMove::NoStrength);
        }
        if ground == Terrain::Mud(us) || piece.kind.beats(target.kind) {
            Ok(())
        } else {
            Err(IllegalMove::TooWeak)
        }
    }

    /// The position after a legal move, or why the move is refused. The piece on the end square, if any, is
    /// captured; the other side is then to move.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        self.check(mv)?;
        let kind = self.piece_at(mv.from).expect("checked").kind;
        Ok(movegen::make(
            self,
            kind.index(),
            mv.from.index(),
            mv.to.index(),
        ))
    }

    /// The number of move sequences `depth` plies long from here (leaves of the move tree, bulk-counted at the
    /// last ply). A position lost on food ends its branch; the game's history rules (threefold repetition,
    /// 100 plies without capture) are not applied — from the start they cannot end a game within 7 plies, so
    /// the rules page's table (depths 1–6) is the same either way.
    pub fn perft(&self, depth: u32) -> u64 {
        movegen::perft(self, depth)
    }

    /// The position turned half a circle with the sides exchanged: each piece goes to [`Square::rotated`] and
    /// changes side, and the other side is to move. The rules are symmetric under this turn, so the turned
    /// position has the turned legal moves and the same result with the winner exchanged.
    pub fn rotated(&self) -> Position {
        let mut p = Position::empty(self.turn.opposite());
        for (square, piece) in self.pieces() {
            p.put(
                square.rotated(),
                Piece {
                    side: piece.side.opposite(),
                    kind: piece.kind,
                },
            );
        }
        p
    }
}
