//! `loadgen flood` against the real server (in-process, port 0, fresh SQLite file): each kind runs briefly and
//! every attempt it made is accounted for by one outcome.

use std::net::SocketAddr;

use loadgen::flood::{flood, FloodArgs, FloodKind, FloodReport};
use server::{AppState, Config};
use tokio::net::TcpListener;

async fn start() -> (SocketAddr, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = dir.path().join("flood.db").to_string_lossy().into_owned();
    let store = store::open(&url).await.unwrap();
    let state = AppState::new(Config::default(), store).await.unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server::run(listener, state, std::future::pending()));
    (addr, dir)
}

fn args(addr: SocketAddr, kind: FloodKind) -> FloodArgs {
    FloodArgs {
        url: format!("ws://{addr}/ws"),
        kind,
        rate: 20.0,
        secs: 1.0,
        source_ip: "127.0.2.1".parse().unwrap(),
        source_ips: 1,
        max_open: 5,
        trickle_secs: 0.2,
        answer_secs: 10.0,
    }
}

fn accounted(report: &FloodReport) -> u64 {
    report.outcomes.values().sum()
}

#[tokio::test]
async fn a_guest_flood_counts_every_hello_and_the_first_is_welcomed() {
    let (addr, _dir) = start().await;
    let report = flood(&args(addr, FloodKind::Guests)).await.unwrap();
    assert!(report.attempts >= 10, "{report}");
    assert_eq!(accounted(&report), report.attempts, "{report}");
    assert!(
        report.outcomes.get("accepted").is_some_and(|&n| n >= 1),
        "{report}"
    );
}

#[tokio::test]
async fn a_room_flood_is_stopped_by_the_rooms_per_player_cap_for_each_guest() {
    let (addr, _dir) = start().await;
    let report = flood(&args(addr, FloodKind::Rooms)).await.unwrap();
    assert_eq!(accounted(&report), report.attempts, "{report}");
    assert!(
        report.outcomes.get("accepted").is_some_and(|&n| n >= 1),
        "{report}"
    );
    assert!(
        report.outcomes.keys().any(|k| k != "accepted"),
        "20 rooms from guests capped at a few rooms each must meet a refusal: {report}"
    );
}

#[tokio::test]
async fn a_login_flood_meets_the_login_rate_limit() {
    let (addr, _dir) = start().await;
    let mut a = args(addr, FloodKind::Logins);
    a.rate = 40.0;
    // Every attempt the limiter lets through is a real password check; on a machine several times slower than
    // this one (CI shares two cores) those answers take seconds, so each attempt waits as long as it needs: the
    // test is about which answers come, not how fast.
    a.answer_secs = 300.0;
    let report = flood(&a).await.unwrap();
    assert_eq!(accounted(&report), report.attempts, "{report}");
    assert!(report.outcomes.contains_key("http_401"), "{report}");
    assert!(report.outcomes.contains_key("http_429"), "{report}");
}

#[tokio::test]
async fn a_slowloris_flood_holds_at_most_max_open_connections() {
    let (addr, _dir) = start().await;
    let report = flood(&args(addr, FloodKind::Slowloris)).await.unwrap();
    assert_eq!(report.attempts, 5, "{report}");
    assert_eq!(accounted(&report), 5, "{report}");
}

#[tokio::test]
async fn a_chat_flood_counts_every_message() {
    let (addr, _dir) = start().await;
    let report = flood(&args(addr, FloodKind::Chat)).await.unwrap();
    assert!(report.attempts >= 10, "{report}");
    let sent = report.outcomes.get("sent").copied().unwrap_or(0)
        + report
            .outcomes
            .get("closed_by_server")
            .copied()
            .unwrap_or(0);
    assert_eq!(sent, report.attempts, "{report}");
}

#[tokio::test]
async fn a_computer_flood_meets_the_computer_game_caps() {
    let (addr, _dir) = start().await;
    let report = flood(&args(addr, FloodKind::Computer)).await.unwrap();
    assert_eq!(accounted(&report), report.attempts, "{report}");
    // Two games per guest, four per address: the rest are refused.
    assert_eq!(report.outcomes.get("accepted"), Some(&4), "{report}");
    assert!(
        report.outcomes.contains_key("too_many_computer_games"),
        "{report}"
    );
}

#[tokio::test]
async fn a_challenge_flood_meets_the_challenge_limits_and_the_victim_hears_only_the_accepted() {
    let (addr, _dir) = start().await;
    let report = flood(&args(addr, FloodKind::Challenges)).await.unwrap();
    assert_eq!(accounted(&report), report.attempts, "{report}");
    let accepted = report.outcomes.get("accepted").copied().unwrap_or(0);
    assert!(accepted >= 1, "{report}");
    assert!(
        accepted < report.attempts,
        "20 in a second meet a limit: {report}"
    );
    assert_eq!(
        report.extra.get("victim_notices"),
        Some(&accepted),
        "{report}"
    );
}

#[tokio::test]
async fn a_registration_flood_meets_the_per_address_registration_limit() {
    let (addr, _dir) = start().await;
    let mut a = args(addr, FloodKind::Registrations);
    a.rate = 10.0;
    a.answer_secs = 300.0;
    let report = flood(&a).await.unwrap();
    assert_eq!(accounted(&report), report.attempts, "{report}");
    // Five a day from one address.
    assert_eq!(report.outcomes.get("http_201"), Some(&5), "{report}");
    assert!(report.outcomes.contains_key("http_429"), "{report}");
}

#[tokio::test]
async fn a_socket_flood_on_one_token_meets_the_per_session_cap() {
    let (addr, _dir) = start().await;
    let report = flood(&args(addr, FloodKind::Sockets)).await.unwrap();
    assert_eq!(accounted(&report), report.attempts, "{report}");
    assert!(
        report.outcomes.contains_key("too_many_connections"),
        "{report}"
    );
    let held = report.extra["sockets_held"];
    assert_eq!(
        held,
        report.outcomes.get("accepted").copied().unwrap_or(0) + 1,
        "{report}"
    );
}

#[tokio::test]
async fn a_lobby_flood_from_one_address_has_at_most_its_share_shown() {
    let (addr, _dir) = start().await;
    let report = flood(&args(addr, FloodKind::Lobby)).await.unwrap();
    assert_eq!(accounted(&report), report.attempts, "{report}");
    let lobby = report.lobby.expect("the lobby's share");
    assert!(lobby.flood_rooms > 5, "{report}");
    assert_eq!(lobby.flood_shown, 5, "{report}");
    assert_eq!(lobby.shown, 5, "{report}");
}
