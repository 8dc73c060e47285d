//! The eight levels: how deep, how long, and how much noise blurs the choice at the low ones.

use std::fmt;
use std::time::Duration;

/// A playing level, 1 (weakest) to 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// What a level may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The deepest iteration, in plies (captures are searched beyond it to the end of every exchange).
    pub depth: u32,
    /// A uniform random number in ±`noise` (hundredths of a man) is added to each root move's score before the
    /// best is taken; every root move then gets an exact score. Below half a man, so that no level gives a man
    /// away for nothing that its search sees.
    pub noise: i32,
    /// The most time a move may take, whatever the caller allows.
    pub time: Duration,
    /// The transposition table has `2^table_bits` entries.
    pub table_bits: u32,
}

impl Level {
    /// The weakest.
    pub const MIN: Level = Level(1);
    /// The strongest.
    pub const MAX: Level = Level(8);

    /// Level `n`, 1 to 8.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 8 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The number, 1 to 8.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// All eight, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=8).map(Level)
    }

    /// The level's limits (the table in `docs/engine.md`, "Draughts").
    pub const fn settings(self) -> Settings {
        let ms = Duration::from_millis;
        let (depth, noise, time, table_bits) = match self.0 {
            1 => (1, 45, ms(100), 12),
            2 => (2, 35, ms(200), 12),
            3 => (3, 25, ms(300), 14),
            4 => (4, 15, ms(500), 16),
            5 => (6, 0, ms(1_000), 17),
            6 => (8, 0, ms(2_000), 18),
            7 => (12, 0, ms(4_000), 19),
            _ => (64, 0, ms(8_000), 20),
        };
        Settings {
            depth,
            noise,
            time,
            table_bits,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}", self.0)
    }
}
