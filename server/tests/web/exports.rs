//! Records to take away (#18): a Gomoku game exported as `.psq`, RenLib text and a readable record; a `.psq`
//! imported back into its moves and position; typed errors for bad files and formats.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::TimeControl;

/// A finished five-minute freestyle game: black wins on h12 with every move taking a second.
async fn finished_game(server: &TestServer) -> i64 {
    let tc = TimeControl::Fischer {
        base_ms: 300_000,
        increment_ms: 0,
    };
    let mut t = Table::open(server, freestyle(), tc).await;
    let moves = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"];
    for (i, m) in moves.iter().enumerate() {
        server.advance(Duration::from_secs(1));
        let mover = if i % 2 == 0 {
            &mut t.black
        } else {
            &mut t.white
        };
        mover.place(&t.room, m, i as u32 + 1).await.unwrap();
    }
    t.black.game_over().await;
    t.game_id
}

async fn post_psq(server: &TestServer, body: impl Into<reqwest::Body>) -> (u16, serde_json::Value) {
    let res = reqwest::Client::new()
        .post(server.url("/api/import/psq"))
        .body(body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(serde_json::Value::Null))
}

#[tokio::test]
async fn a_gomoku_game_exports_as_psq_with_its_times_and_players() {
    let (server, _db) = TestServer::start().await;
    let id = finished_game(&server).await;
    let (status, head, body) = server
        .get(&format!("/api/games/{id}/export?format=psq"))
        .await;
    assert_eq!(status, 200);
    assert!(head.contains(".psq\""), "{head}");
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
    // h8 is the centre: column 8, row 8 from the top; a1 the bottom-left corner.
    assert_eq!(&lines[1..3], ["8,8,1000", "1,15,1000"]);
    // The trailer as Piskvork and the Gomocup write it: the players (black's first), then -1.
    assert_eq!(lines.len(), 13);
    assert_eq!(lines[12], "-1", "{body}");
    assert!(!lines[10].is_empty() && !lines[11].is_empty(), "{body}");
}

#[tokio::test]
async fn an_exported_psq_imports_back_to_the_same_moves_and_position() {
    let (server, _db) = TestServer::start().await;
    let id = finished_game(&server).await;
    let (_, _, psq) = server
        .get(&format!("/api/games/{id}/export?format=psq"))
        .await;
    let (status, imported) = post_psq(&server, psq).await;
    assert_eq!(status, 200, "{imported}");
    let (_, record) = server.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(imported["moves"], record["moves"]);
    assert_eq!(imported["size"], 15);
    assert_eq!(imported["times_ms"][0], 1000);
    let board = imported["board"].as_array().unwrap();
    assert_eq!(board[14], "o..............");
    assert_eq!(board[7], ".......x.......");
}

#[tokio::test]
async fn renlib_text_is_the_move_list_in_renju_notation() {
    let (server, _db) = TestServer::start().await;
    let id = finished_game(&server).await;
    let (status, _, body) = server
        .get(&format!("/api/games/{id}/export?format=renlib"))
        .await;
    assert_eq!(status, 200);
    assert_eq!(body, "h8 a1 h9 a2 h10 a3 h11 a4 h12\n");
}

#[tokio::test]
async fn the_readable_record_has_headers_and_timed_moves() {
    let (server, _db) = TestServer::start().await;
    let id = finished_game(&server).await;
    let (status, _, body) = server
        .get(&format!("/api/games/{id}/export?format=text"))
        .await;
    assert_eq!(status, 200);
    assert!(body.contains("[Event \"casual game\"]\n"), "{body}");
    assert!(body.contains("[Black \"guest-"), "{body}");
    assert!(body.contains("[Rules \"freestyle, 15x15"), "{body}");
    assert!(body.contains("[Opening \"none\"]"), "{body}");
    assert!(body.contains("[TimeControl \"5+0\"]"), "{body}");
    assert!(body.contains("[Result \"black wins (five)\"]"), "{body}");
    assert!(body.contains("\n1. h8 (1.0 s) a1 (1.0 s)\n"), "{body}");
    assert!(body.ends_with("5. h12 (1.0 s)\n"), "{body}");
}

#[tokio::test]
async fn every_export_of_a_game_downloads_under_its_own_name() {
    let (server, _db) = TestServer::start().await;
    let id = finished_game(&server).await;
    let (_, record) = server.get_json(&format!("/api/games/{id}")).await;
    let public = record["public_id"].as_str().unwrap().to_owned();
    let mut names = Vec::new();
    for format in ["", "?format=psq", "?format=renlib", "?format=text"] {
        let (status, head, _) = server.get(&format!("/api/games/{id}/export{format}")).await;
        assert_eq!(status, 200, "{format}");
        let name = head
            .split("filename=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("{format}: no file name in {head}"))
            .to_owned();
        names.push(name);
    }
    assert_eq!(
        names,
        [
            format!("gomoku-{public}.txt"),
            format!("gomoku-{public}.psq"),
            format!("gomoku-{public}.renlib.txt"),
            format!("gomoku-{public}.record.txt"),
        ]
    );
}

#[tokio::test]
async fn a_draughts_readable_record_names_its_rules_in_words() {
    let (server, _db) = TestServer::start().await;
    let draughts = protocol::GameSpec::Draughts(protocol::DraughtsSpec {
        variant: Default::default(),
    });
    let t = testkit::game_table::GameTable::open(&server, draughts, TimeControl::None).await;
    let (status, _, text) = server
        .get(&format!("/api/games/{}/export?format=text", t.record))
        .await;
    assert_eq!(status, 200);
    assert!(
        text.contains("[Rules \"draughts, variant=international\"]"),
        "{text}"
    );
    assert!(!text.contains('{'), "no debug text: {text}");
}

#[tokio::test]
async fn an_unknown_format_is_a_400_and_the_usual_export_is_unchanged() {
    let (server, _db) = TestServer::start().await;
    let id = finished_game(&server).await;
    let (status, body) = server
        .get_json(&format!("/api/games/{id}/export?format=sgf"))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("unknown_format"))
    );
    // The usual export is unchanged.
    let (status, _, text) = server.get(&format!("/api/games/{id}/export")).await;
    assert_eq!(
        (status, text.as_str()),
        (200, "h8 a1 h9 a2 h10 a3 h11 a4 h12\n")
    );
}

#[tokio::test]
async fn bad_psq_files_are_refused_with_their_codes() {
    let (server, _db) = TestServer::start().await;
    for (file, code) in [
        ("not a psq", "bad_psq_header"),
        ("Piskvorky 25x25, 11:11, 0\n", "unsupported_board_size"),
        ("Piskvorky 15x15, 11:11, 0\n16,1,0\n", "off_board"),
        ("Piskvorky 15x15, 11:11, 0\n3,3,0\n3,3,0\n", "occupied"),
    ] {
        let (status, body) = post_psq(&server, file).await;
        assert_eq!((status, body["code"].as_str()), (400, Some(code)), "{file}");
    }
    let (status, body) = post_psq(&server, vec![0xff, 0xfe]).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_encoding")));
}

#[tokio::test]
async fn a_psq_file_of_64_kib_is_read_and_one_byte_more_is_413() {
    let (server, _db) = TestServer::start().await;
    let header = "Piskvorky 15x15, 11:11, 0\n8,8,0\n";
    let limit = server::export::MAX_PSQ_BYTES;
    let at_limit = format!("{header}{}", "\n".repeat(limit - header.len()));
    let (status, body) = post_psq(&server, at_limit.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["moves"], serde_json::json!(["h8"]));
    let (status, body) = post_psq(&server, format!("{at_limit}\n")).await;
    assert_eq!((status, body["code"].as_str()), (413, Some("too_large")));
}

#[tokio::test]
async fn an_othello_game_has_no_psq_but_has_a_readable_record() {
    let (server, _db) = TestServer::start().await;
    let othello = protocol::GameSpec::Othello(protocol::OthelloSpec {
        scoring: protocol::OthelloScoring::default(),
    });
    let t = testkit::game_table::GameTable::open(&server, othello, TimeControl::None).await;
    let (status, body) = server
        .get_json(&format!("/api/games/{}/export?format=psq", t.record))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("unsupported_format"))
    );
    let (status, _, text) = server
        .get(&format!("/api/games/{}/export?format=text", t.record))
        .await;
    assert_eq!(status, 200);
    assert!(text.contains("[Game \"othello\"]"), "{text}");
    assert!(text.contains("[Result \"in progress\"]"), "{text}");
}
