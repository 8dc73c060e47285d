//! Accounts over real HTTP and WebSockets against the real app on port 0: registration and login rules,
//! sessions (cookie, bearer, `hello`), logout, expiry, rate limits, and what a token may do in rooms.
//! Every test runs on SQLite, and on Postgres when `TEST_DATABASE_URL` is set.

mod accounts_support;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use accounts_support::{test_config, App, Db};
use ratings::Tier;
use reqwest::header::{AUTHORIZATION, COOKIE, RETRY_AFTER, SET_COOKIE};
use rules::{Color, Rules};
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery";

async fn app(db: Db) -> App {
    App::start(db, test_config())
        .await
        .expect("store available")
}

fn set_cookie(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(SET_COOKIE)
        .expect("a Set-Cookie header")
        .to_str()
        .expect("ascii")
        .to_owned()
}

async fn error_code(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let body: Value = response.json().await.expect("a JSON error body");
    (status, body["code"].as_str().expect("a code").to_owned())
}

async fn login(app: &App, name: &str, password: &str) -> reqwest::Response {
    app.post(
        "/api/login",
        &json!({"username": name, "password": password}),
    )
    .await
}

async fn registering_returns_a_token_and_an_http_only_lax_cookie(db: Db) {
    let app = app(db).await;

    let response = app
        .post(
            "/api/register",
            &json!({"username": "Alice_1", "password": PASSWORD}),
        )
        .await;

    assert_eq!(response.status().as_u16(), 201);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let cookie = set_cookie(&response);
    let body: Value = response.json().await.unwrap();
    let token = body["token"].as_str().unwrap();
    assert!(token.len() >= 22, "at least 128 bits of base64: {token}");
    assert_eq!(body["user"]["name"], "Alice_1");
    assert_eq!(body["user"]["guest"], false);
    assert_eq!(
        cookie,
        format!("gomoku_session={token}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax")
    );
    app.stop().await;
}

async fn usernames_must_be_3_to_20_letters_digits_underscores_or_dashes(db: Db) {
    let app = app(db).await;
    for name in [
        "ab",
        "abcdefghijklmnopqrstu",
        "with space",
        "dot.ted",
        "ümlaut",
        "guest-abc123",
        "",
    ] {
        let response = app
            .post(
                "/api/register",
                &json!({"username": name, "password": PASSWORD}),
            )
            .await;
        assert_eq!(
            error_code(response).await,
            (400, "invalid_username".to_owned()),
            "{name:?}"
        );
    }
    for name in ["abc", "abcdefghijklmnopqrst", "a-b_C9"] {
        app.register(name, PASSWORD).await;
    }
    app.stop().await;
}

async fn a_password_needs_eight_characters(db: Db) {
    let app = app(db).await;
    let response = app
        .post(
            "/api/register",
            &json!({"username": "bob", "password": "1234567"}),
        )
        .await;
    assert_eq!(
        error_code(response).await,
        (400, "weak_password".to_owned())
    );
    app.register("bob", "12345678").await;
    app.stop().await;
}

async fn a_username_is_taken_whatever_its_case(db: Db) {
    let app = app(db).await;
    app.register("carol", PASSWORD).await;

    let response = app
        .post(
            "/api/register",
            &json!({"username": "CaRoL", "password": PASSWORD}),
        )
        .await;

    assert_eq!(
        error_code(response).await,
        (409, "username_taken".to_owned())
    );
    app.stop().await;
}

async fn a_malformed_body_gets_a_json_error(db: Db) {
    let app = app(db).await;
    let response = app.post("/api/login", &json!({"username": "x"})).await;
    assert_eq!(error_code(response).await, (400, "invalid_body".to_owned()));
    let response = app
        .http
        .post(app.url("/api/register"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(error_code(response).await, (400, "invalid_body".to_owned()));
    app.stop().await;
}

async fn a_wrong_password_and_an_unknown_user_get_the_same_answer(db: Db) {
    let app = app(db).await;
    app.register("dave", PASSWORD).await;

    let wrong = login(&app, "dave", "not the password").await;
    let unknown = login(&app, "nobody", "not the password").await;

    assert_eq!(wrong.status().as_u16(), 401);
    assert_eq!(unknown.status().as_u16(), 401);
    assert!(wrong.headers().get(SET_COOKIE).is_none());
    let wrong: Value = wrong.json().await.unwrap();
    let unknown: Value = unknown.json().await.unwrap();
    assert_eq!(wrong, unknown);
    assert_eq!(wrong["code"], "invalid_credentials");
    app.stop().await;
}

async fn login_ignores_the_case_of_the_name_and_gives_a_fresh_token(db: Db) {
    let app = app(db).await;
    let first = app.register("Erin", PASSWORD).await;

    let response = login(&app, "eRIN", PASSWORD).await;

    assert_eq!(response.status().as_u16(), 200);
    assert!(set_cookie(&response).contains("HttpOnly"));
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["user"]["name"], "Erin", "the name as registered");
    let second = body["token"].as_str().unwrap();
    assert_ne!(second, first);
    for token in [first.as_str(), second] {
        let me: Value = app.get("/api/me", Some(token)).await.json().await.unwrap();
        assert_eq!(me["name"], "Erin");
    }
    app.stop().await;
}

async fn a_bearer_token_or_the_cookie_authenticates(db: Db) {
    let app = app(db).await;
    let token = app.register("frank", PASSWORD).await;

    let by_bearer = app.get("/api/me", Some(&token)).await;
    let by_cookie = app
        .http
        .get(app.url("/api/me"))
        .header(COOKIE, format!("theme=dark; gomoku_session={token}"))
        .send()
        .await
        .unwrap();
    let anonymous = app.get("/api/me", None).await;
    let forged = app
        .get(
            "/api/me",
            Some("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
        )
        .await;

    for response in [by_bearer, by_cookie] {
        assert_eq!(response.status().as_u16(), 200);
        let me: Value = response.json().await.unwrap();
        assert_eq!(me["name"], "frank");
        assert_eq!(me["guest"], false);
        assert_eq!(me["ratings"], json!([]));
    }
    assert_eq!(
        error_code(anonymous).await,
        (401, "not_authenticated".to_owned())
    );
    assert_eq!(
        error_code(forged).await,
        (401, "not_authenticated".to_owned())
    );
    app.stop().await;
}

async fn logout_revokes_only_that_session_and_clears_the_cookie(db: Db) {
    let app = app(db).await;
    let kept = app.register("grace", PASSWORD).await;
    let body: Value = login(&app, "grace", PASSWORD).await.json().await.unwrap();
    let ended = body["token"].as_str().unwrap().to_owned();

    let response = app
        .http
        .post(app.url("/api/logout"))
        .header(AUTHORIZATION, format!("Bearer {ended}"))
        .send()
        .await
        .unwrap();

    assert_eq!(response.status().as_u16(), 204);
    assert!(set_cookie(&response).starts_with("gomoku_session=; Path=/; Max-Age=0; HttpOnly"));
    assert_eq!(
        app.get("/api/me", Some(&ended)).await.status().as_u16(),
        401
    );
    assert_eq!(app.get("/api/me", Some(&kept)).await.status().as_u16(), 200);
    let (_, welcome) = app.socket(Some(&ended)).await;
    assert_eq!(
        welcome["you"]["guest"], true,
        "a revoked token no longer names the user"
    );
    app.stop().await;
}

async fn a_session_expires_after_the_configured_days(db: Db) {
    let mut config = test_config();
    config.session_days = 2;
    let app = App::start(db, config).await.unwrap();
    let response = app
        .post(
            "/api/register",
            &json!({"username": "heidi", "password": PASSWORD}),
        )
        .await;
    assert!(set_cookie(&response).contains("Max-Age=172800"));
    let token = response.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();

    app.clock.advance(Duration::from_secs(2 * 86_400 - 60));
    assert_eq!(
        app.get("/api/me", Some(&token)).await.status().as_u16(),
        200
    );
    app.clock.advance(Duration::from_secs(61));
    let expired = app.get("/api/me", Some(&token)).await;

    assert_eq!(
        error_code(expired).await,
        (401, "not_authenticated".to_owned())
    );
    app.stop().await;
}

async fn login_attempts_are_limited_per_address_with_retry_after(db: Db) {
    let mut config = test_config();
    config.login_burst_per_ip = 3;
    config.login_per_minute_per_ip = 2.0;
    let app = App::start(db, config).await.unwrap();

    for name in ["ivan", "judy", "kim"] {
        assert_eq!(login(&app, name, PASSWORD).await.status().as_u16(), 401);
    }
    let limited = login(&app, "mallory", PASSWORD).await;

    assert_eq!(limited.status().as_u16(), 429);
    assert_eq!(
        limited.headers()[RETRY_AFTER],
        "30",
        "2 per minute: one every 30 s"
    );
    assert_eq!(error_code(limited).await.1, "rate_limited");
    let register = app
        .post(
            "/api/register",
            &json!({"username": "niaj", "password": PASSWORD}),
        )
        .await;
    assert_eq!(
        register.status().as_u16(),
        429,
        "registration shares the address's budget"
    );
    app.clock.advance(Duration::from_secs(30));
    assert_eq!(
        login(&app, "mallory", PASSWORD).await.status().as_u16(),
        401
    );
    app.stop().await;
}

async fn login_attempts_are_limited_per_account(db: Db) {
    let mut config = test_config();
    config.login_burst_per_account = 2;
    config.login_per_minute_per_account = 1.0;
    let app = App::start(db, config).await.unwrap();
    app.register("olivia", PASSWORD).await;

    for _ in 0..1 {
        assert_eq!(
            login(&app, "olivia", "guess-one").await.status().as_u16(),
            401
        );
    }
    let limited = login(&app, "OLIVIA", PASSWORD).await;

    assert_eq!(
        limited.status().as_u16(),
        429,
        "even the right password waits"
    );
    assert_eq!(limited.headers()[RETRY_AFTER], "60");
    assert_eq!(
        login(&app, "peggy", PASSWORD).await.status().as_u16(),
        401,
        "other names are not limited"
    );
    app.clock.advance(Duration::from_secs(60));
    assert_eq!(login(&app, "olivia", PASSWORD).await.status().as_u16(), 200);
    app.stop().await;
}

async fn a_login_token_resumes_the_user_in_the_websocket_hello(db: Db) {
    let app = app(db).await;
    let token = app.register("rupert", PASSWORD).await;

    let (_socket, welcome) = app.socket(Some(&token)).await;

    assert_eq!(welcome["you"]["name"], "rupert");
    assert_eq!(welcome["you"]["guest"], false);
    app.stop().await;
}

async fn a_guest_token_is_a_guest_to_the_api(db: Db) {
    let app = app(db).await;
    let (_socket, welcome) = app.socket(None).await;
    let token = welcome["token"].as_str().unwrap();

    let me: Value = app.get("/api/me", Some(token)).await.json().await.unwrap();

    assert_eq!(me["guest"], true);
    assert_eq!(me["name"], welcome["you"]["name"]);
    app.stop().await;
}

/// Everything every test in this binary logs, at every level.
fn captured_log() -> Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || Writer(sink.clone()))
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("first subscriber");
        log
    })
    .clone()
}

struct Writer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Writer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

async fn passwords_and_tokens_never_reach_the_log(db: Db) {
    let log = captured_log();
    let app = app(db).await;
    let password = format!("secret-{}", std::process::id());

    let token = app.register("sybil", &password).await;
    let again = login(&app, "sybil", &password)
        .await
        .json::<Value>()
        .await
        .unwrap();
    let _ = login(&app, "sybil", &format!("{password}-wrong")).await;
    let _ = app.get("/api/me", Some(&token)).await;
    let _ = app.socket(Some(&token)).await;
    let _ = app
        .http
        .post(app.url("/api/logout"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    app.stop().await;

    let text = String::from_utf8_lossy(&log.lock().unwrap()).into_owned();
    assert!(!text.is_empty(), "the log captured something");
    assert!(!text.contains(&password), "a password reached the log");
    assert!(!text.contains(&token), "a token reached the log");
    assert!(
        !text.contains(again["token"].as_str().unwrap()),
        "a token reached the log"
    );
}

fn create_room(rated: bool) -> Value {
    json!({"t": "create_room", "rules": {"rule_set": "freestyle"}, "rated": rated, "colour": "black"})
}

async fn a_guest_can_neither_create_nor_sit_in_a_rated_room(db: Db) {
    let app = app(db).await;
    let token = app.register("host", PASSWORD).await;
    let (mut host, _) = app.socket(Some(&token)).await;
    let (mut guest, welcome) = app.socket(None).await;
    assert_eq!(welcome["you"]["guest"], true);

    let created = guest.request(create_room(true), 1).await;
    let room = host.request(create_room(true), 1).await;
    let id = room["room"]["id"].as_str().unwrap().to_owned();
    let sat = guest.request(json!({"t": "join", "room": id}), 2).await;
    let watched = guest
        .request(json!({"t": "join", "room": id, "as": "spectator"}), 3)
        .await;

    assert_eq!(created["t"], "error");
    assert_eq!(created["code"], "account_required");
    assert_eq!(room["t"], "room");
    assert_eq!(room["room"]["rated"], true);
    assert_eq!(sat["t"], "error");
    assert_eq!(sat["code"], "account_required");
    assert_eq!(watched["t"], "room", "a guest may watch");
    assert_eq!(
        watched["room"]["seats"]["white"],
        Value::Null,
        "the seat stays free"
    );
    app.stop().await;
}

/// A rated freestyle room with `a` holding black and `b` white, both seated; returns their sockets and the room id.
async fn seated(
    app: &App,
    a: &str,
    b: &str,
) -> (accounts_support::Socket, accounts_support::Socket, String) {
    let ta = app.register(a, PASSWORD).await;
    let tb = app.register(b, PASSWORD).await;
    let (mut sa, _) = app.socket(Some(&ta)).await;
    let (mut sb, _) = app.socket(Some(&tb)).await;
    let room = sa.request(create_room(true), 1).await;
    let id = room["room"]["id"].as_str().unwrap().to_owned();
    let joined = sb.request(json!({"t": "join", "room": id}), 1).await;
    assert_eq!(joined["room"]["you"], "white");
    assert_eq!(joined["room"]["state"], "playing");
    (sa, sb, id)
}

async fn a_players_token_acts_only_for_that_player(db: Db) {
    let app = app(db).await;
    let (mut alice, mut bob, id) = seated(&app, "alice", "bob").await;
    let placed = alice
        .request(
            json!({"t": "place", "room": id, "point": "h8", "ply": 1}),
            2,
        )
        .await;
    assert_eq!(placed["t"], "event");

    // White (Bob) is to move: Alice's connection cannot move for him.
    let for_bob = alice
        .request(
            json!({"t": "place", "room": id, "point": "h9", "ply": 2}),
            3,
        )
        .await;
    // A second connection with Alice's token is Alice again, never Bob.
    let token = app
        .post(
            "/api/login",
            &json!({"username": "alice", "password": PASSWORD}),
        )
        .await
        .json::<Value>()
        .await
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let (mut again, welcome) = app.socket(Some(&token)).await;
    let rejoined = again.request(json!({"t": "join", "room": id}), 1).await;
    let still_not = again
        .request(
            json!({"t": "place", "room": id, "point": "h9", "ply": 2}),
            2,
        )
        .await;
    // Bob moves too, so the game counts (a rated game resigned before both sides moved is aborted).
    bob.request(
        json!({"t": "place", "room": id, "point": "a1", "ply": 2}),
        2,
    )
    .await;
    // Resigning from Alice's connection ends the game as Alice's loss.
    alice.request(json!({"t": "resign", "room": id}), 4).await;
    let over = bob.until(|m| m["event"]["kind"] == "game_over").await;

    assert_eq!(for_bob["t"], "error");
    assert_eq!(for_bob["code"], "not_your_turn");
    assert_eq!(welcome["you"]["name"], "alice");
    assert_eq!(rejoined["room"]["you"], "black", "Alice's seat, not Bob's");
    assert_eq!(still_not["code"], "not_your_turn");
    assert_eq!(over["event"]["result"]["winner"], "white");
    assert_eq!(over["event"]["result"]["winner_name"], "bob");
    app.stop().await;
}

async fn a_logged_out_token_cannot_take_back_its_seat(db: Db) {
    let app = app(db).await;
    let token = app.register("carla", PASSWORD).await;
    let (mut carla, _) = app.socket(Some(&token)).await;
    let room = carla.request(create_room(true), 1).await;
    let id = room["room"]["id"].as_str().unwrap().to_owned();
    let response = app
        .http
        .post(app.url("/api/logout"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 204);

    let (mut stale, welcome) = app.socket(Some(&token)).await;
    let joined = stale.request(json!({"t": "join", "room": id}), 1).await;

    assert_eq!(
        welcome["you"]["guest"], true,
        "the revoked token names nobody"
    );
    assert_eq!(joined["code"], "account_required", "a guest, not Carla");
    app.stop().await;
}

async fn expired_sessions_are_swept_from_the_store(db: Db) {
    let mut config = test_config();
    config.session_days = 1;
    let app = App::start(db, config).await.unwrap();
    let token = app.register("tina", PASSWORD).await;
    let hash = server::accounts::token::hash(&token);
    let registered_at = server::time::unix_ms();
    assert!(app
        .store
        .session(&hash, registered_at)
        .await
        .unwrap()
        .is_some());

    app.clock.advance(Duration::from_secs(86_400));
    let mut swept = false;
    for _ in 0..200 {
        app.clock.advance(server::accounts::SWEEP_EVERY);
        tokio::time::sleep(Duration::from_millis(20)).await;
        // Asked as of before the expiry, only a deleted row answers nothing.
        if app
            .store
            .session(&hash, registered_at)
            .await
            .unwrap()
            .is_none()
        {
            swept = true;
            break;
        }
    }

    assert!(swept, "the sweep deleted the expired session");
    app.stop().await;
}

async fn concurrent_registrations_of_one_name_admit_exactly_one(db: Db) {
    let app = app(db).await;
    let names = ["uma", "UMA", "Uma", "uMa", "umA", "UMa"];

    let bodies: Vec<Value> = names
        .iter()
        .map(|name| json!({"username": name, "password": PASSWORD}))
        .collect();
    let responses =
        futures_util::future::join_all(bodies.iter().map(|b| app.post("/api/register", b))).await;

    let mut statuses: Vec<u16> = responses.iter().map(|r| r.status().as_u16()).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 409, 409, 409, 409, 409]);
    app.stop().await;
}

async fn a_browsers_session_cookie_names_the_user_on_the_websocket(db: Db) {
    let app = app(db).await;
    let token = app.register("vera", PASSWORD).await;
    let cookie = format!("gomoku_session={token}");

    let (_socket, welcome) = app.socket_with(None, &[("cookie", &cookie)]).await;

    assert_eq!(welcome["you"]["name"], "vera");
    assert_eq!(welcome["you"]["guest"], false);
    assert_eq!(
        welcome["token"], "",
        "an HttpOnly cookie's token is not handed to scripts"
    );
    app.stop().await;
}

/// Gives `name` an established freestyle rating: 20 rated games against a sparring partner, through the store.
async fn establish(app: &App, name: &str) -> ratings::Rating {
    let user = app.store.user_by_name(name).await.unwrap().unwrap();
    let partner = app.user(&format!("{name}-spar")).await;
    for i in 0..20 {
        let winner = match i % 3 {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        };
        app.rated_game(Rules::freestyle(), &user, &partner, winner, 1_000 + i)
            .await;
    }
    let standing = app.store.standings(user.id).await.unwrap().remove(0);
    assert!(
        !standing.rating.is_provisional(),
        "established after 20 games"
    );
    standing.rating
}

async fn seats_and_lobby_entries_show_each_players_rating_and_tier(db: Db) {
    let app = app(db).await;
    let ta = app.register("anna", PASSWORD).await;
    let tb = app.register("boris", PASSWORD).await;
    let anna = establish(&app, "anna").await;
    let (mut watcher, _) = app.socket(None).await;
    watcher.request(json!({"t": "subscribe_lobby"}), 1).await;
    let (mut sa, _) = app.socket(Some(&ta)).await;
    let (mut sb, _) = app.socket(Some(&tb)).await;

    let created = sa.request(create_room(true), 1).await;
    let id = created["room"]["id"].as_str().unwrap().to_owned();
    let listed = watcher
        .until(|m| m["t"] == "lobby_room" && m["room"]["id"] == id.as_str())
        .await;
    let joined = sb.request(json!({"t": "join", "room": id}), 1).await;
    let playing = watcher
        .until(|m| m["t"] == "lobby_room" && m["room"]["state"] == "playing")
        .await;

    let black = &created["room"]["seats"]["black"];
    assert_eq!(black["name"], "anna");
    assert_eq!(
        black["rating"].as_f64().unwrap().round(),
        anna.rating.round()
    );
    assert_eq!(black["provisional"], false);
    assert_eq!(black["tier"], Tier::of(&anna).name());
    let entry = &listed["room"]["players"][0];
    assert_eq!(entry["name"], "anna");
    assert_eq!(entry["rating"], black["rating"]);
    assert_eq!(entry["tier"], black["tier"]);
    let white = &joined["room"]["seats"]["white"];
    assert_eq!(white["name"], "boris");
    assert_eq!(white["rating"], 1500.0, "a new player's rating");
    assert_eq!(white["provisional"], true);
    assert_eq!(white["tier"], "Unranked");
    let players = playing["room"]["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert!(players
        .iter()
        .all(|p| p["tier"].is_string() && p["rating"].is_number()));
    app.stop().await;
}

async fn a_rated_game_over_carries_both_ratings_before_and_after(db: Db) {
    let app = app(db).await;
    let (mut alice, mut bob, id) = seated(&app, "alice", "bob").await;
    let started = alice.until(|m| m["event"]["kind"] == "game_started").await;
    let game_id = started["event"]["game_id"].as_i64().unwrap();
    // Both sides move, so the game counts.
    alice
        .request(
            json!({"t": "place", "room": id, "point": "h8", "ply": 1}),
            2,
        )
        .await;
    bob.request(
        json!({"t": "place", "room": id, "point": "a1", "ply": 2}),
        2,
    )
    .await;

    bob.request(json!({"t": "resign", "room": id}), 3).await;
    let over = alice.until(|m| m["event"]["kind"] == "game_over").await;
    let record = app.get_json(&format!("/api/games/{game_id}"), 200).await;
    let (mut watcher, _) = app.socket(None).await;
    let snapshot = watcher
        .request(json!({"t": "join", "room": id, "as": "spectator"}), 1)
        .await;

    let deltas = over["event"]["result"]["ratings"].as_array().unwrap();
    assert_eq!(over["event"]["result"]["winner_name"], "alice");
    assert_eq!(deltas[0]["name"], "alice", "black's first");
    assert_eq!(deltas[1]["name"], "bob");
    assert_eq!(deltas[0]["before"], 1500.0);
    assert_eq!(deltas[1]["before"], 1500.0);
    assert!(deltas[0]["after"].as_f64().unwrap() > 1500.0);
    assert!(deltas[1]["after"].as_f64().unwrap() < 1500.0);
    assert_eq!(
        deltas[0]["tier"], "Unranked",
        "one game leaves a rating provisional"
    );
    let alice_now = app.store.user_by_name("alice").await.unwrap().unwrap();
    let standing = app.store.standings(alice_now.id).await.unwrap().remove(0);
    assert!((deltas[0]["after"].as_f64().unwrap() - standing.rating.rating).abs() < 1e-9);
    let stored = record["ratings"].as_array().unwrap();
    for (d, r) in deltas.iter().zip(stored) {
        assert_eq!(d["name"], r["name"]);
        assert!((d["before"].as_f64().unwrap() - r["before"].as_f64().unwrap()).abs() < 1e-9);
        assert!((d["after"].as_f64().unwrap() - r["after"].as_f64().unwrap()).abs() < 1e-9);
    }
    let seat = &snapshot["room"]["seats"]["black"];
    assert_eq!(seat["name"], "alice");
    assert_eq!(
        seat["rating"].as_f64().unwrap().round(),
        deltas[0]["after"].as_f64().unwrap().round(),
        "seats show the new rating"
    );
    assert_eq!(
        snapshot["room"]["result"]["ratings"],
        over["event"]["result"]["ratings"]
    );
    app.stop().await;
}

async fn another_sites_page_cannot_use_the_cookie_on_the_websocket(db: Db) {
    let app = app(db).await;
    let token = app.register("wanda", PASSWORD).await;
    let cookie = format!("gomoku_session={token}");
    let host = app.addr.to_string();
    let own_origin = format!("http://{host}");

    let (_a, foreign) = app
        .socket_with(
            None,
            &[("cookie", &cookie), ("origin", "http://evil.example")],
        )
        .await;
    let (_b, own) = app
        .socket_with(None, &[("cookie", &cookie), ("origin", &own_origin)])
        .await;

    assert_eq!(foreign["you"]["guest"], true, "a foreign page gets a guest");
    assert_eq!(
        own["you"]["name"], "wanda",
        "the site's own page gets the user"
    );
    app.stop().await;
}

on_both_stores!(
    registering_returns_a_token_and_an_http_only_lax_cookie,
    usernames_must_be_3_to_20_letters_digits_underscores_or_dashes,
    a_password_needs_eight_characters,
    a_username_is_taken_whatever_its_case,
    a_malformed_body_gets_a_json_error,
    a_wrong_password_and_an_unknown_user_get_the_same_answer,
    login_ignores_the_case_of_the_name_and_gives_a_fresh_token,
    a_bearer_token_or_the_cookie_authenticates,
    logout_revokes_only_that_session_and_clears_the_cookie,
    a_session_expires_after_the_configured_days,
    login_attempts_are_limited_per_address_with_retry_after,
    login_attempts_are_limited_per_account,
    a_login_token_resumes_the_user_in_the_websocket_hello,
    a_guest_token_is_a_guest_to_the_api,
    passwords_and_tokens_never_reach_the_log,
    a_guest_can_neither_create_nor_sit_in_a_rated_room,
    a_players_token_acts_only_for_that_player,
    a_logged_out_token_cannot_take_back_its_seat,
    expired_sessions_are_swept_from_the_store,
    concurrent_registrations_of_one_name_admit_exactly_one,
    a_browsers_session_cookie_names_the_user_on_the_websocket,
    seats_and_lobby_entries_show_each_players_rating_and_tier,
    a_rated_game_over_carries_both_ratings_before_and_after,
    another_sites_page_cannot_use_the_cookie_on_the_websocket,
);
