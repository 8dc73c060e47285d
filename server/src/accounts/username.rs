//! Username rules: 3–20 ASCII letters, digits, `_` or `-`, unique ignoring case (the store enforces uniqueness).

use super::error::ApiError;

/// Fewest characters in a username.
pub const MIN_LEN: usize = 3;
/// Most characters in a username.
pub const MAX_LEN: usize = 20;
/// Guests are named `guest-…`; an account with such a name could pass for a guest, or a guest for it.
const RESERVED_PREFIX: &str = "guest-";

/// Checks a username as typed; returns it unchanged when valid (case is kept for display).
pub fn validate(name: &str) -> Result<&str, ApiError> {
    let length_ok = (MIN_LEN..=MAX_LEN).contains(&name.len());
    let chars_ok = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let reserved = name
        .get(..RESERVED_PREFIX.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(RESERVED_PREFIX));
    if length_ok && chars_ok && !reserved {
        Ok(name)
    } else {
        Err(ApiError::InvalidUsername)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_three_to_twenty_allowed_characters_pass() {
        for name in [
            "abc",
            "Renju_Fan-99",
            "a_b",
            "ABCDEFGHIJKLMNOPQRST",
            "---",
            "guest",
        ] {
            assert_eq!(validate(name).unwrap(), name);
        }
    }

    #[test]
    fn too_short_too_long_or_odd_characters_fail() {
        for name in [
            "",
            "ab",
            "ABCDEFGHIJKLMNOPQRSTU",
            "white space",
            "dot.name",
            "émile",
            "tab\tname",
            "名人名人",
            "semi;colon",
        ] {
            assert_eq!(
                validate(name).unwrap_err().code(),
                "invalid_username",
                "{name:?}"
            );
        }
    }

    #[test]
    fn guest_names_are_reserved_in_any_case() {
        for name in ["guest-abc123", "Guest-x", "GUEST-"] {
            assert_eq!(
                validate(name).unwrap_err().code(),
                "invalid_username",
                "{name:?}"
            );
        }
    }
}
