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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
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
}

impl Opening {
    /// Whether this opening has the swap decision after move 3.
    pub const fn swaps_after_three(self) -> bool {
        !matches!(self, Opening::None)
    }

    /// Whether black proposes two fifth moves.
    pub const fn fifth_two_options(self) -> bool {
        matches!(self, Opening::SwapAfterThreeFifthTwoOptions)
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

/// Why a choice of rules is not playable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Boards are 15x15, or 19x19 for freestyle and standard.
    UnsupportedSize(u8),
    /// Renju is played on 15x15 only.
    RenjuNeeds15x15,
}

impl RulesError {
    /// Stable snake_case code for the wire.
    pub fn code(&self) -> &'static str {
        match self {
            RulesError::UnsupportedSize(_) => "unsupported_board_size",
            RulesError::RenjuNeeds15x15 => "renju_requires_15x15",
        }
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnsupportedSize(n) => {
                write!(f, "a {n}x{n} board is not offered: choose 15 or 19")
            }
            RulesError::RenjuNeeds15x15 => f.write_str("renju is played on the 15x15 board only"),
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
        if size != 15 && size != 19 {
            return Err(RulesError::UnsupportedSize(size));
        }
        if rule_set == RuleSet::Renju && size != 15 {
            return Err(RulesError::RenjuNeeds15x15);
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

    /// The same rules with another opening.
    pub fn with_opening(self, opening: Opening) -> Rules {
        Rules { opening, ..self }
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
}
