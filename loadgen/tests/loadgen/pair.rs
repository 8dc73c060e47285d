//! `loadgen pair` against the real server (the kit's test server on the real clock, fresh SQLite file): a small
//! quick-pairing load pairs everyone who stays, no one twice, never a leaver after it left, and ends with empty
//! queues.

use loadgen::pair::{self, PairArgs};
use testkit::test_server::{test_config, Db, TestServer};

/// The server with the per-address guest limit raised: every player of the run is a new guest from 127.0.0.1.
async fn start_server() -> (TestServer, Db) {
    let db = Db::sqlite();
    let config = server::Config {
        guest_burst_per_ip: 1000,
        ..test_config()
    };
    let server = TestServer::start_real_time(&db, config).await;
    (server, db)
}

fn small_run(url: String) -> PairArgs {
    PairArgs {
        url,
        players: 40,
        ramp_secs: 2.0,
        presets: vec!["renju-5+3".into(), "freestyle-3+2".into()],
        leave_fraction: 0.25,
        leave_within_ms: 50,
        settle_secs: 10.0,
        source_ips: 1,
        seed: 3,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_pairing_load_pairs_everyone_present_once_and_never_a_leaver() {
    let (server, _db) = start_server().await;
    let args = small_run(server.ws_url());
    let leavers = args.plans().iter().filter(|p| p.leaves()).count();
    assert!(leavers >= 4, "the seed gives some leavers: {leavers}");

    let report = pair::pair(&args, true).await.unwrap();

    assert!(report.clean(), "{report}");
    assert_eq!(report.sought, 40, "{report}");
    assert_eq!(report.cancellers + report.disconnecters, leavers);
    assert_eq!((report.duplicates, report.paired_after_leaving), (0, 0));
    // Every player is paired, a leaver gone unpaired, or the odd one out of its preset.
    assert_eq!(
        report.paired + report.leavers_left + report.unpaired,
        40,
        "{report}"
    );
    assert!(report.unpaired <= 2, "{report}");
    assert_eq!(
        report.leavers_left + report.leavers_paired_first,
        leavers,
        "{report}"
    );
    // Both sides saw every pairing, but for a stayer paired with a leaver whose close crossed the pairing.
    assert_eq!(
        report.pairs * 2 + report.paired_while_closing,
        report.paired,
        "{report}"
    );
    assert_eq!(report.pair_ms.samples, report.paired);
    assert_eq!(report.pair_ms_partner_waiting.samples, report.pairs);
    assert_eq!(report.final_waiting, Some(0));
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seekers_alone_in_their_presets_who_leave_are_never_paired() {
    let (server, _db) = start_server().await;
    // Four presets, four players who all leave (two cancel, two disconnect): no one has a partner.
    let args = PairArgs {
        players: 4,
        presets: vec![
            "renju-3+2".into(),
            "renju-10+5".into(),
            "freestyle-5+3".into(),
            "renju-byoyomi-10m-30sx3".into(),
        ],
        leave_fraction: 1.0,
        ..small_run(server.ws_url())
    };
    let report = pair::pair(&args, true).await.unwrap();
    assert!(report.clean(), "{report}");
    assert_eq!((report.cancellers, report.disconnecters), (2, 2));
    assert_eq!((report.leavers_left, report.paired), (4, 0), "{report}");
    assert_eq!(report.final_waiting, Some(0));
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_preset_fails_the_run_with_its_code() {
    let (server, _db) = start_server().await;
    let args = PairArgs {
        players: 2,
        presets: vec!["chess-1+0".into()],
        leave_fraction: 0.0,
        ..small_run(server.ws_url())
    };
    let report = pair::pair(&args, true).await.unwrap();
    assert!(!report.clean(), "{report}");
    assert_eq!(
        report.errors.get("seek:unknown_preset"),
        Some(&2),
        "{report}"
    );
    assert_eq!(report.sought, 0);
    drop(server);
}

#[test]
fn the_default_presets_are_every_preset_the_server_serves_for_every_game() {
    let defaults: Vec<&str> = pair::DEFAULT_PRESETS.split(',').collect();
    let served: Vec<&str> = server::pairing::presets().iter().map(|p| p.id).collect();
    assert_eq!(defaults, served);
    for kind in games::GameKind::ALL {
        assert!(
            served
                .iter()
                .any(|id| kind.quick_presets().iter().any(|p| p.id == *id)),
            "{kind} has a default preset"
        );
    }
}
