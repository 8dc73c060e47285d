//! Speed of draughts move generation: perft from the initial position, single thread, routes of the same move
//! counted once (see docs/benchmarks.md, "International draughts").

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rules::draughts::Position;
use std::hint::black_box;
use std::time::Duration;

/// perft(9) from the initial position, as the upstream README gives it.
const PERFT_9: u64 = 41_022_423;

fn perft(c: &mut Criterion) {
    let start = Position::initial();
    assert_eq!(
        start.perft(9),
        PERFT_9,
        "the benchmark counts the right thing"
    );
    let mut group = c.benchmark_group("draughts");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(PERFT_9));
    group.bench_function("perft_9_initial", |b| {
        b.iter(|| black_box(black_box(start).perft(9)))
    });
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
