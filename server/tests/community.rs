//! People around the board (issue #38) over real HTTP and WebSockets against the real app on port 0: roles and the
//! operator's `admin grant`, moderator routes refused to players, blocks (challenges, chat, watching, quick
//! pairing; private), reports (evidence, the daily limit, the reporter's view of the status), the moderators'
//! actions and their audit log (warn, mute, remove a line, rename, close), guests muted by address range,
//! follows and the privacy setting, and a player's own data (export, closing the account). SQLite always,
//! Postgres when `TEST_DATABASE_URL` is set.

use serde_json::{json, Value};
use server::community::Role;
use testkit::accounts::{test_config, App, Db, Socket};
use testkit::on_both_stores;

const PASSWORD: &str = "correct horse battery";

async fn app(db: Db) -> App {
    App::start(db, test_config())
        .await
        .expect("store available")
}

/// A request with a bearer token and an optional JSON body; answers the status and the JSON body (`null` when
/// there is none).
async fn call(
    app: &App,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = app.http.request(method, app.url(path)).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).expect("a JSON body")
    };
    (status, value)
}

/// A new session of an account (a second sign-in), with its token.
async fn login(app: &App, name: &str) -> String {
    let response = app
        .post(
            "/api/login",
            &json!({"username": name, "password": PASSWORD, "issue_token": true}),
        )
        .await;
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.unwrap();
    body["token"].as_str().unwrap().to_owned()
}

async fn grant(app: &App, name: &str, role: Role) {
    server::community::admin::grant(app.store.as_ref(), name, role)
        .await
        .expect("granted");
}

/// Opens a public freestyle room; answers its id.
async fn open_room(socket: &mut Socket) -> String {
    let reply = socket
        .request(
            json!({"t": "create_room", "rules": {"rule_set": "freestyle"}, "public": true}),
            1,
        )
        .await;
    reply["room"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a room in {reply}"))
        .to_owned()
}

async fn chat(socket: &mut Socket, room: &str, text: &str, rid: u64) -> Value {
    socket
        .request(json!({"t": "chat", "room": room, "text": text}), rid)
        .await
}

fn challenge(to: &str) -> Value {
    json!({"t": "challenge", "to": to, "rules": {"size": 15, "rule_set": "freestyle", "forbidden_policy": "reject", "opening": "none"},
           "time_control": {"kind": "fischer", "base_ms": 180000, "increment_ms": 2000}, "rated": false, "colour": "white"})
}

async fn moderator_routes_are_refused_to_players_and_to_the_signed_out(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;

    for (method, path, body) in [
        ("GET", "/api/mod/reports", None),
        ("GET", "/api/mod/log", None),
        (
            "POST",
            "/api/mod/actions",
            Some(json!({"action": "warn", "target": "alice", "reason": "x"})),
        ),
    ] {
        let (status, body_out) = call(&app, method, path, &alice, body.clone()).await;
        assert_eq!(
            (status, body_out["code"].as_str()),
            (403, Some("forbidden")),
            "{path}"
        );
        let (status, body_out) = call(&app, method, path, "nobody", body).await;
        assert_eq!(
            (status, body_out["code"].as_str()),
            (401, Some("not_authenticated")),
            "{path}"
        );
    }
    app.stop().await;
}

async fn the_admin_grant_makes_an_administrator_who_alone_makes_moderators(db: Db) {
    let app = app(db).await;
    let nora = app.register("nora", PASSWORD).await;
    let mia = app.register("mia", PASSWORD).await;
    app.register("carl", PASSWORD).await;
    grant(&app, "NORA", Role::Administrator).await;
    let (_, me) = call(&app, "GET", "/api/me/community", &nora, None).await;
    assert_eq!(me["role"], "administrator");

    let (status, _) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &nora,
        Some(json!({"action": "grant_moderator", "target": "mia", "reason": "trusted"})),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = call(&app, "GET", "/api/mod/reports", &mia, None).await;
    assert_eq!(status, 200, "a moderator opens the queue");

    let (status, body) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "grant_moderator", "target": "carl", "reason": "x"})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("forbidden")),
        "only administrators make moderators"
    );
    assert!(
        server::community::admin::grant(app.store.as_ref(), "nobody", Role::Moderator)
            .await
            .is_err()
    );
    app.stop().await;
}

async fn a_blocked_player_cannot_challenge_the_blocker_until_unblocked(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    let (_alice_socket, _) = app.socket(Some(&alice)).await;
    let (mut bob_socket, _) = app.socket(Some(&bob)).await;
    assert_eq!(
        call(&app, "PUT", "/api/me/blocks/bob", &alice, None)
            .await
            .0,
        204
    );

    let refused = bob_socket.request(challenge("alice"), 2).await;
    assert_eq!(refused["code"], "blocked", "{refused}");

    assert_eq!(
        call(&app, "DELETE", "/api/me/blocks/bob", &alice, None)
            .await
            .0,
        204
    );
    let sent = bob_socket.request(challenge("alice"), 3).await;
    assert_eq!(sent["t"], "challenge", "{sent}");
    app.stop().await;
}

async fn a_blocked_player_cannot_chat_in_or_watch_the_blockers_room(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    let (mut alice_socket, _) = app.socket(Some(&alice)).await;
    let room = open_room(&mut alice_socket).await;
    let (mut bob_socket, _) = app.socket(Some(&bob)).await;
    let joined = bob_socket
        .request(json!({"t": "join", "room": room, "role": "spectator"}), 2)
        .await;
    assert_ne!(joined["t"], "error", "{joined}");
    let said = chat(&mut bob_socket, &room, "hello", 3).await;
    assert_ne!(said["t"], "error", "before the block: {said}");

    assert_eq!(
        call(&app, "PUT", "/api/me/blocks/bob", &alice, None)
            .await
            .0,
        204
    );

    let refused = chat(&mut bob_socket, &room, "hello again", 4).await;
    assert_eq!(refused["code"], "blocked", "{refused}");
    let (mut again, _) = app.socket(Some(&bob)).await;
    let refused = again
        .request(json!({"t": "join", "room": room, "role": "spectator"}), 5)
        .await;
    assert_eq!(refused["code"], "blocked", "{refused}");
    app.stop().await;
}

async fn blocks_are_private_to_the_blocker(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    assert_eq!(
        call(&app, "PUT", "/api/me/follows/bob", &alice, None)
            .await
            .0,
        204
    );
    assert_eq!(
        call(&app, "PUT", "/api/me/blocks/bob", &alice, None)
            .await
            .0,
        204
    );

    let (_, mine) = call(&app, "GET", "/api/me/community", &alice, None).await;
    assert_eq!(mine["blocked"], json!(["bob"]));
    assert_eq!(mine["following"], json!([]), "blocking ends a follow");
    let (_, theirs) = call(&app, "GET", "/api/me/community", &bob, None).await;
    assert_eq!(theirs["blocked"], json!([]));
    let profile = app.get_json("/api/players/bob", 200).await;
    assert!(!profile.to_string().contains("alice"), "{profile}");
    let (status, body) = call(&app, "PUT", "/api/me/blocks/alice", &alice, None).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("self_target")));
    let (status, _) = call(&app, "PUT", "/api/me/blocks/nobody", &alice, None).await;
    assert_eq!(status, 404);
    app.stop().await;
}

async fn quick_pairing_never_pairs_players_who_block_one_another(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    let carol = app.register("carol", PASSWORD).await;
    assert_eq!(
        call(&app, "PUT", "/api/me/blocks/alice", &bob, None)
            .await
            .0,
        204
    );
    let (mut a, _) = app.socket(Some(&alice)).await;
    let (mut b, _) = app.socket(Some(&bob)).await;
    let (mut c, _) = app.socket(Some(&carol)).await;
    let seek = json!({"t": "seek_quick", "preset": "renju-5+3"});

    assert_eq!(a.request(seek.clone(), 2).await["t"], "ack");
    assert_eq!(
        b.request(seek.clone(), 2).await["t"],
        "ack",
        "bob waits: alice is blocked"
    );
    assert_eq!(c.request(seek, 2).await["t"], "ack");

    let paired = c.until(|m| m["t"] == "paired").await;
    let opponent = paired["opponent"].as_str().unwrap();
    assert!(opponent == "alice" || opponent == "bob", "{paired}");
    app.stop().await;
}

async fn a_report_from_a_room_attaches_the_chat_lines_and_the_reporter_sees_its_status(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    let (mut bob_socket, _) = app.socket(Some(&bob)).await;
    let room = open_room(&mut bob_socket).await;
    chat(&mut bob_socket, &room, "you are terrible", 2).await;

    let (status, report) = call(
        &app,
        "POST",
        "/api/reports",
        &alice,
        Some(json!({"target": "bob", "reason": "chat_abuse", "details": "rude", "room": room})),
    )
    .await;

    assert_eq!(status, 201, "{report}");
    assert_eq!(report["status"], "open");
    assert_eq!(report["evidence"][0]["text"], "you are terrible");
    let (_, mine) = call(&app, "GET", "/api/me/reports", &alice, None).await;
    assert_eq!(mine[0]["id"], report["id"]);
    let (status, body) = call(
        &app,
        "POST",
        "/api/reports",
        &alice,
        Some(json!({"target": "bob", "reason": "rudeness"})),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("invalid_body")));
    let (status, _) = call(
        &app,
        "POST",
        "/api/reports",
        &alice,
        Some(json!({"target": "bob", "reason": "cheating", "details": "x".repeat(1001)})),
    )
    .await;
    assert_eq!(status, 400, "1001 characters of details");
    app.stop().await;
}

async fn a_player_may_make_ten_reports_a_day_and_the_eleventh_is_rate_limited(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    app.register("bob", PASSWORD).await;
    let report = json!({"target": "bob", "reason": "sandbagging", "details": "x".repeat(1000)});
    for n in 1..=10 {
        let (status, body) = call(&app, "POST", "/api/reports", &alice, Some(report.clone())).await;
        assert_eq!(status, 201, "report {n}: {body}");
    }

    let (status, body) = call(&app, "POST", "/api/reports", &alice, Some(report)).await;

    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")));
    assert!(body["retry_after"].as_u64().unwrap() > 0);
    app.stop().await;
}

async fn a_moderator_mutes_from_a_report_and_the_audit_log_keeps_who_when_and_why(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    let mia = app.register("mia", PASSWORD).await;
    grant(&app, "mia", Role::Moderator).await;
    let (mut bob_socket, _) = app.socket(Some(&bob)).await;
    let room = open_room(&mut bob_socket).await;
    chat(&mut bob_socket, &room, "rude words", 2).await;
    let (_, report) = call(
        &app,
        "POST",
        "/api/reports",
        &alice,
        Some(json!({"target": "bob", "reason": "chat_abuse", "room": room})),
    )
    .await;
    let (_, queue) = call(&app, "GET", "/api/mod/reports", &mia, None).await;
    assert_eq!(queue[0]["evidence"][0]["text"], "rude words");

    let (status, done) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "mute", "report": report["id"], "minutes": 60, "reason": "insults"})),
    )
    .await;

    assert_eq!(status, 200, "{done}");
    let refused = chat(&mut bob_socket, &room, "more", 3).await;
    assert_eq!(refused["code"], "muted", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("60 minutes"),
        "{refused}"
    );
    let (_, log) = call(&app, "GET", "/api/mod/log", &mia, None).await;
    assert_eq!(log[0]["moderator"], "mia");
    assert_eq!(log[0]["action"], "mute");
    assert_eq!(log[0]["target"], "bob");
    assert_eq!(log[0]["reason"], "insults");
    assert!(log[0]["at"].as_i64().unwrap() > 0);
    let (_, mine) = call(&app, "GET", "/api/me/reports", &alice, None).await;
    assert_eq!(
        mine[0]["status"], "resolved",
        "the reporter sees the outcome"
    );

    // Across sessions: a new sign-in is muted too.
    let again = login(&app, "bob").await;
    let (mut other, _) = app.socket(Some(&again)).await;
    other
        .request(json!({"t": "join", "room": room, "role": "spectator"}), 4)
        .await;
    assert_eq!(chat(&mut other, &room, "hi", 5).await["code"], "muted");

    call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "unmute", "target": "bob", "reason": "served"})),
    )
    .await;
    assert_ne!(chat(&mut bob_socket, &room, "sorry", 6).await["t"], "error");
    app.stop().await;
}

async fn the_report_queue_filters_by_the_documented_statuses_only(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    app.register("bob", PASSWORD).await;
    let mia = app.register("mia", PASSWORD).await;
    grant(&app, "mia", Role::Moderator).await;
    let (_, report) = call(
        &app,
        "POST",
        "/api/reports",
        &alice,
        Some(json!({"target": "bob", "reason": "cheating"})),
    )
    .await;
    call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "dismiss", "report": report["id"], "reason": "no evidence"})),
    )
    .await;

    for (status, expected) in [("open", 0), ("dismissed", 1), ("resolved", 0), ("all", 1)] {
        let (code, list) = call(
            &app,
            "GET",
            &format!("/api/mod/reports?status={status}"),
            &mia,
            None,
        )
        .await;
        assert_eq!(code, 200);
        assert_eq!(list.as_array().unwrap().len(), expected, "{status}");
    }
    let (code, body) = call(&app, "GET", "/api/mod/reports?status=closed", &mia, None).await;
    assert_eq!((code, body["code"].as_str()), (400, Some("invalid_body")));
    let (_, mine) = call(&app, "GET", "/api/me/reports", &alice, None).await;
    assert_eq!(mine[0]["status"], "dismissed");
    app.stop().await;
}

async fn a_mute_is_between_one_minute_and_thirty_days(db: Db) {
    let app = app(db).await;
    app.register("bob", PASSWORD).await;
    let mia = app.register("mia", PASSWORD).await;
    grant(&app, "mia", Role::Moderator).await;
    for (minutes, status) in [(0, 400), (1, 200), (43_200, 200), (43_201, 400)] {
        let (got, body) = call(
            &app,
            "POST",
            "/api/mod/actions",
            &mia,
            Some(json!({"action": "mute", "target": "bob", "minutes": minutes, "reason": "r"})),
        )
        .await;
        assert_eq!(got, status, "{minutes} minutes: {body}");
    }
    let (status, _) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "mute", "target": "bob", "minutes": 5, "reason": "  "})),
    )
    .await;
    assert_eq!(status, 400, "a reason is required");
    app.stop().await;
}

async fn a_guest_is_muted_by_address_range_and_a_removed_line_is_marked_in_the_evidence(db: Db) {
    let app = app(db).await;
    let mia = app.register("mia", PASSWORD).await;
    grant(&app, "mia", Role::Moderator).await;
    let (mut guest, _) = app.socket(None).await;
    let room = open_room(&mut guest).await;
    assert_ne!(chat(&mut guest, &room, "spam spam", 2).await["t"], "error");

    let (status, done) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "mute", "line": 1, "minutes": 10, "reason": "spam"})),
    )
    .await;
    assert_eq!(status, 200, "{done}");
    assert!(
        done["target"].as_str().unwrap().contains("127.0.0.0/24")
            || done["target"].as_str().unwrap().contains("127.0.0"),
        "{done}"
    );

    // Another guest from the same range (a new session) is muted too.
    let (mut next, _) = app.socket(None).await;
    let other_room = open_room(&mut next).await;
    assert_eq!(
        chat(&mut next, &other_room, "hello", 3).await["code"],
        "muted"
    );

    let (status, done) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "remove_chat", "line": 1, "reason": "spam"})),
    )
    .await;
    assert_eq!(status, 200, "{done}");
    let line = app
        .store
        .community()
        .unwrap()
        .chat_line(1)
        .await
        .unwrap()
        .unwrap();
    assert!(line.removed_at.is_some());
    app.stop().await;
}

async fn a_moderator_renames_a_bad_name_and_closes_an_account(db: Db) {
    let app = app(db).await;
    let bob = app.register("bob", PASSWORD).await;
    let mia = app.register("mia", PASSWORD).await;
    app.register("taken", PASSWORD).await;
    grant(&app, "mia", Role::Moderator).await;

    let (status, body) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(
            json!({"action": "rename", "target": "bob", "new_name": "taken", "reason": "bad name"}),
        ),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (409, Some("bad_name")));
    let (status, _) = call(&app, "POST", "/api/mod/actions", &mia,
        Some(json!({"action": "rename", "target": "bob", "new_name": "robert", "reason": "bad name"}))).await;
    assert_eq!(status, 200);
    assert_eq!(
        app.get_json("/api/players/robert", 200).await["name"],
        "robert"
    );

    let (status, _) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "close_account", "target": "robert", "reason": "abuse"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        call(&app, "GET", "/api/me/community", &bob, None).await.0,
        401,
        "its sessions end"
    );
    let login = app
        .post(
            "/api/login",
            &json!({"username": "robert", "password": PASSWORD}),
        )
        .await;
    assert_eq!(login.status().as_u16(), 401);
    let (_, log) = call(&app, "GET", "/api/mod/log", &mia, None).await;
    let actions: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["close_account", "rename"]);
    assert_eq!(log[1]["detail"], "bob → robert");
    app.stop().await;
}

async fn a_warning_reaches_the_player_as_a_notice(db: Db) {
    let app = app(db).await;
    let bob = app.register("bob", PASSWORD).await;
    let mia = app.register("mia", PASSWORD).await;
    grant(&app, "mia", Role::Moderator).await;
    call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "warn", "target": "bob", "reason": "keep it friendly"})),
    )
    .await;
    let (_, mine) = call(&app, "GET", "/api/me/community", &bob, None).await;
    assert_eq!(mine["notices"][0]["kind"], "warning");
    assert_eq!(mine["notices"][0]["text"], "keep it friendly");
    app.stop().await;
}

async fn follows_list_friends_and_the_privacy_setting_hides_their_games(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    assert_eq!(
        call(&app, "PUT", "/api/me/follows/bob", &alice, None)
            .await
            .0,
        204
    );
    assert_eq!(
        call(&app, "PUT", "/api/me/follows/bob", &alice, None)
            .await
            .0,
        204,
        "again: no change"
    );
    let (_, friends) = call(&app, "GET", "/api/me/friends", &alice, None).await;
    assert_eq!(
        friends,
        json!([{"name": "bob", "online": false, "playing": [], "rooms": []}])
    );

    let (_bob_socket, _) = app.socket(Some(&bob)).await;
    let (_, friends) = call(&app, "GET", "/api/me/friends", &alice, None).await;
    assert_eq!(friends[0]["online"], true);
    let (status, _) = call(
        &app,
        "PUT",
        "/api/me/privacy",
        &bob,
        Some(json!({"share_games": false})),
    )
    .await;
    assert_eq!(status, 200);
    let (_, mine) = call(&app, "GET", "/api/me/community", &bob, None).await;
    assert_eq!(mine["share_games"], false);

    assert_eq!(
        call(&app, "DELETE", "/api/me/follows/bob", &alice, None)
            .await
            .0,
        204
    );
    let (_, friends) = call(&app, "GET", "/api/me/friends", &alice, None).await;
    assert_eq!(friends, json!([]));
    app.stop().await;
}

async fn a_player_downloads_their_data_and_closes_the_account_keeping_opponents_history(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob_token = app.register("bob", PASSWORD).await;
    let bob = app.store.user_by_name("bob").await.unwrap().unwrap();
    let carol = app.user("carol").await;
    app.rated_game(
        rules::Rules::freestyle(),
        &bob,
        &carol,
        Some(rules::Color::Black),
        1_000,
    )
    .await;
    let (mut socket, _) = app.socket(Some(&bob_token)).await;
    let room = open_room(&mut socket).await;
    chat(&mut socket, &room, "my line", 2).await;
    call(
        &app,
        "POST",
        "/api/reports",
        &bob_token,
        Some(json!({"target": "alice", "reason": "bad_name"})),
    )
    .await;

    let (status, data) = call(&app, "GET", "/api/me/export", &bob_token, None).await;

    assert_eq!(status, 200);
    assert_eq!(data["profile"]["name"], "bob");
    assert_eq!(data["games"].as_array().unwrap().len(), 1);
    assert_eq!(data["rating_history"].as_array().unwrap().len(), 1);
    assert_eq!(data["chat_lines"][0]["text"], "my line");
    assert_eq!(data["reports_made"][0]["target"], "alice");

    let carol_history = app.store.rating_history(carol.id).await.unwrap();
    let (status, _) = call(
        &app,
        "POST",
        "/api/me/close",
        &bob_token,
        Some(json!({"confirm": "Bob"})),
    )
    .await;
    assert_eq!(status, 400, "the name must be typed exactly");
    let (status, _) = call(
        &app,
        "POST",
        "/api/me/close",
        &bob_token,
        Some(json!({"confirm": "bob"})),
    )
    .await;
    assert_eq!(status, 204);

    assert_eq!(
        call(&app, "GET", "/api/me/export", &bob_token, None)
            .await
            .0,
        401
    );
    assert_eq!(
        app.store.rating_history(carol.id).await.unwrap(),
        carol_history
    );
    let carols_games = app.get_json("/api/players/carol/games", 200).await;
    assert!(
        carols_games.to_string().contains("deleted player"),
        "{carols_games}"
    );
    assert_eq!(
        app.get("/api/players/bob", None).await.status().as_u16(),
        404
    );
    let _ = alice;
    app.stop().await;
}

on_both_stores!(
    moderator_routes_are_refused_to_players_and_to_the_signed_out,
    the_admin_grant_makes_an_administrator_who_alone_makes_moderators,
    a_blocked_player_cannot_challenge_the_blocker_until_unblocked,
    a_blocked_player_cannot_chat_in_or_watch_the_blockers_room,
    blocks_are_private_to_the_blocker,
    quick_pairing_never_pairs_players_who_block_one_another,
    a_report_from_a_room_attaches_the_chat_lines_and_the_reporter_sees_its_status,
    a_player_may_make_ten_reports_a_day_and_the_eleventh_is_rate_limited,
    a_moderator_mutes_from_a_report_and_the_audit_log_keeps_who_when_and_why,
    a_mute_is_between_one_minute_and_thirty_days,
    the_report_queue_filters_by_the_documented_statuses_only,
    a_guest_is_muted_by_address_range_and_a_removed_line_is_marked_in_the_evidence,
    a_moderator_renames_a_bad_name_and_closes_an_account,
    a_warning_reaches_the_player_as_a_notice,
    follows_list_friends_and_the_privacy_setting_hides_their_games,
    a_player_downloads_their_data_and_closes_the_account_keeping_opponents_history,
);

/// Runs the server binary's `admin` command against a database.
fn operator(database_url: &str, args: &[&str]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .arg("--database-url")
        .arg(database_url)
        .args(args)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn")
        .output()
        .expect("the server binary runs");
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_command_makes_the_first_administrator_and_refuses_unknown_names() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/operator.db", dir.path().display());
    let store = store::open(&url).await.unwrap();
    let nora = store
        .create_user("Nora", "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaA", 1)
        .await
        .unwrap();
    store.close().await;

    let (ok, stdout, stderr) = operator(&url, &["admin", "grant", "nora"]);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(stdout.contains("Nora is now administrator"), "{stdout}");
    let (ok, _, stderr) = operator(&url, &["admin", "grant", "nobody"]);
    assert!(
        !ok && stderr.contains("no account named nobody"),
        "{stderr}"
    );
    let (ok, _, _) = operator(&url, &["admin", "grant", "nora", "--role", "nora"]);
    assert!(!ok, "an unknown role is refused");

    let store = store::open(&url).await.unwrap();
    assert_eq!(
        store.community().unwrap().role(nora.id).await.unwrap(),
        "administrator"
    );
    store.close().await;
    let (ok, stdout, _) = operator(&url, &["admin", "revoke", "nora"]);
    assert!(ok && stdout.contains("player"), "{stdout}");
}
