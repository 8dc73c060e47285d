//! Password change and reset (issue #35) over real HTTP and WebSockets against the real app on port 0: a change
//! needs the old password, is rate-limited like a login and ends every other session; a reset spends a one-time
//! code an operator issued (`server reset-password NAME`) and ends every session. SQLite always, Postgres when
//! `TEST_DATABASE_URL` is set.

mod accounts_support;

use accounts_support::{test_config, App, Db};
use reqwest::header::RETRY_AFTER;
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery";
const NEW_PASSWORD: &str = "purple monkey dishwasher";

async fn app(db: Db) -> App {
    App::start(db, test_config())
        .await
        .expect("store available")
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

/// Logs in and returns the new session's token.
async fn session(app: &App, name: &str, password: &str) -> String {
    let response = login(app, name, password).await;
    assert_eq!(response.status().as_u16(), 200, "login {name}");
    let body: Value = response.json().await.unwrap();
    body["token"].as_str().unwrap().to_owned()
}

async fn change(app: &App, token: &str, old: &str, new: &str) -> reqwest::Response {
    app.http
        .post(app.url("/api/password"))
        .bearer_auth(token)
        .json(&json!({"old_password": old, "new_password": new}))
        .send()
        .await
        .unwrap()
}

async fn signed_in(app: &App, token: &str) -> bool {
    match app.get("/api/me", Some(token)).await.status().as_u16() {
        200 => true,
        401 => false,
        other => panic!("GET /api/me answered {other}"),
    }
}

async fn changing_the_password_with_the_old_one_lets_only_the_new_one_log_in(db: Db) {
    let app = app(db).await;
    let token = app.register("alma", PASSWORD).await;

    let response = change(&app, &token, PASSWORD, NEW_PASSWORD).await;

    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(login(&app, "alma", PASSWORD).await.status().as_u16(), 401);
    assert_eq!(
        login(&app, "alma", NEW_PASSWORD).await.status().as_u16(),
        200
    );
    app.stop().await;
}

async fn a_change_ends_every_other_session_and_its_sockets_and_keeps_this_one(db: Db) {
    let app = app(db).await;
    let this = app.register("bert", PASSWORD).await;
    let other = session(&app, "bert", PASSWORD).await;
    let someone_else = app.register("bess", PASSWORD).await;
    let (mut other_socket, _) = app.socket(Some(&other)).await;
    let (mut this_socket, _) = app.socket(Some(&this)).await;

    let response = change(&app, &this, PASSWORD, NEW_PASSWORD).await;

    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"revoked": 1})
    );
    assert!(signed_in(&app, &this).await, "the session that asked stays");
    assert!(!signed_in(&app, &other).await, "another session ends");
    assert!(signed_in(&app, &someone_else).await);
    let (code, before) = other_socket.closed().await;
    assert_eq!(code, 4001);
    assert_eq!(before.last().unwrap()["code"], "session_revoked");
    let pong = this_socket.request(json!({"t": "ping"}), 9).await;
    assert_eq!(pong["t"], "pong", "this session's socket stays: {pong}");
    app.stop().await;
}

async fn a_wrong_old_password_changes_nothing(db: Db) {
    let app = app(db).await;
    let this = app.register("cleo", PASSWORD).await;
    let other = session(&app, "cleo", PASSWORD).await;

    let response = change(&app, &this, "not the password", NEW_PASSWORD).await;

    assert_eq!(
        error_code(response).await,
        (403, "wrong_password".to_owned())
    );
    assert!(signed_in(&app, &other).await, "no session ends");
    assert_eq!(login(&app, "cleo", PASSWORD).await.status().as_u16(), 200);
    assert_eq!(
        login(&app, "cleo", NEW_PASSWORD).await.status().as_u16(),
        401
    );
    app.stop().await;
}

async fn wrong_old_passwords_spend_the_login_limits(db: Db) {
    let mut config = test_config();
    config.login_burst_per_address_account = 2;
    config.login_per_minute_per_address_account = 1.0;
    let app = App::start(db, config).await.unwrap();
    let token = app.register("dora", PASSWORD).await;

    for guess in ["guess-one", "guess-two"] {
        let response = change(&app, &token, guess, NEW_PASSWORD).await;
        assert_eq!(response.status().as_u16(), 403);
    }
    let limited = change(&app, &token, PASSWORD, NEW_PASSWORD).await;
    let login_too = login(&app, "dora", PASSWORD).await;

    assert_eq!(limited.status().as_u16(), 429, "the right one waits too");
    assert_eq!(limited.headers()[RETRY_AFTER], "60");
    assert_eq!(error_code(limited).await.1, "rate_limited");
    assert_eq!(
        login_too.status().as_u16(),
        429,
        "the same budget as logins from this address"
    );
    app.clock.advance(std::time::Duration::from_secs(60));
    assert_eq!(
        change(&app, &token, PASSWORD, NEW_PASSWORD)
            .await
            .status()
            .as_u16(),
        200
    );
    app.stop().await;
}

async fn a_new_password_must_pass_the_registration_rules(db: Db) {
    let app = app(db).await;
    let token = app.register("edda", PASSWORD).await;

    let short = change(&app, &token, PASSWORD, "1234567").await;
    let common = change(&app, &token, PASSWORD, "password1").await;
    let blank = change(&app, &token, PASSWORD, &"\u{200B}".repeat(9)).await;

    assert_eq!(error_code(short).await, (400, "weak_password".to_owned()));
    assert_eq!(
        error_code(common).await,
        (400, "common_password".to_owned())
    );
    assert_eq!(
        error_code(blank).await,
        (400, "invalid_password".to_owned())
    );
    assert_eq!(login(&app, "edda", PASSWORD).await.status().as_u16(), 200);
    app.stop().await;
}

async fn a_new_password_is_normalised_like_at_registration(db: Db) {
    let app = app(db).await;
    let token = app.register("fenna", PASSWORD).await;

    let response = change(&app, &token, PASSWORD, "cafe\u{301}-au-lait").await;

    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        login(&app, "fenna", "caf\u{E9}-au-lait")
            .await
            .status()
            .as_u16(),
        200,
        "the composed form logs in"
    );
    app.stop().await;
}

async fn a_change_needs_an_accounts_session(db: Db) {
    let app = app(db).await;
    let (_socket, welcome) = app.socket(None).await;
    let guest = welcome["token"].as_str().unwrap().to_owned();

    let anonymous = app
        .post(
            "/api/password",
            &json!({"old_password": PASSWORD, "new_password": NEW_PASSWORD}),
        )
        .await;
    let as_guest = change(&app, &guest, PASSWORD, NEW_PASSWORD).await;

    assert_eq!(
        error_code(anonymous).await,
        (401, "not_authenticated".to_owned())
    );
    assert_eq!(
        error_code(as_guest).await,
        (401, "not_authenticated".to_owned())
    );
    app.stop().await;
}

on_both_stores!(
    changing_the_password_with_the_old_one_lets_only_the_new_one_log_in,
    a_change_ends_every_other_session_and_its_sockets_and_keeps_this_one,
    a_wrong_old_password_changes_nothing,
    wrong_old_passwords_spend_the_login_limits,
    a_new_password_must_pass_the_registration_rules,
    a_new_password_is_normalised_like_at_registration,
    a_change_needs_an_accounts_session,
);
