//! The engine's own insect-chess board: two 128-bit boards, the square of each insect and a Zobrist key kept up
//! to date move by move, so the search generates, plays and hashes without allocating.
//!
//! It mirrors `rules::insect`'s move rules (the tests hold its moves equal to the rules' on random games and on
//! every conformance placement); the rules stay the judge of what the engine finally returns.

use std::sync::OnceLock;

use rules::insect::{Kind, Move, Position, Side, Square, Terrain};

/// Squares on the board.
pub(crate) const SQUARES: usize = 77;
/// An empty slot in the square-of-each-kind table (a captured or absent insect).
pub(crate) const NONE: u8 = u8::MAX;
/// Kind indices, as `rules::insect::Kind as usize` (strongest first).
pub(crate) const WASP: usize = Kind::Wasp as usize;
/// The diving beetle's kind index.
pub(crate) const BEETLE: usize = Kind::DivingBeetle as usize;

/// The fixed ground and the one-move reach of each square, built once from the rules' [`Terrain`].
pub(crate) struct Tables {
    /// The pond.
    pub pond: u128,
    /// Each side's food (by side index: south 0, north 1).
    pub food: [u128; 2],
    /// Each side's mud.
    pub mud: [u128; 2],
    /// Orthogonal neighbours of each square.
    pub steps: [u128; SQUARES],
    /// Where a wasp flying over the pond lands from each square.
    pub flights: [u128; SQUARES],
    /// Zobrist keys by side, kind and square.
    pub zobrist: [[[u64; SQUARES]; 6]; 2],
    /// Zobrist key of north to move.
    pub north_to_move: u64,
}

/// The tables, built on first use.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let mut t = Tables {
        pond: 0,
        food: [0; 2],
        mud: [0; 2],
        steps: [0; SQUARES],
        flights: [0; SQUARES],
        zobrist: [[[0; SQUARES]; 6]; 2],
        north_to_move: 0,
    };
    for square in Square::all() {
        let i = square.index() as usize;
        let bit = square.bit();
        match Terrain::of(square) {
            Terrain::Pond => t.pond |= bit,
            Terrain::Food(side) => t.food[side_index(side)] |= bit,
            Terrain::Mud(side) => t.mud[side_index(side)] |= bit,
            Terrain::Land => {}
        }
        let (file, rank) = (square.file(), square.rank());
        for (df, dr) in [(-1i8, 0i8), (1, 0), (0, -1), (0, 1)] {
            let (f, r) = (file as i8 + df, rank as i8 + dr);
            if f >= 0 && r >= 0 {
                if let Some(n) = Square::at(f as u8, r as u8) {
                    t.steps[i] |= n.bit();
                }
            }
        }
    }
    let flights = [
        ("c4", "c8"),
        ("d4", "d8"),
        ("e4", "e8"),
        ("b5", "f5"),
        ("b6", "f6"),
        ("b7", "f7"),
    ];
    for (a, b) in flights {
        let (a, b): (Square, Square) = (a.parse().expect("square"), b.parse().expect("square"));
        t.flights[a.index() as usize] |= b.bit();
        t.flights[b.index() as usize] |= a.bit();
    }
    // Fixed keys (SplitMix64 from a constant) so that hashes, and therefore node-limited searches, are the same on
    // every run.
    let mut state = 0x01a5_ec7c_4e55_u64;
    for side in &mut t.zobrist {
        for kind in side.iter_mut() {
            for key in kind.iter_mut() {
                *key = splitmix(&mut state);
            }
        }
    }
    t.north_to_move = splitmix(&mut state);
    t
}

/// One step of SplitMix64: a small, good, seedable generator for keys and the engine's noise.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A side's index: south 0, north 1.
pub(crate) const fn side_index(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => 1,
    }
}

/// A move inside the engine: the squares, the mover's kind and the captured kind (or [`NONE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Mv {
    pub from: u8,
    pub to: u8,
    pub kind: u8,
    pub victim: u8,
}

impl Mv {
    /// The rules' move.
    pub fn to_move(self) -> Move {
        Move::new(
            Square::new(self.from).expect("on the board"),
            Square::new(self.to).expect("on the board"),
        )
    }

    /// Whether it captures.
    pub fn is_capture(self) -> bool {
        self.victim != NONE
    }

    /// The squares packed in 16 bits (for the transposition table); 0 is no move (a1-a1 is never a move).
    pub fn packed(self) -> u16 {
        u16::from(self.from) | (u16::from(self.to) << 8)
    }
}

/// A short list of moves on the stack (a side has at most 6 pieces with at most 5 targets each).
pub(crate) struct MoveList {
    moves: [Mv; 32],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Mv::default(); 32],
            len: 0,
        }
    }

    fn push(&mut self, mv: Mv) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[Mv] {
        &self.moves[..self.len]
    }

    pub fn as_mut_slice(&mut self) -> &mut [Mv] {
        &mut self.moves[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Where the insects stand, who moves, and the position's Zobrist key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// Each side's pieces (by side index).
    pub occ: [u128; 2],
    /// The square of each side's insect of each kind, or [`NONE`].
    pub sq: [[u8; 6]; 2],
    /// Side to move (index).
    pub us: usize,
    /// Zobrist key.
    pub hash: u64,
}

impl Board {
    /// The board of a rules position.
    pub fn from_position(p: &Position) -> Board {
        let t = tables();
        let mut b = Board {
            occ: [0; 2],
            sq: [[NONE; 6]; 2],
            us: side_index(p.turn()),
            hash: 0,
        };
        for (square, piece) in p.pieces() {
            let (s, k, i) = (
                side_index(piece.side),
                piece.kind as usize,
                square.index() as usize,
            );
            b.occ[s] |= square.bit();
            b.sq[s][k] = square.index();
            b.hash ^= t.zobrist[s][k][i];
        }
        if b.us == 1 {
            b.hash ^= t.north_to_move;
        }
        b
    }

    /// The kind (index) of the piece of side `side` on square `square`, if any.
    pub fn kind_at(&self, side: usize, square: u8) -> Option<usize> {
        if self.occ[side] & (1u128 << square) == 0 {
            return None;
        }
        self.sq[side].iter().position(|&s| s == square)
    }

    /// For each of `side`'s kinds, the other side's pieces it beats by strength.
    pub fn beaten(&self, side: usize) -> [u128; 6] {
        let them = side ^ 1;
        let mut by_kind = [0u128; 6];
        for (bits, &s) in by_kind.iter_mut().zip(self.sq[them].iter()) {
            if s != NONE {
                *bits = 1u128 << s;
            }
        }
        let mut beaten = [0u128; 6];
        for (mover, set) in beaten.iter_mut().enumerate() {
            for (k, &bits) in by_kind.iter().enumerate() {
                if Kind::ALL[mover].beats(Kind::ALL[k]) {
                    *set |= bits;
                }
            }
        }
        beaten
    }

    /// The squares `side`'s piece of kind `kind` on `from` may move to (`beaten` from [`Board::beaten`]).
    #[inline]
    pub fn targets(&self, side: usize, kind: usize, from: u8, beaten: &[u128; 6]) -> u128 {
        let t = tables();
        let f = from as usize;
        let mut to = t.steps[f];
        if kind == WASP {
            to |= t.flights[f];
        }
        if kind != BEETLE {
            to &= !t.pond;
        }
        to &= !(self.occ[side] | t.food[side]);
        let enemy = self.occ[side ^ 1];
        let quiet = to & !enemy & !t.mud[side];
        let captures = if (1u128 << from) & (t.pond | t.mud[side ^ 1]) != 0 {
            0
        } else {
            to & enemy & !t.pond & (t.mud[side] | beaten[kind])
        };
        quiet | captures
    }

    /// Every square `side` could move a piece to, with the union of its pieces' targets (mobility, threats).
    pub fn reach(&self, side: usize) -> (u128, u32) {
        let beaten = self.beaten(side);
        let (mut all, mut count) = (0u128, 0u32);
        for (kind, &from) in self.sq[side].iter().enumerate() {
            if from != NONE {
                let to = self.targets(side, kind, from, &beaten);
                all |= to;
                count += to.count_ones();
            }
        }
        (all, count)
    }

    /// Whether the enemy already stands on the side to move's food (the game was lost on food).
    pub fn food_lost(&self) -> bool {
        self.occ[self.us ^ 1] & tables().food[self.us] != 0
    }

    /// The legal moves of the side to move (none once its food is taken).
    pub fn moves(&self, out: &mut MoveList) {
        if self.food_lost() {
            return;
        }
        let us = self.us;
        let beaten = self.beaten(us);
        for (kind, &from) in self.sq[us].iter().enumerate() {
            if from == NONE {
                continue;
            }
            let mut to = self.targets(us, kind, from, &beaten);
            while to != 0 {
                let square = to.trailing_zeros() as u8;
                to &= to - 1;
                let victim = self.kind_at(us ^ 1, square).map_or(NONE, |k| k as u8);
                out.push(Mv {
                    from,
                    to: square,
                    kind: kind as u8,
                    victim,
                });
            }
        }
    }

    /// The board after a move taken from [`Board::moves`].
    #[inline]
    pub fn play(&self, mv: Mv) -> Board {
        let t = tables();
        let mut b = *self;
        let (us, them) = (self.us, self.us ^ 1);
        let kind = mv.kind as usize;
        b.occ[us] ^= (1u128 << mv.from) | (1u128 << mv.to);
        b.sq[us][kind] = mv.to;
        b.hash ^= t.zobrist[us][kind][mv.from as usize] ^ t.zobrist[us][kind][mv.to as usize];
        if mv.victim != NONE {
            let v = mv.victim as usize;
            b.occ[them] ^= 1u128 << mv.to;
            b.sq[them][v] = NONE;
            b.hash ^= t.zobrist[them][v][mv.to as usize];
        }
        b.us = them;
        b.hash ^= t.north_to_move;
        b
    }

    /// The engine's move for a rules move, if it is one of the legal moves here.
    pub fn find(&self, mv: Move) -> Option<Mv> {
        let mut list = MoveList::new();
        self.moves(&mut list);
        list.as_slice()
            .iter()
            .copied()
            .find(|m| m.from == mv.from().index() && m.to == mv.to().index())
    }

    /// Whether the side to move can step onto the enemy's food now (a win in one).
    pub fn food_win(&self) -> Option<Mv> {
        let t = tables();
        let us = self.us;
        let food = t.food[us ^ 1];
        // Only a piece next to the food (in the enemy's mud, on this board) can reach it, and nothing stops it.
        for (kind, &from) in self.sq[us].iter().enumerate() {
            if from != NONE && t.steps[from as usize] & food != 0 && !self.food_lost() {
                return Some(Mv {
                    from,
                    to: food.trailing_zeros() as u8,
                    kind: kind as u8,
                    victim: NONE,
                });
            }
        }
        None
    }

    /// The side-`side` pieces standing one step from the other side's food (threatening to take it).
    pub fn food_threats(&self, side: usize) -> u128 {
        let t = tables();
        let food = t.food[side ^ 1];
        let mut near = 0u128;
        for &from in &self.sq[side] {
            if from != NONE && t.steps[from as usize] & food != 0 {
                near |= 1u128 << from;
            }
        }
        near
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::insect::Game;

    /// The engine's moves, as rules moves, sorted as the rules sort them.
    fn moves_of(b: &Board) -> Vec<Move> {
        let mut list = MoveList::new();
        b.moves(&mut list);
        let mut moves: Vec<Move> = list.as_slice().iter().map(|m| m.to_move()).collect();
        moves.sort_unstable();
        moves
    }

    #[test]
    fn the_boards_moves_and_keys_follow_the_rules_through_random_games() {
        let mut state = 11u64;
        for _ in 0..200 {
            let mut game = Game::new();
            let mut board = Board::from_position(game.position());
            for _ in 0..300 {
                if game.status().is_over() {
                    break;
                }
                assert_eq!(moves_of(&board), game.position().legal_moves());
                let legal = game.legal_moves();
                let mv = legal[(splitmix(&mut state) % legal.len() as u64) as usize];
                let m = board.find(mv).expect("a legal move");
                let played = game.apply(mv).unwrap();
                assert_eq!(m.victim != NONE, played.captured.is_some());
                board = board.play(m);
                assert_eq!(
                    board,
                    Board::from_position(game.position()),
                    "{}",
                    game.position()
                );
            }
        }
    }

    #[test]
    fn the_boards_moves_and_keys_follow_the_rules_on_every_scattered_placement() {
        let text = include_str!("../../../rules/tests/data/insect/scattered.jsonl");
        let mut count = 0;
        for line in text.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            let start = Position::from_placement(record["start"].as_str().unwrap()).unwrap();
            let board = Board::from_position(&start);
            assert_eq!(moves_of(&board), start.legal_moves(), "{start}");
            let then: Move = record["then"].as_str().unwrap().parse().unwrap();
            let after = start.play(then).unwrap();
            let played = board.play(board.find(then).expect("a legal move"));
            assert_eq!(played, Board::from_position(&after), "{start} {then}");
            count += 1;
        }
        assert_eq!(count, 400);
    }
}
