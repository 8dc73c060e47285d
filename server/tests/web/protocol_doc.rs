//! The whole-game transcripts in docs/protocol.md (Gomoku, Othello, draughts) are conversations with the real
//! server: every request line (A's `→`, B's `B →`, S's `S →`) is sent as written, and every line A receives (`←`)
//! must equal the document's, once the room, ids, names, the token and the record id are renamed.

use crate::common;

use common::*;
use protocol::{encode, RoomEvent, ServerMessage};
use serde_json::Value;

/// Who says a line of the transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line<'a> {
    /// A request by client A, B or S, as JSON text.
    Send(char, &'a str),
    /// A frame A receives.
    Receive(&'a str),
}

/// The lines of the transcript under the section `heading` (`## …`), in order.
fn transcript(heading: &str) -> Vec<Line<'static>> {
    let doc = include_str!("../../../docs/protocol.md");
    let section = doc
        .split(&format!("\n## {heading}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("the section {heading}"))
        .split("```text")
        .nth(1)
        .expect("its block")
        .split("```")
        .next()
        .unwrap();
    lines(section)
}

/// The lines of a transcript's text, in order.
pub(crate) fn lines(section: &'static str) -> Vec<Line<'static>> {
    section
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            if let Some(json) = l.strip_prefix("← ") {
                Line::Receive(json)
            } else if let Some(json) = l.strip_prefix("→ ") {
                Line::Send('A', json)
            } else if let Some((who, json)) = l.split_once(" → ") {
                Line::Send(who.chars().next().expect("a client's letter"), json)
            } else {
                panic!("a transcript line that is neither sent nor received: {l}")
            }
        })
        .collect()
}

/// The documented stand-ins for what the server makes up (random ids, names, the token), learned as they appear:
/// `(actual, documented)`.
#[derive(Default)]
struct Names(Vec<(String, String)>);

impl Names {
    fn learn(&mut self, actual: &str, documented: &str) {
        if !actual.is_empty() && actual != documented {
            self.0.push((actual.to_owned(), documented.to_owned()));
        }
    }

    /// A documented request with the real values in it.
    fn to_actual(&self, text: &str) -> String {
        self.0
            .iter()
            .fold(text.to_owned(), |t, (actual, doc)| t.replace(doc, actual))
    }

    /// A received frame with the documented stand-ins in it.
    fn to_documented(&self, text: &str) -> String {
        self.0
            .iter()
            .fold(text.to_owned(), |t, (actual, doc)| t.replace(actual, doc))
    }
}

/// Learns the made-up values a frame A received brings, from the documented frame at the same place.
fn learn_from(names: &mut Names, got: &ServerMessage, want: &Value) {
    match got {
        ServerMessage::Welcome { you, token, .. } => {
            names.learn(&you.id, want["you"]["id"].as_str().unwrap());
            names.learn(&you.name, want["you"]["name"].as_str().unwrap());
            names.learn(token, want["token"].as_str().unwrap());
        }
        ServerMessage::Room { room } => names.learn(&room.id, want["room"]["id"].as_str().unwrap()),
        ServerMessage::Event {
            event:
                RoomEvent::GameStarted {
                    record: Some(record),
                    ..
                },
            ..
        } => names.learn(record, want["event"]["record"].as_str().unwrap()),
        _ => {}
    }
}

#[tokio::test]
async fn the_documented_transcript_is_a_real_conversation_with_the_server() {
    converse(transcript("A whole game")).await;
}

#[tokio::test]
async fn the_documented_othello_game_is_a_real_conversation_with_the_server() {
    converse(transcript("Othello, a whole game")).await;
}

#[tokio::test]
async fn the_documented_draughts_game_is_a_real_conversation_with_the_server() {
    converse(transcript("Draughts, a whole game")).await;
}

/// Plays a transcript against a fresh server, checking every line A receives.
pub(crate) async fn converse(lines: Vec<Line<'static>>) {
    let (server, _db) = TestServer::start().await;
    let mut a = Client::connect(server.addr).await;
    let mut others: Vec<(char, Client)> = Vec::new();
    let mut names = Names::default();
    names.learn(env!("CARGO_PKG_VERSION"), "0.1.0");
    let mut received = 0;

    for (n, line) in lines.iter().enumerate() {
        match *line {
            Line::Send('A', json) => a.send_text(names.to_actual(json)).await,
            Line::Send(who, json) => {
                let hello = serde_json::from_str::<Value>(json).unwrap()["t"] == "hello";
                if hello {
                    let mut c = Client::connect(server.addr).await;
                    c.send_text(json.to_owned()).await;
                    // B's and S's own names show up in what A receives: learn them from B's and S's welcomes,
                    // as the documented `guest-bbbb` / `g…bb` (S never appears in A's view).
                    let ServerMessage::Welcome { you, .. } = c.recv().await.msg else {
                        panic!("{who}'s hello at line {n} was not welcomed")
                    };
                    if who == 'B' {
                        names.learn(&you.id, "g000000000000000000bb");
                        names.learn(&you.name, "guest-bbbb");
                    }
                    others.push((who, c));
                } else {
                    let (_, c) = others
                        .iter_mut()
                        .find(|(w, _)| *w == who)
                        .unwrap_or_else(|| panic!("{who} sends before its hello at line {n}"));
                    c.send_text(names.to_actual(json)).await;
                }
            }
            Line::Receive(json) => {
                let want: Value = serde_json::from_str(json).unwrap();
                let frame = a.recv().await;
                learn_from(&mut names, &frame.msg, &want);
                let mut got: Value =
                    serde_json::from_str(&names.to_documented(&encode(&frame.msg, frame.rid)))
                        .unwrap();
                // The time left before a claim runs with the clock: any value up to the documented one is it.
                let left = |v: &Value| v["room"]["claim_win_in_ms"].as_u64();
                if let (Some(g), Some(w)) = (left(&got), left(&want)) {
                    if g <= w {
                        got["room"]["claim_win_in_ms"] = w.into();
                    }
                }
                assert_eq!(got, want, "line {n} of the transcript");
                received += 1;
            }
        }
    }
    assert_eq!(
        received,
        lines
            .iter()
            .filter(|l| matches!(l, Line::Receive(_)))
            .count()
    );
    assert!(
        lines.iter().any(|l| matches!(l, Line::Send('B', _))),
        "the transcript names B's requests"
    );
}
