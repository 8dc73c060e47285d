//! Username rules: 3–20 ASCII letters, digits, `_` or `-`, unique ignoring case, and not confusable with a taken
//! name or a guest's (the store enforces both uniqueness rules, with `name_key` and `name_skeleton`).

use super::error::ApiError;

/// Fewest characters in a username.
pub const MIN_LEN: usize = 3;
/// Most characters in a username.
pub const MAX_LEN: usize = 20;
/// Guests are named `guest-…`; an account whose name looks like that (`guest-…`, `guest_…`, `GUEST-…`, `gueSt_…`,
/// compared by confusables skeleton) could pass for a guest, or a guest for it. The computer's accounts are
/// `computer-1` … `computer-8` and external engines' `engine-NAME` (`crate::computer::account`): nobody else may
/// look like them.
const RESERVED_PREFIXES: [&str; 6] = [
    "guest-",
    "guest_",
    "computer-",
    "computer_",
    "engine-",
    "engine_",
];

/// Checks a username's form (length and characters); returns it unchanged when valid (case is kept for display).
/// Login uses this alone, so names registered under older rules keep working.
pub fn validate(name: &str) -> Result<&str, ApiError> {
    let length_ok = (MIN_LEN..=MAX_LEN).contains(&name.len());
    let chars_ok = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if length_ok && chars_ok {
        Ok(name)
    } else {
        Err(ApiError::InvalidUsername)
    }
}

/// Checks a name to register: [`validate`], and not imitating a guest's name.
pub fn validate_new(name: &str) -> Result<&str, ApiError> {
    let name = validate(name)?;
    let key = store::name_skeleton(name);
    if RESERVED_PREFIXES
        .iter()
        .any(|prefix| key.starts_with(&store::name_skeleton(prefix)))
    {
        return Err(ApiError::InvalidUsername);
    }
    Ok(name)
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
            assert_eq!(validate_new(name).unwrap(), name);
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
    fn names_that_imitate_the_computer_are_reserved() {
        for name in [
            "computer-1",
            "Computer-8",
            "COMPUTER_x",
            "c0mputer-5",
            "engine-pbrain",
        ] {
            assert_eq!(
                validate_new(name).unwrap_err().code(),
                "invalid_username",
                "{name:?}"
            );
        }
        assert_eq!(validate_new("computerfan").unwrap(), "computerfan");
    }

    #[test]
    fn names_that_imitate_guests_are_reserved() {
        for name in [
            "guest-abc123",
            "Guest-x",
            "GUEST-",
            "guest_abc123",
            "gueSt_k3x9pa",
            "GuEsT-x",
        ] {
            assert_eq!(
                validate_new(name).unwrap_err().code(),
                "invalid_username",
                "{name:?}"
            );
        }
        for name in ["guest", "guestbook", "a-guest-b", "guests"] {
            assert_eq!(validate_new(name).unwrap(), name);
        }
    }

    #[test]
    fn a_name_from_before_the_reservation_still_has_a_valid_form() {
        assert_eq!(validate("guest_abc123").unwrap(), "guest_abc123");
    }
}
