//! Framing: a message plus its request id, to and from JSON text.

use std::fmt;

use std::fmt::Write as _;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::code;

/// A message enum whose variants are told apart by the `"t"` field.
pub trait Tagged: Sized {
    /// Every valid `"t"` value, so that an unknown type is told apart from a known type with bad fields.
    const TYPES: &'static [&'static str];

    /// The most frequent message of this enum with its request id, read in one pass and without the buffering
    /// serde's derive needs for a tagged enum (it reads a whole frame into an intermediate tree to find the tag
    /// first). `None` when the text is not that message exactly as written, or its `"rid"` is not an unsigned
    /// integer or null: the general reading then takes it. `Some` only with what that reading would give
    /// (`decode` is tested against `decode_checked` on mutated frames).
    fn decode_hot(_text: &str) -> Option<Frame<Self>> {
        None
    }
}

/// A message with the request id it carries (from a client) or echoes (from the server).
#[derive(Clone, Debug, PartialEq)]
pub struct Frame<M> {
    /// The request id, if any.
    pub rid: Option<u64>,
    /// The message.
    pub msg: M,
}

/// Why a frame could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// Longer than the limit.
    TooLarge {
        /// The frame's length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Not JSON, or not a JSON object.
    BadJson(String),
    /// `"t"` is missing, not a string, or names no message.
    UnknownType(String),
    /// A known message with a missing field, or a field of the wrong type or value.
    InvalidField(String),
}

/// Why a frame could not be read, with its request id when that much could be read (so the error can echo it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The frame's `"rid"`, when it was readable.
    pub rid: Option<u64>,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// The stable error code for the wire: `too_large`, `bad_json`, `unknown_type` or `invalid_field`.
    pub fn code(&self) -> &'static str {
        match self.kind {
            DecodeErrorKind::TooLarge { .. } => code::TOO_LARGE,
            DecodeErrorKind::BadJson(_) => code::BAD_JSON,
            DecodeErrorKind::UnknownType(_) => code::UNKNOWN_TYPE,
            DecodeErrorKind::InvalidField(_) => code::INVALID_FIELD,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            DecodeErrorKind::TooLarge { len, max } => {
                write!(f, "frame of {len} bytes is over the limit of {max}")
            }
            DecodeErrorKind::BadJson(e) => write!(f, "not a JSON object: {e}"),
            DecodeErrorKind::UnknownType(t) => write!(f, "unknown message type: {t}"),
            DecodeErrorKind::InvalidField(e) => write!(f, "invalid message: {e}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Encodes a message as a JSON text frame, with the request id when given.
///
/// Every message serialises as a JSON object, so the `"rid"` goes in right after its opening brace: the message is
/// serialised once, straight to text (building a `serde_json::Value` to add one key cost more than the
/// serialising itself, on every move the server announces and every stone a client sends).
pub fn encode<M: Serialize>(msg: &M, rid: Option<u64>) -> String {
    let text = serde_json::to_string(msg).expect("protocol messages always serialise");
    match rid {
        Some(rid) => with_rid(&text, rid),
        None => text,
    }
}

/// An encoded frame with a request id added (a frame that is not a JSON object is returned as it is): for a
/// message that goes to many with the requester's copy carrying its id, serialised once.
pub fn with_rid(text: &str, rid: u64) -> String {
    if !text.starts_with('{') {
        return text.to_owned();
    }
    let mut framed = String::with_capacity(text.len() + 28);
    let _ = write!(framed, "{{\"rid\":{rid}");
    if text.len() > 2 {
        framed.push(',');
        framed.push_str(&text[1..]);
    } else {
        framed.push('}');
    }
    framed
}

/// The two fields framing reads itself; serde skips the others without building them.
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(default)]
    rid: Option<Value>,
    #[serde(default, borrow)]
    t: Option<&'a str>,
}

/// The common case, a well-formed frame of a known type, read without an intermediate tree: the head first,
/// then the message from the same text (messages ignore the `"rid"` key). `None` for anything else, which
/// [`decode_checked`] then reads step by step to say exactly what is wrong.
fn decode_fast<M: DeserializeOwned + Tagged>(text: &str) -> Option<Frame<M>> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    if let Some(frame) = M::decode_hot(text) {
        return Some(frame);
    }
    let head: Head<'_> = serde_json::from_str(text).ok()?;
    let rid = match head.rid {
        None => None,
        Some(v) => Some(v.as_u64()?),
    };
    if !M::TYPES.contains(&head.t?) {
        return None;
    }
    let msg = serde_json::from_str(text).ok()?;
    Some(Frame { rid, msg })
}

/// The `"rid"` of a frame that will not be decoded (a rate-limited one), so that its refusal still answers the
/// request: `None` when the frame is over `max_len` bytes, not a JSON object, or has no unsigned `"rid"`. Reads
/// only the two framing keys; the rest is skipped without being built.
pub fn peek_rid(text: &str, max_len: usize) -> Option<u64> {
    if text.len() > max_len || !text.trim_start().starts_with('{') {
        return None;
    }
    let head: Head<'_> = serde_json::from_str(text).ok()?;
    head.rid?.as_u64()
}

/// Decodes a JSON text frame of at most `max_len` bytes into a message and its request id.
pub fn decode<M: DeserializeOwned + Tagged>(
    text: &str,
    max_len: usize,
) -> Result<Frame<M>, DecodeError> {
    let fail = |rid, kind| DecodeError { rid, kind };
    if text.len() > max_len {
        return Err(fail(
            None,
            DecodeErrorKind::TooLarge {
                len: text.len(),
                max: max_len,
            },
        ));
    }
    if let Some(frame) = decode_fast(text) {
        return Ok(frame);
    }
    decode_checked(text)
}

/// Reads a frame (of any length) through a `serde_json::Value`, one check at a time, so a bad frame gets the
/// precise error (and its `"rid"` when that much is readable). [`decode`] answers exactly as this does, only
/// faster for well-formed frames; it is public so that tests and the fuzz target can hold it to that.
pub fn decode_checked<M: DeserializeOwned + Tagged>(text: &str) -> Result<Frame<M>, DecodeError> {
    let fail = |rid, kind| DecodeError { rid, kind };
    let value: Value = serde_json::from_str(text)
        .map_err(|e| fail(None, DecodeErrorKind::BadJson(e.to_string())))?;
    let Value::Object(mut map) = value else {
        return Err(fail(
            None,
            DecodeErrorKind::BadJson("a frame is a JSON object".to_owned()),
        ));
    };
    let rid = match map.remove("rid") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            fail(
                None,
                DecodeErrorKind::InvalidField("rid must be an unsigned integer".to_owned()),
            )
        })?),
    };
    match map.get("t") {
        Some(Value::String(t)) if M::TYPES.contains(&t.as_str()) => {}
        Some(Value::String(t)) => {
            let shown: String = t.chars().take(40).collect();
            return Err(fail(rid, DecodeErrorKind::UnknownType(shown)));
        }
        _ => {
            return Err(fail(
                rid,
                DecodeErrorKind::UnknownType("missing \"t\"".to_owned()),
            ))
        }
    }
    let msg = M::deserialize(Value::Object(map))
        .map_err(|e| fail(rid, DecodeErrorKind::InvalidField(e.to_string())))?;
    Ok(Frame { rid, msg })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClientMessage, ServerMessage};

    /// Frames that take every branch of `decode_fast`: each must decode exactly as the step-by-step reading does,
    /// error for error.
    const FRAMES: &[&str] = &[
        r#"{"t":"place","room":"r1","point":"h8","ply":3}"#,
        r#"{"rid":9,"t":"place","room":"r1","point":"h8","ply":3}"#,
        r#"  {"t":"place","room":"r1","point":"h8","ply":3,"rid":9}"#,
        r#"{"t":"place","room":"r1","point":"h8","ply":3,"rid":null}"#,
        r#"{"t":"place","room":"r1","point":"h8","ply":3,"rid":-1}"#,
        r#"{"t":"place","room":"r1","point":"h8","ply":3,"rid":1.5}"#,
        r#"{"t":"place","room":"r1","point":"h8","ply":3,"rid":"9"}"#,
        r#"{"t":"place","room":"r1","point":"h8","ply":3,"rid":1,"rid":2}"#,
        r#"{"t":"place","t":"ping","room":"r1","point":"h8","ply":3}"#,
        r#"{"t":"pl\u0061ce","room":"r1","point":"h8","ply":3,"rid":4}"#,
        r#"{"t":"place","room":"r1","point":"z99","ply":3,"rid":4}"#,
        r#"{"t":"place","room":"r1","point":"h8","ply":1e400,"rid":4}"#,
        r#"{"t":"place","room":"r1","point":"h8","rid":4}"#,
        r#"{"t":"place","room":"r1","room":"r2","point":"h8","ply":3}"#,
        r#"{"t":"place","room":"r1","point":"h8","ply":3,"extra":[1,{"a":2}]}"#,
        r#"{"t":"nope","rid":5}"#,
        r#"{"t":7,"rid":5}"#,
        r#"{"rid":5}"#,
        r#"{}"#,
        r#"{"t":"ping"}"#,
        r#"{"t":"ping","rid":18446744073709551615}"#,
        r#"{"t":"ping","rid":18446744073709551616}"#,
        r#"[1,2]"#,
        r#"["ping",3]"#,
        r#""ping""#,
        r#"{"t":"ping"} x"#,
        r#"{"t":"ping""#,
        r#"   "#,
        r#"{"t":"event","room":"r1","version":3,"event":{"kind":"chat","from":"a","text":"hi","at":1},"rid":2}"#,
    ];

    #[test]
    fn the_fast_path_decodes_every_frame_as_the_checked_path_does() {
        for text in FRAMES {
            assert_eq!(
                decode::<ClientMessage>(text, usize::MAX),
                decode_checked::<ClientMessage>(text),
                "{text}"
            );
            assert_eq!(
                decode::<ServerMessage>(text, usize::MAX),
                decode_checked::<ServerMessage>(text),
                "{text}"
            );
        }
    }

    #[test]
    fn peek_rid_reads_only_an_unsigned_rid_of_a_frame_within_the_limit() {
        let frame = r#"{"t":"place","room":"r1","point":"h8","ply":3,"rid":9}"#;
        assert_eq!(peek_rid(frame, frame.len()), Some(9));
        assert_eq!(peek_rid(frame, frame.len() - 1), None, "over the limit");
        assert_eq!(peek_rid(r#"{"t":"nope","rid":5}"#, 100), Some(5));
        assert_eq!(peek_rid(r#"{"t":"ping"}"#, 100), None);
        assert_eq!(peek_rid(r#"{"t":"ping","rid":-1}"#, 100), None);
        assert_eq!(peek_rid(r#"{"t":"ping","rid":"9"}"#, 100), None);
        assert_eq!(peek_rid(r#"[1,{"rid":2}]"#, 100), None);
        assert_eq!(peek_rid("garbage", 100), None);
    }

    #[test]
    fn the_rid_goes_first_and_the_message_is_unchanged() {
        let msg = ClientMessage::Ping {};
        assert_eq!(encode(&msg, None), r#"{"t":"ping"}"#);
        assert_eq!(encode(&msg, Some(12)), r#"{"rid":12,"t":"ping"}"#);
        let empty = serde_json::Map::new();
        assert_eq!(encode(&empty, Some(3)), r#"{"rid":3}"#);
        assert_eq!(
            encode(&[1, 2], Some(3)),
            "[1,2]",
            "only objects carry a rid"
        );
    }
}
