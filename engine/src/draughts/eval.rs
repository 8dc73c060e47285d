//! The evaluation, in hundredths of a man for the side to move: material (a king is worth [`KING`], about three
//! men), tempo (how far the men have advanced), the centre, outposts (an advanced man held from behind), the
//! back row while the opponent has no king, breakthroughs (a man no enemy piece can stop on its way to the crown),
//! kings on the long diagonal, and the endgames the rules draw (a lone king against three pieces or fewer).

use super::board::{file, row, Board, NEIGH, NEIGH_TABLE, NONE, VALID};

/// A man.
pub const MAN: i32 = 100;
/// A king: about three men.
pub const KING: i32 = 300;
/// No evaluation reaches this; beyond it, scores are wins and losses found by the search.
pub const MAX_EVAL: i32 = 10_000;

/// Tempo: a White man's bonus by rows advanced (0 on its back row, 8 one step from the crown).
const ADVANCE: [i32; 9] = [0, 1, 2, 3, 5, 7, 10, 14, 20];

/// A free path to the crown, by rows still to go (1–8), when the opponent has no king to stop it.
const BREAKTHROUGH: [i32; 10] = [0, 220, 170, 120, 80, 50, 30, 15, 5, 0];

/// Square values for a White man (bit-indexed): tempo, the centre, the edges and the back row.
static WHITE_MAN: [i32; 64] = {
    let mut t = [0i32; 64];
    let mut b = 0u8;
    while b < 64 {
        if VALID & (1 << b) != 0 {
            let advanced = 9 - row(b);
            let f = file(b);
            let r = row(b);
            let mut v = if advanced < 9 {
                ADVANCE[advanced as usize]
            } else {
                0
            };
            if f >= 3 && f <= 6 && r >= 3 && r <= 6 {
                v += 6;
            } else if f >= 2 && f <= 7 && r >= 2 && r <= 7 {
                v += 2;
            }
            if f == 0 || f == 9 {
                v -= 3;
            }
            t[b as usize] = v;
        }
        b += 1;
    }
    t
};

/// The forward cone of a White man on each bit: the squares it could pass through on its way to the crown.
static WHITE_CONE: [u64; 64] = cones(true);
/// The same for a Black man.
static BLACK_CONE: [u64; 64] = cones(false);

const fn cones(white: bool) -> [u64; 64] {
    let mut t = [0u64; 64];
    // Rows in the order a man walks them, so each cone is built from the cones one step ahead.
    let mut i = 0;
    while i < 64 {
        let b = if white { i } else { 63 - i };
        if VALID & (1 << b) != 0 {
            let (d0, d1) = if white { (0, 1) } else { (2, 3) };
            let mut c = 0u64;
            let n0 = NEIGH_TABLE[b][d0];
            if n0 != NONE {
                c |= 1 << n0 | t[n0 as usize];
            }
            let n1 = NEIGH_TABLE[b][d1];
            if n1 != NONE {
                c |= 1 << n1 | t[n1 as usize];
            }
            t[b] = c;
        }
        i += 1;
    }
    t
}

/// The long diagonal (5–46), where a king controls the most.
const LONG_DIAGONAL: [u8; 10] = [5, 10, 14, 19, 23, 28, 32, 37, 41, 46];

fn long_diagonal() -> u64 {
    LONG_DIAGONAL
        .iter()
        .fold(0u64, |acc, &n| acc | 1 << ((n - 1) + (n - 1) / 10))
}

/// Mirror of a bit: square `n` to `51 - n` (Black's view as White's).
#[inline]
fn mirror(bit: usize) -> usize {
    let n = bit - bit / 11;
    let m = 49 - n;
    m + m / 10
}

/// The score of `board` for the side to move.
pub fn evaluate(board: &Board) -> i32 {
    let white = side(board, true);
    let black = side(board, false);
    let ((wm, wk), (bm, bk)) = board.counts();
    let mut score = white - black;
    // A lone king against three pieces or fewer holds the draw (and the 16- and 5-move rules end it).
    let lone = |m: u32, k: u32| m == 0 && k == 1;
    if (lone(bm, bk) && wm + wk <= 3) || (lone(wm, wk) && bm + bk <= 3) {
        score /= 16;
    }
    if board.white_to_move {
        score
    } else {
        -score
    }
}

fn side(board: &Board, white: bool) -> i32 {
    let (us, them) = if white {
        (board.white, board.black)
    } else {
        (board.black, board.white)
    };
    let men = us & !board.kings;
    let kings = us & board.kings;
    let their_kings = them & board.kings;
    let mut score = MAN * men.count_ones() as i32 + KING * kings.count_ones() as i32;
    let (cone, behind) = if white {
        (&WHITE_CONE, (2, 3))
    } else {
        (&BLACK_CONE, (0, 1))
    };
    let middlegame = (board.white | board.black).count_ones() > 16;
    let mut bits = men;
    while bits != 0 {
        let b = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let w = if white { b } else { mirror(b) };
        score += WHITE_MAN[w];
        let advanced = 9 - row(w as u8);
        if advanced == 0 && their_kings == 0 && middlegame {
            score += 4;
        }
        // An outpost: a man in the opponent's half, held from behind.
        if (5..=6).contains(&advanced) && (2..=7).contains(&file(w as u8)) {
            let held = [NEIGH[b][behind.0], NEIGH[b][behind.1]]
                .iter()
                .filter(|&&n| n != NONE && us & (1 << n) != 0)
                .count();
            score += [0, 4, 10][held];
        }
        // A breakthrough: nothing of the opponent's in its way and no king to come back for it.
        if their_kings == 0 && cone[b] & them == 0 {
            score += BREAKTHROUGH[9 - advanced as usize];
        }
    }
    let diagonal = long_diagonal();
    score += 10 * (kings & diagonal).count_ones() as i32;
    score
}
