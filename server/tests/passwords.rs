//! Password change and reset (issue #35) over real HTTP and WebSockets against the real app on port 0: a change
//! needs the old password, is rate-limited like a login and ends every other session; a reset spends a one-time
//! code an operator issued (`server reset-password NAME`) and ends every session. SQLite always, Postgres when
//! `TEST_DATABASE_URL` is set.

use std::time::Duration;

use reqwest::header::RETRY_AFTER;
use serde_json::{json, Value};
use testkit::accounts::{test_config, App, Db};
use testkit::on_both_stores;
use tokio::sync::oneshot;

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
    app.clock.advance(Duration::from_secs(60));
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

/// Issues a reset code as the operator's command does, valid for an hour from the app's own clock.
async fn issue(app: &App, name: &str) -> String {
    server::accounts::reset::issue(
        &*app.store,
        name,
        Duration::from_secs(3600),
        server::time::unix_ms(),
    )
    .await
    .expect("a code")
    .code
}

async fn reset(app: &App, name: &str, code: &str, new: &str) -> reqwest::Response {
    app.post(
        "/api/password/reset",
        &json!({"username": name, "code": code, "new_password": new}),
    )
    .await
}

async fn a_reset_code_sets_a_new_password_and_ends_every_session(db: Db) {
    let app = app(db).await;
    let first = app.register("gina", PASSWORD).await;
    let second = session(&app, "gina", PASSWORD).await;
    let someone_else = app.register("gus", PASSWORD).await;
    let (mut socket, _) = app.socket(Some(&first)).await;
    let code = issue(&app, "GINA").await;

    let response = reset(&app, "gina", &code, NEW_PASSWORD).await;

    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"revoked": 2})
    );
    assert!(!signed_in(&app, &first).await);
    assert!(!signed_in(&app, &second).await);
    assert!(signed_in(&app, &someone_else).await);
    assert_eq!(socket.closed().await.0, 4001);
    assert_eq!(login(&app, "gina", PASSWORD).await.status().as_u16(), 401);
    assert_eq!(
        login(&app, "gina", NEW_PASSWORD).await.status().as_u16(),
        200
    );
    app.stop().await;
}

async fn a_reset_code_works_once(db: Db) {
    let app = app(db).await;
    app.register("hedy", PASSWORD).await;
    let code = issue(&app, "hedy").await;
    assert_eq!(
        reset(&app, "hedy", &code, NEW_PASSWORD)
            .await
            .status()
            .as_u16(),
        200
    );

    let again = reset(&app, "hedy", &code, "a third password here").await;

    assert_eq!(
        error_code(again).await,
        (400, "invalid_reset_code".to_owned())
    );
    assert_eq!(
        login(&app, "hedy", NEW_PASSWORD).await.status().as_u16(),
        200
    );
    app.stop().await;
}

async fn a_reset_code_is_read_ignoring_case_and_dashes(db: Db) {
    let app = app(db).await;
    app.register("hera", PASSWORD).await;
    let code = issue(&app, "hera").await;

    let typed = code.replace('-', " ").to_lowercase();
    let response = reset(&app, "hera", &typed, NEW_PASSWORD).await;

    assert_eq!(response.status().as_u16(), 200);
    app.stop().await;
}

async fn a_reset_code_expires_after_its_time(db: Db) {
    let app = app(db).await;
    app.register("iona", PASSWORD).await;
    app.register("ines", PASSWORD).await;
    let in_time = issue(&app, "iona").await;
    let too_late = issue(&app, "ines").await;

    app.clock.advance(Duration::from_secs(3600 - 10));
    let before = reset(&app, "iona", &in_time, NEW_PASSWORD).await;
    app.clock.advance(Duration::from_secs(11));
    let after = reset(&app, "ines", &too_late, NEW_PASSWORD).await;

    assert_eq!(before.status().as_u16(), 200, "10 s before its hour is up");
    assert_eq!(
        error_code(after).await,
        (400, "invalid_reset_code".to_owned())
    );
    assert_eq!(login(&app, "ines", PASSWORD).await.status().as_u16(), 200);
    app.stop().await;
}

async fn a_wrong_code_and_an_unknown_name_get_the_same_answer(db: Db) {
    let app = app(db).await;
    let token = app.register("jade", PASSWORD).await;
    let code = issue(&app, "jade").await;
    let other_code = issue(&app, &{
        app.register("jon", PASSWORD).await;
        "jon".to_owned()
    })
    .await;

    let wrong = reset(&app, "jade", "AAAA-BBBB-CCCC-DDDD", NEW_PASSWORD).await;
    let anothers = reset(&app, "jade", &other_code, NEW_PASSWORD).await;
    let unknown = reset(&app, "nobody", &code, NEW_PASSWORD).await;
    let malformed = reset(&app, "jade", "hello", NEW_PASSWORD).await;

    for response in [wrong, anothers, unknown, malformed] {
        assert_eq!(
            error_code(response).await,
            (400, "invalid_reset_code".to_owned())
        );
    }
    assert!(signed_in(&app, &token).await, "nothing ended");
    assert_eq!(
        reset(&app, "jade", &code, NEW_PASSWORD)
            .await
            .status()
            .as_u16(),
        200,
        "the real code still works"
    );
    app.stop().await;
}

async fn a_weak_new_password_leaves_the_code_unspent(db: Db) {
    let app = app(db).await;
    app.register("kira", PASSWORD).await;
    let code = issue(&app, "kira").await;

    let weak = reset(&app, "kira", &code, "12345678").await;

    assert_eq!(error_code(weak).await, (400, "common_password".to_owned()));
    assert_eq!(
        reset(&app, "kira", &code, NEW_PASSWORD)
            .await
            .status()
            .as_u16(),
        200
    );
    app.stop().await;
}

async fn wrong_reset_codes_spend_the_login_limits(db: Db) {
    let mut config = test_config();
    config.login_burst_per_address_account = 2;
    config.login_per_minute_per_address_account = 1.0;
    let app = App::start(db, config).await.unwrap();
    app.register("lena", PASSWORD).await;
    let code = issue(&app, "lena").await;

    for guess in ["AAAA-AAAA-AAAA-AAAA", "BBBB-BBBB-BBBB-BBBB"] {
        let response = reset(&app, "lena", guess, NEW_PASSWORD).await;
        assert_eq!(response.status().as_u16(), 400);
    }
    let limited = reset(&app, "lena", &code, NEW_PASSWORD).await;
    let login_too = login(&app, "lena", PASSWORD).await;

    assert_eq!(limited.status().as_u16(), 429);
    assert_eq!(limited.headers()[RETRY_AFTER], "60");
    assert_eq!(
        login_too.status().as_u16(),
        429,
        "the same budget as logins"
    );
    app.clock.advance(Duration::from_secs(60));
    assert_eq!(
        reset(&app, "lena", &code, NEW_PASSWORD)
            .await
            .status()
            .as_u16(),
        200,
        "the code was not spent by the refused attempt"
    );
    app.stop().await;
}

async fn a_changed_password_voids_a_pending_reset_code(db: Db) {
    let app = app(db).await;
    let token = app.register("mona", PASSWORD).await;
    let code = issue(&app, "mona").await;
    assert_eq!(
        change(&app, &token, PASSWORD, NEW_PASSWORD)
            .await
            .status()
            .as_u16(),
        200
    );

    let response = reset(&app, "mona", &code, "a third password here").await;

    assert_eq!(
        error_code(response).await,
        (400, "invalid_reset_code".to_owned())
    );
    app.stop().await;
}

/// Runs the server binary's `reset-password` against a database and returns its exit status, stdout and stderr.
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
async fn the_operator_command_prints_a_code_that_resets_the_password_once() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/operator.db", dir.path().display());
    let store = store::open(&url).await.unwrap();
    store
        .create_user("Nora", "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaA", 1)
        .await
        .unwrap();
    store.close().await;

    let (ok, stdout, stderr) = operator(&url, &["reset-password", "nora", "--valid-mins", "30"]);

    assert!(ok, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Nora") && stdout.contains("30 minutes"),
        "{stdout}"
    );
    let code = stdout.lines().last().unwrap().trim().to_owned();
    assert_eq!(code.len(), 19, "XXXX-XXXX-XXXX-XXXX: {stdout}");
    let database = std::fs::read(dir.path().join("operator.db")).unwrap();
    let wal = std::fs::read(dir.path().join("operator.db-wal")).unwrap_or_default();
    for bytes in [&database, &wal] {
        assert!(
            !bytes.windows(code.len()).any(|w| w == code.as_bytes())
                && !bytes
                    .windows(16)
                    .any(|w| w == code.replace('-', "").as_bytes()),
            "the code appears in the database files"
        );
    }

    // The server, started on that database, takes the code once.
    let app = App::start_on(&url, test_config()).await;
    let response = reset(&app, "nora", &code, NEW_PASSWORD).await;
    assert_eq!(response.status().as_u16(), 200);
    let again = reset(&app, "nora", &code, NEW_PASSWORD).await;
    assert_eq!(
        error_code(again).await,
        (400, "invalid_reset_code".to_owned())
    );
    assert_eq!(
        login(&app, "nora", NEW_PASSWORD).await.status().as_u16(),
        200
    );
    app.stop().await;
}

#[test]
fn the_operator_command_refuses_an_unknown_name_and_prints_no_code() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/operator.db", dir.path().display());

    let (ok, stdout, stderr) = operator(&url, &["reset-password", "nobody"]);
    let (too_long, _, _) = operator(&url, &["reset-password", "nobody", "--valid-mins", "20000"]);

    assert!(!ok);
    assert_eq!(stdout, "", "no code");
    assert!(stderr.contains("no account named nobody"), "{stderr}");
    assert!(!too_long, "at most a week");
}

on_both_stores!(
    changing_the_password_with_the_old_one_lets_only_the_new_one_log_in,
    a_change_ends_every_other_session_and_its_sockets_and_keeps_this_one,
    a_wrong_old_password_changes_nothing,
    wrong_old_passwords_spend_the_login_limits,
    a_new_password_must_pass_the_registration_rules,
    a_new_password_is_normalised_like_at_registration,
    a_change_needs_an_accounts_session,
    a_reset_code_sets_a_new_password_and_ends_every_session,
    a_reset_code_works_once,
    a_reset_code_is_read_ignoring_case_and_dashes,
    a_reset_code_expires_after_its_time,
    a_wrong_code_and_an_unknown_name_get_the_same_answer,
    a_weak_new_password_leaves_the_code_unspent,
    wrong_reset_codes_spend_the_login_limits,
    a_changed_password_voids_a_pending_reset_code,
);

// --- Turns at password hashing (#35: junk logins from many addresses slowed a real login 30-fold) ---------

/// A task from `ip` that holds a hashing place once its turn comes: it says so on the returned receiver and keeps
/// the place until the returned sender is used (or dropped).
fn hold_a_place(
    app: &App,
    ip: &str,
) -> (
    oneshot::Receiver<()>,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let (granted_tx, granted) = oneshot::channel();
    let (release, released) = oneshot::channel::<()>();
    let (queue, ip) = (app.hashing.clone(), ip.parse().unwrap());
    let task = tokio::spawn(async move {
        let place = queue.acquire(ip).await.expect("a place");
        let _ = granted_tx.send(());
        let _ = released.await;
        drop(place);
    });
    (granted, release, task)
}

async fn until_waiting(app: &App, n: usize) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while app.hashing.waiting() != n {
        assert!(
            std::time::Instant::now() < deadline,
            "{} hashes wait, not {n}",
            app.hashing.waiting()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_login_is_served_before_a_flood_of_junk_logins_from_several_addresses_drains() {
    let app = App::start(
        Db::Sqlite,
        server::Config {
            password_hash_threads: Some(1),
            password_hashes_per_ip: 2,
            password_hash_queue: 8,
            ..test_config()
        },
    )
    .await
    .unwrap();
    app.register("alice", PASSWORD).await;
    // The one hashing place is taken, as by a long hash.
    let (_, busy, busy_task) = hold_a_place(&app, "192.0.2.1");
    until_waiting(&app, 0).await;
    while app.hashing.running() != 1 {
        tokio::task::yield_now().await;
    }
    // The flood: junk logins from three addresses, two each (an address's most), queued in this order.
    let mut flood = Vec::new();
    for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
        for _ in 0..2 {
            let (app_url, client) = (app.url("/api/login"), app.client_from(source));
            flood.push(tokio::spawn(async move {
                let r = client
                    .post(app_url)
                    .json(&json!({"username": "alice", "password": "not her password"}))
                    .send()
                    .await
                    .unwrap();
                r.status().as_u16()
            }));
            until_waiting(&app, flood.len()).await;
        }
    }
    // An address's third junk login is not queued: 429 with Retry-After and a JSON body.
    let third = app
        .login_with(&app.client_from("127.0.0.2"), "alice", "junk")
        .await;
    assert_eq!(third.status().as_u16(), 429);
    assert_eq!(third.headers()[RETRY_AFTER], "1");
    assert_eq!(error_code(third).await, (429, "rate_limited".into()));
    // The real login, then a watcher that takes the place when its own turn comes, after the real login's.
    let real = {
        let (url, client) = (app.url("/api/login"), app.client_from("127.0.0.5"));
        tokio::spawn(async move {
            client
                .post(url)
                .json(&json!({"username": "alice", "password": PASSWORD}))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        })
    };
    until_waiting(&app, 7).await;
    let (watcher_granted, watcher, watcher_task) = hold_a_place(&app, "127.0.0.6");
    until_waiting(&app, 8).await;
    // Every queue together is full: 503 with Retry-After and a JSON body.
    let full = app
        .login_with(&app.client_from("127.0.0.7"), "alice", "junk")
        .await;
    assert_eq!(full.headers()[RETRY_AFTER], "1");
    assert_eq!(error_code(full).await, (503, "server_busy".into()));

    // Go: the places go round the addresses, one hash each in turn.
    let _ = busy.send(());
    busy_task.await.unwrap();
    watcher_granted.await.unwrap();
    // The watcher holds the only place, so nothing hashes now; the real login had its turn before it.
    assert_eq!(real.await.unwrap(), 200, "the real login went through");
    assert_eq!(
        app.hashing.waiting(),
        3,
        "the flood still has one junk login of each address queued: the real one did not wait for it to drain"
    );
    let _ = watcher.send(());
    watcher_task.await.unwrap();
    for junk in flood {
        assert_eq!(junk.await.unwrap(), 401);
    }
    assert_eq!((app.hashing.running(), app.hashing.waiting()), (0, 0));
    app.stop().await;
}
