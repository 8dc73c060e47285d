//! The server's reading of the store's texts (`server::gomoku::decode`), shown as `store/tests/data/v1.json`
//! shows the rules values the store held before issue #15: rules by their fields' `Debug` names, actions by
//! their `Debug` text.

use serde_json::{json, Value};
use store::GameRecord;

/// A game's rules and actions as the server decodes them, for `dump::dump`.
pub const DECODED: super::dump::Reader = super::dump::Reader {
    config: |r: &GameRecord| {
        let rules = decode(r).rules;
        json!({
            "size": rules.size(),
            "rule_set": format!("{:?}", rules.rule_set()),
            "forbidden_policy": format!("{:?}", rules.forbidden_policy()),
            "opening": format!("{:?}", rules.opening()),
        })
    },
    actions: |r: &GameRecord| {
        decode(r)
            .actions
            .iter()
            .map(|a| Value::String(format!("{a:?}")))
            .collect()
    },
};

fn decode(r: &GameRecord) -> server::gomoku::Decoded {
    server::gomoku::decode(r).unwrap_or_else(|e| panic!("game {} does not read back: {e}", r.id))
}
