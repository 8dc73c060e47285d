//! The cluster's NATS with authentication (issue #35, item 7): a client without credentials forged a join and a
//! resignation for a player and read private chat. Under CI (`.ci/run`) every cluster test runs on a NATS server
//! that refuses anonymous clients; these tests show that a node with wrong or no credentials is refused at start
//! with an error that says so, that nobody else gets in either, and that nodes with the right ones play.
//!
//! Outside CI they are skipped, with a message, unless `TEST_NATS_URL`, `TEST_NATS_USER` and
//! `TEST_NATS_PASSWORD` name an authenticated server (see `testkit::cluster::nats`).

use crate::common;

use common::*;
use protocol::{JoinRole, TimeControl};
use server::cluster::ClusterError;
use server::Config;

use testkit::cluster::*;

/// The authenticated server, or `None` (skipped) when this run has none.
async fn authenticated() -> Option<(TestNats, String, String)> {
    let (admin, database) = cluster_database().await?;
    let nats = nats();
    if !nats.authenticated() {
        eprintln!("skipped: TEST_NATS_URL/TEST_NATS_USER/TEST_NATS_PASSWORD name no authenticated NATS server");
        drop_database(&admin, &database).await;
        return None;
    }
    Some((nats, admin, database))
}

/// Starts a node with `config`: the error if it does not start.
async fn start(config: Config) -> Result<(), ClusterError> {
    let cluster = config.cluster().expect("settings").expect("a NATS URL");
    let store = store::open(&config.database_url()).await.expect("store");
    server::AppState::clustered(config, store, cluster)
        .await
        .map(|_| ())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_with_wrong_or_no_credentials_is_refused_at_start() {
    let Some((nats, admin, database)) = authenticated().await else {
        return;
    };
    let right = node_config(&database, &node_id('r'));

    let anonymous = Config {
        nats_user: None,
        nats_password: None,
        ..right.clone()
    };
    let err = start(anonymous).await.expect_err("no credentials");
    assert!(
        matches!(
            err,
            ClusterError::NatsRefused {
                method: "no credentials",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("refused this node"), "{err}");

    let wrong = Config {
        nats_password: Some("not-the-password".into()),
        ..right.clone()
    };
    let err = start(wrong).await.expect_err("a wrong password");
    assert!(matches!(err, ClusterError::NatsRefused { .. }), "{err:?}");
    let said = err.to_string();
    assert!(said.contains("--nats-user/--nats-password"), "{said}");
    assert!(!said.contains("not-the-password"), "{said}");

    // The real binary stops at once and says why (the password is never printed).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["--bind", "127.0.0.1:0", "--database-url", &database])
        .envs(nats.env())
        .env("NATS_PASSWORD", "not-the-password")
        .env("RUST_LOG", "error")
        .output()
        .expect("run the server");
    assert!(!out.status.success(), "it must not start");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("refused this node"), "{stderr}");
    assert!(!stderr.contains("not-the-password"), "{stderr}");

    // Nor does anyone else get in: a plain client without credentials (the probe's forger) is refused.
    let mut forger = async_nats::ConnectOptions::new();
    if let Some(ca) = &nats.ca_file {
        forger = forger.add_root_certificates(ca.into());
    }
    let refused = forger.connect(&nats.url).await.expect_err("anonymous");
    assert_eq!(
        refused.kind(),
        async_nats::ConnectErrorKind::AuthorizationViolation,
        "{refused}"
    );

    // With the right credentials the node starts.
    start(right).await.expect("the right credentials");
    drop_database(&admin, &database).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_with_the_right_credentials_play_across_nodes() {
    let Some((_, admin, database)) = authenticated().await else {
        return;
    };
    let a = TestServer::start_node(node_config(&database, &node_id('u'))).await;
    let b = TestServer::start_node(node_config(&database, &node_id('v'))).await;
    let mut black = a.client().await;
    let room = black.create(freestyle(), TimeControl::None).await.id;
    let mut white = b.client().await;
    let joined = white.join(&room, JoinRole::Player).await;
    assert_eq!(joined.you, Some(rules::Color::White));
    black
        .place(&room, "h8", 1)
        .await
        .expect("a move over authenticated NATS");
    white
        .place(&room, "a1", 2)
        .await
        .expect("the reply over authenticated NATS");
    a.stop().await;
    b.stop().await;
    drop_database(&admin, &database).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_requires_tls_does_not_talk_to_nats_in_the_clear() {
    // The anonymous plain server a developer runs (and .ci/run keeps on 4222).
    let Some((admin, database)) = cluster_database().await else {
        return;
    };
    let plain = tokio::net::TcpStream::connect("127.0.0.1:4222")
        .await
        .is_ok();
    if !plain {
        eprintln!("skipped: no plain NATS server on 127.0.0.1:4222");
        drop_database(&admin, &database).await;
        return;
    }
    let config = Config {
        nats_url: Some(NATS.to_owned()),
        nats_user: None,
        nats_password: None,
        nats_ca_file: None,
        nats_require_tls: true,
        ..node_config(&database, &node_id('s'))
    };
    let err = start(config).await.expect_err("no TLS there");
    assert!(
        matches!(err, ClusterError::Nats { tls: true, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("over TLS"), "{err}");
    drop_database(&admin, &database).await;
}
