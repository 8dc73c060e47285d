//! The fixed ground of the board: pond, foods and muds, and the squares a piece can reach in one move from each
//! square (steps, and the wasp's flights over the pond), as 128-bit boards (bit = square index).

use super::piece::Side;
use super::square::{Square, FILES, RANKS, SQUARES};

/// What kind of ground a square is. Fixed for the whole game; never written in a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "terrain", content = "side", rename_all = "snake_case")
)]
pub enum Terrain {
    /// Ordinary ground.
    Land,
    /// The 3x3 pond `c5`–`e7`: only the diving beetle enters it, nothing is captured in it.
    Pond,
    /// A side's food (`d1` south's, `d11` north's): its own pieces never stand on it; an enemy that steps on it
    /// wins.
    Food(Side),
    /// A side's mud (`c1`, `d2`, `e1` south's; `c11`, `d10`, `e11` north's).
    Mud(Side),
}

impl Terrain {
    /// The ground of a square.
    pub const fn of(square: Square) -> Terrain {
        let bit = square.bit();
        if POND & bit != 0 {
            Terrain::Pond
        } else if FOOD[0] & bit != 0 {
            Terrain::Food(Side::South)
        } else if FOOD[1] & bit != 0 {
            Terrain::Food(Side::North)
        } else if MUD[0] & bit != 0 {
            Terrain::Mud(Side::South)
        } else if MUD[1] & bit != 0 {
            Terrain::Mud(Side::North)
        } else {
            Terrain::Land
        }
    }
}

const fn bit(file: u8, rank: u8) -> u128 {
    1 << ((rank - 1) * FILES + file)
}

/// Every square of the board.
#[cfg(test)]
const BOARD: u128 = (1 << SQUARES) - 1;

/// The pond, `c5`–`e7`.
pub(crate) const POND: u128 = {
    let mut b = 0;
    let mut rank = 5;
    while rank <= 7 {
        b |= bit(2, rank) | bit(3, rank) | bit(4, rank);
        rank += 1;
    }
    b
};

/// Each side's food, by side index: `d1`, `d11`.
pub(crate) const FOOD: [u128; 2] = [bit(3, 1), bit(3, 11)];

/// Each side's mud, by side index: `c1 d2 e1`, `c11 d10 e11`.
pub(crate) const MUD: [u128; 2] = [
    bit(2, 1) | bit(3, 2) | bit(4, 1),
    bit(2, 11) | bit(3, 10) | bit(4, 11),
];

/// The orthogonal neighbours of each square.
pub(crate) const STEPS: [u128; SQUARES as usize] = {
    let mut table = [0u128; SQUARES as usize];
    let mut i = 0;
    while i < SQUARES as usize {
        let (file, rank) = ((i as u8) % FILES, (i as u8) / FILES);
        let mut b = 0u128;
        if file > 0 {
            b |= 1 << (i - 1);
        }
        if file + 1 < FILES {
            b |= 1 << (i + 1);
        }
        if rank > 0 {
            b |= 1 << (i - FILES as usize);
        }
        if rank + 1 < RANKS {
            b |= 1 << (i + FILES as usize);
        }
        table[i] = b;
        i += 1;
    }
    table
};

/// Where a wasp lands when it flies over the pond from each square (none from most squares): `c4`↔`c8`,
/// `d4`↔`d8`, `e4`↔`e8`, `b5`↔`f5`, `b6`↔`f6`, `b7`↔`f7`. Nothing blocks a flight: only a diving beetle can be
/// in the pond, and it does not.
pub(crate) const FLIGHTS: [u128; SQUARES as usize] = {
    let mut table = [0u128; SQUARES as usize];
    let mut file = 2;
    while file <= 4 {
        table[((4 - 1) * FILES + file) as usize] = bit(file, 8);
        table[((8 - 1) * FILES + file) as usize] = bit(file, 4);
        file += 1;
    }
    let mut rank = 5;
    while rank <= 7 {
        table[((rank - 1) * FILES + 1) as usize] = bit(5, rank);
        table[((rank - 1) * FILES + 5) as usize] = bit(1, rank);
        rank += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    #[test]
    fn the_ground_is_the_pages_map() {
        let count = |t: Terrain| Square::all().filter(|&s| Terrain::of(s) == t).count();
        assert_eq!(count(Terrain::Pond), 9);
        assert_eq!(count(Terrain::Land), 77 - 9 - 2 - 6);
        assert_eq!(Terrain::of(sq("c5")), Terrain::Pond);
        assert_eq!(Terrain::of(sq("e7")), Terrain::Pond);
        assert_eq!(Terrain::of(sq("d1")), Terrain::Food(Side::South));
        assert_eq!(Terrain::of(sq("d11")), Terrain::Food(Side::North));
        for s in ["c1", "d2", "e1"] {
            assert_eq!(Terrain::of(sq(s)), Terrain::Mud(Side::South), "{s}");
        }
        for s in ["c11", "d10", "e11"] {
            assert_eq!(Terrain::of(sq(s)), Terrain::Mud(Side::North), "{s}");
        }
    }

    #[test]
    fn the_ground_is_the_same_turned_half_a_circle_with_sides_exchanged() {
        for s in Square::all() {
            let turned = match Terrain::of(s) {
                Terrain::Food(side) => Terrain::Food(side.opposite()),
                Terrain::Mud(side) => Terrain::Mud(side.opposite()),
                t => t,
            };
            assert_eq!(Terrain::of(s.rotated()), turned, "{s}");
        }
    }

    #[test]
    fn flights_are_the_pages_six_pairs_both_ways() {
        let pairs = [
            ("c4", "c8"),
            ("d4", "d8"),
            ("e4", "e8"),
            ("b5", "f5"),
            ("b6", "f6"),
            ("b7", "f7"),
        ];
        let mut count = 0;
        for s in Square::all() {
            count += FLIGHTS[s.index() as usize].count_ones();
        }
        assert_eq!(count, 12);
        for (a, b) in pairs {
            assert_eq!(FLIGHTS[sq(a).index() as usize], sq(b).bit(), "{a}");
            assert_eq!(FLIGHTS[sq(b).index() as usize], sq(a).bit(), "{b}");
        }
    }

    #[test]
    fn steps_are_orthogonal_and_stay_on_the_board() {
        assert_eq!(
            STEPS[sq("a1").index() as usize],
            sq("b1").bit() | sq("a2").bit()
        );
        assert_eq!(
            STEPS[sq("g6").index() as usize],
            sq("f6").bit() | sq("g5").bit() | sq("g7").bit()
        );
        assert_eq!(STEPS[sq("g11").index() as usize].count_ones(), 2);
        for s in Square::all() {
            assert_eq!(STEPS[s.index() as usize] & !BOARD, 0);
        }
    }
}
