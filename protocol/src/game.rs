//! Which game a room plays, on the wire: [`GameSpec`], tagged by `"game"`, and its conversion to and from the
//! game seam's validated [`games::AnyConfig`].
//!
//! The encoding is written out here (protocol-owned enums with their own names), not derived from the `games` or
//! `rules` types, so that renaming something there cannot change a frame; `tests/protocol/golden.rs` pins every form.

use std::fmt;

use games::{AnyConfig, DraughtsConfig, GameKind, GomokuConfig, OthelloConfig};
use rules::othello::Scoring;
use rules::{ForbiddenPolicy, Opening, RuleSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::types::RulesSpec;

/// A room's game and its configuration, as a client asks for it (`create_room.game`) and as snapshots and the
/// lobby show it for games other than Gomoku.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameSpec {
    /// Gomoku or Renju: the fields of [`RulesSpec`], with its defaults (written out, not nested, so the schema
    /// of the tagged form describes every field itself).
    Gomoku {
        /// Board side, 15 (default) or 19 (not for renju).
        #[serde(default = "crate::types::default_size")]
        size: u8,
        /// `freestyle`, `standard` or `renju`.
        #[schemars(with = "crate::schema::RuleSetDef")]
        rule_set: RuleSet,
        /// `lose`, `reject` (default) or `claim`; meaningful under renju only.
        #[serde(default)]
        #[schemars(with = "crate::schema::ForbiddenPolicyDef")]
        forbidden_policy: ForbiddenPolicy,
        /// `none` (default), `swap_after_three`, `swap_after_three_fifth_two_options`, `swap1`, `swap2`,
        /// `soosorv` / `soosorv_N` or `taraguchi` / `taraguchi_N` (as in [`RulesSpec`]).
        #[serde(default)]
        #[schemars(with = "crate::schema::OpeningDef")]
        opening: Opening,
    },
    /// Othello.
    Othello {
        /// How the empty squares of a board left unfinished are scored (default `japanese`).
        #[serde(default)]
        scoring: OthelloScoring,
    },
    /// International draughts.
    Draughts {
        /// The variant (default, and only, `international`).
        #[serde(default)]
        variant: DraughtsVariant,
    },
}

/// How an Othello board with empty squares left is scored, on the wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OthelloScoring {
    /// Every empty square goes to the winner (the default).
    #[default]
    Japanese,
    /// The empty squares are split evenly; an odd one goes to the winner.
    European,
}

/// A draughts variant, on the wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DraughtsVariant {
    /// International draughts: 10x10, FMJD rules (the default and only one).
    #[default]
    International,
}

/// Why a [`GameSpec`] is not a playable configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSpecError {
    /// The Gomoku rules are not playable (the rules crate's reason).
    Rules(rules::RulesError),
}

impl GameSpecError {
    /// The stable code sent in the error frame (the rules crate's: `unsupported_board_size`, …).
    pub fn code(&self) -> &'static str {
        match self {
            GameSpecError::Rules(e) => e.code(),
        }
    }
}

impl fmt::Display for GameSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpecError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameSpecError {}

impl From<Scoring> for OthelloScoring {
    fn from(s: Scoring) -> OthelloScoring {
        match s {
            Scoring::Japanese => OthelloScoring::Japanese,
            Scoring::European => OthelloScoring::European,
        }
    }
}

impl From<OthelloScoring> for Scoring {
    fn from(s: OthelloScoring) -> Scoring {
        match s {
            OthelloScoring::Japanese => Scoring::Japanese,
            OthelloScoring::European => Scoring::European,
        }
    }
}

impl From<RulesSpec> for GameSpec {
    fn from(r: RulesSpec) -> GameSpec {
        GameSpec::Gomoku {
            size: r.size,
            rule_set: r.rule_set,
            forbidden_policy: r.forbidden_policy,
            opening: r.opening,
        }
    }
}

impl GameSpec {
    /// Gomoku's rules, when it names Gomoku.
    pub const fn rules(&self) -> Option<RulesSpec> {
        match *self {
            GameSpec::Gomoku {
                size,
                rule_set,
                forbidden_policy,
                opening,
            } => Some(RulesSpec {
                size,
                rule_set,
                forbidden_policy,
                opening,
            }),
            _ => None,
        }
    }

    /// The game it names.
    pub const fn kind(&self) -> GameKind {
        match self {
            GameSpec::Gomoku { .. } => GameKind::Gomoku,
            GameSpec::Othello { .. } => GameKind::Othello,
            GameSpec::Draughts { .. } => GameKind::Draughts,
        }
    }

    /// The validated configuration, or why it is not playable.
    pub fn to_config(&self) -> Result<AnyConfig, GameSpecError> {
        match *self {
            GameSpec::Gomoku {
                size,
                rule_set,
                forbidden_policy,
                opening,
            } => rules::Rules::new(size, rule_set, forbidden_policy, opening)
                .map(|r| AnyConfig::Gomoku(GomokuConfig::from(r)))
                .map_err(GameSpecError::Rules),
            GameSpec::Othello { scoring } => {
                Ok(AnyConfig::Othello(OthelloConfig::new(scoring.into())))
            }
            GameSpec::Draughts {
                variant: DraughtsVariant::International,
            } => Ok(AnyConfig::Draughts(DraughtsConfig::international())),
        }
    }
}

impl From<AnyConfig> for GameSpec {
    fn from(config: AnyConfig) -> GameSpec {
        match config {
            AnyConfig::Gomoku(c) => RulesSpec::from(c.rules()).into(),
            AnyConfig::Othello(c) => GameSpec::Othello {
                scoring: c.scoring().into(),
            },
            // International draughts is the only variant a configuration can hold.
            AnyConfig::Draughts(_) => GameSpec::Draughts {
                variant: DraughtsVariant::International,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::GameConfig;

    #[test]
    fn every_spec_converts_to_its_configuration_and_back() {
        let specs = [
            GameSpec::from(RulesSpec {
                size: 19,
                rule_set: rules::RuleSet::Freestyle,
                forbidden_policy: rules::ForbiddenPolicy::Reject,
                opening: rules::Opening::SwapAfterThree,
            }),
            GameSpec::Othello {
                scoring: OthelloScoring::European,
            },
            GameSpec::Othello {
                scoring: OthelloScoring::Japanese,
            },
            GameSpec::Draughts {
                variant: DraughtsVariant::International,
            },
        ];
        for spec in specs {
            let config = spec.to_config().unwrap();
            assert_eq!(config.kind(), spec.kind());
            assert_eq!(GameSpec::from(config), spec);
        }
    }

    #[test]
    fn unplayable_gomoku_rules_are_a_typed_error_with_the_rules_code() {
        let spec = GameSpec::from(RulesSpec {
            size: 19,
            rule_set: rules::RuleSet::Renju,
            forbidden_policy: rules::ForbiddenPolicy::Reject,
            opening: rules::Opening::None,
        });
        let e = spec.to_config().unwrap_err();
        assert_eq!(e.code(), "renju_requires_15x15");
    }
}
