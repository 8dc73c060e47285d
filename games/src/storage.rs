//! Storage encodings, written by hand so that no rename in `rules` can change a stored text.
//!
//! - A configuration is stored as its game's name (`gomoku`) and a text. Gomoku's text names every field in a
//!   fixed order: `size=15,rule_set=renju,forbidden_policy=reject,opening=none`. The values are the texts of the
//!   columns stored before the seam (`board_size`, `rule_set`, `forbidden_policy`, `opening`), which
//!   [`GomokuConfig::from_columns`] still reads.
//! - Othello's text is its one field, `scoring=japanese` or `scoring=european`; its actions are `f5` and `pass`.
//! - Draughts' text is `variant=international` (the only variant); its actions are their paths, `32-28` and
//!   `28x19x10`.
//! - An action is stored as its notation ([`crate::notation`]). The JSON stored before the notation
//!   (`{"action":"place","point":"h8"}`) is read as well, as the rules crate's serde derives read it.

use std::fmt;

use rules::othello::Scoring;
use rules::{Action, ForbiddenPolicy, Opening, Point, RuleSet, RulesError};
use serde_json::Value;

use crate::draughts::{parse_draughts, DraughtsConfig};
use crate::gomoku::GomokuConfig;
use crate::notation::{parse_gomoku, NotationError};
use crate::othello::{parse_othello, OthelloConfig};
use crate::{AnyAction, AnyConfig, GameKind};

/// Why a stored configuration cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// The game's name is not one of ours.
    UnknownGame,
    /// The text is not the game's field list (`size=…,rule_set=…,…` in that order).
    Malformed,
    /// A field holds a value it never takes.
    UnknownValue {
        /// The field (`size`, `rule_set`, `forbidden_policy`, `opening`; `scoring` for Othello; `variant` for draughts).
        field: &'static str,
    },
    /// The values are known but do not make a playable configuration.
    Rules(RulesError),
}

impl ConfigError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            ConfigError::UnknownGame => "unknown_game",
            ConfigError::Malformed => "malformed_config",
            ConfigError::UnknownValue { .. } => "unknown_config_value",
            ConfigError::Rules(e) => e.code(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::UnknownGame => f.write_str("no such game"),
            ConfigError::Malformed => f.write_str("not a configuration of this game"),
            ConfigError::UnknownValue { field } => write!(f, "unknown value of {field}"),
            ConfigError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a stored action cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The text is not an action's notation.
    Notation(NotationError),
    /// The text is JSON (the form stored before the notation) but not an action of that form.
    Json(String),
}

impl DecodeError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            DecodeError::Notation(e) => e.code(),
            DecodeError::Json(_) => "malformed_stored_action",
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Notation(e) => e.fmt(f),
            DecodeError::Json(why) => write!(f, "stored action JSON: {why}"),
        }
    }
}

impl std::error::Error for DecodeError {}

impl From<NotationError> for DecodeError {
    fn from(e: NotationError) -> DecodeError {
        DecodeError::Notation(e)
    }
}

/// A configuration as stored: the game's name and the configuration's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredConfig {
    /// The game (`gomoku`).
    pub game: &'static str,
    /// The configuration's text.
    pub text: String,
}

const RULE_SETS: [(RuleSet, &str); 3] = [
    (RuleSet::Freestyle, "freestyle"),
    (RuleSet::Standard, "standard"),
    (RuleSet::Renju, "renju"),
];

const POLICIES: [(ForbiddenPolicy, &str); 3] = [
    (ForbiddenPolicy::Lose, "lose"),
    (ForbiddenPolicy::Reject, "reject"),
    (ForbiddenPolicy::Claim, "claim"),
];

fn text_of<T: PartialEq + Copy>(table: &[(T, &'static str)], value: T) -> &'static str {
    table
        .iter()
        .find(|(v, _)| *v == value)
        .map_or("", |(_, t)| t)
}

fn value_of<T: Copy>(
    table: &[(T, &'static str)],
    field: &'static str,
    text: &str,
) -> Result<T, ConfigError> {
    table
        .iter()
        .find(|(_, t)| *t == text)
        .map(|(v, _)| *v)
        .ok_or(ConfigError::UnknownValue { field })
}

/// A rule set's stored name (`freestyle`, `standard`, `renju`), also its rating pool's variant.
pub fn rule_set_text(rule_set: RuleSet) -> &'static str {
    text_of(&RULE_SETS, rule_set)
}

/// A forbidden policy's stored name (`lose`, `reject`, `claim`).
pub fn policy_text(policy: ForbiddenPolicy) -> &'static str {
    text_of(&POLICIES, policy)
}

/// An opening's stored name (`none`, `swap_after_three`, `swap_after_three_fifth_two_options`, `swap1`,
/// `swap2`, `soosorv_8`, `taraguchi_10`: N always written).
pub fn opening_text(opening: Opening) -> String {
    opening.text()
}

/// An opening from its stored name, exactly as [`opening_text`] writes it (`soosorv` without N is refused).
fn opening_of(text: &str) -> Result<Opening, ConfigError> {
    Opening::from_text(text)
        .filter(|o| o.text() == text)
        .ok_or(ConfigError::UnknownValue { field: "opening" })
}

const FIELDS: [&str; 4] = ["size", "rule_set", "forbidden_policy", "opening"];

pub(crate) fn gomoku_config_text(config: &GomokuConfig) -> String {
    let rules = config.rules();
    format!(
        "size={},rule_set={},forbidden_policy={},opening={}",
        rules.size(),
        rule_set_text(rules.rule_set()),
        policy_text(rules.forbidden_policy()),
        opening_text(rules.opening())
    )
}

impl GomokuConfig {
    /// A configuration from its stored text (exactly as [`crate::GameConfig::encode`] writes it).
    pub fn decode(text: &str) -> Result<GomokuConfig, ConfigError> {
        let mut values = [""; 4];
        let mut parts = text.split(',');
        for (value, field) in values.iter_mut().zip(FIELDS) {
            let part = parts.next().ok_or(ConfigError::Malformed)?;
            *value = part
                .strip_prefix(field)
                .and_then(|rest| rest.strip_prefix('='))
                .ok_or(ConfigError::Malformed)?;
        }
        if parts.next().is_some() {
            return Err(ConfigError::Malformed);
        }
        let [size, rule_set, policy, opening] = values;
        // Only the digits `encode` writes: no sign, no leading zero.
        if size.is_empty()
            || size.starts_with('0')
            || size.len() > 3
            || !size.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(ConfigError::UnknownValue { field: "size" });
        }
        let size: i64 = size
            .parse()
            .map_err(|_| ConfigError::UnknownValue { field: "size" })?;
        GomokuConfig::from_columns(size, rule_set, policy, opening)
    }

    /// A configuration from the four columns stored before the seam (`board_size`, `rule_set`,
    /// `forbidden_policy`, `opening`), validated again.
    pub fn from_columns(
        size: i64,
        rule_set: &str,
        policy: &str,
        opening: &str,
    ) -> Result<GomokuConfig, ConfigError> {
        let size = u8::try_from(size).map_err(|_| ConfigError::UnknownValue { field: "size" })?;
        GomokuConfig::new(
            size,
            value_of(&RULE_SETS, "rule_set", rule_set)?,
            value_of(&POLICIES, "forbidden_policy", policy)?,
            opening_of(opening)?,
        )
        .map_err(ConfigError::Rules)
    }
}

const SCORINGS: [(Scoring, &str); 2] = [
    (Scoring::Japanese, "japanese"),
    (Scoring::European, "european"),
];

pub(crate) fn othello_config_text(config: &OthelloConfig) -> String {
    format!("scoring={}", text_of(&SCORINGS, config.scoring()))
}

impl OthelloConfig {
    /// A configuration from its stored text (exactly as [`crate::GameConfig::encode`] writes it:
    /// `scoring=japanese` or `scoring=european`).
    pub fn decode(text: &str) -> Result<OthelloConfig, ConfigError> {
        let value = text
            .strip_prefix("scoring=")
            .ok_or(ConfigError::Malformed)?;
        if value.contains(',') {
            return Err(ConfigError::Malformed);
        }
        value_of(&SCORINGS, "scoring", value).map(OthelloConfig::new)
    }
}

impl AnyConfig {
    /// The configuration as stored.
    pub fn stored(&self) -> StoredConfig {
        use crate::GameConfig;
        StoredConfig {
            game: self.kind().as_str(),
            text: self.encode(),
        }
    }

    /// A configuration back from its stored game name and text.
    pub fn decode(game: &str, text: &str) -> Result<AnyConfig, ConfigError> {
        match game.parse::<GameKind>() {
            Ok(GameKind::Gomoku) => GomokuConfig::decode(text).map(AnyConfig::Gomoku),
            Ok(GameKind::Othello) => OthelloConfig::decode(text).map(AnyConfig::Othello),
            Ok(GameKind::Draughts) => DraughtsConfig::decode(text).map(AnyConfig::Draughts),
            Err(_) => Err(ConfigError::UnknownGame),
        }
    }
}

impl AnyAction {
    /// The action's stored text: its notation.
    pub fn encode(&self) -> String {
        self.notation()
    }

    /// An action of a game back from its stored text: the notation, or for Gomoku the JSON stored before it.
    pub fn decode(kind: GameKind, text: &str) -> Result<AnyAction, DecodeError> {
        match kind {
            GameKind::Gomoku if text.starts_with('{') => {
                legacy_gomoku_action(text).map(AnyAction::Gomoku)
            }
            GameKind::Gomoku => Ok(AnyAction::Gomoku(parse_gomoku(text)?)),
            GameKind::Othello => Ok(AnyAction::Othello(parse_othello(text)?)),
            GameKind::Draughts => Ok(AnyAction::Draughts(parse_draughts(text)?)),
        }
    }
}

/// A Gomoku action from the JSON the rules crate's serde derives wrote before the notation: an object tagged by
/// `action` (`place`, `decide_swap`, `propose_fifth`, `choose_fifth`, `claim_forbidden`) with its fields. As the
/// derives did, it ignores other keys and reads points in either case.
pub fn legacy_gomoku_action(text: &str) -> Result<Action, DecodeError> {
    let bad = |why: &str| DecodeError::Json(why.to_owned());
    let value: Value = serde_json::from_str(text).map_err(|e| DecodeError::Json(e.to_string()))?;
    let object = value.as_object().ok_or_else(|| bad("not an object"))?;
    let field = |name: &str| {
        object
            .get(name)
            .ok_or_else(|| DecodeError::Json(format!("missing field `{name}`")))
    };
    let point = |v: &Value| -> Result<Point, DecodeError> {
        let s = v.as_str().ok_or_else(|| bad("a point is a string"))?;
        s.parse()
            .map_err(|e: rules::ParsePointError| bad(&e.to_string()))
    };
    let tag = field("action")?
        .as_str()
        .ok_or_else(|| bad("`action` is a string"))?;
    Ok(match tag {
        "place" => Action::Place {
            point: point(field("point")?)?,
        },
        "decide_swap" => Action::DecideSwap {
            swap: field("swap")?
                .as_bool()
                .ok_or_else(|| bad("`swap` is a boolean"))?,
        },
        "propose_fifth" => {
            let points = field("points")?
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| bad("`points` is two points"))?;
            Action::ProposeFifth {
                points: [point(&points[0])?, point(&points[1])?],
            }
        }
        "choose_fifth" => Action::ChooseFifth {
            point: point(field("point")?)?,
        },
        "claim_forbidden" => Action::ClaimForbidden,
        other => return Err(DecodeError::Json(format!("unknown action `{other}`"))),
    })
}
