//! The room keeps its chat: snapshots carry the last lines of the players' chat for everyone, and of the
//! spectators' chat for those who read it, so a reload (a rejoin) and a late spectator see what was said.

use crate::common;

use common::*;
use protocol::{ChatLine, ClientMessage, JoinRole, ServerMessage, TimeControl};
use server::Config;

async fn table_with(config: Config) -> (TestServer, Db, Table) {
    let db = Db::sqlite();
    let server = TestServer::start_on(&db, config).await;
    let t = Table::open(&server, freestyle(), TimeControl::None).await;
    (server, db, t)
}

/// A config whose chat allowances do not get in the way of saying many lines.
fn talkative() -> Config {
    Config {
        chat_burst: 1000,
        spectator_chat_burst: 1000,
        msg_burst: 1000,
        ..test_config()
    }
}

fn line(from: &str, text: &str, spectator: bool) -> ChatLine {
    ChatLine {
        from: from.into(),
        text: text.into(),
        spectator,
        line: None,
    }
}

/// A history without the lines' stored ids (issue #38), which these tests do not arrange: each line has one.
fn unlined(lines: Vec<ChatLine>) -> Vec<ChatLine> {
    lines
        .into_iter()
        .map(|l| {
            assert!(l.line.is_some(), "a kept line has its id: {l:?}");
            ChatLine { line: None, ..l }
        })
        .collect()
}

/// Says something and checks it was taken (a players' `chat` event or a spectators' `spectator_chat` echo).
async fn say(c: &mut Client, room: &str, text: &str) {
    let reply = c.request(chat(room, text)).await;
    assert!(
        matches!(
            reply,
            ServerMessage::Event { .. } | ServerMessage::SpectatorChat { .. }
        ),
        "{text}: {reply:?}"
    );
}

async fn show_spectator_chat(c: &mut Client, room: &str, show: bool) -> ServerMessage {
    c.request(ClientMessage::ShowSpectatorChat {
        room: room.into(),
        show,
    })
    .await
}

#[tokio::test]
async fn a_late_spectator_reads_the_players_and_the_spectators_lines_in_the_order_said() {
    let (server, _db, mut t) = table_with(talkative()).await;
    let mut early = server.client().await;
    early.join(&t.room, JoinRole::Spectator).await;
    say(&mut t.black, &t.room, "gl").await;
    say(&mut early, &t.room, "here we go").await;
    say(&mut t.white, &t.room, "hf").await;

    let mut late = server.client().await;
    let snapshot = late.join(&t.room, JoinRole::Spectator).await;

    assert_eq!(
        unlined(snapshot.chat),
        [
            line(&t.black.name, "gl", false),
            line(&early.name, "here we go", true),
            line(&t.white.name, "hf", false),
        ]
    );
}

#[tokio::test]
async fn a_player_reads_only_the_players_lines_until_it_shows_the_spectators_chat() {
    let (server, _db, mut t) = table_with(talkative()).await;
    let mut s = server.client().await;
    s.join(&t.room, JoinRole::Spectator).await;
    say(&mut s, &t.room, "black is better").await;
    say(&mut t.white, &t.room, "gg soon").await;

    let rejoined = t.black.join(&t.room, JoinRole::Player).await;
    assert_eq!(
        unlined(rejoined.chat),
        [line(&t.white.name, "gg soon", false)]
    );

    let rid = t
        .black
        .send(ClientMessage::ShowSpectatorChat {
            room: t.room.clone(),
            show: true,
        })
        .await;
    let answer = t.black.reply_to(rid).await;

    let ServerMessage::Room { room } = answer else {
        panic!("show: true is answered by a snapshot, got {answer:?}");
    };
    assert_eq!(
        unlined(room.chat),
        [
            line(&s.name, "black is better", true),
            line(&t.white.name, "gg soon", false),
        ]
    );
    assert_eq!(room.you, Some(rules::Color::Black));
    let hidden = show_spectator_chat(&mut t.black, &t.room, false).await;
    assert!(matches!(hidden, ServerMessage::Ack { .. }), "{hidden:?}");
    let again = t.black.join(&t.room, JoinRole::Player).await;
    assert_eq!(unlined(again.chat), [line(&t.white.name, "gg soon", false)]);
}

#[tokio::test]
async fn the_history_keeps_line_50_and_line_51_drops_the_oldest() {
    let config = talkative();
    assert_eq!(config.chat_history_lines, 50, "the default");
    let (server, _db, mut t) = table_with(config).await;
    for i in 1..=50 {
        say(&mut t.black, &t.room, &format!("line {i}")).await;
    }
    let mut s = server.client().await;
    let at_limit = unlined(s.join(&t.room, JoinRole::Spectator).await.chat);
    assert_eq!(at_limit.len(), 50);
    assert_eq!(at_limit[0].text, "line 1");
    assert_eq!(at_limit[49].text, "line 50");

    say(&mut t.black, &t.room, "line 51").await;

    let over = unlined(s.join(&t.room, JoinRole::Spectator).await.chat);
    assert_eq!(over.len(), 50);
    assert_eq!(over[0].text, "line 2");
    assert_eq!(over[49].text, "line 51");
}

#[tokio::test]
async fn the_spectators_chat_has_its_own_bound_of_50_lines() {
    let (server, _db, mut t) = table_with(talkative()).await;
    say(&mut t.black, &t.room, "players' line").await;
    let mut s = server.client().await;
    s.join(&t.room, JoinRole::Spectator).await;
    for i in 1..=51 {
        say(&mut s, &t.room, &format!("s{i}")).await;
    }

    let seen = unlined(s.join(&t.room, JoinRole::Spectator).await.chat);

    assert_eq!(seen.len(), 51, "50 spectators' lines and the players' one");
    assert_eq!(seen[0], line(&t.black.name, "players' line", false));
    assert_eq!(seen[1].text, "s2");
    assert_eq!(seen[50].text, "s51");
}

/// Bytes a guest's line of ten characters costs the history: the name (`guest-` and six) and the text.
const GUEST_LINE_OF_TEN: usize = 12 + 10;

#[tokio::test]
async fn the_history_is_bounded_in_bytes_too() {
    let (server, _db, mut t) = table_with(Config {
        chat_history_bytes: 3 * GUEST_LINE_OF_TEN,
        ..talkative()
    })
    .await;
    assert_eq!(t.black.name.len() + 10, GUEST_LINE_OF_TEN);
    for i in 0..3 {
        say(&mut t.black, &t.room, &format!("{i}").repeat(10)).await;
    }
    let mut s = server.client().await;
    let at_bound = unlined(s.join(&t.room, JoinRole::Spectator).await.chat);
    assert_eq!(at_bound.len(), 3, "exactly at the byte bound, all stay");

    say(&mut t.black, &t.room, &"3".repeat(10)).await;

    let over = unlined(s.join(&t.room, JoinRole::Spectator).await.chat);
    let texts: Vec<&str> = over.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["1111111111", "2222222222", "3333333333"]);
}

#[tokio::test]
async fn a_player_who_reconnects_and_rejoins_reads_the_chat_again() {
    let (server, _db, mut t) = table_with(talkative()).await;
    say(&mut t.black, &t.room, "brb").await;
    say(&mut t.white, &t.room, "ok").await;
    let token = t.black.token.clone();
    t.black.drop_connection();

    let mut back = Client::hello(server.addr, Some(&token)).await;
    let snapshot = back.join(&t.room, JoinRole::Player).await;

    assert_eq!(snapshot.you, Some(rules::Color::Black));
    assert_eq!(
        unlined(snapshot.chat),
        [
            line(&back.name, "brb", false),
            line(&t.white.name, "ok", false)
        ]
    );
}
