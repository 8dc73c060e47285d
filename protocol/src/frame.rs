//! Framing: a message plus its request id, to and from JSON text.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::code;

/// A message enum whose variants are told apart by the `"t"` field.
pub trait Tagged {
    /// Every valid `"t"` value, so that an unknown type is told apart from a known type with bad fields.
    const TYPES: &'static [&'static str];
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
pub fn encode<M: Serialize>(msg: &M, rid: Option<u64>) -> String {
    match rid {
        None => serde_json::to_string(msg).expect("protocol messages always serialise"),
        Some(rid) => {
            let mut v = serde_json::to_value(msg).expect("protocol messages always serialise");
            if let Value::Object(map) = &mut v {
                map.insert("rid".to_owned(), Value::from(rid));
            }
            v.to_string()
        }
    }
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
