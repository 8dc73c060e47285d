//! The 26 canonical renju openings (直指 13 "direct", 斜指 13 "indirect"): black's first stone on the centre,
//! white's touching it orthogonally (direct, `1D`–`13D`) or diagonally (indirect, `1I`–`13I`), black's second
//! stone anywhere else in the central 5x5 square. Up to the eight symmetries of the board every such position is
//! exactly one of the 26.
//!
//! The numbering, the names and the third stone of each are the Renju International Federation's list as
//! published on renju.net and in Wikipedia's "Renju opening pattern" (`https://en.wikipedia.org/wiki/Renju_opening_pattern`,
//! 1I 長星 Chosei … 13I 彗星 Suisei, 1D 寒星 Kansei … 13D 遊星 Yusei). The third stones were checked against
//! two independent public opening tables that agree up to reflection (an MCTS renju evaluation listing "Direct
//! openings (first two moves are 7 7 and 6 7)", and the freq35 `DTBL`/`ITBL` tables). Note that Kagetsu is 4D and
//! Hogetsu 7I in that numbering.

use crate::Point;

/// Whether white's first stone touches black's orthogonally or diagonally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningFamily {
    /// 直指 (Japanese 直接): white's stone directly beside black's.
    Direct,
    /// 斜指 (Japanese 間接): white's stone diagonally beside black's.
    Indirect,
}

/// One of the 26 canonical openings, with its traditional names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CanonicalOpening {
    /// `1D` … `13D`, `1I` … `13I`: the stable code.
    pub code: &'static str,
    /// Direct or indirect.
    pub family: OpeningFamily,
    /// 1 to 13 within its family.
    pub number: u8,
    /// The Japanese name in kanji (寒星).
    pub japanese: &'static str,
    /// The Japanese name in romaji (Kansei).
    pub romaji: &'static str,
    /// The Chinese name (寒星).
    pub chinese: &'static str,
    /// An English rendering (Cold star).
    pub english: &'static str,
    /// Black's second stone as an offset `(dx, dy)` from the centre (y grows upwards), with white's stone at
    /// `(0, 1)` (direct) or `(1, 1)` (indirect).
    third: (i8, i8),
}

const fn d(
    number: u8,
    code: &'static str,
    japanese: &'static str,
    romaji: &'static str,
    chinese: &'static str,
    english: &'static str,
    third: (i8, i8),
) -> CanonicalOpening {
    CanonicalOpening {
        code,
        family: OpeningFamily::Direct,
        number,
        japanese,
        romaji,
        chinese,
        english,
        third,
    }
}

const fn i(
    number: u8,
    code: &'static str,
    japanese: &'static str,
    romaji: &'static str,
    chinese: &'static str,
    english: &'static str,
    third: (i8, i8),
) -> CanonicalOpening {
    CanonicalOpening {
        family: OpeningFamily::Indirect,
        ..d(number, code, japanese, romaji, chinese, english, third)
    }
}

/// The 26, direct first, each family in its official order.
pub const CANONICAL_OPENINGS: [CanonicalOpening; 26] = [
    d(1, "1D", "寒星", "Kansei", "寒星", "Cold star", (0, 2)),
    d(2, "2D", "渓月", "Keigetsu", "溪月", "Valley moon", (-1, 2)),
    d(3, "3D", "疎星", "Sosei", "疏星", "Sparse star", (-2, 2)),
    d(4, "4D", "花月", "Kagetsu", "花月", "Flower moon", (-1, 1)),
    d(5, "5D", "残月", "Zangetsu", "残月", "Waning moon", (-2, 1)),
    d(6, "6D", "雨月", "Ugetsu", "雨月", "Rain moon", (-1, 0)),
    d(7, "7D", "金星", "Kinsei", "金星", "Venus", (-2, 0)),
    d(8, "8D", "松月", "Shogetsu", "松月", "Pine moon", (0, -1)),
    d(9, "9D", "丘月", "Kyugetsu", "丘月", "Hill moon", (-1, -1)),
    d(10, "10D", "新月", "Shingetsu", "新月", "New moon", (-2, -1)),
    d(11, "11D", "瑞星", "Zuisei", "瑞星", "Lucky star", (0, -2)),
    d(
        12,
        "12D",
        "山月",
        "Sangetsu",
        "山月",
        "Mountain moon",
        (-1, -2),
    ),
    d(13, "13D", "遊星", "Yusei", "游星", "Planet", (-2, -2)),
    i(1, "1I", "長星", "Chosei", "长星", "Long star", (2, 2)),
    i(2, "2I", "峡月", "Kyogetsu", "峡月", "Gorge moon", (1, 2)),
    i(3, "3I", "恒星", "Kosei", "恒星", "Fixed star", (0, 2)),
    i(4, "4I", "水月", "Suigetsu", "水月", "Water moon", (-1, 2)),
    i(5, "5I", "流星", "Ryusei", "流星", "Meteor", (-2, 2)),
    i(6, "6I", "雲月", "Ungetsu", "云月", "Cloud moon", (0, 1)),
    i(7, "7I", "浦月", "Hogetsu", "浦月", "Bay moon", (-1, 1)),
    i(8, "8I", "嵐月", "Rangetsu", "岚月", "Storm moon", (-2, 1)),
    i(9, "9I", "銀月", "Gingetsu", "银月", "Silver moon", (-1, 0)),
    i(10, "10I", "明星", "Myojo", "明星", "Morning star", (-2, 0)),
    i(
        11,
        "11I",
        "斜月",
        "Shagetsu",
        "斜月",
        "Slanting moon",
        (-1, -1),
    ),
    i(
        12,
        "12I",
        "名月",
        "Meigetsu",
        "名月",
        "Harvest moon",
        (-2, -1),
    ),
    i(13, "13I", "彗星", "Suisei", "彗星", "Comet", (-2, -2)),
];

/// A rotation or reflection on integer offsets.
type LinearMap = fn(i32, i32) -> (i32, i32);

/// The eight rotations and reflections of the plane about the origin.
const LINEAR: [LinearMap; 8] = [
    |x, y| (x, y),
    |x, y| (-y, x),
    |x, y| (-x, -y),
    |x, y| (y, -x),
    |x, y| (-x, y),
    |x, y| (x, -y),
    |x, y| (y, x),
    |x, y| (-y, -x),
];

impl CanonicalOpening {
    /// The opening's three stones in its standard orientation on a board of side `size`: black on the centre,
    /// white above it (direct) or above and to the right (indirect), then black's second stone.
    pub fn stones(&self, size: u8) -> [Point; 3] {
        let c = Point::centre(size);
        let at = |(dx, dy): (i32, i32)| {
            c.offset(dx, dy, size)
                .expect("the central 5x5 is on the board")
        };
        let white = match self.family {
            OpeningFamily::Direct => (0, 1),
            OpeningFamily::Indirect => (1, 1),
        };
        [
            c,
            at(white),
            at((i32::from(self.third.0), i32::from(self.third.1))),
        ]
    }

    /// The opening with this code (`2D`, `7I`).
    pub fn by_code(code: &str) -> Option<&'static CanonicalOpening> {
        CANONICAL_OPENINGS.iter().find(|o| o.code == code)
    }
}

/// Whether `p` lies in the central square of odd side `side` (3 for 3x3, 5 for 5x5…) of a board of side `size`.
pub fn in_central_square(p: Point, side: u8, size: u8) -> bool {
    let c = Point::centre(size);
    let r = i32::from(side / 2);
    (i32::from(p.x()) - i32::from(c.x())).abs() <= r
        && (i32::from(p.y()) - i32::from(c.y())).abs() <= r
}

/// The canonical opening the first three stones make (black, white, black, in the order played), up to the
/// board's eight symmetries; `None` when they are not one of the 26 (black's first stone off the centre, white's
/// not touching it, black's second outside the central 5x5, or fewer than three stones).
pub fn name_opening(stones: &[Point], size: u8) -> Option<&'static CanonicalOpening> {
    let [b1, w2, b3] = stones.get(..3)?.try_into().ok()?;
    let c = Point::centre(size);
    if b1 != c {
        return None;
    }
    let off = |p: Point| {
        (
            i32::from(p.x()) - i32::from(c.x()),
            i32::from(p.y()) - i32::from(c.y()),
        )
    };
    let (w, b) = (off(w2), off(b3));
    if w == (0, 0) || w.0.abs() > 1 || w.1.abs() > 1 {
        return None;
    }
    if b.0.abs() > 2 || b.1.abs() > 2 || b == (0, 0) || b == w {
        return None;
    }
    LINEAR.iter().find_map(|t| {
        let family = match t(w.0, w.1) {
            (0, 1) => OpeningFamily::Direct,
            (1, 1) => OpeningFamily::Indirect,
            _ => return None,
        };
        let third = t(b.0, b.1);
        CANONICAL_OPENINGS
            .iter()
            .find(|o| o.family == family && (i32::from(o.third.0), i32::from(o.third.1)) == third)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_thirteen_of_each_family_with_distinct_codes() {
        for family in [OpeningFamily::Direct, OpeningFamily::Indirect] {
            let n = CANONICAL_OPENINGS
                .iter()
                .filter(|o| o.family == family)
                .count();
            assert_eq!(n, 13);
        }
        let mut codes: Vec<&str> = CANONICAL_OPENINGS.iter().map(|o| o.code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), 26);
    }

    #[test]
    fn each_opening_names_itself_in_its_standard_orientation() {
        for o in &CANONICAL_OPENINGS {
            assert_eq!(name_opening(&o.stones(15), 15), Some(o), "{}", o.code);
        }
        assert_eq!(CanonicalOpening::by_code("4D").unwrap().romaji, "Kagetsu");
        assert_eq!(CanonicalOpening::by_code("7I").unwrap().romaji, "Hogetsu");
    }
}
