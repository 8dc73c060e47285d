//! The look-alike key of a username: names that a reader could mistake for one another (`AIice` and `Alice`,
//! `j0hn` and `john`, `rnary` and `mary`) have the same key, and the users table keeps keys unique, so the second
//! such name is refused however close together the two registrations come.
//!
//! The key is Unicode's confusables skeleton (UTS #39, `unicode-security`) around a lower-casing: skeleton, lower
//! case, skeleton again. The first skeleton maps `I` to `l` while it is still a capital (`AIice` looks like
//! `Alice`, `aiice` does not); lower-casing then makes `AIice` and `alice` one key; the second skeleton maps what
//! lower-casing made, such as `m`, to its prototype. Names equal ignoring case are refused by the lower-cased
//! `name_key` already, so the key need not also be case-blind (`ALICE`'s key is `allce`).

use unicode_security::skeleton;

/// The look-alike key of `name`.
pub fn name_skeleton(name: &str) -> String {
    let first: String = skeleton(name).collect();
    skeleton(&first.to_lowercase()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_names_share_a_key() {
        for (a, b) in [
            ("Alice", "AIice"),
            ("Alice", "A1ice"),
            ("aIice", "alice"),
            ("ALICE", "AL1CE"),
            ("john", "j0hn"),
            ("mary", "rnary"),
            ("Bob_1", "bob_l"),
            ("guest-abc", "GUEST-abc"),
        ] {
            assert_eq!(name_skeleton(a), name_skeleton(b), "{a} and {b}");
        }
    }

    #[test]
    fn different_names_keep_different_keys() {
        for (a, b) in [
            ("alice", "alicia"),
            ("bob", "rob"),
            ("ann", "anna"),
            ("a-b", "a_b"),
        ] {
            assert_ne!(name_skeleton(a), name_skeleton(b), "{a} and {b}");
        }
    }
}
