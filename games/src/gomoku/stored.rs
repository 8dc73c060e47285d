//! Gomoku's stored texts, written by hand so that no rename in `rules` can change a stored text: the
//! configuration names every field in a fixed order (`size=15,rule_set=renju,forbidden_policy=reject,opening=none`,
//! the texts of the columns stored before the seam, which [`GomokuConfig::from_columns`] still reads), and an
//! action is its notation, or the JSON stored before the notation (`{"action":"place","point":"h8"}`), read as the
//! rules crate's serde derives read it.

use rules::{Action, ForbiddenPolicy, Opening, Point, RuleSet};
use serde_json::Value;

use super::GomokuConfig;
use crate::storage::{text_of, value_of, ConfigError, DecodeError};

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

pub(crate) fn config_text(config: &GomokuConfig) -> String {
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
