//! Conversions between the store's own types and their stored text, shared by both databases. The store knows
//! no game: configurations and actions are the caller's texts, stored and returned as given.

use ratings::Pool;

use crate::{Side, StoreError};

/// A row that does not describe a valid value: the database was changed behind our back.
pub(crate) fn corrupt(what: &str, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Database(format!("corrupt {what} in the database: {detail}"))
}

/// A side back from its stored text ([`Side::as_str`]).
pub(crate) fn side_parse(text: &str) -> Result<Side, StoreError> {
    match text {
        "black" => Ok(Side::Black),
        "white" => Ok(Side::White),
        other => Err(corrupt("side", other)),
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

/// A move number the caller gave ([`crate::StoredAction::ply`]), as stored.
pub(crate) fn ply_column(ply: Option<u32>) -> Option<i64> {
    ply.map(i64::from)
}

/// A stored move number back as the API's `u32`.
pub(crate) fn ply_parse(value: Option<i64>) -> Result<Option<u32>, StoreError> {
    value
        .map(|v| u32::try_from(v).map_err(|e| corrupt("action ply", e)))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_survive_their_text_and_other_texts_are_corrupt() {
        for side in [Side::Black, Side::White] {
            assert_eq!(side_parse(side.as_str()), Ok(side));
        }
        assert!(side_parse("Black").is_err());
        assert_eq!(ply_parse(ply_column(Some(7))), Ok(Some(7)));
        assert_eq!(ply_parse(None), Ok(None));
        assert!(ply_parse(Some(-1)).is_err());
    }
}
