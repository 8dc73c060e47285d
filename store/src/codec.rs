//! Conversions between the domain types and their stored text, shared by both databases.

use ratings::Pool;
use rules::{Action, Color, ForbiddenPolicy, Opening, RuleSet, Rules};
use serde::{de::DeserializeOwned, Serialize};

use crate::StoreError;

/// A row that does not describe a valid value: the database was changed behind our back.
pub(crate) fn corrupt(what: &str, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Database(format!("corrupt {what} in the database: {detail}"))
}

/// The snake_case name serde gives a unit enum variant (`"renju"`, `"swap_after_three"`), so the stored text is
/// the same as the wire text.
fn enum_text<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        other => unreachable_text(other),
    }
}

#[cold]
fn unreachable_text(value: Result<serde_json::Value, serde_json::Error>) -> String {
    // Unit variants always serialise to strings; fall back to the JSON text rather than panic.
    value.map(|v| v.to_string()).unwrap_or_default()
}

fn enum_parse<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).map_err(|e| corrupt(what, e))
}

/// The rules as the four stored columns: size, rule set, forbidden policy, opening.
pub(crate) fn rules_columns(rules: &Rules) -> (i64, String, String, String) {
    (
        i64::from(rules.size()),
        enum_text(&rules.rule_set()),
        enum_text(&rules.forbidden_policy()),
        enum_text(&rules.opening()),
    )
}

/// The rules back from their stored columns, validated again by [`Rules::new`].
pub(crate) fn rules_from_columns(
    size: i64,
    rule_set: &str,
    policy: &str,
    opening: &str,
) -> Result<Rules, StoreError> {
    let size = u8::try_from(size).map_err(|e| corrupt("board size", e))?;
    let rule_set: RuleSet = enum_parse("rule set", rule_set)?;
    let policy: ForbiddenPolicy = enum_parse("forbidden policy", policy)?;
    let opening: Opening = enum_parse("opening", opening)?;
    Rules::new(size, rule_set, policy, opening).map_err(|e| corrupt("rules", e))
}

/// An action as stored: the wire JSON (`{"action":"place","point":"h8"}`).
pub(crate) fn action_text(action: &Action) -> Result<String, StoreError> {
    serde_json::to_string(action).map_err(|e| corrupt("action", e))
}

/// An action back from its stored JSON.
pub(crate) fn action_parse(text: &str) -> Result<Action, StoreError> {
    serde_json::from_str(text).map_err(|e| corrupt("action", e))
}

/// The point of an action that puts a stone on the board, as text ("h8").
pub(crate) fn stone_point(action: &Action) -> Option<String> {
    match action {
        Action::Place { point } | Action::ChooseFifth { point } => Some(point.to_string()),
        _ => None,
    }
}

/// A colour as stored.
pub(crate) fn color_text(color: Color) -> &'static str {
    color.as_str()
}

/// A colour back from its stored text.
pub(crate) fn color_parse(text: &str) -> Result<Color, StoreError> {
    match text {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        other => Err(corrupt("colour", other)),
    }
}

/// A pool back from its stored text.
pub(crate) fn pool_parse(text: &str) -> Result<Pool, StoreError> {
    text.parse().map_err(|e| corrupt("pool", e))
}

/// A count stored as an integer, as the `u32` the API uses.
pub(crate) fn count(value: i64) -> u32 {
    u32::try_from(value.max(0)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_survive_their_columns() {
        let rules = Rules::renju(ForbiddenPolicy::Claim)
            .with_opening(Opening::SwapAfterThreeFifthTwoOptions);
        let (size, set, policy, opening) = rules_columns(&rules);
        assert_eq!((set.as_str(), policy.as_str()), ("renju", "claim"));
        assert_eq!(opening, "swap_after_three_fifth_two_options");
        assert_eq!(
            rules_from_columns(size, &set, &policy, &opening).unwrap(),
            rules
        );
        assert!(rules_from_columns(17, &set, &policy, &opening).is_err());
        assert!(rules_from_columns(15, "chess", &policy, &opening).is_err());
    }

    #[test]
    fn the_leaderboard_index_and_query_use_the_provisional_limit_of_the_ratings_crate() {
        // The partial index and the query spell the limit as a literal (so the planners can match them); this
        // keeps the literal and the constant in step.
        assert_eq!(ratings::PROVISIONAL_DEVIATION, 110.0);
        for migration in [
            include_str!("../../migrations/sqlite/20261129000001_init.sql"),
            include_str!("../../migrations/postgres/20261129000001_init.sql"),
            include_str!("common.rs"),
        ] {
            assert!(migration.contains("deviation <= 110"));
        }
    }
}
