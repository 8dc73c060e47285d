//! Score systems: what a win, a draw and a loss are worth in an event.

use std::fmt;

/// The result of one game for one player.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player won.
    Win,
    /// The game was drawn.
    Draw,
    /// The player lost.
    Loss,
}

impl Outcome {
    /// The same game seen by the opponent.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// Points per result, in units of `1 / denominator` so that every system is exact integer arithmetic.
///
/// The chess system (1, ½, 0) is `{ win: 2, draw: 1, loss: 0, denominator: 2 }`; the draughts source's
/// ladder scores +2, 0, −2.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScoreSystem {
    /// Units for a win.
    pub win: i32,
    /// Units for a draw.
    pub draw: i32,
    /// Units for a loss.
    pub loss: i32,
    /// Units in one displayed point (1 or 2).
    pub denominator: i32,
}

impl ScoreSystem {
    /// 1 for a win, ½ for a draw, 0 for a loss (FIDE; Swiss and round-robin events).
    pub const CHESS: ScoreSystem = ScoreSystem {
        win: 2,
        draw: 1,
        loss: 0,
        denominator: 2,
    };
    /// 2 for a win, 1 for a draw, 0 for a loss (arenas, many draughts and Othello clubs).
    pub const TWO_ONE_ZERO: ScoreSystem = ScoreSystem {
        win: 2,
        draw: 1,
        loss: 0,
        denominator: 1,
    };
    /// +2 for a win, 0 for a draw, −2 for a loss (the draughts source's cumulative ladder).
    pub const PLUS_TWO_MINUS_TWO: ScoreSystem = ScoreSystem {
        win: 2,
        draw: 0,
        loss: -2,
        denominator: 1,
    };

    /// The units one result is worth.
    pub fn units(&self, outcome: Outcome) -> i32 {
        match outcome {
            Outcome::Win => self.win,
            Outcome::Draw => self.draw,
            Outcome::Loss => self.loss,
        }
    }

    /// The total units of a list of results.
    pub fn total(&self, outcomes: impl IntoIterator<Item = Outcome>) -> i32 {
        outcomes.into_iter().map(|o| self.units(o)).sum()
    }

    /// A score in units as a displayable value.
    pub fn display(&self, units: i32) -> Score {
        Score {
            units,
            denominator: self.denominator,
        }
    }
}

/// A score with its denominator, displayed as `3½`, `-4` or `0`.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// The score in units.
    pub units: i32,
    /// Units per point.
    pub denominator: i32,
}

impl Score {
    /// The score as a decimal number (exact for denominators 1 and 2).
    pub fn as_f64(&self) -> f64 {
        f64::from(self.units) / f64::from(self.denominator)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.units / self.denominator;
        let rest = self.units % self.denominator;
        if rest == 0 {
            return write!(f, "{whole}");
        }
        // Only halves remain (denominator 2).
        match (whole, self.units < 0) {
            (0, true) => write!(f, "-½"),
            (0, false) => write!(f, "½"),
            (w, _) => write!(f, "{w}½"),
        }
    }
}
