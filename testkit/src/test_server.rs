//! The one test server: the real app (`server::run`) on 127.0.0.1:0 with a fresh database, talked to over real
//! sockets.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use server::time::ManualClock;
use server::{AppState, Config};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::table::{Client, Registered};

/// How long a test waits for any one frame or answer before failing (real time; the game clock is manual).
pub const WAIT: Duration = Duration::from_secs(10);

/// A database for one test: a fresh SQLite file, or the Postgres of `TEST_DATABASE_URL`.
pub struct Db {
    /// What `store::open` takes: the SQLite file's path, or the Postgres URL.
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl Db {
    /// A fresh SQLite file in a temporary folder (removed when the `Db` drops).
    pub fn sqlite() -> Db {
        let dir = tempfile::tempdir().expect("temp dir");
        let path: PathBuf = dir.path().join("test.db");
        Db {
            url: path.to_string_lossy().into_owned(),
            _dir: Some(dir),
        }
    }

    /// The Postgres database named by `TEST_DATABASE_URL`, when set.
    pub fn postgres() -> Option<Db> {
        std::env::var("TEST_DATABASE_URL")
            .ok()
            .map(|url| Db { url, _dir: None })
    }
}

/// The default configuration of a test server (bound to port 0).
pub fn test_config() -> Config {
    Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        // Clocks run from the first action, as the clock tests expect; the first-move allowance has its own
        // tests (server/tests/rooms/clocks.rs), which set it.
        first_move_secs: 0,
        // Every rated game of every suite is judged for fair play: at the engine's lowest level and a few
        // milliseconds a position, that costs the suites next to nothing (server/tests/fairplay.rs sets its own).
        fair_play_level: 1,
        fair_play_ms_per_position: 5,
        ..Config::default()
    }
}

/// The real server, serving on 127.0.0.1:0. Dropping it aborts the server; [`TestServer::stop`] stops it
/// gracefully.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its state (store, rooms, config…), for tests that look behind the sockets.
    pub state: AppState,
    /// The clock its clocks, grace periods and rate limits read: moved only by the test. A server started on
    /// the real clock ([`TestServer::start_real_time`]) does not read it.
    pub clock: Arc<ManualClock>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
    /// The database, when the server owns it.
    _db: Option<Db>,
}

impl TestServer {
    /// A server on a fresh SQLite database with the default config.
    pub async fn start() -> (TestServer, Db) {
        let db = Db::sqlite();
        let server = TestServer::start_on(&db, test_config()).await;
        (server, db)
    }

    /// A server on the given database and config.
    pub async fn start_on(db: &Db, config: Config) -> TestServer {
        let store = store::open(&db.url).await.expect("open store");
        TestServer::start_with_store(store, config).await
    }

    /// A server on a store the test made (a wrapper that fails on demand, say).
    pub async fn start_with_store(store: Arc<dyn store::Store>, config: Config) -> TestServer {
        let clock = ManualClock::new();
        let state = AppState::with_clock(config, store, clock.clone())
            .await
            .expect("state");
        TestServer::serve(state, clock, None).await
    }

    /// A server on a fresh SQLite database of its own (kept until the server drops), on the hand-driven clock.
    pub async fn start_fresh(config: Config) -> TestServer {
        let db = Db::sqlite();
        let mut server = TestServer::start_on(&db, config).await;
        server._db = Some(db);
        server
    }

    /// A server on tokio's clock (rate limits refill, timeouts run) and the given database.
    pub async fn start_real_time(db: &Db, config: Config) -> TestServer {
        let store = store::open(&db.url).await.expect("open store");
        let state = AppState::new(config, store).await.expect("state");
        TestServer::serve(state, ManualClock::new(), None).await
    }

    /// A cluster node (issue #22) on tokio's clock: `config` names its NATS server, node id and Postgres database.
    pub async fn start_node(config: Config) -> TestServer {
        let cluster = config
            .cluster()
            .expect("cluster settings")
            .expect("a NATS URL");
        let store = store::open(&config.database_url())
            .await
            .expect("open store");
        let state = AppState::clustered(config, store, cluster)
            .await
            .expect("cluster node");
        TestServer::serve(state, ManualClock::new(), None).await
    }

    /// [`TestServer::start_real_time`] on a fresh SQLite database of its own.
    pub async fn start_real_time_fresh(config: Config) -> TestServer {
        let db = Db::sqlite();
        let mut server = TestServer::start_real_time(&db, config).await;
        server._db = Some(db);
        server
    }

    async fn serve(state: AppState, clock: Arc<ManualClock>, db: Option<Db>) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server::run(listener, state.clone(), async move {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            state,
            clock,
            stop: Some(stop),
            task: Some(task),
            _db: db,
        }
    }

    /// Stops the server gracefully and waits until it is done.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(Duration::from_secs(20), task)
                .await
                .expect("server stops in time")
                .expect("server task")
                .expect("server result");
        }
    }

    /// Moves the game clock forward.
    pub fn advance(&self, by: Duration) {
        self.clock.advance(by);
    }

    /// The HTTP URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// The WebSocket URL (`ws://…/ws`).
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// GET a path over plain HTTP/1.1: status, headers (lower-case names) and body.
    pub async fn get(&self, path: &str) -> (u16, String, String) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = TcpStream::connect(self.addr).await.expect("http connect");
        let req = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        tokio::time::timeout(WAIT, s.read_to_end(&mut raw))
            .await
            .expect("http answer in time")
            .unwrap();
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw.split_once("\r\n\r\n").expect("http head");
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        (status, head.to_ascii_lowercase(), body)
    }

    /// GET a JSON document.
    pub async fn get_json(&self, path: &str) -> (u16, serde_json::Value) {
        let (status, _, body) = self.get(path).await;
        (
            status,
            serde_json::from_str(&body).unwrap_or(serde_json::Value::Null),
        )
    }

    /// A registered user made directly in the store (no password to hash), connected with a fresh session
    /// token: the client, the token and the user's id.
    pub async fn registered(&self, name: &str) -> Registered {
        let user = self
            .state
            .store
            .create_user(name, "not-a-real-hash", 0)
            .await
            .unwrap();
        self.registered_as(user).await
    }

    /// A user made in the store (by [`crate::records`], say), connected with a fresh session token.
    pub async fn registered_as(&self, user: store::User) -> Registered {
        let store = &self.state.store;
        let user_id = user.id;
        let token = server::identity::new_token();
        store
            .create_session(
                &server::identity::hash_token(&token),
                &store::SessionOwner::User(user),
                i64::MAX,
            )
            .await
            .unwrap();
        Registered {
            client: Client::hello(self.addr, Some(&token)).await,
            token,
            user_id,
        }
    }

    /// A connected client that said hello as a new guest.
    pub async fn client(&self) -> Client {
        Client::hello(self.addr, None).await
    }

    /// A connected client from the loopback address `source` (`127.0.0.x`, another address for the per-address
    /// limits) that said hello, as a new guest or resuming `token`.
    pub async fn client_from(&self, source: &str, token: Option<&str>) -> Client {
        Client::hello_from(self.addr, source.parse().expect("an address"), token).await
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}
