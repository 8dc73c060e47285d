//! Glicko-2 ratings, rating pools and rank tiers.
//!
//! Pure: no I/O, no clocks. The store reads ratings, calls [`glicko2::update`] for each player of a finished game
//! and writes the results with the [`Tier`] they earn, all in one transaction.

#![warn(missing_docs)]

pub mod glicko2;
pub mod tier;

use std::fmt;
use std::str::FromStr;

use rules::RuleSet;

pub use tier::{Tier, PROVISIONAL_DEVIATION, TIERS};

/// A rating pool: one rating per player per pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pool {
    /// Freestyle games.
    Freestyle,
    /// Standard games.
    Standard,
    /// Renju games, every opening rule and forbidden policy together.
    Renju,
}

impl Pool {
    /// Every pool, in display order.
    pub const ALL: [Pool; 3] = [Pool::Freestyle, Pool::Standard, Pool::Renju];

    /// The pool a game under this rule set is rated in. Opening rules and forbidden policies do not split pools.
    pub const fn of(rule_set: RuleSet) -> Pool {
        match rule_set {
            RuleSet::Freestyle => Pool::Freestyle,
            RuleSet::Standard => Pool::Standard,
            RuleSet::Renju => Pool::Renju,
        }
    }

    /// Stable lower-case name, as stored and on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Pool::Freestyle => "freestyle",
            Pool::Standard => "standard",
            Pool::Renju => "renju",
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that names no pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPool;

impl UnknownPool {
    /// Stable snake_case code for the wire.
    pub const fn code(&self) -> &'static str {
        "unknown_pool"
    }
}

impl fmt::Display for UnknownPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the pool is one of freestyle, standard, renju")
    }
}

impl std::error::Error for UnknownPool {}

impl FromStr for Pool {
    type Err = UnknownPool;

    fn from_str(s: &str) -> Result<Pool, UnknownPool> {
        Pool::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or(UnknownPool)
    }
}

/// A Glicko-2 rating on the familiar scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Rating (starts at 1500).
    pub rating: f64,
    /// Rating deviation (starts at 350).
    pub deviation: f64,
    /// Volatility (starts at 0.06).
    pub volatility: f64,
}

impl Rating {
    /// A rating from its three numbers.
    pub const fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    /// Whether the rating is still too uncertain to rank (deviation above [`PROVISIONAL_DEVIATION`]); shown
    /// with a `?`.
    pub fn is_provisional(&self) -> bool {
        // A NaN deviation counts as provisional: an unknown uncertainty earns no rank.
        self.deviation.is_nan() || self.deviation > PROVISIONAL_DEVIATION
    }

    /// The tier this rating earns.
    pub fn tier(&self) -> Tier {
        Tier::of(self)
    }
}

impl Default for Rating {
    /// A new player's rating: 1500 / 350 / 0.06.
    fn default() -> Rating {
        Rating::new(1500.0, 350.0, 0.06)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_rating_is_1500_350_006() {
        assert_eq!(Rating::default(), Rating::new(1500.0, 350.0, 0.06));
        assert!(Rating::default().is_provisional());
    }

    #[test]
    fn pools_round_trip_through_their_names() {
        for pool in Pool::ALL {
            assert_eq!(pool.as_str().parse::<Pool>(), Ok(pool));
            assert_eq!(pool.to_string(), pool.as_str());
        }
        assert_eq!("Renju".parse::<Pool>(), Err(UnknownPool));
        assert_eq!(UnknownPool.code(), "unknown_pool");
    }

    #[test]
    fn every_rule_set_has_its_own_pool() {
        assert_eq!(Pool::of(RuleSet::Freestyle), Pool::Freestyle);
        assert_eq!(Pool::of(RuleSet::Standard), Pool::Standard);
        assert_eq!(Pool::of(RuleSet::Renju), Pool::Renju);
    }
}
