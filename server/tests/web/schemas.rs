//! The served schemas, checked against the real thing: every frame of real played games (join, moves, the swap, a
//! renju forbidden point, game over, chat, errors) matches `GET /api/protocol.schema.json`; real answers of every
//! documented route (status and body) match `GET /api/openapi.json`; the checked-in copies in docs/ are what is
//! served (`UPDATE_SCHEMAS=1 cargo test -p server --test web schemas` rewrites docs/openapi.json; the protocol's copy is
//! rewritten by `UPDATE_SCHEMAS=1 cargo test -p protocol --test protocol schema`).

use crate::common;

use std::collections::BTreeSet;

use common::*;
use futures_util::{SinkExt, StreamExt};
use jsonschema::Validator;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Objects refuse fields their schema does not describe (the served documents leave them open), so a real frame or
/// answer with an undocumented field fails here.
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

/// A validator of `schema` whose `#/…` references resolve in `document` (strictly).
fn validator_in(document: &Value, schema: &Value) -> Validator {
    let mut doc = document.clone();
    let root = doc.as_object_mut().unwrap();
    root.remove("anyOf");
    root.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    for (k, v) in schema.as_object().unwrap() {
        root.insert(k.clone(), v.clone());
    }
    strict(&mut doc);
    jsonschema::draft202012::new(&doc).expect("the schema compiles")
}

fn errors(v: &Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance).map(|e| e.to_string()).collect()
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A WebSocket client that keeps every frame it sent and received, as JSON.
struct Raw {
    ws: Ws,
    next_rid: u64,
    sent: Vec<Value>,
    got: Vec<Value>,
}

impl Raw {
    async fn connect(server: &TestServer) -> Raw {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr))
            .await
            .expect("connect");
        let mut raw = Raw {
            ws,
            next_rid: 1,
            sent: Vec::new(),
            got: Vec::new(),
        };
        raw.send(json!({"t":"hello","version":1})).await;
        raw
    }

    async fn recv(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a frame in time")
                .expect("open")
                .expect("frame");
            if let Message::Text(text) = frame {
                let v: Value = serde_json::from_str(&text).expect("the server sends JSON");
                self.got.push(v.clone());
                return v;
            }
        }
    }

    async fn send_text(&mut self, text: String) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    /// Sends a message with a fresh `rid` and returns the reply to it (everything before it is kept too).
    async fn send(&mut self, mut msg: Value) -> Value {
        let rid = self.next_rid;
        self.next_rid += 1;
        msg["rid"] = json!(rid);
        self.sent.push(msg.clone());
        self.send_text(msg.to_string()).await;
        loop {
            let v = self.recv().await;
            if v["rid"] == json!(rid) {
                return v;
            }
        }
    }

    /// Receives everything queued before a `ping` sent now is answered.
    async fn drain(&mut self) {
        self.send(json!({"t":"ping"})).await;
    }
}

fn place(room: &str, point: &str, ply: u32) -> Value {
    json!({"t":"place","room":room,"point":point,"ply":ply})
}

async fn served(server: &TestServer, path: &str) -> (String, String) {
    let (status, head, body) = server.get(path).await;
    assert_eq!(status, 200, "{path}");
    (head, body)
}

#[tokio::test]
async fn the_served_documents_are_the_checked_in_copies_with_cache_and_security_headers() {
    let (server, _db) = TestServer::start().await;
    for (path, file) in [
        ("/api/protocol.schema.json", "protocol.schema.json"),
        ("/api/openapi.json", "openapi.json"),
    ] {
        let (head, body) = served(&server, path).await;
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(
            head.contains("cache-control: public, max-age=3600"),
            "{head}"
        );
        assert!(
            head.contains("content-security-policy: default-src 'self'"),
            "{head}"
        );
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
        let copy = format!("{}/../docs/{file}", env!("CARGO_MANIFEST_DIR"));
        if file == "openapi.json" && std::env::var_os("UPDATE_SCHEMAS").is_some() {
            std::fs::write(&copy, &body).unwrap();
        }
        let checked_in = std::fs::read_to_string(&copy).unwrap_or_default();
        assert!(
            checked_in == body,
            "docs/{file} differs from what {path} serves; regenerate it with \
             `UPDATE_SCHEMAS=1 cargo test -p protocol --test protocol schema` (protocol.schema.json) or \
             `UPDATE_SCHEMAS=1 cargo test -p server --test web schemas` (openapi.json) and review the difference"
        );
    }
}

#[tokio::test]
async fn every_frame_of_real_games_matches_the_served_protocol_schema() {
    let (server, _db) = TestServer::start().await;
    let schema: Value =
        serde_json::from_str(&served(&server, "/api/protocol.schema.json").await.1).unwrap();
    let client_v = validator_in(&schema, &json!({"$ref": "#/$defs/ClientMessage"}));
    let server_v = validator_in(&schema, &json!({"$ref": "#/$defs/ServerMessage"}));
    let mut a = Raw::connect(&server).await;
    let mut b = Raw::connect(&server).await;
    let mut s = Raw::connect(&server).await;

    // A renju game with the swap after three: joins, moves, the swap, chat of both kinds, errors, a resignation.
    let created = a
        .send(
            json!({"t":"create_room","rules":{"rule_set":"renju","opening":"swap_after_three"},
                     "time_control":{"kind":"fischer","base_ms":300000,"increment_ms":5000}}),
        )
        .await;
    let room = created["room"]["id"].as_str().unwrap().to_owned();
    b.send(json!({"t":"join","room":room})).await;
    s.send(json!({"t":"join","room":room,"as":"spectator"}))
        .await;
    s.send(json!({"t":"subscribe_lobby"})).await;
    a.send(place(&room, "h8", 1)).await;
    b.send(place(&room, "h9", 2)).await;
    a.send(place(&room, "j10", 3)).await;
    let swapped = b
        .send(json!({"t":"decide_swap","room":room,"swap":true}))
        .await;
    assert_eq!(swapped["event"]["kind"], "swap_decided", "{swapped}");
    a.send(json!({"t":"chat","room":room,"text":"gl hf"})).await;
    s.send(json!({"t":"chat","room":room,"text":"bold swap"}))
        .await;
    let shown = a
        .send(json!({"t":"show_spectator_chat","room":room,"show":true}))
        .await;
    assert_eq!(shown["t"], "room", "{shown}");
    assert_eq!(
        shown["room"]["chat"].as_array().unwrap().len(),
        2,
        "{shown}"
    );
    let hidden = a
        .send(json!({"t":"show_spectator_chat","room":room,"show":false}))
        .await;
    assert_eq!(hidden["t"], "ack", "{hidden}");
    let stale = a.send(place(&room, "a1", 2)).await;
    assert_eq!(stale["code"], "stale_ply", "{stale}");
    let spectator = s.send(place(&room, "a1", 4)).await;
    assert_eq!(spectator["code"], "not_a_player", "{spectator}");
    a.send_text("{not json".into()).await;
    a.send_text(r#"{"t":"teleport"}"#.into()).await;
    a.send(json!({"t":"offer_draw","room":room})).await;
    a.send(json!({"t":"resign","room":room})).await;
    let rejoined = s
        .send(json!({"t":"join","room":room,"as":"spectator","since":1}))
        .await;
    assert_eq!(rejoined["t"], "catch_up", "{rejoined}");

    // A renju game without an opening: black's double three at h8 is refused, then white makes five.
    let created = a
        .send(json!({"t":"create_room","rules":{"rule_set":"renju"},"public":false}))
        .await;
    let room2 = created["room"]["id"].as_str().unwrap().to_owned();
    b.send(json!({"t":"join","room":room2})).await;
    let moves = [("f8", "a15"), ("g8", "b15"), ("h6", "c15"), ("h7", "d15")];
    let mut ply = 1;
    for (black, white) in moves {
        a.send(place(&room2, black, ply)).await;
        let reply = b.send(place(&room2, white, ply + 1)).await;
        assert_eq!(reply["event"]["kind"], "move", "{reply}");
        ply += 2;
    }
    let forbidden = a.send(place(&room2, "h8", ply)).await;
    assert_eq!(forbidden["code"], "forbidden_double_three", "{forbidden}");
    a.send(place(&room2, "o1", ply)).await;
    b.send(place(&room2, "e15", ply + 1)).await;
    for c in [&mut a, &mut b, &mut s] {
        c.drain().await;
    }

    let mut kinds = BTreeSet::new();
    for c in [&a, &b, &s] {
        for frame in &c.sent {
            let wrong = errors(&client_v, frame);
            assert!(wrong.is_empty(), "client frame {frame}: {wrong:?}");
        }
        for frame in &c.got {
            let wrong = errors(&server_v, frame);
            assert!(wrong.is_empty(), "server frame {frame}: {wrong:?}");
            let t = frame["t"].as_str().unwrap();
            kinds.insert(match t {
                "event" => format!("event:{}", frame["event"]["kind"].as_str().unwrap()),
                "error" => format!("error:{}", frame["code"].as_str().unwrap()),
                _ => t.to_owned(),
            });
        }
    }
    let forbidden_listed = a.got.iter().any(|f| {
        f["event"]["forbidden"]
            .as_array()
            .is_some_and(|points| points.contains(&json!({"point":"h8","kind":"double_three"})))
    });
    assert!(forbidden_listed, "a move event listed black's forbidden h8");
    for expected in [
        "welcome",
        "room",
        "catch_up",
        "lobby",
        "ack",
        "pong",
        "spectator_chat",
        "event:player_joined",
        "event:game_started",
        "event:spectators",
        "event:move",
        "event:swap_decided",
        "event:chat",
        "event:offered",
        "event:game_over",
        "error:stale_ply",
        "error:not_a_player",
        "error:bad_json",
        "error:unknown_type",
        "error:forbidden_double_three",
    ] {
        assert!(kinds.contains(expected), "no {expected} in {kinds:?}");
    }
    // And the check can fail: a real frame with one field broken is refused.
    let mut broken = a.got.iter().find(|f| f["t"] == "welcome").unwrap().clone();
    broken["you"]["guest"] = json!("yes");
    assert!(!server_v.is_valid(&broken));
}

#[tokio::test]
async fn every_example_frame_of_the_protocol_doc_matches_the_served_schema() {
    let (server, _db) = TestServer::start().await;
    let schema: Value =
        serde_json::from_str(&served(&server, "/api/protocol.schema.json").await.1).unwrap();
    let client_v = validator_in(&schema, &json!({"$ref": "#/$defs/ClientMessage"}));
    let server_v = validator_in(&schema, &json!({"$ref": "#/$defs/ServerMessage"}));
    let doc = include_str!("../../../docs/protocol.md");
    let mut checked = 0;
    for (sender, text) in protocol::doc_examples(doc) {
        let v = match sender {
            protocol::Sender::Client => &client_v,
            protocol::Sender::Server => &server_v,
        };
        let frame: Value = serde_json::from_str(text).unwrap();
        let wrong = errors(v, &frame);
        assert!(wrong.is_empty(), "{text}: {wrong:?}");
        checked += 1;
    }
    assert!(checked > 50, "only {checked} examples found");
}

/// The route template a request path matches in the document.
fn template_of<'d>(doc: &'d Value, path: &str) -> &'d str {
    let path = path.split('?').next().unwrap();
    let parts: Vec<&str> = path.split('/').collect();
    doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .find(|t| {
            let tp: Vec<&str> = t.split('/').collect();
            tp.len() == parts.len()
                && tp
                    .iter()
                    .zip(&parts)
                    .all(|(t, p)| t.starts_with('{') || t == p)
        })
        .unwrap_or_else(|| panic!("{path} is not in the OpenAPI document"))
}

/// Checks one real answer against the document: its status is documented for the route, and its body matches.
fn check(
    doc: &Value,
    method: &str,
    path: &str,
    status: u16,
    body: &str,
    covered: &mut BTreeSet<String>,
) {
    let template = template_of(doc, path);
    covered.insert(format!("{method} {template}"));
    let response = &doc["paths"][template][method]["responses"][status.to_string()];
    assert!(
        response.is_object(),
        "{method} {path} answered {status}, which the document does not list: {body}"
    );
    if response["content"]["text/plain"].is_object() {
        assert!(!body.is_empty(), "{method} {path}: an empty text");
        return;
    }
    let schema = &response["content"]["application/json"]["schema"];
    if schema.is_null() {
        assert!(
            body.is_empty(),
            "{method} {path}: a {status} with a body: {body}"
        );
        return;
    }
    let value: Value =
        serde_json::from_str(body).unwrap_or_else(|_| panic!("{method} {path}: {body}"));
    let v = validator_in(&json!({"components": doc["components"]}), schema);
    let wrong = errors(&v, &value);
    assert!(
        wrong.is_empty(),
        "{method} {path} {status}: {wrong:?}\n{body}"
    );
}

#[tokio::test]
async fn every_documented_route_answers_as_the_openapi_document_says() {
    let (server, _db) = TestServer::start().await;
    let doc: Value = serde_json::from_str(&served(&server, "/api/openapi.json").await.1).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let http = reqwest::Client::new();
    let mut covered = BTreeSet::new();

    // A played game, for a record and a profile with games.
    let alice = server.registered("alice").await;
    let mut a = alice.client;
    let mut b = server.client().await;
    let snapshot = a.create(freestyle(), protocol::TimeControl::None).await;
    b.join(&snapshot.id, protocol::JoinRole::Player).await;
    a.place(&snapshot.id, "h8", 1).await.unwrap();
    let guest_token = b.token.clone();
    let started = b.join(&snapshot.id, protocol::JoinRole::Player).await;
    let record = started.record.expect("a record");
    let resigned = a
        .act(protocol::ClientMessage::Resign {
            room: snapshot.id.clone(),
        })
        .await
        .unwrap();
    assert!(
        matches!(resigned, protocol::RoomEvent::GameOver { .. }),
        "{resigned:?}"
    );
    // An Othello game too: its record, export and place in the profile have the generic shape.
    let othello = protocol::GameSpec::Othello(protocol::OthelloSpec {
        scoring: protocol::OthelloScoring::Japanese,
    });
    let protocol::ServerMessage::Room { room: othello_room } = a
        .request(testkit::game_table::create_game(
            othello,
            protocol::TimeControl::None,
            protocol::ColourChoice::Black,
        ))
        .await
    else {
        panic!("an Othello room");
    };
    let joined = b.join(&othello_room.id, protocol::JoinRole::Player).await;
    let othello_record = joined.record.expect("a record");
    a.act(protocol::ClientMessage::Act {
        room: othello_room.id.clone(),
        action: "f5".into(),
        at: 0,
    })
    .await
    .unwrap();
    a.act(protocol::ClientMessage::Resign {
        room: othello_room.id.clone(),
    })
    .await
    .unwrap();

    // A match over the Othello room's game (as a challenge's room would store it).
    let match_id = server
        .state
        .store
        .create_match(&store::NewMatch {
            room: othello_room.id.clone(),
            game: "othello".into(),
            games: 2,
            rated: false,
            first: store::PlayerRef {
                name: "alice".into(),
                user_id: Some(alice.user_id),
            },
            second: store::PlayerRef {
                name: b.name.clone(),
                user_id: None,
            },
            created_at: 0,
        })
        .await
        .unwrap();

    let mut gets = vec![
        format!("/api/matches/{match_id}"),
        "/api/matches/123456".to_owned(),
        format!("/api/games/{othello_record}"),
        format!("/api/games/{othello_record}/export"),
        format!("/api/games/{record}/export"),
        format!("/api/games/{record}/export?format=psq"),
        format!("/api/games/{record}/export?format=renlib"),
        format!("/api/games/{record}/export?format=text"),
        format!("/api/games/{record}/export?format=sgf"),
        format!("/api/games/{othello_record}/export?format=psq"),
        "/api/games/nosuchgame/export".to_owned(),
        "/api/health".to_owned(),
        "/api/computer".to_owned(),
        "/api/rooms".to_owned(),
        "/api/quick".to_owned(),
        format!("/api/games/{record}"),
        "/api/games/nosuchgame".to_owned(),
        "/api/protocol.schema.json".to_owned(),
        "/api/openapi.json".to_owned(),
        "/api/leaderboard".to_owned(),
        "/api/leaderboard?pool=chess".to_owned(),
        "/api/tiers".to_owned(),
        "/api/players/alice".to_owned(),
        "/api/players/nobody".to_owned(),
        "/api/players/alice/games".to_owned(),
        "/api/players/alice/games?limit=abc".to_owned(),
        "/api/players/nobody/games".to_owned(),
        "/api/me".to_owned(),
    ];
    for path in gets.drain(..) {
        let r = http.get(server.url(&path)).send().await.unwrap();
        let status = r.status().as_u16();
        check(
            &doc,
            "get",
            &path,
            status,
            &r.text().await.unwrap(),
            &mut covered,
        );
    }
    for token in [alice.token.as_str(), guest_token.as_str()] {
        let r = http
            .get(server.url("/api/me"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        check(
            &doc,
            "get",
            "/api/me",
            200,
            &r.text().await.unwrap(),
            &mut covered,
        );
    }

    let creds = json!({"username":"bob_the_builder","password":"a long and unusual passphrase 42","issue_token":true});
    let mut posts = vec![
        ("/api/register", creds.clone(), None),
        ("/api/register", creds.clone(), None),
        ("/api/register", json!({"username":"x"}), None),
        (
            "/api/register",
            json!({"username":"carol","password":"short"}),
            None,
        ),
        ("/api/login", creds.clone(), None),
        (
            "/api/login",
            json!({"username":"bob_the_builder","password":"wrong wrong wrong"}),
            None,
        ),
        ("/api/logout/everywhere", json!({}), None),
        (
            "/api/logout/everywhere",
            json!({}),
            Some(alice.token.clone()),
        ),
        ("/api/logout", json!({}), None),
    ];
    let mut statuses = Vec::new();
    for (path, body, token) in posts.drain(..) {
        let mut req = http.post(server.url(path)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        statuses.push(status);
        check(
            &doc,
            "post",
            path,
            status,
            &r.text().await.unwrap(),
            &mut covered,
        );
    }
    assert_eq!(statuses, [201, 409, 400, 400, 200, 401, 401, 200, 204]);
    let (_, _, psq) = server
        .get(&format!("/api/games/{record}/export?format=psq"))
        .await;
    let mut statuses = Vec::new();
    for body in [psq, "nope".to_owned(), "x".repeat(70_000)] {
        let r = http
            .post(server.url("/api/import/psq"))
            .body(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        statuses.push(status);
        check(
            &doc,
            "post",
            "/api/import/psq",
            status,
            &r.text().await.unwrap(),
            &mut covered,
        );
    }
    assert_eq!(statuses, [200, 400, 413]);
    let mut statuses = Vec::new();
    // Alice signed out everywhere above: a fresh account sets its challenges.
    let dora = server.registered("dora").await;
    for (method, body, token) in [
        ("get", None, None),
        ("get", None, Some(dora.token.clone())),
        (
            "put",
            Some(json!({"accept":"accounts"})),
            Some(dora.token.clone()),
        ),
        (
            "put",
            Some(json!({"accept":"maybe"})),
            Some(dora.token.clone()),
        ),
        ("put", Some(json!({"accept":"none"})), None),
    ] {
        let url = server.url("/api/me/challenges");
        let mut req = if method == "get" {
            http.get(url)
        } else {
            http.put(url).json(&body.unwrap())
        };
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        statuses.push(status);
        check(
            &doc,
            method,
            "/api/me/challenges",
            status,
            &r.text().await.unwrap(),
            &mut covered,
        );
    }
    assert_eq!(statuses, [401, 200, 200, 400, 401]);
    let mut statuses = Vec::new();
    for (path, body, token) in [
        (
            "/api/password",
            json!({"old_password":"not the password","new_password":"a brand new passphrase"}),
            Some(dora.token.clone()),
        ),
        (
            "/api/password",
            json!({"old_password":"x","new_password":"a brand new passphrase"}),
            None,
        ),
        (
            "/api/password/reset",
            json!({"username":"dora","code":"AAAA-BBBB-CCCC-DDDD","new_password":"a brand new passphrase"}),
            None,
        ),
    ] {
        let mut req = http.post(server.url(path)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        statuses.push(status);
        check(
            &doc,
            "post",
            path,
            status,
            &r.text().await.unwrap(),
            &mut covered,
        );
    }
    assert_eq!(statuses, [403, 401, 400]);
    // The computer analysis (issue #33): asked for, looked at, cancelled, and the analysis board's engine.
    let analysis = format!("/api/games/{record}/analysis");
    let mut statuses = Vec::new();
    for (method, path, body, token) in [
        ("post", analysis.as_str(), None, None),
        ("post", analysis.as_str(), None, Some(dora.token.clone())),
        ("get", analysis.as_str(), None, None),
        ("delete", analysis.as_str(), None, Some(dora.token.clone())),
        ("delete", analysis.as_str(), None, Some(dora.token.clone())),
        (
            "post",
            "/api/analysis/evaluate",
            Some(json!({"game":"othello","actions":["f5"],"ms":20})),
            None,
        ),
        (
            "post",
            "/api/analysis/evaluate",
            Some(json!({"game":"othello","actions":["a1"]})),
            None,
        ),
    ] {
        let url = server.url(path);
        let mut req = match method {
            "get" => http.get(url),
            "delete" => http.delete(url),
            _ => http.post(url),
        };
        if let Some(body) = body {
            req = req.json(&body);
        }
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        statuses.push(status);
        check(
            &doc,
            method,
            path,
            status,
            &r.text().await.unwrap(),
            &mut covered,
        );
    }
    assert_eq!(statuses, [401, 202, 200, 200, 404, 200, 400]);

    // The community's routes (#38): a player, another to follow, block and report, and a moderator.
    let eve = server.registered("eve").await;
    let mod_ = server.registered("mona").await;
    server::community::admin::grant(
        server.state.store.as_ref(),
        "mona",
        server::community::Role::Moderator,
    )
    .await
    .unwrap();
    for (method, path, token, body) in [
        (
            "get",
            "/api/me/community".to_owned(),
            Some(&eve.token),
            None,
        ),
        ("get", "/api/me/community".to_owned(), None, None),
        (
            "put",
            "/api/me/follows/alice".to_owned(),
            Some(&eve.token),
            None,
        ),
        (
            "put",
            "/api/me/follows/eve".to_owned(),
            Some(&eve.token),
            None,
        ),
        (
            "put",
            "/api/me/follows/nobody".to_owned(),
            Some(&eve.token),
            None,
        ),
        ("get", "/api/me/friends".to_owned(), Some(&eve.token), None),
        (
            "delete",
            "/api/me/follows/alice".to_owned(),
            Some(&eve.token),
            None,
        ),
        (
            "put",
            "/api/me/blocks/alice".to_owned(),
            Some(&eve.token),
            None,
        ),
        (
            "delete",
            "/api/me/blocks/alice".to_owned(),
            Some(&eve.token),
            None,
        ),
        (
            "put",
            "/api/me/privacy".to_owned(),
            Some(&eve.token),
            Some(json!({"share_games": false})),
        ),
        (
            "put",
            "/api/me/privacy".to_owned(),
            Some(&eve.token),
            Some(json!({"share": 1})),
        ),
        (
            "post",
            "/api/reports".to_owned(),
            Some(&eve.token),
            Some(json!({"target": "alice", "reason": "bad_name", "game": record})),
        ),
        (
            "post",
            "/api/reports".to_owned(),
            Some(&eve.token),
            Some(json!({"target": "alice", "reason": "other"})),
        ),
        (
            "post",
            "/api/reports".to_owned(),
            Some(&eve.token),
            Some(json!({"target": "nobody", "reason": "cheating"})),
        ),
        ("get", "/api/me/reports".to_owned(), Some(&eve.token), None),
        (
            "get",
            "/api/mod/reports".to_owned(),
            Some(&mod_.token),
            None,
        ),
        (
            "get",
            "/api/mod/reports?status=all".to_owned(),
            Some(&eve.token),
            None,
        ),
        (
            "get",
            "/api/mod/reports?status=closed".to_owned(),
            Some(&mod_.token),
            None,
        ),
        (
            "post",
            "/api/mod/actions".to_owned(),
            Some(&mod_.token),
            Some(json!({"action": "warn", "target": "alice", "reason": "be nice"})),
        ),
        (
            "post",
            "/api/mod/actions".to_owned(),
            Some(&mod_.token),
            Some(json!({"action": "mute", "target": "alice", "minutes": 0, "reason": "x"})),
        ),
        (
            "post",
            "/api/mod/actions".to_owned(),
            Some(&mod_.token),
            Some(json!({"action": "rename", "target": "alice", "new_name": "eve", "reason": "x"})),
        ),
        (
            "post",
            "/api/mod/actions".to_owned(),
            Some(&mod_.token),
            Some(json!({"action": "warn", "target": "nobody", "reason": "x"})),
        ),
        (
            "post",
            "/api/mod/actions".to_owned(),
            Some(&eve.token),
            Some(json!({"action": "warn", "target": "alice", "reason": "x"})),
        ),
        ("get", "/api/mod/log".to_owned(), Some(&mod_.token), None),
        ("get", "/api/mod/log".to_owned(), Some(&eve.token), None),
        ("get", "/api/me/export".to_owned(), Some(&eve.token), None),
        (
            "post",
            "/api/me/close".to_owned(),
            Some(&eve.token),
            Some(json!({"confirm": "EVE"})),
        ),
        (
            "post",
            "/api/me/close".to_owned(),
            Some(&eve.token),
            Some(json!({"confirm": "eve"})),
        ),
    ] {
        let method_ = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let mut req = http.request(method_, server.url(&path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        check(
            &doc,
            method,
            &path,
            status,
            &r.text().await.unwrap(),
            &mut covered,
        );
    }

    // events: the events' routes (issue #34): a Swiss made, listed, shown, joined, left, withdrawn from, its TRF.
    let maker = server.registered("evmaker").await;
    let event_body = json!({"name": "Swiss", "kind": "swiss", "game": {"game": "othello", "scoring": "japanese"},
        "rounds": 3, "starts_at": server::time::unix_ms() + 600_000});
    let r = http
        .post(server.url("/api/events"))
        .bearer_auth(&maker.token)
        .json(&event_body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let made: Value = r.json().await.unwrap();
    let event = made["id"].as_i64().unwrap();
    check(
        &doc,
        "post",
        "/api/events",
        201,
        &made.to_string(),
        &mut covered,
    );
    for (method, path, token, body, want) in [
        (
            "post",
            "/api/events".to_owned(),
            Some(&maker.token),
            Some(json!({"name": ""})),
            400,
        ),
        (
            "post",
            "/api/events".to_owned(),
            None,
            Some(event_body.clone()),
            401,
        ),
        ("get", "/api/events".to_owned(), None, None, 200),
        (
            "post",
            format!("/api/events/{event}/join"),
            Some(&maker.token),
            Some(json!({})),
            200,
        ),
        (
            "post",
            format!("/api/events/{event}/join"),
            Some(&maker.token),
            Some(json!({})),
            409,
        ),
        ("post", format!("/api/events/{event}/join"), None, None, 401),
        ("get", format!("/api/events/{event}"), None, None, 200),
        ("get", "/api/events/0".to_owned(), None, None, 404),
        ("get", format!("/api/events/{event}/trf"), None, None, 200),
        ("get", "/api/events/0/trf".to_owned(), None, None, 404),
        (
            "post",
            format!("/api/events/{event}/leave"),
            Some(&maker.token),
            None,
            204,
        ),
        (
            "post",
            format!("/api/events/{event}/withdraw"),
            Some(&maker.token),
            None,
            404,
        ),
        (
            "post",
            format!("/api/events/{event}/leave"),
            None,
            None,
            401,
        ),
        (
            "post",
            format!("/api/events/{event}/withdraw"),
            None,
            None,
            401,
        ),
    ] {
        let url = server.url(&path);
        let mut req = if method == "get" {
            http.get(url)
        } else {
            http.post(url)
        };
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        assert_eq!(status, want, "{method} {path}: {text}");
        check(&doc, method, &path, status, &text, &mut covered);
    }

    let documented: BTreeSet<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(p, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |m| format!("{m} {p}"))
        })
        .collect();
    assert_eq!(
        covered, documented,
        "every documented operation was exercised"
    );

    // And the check can fail: a real record with one field of the wrong type is refused.
    let r = http
        .get(server.url(&format!("/api/games/{record}")))
        .send()
        .await
        .unwrap();
    let mut game: Value = r.json().await.unwrap();
    game["moves"] = json!(5);
    let schema = &doc["paths"]["/api/games/{id}"]["get"]["responses"]["200"]["content"]
        ["application/json"]["schema"];
    let v = validator_in(&json!({"components": doc["components"]}), schema);
    assert!(!v.is_valid(&game));
}

/// The schema of a parameter, its `$ref` (to a component) followed.
fn resolved<'d>(doc: &'d Value, schema: &'d Value) -> &'d Value {
    match schema["$ref"].as_str() {
        Some(r) => &doc["components"]["schemas"][r.trim_start_matches("#/components/schemas/")],
        None => schema,
    }
}

#[tokio::test]
async fn the_documents_query_bounds_and_enums_are_exactly_what_the_server_accepts() {
    let (server, _db) = TestServer::start().await;
    let doc: Value = serde_json::from_str(&served(&server, "/api/openapi.json").await.1).unwrap();
    server.registered("alice").await;
    let mut checked = 0;
    for (template, item) in doc["paths"].as_object().unwrap() {
        let Some(params) = item["get"]["parameters"].as_array() else {
            continue;
        };
        // Routes whose path parameters name nothing here answer 404 first: their queries are checked elsewhere.
        if template.contains("{id}") {
            continue;
        }
        // The moderators' routes answer 401 to this signed-out client first: tests/community.rs checks their
        // queries with a moderator's session.
        if template.starts_with("/api/mod/") {
            continue;
        }
        let path = template.replace("{name}", "alice");
        // Each required parameter at its first allowed value, so that the one under test decides the answer.
        let base: Vec<String> = params
            .iter()
            .filter(|p| p["required"] == true && p["in"] == "query")
            .map(|p| {
                let first = &resolved(&doc, &p["schema"])["enum"][0];
                format!(
                    "{}={}",
                    p["name"].as_str().unwrap(),
                    first.as_str().unwrap()
                )
            })
            .collect();
        for p in params.iter().filter(|p| p["in"] == "query") {
            let name = p["name"].as_str().unwrap();
            let schema = resolved(&doc, &p["schema"]);
            let mut cases: Vec<(String, bool)> = Vec::new();
            if let Some(values) = schema["enum"].as_array() {
                cases.extend(
                    values
                        .iter()
                        .map(|v| (v.as_str().unwrap().to_owned(), true)),
                );
                cases.push(("no_such_value".to_owned(), false));
            }
            if let (Some(min), Some(max)) = (schema["minimum"].as_i64(), schema["maximum"].as_i64())
            {
                cases.extend([
                    (min.to_string(), true),
                    (max.to_string(), true),
                    // Past i64's ends too (a bound may be the server's type's own).
                    ((i128::from(min) - 1).to_string(), false),
                    ((i128::from(max) + 1).to_string(), false),
                ]);
            }
            for (value, accepted) in cases {
                let query: Vec<String> = base
                    .iter()
                    .filter(|q| !q.starts_with(&format!("{name}=")))
                    .cloned()
                    .chain([format!("{name}={value}")])
                    .collect();
                let url = format!("{path}?{}", query.join("&"));
                let (status, body) = server.get_json(&url).await;
                if accepted {
                    assert_eq!(status, 200, "{url}: the document allows it\n{body}");
                } else {
                    assert_eq!(status, 400, "{url}: the document refuses it\n{body}");
                }
                checked += 1;
            }
        }
    }
    // The leaderboard's pool, limit and offset; the games list's limit, pool and result.
    assert!(checked >= 30, "only {checked} cases");
}
