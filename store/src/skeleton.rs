//! The look-alike key of a username: names that a reader could mistake for one another (`AIice` and `Alice`,
//! `j0hn` and `john`, `rnary` and `mary`, `vvill` and `will`, `clown` and `down`, `adm1n` and `admin`, `Alice_`
//! and `Alice`) have the same key, and the users table keeps keys unique, so the second such name is refused
//! however close together the two registrations come.
//!
//! The key is Unicode's confusables skeleton (UTS #39, `unicode-security`) around a lower-casing, then a few folds
//! of our own for what UTS #39 leaves apart but a reader of a small, sans-serif name on a player card does not:
//!
//! 1. skeleton, lower case, skeleton again. The first skeleton maps `I` to `l` while it is still a capital
//!    (`AIice` looks like `Alice`, `aiice` does not); lower-casing then makes `AIice` and `alice` one key; the
//!    second skeleton maps what lower-casing made, such as `m`, to its prototype (`rn`), and `0` (made `O` by the
//!    first) and `1` to `o` and `l`;
//! 2. letters that two letters imitate become those two, as UTS #39 does for `m`: `w` is `vv`, `d` is `cl`;
//! 3. `i` is `l` (so `1`, `l`, `I`, `i` and `|` are all one), which makes `adm1n` the key of `admin`;
//! 4. `_` and `-` at either end are dropped and a run of them counts as its first (`Alice_`, `_Alice` and
//!    `Alice` are one key, `a__b` is `a_b`), while `a-b` and `a_b` stay apart.
//!
//! Names equal ignoring case are refused by the lower-cased `name_key` already, so the key need not also be
//! case-blind (`ALICE`'s key is `allce`). The key is stored: changing it needs a migration that clears the stored
//! keys (the store refills them when it opens, see `backfill_name_skeletons`), as `20261204001600` did for steps
//! 2–4.

use unicode_security::skeleton;

/// The look-alike key of `name`.
pub fn name_skeleton(name: &str) -> String {
    let first: String = skeleton(name).collect();
    let second: String = skeleton(&first.to_lowercase()).collect();
    let mut key = String::with_capacity(second.len() + 4);
    // A separator is written only once something follows it, so none survives at either end.
    let mut separator = None;
    for c in second.chars() {
        if c == '_' || c == '-' {
            separator.get_or_insert(c);
            continue;
        }
        if let Some(s) = separator.take() {
            if !key.is_empty() {
                key.push(s);
            }
        }
        match c {
            'w' => key.push_str("vv"),
            'd' => key.push_str("cl"),
            'i' => key.push('l'),
            c => key.push(c),
        }
    }
    key
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
    fn letters_that_two_letters_imitate_share_a_key_with_them() {
        for (a, b) in [
            ("will", "vvill"),
            ("Will", "VVill"),
            ("down", "clown"),
            ("mary", "rnary"),
            ("warden", "vvarclen"),
        ] {
            assert_eq!(name_skeleton(a), name_skeleton(b), "{a} and {b}");
        }
    }

    #[test]
    fn one_ell_eye_and_zero_oh_share_a_key() {
        for (a, b) in [
            ("admin", "adm1n"),
            ("admin", "admln"),
            ("admin", "ADMIN"),
            ("admin", "AdmIn"),
            ("bill", "b1ll"),
            ("bill", "biii"),
            ("root", "r00t"),
            ("root", "RO0T"),
        ] {
            assert_eq!(name_skeleton(a), name_skeleton(b), "{a} and {b}");
        }
    }

    #[test]
    fn separators_at_the_ends_or_repeated_do_not_count() {
        for (a, b) in [
            ("Alice", "Alice_"),
            ("Alice", "_Alice"),
            ("Alice", "--Alice--"),
            ("a_b", "a__b"),
            ("a-b", "a---b"),
            ("a_b", "a_-b"),
        ] {
            assert_eq!(name_skeleton(a), name_skeleton(b), "{a} and {b}");
        }
    }

    #[test]
    fn look_alikes_across_scripts_share_a_key() {
        // Cyrillic а, о and е look like Latin a, o and e.
        assert_eq!(name_skeleton("аое"), name_skeleton("aoe"));
        // Han 一 (one) and katakana ー (the long vowel mark).
        assert_eq!(name_skeleton("一二三"), name_skeleton("ー二三"));
    }

    #[test]
    fn different_names_keep_different_keys() {
        for (a, b) in [
            ("alice", "alicia"),
            ("bob", "rob"),
            ("ann", "anna"),
            ("a-b", "a_b"),
            ("will", "wil"),
            ("down", "dawn"),
            ("李雷", "李雪"),
            ("李雷", "雷李"),
            ("computer-1", "computer-2"),
        ] {
            assert_ne!(name_skeleton(a), name_skeleton(b), "{a} and {b}");
        }
    }

    #[test]
    fn chinese_names_are_their_own_keys() {
        assert_eq!(name_skeleton("李雷"), "李雷");
        assert_eq!(name_skeleton("韩梅梅"), "韩梅梅");
    }
}
