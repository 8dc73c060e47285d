//! Lag compensation (#18): the server measures each connection's round trip from its pings and credits each move
//! with half of it, at most `LAG_CREDIT_CAP_MS`. The test clients delay their pongs by not reading while the
//! server's clock moves on.

use crate::common;

use std::time::Duration;

use common::*;
use protocol::{ClientMessage, RoomEvent, ServerMessage, TimeControl};

const MINUTE: TimeControl = TimeControl::Fischer {
    base_ms: 60_000,
    increment_ms: 0,
};

/// A server pinging every second, with a table of `MINUTE` games whose first ping is waiting, unanswered, in
/// both clients' sockets (neither reads for 1.3 s of real time while the server's clock stands still).
async fn table_with_a_ping_pending() -> (TestServer, Table) {
    let server = TestServer::start_fresh(server::Config {
        ping_secs: 1,
        ..test_config()
    })
    .await;
    let table = Table::open(&server, freestyle(), MINUTE).await;
    tokio::time::sleep(Duration::from_millis(1300)).await;
    (server, table)
}

/// The black player's first move after its pong came `delay` late and it thought for `think` more.
async fn first_move_after(delay: Duration, think: Duration) -> protocol::Clocks {
    let (server, mut table) = table_with_a_ping_pending().await;
    server.advance(delay);
    // Reading the answer reads the ping first and queues its pong, which goes out with the next frame sent:
    // `delay` after the ping was stamped.
    for _ in 0..2 {
        assert_eq!(
            table.black.request(ClientMessage::Ping {}).await,
            ServerMessage::Pong {}
        );
    }
    server.advance(think);
    let moved = table.black.place(&table.room, "h8", 1).await.unwrap();
    let RoomEvent::Move {
        clocks: Some(clocks),
        ..
    } = moved
    else {
        panic!("{moved:?}")
    };
    clocks
}

#[tokio::test]
async fn a_move_is_credited_with_half_the_measured_round_trip() {
    // 400 ms round trip: 200 ms credited of the 3.4 s the clock ran.
    let c = first_move_after(Duration::from_millis(400), Duration::from_secs(3)).await;
    assert_eq!(c.black.remaining_ms, 60_000 - 3_400 + 200);
}

#[tokio::test]
async fn the_credit_stops_at_its_cap_however_late_the_pong() {
    // A 10 s round trip (a slow network, or a client pretending) earns no more than the cap.
    let c = first_move_after(Duration::from_secs(10), Duration::from_secs(1)).await;
    assert_eq!(server::room::LAG_CREDIT_CAP_MS, 500);
    assert_eq!(c.black.remaining_ms, 60_000 - 11_000 + 500);
}

#[tokio::test]
async fn a_client_that_answers_at_once_gets_no_credit() {
    let c = first_move_after(Duration::ZERO, Duration::from_secs(2)).await;
    assert_eq!(c.black.remaining_ms, 58_000);
}

#[tokio::test]
async fn an_unsolicited_pong_earns_no_credit() {
    // #35: one pong of eight zero bytes, which no ping asked for, claimed the connection's whole age as its round
    // trip, and every later move was credited the cap (a 2.0 s think charged 1.5 s).
    let server = TestServer::start_fresh(server::Config {
        ping_secs: 3600,
        ..test_config()
    })
    .await;
    let mut table = Table::open(&server, freestyle(), MINUTE).await;
    server.advance(Duration::from_secs(20));
    table.black.send_pong(vec![0; 8]).await;
    // The server answers requests in order: once this one is answered, the pong before it has been read.
    assert_eq!(
        table.black.request(ClientMessage::Ping {}).await,
        ServerMessage::Pong {}
    );
    server.advance(Duration::from_secs(2));
    let moved = table.black.place(&table.room, "h8", 1).await.unwrap();
    let RoomEvent::Move {
        clocks: Some(clocks),
        ..
    } = moved
    else {
        panic!("{moved:?}")
    };
    assert_eq!(clocks.black.remaining_ms, 60_000 - 22_000);
}
