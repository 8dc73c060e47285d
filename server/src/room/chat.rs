//! Chat text: what a room accepts, how it cleans it before anyone else sees it, and the history it keeps.

use std::collections::VecDeque;

use protocol::{code, ChatLine, RoomEvent, ServerMessage, MAX_CHAT_CHARS};
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use super::task::Room;
use super::RoomError;
use crate::ws::outbox::ConnId;

/// The message as others will see it: control characters (line breaks included), bidirectional overrides and
/// isolates, zero-width and other invisible format characters removed, combining marks beyond
/// `MAX_MARKS_PER_CHAR` on one character dropped, the ends trimmed. `bad_chat` when nothing visible is left
/// (only spaces, blank-looking letters such as the Hangul filler, or marks with nothing to sit on) or it is longer
/// than [`MAX_CHAT_CHARS`].
///
/// Those characters let a message pose as another player's (a right-to-left override reverses what follows it),
/// hide text, or break the layout of every client that shows it (hundreds of stacked marks draw over the lines
/// around them); none is needed to chat.
pub fn clean(text: &str) -> Result<String, RoomError> {
    let mut kept = String::with_capacity(text.len());
    let mut marks = 0;
    for c in text.chars().filter(|&c| !invisible(c)) {
        if is_mark(c) {
            marks += 1;
            if marks > MAX_MARKS_PER_CHAR {
                continue;
            }
        } else {
            marks = 0;
        }
        kept.push(c);
    }
    let kept = kept.trim();
    let chars = kept.chars().count();
    if !kept.chars().any(visible) || chars > MAX_CHAT_CHARS {
        return Err(RoomError::new(
            code::BAD_CHAT,
            format!("a chat message has 1 to {MAX_CHAT_CHARS} visible characters"),
        ));
    }
    Ok(kept.to_owned())
}

/// The most combining marks kept on one character: enough for any script's real clusters (Vietnamese stacks two,
/// Thai and the Indic scripts three or four), far from the hundreds of "zalgo" text.
pub const MAX_MARKS_PER_CHAR: usize = 4;

/// Control characters (Unicode `Cc`) and format characters (`Cf`): chat has no use for either.
fn invisible(c: char) -> bool {
    c.is_control()
        || c.general_category() == GeneralCategory::Format
        || matches!(c,
            '\u{180E}'                  // Mongolian vowel separator (a format character in older Unicode)
            | '\u{FFF9}'..='\u{FFFB}'   // interlinear annotation
            | '\u{E0000}'..='\u{E007F}' // tags
        )
}

/// A combining mark (`Mn`, `Mc`, `Me`): drawn on the character before it.
fn is_mark(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
    )
}

/// A character that shows something by itself: not a space, not a mark, not one of the letters and symbols that
/// are drawn blank (Hangul fillers, the braille blank), which made "empty" messages pass the first cleaning.
fn visible(c: char) -> bool {
    !c.is_whitespace()
        && !is_mark(c)
        && !matches!(
            c,
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}' | '\u{034F}'
        )
}

/// What a room keeps of its two chats, so that a reload (a rejoin) and a late spectator read what was said: the
/// last `max_lines` lines of each, and of each at most `max_bytes` of names and text (the oldest lines go first), so
/// a room's memory stays bounded however long and loud its chat.
#[derive(Debug)]
pub struct ChatHistory {
    players: Lines,
    spectators: Lines,
    /// The order in which lines were said across both chats, to merge them.
    said: u64,
}

/// One chat's kept lines, with the order each was said in.
#[derive(Debug)]
struct Lines {
    lines: VecDeque<(u64, ChatLine)>,
    bytes: usize,
    max_lines: usize,
    max_bytes: usize,
}

/// The bytes a line costs the history: its name and text.
fn line_bytes(line: &ChatLine) -> usize {
    line.from.len() + line.text.len()
}

impl Lines {
    fn new(max_lines: usize, max_bytes: usize) -> Lines {
        Lines {
            lines: VecDeque::new(),
            bytes: 0,
            max_lines,
            max_bytes,
        }
    }

    /// Drops the line kept under `id`; whether there was one.
    fn remove(&mut self, id: i64) -> bool {
        let before = self.lines.len();
        let mut freed = 0;
        self.lines.retain(|(_, line)| {
            let keep = line.line != Some(id);
            if !keep {
                freed += line_bytes(line);
            }
            keep
        });
        self.bytes -= freed;
        self.lines.len() != before
    }

    fn push(&mut self, at: u64, line: ChatLine) {
        self.bytes += line_bytes(&line);
        self.lines.push_back((at, line));
        while self.lines.len() > self.max_lines || self.bytes > self.max_bytes {
            match self.lines.pop_front() {
                Some((_, old)) => self.bytes -= line_bytes(&old),
                None => break,
            }
        }
    }
}

impl ChatHistory {
    /// An empty history keeping `max_lines` lines and `max_bytes` bytes of each chat.
    pub fn new(max_lines: usize, max_bytes: usize) -> ChatHistory {
        ChatHistory {
            players: Lines::new(max_lines, max_bytes),
            spectators: Lines::new(max_lines, max_bytes),
            said: 0,
        }
    }

    /// Keeps a line that was said (`spectator`: in the spectators' chat), dropping the oldest of its chat when
    /// that chat is over its bounds; `line` is the id the community's store kept it under, if it did.
    pub fn say(&mut self, from: String, text: String, spectator: bool, line: Option<i64>) {
        self.said += 1;
        let line = ChatLine {
            from,
            text,
            spectator,
            line,
        };
        if spectator {
            self.spectators.push(self.said, line);
        } else {
            self.players.push(self.said, line);
        }
    }

    /// Forgets the line kept under `id` (a moderator removed it), from either chat; whether it was kept.
    pub fn remove(&mut self, id: i64) -> bool {
        let players = self.players.remove(id);
        self.spectators.remove(id) || players
    }

    /// The lines a receiver reads, oldest first: the players' chat, merged with the spectators' chat in the order
    /// the lines were said when the receiver sees that chat.
    pub fn lines(&self, with_spectators: bool) -> Vec<ChatLine> {
        let mut players = self.players.lines.iter().peekable();
        let mut spectators = self
            .spectators
            .lines
            .iter()
            .filter(|_| with_spectators)
            .peekable();
        let mut out = Vec::new();
        loop {
            let next = match (players.peek(), spectators.peek()) {
                (Some(p), Some(s)) if p.0 < s.0 => players.next(),
                (Some(_), Some(_)) | (None, Some(_)) => spectators.next(),
                (Some(_), None) => players.next(),
                (None, None) => break,
            };
            if let Some((_, line)) = next {
                out.push(line.clone());
            }
        }
        out
    }

    /// Bytes of names and text kept, over both chats.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.players.bytes + self.spectators.bytes
    }
}

/// The room's side of chat: allowances, the history, and who reads which chat.
impl Room {
    /// A message from a member: players' chat is a room event everyone reads; spectators' chat goes to the
    /// spectators and the players who chose to see it, outside the versioned events. Each member has an allowance,
    /// and the spectators share one per room.
    pub(super) fn chat(
        &mut self,
        conn: ConnId,
        rid: Option<u64>,
        text: &str,
        line: Option<i64>,
    ) -> Result<(), RoomError> {
        let text = clean(text)?;
        let now = self.env.clock.now();
        let Some(member) = self.members.get_mut(&conn) else {
            return Err(RoomError::new(code::NOT_IN_ROOM, "join the room first"));
        };
        if !member.chat.take(now) {
            return Err(RoomError::new(
                code::CHAT_RATE_LIMITED,
                "you are chatting too fast; wait a moment",
            ));
        }
        let from = member.identity.name.clone();
        if member.seat.is_some() {
            self.chat_history
                .say(from.clone(), text.clone(), false, line);
            let event = RoomEvent::Chat {
                from,
                spectator: false,
                text,
                line,
            };
            self.emit(event, Some((conn, rid)), None);
            return Ok(());
        }
        if !self.spectator_chat.take(now) {
            return Err(RoomError::new(
                code::CHAT_RATE_LIMITED,
                "the spectators' chat is busy; wait a moment",
            ));
        }
        self.chat_history
            .say(from.clone(), text.clone(), true, line);
        let msg = ServerMessage::SpectatorChat {
            room: self.id.to_string(),
            from,
            text,
            line,
        };
        // A sender that fell behind gets the snapshot as the answer to its request (as `emit` does), then its line.
        let sender_behind = self.fanout.is_behind(conn);
        if sender_behind {
            self.resync(conn, rid);
        }
        let mine = rid.filter(|_| !sender_behind).map(|rid| (conn, rid));
        let to: Vec<ConnId> = self
            .members
            .iter()
            .filter(|(_, m)| m.show_spectators)
            .map(|(&id, _)| id)
            .collect();
        // Chat is not worth a resync: a member whose queue is full misses it.
        self.fanout.send_unversioned(&to, &msg, mine);
        Ok(())
    }

    /// A moderator removed a kept chat line (issue #38): it leaves the history (so no later snapshot carries it)
    /// and every member is told to drop it (a versioned event, so a member who reconnects hears of it too, and one
    /// whose view kept more lines than the room still drops it).
    pub(super) fn remove_chat(&mut self, line: i64) {
        self.chat_history.remove(line);
        self.emit(RoomEvent::ChatRemoved { line }, None, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[ChatLine]) -> Vec<&str> {
        lines.iter().map(|l| l.text.as_str()).collect()
    }

    #[test]
    fn the_history_keeps_the_last_max_lines_of_each_chat() {
        let mut h = ChatHistory::new(50, usize::MAX);
        for i in 1..=50 {
            h.say("p".into(), format!("p{i}"), false, None);
        }
        let kept = h.lines(false);
        assert_eq!(kept.len(), 50, "line 50 is kept");
        assert_eq!(kept[0].text, "p1");

        h.say("p".into(), "p51".into(), false, None);

        let kept = h.lines(false);
        assert_eq!(kept.len(), 50);
        assert_eq!(kept[0].text, "p2", "line 51 drops the oldest");
        assert_eq!(kept[49].text, "p51");
    }

    #[test]
    fn a_removed_line_leaves_either_chat_and_frees_its_bytes() {
        let mut h = ChatHistory::new(10, 1000);
        h.say("a".into(), "keep".into(), false, Some(1));
        h.say("b".into(), "rude".into(), false, Some(2));
        h.say("s".into(), "spam".into(), true, Some(3));
        h.say("c".into(), "unkept".into(), false, None);

        assert!(h.remove(2));
        assert!(h.remove(3));
        assert!(!h.remove(2), "gone already");
        assert!(!h.remove(99), "never kept");

        assert_eq!(texts(&h.lines(true)), ["keep", "unkept"]);
        assert_eq!(h.bytes(), 1 + 4 + 1 + 6);
    }

    #[test]
    fn each_chat_has_its_own_line_bound() {
        let mut h = ChatHistory::new(2, usize::MAX);
        h.say("p".into(), "p1".into(), false, None);
        for i in 1..=3 {
            h.say("s".into(), format!("s{i}"), true, None);
        }

        assert_eq!(
            texts(&h.lines(true)),
            ["p1", "s2", "s3"],
            "the spectators' chatter does not push out the players' line"
        );
    }

    #[test]
    fn the_byte_bound_drops_the_oldest_lines_once_exceeded() {
        // Each line costs 1 (name) + 9 (text) = 10 bytes.
        let mut h = ChatHistory::new(100, 30);
        for i in 1..=3 {
            h.say("p".into(), format!("line-{i:04}"), false, None);
        }
        assert_eq!(h.bytes(), 30, "exactly at the bound, all three stay");
        assert_eq!(h.lines(false).len(), 3);

        h.say("p".into(), "line-0004".into(), false, None);

        assert_eq!(
            texts(&h.lines(false)),
            ["line-0002", "line-0003", "line-0004"]
        );
        assert_eq!(h.bytes(), 30);
    }

    #[test]
    fn a_line_larger_than_the_byte_bound_is_not_kept() {
        let mut h = ChatHistory::new(10, 5);
        h.say("p".into(), "ok".into(), false, None);

        h.say("p".into(), "far too long".into(), false, None);

        assert!(h.lines(false).is_empty());
        assert_eq!(h.bytes(), 0);
    }

    #[test]
    fn spectators_lines_are_merged_in_the_order_they_were_said_only_when_asked() {
        let mut h = ChatHistory::new(10, 1000);
        h.say("a".into(), "p1".into(), false, None);
        h.say("s".into(), "s1".into(), true, None);
        h.say("s".into(), "s2".into(), true, None);
        h.say("b".into(), "p2".into(), false, None);
        h.say("s".into(), "s3".into(), true, None);

        assert_eq!(texts(&h.lines(true)), ["p1", "s1", "s2", "p2", "s3"]);
        assert_eq!(texts(&h.lines(false)), ["p1", "p2"]);
        assert!(h
            .lines(true)
            .iter()
            .all(|l| l.spectator == l.text.starts_with('s')));
    }

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
    fn a_message_that_only_looks_empty_is_refused() {
        // #35: these passed the first cleaning and showed as blank lines.
        for text in [
            "\u{3164}",
            "\u{115F}\u{1160}",
            "\u{2800}\u{2800} \u{FFA0}",
            "\u{0301}\u{0301}\u{0301}",
            "\u{034F}\u{2061}\u{2000}",
            "\u{1D173}\u{1D17A}",
        ] {
            let e = clean(text).unwrap_err();
            assert_eq!(e.code, code::BAD_CHAT, "{text:?}");
        }
    }

    #[test]
    fn combining_marks_are_capped_on_each_character() {
        // #35: 499 combining marks on one letter passed and drew over the lines around it.
        let zalgo = format!("a{}b", "\u{0301}".repeat(499));
        let kept = clean(&zalgo).unwrap();
        assert_eq!(kept, format!("a{}b", "\u{0301}".repeat(MAX_MARKS_PER_CHAR)));
        let marks_only = "\u{0301}".repeat(499);
        assert_eq!(clean(&marks_only).unwrap_err().code, code::BAD_CHAT);
    }

    #[test]
    fn real_text_with_marks_and_emoji_stays_as_written() {
        for text in [
            "Tiê\u{0302}\u{0301}ng Việt",
            "สวัสดีครับ",
            "नमस्ते",
            "\u{2764}\u{FE0F} gg",
            "e\u{0301}\u{0323}\u{0304}\u{0306}",
        ] {
            assert_eq!(clean(text).unwrap(), text);
        }
    }

    #[test]
    fn the_length_limit_counts_visible_characters() {
        let at_limit = "x".repeat(MAX_CHAT_CHARS);
        assert_eq!(clean(&at_limit).unwrap(), at_limit);
        assert!(clean(&format!("{at_limit}\u{200B}\u{200B}")).is_ok());
        assert!(clean(&format!("{at_limit}x")).is_err());
    }
}
