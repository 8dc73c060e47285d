//! People around the board (issue #38), the live parts, over real HTTP and WebSockets against the real app on port
//! 0: a moderator removes a chat line for everyone (every open view drops it at once, later snapshots and the
//! stored line no longer hold it, the audit log keeps it); a moderator marks a cheater (the pool is recomputed
//! without the cheater's games: their gains go, their opponents' losses come back, checked with Glicko-2's
//! numbers); follow notices (every tab of a follower hears when a followed player starts a public game, not when
//! the player hides their games) and the friends list (online with several tabs, the game to watch). SQLite
//! always, Postgres when `TEST_DATABASE_URL` is set.

use std::time::Duration;

use ratings::Rating;
use serde_json::{json, Value};
use server::community::Role;
use testkit::accounts::{pool_of, test_config, App, Db, Socket};
use testkit::on_both_stores;

const PASSWORD: &str = "correct horse battery";

async fn app(db: Db) -> App {
    App::start(db, test_config())
        .await
        .expect("store available")
}

/// A request with a bearer token and an optional JSON body; answers the status and the JSON body.
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

async fn moderator(app: &App, name: &str) -> String {
    let token = app.register(name, PASSWORD).await;
    server::community::admin::grant(app.store.as_ref(), name, Role::Moderator)
        .await
        .expect("granted");
    token
}

/// Opens a public freestyle room; answers its id.
async fn open_room(socket: &mut Socket, rid: u64) -> String {
    let reply = socket
        .request(
            json!({"t": "create_room", "rules": {"rule_set": "freestyle"}, "public": true}),
            rid,
        )
        .await;
    reply["room"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a room in {reply}"))
        .to_owned()
}

async fn join(socket: &mut Socket, room: &str, role: &str, rid: u64) -> Value {
    let reply = socket
        .request(json!({"t": "join", "room": room, "as": role}), rid)
        .await;
    assert_ne!(reply["t"], "error", "{reply}");
    reply
}

fn is_event(kind: &'static str) -> impl Fn(&Value) -> bool {
    move |m: &Value| m["t"] == "event" && m["event"]["kind"] == kind
}

async fn a_removed_chat_line_disappears_live_for_every_member_and_from_the_record(db: Db) {
    let app = app(db).await;
    let mia = moderator(&app, "mia").await;
    let bob = app.register("bob", PASSWORD).await;
    let ann = app.register("ann", PASSWORD).await;
    let (mut bob_socket, _) = app.socket(Some(&bob)).await;
    let room = open_room(&mut bob_socket, 1).await;
    let (mut ann_socket, _) = app.socket(Some(&ann)).await;
    join(&mut ann_socket, &room, "spectator", 1).await;
    bob_socket
        .send(json!({"t": "chat", "room": room, "text": "you are a terrible player", "rid": 2}))
        .await;
    let said = ann_socket.until(is_event("chat")).await;
    let line = said["event"]["line"].as_i64().expect("the line's id");
    bob_socket.until(is_event("chat")).await;
    bob_socket
        .send(json!({"t": "chat", "room": room, "text": "good luck", "rid": 3}))
        .await;
    ann_socket.until(is_event("chat")).await;

    let (status, done) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "remove_chat", "line": line, "reason": "insults"})),
    )
    .await;

    assert_eq!(status, 200, "{done}");
    for socket in [&mut bob_socket, &mut ann_socket] {
        let removed = socket.until(is_event("chat_removed")).await;
        assert_eq!(removed["event"]["line"], line);
    }
    // A view opened after the removal never sees it; the other line stays.
    let (mut late, _) = app.socket(None).await;
    let snapshot = join(&mut late, &room, "spectator", 1).await;
    let chat = snapshot["room"]["chat"].to_string();
    assert!(!chat.contains("terrible"), "{snapshot}");
    assert!(chat.contains("good luck"), "{snapshot}");
    // The stored line keeps no text; the audit log keeps what it said.
    let stored = app
        .store
        .community()
        .unwrap()
        .chat_line(line)
        .await
        .unwrap()
        .unwrap();
    assert!(stored.removed_at.is_some());
    assert_eq!(stored.text, "");
    let (_, log) = call(&app, "GET", "/api/mod/log", &mia, None).await;
    assert_eq!(log[0]["action"], "remove_chat");
    assert_eq!(log[0]["moderator"], "mia");
    assert_eq!(log[0]["reason"], "insults");
    assert!(
        log[0]["detail"]
            .as_str()
            .unwrap()
            .contains("you are a terrible player"),
        "{log}"
    );
    app.stop().await;
}

async fn a_spectators_line_removed_by_a_moderator_leaves_the_spectators_chat_too(db: Db) {
    let app = app(db).await;
    let mia = moderator(&app, "mia").await;
    let bob = app.register("bob", PASSWORD).await;
    let ann = app.register("ann", PASSWORD).await;
    let (mut bob_socket, _) = app.socket(Some(&bob)).await;
    let room = open_room(&mut bob_socket, 1).await;
    let (mut ann_socket, _) = app.socket(Some(&ann)).await;
    join(&mut ann_socket, &room, "spectator", 1).await;
    let said = ann_socket
        .request(
            json!({"t": "chat", "room": room, "text": "spam from the stands"}),
            2,
        )
        .await;
    assert_eq!(said["t"], "spectator_chat", "{said}");
    let line = said["line"].as_i64().expect("the line's id");

    let (status, _) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "remove_chat", "line": line, "reason": "spam"})),
    )
    .await;

    assert_eq!(status, 200);
    let removed = ann_socket.until(is_event("chat_removed")).await;
    assert_eq!(removed["event"]["line"], line);
    let again = join(&mut ann_socket, &room, "spectator", 3).await;
    assert!(
        !again.to_string().contains("spam from the stands"),
        "{again}"
    );
    app.stop().await;
}

fn glicko(a: Rating, b: Rating, score_a: f64) -> (Rating, Rating) {
    ratings::glicko2::rate_game(a, b, score_a)
}

async fn marking_a_cheater_removes_their_gains_and_restores_their_opponents_losses(db: Db) {
    let app = app(db).await;
    let mia = moderator(&app, "mia").await;
    let cheat = app.user("cheat").await;
    let vic = app.user("vic").await;
    let val = app.user("val").await;
    let rules = rules::Rules::freestyle();
    let pool = pool_of(&rules);
    // The cheater beats vic and val; then vic beats val.
    app.rated_game(rules, &cheat, &vic, Some(rules::Color::Black), 1_000)
        .await;
    app.rated_game(rules, &cheat, &val, Some(rules::Color::Black), 2_000)
        .await;
    app.rated_game(rules, &vic, &val, Some(rules::Color::Black), 3_000)
        .await;
    let rating = |standings: Vec<store::PoolStanding>| {
        standings
            .into_iter()
            .find(|s| s.pool == pool)
            .expect("a standing in the pool")
            .rating
    };
    let vic_before = rating(app.store.standings(vic.id).await.unwrap());
    let cheat_before = rating(app.store.standings(cheat.id).await.unwrap());
    // Vic lost 162.3 points to the cheater (1500 → 1337.7), then beat val from there.
    assert!(cheat_before.rating > 1700.0, "{cheat_before:?}");
    // Without the cheater's games, vic and val met once, both fresh at 1500 ± 350.
    let (vic_expected, val_expected) = glicko(Rating::default(), Rating::default(), 1.0);
    assert_ne!(vic_before, vic_expected);

    let (status, done) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "mark_cheater", "target": "cheat", "reason": "engine moves"})),
    )
    .await;

    assert_eq!(status, 200, "{done}");
    assert_eq!(
        rating(app.store.standings(vic.id).await.unwrap()),
        vic_expected
    );
    assert_eq!(
        rating(app.store.standings(val.id).await.unwrap()),
        val_expected
    );
    assert_eq!(
        rating(app.store.standings(cheat.id).await.unwrap()),
        Rating::default(),
        "the cheater's gains are gone"
    );
    assert_eq!(
        (vic_expected.rating * 10.0).round() / 10.0,
        1662.3,
        "the numbers the recomputation gives: one win at 1500 ± 350 against 1500 ± 350"
    );
    assert_eq!((val_expected.rating * 10.0).round() / 10.0, 1337.7);
    // The history keeps every game; a game against the cheater is now no change.
    let history = app.store.rating_history(vic.id).await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].rating, 1500.0);
    let restored = done["restored"].as_array().expect("the changed ratings");
    let names: Vec<&str> = restored
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "{done}");
    for name in ["cheat", "vic", "val"] {
        assert!(names.contains(&name), "{done}");
    }
    // Shown on the profile and kept in the audit log.
    let profile = app.get_json("/api/players/cheat", 200).await;
    assert!(profile["marked_cheater_at"].as_i64().is_some(), "{profile}");
    let honest = app.get_json("/api/players/vic", 200).await;
    assert!(honest.get("marked_cheater_at").is_none(), "{honest}");
    let (_, log) = call(&app, "GET", "/api/mod/log", &mia, None).await;
    assert_eq!(log[0]["action"], "mark_cheater");
    assert_eq!(log[0]["target"], "cheat");
    assert_eq!(log[0]["reason"], "engine moves");
    assert!(log[0]["detail"].as_str().unwrap().contains("vic"), "{log}");
    // Marking again changes nothing more.
    let (status, again) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &mia,
        Some(json!({"action": "mark_cheater", "target": "cheat", "reason": "again"})),
    )
    .await;
    assert_eq!(status, 200);
    assert!(again.get("restored").is_none(), "{again}");
    assert_eq!(
        rating(app.store.standings(vic.id).await.unwrap()),
        vic_expected
    );
    app.stop().await;
}

async fn only_moderators_mark_cheaters(db: Db) {
    let app = app(db).await;
    let bob = app.register("bob", PASSWORD).await;
    app.register("carl", PASSWORD).await;

    let (status, body) = call(
        &app,
        "POST",
        "/api/mod/actions",
        &bob,
        Some(json!({"action": "mark_cheater", "target": "carl", "reason": "x"})),
    )
    .await;

    assert_eq!(status, 403, "{body}");
    assert_eq!(body["code"], "forbidden");
    let profile = app.get_json("/api/players/carl", 200).await;
    assert!(profile.get("marked_cheater_at").is_none());
    app.stop().await;
}

/// Starts a public game: `host` opens the room, `guest` takes the other seat. Answers the room.
async fn start_game(host: &mut Socket, guest: &mut Socket) -> String {
    let room = open_room(host, 90).await;
    join(guest, &room, "player", 91).await;
    room
}

fn friend_playing(m: &Value) -> bool {
    m["t"] == "friend_playing"
}

async fn every_tab_of_a_follower_hears_when_a_followed_player_starts_a_public_game(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    let carol = app.register("carol", PASSWORD).await;
    assert_eq!(
        call(&app, "PUT", "/api/me/follows/bob", &alice, None)
            .await
            .0,
        204
    );
    let (mut tab1, _) = app.socket(Some(&alice)).await;
    let (mut tab2, _) = app.socket(Some(&alice)).await;
    let (mut bob_socket, _) = app.socket(Some(&bob)).await;
    let (mut carol_socket, _) = app.socket(Some(&carol)).await;

    let room = start_game(&mut bob_socket, &mut carol_socket).await;

    for tab in [&mut tab1, &mut tab2] {
        let told = tab.until(friend_playing).await;
        assert_eq!(told["player"], "bob");
        assert_eq!(told["room"], room.as_str());
        assert_eq!(told["opponent"], "carol");
    }
    let (_, friends) = call(&app, "GET", "/api/me/friends", &alice, None).await;
    assert_eq!(friends[0]["name"], "bob");
    assert_eq!(friends[0]["online"], true);
    assert_eq!(
        friends[0]["rooms"],
        json!([{"room": room, "opponent": "carol"}])
    );
    app.stop().await;
}

async fn a_player_who_hides_their_games_is_not_announced_nor_listed(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    let carol = app.register("carol", PASSWORD).await;
    let eve = app.register("eve", PASSWORD).await;
    let dan = app.register("dan", PASSWORD).await;
    for name in ["bob", "eve"] {
        let path = format!("/api/me/follows/{name}");
        assert_eq!(call(&app, "PUT", &path, &alice, None).await.0, 204);
    }
    let (status, _) = call(
        &app,
        "PUT",
        "/api/me/privacy",
        &bob,
        Some(json!({"share_games": false})),
    )
    .await;
    assert_eq!(status, 200);
    let (mut tab, _) = app.socket(Some(&alice)).await;
    let (mut bob_socket, _) = app.socket(Some(&bob)).await;
    let (mut carol_socket, _) = app.socket(Some(&carol)).await;
    let (mut eve_socket, _) = app.socket(Some(&eve)).await;
    let (mut dan_socket, _) = app.socket(Some(&dan)).await;

    let hidden = start_game(&mut bob_socket, &mut carol_socket).await;
    bob_socket.until(is_event("game_started")).await;
    // The friends list, read after the lobby knows the hidden game, lists no room of bob's.
    let (_, friends) = call(&app, "GET", "/api/me/friends", &alice, None).await;
    let bobs = friends
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "bob")
        .unwrap();
    assert_eq!(bobs["rooms"], json!([]), "{friends}");
    let shared = start_game(&mut eve_socket, &mut dan_socket).await;

    // The first notice alice hears is eve's: bob's game, started before, was never announced.
    let told = tab.until(friend_playing).await;
    assert_eq!(told["player"], "eve", "{told}");
    assert_eq!(told["room"], shared.as_str());
    assert_ne!(hidden, shared);
    app.stop().await;
}

async fn a_player_with_several_tabs_stays_online_until_the_last_closes(db: Db) {
    let app = app(db).await;
    let alice = app.register("alice", PASSWORD).await;
    let bob = app.register("bob", PASSWORD).await;
    assert_eq!(
        call(&app, "PUT", "/api/me/follows/alice", &bob, None)
            .await
            .0,
        204
    );
    let online = |friends: &Value| friends[0]["online"].as_bool().unwrap();
    let (tab1, _) = app.socket(Some(&alice)).await;
    let (tab2, _) = app.socket(Some(&alice)).await;
    let (_, friends) = call(&app, "GET", "/api/me/friends", &bob, None).await;
    assert!(online(&friends));

    drop(tab1);
    // The server hears of the closed tab in its own time: read until the count of alice's connections is one.
    wait_for(|| async { connections(&app, "alice").await == 1 }).await;
    let (_, friends) = call(&app, "GET", "/api/me/friends", &bob, None).await;
    assert!(online(&friends), "one tab is still open: {friends}");

    drop(tab2);
    wait_for(|| async { connections(&app, "alice").await == 0 }).await;
    let (_, friends) = call(&app, "GET", "/api/me/friends", &bob, None).await;
    assert!(!online(&friends), "{friends}");
    app.stop().await;
}

/// How many connections the server counts for an account (its per-player connection limit's count).
async fn connections(app: &App, name: &str) -> usize {
    let user = app.store.user_by_name(name).await.unwrap().unwrap();
    app.state().presence.connections(user.id)
}

/// Waits for a condition the server reaches by itself (a closed socket noticed), checking after each yield; gives
/// up after a minute, far beyond any slow machine.
async fn wait_for<F, Fut>(condition: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !condition().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the condition never held"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

on_both_stores!(
    a_removed_chat_line_disappears_live_for_every_member_and_from_the_record,
    a_spectators_line_removed_by_a_moderator_leaves_the_spectators_chat_too,
    marking_a_cheater_removes_their_gains_and_restores_their_opponents_losses,
    only_moderators_mark_cheaters,
    every_tab_of_a_follower_hears_when_a_followed_player_starts_a_public_game,
    a_player_who_hides_their_games_is_not_announced_nor_listed,
    a_player_with_several_tabs_stays_online_until_the_last_closes,
);
