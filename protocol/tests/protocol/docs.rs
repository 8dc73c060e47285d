//! Every example frame in docs/protocol.md decodes as the message it claims to be.

use protocol::{decode, doc_examples, ClientMessage, Sender, ServerMessage};

#[test]
fn every_example_in_the_protocol_doc_decodes() {
    let doc = include_str!("../../../docs/protocol.md");
    let mut checked = 0;
    for (sender, json) in doc_examples(doc) {
        match sender {
            Sender::Client => {
                decode::<ClientMessage>(json, usize::MAX)
                    .unwrap_or_else(|e| panic!("client example {json}: {e}"));
            }
            Sender::Server => {
                decode::<ServerMessage>(json, usize::MAX)
                    .unwrap_or_else(|e| panic!("server example {json}: {e}"));
            }
        }
        checked += 1;
    }
    assert!(checked > 50, "only {checked} examples found");
}
