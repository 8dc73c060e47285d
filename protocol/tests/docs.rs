//! Every example frame in docs/protocol.md decodes as the message it claims to be.

use protocol::{decode, ClientMessage, ServerMessage};

#[test]
fn every_example_in_the_protocol_doc_decodes() {
    let doc = include_str!("../../docs/protocol.md");
    let mut checked = 0;
    for line in doc.lines() {
        // `→` is a client's request; `B →`, `S →` name another client of a transcript.
        let request = line
            .strip_prefix("→ ")
            .or_else(|| line.strip_prefix("B → "))
            .or_else(|| line.strip_prefix("S → "));
        if let Some(json) = request {
            decode::<ClientMessage>(json, usize::MAX)
                .unwrap_or_else(|e| panic!("client example {json}: {e}"));
            checked += 1;
        } else if let Some(json) = line.strip_prefix("← ") {
            decode::<ServerMessage>(json, usize::MAX)
                .unwrap_or_else(|e| panic!("server example {json}: {e}"));
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} examples found");
}
