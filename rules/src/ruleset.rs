//! The rules a room chooses: rule set, forbidden-move policy, opening rule and board size.

use std::fmt;

/// How five-in-a-row is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum RuleSet {
    /// Five or more in a row wins for either colour; no restrictions.
    Freestyle,
    /// Exactly five wins for either colour; an overline does not win; no restrictions.
    Standard,
    /// Black wins only with exactly five and may not make double-three, double-four or overline; white wins with
    /// five or more.
    Renju,
}

/// What happens when black plays on a forbidden point under Renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum ForbiddenPolicy {
    /// The stone is placed and black loses at once.
    Lose,
    /// The move is refused; the game goes on.
    #[default]
    Reject,
    /// The stone stands; white may claim it as its very next action and black then loses. If white plays a
    /// stone instead, the claim lapses for good.
    Claim,
}

/// The opening rule, combinable with any rule set.
///
/// Under `serde` it is one string: `none`, `swap_after_three`, `swap_after_three_fifth_two_options`, `swap1`,
/// `swap2`, `soosorv_N` and `taraguchi_N` (`soosorv` and `taraguchi` alone mean the default N). N is checked by
/// [`Rules::new`], which refuses it outside `1..=`[`MAX_OFFERS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Opening {
    /// No opening restrictions.
    #[default]
    None,
    /// Black's first stone on the centre, white's first touching it; after move 3 the player holding white
    /// decides once whether to swap colours.
    SwapAfterThree,
    /// [`Opening::SwapAfterThree`], then at move 5 black proposes two points that are not symmetric to each
    /// other and white chooses which one stays.
    SwapAfterThreeFifthTwoOptions,
    /// Swap1: the first player places three stones anywhere (black, white, black); the other picks a colour;
    /// white plays move 4.
    Swap1,
    /// Swap2: the first player places three stones anywhere; the other takes white (and plays move 4), takes
    /// black, or places two more (a white and a black) and lets the first player pick a colour.
    Swap2,
    /// Soosõrv-N: the first player puts one of the 26 canonical openings; swap; white plays move 4 anywhere and
    /// declares how many fifth moves black offers (1 to `n`); swap; black offers that many, no two symmetric;
    /// white chooses one and plays move 6.
    Soosorv {
        /// The most fifth moves white may declare (default 8).
        n: u8,
    },
    /// Taraguchi-N: moves 1 to 4 in the central 1x1, 3x3, 5x5 and 7x7 squares with a swap after each; then
    /// black either decides a swap, plays move 5 in the 9x9 square and white decides a last swap, or offers `n`
    /// fifth moves anywhere, no two symmetric, of which white chooses one.
    Taraguchi {
        /// How many fifth moves black offers under the second choice (default 10).
        n: u8,
    },
}

/// The most fifth moves an opening rule can ask for (Soosõrv's declaration, Taraguchi's offers).
pub const MAX_OFFERS: u8 = 10;

impl Opening {
    /// Soosõrv-8, as the Renju World Championship plays it.
    pub const SOOSORV_8: Opening = Opening::Soosorv { n: 8 };
    /// Taraguchi-10, as the European championships play it.
    pub const TARAGUCHI_10: Opening = Opening::Taraguchi { n: 10 };

    /// Whether this is one of the swap-after-three rules (centre, touching stone, swap decision after move 3).
    pub const fn swaps_after_three(self) -> bool {
        matches!(
            self,
            Opening::SwapAfterThree | Opening::SwapAfterThreeFifthTwoOptions
        )
    }

    /// Whether black proposes two fifth moves.
    pub const fn fifth_two_options(self) -> bool {
        matches!(self, Opening::SwapAfterThreeFifthTwoOptions)
    }

    /// Whether the first player places the first three stones (black, white, black) before anyone decides.
    pub const fn first_player_places_three(self) -> bool {
        matches!(
            self,
            Opening::Swap1 | Opening::Swap2 | Opening::Soosorv { .. }
        )
    }

    /// The opening's one text (see the type's doc).
    pub fn text(self) -> String {
        match self {
            Opening::None => "none".into(),
            Opening::SwapAfterThree => "swap_after_three".into(),
            Opening::SwapAfterThreeFifthTwoOptions => "swap_after_three_fifth_two_options".into(),
            Opening::Swap1 => "swap1".into(),
            Opening::Swap2 => "swap2".into(),
            Opening::Soosorv { n } => format!("soosorv_{n}"),
            Opening::Taraguchi { n } => format!("taraguchi_{n}"),
        }
    }

    /// An opening from its text; N is read but not checked (that is [`Rules::new`]'s).
    pub fn from_text(text: &str) -> Option<Opening> {
        let number = |s: &str| {
            (!s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u8>().ok())
                .flatten()
        };
        Some(match text {
            "none" => Opening::None,
            "swap_after_three" => Opening::SwapAfterThree,
            "swap_after_three_fifth_two_options" => Opening::SwapAfterThreeFifthTwoOptions,
            "swap1" => Opening::Swap1,
            "swap2" => Opening::Swap2,
            "soosorv" => Opening::SOOSORV_8,
            "taraguchi" => Opening::TARAGUCHI_10,
            _ => {
                if let Some(n) = text.strip_prefix("soosorv_") {
                    Opening::Soosorv { n: number(n)? }
                } else if let Some(n) = text.strip_prefix("taraguchi_") {
                    Opening::Taraguchi { n: number(n)? }
                } else {
                    return None;
                }
            }
        })
    }

    /// N of Soosõrv-N and Taraguchi-N.
    pub const fn count(self) -> Option<u8> {
        match self {
            Opening::Soosorv { n } | Opening::Taraguchi { n } => Some(n),
            _ => None,
        }
    }

    /// The opening with N brought into `1..=MAX_OFFERS`.
    const fn clamped(self) -> Opening {
        const fn clamp(n: u8) -> u8 {
            if n == 0 {
                1
            } else if n > MAX_OFFERS {
                MAX_OFFERS
            } else {
                n
            }
        }
        match self {
            Opening::Soosorv { n } => Opening::Soosorv { n: clamp(n) },
            Opening::Taraguchi { n } => Opening::Taraguchi { n: clamp(n) },
            other => other,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Opening {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Opening {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Opening, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Opening::from_text(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown opening `{text}`: expected none, swap_after_three, \
                 swap_after_three_fifth_two_options, swap1, swap2, soosorv[_N] or taraguchi[_N]"
            ))
        })
    }
}

/// A complete, valid choice of rules. Built only through [`Rules::new`], so every `Rules` value is playable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    size: u8,
    rule_set: RuleSet,
    forbidden_policy: ForbiddenPolicy,
    opening: Opening,
}

/// The board sides offered: 15 (every rule set), 19 and 20 (freestyle and standard; 20x20 is Gomocup's board).
pub const SIZES: [u8; 3] = [15, 19, 20];

/// Why a choice of rules is not playable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Boards are 15x15, or 19x19 or 20x20 for freestyle and standard ([`SIZES`]).
    UnsupportedSize(u8),
    /// Renju is played on 15x15 only.
    RenjuNeeds15x15,
    /// Soosõrv-N and Taraguchi-N take N from 1 to [`MAX_OFFERS`].
    OpeningCountOutOfRange(u8),
}

impl RulesError {
    /// Stable snake_case code for the wire.
    pub fn code(&self) -> &'static str {
        match self {
            RulesError::UnsupportedSize(_) => "unsupported_board_size",
            RulesError::RenjuNeeds15x15 => "renju_requires_15x15",
            RulesError::OpeningCountOutOfRange(_) => "bad_opening_count",
        }
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnsupportedSize(n) => {
                write!(f, "a {n}x{n} board is not offered: choose 15, 19 or 20")
            }
            RulesError::RenjuNeeds15x15 => f.write_str("renju is played on the 15x15 board only"),
            RulesError::OpeningCountOutOfRange(n) => write!(
                f,
                "the opening's number of fifth moves must be 1 to {MAX_OFFERS}, not {n}"
            ),
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// Checks and builds a rule choice. `forbidden_policy` only matters under [`RuleSet::Renju`].
    pub fn new(
        size: u8,
        rule_set: RuleSet,
        forbidden_policy: ForbiddenPolicy,
        opening: Opening,
    ) -> Result<Rules, RulesError> {
        if !SIZES.contains(&size) {
            return Err(RulesError::UnsupportedSize(size));
        }
        if rule_set == RuleSet::Renju && size != 15 {
            return Err(RulesError::RenjuNeeds15x15);
        }
        if let Some(n) = opening.count() {
            if !(1..=MAX_OFFERS).contains(&n) {
                return Err(RulesError::OpeningCountOutOfRange(n));
            }
        }
        Ok(Rules {
            size,
            rule_set,
            forbidden_policy,
            opening,
        })
    }

    /// Freestyle on 15x15 without an opening rule.
    pub fn freestyle() -> Rules {
        Rules {
            size: 15,
            rule_set: RuleSet::Freestyle,
            forbidden_policy: ForbiddenPolicy::Reject,
            opening: Opening::None,
        }
    }

    /// Standard (exactly five) on 15x15 without an opening rule.
    pub fn standard() -> Rules {
        Rules {
            size: 15,
            rule_set: RuleSet::Standard,
            forbidden_policy: ForbiddenPolicy::Reject,
            opening: Opening::None,
        }
    }

    /// Renju on 15x15 with the given forbidden-move policy and no opening rule.
    pub fn renju(policy: ForbiddenPolicy) -> Rules {
        Rules {
            size: 15,
            rule_set: RuleSet::Renju,
            forbidden_policy: policy,
            opening: Opening::None,
        }
    }

    /// The same rules with another opening. An N outside `1..=`[`MAX_OFFERS`] is brought to the nearest bound
    /// (so every `Rules` stays playable); [`Rules::new`] refuses it instead.
    pub fn with_opening(self, opening: Opening) -> Rules {
        Rules {
            opening: opening.clamped(),
            ..self
        }
    }

    /// Board side.
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// The rule set.
    pub const fn rule_set(&self) -> RuleSet {
        self.rule_set
    }

    /// The forbidden-move policy; meaningful only under Renju (see [`Rules::restricts_black`]).
    pub const fn forbidden_policy(&self) -> ForbiddenPolicy {
        self.forbidden_policy
    }

    /// The opening rule.
    pub const fn opening(&self) -> Opening {
        self.opening
    }

    /// Whether black has forbidden points.
    pub const fn restricts_black(&self) -> bool {
        matches!(self.rule_set, RuleSet::Renju)
    }

    /// Whether a line of `len` stones of `color` wins.
    pub const fn is_winning_run(&self, color: crate::Color, len: u32) -> bool {
        match (self.rule_set, color) {
            (RuleSet::Freestyle, _) | (RuleSet::Renju, crate::Color::White) => len >= 5,
            (RuleSet::Standard, _) | (RuleSet::Renju, crate::Color::Black) => len == 5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renju_is_only_offered_on_15x15() {
        assert_eq!(
            Rules::new(19, RuleSet::Renju, ForbiddenPolicy::Lose, Opening::None),
            Err(RulesError::RenjuNeeds15x15)
        );
        assert!(Rules::new(19, RuleSet::Freestyle, ForbiddenPolicy::Lose, Opening::None).is_ok());
        assert_eq!(
            Rules::new(17, RuleSet::Standard, ForbiddenPolicy::Lose, Opening::None),
            Err(RulesError::UnsupportedSize(17))
        );
    }

    #[test]
    fn the_opening_count_is_one_to_ten() {
        let make = |opening| Rules::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, opening);
        for (n, ok) in [(0, false), (1, true), (10, true), (11, false), (255, false)] {
            for opening in [Opening::Soosorv { n }, Opening::Taraguchi { n }] {
                match make(opening) {
                    Ok(r) => assert!(ok && r.opening() == opening, "{n}"),
                    Err(e) => {
                        assert!(!ok, "{n}");
                        assert_eq!(e, RulesError::OpeningCountOutOfRange(n));
                        assert_eq!(e.code(), "bad_opening_count");
                    }
                }
            }
        }
        assert_eq!(
            Rules::freestyle()
                .with_opening(Opening::Soosorv { n: 0 })
                .opening(),
            Opening::Soosorv { n: 1 }
        );
    }

    #[test]
    fn opening_texts_read_back() {
        for o in [
            Opening::None,
            Opening::SwapAfterThree,
            Opening::SwapAfterThreeFifthTwoOptions,
            Opening::Swap1,
            Opening::Swap2,
            Opening::SOOSORV_8,
            Opening::Taraguchi { n: 3 },
        ] {
            assert_eq!(Opening::from_text(&o.text()), Some(o));
        }
        assert_eq!(Opening::from_text("soosorv"), Some(Opening::SOOSORV_8));
        assert_eq!(Opening::from_text("taraguchi"), Some(Opening::TARAGUCHI_10));
        assert_eq!(
            Opening::from_text("soosorv_0"),
            Some(Opening::Soosorv { n: 0 })
        );
        for bad in [
            "soosorv_",
            "soosorv_x",
            "soosorv_1000",
            "swap3",
            "taraguchi_-1",
        ] {
            assert_eq!(Opening::from_text(bad), None, "{bad}");
        }
    }
}
