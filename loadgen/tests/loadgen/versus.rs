//! `loadgen versus` end to end: people play the computer at their pace against the real server (in process, on
//! tokio's clock); every move is acknowledged and answered, and games beyond the server's computer limit are
//! counted as `computer_busy`.

use loadgen::versus::{self, VersusArgs};
use server::Config;
use testkit::test_server::{test_config, Db, TestServer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_play_the_computer_and_the_games_over_the_limit_are_counted_busy() {
    let db = Db::sqlite();
    let server = TestServer::start_real_time(
        &db,
        Config {
            computer_max_games: 2,
            computer_seed: Some(3),
            ..test_config()
        },
    )
    .await;
    let args = VersusArgs {
        addr: server.addr.to_string(),
        games: 3,
        level: 1,
        rules: "renju".into(),
        think_ms: 50,
        ramp_secs: 0,
        duration_secs: 4,
        seed: 7,
    };
    let report = versus::run(args).await.unwrap();
    assert!(report.errors.is_empty(), "{report:?}");
    assert!(report.started >= 2, "{report:?}");
    assert!(report.refused_busy >= 1, "{report:?}");
    assert!(report.moves >= 10, "{report:?}");
    assert_eq!(report.move_ack.count, report.moves);
    // Every acknowledged move but perhaps the last of each game got the computer's answer.
    assert!(
        report.computer_reply.count + 2 >= report.moves,
        "{report:?}"
    );
    assert!(report.computer_reply.count > 0);
    assert!(report.computer_won + report.person_won <= report.finished);
    drop(server);
}

#[tokio::test]
async fn a_rule_set_other_than_freestyle_or_renju_is_refused() {
    let args = VersusArgs {
        addr: "127.0.0.1:9".into(),
        games: 1,
        level: 1,
        rules: "othello".into(),
        think_ms: 50,
        ramp_secs: 0,
        duration_secs: 1,
        seed: 1,
    };
    let e = versus::run(args).await.unwrap_err();
    assert!(e.to_string().contains("freestyle or renju"), "{e}");
}
