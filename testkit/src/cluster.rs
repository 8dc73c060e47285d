//! What the cluster tests share (issue #22; the server's and loadgen's): the NATS server of the run and its
//! credentials, the services a cluster needs, a fresh database per test, node settings, rejoining a room that
//! moved, and a TCP proxy to cut a node off a service.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::table::Client;
use crate::test_server::test_config;
use protocol::{ClientMessage, JoinRole, ServerMessage};
use server::Config;

/// The anonymous NATS server a developer runs (`nats-server -js`), used when `TEST_NATS_URL` is not set.
pub const NATS: &str = "nats://127.0.0.1:4222";

/// The NATS server the cluster tests use. `.ci/run` starts one that refuses anonymous clients (issue #35) and
/// names it in `TEST_NATS_URL` with `TEST_NATS_USER` and `TEST_NATS_PASSWORD` (and `TEST_NATS_CA_FILE` when it
/// speaks TLS); without them, the anonymous server on 127.0.0.1:4222.
#[derive(Clone, Debug)]
pub struct TestNats {
    /// Its URL (`nats://…` or `tls://…`).
    pub url: String,
    /// The user, when it wants credentials.
    pub user: Option<String>,
    /// The password, when it wants credentials.
    pub password: Option<String>,
    /// The CA file that signed its certificate, when it speaks TLS.
    pub ca_file: Option<String>,
}

impl TestNats {
    /// `host:port` of the server (for a TCP proxy in front of it).
    pub fn host_port(&self) -> String {
        let rest = self.url.split_once("://").map_or(&*self.url, |(_, r)| r);
        rest.rsplit_once('@').map_or(rest, |(_, h)| h).to_owned()
    }

    /// The server's URL through `addr` (a proxy) instead, same scheme.
    pub fn url_via(&self, addr: SocketAddr) -> String {
        let scheme = self.url.split_once("://").map_or("nats", |(s, _)| s);
        format!("{scheme}://{addr}")
    }

    /// Whether the server wants credentials.
    pub fn authenticated(&self) -> bool {
        self.user.is_some()
    }

    /// Gives a node's configuration this server, its credentials and its CA.
    pub fn apply(&self, config: &mut Config) {
        config.nats_url = Some(self.url.clone());
        config.nats_user = self.user.clone();
        config.nats_password = self.password.clone();
        config.nats_ca_file = self.ca_file.clone().map(Into::into);
    }

    /// The same as environment variables, for a node in a child process.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        let mut vars = vec![("NATS_URL", self.url.clone())];
        vars.extend(self.user.clone().map(|u| ("NATS_USER", u)));
        vars.extend(self.password.clone().map(|p| ("NATS_PASSWORD", p)));
        vars.extend(self.ca_file.clone().map(|c| ("NATS_CA_FILE", c)));
        vars
    }
}

/// The NATS server of this run (see [`TestNats`]).
pub fn nats() -> TestNats {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match var("TEST_NATS_URL") {
        Some(url) => TestNats {
            url,
            user: var("TEST_NATS_USER"),
            password: var("TEST_NATS_PASSWORD"),
            ca_file: var("TEST_NATS_CA_FILE"),
        },
        None => TestNats {
            url: NATS.to_owned(),
            user: None,
            password: None,
            ca_file: None,
        },
    }
}

/// Whether something answers on NATS's port, or why the test cannot run (an `Err` to skip with). Under CI the
/// server must be the authenticated one (`TEST_NATS_URL` and its credentials).
pub async fn services() -> Result<String, String> {
    let under_ci = std::env::var_os("CI").is_some();
    let nats = nats();
    if under_ci && !nats.authenticated() {
        panic!(
            "under CI the cluster tests run on a NATS server that refuses anonymous clients: \
             .ci/run sets TEST_NATS_URL, TEST_NATS_USER and TEST_NATS_PASSWORD"
        );
    }
    let nats_up = tokio::time::timeout(
        Duration::from_secs(2),
        tokio::net::TcpStream::connect(nats.host_port()),
    )
    .await
    .is_ok_and(|c| c.is_ok());
    let pg = crate::postgres::admin_url();
    match (nats_up, pg) {
        (true, Some(pg)) => Ok(pg),
        _ if under_ci => panic!(
            "the cluster test needs NATS at {} and TEST_DATABASE_URL under CI (.ci/run starts both)",
            nats.host_port()
        ),
        (false, _) => Err(format!(
            "NATS is not answering at {} (run `nats-server -js`)",
            nats.host_port()
        )),
        (true, None) => Err("TEST_DATABASE_URL is not set (cluster mode needs Postgres)".into()),
    }
}

/// What every cluster test starts with: [`services`], then a [`fresh_database`]; `(admin URL, database URL)`, or
/// `None` once the reason to skip is printed (outside CI, a service is missing).
pub async fn cluster_database() -> Option<(String, String)> {
    match services().await {
        Ok(admin) => {
            let database = fresh_database(&admin).await;
            Some((admin, database))
        }
        Err(why) => {
            eprintln!("skipped: {why}");
            None
        }
    }
}

/// A fresh database beside the one `TEST_DATABASE_URL` names; its URL.
pub async fn fresh_database(admin_url: &str) -> String {
    crate::postgres::fresh_database(admin_url, "cluster").await
}

/// Drops a database [`fresh_database`] made (closing what still connects to it).
pub async fn drop_database(admin_url: &str, url: &str) {
    crate::postgres::drop_database(admin_url, url).await
}

/// A node's configuration: the test configuration on `database`, as node `node`, on the run's NATS server.
pub fn node_config(database: &str, node: &str) -> Config {
    let mut config = Config {
        database_url: Some(database.to_owned()),
        node_id: Some(node.to_owned()),
        ..test_config()
    };
    nats().apply(&mut config);
    config
}

/// Node ids unique to this run (the NATS server may be shared).
pub fn node_id(letter: char) -> String {
    format!("t{}{letter}", std::process::id() % 100_000)
}

/// Joins `room` as its player through `addr` with `token`, once the room answers there (with `plies` moves when
/// given: a taken-over room is unknown, or still the cut-off node's, until its new owner has it); the client and
/// the snapshot. Gives up after 30 s.
pub async fn rejoin(
    addr: SocketAddr,
    token: &str,
    room: &str,
    plies: Option<usize>,
) -> (Client, protocol::RoomSnapshot) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut c = Client::hello(addr, Some(token)).await;
        let reply = c
            .request(ClientMessage::Join {
                room: room.to_owned(),
                role: JoinRole::Player,
                since: None,
            })
            .await;
        match reply {
            ServerMessage::Room { room } if plies.is_none_or(|n| room.moves.len() == n) => {
                return (c, room)
            }
            other => {
                assert!(
                    Instant::now() < deadline,
                    "the room was not taken over within 30 s: {other:?}"
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// A TCP proxy on loopback in front of a service (NATS, Postgres) that a test can cut and heal: a network
/// partition between one node and that service, the rest of the cluster unaffected.
pub struct Partition {
    /// The proxy's address: give it to the node instead of the service's.
    pub addr: std::net::SocketAddr,
    cut: std::sync::Arc<std::sync::atomic::AtomicBool>,
    live: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Partition {
    /// A proxy forwarding to `target`, not cut.
    pub async fn to(target: &str) -> Partition {
        use std::sync::atomic::Ordering;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let cut = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let live: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>> =
            Default::default();
        let (target, flag, tasks) = (target.to_owned(), cut.clone(), live.clone());
        let accept = tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    return;
                };
                // While cut, a connection is dropped as soon as it comes (as a reset by a firewall).
                if flag.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let target = target.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                tasks.lock().unwrap().push(task.abort_handle());
            }
        });
        Partition {
            addr,
            cut,
            live,
            accept,
        }
    }

    /// Cuts the link: open connections die, new ones are dropped.
    pub fn cut(&self) {
        self.cut.store(true, std::sync::atomic::Ordering::SeqCst);
        for task in self.live.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    /// Heals the link: new connections go through again.
    pub fn heal(&self) {
        self.cut.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Drop for Partition {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}
