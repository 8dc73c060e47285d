//! The clock as the engine sees it, and how much of it one move may use.

use std::time::Duration;

/// The time the engine has for the game, read from the room's clock before each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeBudget {
    /// No clock: only the level's own per-move cap applies.
    Unlimited,
    /// A fixed time for this move (Gomocup's `timeout_turn`, or a correspondence-free bot).
    PerMove(Duration),
    /// Fischer: the main time left and the increment added after each move.
    Fischer {
        /// Time left on the clock now.
        remaining: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// Byo-yomi: main time, then periods of fixed length; a move made within a period keeps it.
    ByoYomi {
        /// Main time left (zero once in the periods).
        remaining: Duration,
        /// Length of one period.
        period: Duration,
        /// Periods left.
        periods: u32,
    },
}

/// Kept back from every allotment for the engine's own overhead and the message's way to the room.
pub const SAFETY: Duration = Duration::from_millis(40);

impl TimeBudget {
    /// How long this move may take: a share of the clock that can never run it out, capped by `cap`.
    pub fn allot(&self, cap: Duration) -> Duration {
        let share = match *self {
            TimeBudget::Unlimited => cap,
            TimeBudget::PerMove(t) => t.saturating_sub(SAFETY),
            TimeBudget::Fischer {
                remaining,
                increment,
            } => {
                // A thirtieth of the bank plus most of the increment, never more than a third of the bank.
                let wish = remaining / 30 + increment * 4 / 5;
                wish.min(remaining / 3).saturating_sub(SAFETY)
            }
            TimeBudget::ByoYomi {
                remaining,
                period,
                periods,
            } => {
                let in_period = if periods > 0 {
                    (period * 3 / 4).saturating_sub(SAFETY)
                } else {
                    Duration::ZERO
                };
                let from_main = (remaining / 30).min(remaining / 3);
                (from_main + in_period).saturating_sub(if periods > 0 {
                    Duration::ZERO
                } else {
                    SAFETY
                })
            }
        };
        share.min(cap).max(Duration::from_millis(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn an_allotment_never_empties_the_clock() {
        let f = TimeBudget::Fischer {
            remaining: MS(300),
            increment: MS(0),
        };
        assert!(f.allot(MS(10_000)) < MS(300));
        let b = TimeBudget::ByoYomi {
            remaining: MS(0),
            period: MS(1_000),
            periods: 1,
        };
        assert!(b.allot(MS(10_000)) < MS(1_000));
        assert_eq!(TimeBudget::Unlimited.allot(MS(500)), MS(500));
        assert_eq!(TimeBudget::PerMove(MS(1_000)).allot(MS(500)), MS(500));
    }

    #[test]
    fn fischer_uses_the_increment() {
        let f = TimeBudget::Fischer {
            remaining: MS(60_000),
            increment: MS(2_000),
        };
        let t = f.allot(MS(100_000));
        assert!(t > MS(3_000) && t < MS(20_000), "{t:?}");
    }
}
