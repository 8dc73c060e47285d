//! The protocol as JSON Schema (draft 2020-12), generated from the message types themselves, so that client
//! authors in any language can generate their types. The server serves [`protocol_schema`] at
//! `GET /api/protocol.schema.json`; `docs/protocol.schema.json` is a checked-in copy.
//!
//! The rules crate's types travel through serde as plain strings and objects but have no schema of their own (the
//! rules crate stays free of schema code): the `…Def` types here stand in for them with hand-written schemas of
//! exactly their serde form. Tests check every value of each against its schema.

use std::borrow::Cow;

use schemars::generate::SchemaSettings;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Value};

use crate::{ClientMessage, ServerMessage};

/// A schema of a string enum, as the rules crate's `rename_all = "snake_case"` enums serialise.
fn string_enum(description: &str, values: &[&str]) -> Schema {
    json_schema!({
        "type": "string",
        "enum": values,
        "description": description,
    })
}

macro_rules! stand_in {
    ($(#[$doc:meta])* $def:ident, $name:literal, $schema:expr) => {
        $(#[$doc])*
        pub struct $def;

        impl JsonSchema for $def {
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                $schema
            }
        }
    };
}

/// Every point notation a board of the largest size (20) has, as `rules::Point` reads it: a column letter (either
/// case; the server writes lower case) and a row number from 1, with no leading zero.
pub const POINT_PATTERN: &str = "^[a-tA-T](?:[1-9]|1[0-9]|20)$";

stand_in!(
    /// The schema of `rules::Point`: a string such as `"h8"`.
    PointDef,
    "Point",
    json_schema!({
        "type": "string",
        "pattern": POINT_PATTERN,
        "description": "A point: column letter then row number, `a1` bottom left, `h8` the centre of 15x15 \
                        (columns a–o and rows 1–15 on 15x15, a–s and 1–19 on 19x19, a–t and 1–20 on 20x20).",
        "examples": ["h8"],
    })
);

stand_in!(
    /// The schema of `rules::Color`.
    ColorDef,
    "Color",
    string_enum("A stone colour, and so a side: black moves first.", &["black", "white"])
);

stand_in!(
    /// The schema of `rules::ForbiddenKind`.
    ForbiddenKindDef,
    "ForbiddenKind",
    string_enum(
        "Which Renju restriction a black move breaks.",
        &["overline", "double_four", "double_three"]
    )
);

stand_in!(
    /// The schema of `rules::RuleSet`.
    RuleSetDef,
    "RuleSet",
    string_enum(
        "How five-in-a-row is judged.",
        &["freestyle", "standard", "renju"]
    )
);

stand_in!(
    /// The schema of `rules::ForbiddenPolicy`.
    ForbiddenPolicyDef,
    "ForbiddenPolicy",
    string_enum(
        "What happens when black plays a forbidden point under renju.",
        &["lose", "reject", "claim"]
    )
);

stand_in!(
    /// The schema of `rules::Opening`.
    OpeningDef,
    "Opening",
    json_schema!({
        "type": "string",
        "pattern": "^(none|swap_after_three|swap_after_three_fifth_two_options|swap1|swap2|soosorv(_[0-9]{1,3})?|taraguchi(_[0-9]{1,3})?)$",
        "description": "The opening rule: none, swap_after_three, swap_after_three_fifth_two_options, swap1, swap2, soosorv or soosorv_N (N 1 to 10, default 8), taraguchi or taraguchi_N (default 10).",
    })
);

/// The schema of `rules::Action` (its serde form is tagged by `"action"`), as game records list them.
pub struct ActionDef;

impl JsonSchema for ActionDef {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Action")
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let point = generator.subschema_for::<PointDef>();
        let variant = |tag: &str, fields: Value| {
            let mut properties = json!({"action": {"type": "string", "const": tag}});
            let mut required = vec![Value::from("action")];
            if let Value::Object(fields) = fields {
                for (name, schema) in fields {
                    required.push(Value::from(name.clone()));
                    properties[name] = schema;
                }
            }
            json!({"type": "object", "properties": properties, "required": required})
        };
        json_schema!({
            "description": "A stored game action.",
            "oneOf": [
                variant("place", json!({"point": point})),
                variant("decide_swap", json!({"swap": {"type": "boolean"}})),
                variant("propose_fifth", json!({"points": {
                    "type": "array", "items": point, "minItems": 2, "maxItems": 2
                }})),
                variant("choose_fifth", json!({"point": point})),
                variant("claim_forbidden", json!({})),
            ]
        })
    }
}

/// The schema of a frame's request id, which every message may carry beside its fields.
fn rid_schema(server: bool) -> Value {
    let description = if server {
        "The request id of the client message this answers (or the event it caused, on the requester's copy)."
    } else {
        "A request id: the reply to this message, or the error it causes, carries the same."
    };
    json!({
        "description": description,
        "type": ["integer", "null"],
        "minimum": 0,
        "maximum": u64::MAX,
    })
}

/// Adds the optional `rid` to every variant of a message enum's schema (the framing adds it to the message).
fn add_rid(schema: &mut Value, server: bool) {
    if let Some(variants) = schema.get_mut("oneOf").and_then(Value::as_array_mut) {
        for variant in variants {
            if let Some(props) = variant.get_mut("properties").and_then(Value::as_object_mut) {
                props.insert("rid".to_owned(), rid_schema(server));
            }
        }
    }
}

/// Generator settings for every schema of this crate and the server: draft 2020-12, definitions under `$defs`
/// (or, given `definitions_path`, wherever the containing document keeps them, as OpenAPI's components).
pub fn settings(definitions_path: &str) -> SchemaSettings {
    let mut s = SchemaSettings::draft2020_12();
    s.definitions_path = definitions_path.to_owned().into();
    s
}

/// The whole protocol as one JSON Schema document: a frame is a client message (`#/$defs/ClientMessage`) or a
/// server message (`#/$defs/ServerMessage`); `$defs` holds every type inside them.
pub fn protocol_schema() -> Value {
    let mut generator = settings("/$defs").into_generator();
    let client = generator.subschema_for::<ClientMessage>();
    let server = generator.subschema_for::<ServerMessage>();
    let mut defs = serde_json::Map::new();
    for (name, schema) in generator.take_definitions(true) {
        defs.insert(name, schema);
    }
    if let Some(c) = defs.get_mut("ClientMessage") {
        add_rid(c, false);
    }
    if let Some(s) = defs.get_mut("ServerMessage") {
        add_rid(s, true);
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("Gomoku / Renju wire protocol, version {}", crate::PROTOCOL_VERSION),
        "description": "Every WebSocket text frame at GET /ws is one JSON object: a client message \
                        (#/$defs/ClientMessage) or a server message (#/$defs/ServerMessage), told apart by \"t\". \
                        docs/protocol.md is the reference; unknown fields are ignored by the server.",
        "anyOf": [Value::from(client), Value::from(server)],
        "$defs": defs,
    })
}
