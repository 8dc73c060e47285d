//! The whole-game transcript in docs/protocol.md is what the server really sends: the game is played again and
//! every frame player A receives must equal the document's, once ids, names and the token are renamed.

mod common;

use common::*;
use protocol::{encode, ClientMessage, JoinRole};
use serde_json::Value;

/// The `←` lines of the transcript section.
fn documented_frames() -> Vec<Value> {
    let doc = include_str!("../../docs/protocol.md");
    let section = doc
        .split("## A whole game")
        .nth(1)
        .expect("the transcript section")
        .split("```text")
        .nth(1)
        .expect("its block")
        .split("```")
        .next()
        .unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("← "))
        .map(|l| serde_json::from_str(l).expect("documented JSON"))
        .collect()
}

fn place(room: &str, point: &str, ply: u32) -> ClientMessage {
    ClientMessage::Place {
        room: room.into(),
        point: p(point),
        ply,
    }
}

#[tokio::test]
async fn the_documented_transcript_is_what_the_server_sends() {
    let (server, _db) = TestServer::start().await;
    let mut a = Client::connect(server.addr).await;
    let mut received = Vec::new();
    let hello = ClientMessage::Hello {
        version: 1,
        token: None,
    };
    a.send_text(encode(&hello, Some(1))).await;
    let welcome = a.recv().await;
    let protocol::ServerMessage::Welcome { you, token, .. } = &welcome.msg else {
        panic!()
    };
    let (a_id, a_name, a_token) = (you.id.clone(), you.name.clone(), token.clone());
    received.push(welcome);
    let create = ClientMessage::CreateRoom {
        rules: freestyle(),
        time_control: protocol::TimeControl::None,
        rated: false,
        public: true,
        colour: protocol::ColourChoice::Black,
    };
    a.send_text(encode(&create, Some(2))).await;
    let room_frame = a.recv().await;
    let protocol::ServerMessage::Room { room } = &room_frame.msg else {
        panic!()
    };
    let room = room.id.clone();
    received.push(room_frame);

    let mut b = server.client().await;
    b.join(&room, JoinRole::Player).await;
    received.push(a.recv().await);
    received.push(a.recv().await);
    let mut s = server.client().await;
    s.join(&room, JoinRole::Spectator).await;
    received.push(a.recv().await);

    a.send_text(encode(&place(&room, "h8", 1), Some(3))).await;
    received.push(a.recv().await);
    for (ply, (black, white)) in [("a1", "g7"), ("a2", "g8"), ("a3", "g9")]
        .into_iter()
        .enumerate()
    {
        let ply = ply as u32 * 2 + 2;
        b.request(place(&room, white, ply)).await;
        received.push(a.recv().await);
        a.send_text(encode(&place(&room, black, ply + 1), None))
            .await;
        received.push(a.recv().await);
    }
    b.request(place(&room, "g10", 8)).await;
    received.push(a.recv().await);
    a.send_text(encode(&place(&room, "a4", 9), Some(7))).await;
    received.push(a.recv().await);
    a.send_text(encode(&place(&room, "a4", 9), Some(8))).await;
    received.push(a.recv().await);
    b.request(place(&room, "g11", 10)).await;
    received.push(a.recv().await);
    received.push(a.recv().await);
    let rematch = ClientMessage::OfferRematch { room: room.clone() };
    a.send_text(encode(&rematch, Some(9))).await;
    received.push(a.recv().await);

    // The game's public id is random too.
    let record = received
        .iter()
        .find_map(|f| match &f.msg {
            protocol::ServerMessage::Event {
                event: protocol::RoomEvent::GameStarted { record, .. },
                ..
            } => record.clone(),
            _ => None,
        })
        .expect("the game's public id");
    let rename = |text: String| {
        text.replace(&room, "q1w2e3")
            .replace(&a_id, "g000000000000000000aa")
            .replace(&b.id, "g000000000000000000bb")
            .replace(&record, "x7k2m9q4w8p3z6c5")
            .replace(&a_name, "guest-aaaa")
            .replace(&b.name, "guest-bbbb")
            .replace(&a_token, "tokA")
            .replace(env!("CARGO_PKG_VERSION"), "0.1.0")
    };
    let actual: Vec<Value> = received
        .into_iter()
        .map(|f| serde_json::from_str(&rename(encode(&f.msg, f.rid))).unwrap())
        .collect();
    let documented = documented_frames();
    assert_eq!(actual.len(), documented.len());
    for (got, want) in actual.iter().zip(&documented) {
        assert_eq!(got, want);
    }
}
