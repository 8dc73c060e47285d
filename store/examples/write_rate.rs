//! The store's own durable write rate, without the network: `GAMES` simulated rooms each create a game, append
//! `MOVES` stones one at a time (each waiting for its commit, as a room does), finish it and start the next,
//! all through one [`BatchWriter`] — the server's write pattern at saturation, minus sockets and JSON.
//!
//! ```sh
//! cargo run --release -p store --example write_rate -- sqlite:///tmp/rate.db 200 10
//! cargo run --release -p store --example write_rate -- postgres://postgres@127.0.0.1/rate 200 10
//! ```
//! Arguments: database URL, concurrent games (default 200), seconds (default 10), moves per game (default 45,
//! about what loadgen's random games last).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use store::{
    BatchWriter, Finish, GameEnd, NewGame, PlayerRef, Rater, SeatsAtEnd, Side, StoredAction,
};

fn new_game(room: usize) -> NewGame {
    let guest = |name: String| PlayerRef {
        name,
        user_id: None,
    };
    NewGame {
        public_id: store::new_public_id(),
        room: format!("room{room}"),
        kind: "gomoku".to_owned(),
        config: "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none".to_owned(),
        pool: ratings::Pool::new("gomoku", "freestyle"),
        time_control: r#"{"kind":"none"}"#.to_owned(),
        public: false,
        rated: false,
        black: guest(format!("guest-{room}-b")),
        white: guest(format!("guest-{room}-w")),
        started_at: 1,
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let url = args
        .first()
        .cloned()
        .unwrap_or_else(|| "sqlite:///tmp/write_rate.db".to_owned());
    let games: usize = args.get(1).map_or(Ok(200), |a| a.parse())?;
    let secs: f64 = args.get(2).map_or(Ok(10.0), |a| a.parse())?;
    let moves: u32 = args.get(3).map_or(Ok(45), |a| a.parse())?;
    let store = store::open(&url).await?;
    let (writer, task) = BatchWriter::spawn_on_own_thread(store.clone());
    let stones = Arc::new(AtomicU64::new(0));
    let finished = Arc::new(AtomicU64::new(0));
    let end = Instant::now() + Duration::from_secs_f64(secs);
    let started = Instant::now();
    let mut rooms = Vec::new();
    for room in 0..games {
        let (writer, stones, finished) = (writer.clone(), stones.clone(), finished.clone());
        rooms.push(tokio::spawn(async move {
            while Instant::now() < end {
                let id = writer.create_game(new_game(room)).await?;
                for seq in 0..moves {
                    // The notation of a stone on the 15x15 board: column letter, then row number.
                    let (column, row) = ((seq % 15) as u8, seq / 15 + 1);
                    let action = StoredAction {
                        seq,
                        text: format!("{}{row}", char::from(b'a' + column)),
                        ply: Some(seq + 1),
                        used_ms: 0,
                        remaining_ms: None,
                        at: 2,
                    };
                    writer.append(id, action).await?;
                    stones.fetch_add(1, Ordering::Relaxed);
                }
                let result = Finish {
                    end: GameEnd {
                        winner: Some(Side::Black),
                        aborted: false,
                        reason: "five".to_owned(),
                        ended_at: 3,
                    },
                    seats: SeatsAtEnd::AsStarted,
                    rater: Rater(ratings::glicko2::rate_game),
                };
                writer.finish_game(id, result).await?;
                finished.fetch_add(1, Ordering::Relaxed);
            }
            Ok::<_, store::StoreError>(())
        }));
    }
    for room in rooms {
        room.await??;
    }
    let elapsed = started.elapsed().as_secs_f64();
    drop(writer);
    task.await?;
    store.close().await;
    let stones = stones.load(Ordering::Relaxed);
    let finished = finished.load(Ordering::Relaxed);
    println!(
        "{games} games, {elapsed:.1} s: {stones} stones ({:.0}/s), {finished} games finished ({:.0}/s)",
        stones as f64 / elapsed,
        finished as f64 / elapsed
    );
    Ok(())
}
