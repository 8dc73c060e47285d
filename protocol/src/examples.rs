//! The example frames of a protocol document (`docs/protocol.md`), so every check of them reads them one way.

/// Who sends an example frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sender {
    /// A client: `→ ` lines, and `B → ` / `S → ` for the other clients of a transcript.
    Client,
    /// The server: `← ` lines.
    Server,
}

/// Every example frame of `doc`, in order, with who sends it; other lines are skipped.
pub fn doc_examples(doc: &str) -> impl Iterator<Item = (Sender, &str)> {
    doc.lines().filter_map(|line| {
        line.strip_prefix("→ ")
            .or_else(|| line.strip_prefix("B → "))
            .or_else(|| line.strip_prefix("S → "))
            .map(|json| (Sender::Client, json))
            .or_else(|| line.strip_prefix("← ").map(|json| (Sender::Server, json)))
    })
}
