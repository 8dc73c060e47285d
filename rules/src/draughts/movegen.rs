//! Move generation on a padded bitboard.
//!
//! Square `n` (1–50) lives on bit `(n - 1) + (n - 1) / 10`: every two rows leave one unused "ghost" bit (10, 21,
//! 32, 43), so that the four diagonal neighbours are always at bit offsets −6, −5, +5 and +6 and a step off the
//! board's side lands on a ghost bit, which is never a square. Men and kings of both sides are three `u64`s.
//!
//! Captures are found by a depth-first search that keeps captured pieces on the board (they block and cannot be
//! jumped again) and vacates only the moving piece's start square. Only the longest sequences are kept (the
//! majority rule), and routes with the same start, end and captured set are kept once.

/// Bits that are squares.
pub(crate) const VALID: u64 = {
    let mut v = 0u64;
    let mut n = 0;
    while n < 50 {
        v |= 1 << (n + n / 10);
        n += 1;
    }
    v
};

/// "No square" in the neighbour table.
pub(crate) const NONE: u8 = 255;

/// Offsets of the four directions: up-left, up-right (toward square 1, White's forward), down-left, down-right.
pub(crate) const DIRS: [i32; 4] = [-6, -5, 5, 6];

/// `NEIGH[bit][d]`: the neighbouring bit in direction `DIRS[d]`, or [`NONE`] off the board.
pub(crate) static NEIGH: [[u8; 4]; 64] = {
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
pub(crate) const WHITE_CROWN: u64 = 0b11111;
/// The bits of squares 46–50 (Black crowns there).
pub(crate) const BLACK_CROWN: u64 = 0b11111 << 49;

/// A move in bits: start, end and the captured pieces. Everything else follows from the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RawMove {
    pub from: u8,
    pub to: u8,
    pub captured: u64,
}

/// One capture route: its move and every square it lands on, the start first.
#[derive(Clone, Debug)]
pub(crate) struct Route {
    pub mv: RawMove,
    pub path: Vec<u8>,
}

#[inline]
fn shift(b: u64, d: i32) -> u64 {
    if d > 0 {
        (b << d) & VALID
    } else {
        (b >> -d) & VALID
    }
}

/// The side to move's pieces and everything the generator needs about the position.
#[derive(Clone, Copy)]
pub(crate) struct Sides {
    /// The mover's men.
    pub men: u64,
    /// The mover's kings.
    pub kings: u64,
    /// The opponent's pieces.
    pub them: u64,
    /// Empty squares.
    pub empty: u64,
    /// Whether the mover is White (moves toward square 1).
    pub white: bool,
}

struct Search<'a> {
    them: u64,
    empty: u64,
    max: u32,
    from: u8,
    moves: &'a mut Vec<RawMove>,
    routes: Option<&'a mut Vec<Route>>,
    path: [u8; 32],
    len: usize,
}

impl Search<'_> {
    #[inline]
    fn leaf(&mut self, to: u8, captured: u64, n: u32) {
        if n < self.max {
            return;
        }
        if n > self.max {
            self.max = n;
            self.moves.clear();
            if let Some(r) = self.routes.as_deref_mut() {
                r.clear();
            }
        }
        let mv = RawMove {
            from: self.from,
            to,
            captured,
        };
        self.moves.push(mv);
        if let Some(r) = self.routes.as_deref_mut() {
            r.push(Route {
                mv,
                path: self.path[..self.len].to_vec(),
            });
        }
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
            self.path[self.len] = land;
            self.len += 1;
            self.man(land, captured | 1 << mid, n + 1);
            self.len -= 1;
        }
        if !found && n > 0 {
            self.leaf(cur, captured, n);
        }
    }

    /// `back`: the direction index that leads back over the piece just taken (blocked by it), or 4.
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
                self.path[self.len] = land;
                self.len += 1;
                self.king(land, captured | 1 << sq, n + 1, 3 - d);
                self.len -= 1;
                land = NEIGH[land as usize][d];
            }
        }
        if !found && n > 0 {
            self.leaf(cur, captured, n);
        }
    }
}

/// Fills `moves` with every legal move (and `routes`, when given, with every route of every capture). Returns the
/// number of pieces each move captures (0 for quiet moves).
pub(crate) fn generate(
    s: Sides,
    moves: &mut Vec<RawMove>,
    mut routes: Option<&mut Vec<Route>>,
) -> u32 {
    moves.clear();
    if let Some(r) = routes.as_deref_mut() {
        r.clear();
    }
    // Men that have a piece to take next to them with an empty square beyond.
    let mut capturing_men = 0;
    for &d in &DIRS {
        capturing_men |= shift(shift(s.empty, -d) & s.them, -d);
    }
    capturing_men &= s.men;
    let mut search = Search {
        them: s.them,
        empty: 0,
        max: 1,
        from: 0,
        moves,
        routes,
        path: [0; 32],
        len: 1,
    };
    let mut bits = capturing_men;
    while bits != 0 {
        let from = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        search.from = from;
        search.empty = s.empty | 1 << from;
        search.path[0] = from;
        search.man(from, 0, 0);
    }
    let mut bits = s.kings;
    while bits != 0 {
        let from = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        search.from = from;
        search.empty = s.empty | 1 << from;
        search.path[0] = from;
        search.king(from, 0, 0, 4);
    }
    let max = search.max;
    let moves = search.moves;
    if !moves.is_empty() {
        if max >= 2 {
            dedup(moves);
        }
        return max;
    }
    // Quiet moves.
    let forward: [usize; 2] = if s.white { [0, 1] } else { [2, 3] };
    for d in forward {
        let mut targets = shift(s.men, DIRS[d]) & s.empty;
        while targets != 0 {
            let to = targets.trailing_zeros() as i32;
            targets &= targets - 1;
            moves.push(RawMove {
                from: (to - DIRS[d]) as u8,
                to: to as u8,
                captured: 0,
            });
        }
    }
    let mut bits = s.kings;
    while bits != 0 {
        let from = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        for (d, &first) in NEIGH[from as usize].iter().enumerate() {
            let mut sq = first;
            while sq != NONE && s.empty & (1 << sq) != 0 {
                moves.push(RawMove {
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

/// Keeps the first of every group of moves with the same start, end and captured set.
fn dedup(moves: &mut Vec<RawMove>) {
    let mut i = 1;
    while i < moves.len() {
        if moves[..i].contains(&moves[i]) {
            moves.swap_remove(i);
        } else {
            i += 1;
        }
    }
}

/// How many legal moves there are, without listing them when there is no capture.
pub(crate) fn count(s: Sides, buf: &mut Vec<RawMove>) -> u64 {
    let mut capturing_men = 0;
    for &d in &DIRS {
        capturing_men |= shift(shift(s.empty, -d) & s.them, -d);
    }
    if capturing_men & s.men != 0 || s.kings != 0 {
        generate(s, buf, None);
        return buf.len() as u64;
    }
    let forward: [i32; 2] = if s.white { [-6, -5] } else { [5, 6] };
    forward
        .iter()
        .map(|&d| (shift(s.men, d) & s.empty).count_ones() as u64)
        .sum()
}
