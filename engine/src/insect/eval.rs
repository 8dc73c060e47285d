//! The static evaluation: material by kind (with the strength cycle in mind), how close each piece is to the
//! enemy's food, the guard around one's own food, pieces stranded in the enemy's mud, and mobility.
//!
//! Scores are in hundredths of a "tiger beetle"-ish unit, from the side to move's point of view.

use std::sync::OnceLock;

use rules::insect::Kind;

use super::board::{tables, Board, BEETLE, NONE, SQUARES, WASP};

/// Value of each kind (by index, strongest first). The centipede is worth almost as much as the scorpion: only
/// the scorpion beats it, while the scorpion falls to the diving beetle. The wasp's flight over the pond makes it
/// worth a little more than the tiger beetle that beats it; the diving beetle is the scorpion's only predator and
/// is safe in the pond.
pub(crate) const VALUE: [i32; 6] = [1000, 800, 550, 380, 420, 450];

/// Bonus for a piece that no remaining enemy kind can beat on ordinary ground (the scorpion once the enemy's
/// diving beetle and scorpion are gone, the centipede once the scorpion and centipede are): it walks where it
/// likes.
const UNTOUCHABLE: i32 = 220;

/// Bonus by distance (in moves) to the enemy's food. A piece one move away stands in the enemy's mud.
const ADVANCE: [i32; 16] = [0, 200, 120, 75, 48, 32, 22, 15, 10, 6, 4, 2, 1, 0, 0, 0];

/// Bonus for each of one's own mud squares that a piece of one's own stands next to (the mud is where every
/// attack on the food must pass, and an enemy there has no strength).
const GUARD: i32 = 28;

/// Penalty, as a fraction (1/n) of its value, for a piece in the enemy's mud that an enemy can reach: it has no
/// strength there and will be taken.
const STRANDED_DIVISOR: i32 = 2;

/// Penalty for each enemy piece two moves from one's own food (next to one's mud), and more when no piece of
/// one's own guards the mud squares it could step into: one more move and it stands next to the food.
const FOOD_THREAT: i32 = 30;
const FOOD_THREAT_UNGUARDED: i32 = 70;

/// Weight of one legal move.
const MOBILITY: i32 = 3;

/// Small bonus for the side to move.
const TEMPO: i32 = 8;

/// What the evaluation looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// Material and distance to the enemy's food only.
    Simple,
    /// Everything: material with the strength cycle, distance, guards, stranded pieces, mobility.
    Full,
}

/// Distances to each side's target food: `[side][movement][square]`, movement 0 walker, 1 wasp, 2 diving beetle.
struct Distances([[[u8; SQUARES]; 3]; 2]);

fn distances() -> &'static Distances {
    static D: OnceLock<Distances> = OnceLock::new();
    D.get_or_init(|| {
        let t = tables();
        let mut d = [[[u8::MAX; SQUARES]; 3]; 2];
        for (side, by_movement) in d.iter_mut().enumerate() {
            let target = t.food[side ^ 1].trailing_zeros() as usize;
            for (movement, dist) in by_movement.iter_mut().enumerate() {
                // Backwards breadth-first search from the enemy's food; moves are symmetric on this board.
                let mut blocked = t.food[side];
                if movement != 2 {
                    blocked |= t.pond;
                }
                dist[target] = 0;
                let mut frontier = 1u128 << target;
                let mut seen = frontier;
                let mut step = 0u8;
                while frontier != 0 {
                    step += 1;
                    let mut next = 0u128;
                    let mut f = frontier;
                    while f != 0 {
                        let s = f.trailing_zeros() as usize;
                        f &= f - 1;
                        let mut reach = t.steps[s];
                        if movement == 1 {
                            reach |= t.flights[s];
                        }
                        next |= reach & !blocked & !seen;
                    }
                    seen |= next;
                    let mut n = next;
                    while n != 0 {
                        let s = n.trailing_zeros() as usize;
                        n &= n - 1;
                        dist[s] = step;
                    }
                    frontier = next;
                }
            }
        }
        Distances(d)
    })
}

/// How many moves the piece of `side` of kind `kind` on `square` needs to reach the enemy's food (ignoring
/// other pieces).
pub(crate) fn food_distance(side: usize, kind: usize, square: u8) -> u8 {
    let movement = match kind {
        WASP => 1,
        BEETLE => 2,
        _ => 0,
    };
    distances().0[side][movement][square as usize]
}

/// The evaluation of a board for the side to move.
pub(crate) fn evaluate(b: &Board, how: Evaluation) -> i32 {
    let white = side_score(b, 0, how) - side_score(b, 1, how);
    let score = if b.us == 0 { white } else { -white };
    score + TEMPO
}

fn side_score(b: &Board, side: usize, how: Evaluation) -> i32 {
    let t = tables();
    let them = side ^ 1;
    let mut score = 0;
    let enemy_kinds = Kind::ALL
        .iter()
        .zip(b.sq[them].iter())
        .filter(|(_, &s)| s != NONE)
        .map(|(&k, _)| k);
    let enemy_reach = if how == Evaluation::Full {
        b.reach(them).0
    } else {
        0
    };
    for (kind, &square) in b.sq[side].iter().enumerate() {
        if square == NONE {
            continue;
        }
        score += VALUE[kind];
        let d = food_distance(side, kind, square) as usize;
        score += ADVANCE[d.min(ADVANCE.len() - 1)];
        if how == Evaluation::Simple {
            continue;
        }
        if !enemy_kinds.clone().any(|e| e.beats(Kind::ALL[kind])) {
            score += UNTOUCHABLE;
        }
        let bit = 1u128 << square;
        if bit & t.mud[them] != 0 && bit & enemy_reach != 0 {
            score -= VALUE[kind] / STRANDED_DIVISOR + ADVANCE[1];
        }
    }
    if how == Evaluation::Full {
        let own = b.occ[side];
        let mut mud = t.mud[side];
        while mud != 0 {
            let s = mud.trailing_zeros() as usize;
            mud &= mud - 1;
            if t.steps[s] & own != 0 {
                score += GUARD;
            }
        }
        // Enemy pieces two moves from our food (the distance table of the enemy's kind, toward our food).
        let guarded = {
            let mut g = 0u128;
            let mut mud = t.mud[side];
            while mud != 0 {
                let s = mud.trailing_zeros() as usize;
                mud &= mud - 1;
                if t.steps[s] & own != 0 {
                    g |= 1u128 << s;
                }
            }
            g
        };
        for (kind, &square) in b.sq[them].iter().enumerate() {
            if square != NONE && food_distance(them, kind, square) == 2 {
                score -= FOOD_THREAT;
                let entries = t.steps[square as usize] & t.mud[side];
                if entries & !guarded != 0 {
                    score -= FOOD_THREAT_UNGUARDED;
                }
            }
        }
        let (_, moves) = b.reach(side);
        score += MOBILITY * moves as i32;
    }
    score
}
