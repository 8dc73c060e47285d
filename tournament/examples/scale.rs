//! Times the Dutch pairing of a large seeded Swiss: `cargo run -p tournament --example scale -- PLAYERS ROUNDS`.

use std::time::Instant;
use tournament::{pair, BoardResult, Swiss};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (n, rounds) = (
        args.first().copied().unwrap_or(300),
        args.get(1).copied().unwrap_or(9),
    );
    let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
    let players: Vec<(&str, u16)> = names.iter().map(|s| (s.as_str(), 1500)).collect();
    let mut s = Swiss::new("scale", rounds, &players).expect("a valid field");
    let mut state = 7u64;
    for r in 0..rounds {
        let t = Instant::now();
        let round = pair(&s, &[]).expect("pairable");
        let took = t.elapsed();
        let results: Vec<BoardResult> = round
            .boards
            .iter()
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match (state >> 33) % 10 {
                    0..=3 => BoardResult::WhiteWins,
                    4..=5 => BoardResult::Draw,
                    _ => BoardResult::BlackWins,
                }
            })
            .collect();
        s.record(&round, &results, &[]).expect("results match");
        println!(
            "round {}: {} boards paired in {:?}",
            r + 1,
            round.boards.len(),
            took
        );
    }
}
