//! Rank tiers, from Beginner to Grand Master, read from the rating at once: a provisional rating (deviation above
//! [`PROVISIONAL_DEVIATION`]) has its tier too, which clients mark as provisional the way they mark the number
//! (`1620?`). Until issue #36 a provisional rating was Unranked, and with Glicko-2 a player who wins every game
//! stays provisional for twenty games or more.
//!
//! The table is data ([`TIERS`]); nothing else in the code base knows the names or the thresholds, so the web
//! client and the API take them from here through the server.

use std::fmt;

use crate::Rating;

/// A rating whose deviation is above this is provisional: shown with `?`, its tier marked provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The ranked tiers, lowest first: (display name, stable code, lowest rating that earns it).
pub const TIERS: &[(&str, &str, f64)] = &[
    ("Beginner", "beginner", f64::NEG_INFINITY),
    ("Novice", "novice", 1100.0),
    ("Apprentice", "apprentice", 1250.0),
    ("Amateur", "amateur", 1400.0),
    ("Club Player", "club_player", 1550.0),
    ("Advanced", "advanced", 1700.0),
    ("Expert", "expert", 1850.0),
    ("Candidate Master", "candidate_master", 2000.0),
    ("Master", "master", 2150.0),
    ("International Master", "international_master", 2300.0),
    ("Grand Master", "grand_master", 2450.0),
];

const UNRANKED_NAME: &str = "Unranked";
const UNRANKED_CODE: &str = "unranked";

/// A rank tier: one row of [`TIERS`], or [`Tier::UNRANKED`] for a rating that is no number at all. Ordered from
/// Unranked up to Grand Master.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tier {
    /// `None` for Unranked, else the index in [`TIERS`].
    rank: Option<u8>,
}

impl Tier {
    /// No tier: a rating that is not a number. (Before issue #36, every provisional rating; rows stored then may
    /// still name it.)
    pub const UNRANKED: Tier = Tier { rank: None };

    /// The tier a rating earns now, provisional or not: the highest row of [`TIERS`] whose minimum it reaches. A
    /// rating that falls below its tier's minimum drops to the lower tier (demotion). Only a NaN rating is
    /// Unranked.
    pub fn of(rating: &Rating) -> Tier {
        if rating.rating.is_nan() {
            return Tier::UNRANKED;
        }
        let index = TIERS
            .iter()
            .rposition(|&(_, _, min)| rating.rating >= min)
            .unwrap_or(0);
        Tier {
            rank: u8::try_from(index).ok(),
        }
    }

    /// Every tier, Unranked first, then lowest to highest.
    pub fn all() -> impl Iterator<Item = Tier> {
        std::iter::once(Tier::UNRANKED).chain((0..TIERS.len()).map(|i| Tier {
            rank: u8::try_from(i).ok(),
        }))
    }

    /// The tier with this stable code (as stored), if any.
    pub fn from_code(code: &str) -> Option<Tier> {
        Tier::all().find(|t| t.code() == code)
    }

    fn row(self) -> Option<&'static (&'static str, &'static str, f64)> {
        self.rank.and_then(|i| TIERS.get(usize::from(i)))
    }

    /// Display name ("Club Player").
    pub fn name(self) -> &'static str {
        self.row().map_or(UNRANKED_NAME, |r| r.0)
    }

    /// Stable snake_case code ("club_player"), as stored and on the wire.
    pub fn code(self) -> &'static str {
        self.row().map_or(UNRANKED_CODE, |r| r.1)
    }

    /// The lowest rating that earns this tier; `None` for Unranked.
    pub fn min_rating(self) -> Option<f64> {
        self.row().map(|r| r.2)
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settled(rating: f64) -> Rating {
        Rating::new(rating, 60.0, 0.06)
    }

    #[test]
    fn the_table_is_ordered_and_its_codes_are_snake_case_names() {
        for pair in TIERS.windows(2) {
            assert!(pair[0].2 < pair[1].2);
        }
        for (name, code, _) in TIERS {
            assert_eq!(name.to_lowercase().replace(' ', "_"), *code);
        }
    }

    #[test]
    fn every_boundary_belongs_to_the_tier_above_it() {
        let boundaries = [
            (1100.0, "beginner", "novice"),
            (1250.0, "novice", "apprentice"),
            (1400.0, "apprentice", "amateur"),
            (1550.0, "amateur", "club_player"),
            (1700.0, "club_player", "advanced"),
            (1850.0, "advanced", "expert"),
            (2000.0, "expert", "candidate_master"),
            (2150.0, "candidate_master", "master"),
            (2300.0, "master", "international_master"),
            (2450.0, "international_master", "grand_master"),
        ];
        for (at, below, from) in boundaries {
            assert_eq!(
                Tier::of(&settled(at - 0.001)).code(),
                below,
                "just below {at}"
            );
            assert_eq!(Tier::of(&settled(at)).code(), from, "at {at}");
        }
        assert_eq!(Tier::of(&settled(-300.0)).name(), "Beginner");
        assert_eq!(Tier::of(&settled(3200.0)).name(), "Grand Master");
    }

    #[test]
    fn a_provisional_rating_has_the_tier_of_its_number_at_once() {
        assert_eq!(
            Tier::of(&Rating::new(2600.0, 110.01, 0.06)).code(),
            "grand_master"
        );
        assert_eq!(Tier::of(&Rating::default()).name(), "Amateur");
        assert_eq!(
            Tier::of(&Rating::new(1650.0, 350.0, 0.06)).code(),
            "club_player"
        );
        assert_eq!(
            Tier::of(&Rating::new(2600.0, 110.0, 0.06)).code(),
            "grand_master"
        );
        assert_eq!(
            Tier::of(&Rating::new(2600.0, f64::NAN, 0.06)).code(),
            "grand_master"
        );
        assert_eq!(Tier::of(&Rating::new(f64::NAN, 60.0, 0.06)), Tier::UNRANKED);
    }

    #[test]
    fn a_falling_rating_is_demoted() {
        let before = Tier::of(&settled(1560.0));
        let after = Tier::of(&settled(1549.0));
        assert_eq!(before.code(), "club_player");
        assert_eq!(after.code(), "amateur");
        assert!(after < before);
        // A deviation that grows back over the limit leaves the tier as it is (only provisional again).
        assert_eq!(Tier::of(&Rating::new(1560.0, 120.0, 0.06)), before);
    }

    #[test]
    fn codes_read_back_into_the_same_tier() {
        let all: Vec<Tier> = Tier::all().collect();
        assert_eq!(all.len(), TIERS.len() + 1);
        for tier in all {
            assert_eq!(Tier::from_code(tier.code()), Some(tier));
            assert_eq!(tier.to_string(), tier.name());
        }
        assert_eq!(Tier::from_code("legend"), None);
        assert_eq!(Tier::UNRANKED.min_rating(), None);
        assert_eq!(
            Tier::from_code("master").and_then(Tier::min_rating),
            Some(2150.0)
        );
    }
}
