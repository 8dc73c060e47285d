//! Playing levels 1–8: each a fixed mix of search depth, node budget, per-move time cap, threat-search depth,
//! score noise and deliberate blunders (see `docs/engine.md`).

use std::time::Duration;

/// What one level may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level, 1 (beginner) to 8 (full strength).
    pub level: u8,
    /// Deepest main-search iteration, in plies.
    pub depth: i32,
    /// Node budget per move (main and threat search together).
    pub nodes: u64,
    /// Longest time a move may take, whatever the clock allows.
    pub time_cap: Duration,
    /// Moves tried at an inner node of the main search.
    pub width: usize,
    /// Fours in a row the VCF search follows (0: no VCF).
    pub vcf_depth: u32,
    /// Threats (threes and fours) the VCT search follows (0: no VCT).
    pub vct_depth: u32,
    /// Each root move's score gets uniform noise in `-noise..=noise` before the best is picked.
    pub noise: i32,
    /// Per mille chance, each move, of overlooking the opponent's threats (a four to block, a three to answer).
    pub blunder_per_mille: u32,
}

impl Level {
    /// The settings of a level; values outside 1–8 are clamped into it.
    pub fn new(level: u8) -> Level {
        let level = level.clamp(1, 8);
        let ms = Duration::from_millis;
        let (depth, nodes, cap, width, vcf, vct, noise, blunder) = match level {
            1 => (1, 2_000, ms(100), 12, 0, 0, 400, 250),
            2 => (2, 6_000, ms(200), 12, 0, 0, 200, 100),
            3 => (2, 20_000, ms(300), 14, 4, 0, 80, 30),
            4 => (3, 60_000, ms(500), 16, 8, 0, 40, 0),
            5 => (4, 200_000, ms(1_000), 18, 12, 2, 20, 0),
            6 => (6, 600_000, ms(2_000), 20, 16, 3, 8, 0),
            7 => (10, 2_000_000, ms(4_000), 21, 18, 3, 8, 0),
            _ => (32, u64::MAX, ms(8_000), 22, 20, 3, 8, 0),
        };
        Level {
            level,
            depth,
            nodes,
            time_cap: cap,
            width,
            vcf_depth: vcf,
            vct_depth: vct,
            noise,
            blunder_per_mille: blunder,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_may_search_at_least_as_much_as_the_one_below() {
        for k in 2..=8 {
            let (lo, hi) = (Level::new(k - 1), Level::new(k));
            assert!(hi.depth >= lo.depth && hi.nodes > lo.nodes && hi.time_cap >= lo.time_cap);
            assert!(hi.vcf_depth >= lo.vcf_depth && hi.noise <= lo.noise);
            assert!(hi.blunder_per_mille <= lo.blunder_per_mille);
        }
        assert_eq!(Level::new(0).level, 1);
        assert_eq!(Level::new(200).level, 8);
    }
}
