//! Username rules (#36, #35): 3–20 characters, each a Unicode letter or digit (by general category, after NFC
//! normalisation, and allowed in identifiers by UTS #39's General Security Profile), a combining mark after one
//! (at most two in a row: Devanagari and Thai need them, stacks of them are noise), `_` or `-`. Length counts
//! characters, not bytes. A name made only of Chinese, Japanese or Korean characters (Han, kana, Hangul syllables)
//! may have 2 (`李雷`, `王芳`: two-character names are common in Chinese, and each character is a syllable).
//! Scripts may not mix beyond UTS #39's "highly restrictive" level: one script, or Latin with Han and kana, Han
//! and Bopomofo, or Han and Hangul (`Renju李`), never Latin with Cyrillic or Greek (`Аlice` with a Cyrillic `А`).
//!
//! Names are unique ignoring case, and not confusable with a taken name (the store enforces both, with
//! `name_key` and `name_skeleton`). New names may not look like a guest's or the computer's, nor like a staff or
//! system name ([`RESERVED_WORDS`]), compared by look-alike key.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

use super::error::ApiError;

/// Fewest characters in a username.
pub const MIN_LEN: usize = 3;
/// Fewest characters in a username made only of Chinese, Japanese or Korean characters (see `is_cjk`).
pub const MIN_LEN_CJK: usize = 2;
/// Most characters in a username.
pub const MAX_LEN: usize = 20;
/// Most combining marks in a row.
const MAX_MARKS_IN_A_ROW: usize = 2;

/// Guests are named `guest-…`; an account whose name looks like that (`guest-…`, `guest_…`, `GUEST-…`, `gueSt_…`,
/// compared by look-alike key) could pass for a guest, or a guest for it. The computer's accounts are
/// `computer-1` … `computer-8` and external engines' `engine-NAME` (`crate::computer::account`): nobody else may
/// look like them. A name is reserved when its key is one of these words' followed by `_` or `-`.
const RESERVED_PREFIXES: [&str; 3] = ["guest", "computer", "engine"];

/// Names of staff, of the system and of the server's own players: a name whose look-alike key is one of these
/// words', after dropping digits, `_` and `-` from its end (`admin`, `Adm1n`, `admin_2`, `ROOT99`, `mod_`), could
/// speak for the site. Words that merely contain one (`modest`, `rootbeer`, `computerfan`) are free.
pub const RESERVED_WORDS: [&str; 27] = [
    "admin",
    "administrator",
    "moderator",
    "mod",
    "staff",
    "system",
    "root",
    "support",
    "computer",
    "engine",
    "guest",
    "official",
    "server",
    "operator",
    "sysop",
    "webmaster",
    "anonymous",
    // The same in Chinese (simplified and traditional where they differ): administrator, moderator, system,
    // customer service, official, computer, guest.
    "管理员",
    "管理員",
    "版主",
    "系统",
    "系統",
    "客服",
    "官方",
    "电脑",
    "電腦",
    "游客",
];

/// Whether `c` is a Chinese, Japanese or Korean character that stands for a syllable or more: a Han ideograph, a
/// kana, or a Hangul syllable.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}' // CJK Unified Ideographs Extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK Unified Ideographs
        | '\u{AC00}'..='\u{D7A3}' // Hangul syllables
        | '\u{F900}'..='\u{FAFF}' // CJK Compatibility Ideographs (NFC maps most to unified ones)
        | '\u{20000}'..='\u{3134F}' // Extensions B–H
    )
}

fn is_separator(c: char) -> bool {
    c == '_' || c == '-'
}

/// Checks a username's form (length, characters, scripts) and returns it in NFC (case is kept for display).
/// Login and profile look-ups use this alone, so names registered under older rules (all of them ASCII, which
/// these rules allow) keep working.
pub fn validate(name: &str) -> Result<String, ApiError> {
    let name: String = name.nfc().collect();
    let count = name.chars().count();
    let min = if count > 0 && name.chars().all(is_cjk) {
        MIN_LEN_CJK
    } else {
        MIN_LEN
    };
    if !(min..=MAX_LEN).contains(&count) {
        return Err(ApiError::InvalidUsername);
    }
    let mut marks = 0;
    let mut after_letter = false;
    for c in name.chars() {
        if is_separator(c) {
            (marks, after_letter) = (0, false);
            continue;
        }
        if !c.is_ascii() && !c.identifier_allowed() {
            return Err(ApiError::InvalidUsername);
        }
        match c.general_category_group() {
            GeneralCategoryGroup::Letter => (marks, after_letter) = (0, true),
            GeneralCategoryGroup::Number
                if c.general_category() == GeneralCategory::DecimalNumber =>
            {
                (marks, after_letter) = (0, true)
            }
            GeneralCategoryGroup::Mark if after_letter && marks < MAX_MARKS_IN_A_ROW => marks += 1,
            _ => return Err(ApiError::InvalidUsername),
        }
    }
    // The restriction level reads scripts only; `_` and `-` belong to none and are not identifier characters.
    let letters: String = name.chars().filter(|&c| !is_separator(c)).collect();
    if !letters.check_restriction_level(RestrictionLevel::HighlyRestrictive) {
        return Err(ApiError::InvalidUsername);
    }
    Ok(name)
}

/// Checks a name to register: [`validate`], and not imitating a guest, the computer, staff or the system
/// ([`ApiError::ReservedUsername`]).
pub fn validate_new(name: &str) -> Result<String, ApiError> {
    let name = validate(name)?;
    if is_reserved(&name) {
        return Err(ApiError::ReservedUsername);
    }
    Ok(name)
}

/// Whether `name` looks like a guest's, the computer's, or a staff or system name.
pub fn is_reserved(name: &str) -> bool {
    let key = store::name_skeleton(name);
    let prefixed = RESERVED_PREFIXES.iter().any(|word| {
        key.strip_prefix(&store::name_skeleton(word))
            .is_some_and(|rest| rest.starts_with(is_separator))
    });
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit() || is_separator(c));
    let stem_key = store::name_skeleton(stem);
    prefixed
        || RESERVED_WORDS
            .iter()
            .any(|word| stem_key == store::name_skeleton(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(name: &str) -> &'static str {
        validate_new(name).unwrap_err().code()
    }

    #[test]
    fn names_of_three_to_twenty_allowed_characters_pass() {
        for name in [
            "abc",
            "Renju_Fan-99",
            "a_b",
            "ABCDEFGHIJKLMNOPQRST",
            "---",
            "guestbook",
            "computerfan",
            "modest",
            "rootbeer",
        ] {
            assert_eq!(validate_new(name).unwrap(), name);
        }
    }

    #[test]
    fn chinese_and_other_letters_pass() {
        for name in [
            "李雷",
            "韩梅梅",
            "五子棋高手",
            "李雷_99",
            "Renju李雷",
            "émile",
            "Zoë-3",
            "Дмитрий",
            "Σωκράτης",
            "たなか",
            "김민수",
            "नमस्ते",
            "ครูสมชาย",
            "名人名人",
            "一二三四五六七八九十一二三四五六七八九十",
        ] {
            assert_eq!(validate_new(name).unwrap(), name, "{name}");
        }
    }

    #[test]
    fn a_decomposed_name_is_kept_composed() {
        assert_eq!(validate("e\u{301}mile").unwrap(), "\u{e9}mile");
    }

    #[test]
    fn two_characters_are_enough_only_for_chinese_japanese_or_korean() {
        for name in ["李雷", "王芳", "ゆき", "민수"] {
            assert_eq!(validate_new(name).unwrap(), name, "{name}");
        }
        for name in ["ab", "李a", "李_", "Ли", "12", "李"] {
            assert_eq!(refused(name), "invalid_username", "{name}");
        }
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        // 20 Han characters are 60 bytes; 21 are too many.
        assert!(validate(&"棋".repeat(20)).is_ok());
        assert_eq!(
            validate(&"棋".repeat(21)).unwrap_err().code(),
            "invalid_username"
        );
        assert!(validate(&"é".repeat(20)).is_ok());
    }

    #[test]
    fn too_short_too_long_or_odd_characters_fail() {
        for name in [
            "",
            "ab",
            "ABCDEFGHIJKLMNOPQRSTU",
            "white space",
            "李 雷",
            "dot.name",
            "tab\tname",
            "semi;colon",
            "zero\u{200B}width",
            "full\u{FF41}width",
            "emoji😀",
            "\u{301}abc",
            "a\u{301}\u{302}\u{303}\u{304}bc",
            "ⅫⅫⅫ",
            "x²y",
        ] {
            assert_eq!(
                validate(name).unwrap_err().code(),
                "invalid_username",
                "{name:?}"
            );
        }
    }

    #[test]
    fn mixed_script_look_alikes_fail() {
        // A Cyrillic А in a Latin name; Greek ο inside Latin; Cyrillic with Greek; Han with Cyrillic.
        for name in ["\u{410}lice", "b\u{3BF}b", "Дмитρий", "李雷Дима"] {
            assert_eq!(
                validate(name).unwrap_err().code(),
                "invalid_username",
                "{name:?}"
            );
        }
    }

    #[test]
    fn staff_and_system_names_and_their_look_alikes_are_reserved() {
        for name in [
            "admin",
            "Admin",
            "adm1n",
            "ADMlN",
            "admin_",
            "_admin",
            "admin2",
            "admin_2",
            "administrator",
            "moderator",
            "m0derator",
            "mod",
            "mod99",
            "staff",
            "system",
            "system32",
            "root",
            "r00t",
            "support",
            "computer",
            "engine",
            "guest",
            "GUEST-",
            "管理员",
            "管理員",
            "系统",
            "客服",
            "游客",
        ] {
            assert_eq!(refused(name), "reserved_username", "{name:?}");
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
            "computer--1",
        ] {
            assert_eq!(refused(name), "reserved_username", "{name:?}");
        }
        assert_eq!(validate_new("computerfan").unwrap(), "computerfan");
    }

    #[test]
    fn names_that_imitate_guests_are_reserved() {
        for name in [
            "guest-abc123",
            "Guest-x",
            "guest_abc123",
            "gueSt_k3x9pa",
            "GuEsT-x",
            "guest-abc",
        ] {
            assert_eq!(refused(name), "reserved_username", "{name:?}");
        }
        for name in ["guestbook", "a-guest-b", "guests"] {
            assert_eq!(validate_new(name).unwrap(), name);
        }
    }

    #[test]
    fn a_name_from_before_the_reservation_still_has_a_valid_form() {
        for name in ["guest_abc123", "admin", "computer"] {
            assert_eq!(validate(name).unwrap(), name);
        }
    }
}
