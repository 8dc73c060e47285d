//! Glicko-2 ratings, rating pools and rank tiers.
//!
//! Pure: no I/O, no clocks. The server gives the store [`glicko2::rate_game`] as the rating step of a finished
//! game; the store reads both ratings, runs that step and writes the results with the [`Tier`] they earn, all in one
//! transaction. Pools are named by game and variant; which exist is the games' business, not this crate's.

#![warn(missing_docs)]

pub mod established;
pub mod glicko2;
pub mod ladder;
pub mod tier;

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

pub use ladder::{Ladder, Score, Title};
pub use tier::{Tier, PROVISIONAL_DEVIATION, TIERS};

/// A rating pool: one rating per player per pool. A pool is named by its game and the game's variant
/// (`Pool::new("gomoku", "renju")`); which pools exist is the game's business, not this crate's.
///
/// Stored and on the wire as one text ([`Pool::name`]): `game/variant`, except that the pools of `gomoku`, the
/// only game before pools had a game, keep the text they were stored with before, the variant alone
/// (`renju`), so no stored row changes meaning.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pool {
    game: Cow<'static, str>,
    variant: Cow<'static, str>,
}

/// The game whose pools are named by their variant alone (see [`Pool`]).
pub const UNPREFIXED_GAME: &str = "gomoku";

/// Whether `text` may be a game's or a variant's name: lower-case ASCII letters, digits and `_`, not empty.
fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

impl Pool {
    /// The pool of a game's variant (both names as [`Pool::name`] spells them: lower-case, digits, `_`).
    pub const fn new(game: &'static str, variant: &'static str) -> Pool {
        Pool {
            game: Cow::Borrowed(game),
            variant: Cow::Borrowed(variant),
        }
    }

    /// The game.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The variant of the game.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The pool's stable text, as stored and on the wire: `game/variant`, or the variant alone for
    /// [`UNPREFIXED_GAME`].
    pub fn name(&self) -> Cow<'_, str> {
        if self.game == UNPREFIXED_GAME {
            Cow::Borrowed(&self.variant)
        } else {
            Cow::Owned(format!("{}/{}", self.game, self.variant))
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A text that is not a pool's name (see [`Pool::name`]).
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
        f.write_str("a pool is named game/variant (a gomoku pool by its variant alone)")
    }
}

impl std::error::Error for UnknownPool {}

impl FromStr for Pool {
    type Err = UnknownPool;

    /// The pool a [`Pool::name`] names. Any well-formed name parses; whether such a pool exists is for the
    /// caller, who knows its games.
    fn from_str(s: &str) -> Result<Pool, UnknownPool> {
        let (game, variant) = match s.split_once('/') {
            Some((game, variant)) if game != UNPREFIXED_GAME => (game, variant),
            Some(_) => return Err(UnknownPool),
            None => (UNPREFIXED_GAME, s),
        };
        if !is_name(game) || !is_name(variant) {
            return Err(UnknownPool);
        }
        Ok(Pool {
            game: Cow::Owned(game.to_owned()),
            variant: Cow::Owned(variant.to_owned()),
        })
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
        for pool in [
            Pool::new("gomoku", "freestyle"),
            Pool::new("gomoku", "standard"),
            Pool::new("gomoku", "renju"),
            Pool::new("othello", "standard"),
        ] {
            assert_eq!(pool.name().parse::<Pool>(), Ok(pool.clone()));
            assert_eq!(pool.to_string(), pool.name());
        }
        assert_eq!(UnknownPool.code(), "unknown_pool");
    }

    #[test]
    fn gomoku_pools_keep_the_names_they_were_stored_with() {
        assert_eq!(Pool::new("gomoku", "renju").name(), "renju");
        assert_eq!(
            "standard".parse::<Pool>(),
            Ok(Pool::new("gomoku", "standard"))
        );
        assert_eq!(
            Pool::new("draughts", "international").name(),
            "draughts/international"
        );
        assert_eq!(
            "draughts/international"
                .parse::<Pool>()
                .map(|p| p.game().to_owned()),
            Ok("draughts".to_owned())
        );
    }

    #[test]
    fn malformed_pool_names_are_refused() {
        for bad in [
            "",
            "Renju",
            "gomoku/renju",
            "othello/",
            "/standard",
            "a/b/c",
            "re nju",
            "renju\n",
        ] {
            assert_eq!(bad.parse::<Pool>(), Err(UnknownPool), "{bad:?}");
        }
    }
}
