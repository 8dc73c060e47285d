//! Sides, kinds of insect, and who beats whom.

use std::fmt;

/// A side: south sits at ranks 1–2 and moves first, north at ranks 10–11.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum Side {
    /// Moves first; upper-case letters in a placement.
    South,
    /// Moves second; lower-case letters.
    North,
}

impl Side {
    /// Both sides, south first.
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The other side.
    pub const fn opposite(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// Stable lower-case name (`south`, `north`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }

    /// The letter of a placement's side to move (`s`, `n`).
    pub const fn letter(self) -> char {
        match self {
            Side::South => 's',
            Side::North => 'n',
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A kind of insect, strongest first (the order of the rules page's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum Kind {
    /// 蝎子, `S`: beats the centipede, wolf spider, tiger beetle and wasp, not the diving beetle.
    Scorpion,
    /// 蜈蚣, `C`: beats the wolf spider, tiger beetle, wasp and diving beetle.
    Centipede,
    /// 狼蛛, `L`: beats the tiger beetle, wasp and diving beetle.
    WolfSpider,
    /// 虎甲, `T`: beats the wasp and diving beetle.
    TigerBeetle,
    /// 黄蜂, `W`: beats the diving beetle; flies over the pond.
    Wasp,
    /// 龙虱, `D`: beats the scorpion; the only insect that enters the pond.
    DivingBeetle,
}

/// For each kind (by index), the kinds it beats as a bit set over kind indices; each beats its own kind too (the
/// one that moves onto the other captures it).
const BEATS: [u8; 6] = [
    0b01_1111, // scorpion: S C L T W
    0b11_1110, // centipede: C L T W D
    0b11_1100, // wolf spider: L T W D
    0b11_1000, // tiger beetle: T W D
    0b11_0000, // wasp: W D
    0b10_0001, // diving beetle: D S
];

impl Kind {
    /// The six kinds, strongest first.
    pub const ALL: [Kind; 6] = [
        Kind::Scorpion,
        Kind::Centipede,
        Kind::WolfSpider,
        Kind::TigerBeetle,
        Kind::Wasp,
        Kind::DivingBeetle,
    ];

    /// The upper-case letter (`S`, `C`, `L`, `T`, `W`, `D`); south writes it so, north in lower case.
    pub const fn letter(self) -> char {
        match self {
            Kind::Scorpion => 'S',
            Kind::Centipede => 'C',
            Kind::WolfSpider => 'L',
            Kind::TigerBeetle => 'T',
            Kind::Wasp => 'W',
            Kind::DivingBeetle => 'D',
        }
    }

    /// The kind of an upper-case letter.
    pub const fn from_letter(letter: char) -> Option<Kind> {
        Some(match letter {
            'S' => Kind::Scorpion,
            'C' => Kind::Centipede,
            'L' => Kind::WolfSpider,
            'T' => Kind::TigerBeetle,
            'W' => Kind::Wasp,
            'D' => Kind::DivingBeetle,
            _ => return None,
        })
    }

    /// Stable snake_case name (`scorpion`, …, `diving_beetle`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Scorpion => "scorpion",
            Kind::Centipede => "centipede",
            Kind::WolfSpider => "wolf_spider",
            Kind::TigerBeetle => "tiger_beetle",
            Kind::Wasp => "wasp",
            Kind::DivingBeetle => "diving_beetle",
        }
    }

    /// Whether this kind, moving onto a piece of `other` kind on ordinary ground, captures it (the order of
    /// strength; a kind beats its own kind).
    pub const fn beats(self, other: Kind) -> bool {
        BEATS[self as usize] & (1 << other as usize) != 0
    }

    /// The kinds it beats, as a bit set over kind indices.
    pub(crate) const fn beaten(self) -> u8 {
        BEATS[self as usize]
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A piece: its side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    /// Whose.
    pub side: Side,
    /// Which insect.
    pub kind: Kind,
}

impl Piece {
    /// The piece's placement letter: upper case for south, lower case for north.
    pub const fn letter(self) -> char {
        let upper = self.kind.letter();
        match self.side {
            Side::South => upper,
            Side::North => upper.to_ascii_lowercase(),
        }
    }

    /// The piece of a placement letter.
    pub const fn from_letter(letter: char) -> Option<Piece> {
        let side = if letter.is_ascii_uppercase() {
            Side::South
        } else {
            Side::North
        };
        match Kind::from_letter(letter.to_ascii_uppercase()) {
            Some(kind) => Some(Piece { side, kind }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    /// The placement letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
