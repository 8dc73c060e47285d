//! The accounts and leaderboard tests' view of the test server: the one [`TestServer`] with cheap password
//! hashing, on SQLite always and on Postgres (a fresh schema in `TEST_DATABASE_URL`'s database,
//! [`crate::postgres`]) when that variable is set, an HTTP client that handles cookies by hand, JSON sockets, and
//! stored games and users made directly for the rating tests. [`on_both_stores!`](crate::on_both_stores) writes a
//! test for both databases.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use ratings::Pool;
use rules::{Color, Rules};
use serde_json::{json, Value};
use server::time::ManualClock;
use server::Config;
use store::{GameId, Store, User};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::postgres::FreshSchema;
use crate::test_server::TestServer;

/// Which database a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    /// A SQLite file in a temporary folder.
    Sqlite,
    /// A fresh schema in `TEST_DATABASE_URL`'s database.
    Postgres,
}

/// A running app and the handles a test needs.
pub struct App {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The store it uses (to arrange data quickly).
    pub store: Arc<dyn Store>,
    /// The clock its rate limits and sessions follow.
    pub clock: Arc<ManualClock>,
    /// An HTTP client without a cookie jar: tests handle cookies by hand to check their attributes.
    pub http: reqwest::Client,
    /// Its turns at password hashing, for tests that hold a place or count the waiting.
    pub hashing: Arc<server::accounts::hash_queue::HashQueue>,
    server: Option<TestServer>,
    _dir: Option<tempfile::TempDir>,
    schema: Option<FreshSchema>,
}

/// Settings for tests: cheap password hashing (the cost is the argon2 crate's business, not ours to time)
/// and limits loose enough that only the rate-limit tests meet them.
pub fn test_config() -> Config {
    Config {
        password_memory_kib: 64,
        login_burst_per_ip: 1000,
        login_burst_per_account: 1000,
        login_burst_per_address_account: 1000,
        registrations_per_day_per_ip: 1000,
        registrations_per_day_per_range: 1000,
        password_hashes_per_ip: 1000,
        ..Config::default()
    }
}

impl App {
    /// Starts the app on `db` with `config`, or `None` when Postgres is asked for and not configured.
    pub async fn start(db: Db, config: Config) -> Option<App> {
        let (store, dir, schema) = match db {
            Db::Sqlite => {
                let dir = tempfile::tempdir().expect("temporary folder");
                let url = format!("sqlite://{}/test.db", dir.path().display());
                (
                    store::open(&url).await.expect("open sqlite"),
                    Some(dir),
                    None,
                )
            }
            Db::Postgres => {
                let schema = FreshSchema::of_test_database("accounts").await?;
                let store = store::open(&schema.url).await.expect("open postgres");
                (store, None, Some(schema))
            }
        };
        Some(App::serve(store, config, dir, schema).await)
    }

    /// Starts the app on the database at `url` (one a test prepared, such as a SQLite file an operator's
    /// command wrote to).
    pub async fn start_on(url: &str, config: Config) -> App {
        let store = store::open(url).await.expect("open the database");
        App::serve(store, config, None, None).await
    }

    async fn serve(
        store: Arc<dyn Store>,
        config: Config,
        dir: Option<tempfile::TempDir>,
        schema: Option<FreshSchema>,
    ) -> App {
        let server = TestServer::start_with_store(store.clone(), config).await;
        App {
            addr: server.addr,
            store,
            clock: server.clock.clone(),
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("http client"),
            hashing: server.state.password_hashing.clone(),
            server: Some(server),
            _dir: dir,
            schema,
        }
    }

    /// Stops the app and drops the Postgres schema.
    pub async fn stop(mut self) {
        if let Some(server) = self.server.take() {
            server.stop().await;
        }
        if let Some(schema) = self.schema.take() {
            schema.drop().await;
        }
    }

    /// The running server's state, for tests that look behind the sockets (who is connected, say).
    pub fn state(&self) -> &server::AppState {
        &self
            .server
            .as_ref()
            .expect("the app runs until stopped")
            .state
    }

    /// An absolute URL of this app.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `POST` JSON.
    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        self.http
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .expect("request")
    }

    /// An HTTP client (no cookie jar, no redirects) whose requests come from another loopback address, such as
    /// `127.0.0.2`: to the app, another client address.
    pub fn client_from(&self, ip: &str) -> reqwest::Client {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .local_address(Some(ip.parse().expect("an IP address")))
            .build()
            .expect("http client")
    }

    /// `POST /api/login` through `client`.
    pub async fn login_with(
        &self,
        client: &reqwest::Client,
        name: &str,
        password: &str,
    ) -> reqwest::Response {
        client
            .post(self.url("/api/login"))
            .json(&json!({"username": name, "password": password}))
            .send()
            .await
            .expect("request")
    }

    /// `GET` with an optional bearer token.
    pub async fn get(&self, path: &str, bearer: Option<&str>) -> reqwest::Response {
        let mut request = self.http.get(self.url(path));
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("request")
    }

    /// `GET` and the JSON body, asserting the status.
    pub async fn get_json(&self, path: &str, status: u16) -> Value {
        let response = self.get(path, None).await;
        assert_eq!(response.status().as_u16(), status, "GET {path}");
        response.json().await.expect("json body")
    }

    /// Registers through the API, asking for the token in the body as a non-browser client does, and returns it.
    pub async fn register(&self, name: &str, password: &str) -> String {
        let response = self
            .post(
                "/api/register",
                &json!({"username": name, "password": password, "issue_token": true}),
            )
            .await;
        assert_eq!(response.status().as_u16(), 201, "register {name}");
        let body: Value = response.json().await.expect("json");
        body["token"].as_str().expect("token").to_owned()
    }

    /// Creates a user straight in the store (no hashing, no rate limit): for arranging leaderboards.
    pub async fn user(&self, name: &str) -> User {
        self.store
            .create_user(name, "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaA", 1)
            .await
            .expect("create user")
    }

    /// Stores and finishes a game between two users, `winner` as seated (or a draw), and returns its id.
    pub async fn rated_game(
        &self,
        rules: Rules,
        black: &User,
        white: &User,
        winner: Option<Color>,
        at: i64,
    ) -> GameId {
        crate::records::rated_game(self.store.as_ref(), rules, black, white, winner, at).await
    }

    /// Connects a WebSocket and says hello with `token`; returns the server's answer, whatever it is (an
    /// `invalid_token` error for a token that names nobody).
    pub async fn hello_answer(&self, token: &str) -> Value {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", self.addr))
            .await
            .expect("websocket connects");
        let mut socket = Socket { ws };
        let hello = json!({"t": "hello", "version": protocol::PROTOCOL_VERSION, "token": token});
        socket.request(hello, 1).await
    }

    /// Connects a WebSocket and says hello with `token`; returns the socket and the `welcome`.
    pub async fn socket(&self, token: Option<&str>) -> (Socket, Value) {
        self.socket_with(token, &[]).await
    }

    /// [`App::socket`] with extra headers on the upgrade request (a browser's cookie, its origin).
    pub async fn socket_with(
        &self,
        token: Option<&str>,
        headers: &[(&str, &str)],
    ) -> (Socket, Value) {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{}/ws", self.addr)
            .into_client_request()
            .expect("request");
        for (name, value) in headers {
            request.headers_mut().insert(
                reqwest::header::HeaderName::from_bytes(name.as_bytes()).expect("header name"),
                value.parse().expect("header value"),
            );
        }
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("websocket connects");
        let mut socket = Socket { ws };
        let mut hello = json!({"t": "hello", "version": protocol::PROTOCOL_VERSION});
        if let Some(t) = token {
            hello["token"] = json!(t);
        }
        socket.send(hello).await;
        let welcome = socket.until(|m| m["t"] == "welcome").await;
        (socket, welcome)
    }
}

/// A test's WebSocket.
pub struct Socket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Socket {
    /// Sends a JSON message.
    pub async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .expect("send");
    }

    /// The next JSON message.
    pub async fn next(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("a message within 10 s")
                .expect("socket open")
                .expect("frame");
            if let Message::Text(text) = frame {
                return serde_json::from_str(text.as_str()).expect("json frame");
            }
        }
    }

    /// Reads until the server closes the socket; returns the close code and the JSON messages before it.
    pub async fn closed(&mut self) -> (u16, Vec<Value>) {
        let mut before = Vec::new();
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("a frame within 10 s");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    before.push(serde_json::from_str(text.as_str()).expect("json frame"));
                }
                Some(Ok(Message::Close(close))) => {
                    return (close.map_or(1005, |c| u16::from(c.code)), before);
                }
                Some(Ok(_)) => {}
                other => panic!("the socket ended without a close frame: {other:?}"),
            }
        }
    }

    /// Reads until a message matches, and returns it.
    pub async fn until(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.next().await;
            if matches(&message) {
                return message;
            }
        }
    }

    /// Sends a request with a request id and returns the reply or error that echoes it.
    pub async fn request(&mut self, mut message: Value, rid: u64) -> Value {
        message["rid"] = json!(rid);
        self.send(message).await;
        self.until(|m| m["rid"] == json!(rid)).await
    }
}

/// The pool of a rule set, for readability in tests.
pub fn pool_of(rules: &Rules) -> Pool {
    server::gomoku::pool_of(rules)
}

/// Writes each test twice: `sqlite::NAME` and `postgres::NAME` (the latter returns early without
/// `TEST_DATABASE_URL`, saying so).
#[macro_export]
macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::accounts::Db::Sqlite).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if std::env::var("TEST_DATABASE_URL").is_err() {
                        eprintln!("TEST_DATABASE_URL is not set: postgres::{} was not run", stringify!($name));
                        return;
                    }
                    super::$name($crate::accounts::Db::Postgres).await;
                }
            )*
        }
    };
}
