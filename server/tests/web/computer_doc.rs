//! The transcript of a whole game against the computer in docs/protocol.md ("A game against the computer") is a
//! conversation with the real server: every request line is sent as written and every line A receives must equal
//! the document's, once the room, A's id, name and token and the record id are renamed. The computer is seeded
//! (`--computer-seed 17`), so its replies are the same on every machine.
//!
//! `UPDATE_COMPUTER_TRANSCRIPT=1 cargo test -p server --test web computer_doc -- --nocapture` plays the scripted game
//! again and prints a fresh transcript (A's moves chosen by an engine of the test's own) to paste into the
//! document after review.

use crate::common;

use common::*;
use engine::{Engine, Limits, TimeBudget};
use protocol::{
    encode, ClientMessage, ColourChoice, GameChange, GameView, RoomEvent, ServerMessage,
    TimeControl,
};
use rules::{Action, Game, Point};
use serde_json::Value;
use server::Config;

/// The documented stand-ins of what the server makes up.
const ROOM: &str = "c0mp7r";
const ID: &str = "g000000000000000000aa";
const NAME: &str = "guest-aaaa";
const TOKEN: &str = "tokA";
const RECORD: &str = "k3m9q2x7w4p8z6c5";

enum Line<'a> {
    Send(&'a str),
    Receive(&'a str),
}

fn transcript() -> Vec<Line<'static>> {
    let doc = include_str!("../../../docs/protocol.md");
    let section = doc
        .split("## A game against the computer")
        .nth(1)
        .expect("the section")
        .split("```text")
        .nth(1)
        .expect("its block")
        .split("```")
        .next()
        .unwrap();
    section
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            if let Some(json) = l.strip_prefix("← ") {
                Line::Receive(json)
            } else if let Some(json) = l.strip_prefix("→ ") {
                Line::Send(json)
            } else {
                panic!("a transcript line that is neither sent nor received: {l}")
            }
        })
        .collect()
}

/// `(actual, documented)` pairs, learned as they appear.
#[derive(Default)]
struct Names(Vec<(String, String)>);

impl Names {
    fn learn(&mut self, actual: &str, documented: &str) {
        if !actual.is_empty() && actual != documented {
            self.0.push((actual.to_owned(), documented.to_owned()));
        }
    }

    fn to_actual(&self, text: &str) -> String {
        self.0
            .iter()
            .fold(text.to_owned(), |t, (a, d)| t.replace(d, a))
    }

    fn to_documented(&self, text: &str) -> String {
        self.0
            .iter()
            .fold(text.to_owned(), |t, (a, d)| t.replace(a, d))
    }

    fn learn_from(&mut self, got: &ServerMessage) {
        match got {
            ServerMessage::Welcome { you, token, .. } => {
                self.learn(&you.id, ID);
                self.learn(&you.name, NAME);
                self.learn(token, TOKEN);
            }
            ServerMessage::Room { room } => self.learn(&room.id, ROOM),
            ServerMessage::Event {
                event:
                    RoomEvent::GameStarted {
                        record: Some(record),
                        ..
                    },
                ..
            } => self.learn(record, RECORD),
            _ => {}
        }
    }
}

async fn server() -> TestServer {
    TestServer::start_real_time_fresh(Config {
        computer_seed: Some(17),
        ..test_config()
    })
    .await
}

#[tokio::test]
async fn the_documented_game_against_the_computer_is_a_real_conversation_with_the_server() {
    if std::env::var_os("UPDATE_COMPUTER_TRANSCRIPT").is_some() {
        record().await;
        return;
    }
    let server = server().await;
    let mut a = Client::connect(server.addr).await;
    let mut names = Names::default();
    names.learn(env!("CARGO_PKG_VERSION"), "0.1.0");
    let lines = transcript();
    assert!(lines.len() > 10, "a whole game");
    for (n, line) in lines.iter().enumerate() {
        match *line {
            Line::Send(json) => a.send_text(names.to_actual(json)).await,
            Line::Receive(json) => {
                let want: Value = serde_json::from_str(json).unwrap();
                let frame = a.recv().await;
                names.learn_from(&frame.msg);
                let got: Value =
                    serde_json::from_str(&names.to_documented(&encode(&frame.msg, frame.rid)))
                        .unwrap();
                assert_eq!(got, want, "line {n} of the transcript");
            }
        }
    }
    let last = lines.iter().rev().find_map(|l| match l {
        Line::Receive(json) => Some(*json),
        Line::Send(_) => None,
    });
    assert!(
        last.is_some_and(|l| l.contains("game_over")),
        "the transcript ends with the game's end"
    );
}

/// Plays the scripted game and prints its transcript.
async fn record() {
    let server = server().await;
    let mut a = Client::connect(server.addr).await;
    let mut names = Names::default();
    names.learn(env!("CARGO_PKG_VERSION"), "0.1.0");
    let mut out = Vec::new();
    let mut rid = 0;
    let mut room = String::new();

    // Sends a request, then receives until `done` says the exchange is complete.
    macro_rules! exchange {
        ($msg:expr, $done:expr) => {{
            rid += 1;
            let text = encode(&$msg, Some(rid));
            out.push(format!("→ {}", names.to_documented(&text)));
            a.send_text(text).await;
            let mut got = Vec::new();
            loop {
                let frame = a.recv().await;
                names.learn_from(&frame.msg);
                out.push(format!(
                    "← {}",
                    names.to_documented(&encode(&frame.msg, frame.rid))
                ));
                got.push(frame.msg);
                #[allow(clippy::redundant_closure_call)]
                if ($done)(&got) {
                    break;
                }
            }
            got
        }};
    }
    let count = |n: usize| move |got: &Vec<ServerMessage>| got.len() >= n;
    exchange!(
        ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token: None
        },
        count(1)
    );
    let got = exchange!(
        ClientMessage::PlayComputer {
            rules: Some(freestyle()),
            game: None,
            time_control: TimeControl::None,
            public: false,
            colour: ColourChoice::Black,
            level: 1,
            engine: None,
        },
        count(3)
    );
    if let ServerMessage::Room { room: snap } = &got[0] {
        room = snap.id.clone();
    }
    let rules = freestyle().to_rules().unwrap();
    let mut moves: Vec<Point> = Vec::new();
    let mut mine = Engine::new(
        Limits {
            level: 5,
            max_nodes: Some(30_000),
            max_time: None,
        },
        3,
    );
    let answered = |got: &Vec<ServerMessage>| {
        got.iter().any(|m| {
            matches!(
                m,
                ServerMessage::Event {
                    event: RoomEvent::OfferAnswered { .. },
                    ..
                }
            )
        })
    };
    // Without an opening every action is a stone: the stones so far are the next `act`'s `at`.
    let mut turn = 0;
    loop {
        turn += 1;
        if turn == 3 {
            let got = exchange!(
                ClientMessage::RequestTakeback { room: room.clone() },
                |got: &Vec<ServerMessage>| got.iter().any(|m| matches!(
                    m,
                    ServerMessage::Event {
                        event: RoomEvent::ActionsTakenBack { .. },
                        ..
                    }
                ))
            );
            for m in got {
                if let ServerMessage::Event {
                    event:
                        RoomEvent::ActionsTakenBack {
                            view: GameView::Gomoku(left),
                            ..
                        },
                    ..
                } = m
                {
                    moves = left.moves;
                }
            }
        }
        if turn == 5 {
            exchange!(ClientMessage::OfferDraw { room: room.clone() }, answered);
        }
        let game = Game::from_actions(
            rules,
            &moves
                .iter()
                .map(|&point| Action::Place { point })
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let decision = mine
            .think(&game, &TimeBudget::Unlimited, &Default::default())
            .unwrap();
        let Action::Place { point } = decision.action else {
            unreachable!()
        };
        let at = moves.len() as u32;
        moves.push(point);
        let got = exchange!(
            ClientMessage::Act {
                room: room.clone(),
                action: point.to_string(),
                at
            },
            |got: &Vec<ServerMessage>| {
                let actions: Vec<&RoomEvent> = got
                    .iter()
                    .filter_map(|m| match m {
                        ServerMessage::Event {
                            event: e @ RoomEvent::Action { .. },
                            ..
                        } => Some(e),
                        _ => None,
                    })
                    .collect();
                let over = got.iter().any(|m| {
                    matches!(
                        m,
                        ServerMessage::Event {
                            event: RoomEvent::GameOver { .. },
                            ..
                        }
                    )
                });
                over || (actions.len() == 2
                    && matches!(
                        actions[1],
                        RoomEvent::Action {
                            to_act: Some(_),
                            ..
                        }
                    ))
            }
        );
        let mut over = false;
        for m in got {
            match m {
                ServerMessage::Event {
                    event:
                        RoomEvent::Action {
                            at,
                            change: GameChange::Gomoku(c),
                            ..
                        },
                    ..
                } if at as usize == moves.len() => moves.extend(c.placed),
                ServerMessage::Event {
                    event: RoomEvent::GameOver { .. },
                    ..
                } => over = true,
                _ => {}
            }
        }
        if over {
            break;
        }
    }
    println!("{}", out.join("\n"));
}
