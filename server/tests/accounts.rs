//! Accounts over real HTTP and WebSockets against the real app on port 0: registration and login rules,
//! sessions (cookie, bearer, `hello`), logout, expiry, rate limits, and what a token may do in rooms.
//! Every test runs on SQLite, and on Postgres when `TEST_DATABASE_URL` is set.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use ratings::Tier;
use reqwest::header::{COOKIE, RETRY_AFTER, SET_COOKIE};
use rules::{Color, Rules};
use serde_json::{json, Value};
use testkit::accounts::{test_config, App, Db};
use testkit::on_both_stores;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

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
        &json!({"username": name, "password": password, "issue_token": true}),
    )
    .await
}

async fn registering_sets_an_http_only_lax_cookie_and_keeps_the_token_out_of_the_body(db: Db) {
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
    assert_eq!(body.get("token"), None, "page scripts never see the token");
    assert_eq!(body["user"]["name"], "Alice_1");
    assert_eq!(body["user"]["guest"], false);
    let token = cookie
        .strip_prefix("gomoku_session=")
        .and_then(|rest| rest.split_once(';'))
        .map(|(token, _)| token.to_owned())
        .unwrap();
    assert_eq!(token.len(), 43, "256 bits of unpadded base64: {token}");
    assert_eq!(
        cookie,
        format!("gomoku_session={token}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax")
    );
    let me: Value = app.get("/api/me", Some(&token)).await.json().await.unwrap();
    assert_eq!(me["name"], "Alice_1");
    app.stop().await;
}

async fn a_client_that_asks_for_the_token_gets_it_in_the_body(db: Db) {
    let app = app(db).await;
    app.register("Alice_2", PASSWORD).await;

    let response = login(&app, "alice_2", PASSWORD).await;

    let cookie = set_cookie(&response);
    let body: Value = response.json().await.unwrap();
    let token = body["token"].as_str().unwrap();
    assert!(
        cookie.starts_with(&format!("gomoku_session={token};")),
        "{cookie}"
    );
    app.stop().await;
}

async fn the_cookie_is_secure_when_the_site_is_reached_over_https(db: Db) {
    let app = app(db).await;
    let body = json!({"username": "Alice_3", "password": PASSWORD});

    let behind_tls_proxy = app
        .http
        .post(app.url("/api/register"))
        .header("x-forwarded-proto", "https")
        .json(&body)
        .send()
        .await
        .unwrap();
    let from_https_page = app
        .http
        .post(app.url("/api/login"))
        // A page of this very site served over https (a cross-site Origin is refused before any cookie is set).
        .header("origin", format!("https://{}", app.addr))
        .json(&body)
        .send()
        .await
        .unwrap();
    let plain = login(&app, "Alice_3", PASSWORD).await;

    assert!(set_cookie(&behind_tls_proxy).ends_with("; Secure"));
    assert!(set_cookie(&from_https_page).ends_with("; Secure"));
    assert!(!set_cookie(&plain).contains("Secure"));
    app.stop().await;
}

async fn secure_cookies_mark_every_cookie_secure(db: Db) {
    let mut config = test_config();
    config.secure_cookies = true;
    let app = App::start(db, config).await.unwrap();

    let registered = app
        .post(
            "/api/register",
            &json!({"username": "Alice_4", "password": PASSWORD}),
        )
        .await;
    let token = set_cookie(&registered)
        .strip_prefix("gomoku_session=")
        .and_then(|rest| rest.split_once(';'))
        .map(|(token, _)| token.to_owned())
        .unwrap();
    let logged_out = app
        .http
        .post(app.url("/api/logout"))
        .header(COOKIE, format!("gomoku_session={token}"))
        .send()
        .await
        .unwrap();

    assert!(set_cookie(&registered).ends_with("; Secure"));
    assert!(set_cookie(&logged_out).ends_with("; Secure"));
    app.stop().await;
}

async fn usernames_must_be_3_to_20_letters_or_digits_of_one_script_underscores_or_dashes(db: Db) {
    let app = app(db).await;
    for name in [
        "ab",
        "abcdefghijklmnopqrstu",
        "with space",
        "李 雷",
        "dot.ted",
        "\u{410}lice",
        "李",
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
    for name in ["abc", "abcdefghijklmnopqrst", "a-b_C9", "ümlaut", "Дмитрий"] {
        app.register(name, PASSWORD).await;
    }
    app.stop().await;
}

async fn a_chinese_name_of_two_characters_registers_logs_in_and_has_a_profile(db: Db) {
    let app = app(db).await;

    let token = app.register("李雷", PASSWORD).await;
    let logged_in = login(&app, "李雷", PASSWORD).await;
    let profile = app.get_json("/api/players/%E6%9D%8E%E9%9B%B7", 200).await;
    let games = app
        .get_json("/api/players/%E6%9D%8E%E9%9B%B7/games", 200)
        .await;

    let me: Value = app.get("/api/me", Some(&token)).await.json().await.unwrap();
    assert_eq!(me["name"], "李雷");
    assert_eq!(logged_in.status().as_u16(), 200);
    assert_eq!(profile["name"], "李雷");
    assert_eq!(games["games"], json!([]));
    app.stop().await;
}

async fn look_alikes_of_a_chinese_or_latin_name_and_staff_names_are_refused(db: Db) {
    let app = app(db).await;
    for name in ["李雷", "will", "Alice"] {
        app.register(name, PASSWORD).await;
    }
    let mut answers = Vec::new();

    for name in [
        "李雷_",
        "vvill",
        "Alice_",
        "adm1n",
        "Moderator",
        "guest-abc",
        "computer-9",
    ] {
        let response = app
            .post(
                "/api/register",
                &json!({"username": name, "password": PASSWORD}),
            )
            .await;
        answers.push((name, error_code(response).await));
    }

    let confusable = (409, "username_confusable".to_owned());
    let reserved = (400, "reserved_username".to_owned());
    assert_eq!(
        answers,
        [
            ("李雷_", confusable.clone()),
            ("vvill", confusable.clone()),
            ("Alice_", confusable),
            ("adm1n", reserved.clone()),
            ("Moderator", reserved.clone()),
            ("guest-abc", reserved.clone()),
            ("computer-9", reserved),
        ]
    );
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
    app.register("bob", "1234567x").await;
    app.stop().await;
}

async fn common_blank_and_control_passwords_are_refused(db: Db) {
    let app = app(db).await;
    let cases = [
        ("12345678", "common_password"),
        ("password", "common_password"),
        ("PASSWORD1", "common_password"),
        ("        ", "invalid_password"),
        ("\0\0\0\0\0\0\0\0", "invalid_password"),
        (
            "\u{200B}\u{200B}\u{200B}\u{200B}\u{200B}\u{200B}\u{200B}\u{200B}",
            "invalid_password",
        ),
        ("\u{200B}abcdefg", "weak_password"),
    ];

    for (password, code) in cases {
        let response = app
            .post(
                "/api/register",
                &json!({"username": "bobby", "password": password}),
            )
            .await;
        assert_eq!(
            error_code(response).await,
            (400, code.to_owned()),
            "{password:?}"
        );
    }
    app.register("bobby", "abcdefgx").await;
    app.stop().await;
}

async fn a_password_is_the_same_in_any_unicode_form(db: Db) {
    let app = app(db).await;
    let decomposed = "cafe\u{301} au lait";
    let composed = "caf\u{E9} au lait";
    app.register("barista", decomposed).await;

    let response = login(&app, "barista", composed).await;

    assert_eq!(response.status().as_u16(), 200);
    app.stop().await;
}

async fn an_account_hashed_before_normalisation_still_logs_in(db: Db) {
    let app = app(db).await;
    let decomposed = "cafe\u{301} au lait";
    let cheap = server::accounts::HashCost {
        memory_kib: 64,
        iterations: 1,
        parallelism: 1,
    };
    // What the server stored before passwords were normalised: the bytes as typed.
    let legacy = server::accounts::password::Hasher::standalone(cheap)
        .hash(std::net::Ipv4Addr::LOCALHOST.into(), decomposed)
        .await
        .unwrap();
    app.store.create_user("oldtimer", &legacy, 1).await.unwrap();

    let composed_before = login(&app, "oldtimer", "caf\u{E9} au lait").await;
    let as_typed = login(&app, "oldtimer", decomposed).await;
    let composed_after = login(&app, "oldtimer", "caf\u{E9} au lait").await;

    assert_eq!(
        composed_before.status().as_u16(),
        401,
        "the old hash knows only the bytes as typed"
    );
    assert_eq!(as_typed.status().as_u16(), 200);
    assert_eq!(
        composed_after.status().as_u16(),
        200,
        "the login upgraded the hash to the normalised form"
    );
    assert_eq!(
        login(&app, "oldtimer", decomposed).await.status().as_u16(),
        200
    );
    assert_eq!(
        login(&app, "oldtimer", "cafe au lait")
            .await
            .status()
            .as_u16(),
        401
    );
    app.stop().await;
}

async fn a_name_that_looks_like_a_taken_one_is_refused(db: Db) {
    let app = app(db).await;
    app.register("Alice", PASSWORD).await;
    let mut answers = Vec::new();

    for name in [
        "AIice",
        "A1ice",
        "aIice",
        "guest_abc123",
        "GUEST-k3x9pa",
        "Alicia",
    ] {
        let response = app
            .post(
                "/api/register",
                &json!({"username": name, "password": PASSWORD}),
            )
            .await;
        answers.push(if response.status().as_u16() == 201 {
            (201, String::new())
        } else {
            error_code(response).await
        });
    }

    let conflict = (409, "username_confusable".to_owned());
    let reserved = (400, "reserved_username".to_owned());
    assert_eq!(
        answers,
        [
            conflict.clone(),
            conflict.clone(),
            conflict,
            reserved.clone(),
            reserved,
            (201, String::new())
        ]
    );
    app.stop().await;
}

async fn a_name_registered_under_older_rules_still_logs_in(db: Db) {
    let app = app(db).await;
    let cheap = server::accounts::HashCost {
        memory_kib: 64,
        iterations: 1,
        parallelism: 1,
    };
    let hash = server::accounts::password::Hasher::standalone(cheap)
        .hash(std::net::Ipv4Addr::LOCALHOST.into(), PASSWORD)
        .await
        .unwrap();
    app.store
        .create_user("guest_abc123", &hash, 1)
        .await
        .unwrap();

    let response = login(&app, "guest_abc123", PASSWORD).await;

    assert_eq!(response.status().as_u16(), 200);
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
        .header(COOKIE, format!("gomoku_session={ended}"))
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
    assert_eq!(
        app.hello_answer(&ended).await["code"],
        "invalid_token",
        "a revoked token no longer names the user"
    );
    app.stop().await;
}

async fn a_logout_without_the_cookie_leaves_the_cookie_alone(db: Db) {
    let app = app(db).await;
    let token = app.register("gwen", PASSWORD).await;

    // What another site's form post looks like: `SameSite=Lax` keeps the cookie off it.
    let cross_site = app.http.post(app.url("/api/logout")).send().await.unwrap();
    let by_bearer = app
        .http
        .post(app.url("/api/logout"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();

    assert_eq!(cross_site.status().as_u16(), 204);
    assert_eq!(
        cross_site.headers().get(SET_COOKIE),
        None,
        "clearing a cookie whose session stays valid would make that session unrevocable"
    );
    assert_eq!(by_bearer.status().as_u16(), 204);
    assert_eq!(by_bearer.headers().get(SET_COOKIE), None);
    assert_eq!(
        app.get("/api/me", Some(&token)).await.status().as_u16(),
        401
    );
    app.stop().await;
}

async fn a_logout_revokes_both_the_bearer_and_the_cookie_session(db: Db) {
    let app = app(db).await;
    let bearer = app.register("gail", PASSWORD).await;
    let cookie = app.register("gina", PASSWORD).await;

    let response = app
        .http
        .post(app.url("/api/logout"))
        .bearer_auth(&bearer)
        .header(COOKIE, format!("gomoku_session={cookie}"))
        .send()
        .await
        .unwrap();

    assert!(set_cookie(&response).contains("Max-Age=0"));
    for token in [&bearer, &cookie] {
        assert_eq!(app.get("/api/me", Some(token)).await.status().as_u16(), 401);
    }
    app.stop().await;
}

async fn logging_in_over_a_session_cookie_revokes_the_session_it_replaces(db: Db) {
    let app = app(db).await;
    let old = app.register("gus", PASSWORD).await;
    let other = app.register("gabe", PASSWORD).await;

    let response = app
        .http
        .post(app.url("/api/login"))
        .header(COOKIE, format!("gomoku_session={old}"))
        .json(&json!({"username": "gabe", "password": PASSWORD}))
        .send()
        .await
        .unwrap();

    assert_eq!(response.status().as_u16(), 200);
    assert!(!set_cookie(&response).contains(&old));
    assert_eq!(
        app.get("/api/me", Some(&old)).await.status().as_u16(),
        401,
        "the overwritten cookie's session would otherwise stay valid with nobody holding it"
    );
    assert_eq!(
        app.get("/api/me", Some(&other)).await.status().as_u16(),
        200
    );
    app.stop().await;
}

async fn logging_out_closes_the_sessions_open_sockets(db: Db) {
    let app = app(db).await;
    let token = app.register("hana", PASSWORD).await;
    let kept = app.register("hank", PASSWORD).await;
    let (mut by_hello, _) = app.socket(Some(&token)).await;
    let cookie = format!("gomoku_session={token}");
    let (mut by_cookie, welcome) = app.socket_with(None, &[("cookie", &cookie)]).await;
    assert_eq!(welcome["you"]["name"], "hana");
    let (mut other, _) = app.socket(Some(&kept)).await;

    let response = app
        .http
        .post(app.url("/api/logout"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();

    assert_eq!(response.status().as_u16(), 204);
    for socket in [&mut by_hello, &mut by_cookie] {
        let (code, before) = socket.closed().await;
        assert_eq!(code, 4001);
        assert_eq!(before.last().unwrap()["code"], "session_revoked");
    }
    let pong = other.request(json!({"t": "ping"}), 9).await;
    assert_eq!(pong["t"], "pong", "another session's socket stays: {pong}");
    app.stop().await;
}

async fn log_out_everywhere_revokes_every_session_and_closes_every_socket(db: Db) {
    let app = app(db).await;
    let first = app.register("iris", PASSWORD).await;
    let body: Value = login(&app, "iris", PASSWORD).await.json().await.unwrap();
    let second = body["token"].as_str().unwrap().to_owned();
    let kept = app.register("ivy", PASSWORD).await;
    let (mut socket, _) = app.socket(Some(&first)).await;

    let response = app
        .http
        .post(app.url("/api/logout/everywhere"))
        .bearer_auth(&second)
        .send()
        .await
        .unwrap();
    let anonymous = app
        .http
        .post(app.url("/api/logout/everywhere"))
        .send()
        .await
        .unwrap();

    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"revoked": 2})
    );
    for token in [&first, &second] {
        assert_eq!(app.get("/api/me", Some(token)).await.status().as_u16(), 401);
    }
    assert_eq!(app.get("/api/me", Some(&kept)).await.status().as_u16(), 200);
    assert_eq!(socket.closed().await.0, 4001);
    assert_eq!(
        error_code(anonymous).await,
        (401, "not_authenticated".to_owned())
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
            &json!({"username": "heidi", "password": PASSWORD, "issue_token": true}),
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

async fn bad_logins_from_elsewhere_do_not_lock_the_owner_out(db: Db) {
    let mut config = test_config();
    config.login_burst_per_account = 2;
    config.login_per_minute_per_account = 1.0;
    config.login_burst_per_address_account = 3;
    config.login_per_minute_per_address_account = 1.0;
    let app = App::start(db, config).await.unwrap();
    app.register("olivia", PASSWORD).await;
    let attacker = app.client_from("127.0.0.2");

    let mut answers = Vec::new();
    for guess in ["guess-one", "guess-two", "guess-three", "guess-four"] {
        answers.push(
            app.login_with(&attacker, "OLIVIA", guess)
                .await
                .status()
                .as_u16(),
        );
    }
    let owner = login(&app, "olivia", PASSWORD).await;

    assert_eq!(
        answers,
        [401, 401, 429, 429],
        "two failures guard the name: an address with failures waits"
    );
    assert_eq!(owner.status().as_u16(), 200, "the owner's address is clean");
    app.stop().await;
}

async fn registering_an_existing_name_does_not_cost_its_owner_logins(db: Db) {
    let mut config = test_config();
    config.login_burst_per_account = 1;
    config.login_per_minute_per_account = 1.0;
    config.login_burst_per_address_account = 1;
    config.login_per_minute_per_address_account = 1.0;
    let app = App::start(db, config).await.unwrap();
    app.register("peggy", PASSWORD).await;
    let attacker = app.client_from("127.0.0.2");

    for _ in 0..4 {
        let response = attacker
            .post(app.url("/api/register"))
            .json(&json!({"username": "Peggy", "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(
            error_code(response).await,
            (409, "username_taken".to_owned())
        );
    }
    let owner = login(&app, "peggy", PASSWORD).await;

    assert_eq!(owner.status().as_u16(), 200);
    app.stop().await;
}

async fn a_guarded_name_admits_the_right_password_only_from_a_clean_address(db: Db) {
    let mut config = test_config();
    config.login_burst_per_account = 1;
    config.login_per_minute_per_account = 1.0;
    config.login_burst_per_address_account = 3;
    config.login_per_minute_per_address_account = 1.0;
    let app = App::start(db, config).await.unwrap();
    app.register("quinn", PASSWORD).await;
    let attacker = app.client_from("127.0.0.2");
    assert_eq!(
        app.login_with(&attacker, "quinn", "guess-one")
            .await
            .status()
            .as_u16(),
        401
    );

    let typo = login(&app, "quinn", "correct horse batteyr").await;
    let right_after_typo = login(&app, "quinn", PASSWORD).await;

    assert_eq!(typo.status().as_u16(), 401, "a clean address may try");
    assert_eq!(right_after_typo.status().as_u16(), 429);
    assert_eq!(
        right_after_typo.headers()[RETRY_AFTER],
        "60",
        "until the address's record for the name is clean: one attempt a minute"
    );
    app.clock.advance(Duration::from_secs(59));
    assert_eq!(login(&app, "quinn", PASSWORD).await.status().as_u16(), 429);
    app.clock.advance(Duration::from_secs(1));
    assert_eq!(login(&app, "quinn", PASSWORD).await.status().as_u16(), 200);
    app.stop().await;
}

async fn login_attempts_are_limited_per_address_and_name(db: Db) {
    let mut config = test_config();
    config.login_burst_per_address_account = 2;
    config.login_per_minute_per_address_account = 1.0;
    let app = App::start(db, config).await.unwrap();
    app.register("rhea", PASSWORD).await;
    for _ in 0..5 {
        assert_eq!(
            login(&app, "rhea", PASSWORD).await.status().as_u16(),
            200,
            "a successful login is given back"
        );
    }

    for _ in 0..2 {
        assert_eq!(
            login(&app, "rhea", "guess-one").await.status().as_u16(),
            401
        );
    }
    let limited = login(&app, "Rhea", PASSWORD).await;
    let other_name = login(&app, "sybil", PASSWORD).await;
    let other_address = app
        .login_with(&app.client_from("127.0.0.3"), "rhea", PASSWORD)
        .await;

    assert_eq!(
        limited.status().as_u16(),
        429,
        "this address spent its tries"
    );
    assert_eq!(limited.headers()[RETRY_AFTER], "60");
    assert_eq!(other_name.status().as_u16(), 401);
    assert_eq!(other_address.status().as_u16(), 200);
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
) -> (testkit::accounts::Socket, testkit::accounts::Socket, String) {
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
            &json!({"username": "alice", "password": PASSWORD, "issue_token": true}),
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

    let answer = app.hello_answer(&token).await;
    let (mut guest, _) = app.socket(None).await;
    let joined = guest.request(json!({"t": "join", "room": id}), 1).await;

    assert_eq!(
        answer["code"], "invalid_token",
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
    // The tier of the rating at once (issue #36), marked provisional by the flag above.
    assert_eq!(white["tier"], "Amateur");
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
    // Exactly one Glicko-2 period between two new players, alice winning.
    let (won, lost) =
        ratings::glicko2::rate_game(ratings::Rating::default(), ratings::Rating::default(), 1.0);
    assert!((deltas[0]["after"].as_f64().unwrap() - won.rating).abs() < 1e-9);
    assert!((deltas[1]["after"].as_f64().unwrap() - lost.rating).abs() < 1e-9);
    assert!(won.rating > 1500.0 && lost.rating < 1500.0);
    assert_eq!(
        deltas[0]["tier"],
        Tier::of(&won).name(),
        "the tier of the rating at once"
    );
    assert_eq!(
        deltas[0]["provisional"], true,
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

    let mut foreign = format!("ws://{host}/ws").into_client_request().unwrap();
    foreign
        .headers_mut()
        .insert("cookie", cookie.parse().unwrap());
    foreign
        .headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    let refused = tokio_tungstenite::connect_async(foreign).await;
    let (_b, own) = app
        .socket_with(None, &[("cookie", &cookie), ("origin", &own_origin)])
        .await;

    // Not even a guest: another site's page gets no socket at all (#35).
    assert!(
        matches!(
            &refused,
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) if r.status() == 403
        ),
        "{refused:?}"
    );
    assert_eq!(
        own["you"]["name"], "wanda",
        "the site's own page gets the user"
    );
    app.stop().await;
}

on_both_stores!(
    registering_sets_an_http_only_lax_cookie_and_keeps_the_token_out_of_the_body,
    a_client_that_asks_for_the_token_gets_it_in_the_body,
    the_cookie_is_secure_when_the_site_is_reached_over_https,
    secure_cookies_mark_every_cookie_secure,
    usernames_must_be_3_to_20_letters_or_digits_of_one_script_underscores_or_dashes,
    a_chinese_name_of_two_characters_registers_logs_in_and_has_a_profile,
    look_alikes_of_a_chinese_or_latin_name_and_staff_names_are_refused,
    a_password_needs_eight_characters,
    common_blank_and_control_passwords_are_refused,
    a_password_is_the_same_in_any_unicode_form,
    an_account_hashed_before_normalisation_still_logs_in,
    a_username_is_taken_whatever_its_case,
    a_name_that_looks_like_a_taken_one_is_refused,
    a_name_registered_under_older_rules_still_logs_in,
    a_malformed_body_gets_a_json_error,
    a_wrong_password_and_an_unknown_user_get_the_same_answer,
    login_ignores_the_case_of_the_name_and_gives_a_fresh_token,
    a_bearer_token_or_the_cookie_authenticates,
    logout_revokes_only_that_session_and_clears_the_cookie,
    a_logout_without_the_cookie_leaves_the_cookie_alone,
    a_logout_revokes_both_the_bearer_and_the_cookie_session,
    logging_in_over_a_session_cookie_revokes_the_session_it_replaces,
    logging_out_closes_the_sessions_open_sockets,
    log_out_everywhere_revokes_every_session_and_closes_every_socket,
    a_session_expires_after_the_configured_days,
    login_attempts_are_limited_per_address_with_retry_after,
    bad_logins_from_elsewhere_do_not_lock_the_owner_out,
    registering_an_existing_name_does_not_cost_its_owner_logins,
    a_guarded_name_admits_the_right_password_only_from_a_clean_address,
    login_attempts_are_limited_per_address_and_name,
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
