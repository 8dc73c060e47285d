//! Speed of `rules::insect`: perft 5 and 6 from the start (bulk counting at the last ply, one thread), and the
//! legal moves of every position of `tests/data/insect/positions.jsonl`. Criterion's throughput is in leaves
//! (perft) or positions (move lists) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rules::insect::{Game, Move, Position};
use std::hint::black_box;
use std::time::Duration;

/// Every position the vector file's games reach, from the start to their last move.
fn positions() -> Vec<Position> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/insect/positions.jsonl"
    ))
    .unwrap();
    let mut all = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut game = Game::new();
        all.push(*game.position());
        for m in v["moves"].as_array().unwrap() {
            game.apply(m.as_str().unwrap().parse::<Move>().unwrap())
                .unwrap();
            all.push(*game.position());
        }
    }
    all
}

fn perft_from_start(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("insect_perft");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for (depth, leaves) in [(5, 63_725u64), (6, 667_462)] {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("perft{depth}_start"), |b| {
            b.iter(|| {
                let n = black_box(start).perft(depth);
                assert_eq!(n, leaves);
                n
            })
        });
    }
    group.finish();
}

fn move_lists(c: &mut Criterion) {
    let all = positions();
    let mut group = c.benchmark_group("insect_moves");
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function(
        format!("count_legal_moves_of_{}_positions", all.len()),
        |b| {
            b.iter(|| {
                black_box(&all)
                    .iter()
                    .map(|p| p.count_legal_moves())
                    .sum::<u32>()
            })
        },
    );
    group.bench_function(format!("legal_moves_of_{}_positions", all.len()), |b| {
        b.iter(|| {
            black_box(&all)
                .iter()
                .map(|p| p.legal_moves().len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, perft_from_start, move_lists);
criterion_main!(benches);
