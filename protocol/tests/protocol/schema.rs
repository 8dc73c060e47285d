//! The generated JSON Schema: every example frame of docs/protocol.md matches it, frames that break it are
//! refused, the stand-ins for the rules crate's types accept exactly their serde form, and docs/protocol.schema.json
//! is the schema as generated (`UPDATE_SCHEMAS=1 cargo test -p protocol --test protocol schema` rewrites it).

use jsonschema::Validator;
use protocol::schema::protocol_schema;
use rules::{Action, Color, ForbiddenKind, ForbiddenPolicy, Opening, Point, RuleSet};
use serde_json::{json, Value};

/// Objects of the schema refuse fields they do not describe (the served schema leaves them open, as serde does),
/// so an example with a field the types lack fails here.
fn strict(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            map.values_mut().for_each(strict);
        }
        Value::Array(items) => items.iter_mut().for_each(strict),
        _ => {}
    }
}

/// A validator of the definition `name` of the protocol schema (strict, or as served).
fn validator(name: &str, strictly: bool) -> Validator {
    let mut schema = protocol_schema();
    if strictly {
        strict(&mut schema);
    }
    let root = schema.as_object_mut().unwrap();
    root.remove("anyOf");
    root.insert("$ref".into(), json!(format!("#/$defs/{name}")));
    jsonschema::draft202012::new(&schema).expect("the schema compiles")
}

fn errors(v: &Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance).map(|e| e.to_string()).collect()
}

#[test]
fn every_example_frame_of_the_protocol_doc_matches_the_schema() {
    let client = validator("ClientMessage", true);
    let server = validator("ServerMessage", true);
    let doc = include_str!("../../../docs/protocol.md");
    let mut checked = 0;
    for (sender, json) in protocol::doc_examples(doc) {
        let v = match sender {
            protocol::Sender::Client => &client,
            protocol::Sender::Server => &server,
        };
        let frame: Value = serde_json::from_str(json).unwrap();
        let wrong = errors(v, &frame);
        assert!(wrong.is_empty(), "{json}: {wrong:?}");
        checked += 1;
    }
    assert!(checked > 50, "only {checked} examples found");
}

#[test]
fn frames_that_break_the_schema_are_refused() {
    let client = validator("ClientMessage", false);
    let server = validator("ServerMessage", false);
    let good = json!({"t":"place","room":"r","point":"h8","ply":1,"rid":3});
    assert!(client.is_valid(&good));
    for bad in [
        json!({"t":"place","room":"r","point":"z99","ply":1}),
        json!({"t":"place","room":"r","point":"h8"}),
        json!({"t":"place","room":"r","point":"h8","ply":-1}),
        json!({"t":"place","room":"r","point":"h8","ply":1,"rid":"3"}),
        json!({"t":"teleport","room":"r"}),
        json!({"t":"create_room","rules":{"rule_set":"gomoku"}}),
        json!({"t":"join","room":"r","as":"referee"}),
        json!({"t":"propose_fifth","room":"r","points":["g9"]}),
    ] {
        assert!(!client.is_valid(&bad), "accepted {bad}");
    }
    let event = json!({"t":"event","room":"r","version":5,"event":{"kind":"move","colour":"black","point":"h8","ply":1,"to_act":"white","phase":"place","clocks":null,"forbidden":[]}});
    assert!(server.is_valid(&event));
    let mut wrong_ply = event.clone();
    wrong_ply["event"]["ply"] = json!("1");
    assert!(!server.is_valid(&wrong_ply));
    let mut wrong_colour = event.clone();
    wrong_colour["event"]["colour"] = json!("red");
    assert!(!server.is_valid(&wrong_colour));
    let mut chat = json!({"t":"room","room":{}});
    chat["room"] = json!({"chat":[{"from":"a","text":"hi"}]});
    assert!(!server.is_valid(&chat), "a snapshot lacks its fields");
    // Strictly, an undescribed field is refused too (that is how the doc's examples are held to the types).
    let mut extra = event;
    extra["event"]["colour_name"] = json!("black");
    assert!(validator("ServerMessage", false).is_valid(&extra));
    assert!(!validator("ServerMessage", true).is_valid(&extra));
}

#[test]
fn every_message_the_types_make_matches_the_schema() {
    // One of each client message as the types write it.
    let client = validator("ClientMessage", true);
    let examples = [
        r#"{"t":"hello","version":1}"#,
        r#"{"t":"subscribe_lobby"}"#,
        r#"{"t":"show_spectator_chat","room":"r","show":true}"#,
        r#"{"t":"answer_rematch","room":"r","accept":false}"#,
    ];
    for text in examples {
        let msg: protocol::ClientMessage = serde_json::from_str(text).unwrap();
        let written = serde_json::to_value(&msg).unwrap();
        assert!(client.is_valid(&written), "{written}");
    }
}

/// A validator of one stand-in's schema.
fn def(name: &str) -> Validator {
    validator(name, true)
}

#[test]
fn the_point_schema_accepts_exactly_what_a_point_reads() {
    let v = def("Point");
    for x in 0..19 {
        for y in 0..19 {
            let p = Point::new(x, y).unwrap();
            assert!(v.is_valid(&serde_json::to_value(p).unwrap()), "{p}");
        }
    }
    let mut tried = 0;
    for col in ('a'..='z').chain('A'..='Z').chain(['0', '-']) {
        for row in ["", "0", "1", "9", "10", "19", "20", "01", "100", "x"] {
            let text = format!("{col}{row}");
            let reads = serde_json::from_value::<Point>(json!(text)).is_ok();
            assert_eq!(v.is_valid(&json!(text)), reads, "{text}");
            tried += 1;
        }
    }
    assert_eq!(tried, 54 * 10);
    assert!(!v.is_valid(&json!(7)));
}

#[test]
fn the_rules_enums_schemas_list_exactly_their_serde_names() {
    fn check<T: serde::Serialize>(name: &str, all: &[T]) {
        let v = def(name);
        let names: Vec<Value> = all
            .iter()
            .map(|x| serde_json::to_value(x).unwrap())
            .collect();
        for n in &names {
            assert!(v.is_valid(n), "{name}: {n}");
        }
        let listed = protocol_schema()["$defs"][name]["enum"].clone();
        assert_eq!(listed, Value::from(names), "{name}");
    }
    check("Color", &[Color::Black, Color::White]);
    check(
        "ForbiddenKind",
        &[
            ForbiddenKind::Overline,
            ForbiddenKind::DoubleFour,
            ForbiddenKind::DoubleThree,
        ],
    );
    check(
        "RuleSet",
        &[RuleSet::Freestyle, RuleSet::Standard, RuleSet::Renju],
    );
    check(
        "ForbiddenPolicy",
        &[
            ForbiddenPolicy::Lose,
            ForbiddenPolicy::Reject,
            ForbiddenPolicy::Claim,
        ],
    );
}

#[test]
fn the_opening_schema_takes_exactly_the_texts_that_read() {
    let v = def("Opening");
    for o in [
        Opening::None,
        Opening::SwapAfterThree,
        Opening::SwapAfterThreeFifthTwoOptions,
        Opening::Swap1,
        Opening::Swap2,
        Opening::SOOSORV_8,
        Opening::Taraguchi { n: 3 },
    ] {
        assert!(v.is_valid(&serde_json::to_value(o).unwrap()), "{o:?}");
    }
    for text in [
        "soosorv",
        "taraguchi",
        "soosorv_0",
        "taraguchi_255",
        "swap3",
        "soosorv_",
        "Swap1",
        "soosorv_1000",
        "taraguchi_x",
    ] {
        let reads = serde_json::from_value::<Opening>(json!(text)).is_ok();
        assert_eq!(v.is_valid(&json!(text)), reads, "{text}");
    }
}

#[test]
fn the_action_schema_accepts_every_action_as_serde_writes_it() {
    let schema = protocol::schema::settings("/$defs")
        .into_generator()
        .into_root_schema_for::<protocol::schema::ActionDef>();
    let v = jsonschema::draft202012::new(&Value::from(schema)).unwrap();
    let p = |s: &str| s.parse::<Point>().unwrap();
    for action in [
        Action::Place { point: p("h8") },
        Action::DecideSwap { swap: true },
        Action::ProposeFifth {
            points: [p("g9"), p("j10")],
        },
        Action::ChooseFifth { point: p("g9") },
        Action::ClaimForbidden,
    ] {
        let written = serde_json::to_value(action).unwrap();
        assert!(v.is_valid(&written), "{written}");
    }
    assert!(!v.is_valid(&json!({"action":"place"})));
    assert!(!v.is_valid(&json!({"action":"undo"})));
}

#[test]
fn the_checked_in_schema_is_the_generated_one() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.schema.json");
    let mut generated = serde_json::to_string_pretty(&protocol_schema()).unwrap();
    generated.push('\n');
    if std::env::var_os("UPDATE_SCHEMAS").is_some() {
        std::fs::write(path, &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "docs/protocol.schema.json differs from the schema the types generate; regenerate it with \
         `UPDATE_SCHEMAS=1 cargo test -p protocol --test protocol schema` and review the difference"
    );
}
