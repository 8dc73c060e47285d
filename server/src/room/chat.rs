//! Chat text: what a room accepts and how it cleans it before anyone else sees it.

use protocol::{code, MAX_CHAT_CHARS};

use super::RoomError;

/// The message as others will see it: control characters (line breaks included), bidirectional overrides and
/// isolates, zero-width and other invisible format characters removed, the ends trimmed. `bad_chat` when nothing
/// is left or it is longer than [`MAX_CHAT_CHARS`].
///
/// Those characters let a message pose as another player's (a right-to-left override reverses what follows it),
/// hide text, or break the layout of every client that shows it; none is needed to chat.
pub fn clean(text: &str) -> Result<String, RoomError> {
    let kept: String = text.chars().filter(|&c| !invisible(c)).collect();
    let kept = kept.trim();
    let chars = kept.chars().count();
    if chars == 0 || chars > MAX_CHAT_CHARS {
        return Err(RoomError::new(
            code::BAD_CHAT,
            format!("a chat message has 1 to {MAX_CHAT_CHARS} visible characters"),
        ));
    }
    Ok(kept.to_owned())
}

/// Control characters (Unicode `Cc`) and the format characters (`Cf`) that chat has no use for.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}'                  // soft hyphen
            | '\u{061C}'                // Arabic letter mark
            | '\u{180E}'                // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}'   // zero-width space, joiners, left-to-right and right-to-left marks
            | '\u{202A}'..='\u{202E}'   // bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}'   // word joiner, invisible operators
            | '\u{2066}'..='\u{206F}'   // bidi isolates and deprecated format characters
            | '\u{FEFF}'                // zero-width no-break space (byte order mark)
            | '\u{FFF9}'..='\u{FFFB}'   // interlinear annotation
            | '\u{E0000}'..='\u{E007F}' // tags
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bidi_and_zero_width_characters_are_removed() {
        assert_eq!(clean("good\u{202E}kcul").unwrap(), "goodkcul");
        assert_eq!(clean("a\u{200B}b\u{200D}c\u{FEFF}d").unwrap(), "abcd");
        assert_eq!(clean("line\none\r\ttwo\u{0007}").unwrap(), "lineonetwo");
        assert_eq!(clean("\u{2066}x\u{2069}\u{E0041}").unwrap(), "x");
        assert_eq!(clean("  gl hf  ").unwrap(), "gl hf");
        assert_eq!(
            clean("五子棋 👍").unwrap(),
            "五子棋 👍",
            "ordinary text stays"
        );
    }

    #[test]
    fn a_message_of_only_invisible_characters_is_refused() {
        let e = clean("\u{200B}\u{202E}\n ").unwrap_err();
        assert_eq!(e.code, code::BAD_CHAT);
    }

    #[test]
    fn the_length_limit_counts_visible_characters() {
        let at_limit = "x".repeat(MAX_CHAT_CHARS);
        assert_eq!(clean(&at_limit).unwrap(), at_limit);
        assert!(clean(&format!("{at_limit}\u{200B}\u{200B}")).is_ok());
        assert!(clean(&format!("{at_limit}x")).is_err());
    }
}
