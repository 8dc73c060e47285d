//! The engine's own board: three padded bitboards, the move generator (majority captures) and Zobrist keys.
//!
//! Square `n` (1–50) lives on bit `(n - 1) + (n - 1) / 10`, as in the rules crate: every two rows leave a ghost
//! bit (10, 21, 32, 43), so the four diagonal neighbours are always at offsets −6, −5, +5 and +6 and a step off
//! the board's side lands on a ghost. The rules' `Position::legal_moves` builds paths (vectors) and its `play`
//! checks the move against a fresh generation; the search needs neither, so it keeps this copy, tested move for
//! move against the rules' list (`tests/engine/draughts.rs`).

use rules::draughts::{Position, Role, Square};
use rules::Color;

/// Bits that are squares.
pub const VALID: u64 = {
    let mut v = 0u64;
    let mut n = 0;
    while n < 50 {
        v |= 1 << (n + n / 10);
        n += 1;
    }
    v
};

/// "No square" in [`NEIGH`].
pub const NONE: u8 = 255;

/// Offsets of the four directions: up-left, up-right (toward square 1, White's forward), down-left, down-right.
pub const DIRS: [i32; 4] = [-6, -5, 5, 6];

/// `NEIGH[bit][d]`: the neighbouring bit in direction `DIRS[d]`, or [`NONE`] off the board.
pub static NEIGH: [[u8; 4]; 64] = NEIGH_TABLE;

/// [`NEIGH`] for constant tables.
pub const NEIGH_TABLE: [[u8; 4]; 64] = {
    let mut t = [[NONE; 4]; 64];
    let mut b = 0;
    while b < 64 {
        if VALID & (1 << b) != 0 {
            let mut d = 0;
            while d < 4 {
                let n = b as i32 + DIRS[d];
                if n >= 0 && n < 64 && VALID & (1 << n) != 0 {
                    t[b][d] = n as u8;
                }
                d += 1;
            }
        }
        b += 1;
    }
    t
};

/// The bits of squares 1–5 (White crowns there).
pub const WHITE_CROWN: u64 = 0b11111;
/// The bits of squares 46–50 (Black crowns there).
pub const BLACK_CROWN: u64 = 0b11111 << 49;

/// The bit of a square.
pub const fn bit_of(square: Square) -> u8 {
    let n = square.number() - 1;
    n + n / 10
}

/// The square of a bit that is one (see [`VALID`]).
pub fn square_of(bit: u8) -> Square {
    Square::new(bit - bit / 11 + 1).expect("a valid bit")
}

/// The row of a bit counted from the top (squares 1–5 are row 0, Black's back row; 46–50 row 9).
pub const fn row(bit: u8) -> u8 {
    let n = bit - bit / 11;
    n / 5
}

/// The file of a bit, 0 (a) to 9 (j).
pub const fn file(bit: u8) -> u8 {
    let n = bit - bit / 11;
    let c = n % 5;
    if (n / 5).is_multiple_of(2) {
        2 * c + 1
    } else {
        2 * c
    }
}

/// A move in bits: start, end and the captured pieces (the rest follows from the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mv {
    /// The start bit.
    pub from: u8,
    /// The final bit (equal to `from` for a capture that comes round to its start).
    pub to: u8,
    /// The captured pieces.
    pub captured: u64,
}

impl Mv {
    /// Whether it captures.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }
}

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// Zobrist keys: `[white man, white king, black man, black king][bit]`.
static ZOBRIST: [[u64; 64]; 4] = {
    let mut t = [[0u64; 64]; 4];
    let mut state = 0x6472_6175_6768_7473; // "draughts"
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < 64 {
            let (s, z) = splitmix(state);
            state = s;
            t[k][b] = z;
            b += 1;
        }
        k += 1;
    }
    t
};

/// Toggled when Black is to move.
const BLACK_TO_MOVE: u64 = 0x5bd1_e995_2f3c_a1b7;

/// A position for the search: both sides, the kings, who moves, and its Zobrist key (kept up to date).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// Both sides' kings.
    pub kings: u64,
    /// Whether White moves.
    pub white_to_move: bool,
    /// The Zobrist key of all of the above.
    pub hash: u64,
}

impl Board {
    /// The rules' position on this board.
    pub fn from_position(position: &Position) -> Board {
        let set = |colour, role| {
            position
                .pieces_of(colour, role)
                .iter()
                .fold(0u64, |acc, s| acc | 1 << bit_of(s))
        };
        let (wk, bk) = (set(Color::White, Role::King), set(Color::Black, Role::King));
        let mut board = Board {
            white: set(Color::White, Role::Man) | wk,
            black: set(Color::Black, Role::Man) | bk,
            kings: wk | bk,
            white_to_move: position.turn() == Color::White,
            hash: 0,
        };
        board.hash = board.compute_hash();
        board
    }

    /// The Zobrist key computed from scratch (what [`Board::hash`] holds).
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.white_to_move { 0 } else { BLACK_TO_MOVE };
        for (k, set) in [
            self.white & !self.kings,
            self.white & self.kings,
            self.black & !self.kings,
            self.black & self.kings,
        ]
        .into_iter()
        .enumerate()
        {
            let mut bits = set;
            while bits != 0 {
                h ^= ZOBRIST[k][bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        h
    }

    /// The side to move's pieces and the opponent's.
    pub fn sides(&self) -> (u64, u64) {
        if self.white_to_move {
            (self.white, self.black)
        } else {
            (self.black, self.white)
        }
    }

    /// Empty squares.
    pub fn empty(&self) -> u64 {
        VALID & !(self.white | self.black)
    }

    /// Every legal move into `out` (cleared first): the captures that take the most pieces if any capture is
    /// possible, else the quiet moves. Returns how many pieces each captures (0 for quiet moves).
    pub fn generate(&self, out: &mut Vec<Mv>) -> u32 {
        out.clear();
        let (us, them) = self.sides();
        let empty = self.empty();
        let men = us & !self.kings;
        let kings = us & self.kings;
        let mut search = Capture {
            them,
            empty,
            max: 1,
            from: 0,
            out,
        };
        // Men with a piece to take next to them and an empty square beyond.
        let mut capturing = 0u64;
        for &d in &DIRS {
            capturing |= shift(shift(empty, -d) & them, -d);
        }
        let mut bits = capturing & men;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            search.from = from;
            search.empty = empty | 1 << from;
            search.man(from, 0, 0);
        }
        let mut bits = kings;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            search.from = from;
            search.empty = empty | 1 << from;
            search.king(from, 0, 0, 4);
        }
        let max = search.max;
        if !out.is_empty() {
            if max >= 2 {
                dedup(out);
            }
            return max;
        }
        let forward: [usize; 2] = if self.white_to_move { [0, 1] } else { [2, 3] };
        for d in forward {
            let mut targets = shift(men, DIRS[d]) & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as i32;
                targets &= targets - 1;
                out.push(Mv {
                    from: (to - DIRS[d]) as u8,
                    to: to as u8,
                    captured: 0,
                });
            }
        }
        let mut bits = kings;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            for (d, &first) in NEIGH[from as usize].iter().enumerate() {
                let mut sq = first;
                while sq != NONE && empty & (1 << sq) != 0 {
                    out.push(Mv {
                        from,
                        to: sq,
                        captured: 0,
                    });
                    sq = NEIGH[sq as usize][d];
                }
            }
        }
        0
    }

    /// Whether the side to move has a capture (and so must take).
    pub fn has_capture(&self) -> bool {
        let (us, them) = self.sides();
        let empty = self.empty();
        let mut capturing = 0u64;
        for &d in &DIRS {
            capturing |= shift(shift(empty, -d) & them, -d);
        }
        if capturing & us & !self.kings != 0 {
            return true;
        }
        let mut bits = us & self.kings;
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            for (d, &first) in NEIGH[from].iter().enumerate() {
                let mut sq = first;
                while sq != NONE && empty & (1 << sq) != 0 {
                    sq = NEIGH[sq as usize][d];
                }
                if sq != NONE && them & (1 << sq) != 0 {
                    let land = NEIGH[sq as usize][d];
                    if land != NONE && empty & (1 << land) != 0 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the piece on `bit` is a king.
    pub fn is_king(&self, bit: u8) -> bool {
        self.kings & (1 << bit) != 0
    }

    /// The board after a move that [`Board::generate`] listed here.
    pub fn play(&self, mv: Mv) -> Board {
        let mut b = *self;
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let king = b.kings & from != 0;
        let (mover, enemy) = if b.white_to_move { (0, 2) } else { (2, 0) };
        // Captured pieces leave with their keys.
        let mut bits = mv.captured;
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let k = enemy + usize::from(b.kings & (1 << c) != 0);
            b.hash ^= ZOBRIST[k][c];
        }
        let crown = if b.white_to_move {
            WHITE_CROWN
        } else {
            BLACK_CROWN
        };
        let crowned = king || to & crown != 0;
        b.hash ^= ZOBRIST[mover + usize::from(king)][mv.from as usize];
        b.hash ^= ZOBRIST[mover + usize::from(crowned)][mv.to as usize];
        b.hash ^= BLACK_TO_MOVE;
        // `from` and `to` may be one square (a capture that comes round to its start).
        if b.white_to_move {
            b.white = (b.white & !from) | to;
            b.black &= !mv.captured;
        } else {
            b.black = (b.black & !from) | to;
            b.white &= !mv.captured;
        }
        b.kings &= !(mv.captured | from);
        if crowned {
            b.kings |= to;
        }
        b.white_to_move = !b.white_to_move;
        b
    }

    /// `(men, kings)` of White, then of Black.
    pub fn counts(&self) -> ((u32, u32), (u32, u32)) {
        let c = |side: u64| {
            (
                (side & !self.kings).count_ones(),
                (side & self.kings).count_ones(),
            )
        };
        (c(self.white), c(self.black))
    }
}

#[inline]
fn shift(b: u64, d: i32) -> u64 {
    if d > 0 {
        (b << d) & VALID
    } else {
        (b >> -d) & VALID
    }
}

/// The depth-first capture search of one piece: captured pieces stay on the board (they block and cannot be
/// taken twice), the moving piece's start square is empty; only the longest sequences are kept.
struct Capture<'a> {
    them: u64,
    empty: u64,
    max: u32,
    from: u8,
    out: &'a mut Vec<Mv>,
}

impl Capture<'_> {
    #[inline]
    fn leaf(&mut self, to: u8, captured: u64, n: u32) {
        if n < self.max {
            return;
        }
        if n > self.max {
            self.max = n;
            self.out.clear();
        }
        self.out.push(Mv {
            from: self.from,
            to,
            captured,
        });
    }

    fn man(&mut self, cur: u8, captured: u64, n: u32) {
        let mut found = false;
        let live = self.them & !captured;
        for (d, &mid) in NEIGH[cur as usize].iter().enumerate() {
            if mid == NONE || live & (1 << mid) == 0 {
                continue;
            }
            let land = NEIGH[mid as usize][d];
            if land == NONE || self.empty & (1 << land) == 0 {
                continue;
            }
            found = true;
            self.man(land, captured | 1 << mid, n + 1);
        }
        if !found && n > 0 {
            self.leaf(cur, captured, n);
        }
    }

    /// `back`: the direction that leads back over the piece just taken (blocked by it), or 4 at the start.
    fn king(&mut self, cur: u8, captured: u64, n: u32, back: usize) {
        let mut found = false;
        let live = self.them & !captured;
        for (d, &first) in NEIGH[cur as usize].iter().enumerate() {
            if d == back {
                continue;
            }
            let mut sq = first;
            while sq != NONE && self.empty & (1 << sq) != 0 {
                sq = NEIGH[sq as usize][d];
            }
            if sq == NONE || live & (1 << sq) == 0 {
                continue;
            }
            let mut land = NEIGH[sq as usize][d];
            while land != NONE && self.empty & (1 << land) != 0 {
                found = true;
                self.king(land, captured | 1 << sq, n + 1, 3 - d);
                land = NEIGH[land as usize][d];
            }
        }
        if !found && n > 0 {
            self.leaf(cur, captured, n);
        }
    }
}

/// Keeps the first of every group of moves with the same start, end and captured set.
fn dedup(moves: &mut Vec<Mv>) {
    let mut i = 1;
    while i < moves.len() {
        if moves[..i].contains(&moves[i]) {
            moves.swap_remove(i);
        } else {
            i += 1;
        }
    }
}
