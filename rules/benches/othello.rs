//! Speed of `rules::othello`: bitboard move generation over the positions of
//! `tests/data/othello/positions.jsonl`, and perft(10) from the start (bulk counting at the last ply, one thread).
//! See docs/benchmarks.md, "Othello".

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rules::othello::{bitboard, perft, PerftMode, Position};
use std::hint::black_box;
use std::time::Duration;

/// Every position of the vector file, as (side to move, opponent) bitboards.
fn positions() -> Vec<(u64, u64)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/othello/positions.jsonl"
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            Position::from_text(v["board"].as_str().unwrap(), v["to_move"].as_str().unwrap())
                .unwrap()
                .sides()
        })
        .collect()
}

fn move_generation(c: &mut Criterion) {
    let all = positions();
    let mut group = c.benchmark_group("othello_moves");
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("legal_moves_of_302_positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for &(p, o) in black_box(&all) {
                n += bitboard::moves(p, o).count_ones();
            }
            n
        })
    });
    group.bench_function("moves_and_flips_of_302_positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for &(p, o) in black_box(&all) {
                let mut moves = bitboard::moves(p, o);
                while moves != 0 {
                    let square = moves.trailing_zeros() as u8;
                    moves &= moves - 1;
                    n ^= bitboard::flips(p, o, square);
                }
            }
            n
        })
    });
    group.finish();
}

fn perft_from_start(c: &mut Criterion) {
    let (p, o) = Position::start().sides();
    let mut group = c.benchmark_group("othello_perft");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(24_571_284));
    group.bench_function("perft10_start_pass_is_ply", |b| {
        b.iter(|| {
            let leaves = perft(black_box(p), black_box(o), 10, PerftMode::PassIsPly);
            assert_eq!(leaves, 24_571_284);
            leaves
        })
    });
    group.finish();
}

criterion_group!(benches, move_generation, perft_from_start);
criterion_main!(benches);
