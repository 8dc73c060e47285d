//! The eight levels: how deep, how long, from how many empty squares the game is solved exactly, and how much
//! noise blurs the choice.

use std::fmt;
use std::time::Duration;

/// A playing level, 1 (weakest) to 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// What a level may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The deepest midgame iteration, in plies.
    pub depth: u32,
    /// With this many empty squares or fewer the position is solved exactly (when the time allows).
    pub solve: u32,
    /// A uniform random number in ±`noise` (hundredths of a disc) is added to each root move's score before
    /// the best is taken; every root move then gets an exact score.
    pub noise: i32,
    /// The most time a move may take, whatever the caller allows.
    pub time: Duration,
    /// The midgame transposition table has `2^table_bits` entries, the endgame one twice as many.
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

    /// The level's limits (the table in `docs/engine.md`, "Othello").
    pub const fn settings(self) -> Settings {
        let ms = Duration::from_millis;
        let (depth, solve, noise, time, table_bits) = match self.0 {
            1 => (1, 4, 800, ms(100), 12),
            2 => (2, 6, 400, ms(200), 12),
            3 => (3, 8, 200, ms(300), 14),
            4 => (4, 10, 100, ms(500), 16),
            5 => (6, 12, 40, ms(1_000), 17),
            6 => (8, 14, 0, ms(2_000), 18),
            7 => (10, 18, 0, ms(4_000), 19),
            _ => (60, 22, 0, ms(8_000), 19),
        };
        Settings {
            depth,
            solve,
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
