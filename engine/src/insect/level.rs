//! Playing levels 1–4 of the insect chess computer: each a fixed mix of search depth, node budget, evaluation,
//! capture search and score noise (see `docs/engine.md`). Even level 1 takes a free food and stops an enemy one
//! step from its own food: every level looks at least two plies ahead and the root checks both before searching.

use super::eval::Evaluation;

/// What one level may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level, 1 (beginner) to [`Level::MAX`] (full strength).
    pub level: u8,
    /// Deepest iteration of the main search, in plies.
    pub depth: i32,
    /// Node budget per move (main and capture search together); the time budget may stop it sooner.
    pub nodes: u64,
    /// Which evaluation it uses.
    pub evaluation: Evaluation,
    /// Whether leaves are settled by a capture search (otherwise a leaf is scored as it stands).
    pub quiescence: bool,
    /// Each root move's score (unless a win or loss) gets uniform noise in `-noise..=noise` before the best is
    /// picked, so lower levels vary and misjudge.
    pub noise: i32,
}

impl Level {
    /// The strongest level.
    pub const MAX: u8 = 4;

    /// The settings of a level; values outside 1–[`Level::MAX`] are clamped into it.
    pub fn new(level: u8) -> Level {
        let level = level.clamp(1, Level::MAX);
        let (depth, nodes, evaluation, quiescence, noise) = match level {
            1 => (2, 2_000, Evaluation::Simple, false, 60),
            2 => (3, 10_000, Evaluation::Full, true, 30),
            3 => (5, 40_000, Evaluation::Full, true, 10),
            _ => (64, 80_000, Evaluation::Full, true, 0),
        };
        Level {
            level,
            depth,
            nodes,
            evaluation,
            quiescence,
            noise,
        }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=Level::MAX).map(Level::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_may_search_at_least_as_much_as_the_one_below() {
        for k in 2..=Level::MAX {
            let (lo, hi) = (Level::new(k - 1), Level::new(k));
            assert!(hi.depth >= lo.depth && hi.nodes > lo.nodes && hi.noise <= lo.noise);
        }
        assert!(Level::all().all(|l| l.depth >= 2));
        assert_eq!(Level::new(0).level, 1);
        assert_eq!(Level::new(200).level, Level::MAX);
    }
}
