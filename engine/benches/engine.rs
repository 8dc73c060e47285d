//! Engine speed, single thread: nodes per second of the main search (fixed depth) and of the VCF search, on a
//! fixed set of positions. Criterion's throughput is the node count of one run, so `thrpt` reads in nodes/s.
//!
//! `cargo bench -p engine` (figures in `docs/benchmarks.md`, "Engine (issue #17)").

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use engine::position::class;
use engine::search::{Budget, Searcher, Table};
use engine::threat::Threats;
use engine::Position;
use rules::{Color, ForbiddenPolicy, Rules};

/// The fixed positions: seeded random play near the stones (a tiny LCG, so they never change), the first quiet
/// one of each kind: nobody has a five to take or block, or a flex four. Middle games (12 and 16 stones) for the
/// main search; twenty busy ones (20 to 39 stones, many broken shapes and so many fours) per rule set, searched
/// together, for the VCF search.
fn positions() -> Vec<(String, Position)> {
    let kinds = [
        ("freestyle", Rules::freestyle()),
        ("standard", Rules::standard()),
        ("renju", Rules::renju(ForbiddenPolicy::Reject)),
    ];
    let mut out = Vec::new();
    for (name, rules) in kinds {
        for stones in [12usize, 16].into_iter().chain(20..40) {
            let mut seed = 1u64;
            let pos = loop {
                if let Some(pos) = random_position(&rules, stones, seed) {
                    break pos;
                }
                seed += 1;
            };
            let set = if stones <= 16 {
                format!("{name}-{stones}")
            } else {
                format!("{name}-busy")
            };
            out.push((set, pos));
        }
    }
    out
}

fn random_position(rules: &Rules, stones: usize, seed: u64) -> Option<Position> {
    let mut state = seed;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    };
    let mut pos = Position::new(rules);
    while pos.stones() < stones {
        let c = pos.to_move();
        let moves: Vec<usize> = pos.candidates().filter(|&i| pos.playable(c, i)).collect();
        let m = moves[next(moves.len())];
        // No five: random play is not allowed to end the game.
        if pos.class(c, m) == class::FIVE {
            return None;
        }
        pos.place(m, c);
    }
    let quiet = [Color::Black, Color::White]
        .iter()
        .all(|&c| pos.count_at_least(c, class::F4) == 0);
    quiet.then_some(pos)
}

/// One fixed-depth search from an empty table (made outside the timed part).
fn main_search_nodes(pos: &Position, depth: i32, table: &mut Table) -> u64 {
    let cancel = AtomicBool::new(false);
    let mut budget = Budget::new(u64::MAX, None, &cancel);
    let mut s = Searcher::new(pos.clone(), table, &mut budget);
    let c = pos.to_move();
    std::hint::black_box(s.search(
        c,
        depth,
        -engine::search::WIN - 1,
        engine::search::WIN + 1,
        0,
    ));
    budget.nodes
}

fn vcf_nodes(pos: &Position, depth: u32) -> u64 {
    let cancel = AtomicBool::new(false);
    // A cap, so that a position rich in fours cannot make one run take seconds.
    let mut budget = Budget::new(2_000_000, None, &cancel);
    let mut threats = Threats::new();
    let mut pos = pos.clone();
    for attacker in [Color::Black, Color::White] {
        std::hint::black_box(threats.vcf(&mut pos, attacker, depth, &mut budget));
    }
    budget.nodes
}

const DEPTH: i32 = 6;
const TABLE_BITS: u32 = 18;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    let all = positions();
    for (name, pos) in all.iter().filter(|p| !p.0.ends_with("-busy")) {
        let nodes = main_search_nodes(pos, DEPTH, &mut Table::new(TABLE_BITS));
        eprintln!("{name}: {nodes} nodes at depth {DEPTH}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("pvs-depth{DEPTH}/{name}"), |b| {
            b.iter_batched_ref(
                || Table::new(TABLE_BITS),
                |table| main_search_nodes(pos, DEPTH, table),
                BatchSize::LargeInput,
            )
        });
    }
    for kind in ["freestyle", "standard", "renju"] {
        let name = format!("{kind}-busy");
        let set: Vec<&Position> = all.iter().filter(|p| p.0 == name).map(|p| &p.1).collect();
        let run = || set.iter().map(|pos| vcf_nodes(pos, 12)).sum::<u64>();
        let nodes = run();
        eprintln!("{name}: {nodes} VCF nodes over {} positions", set.len());
        group.throughput(Throughput::Elements(nodes.max(1)));
        group.bench_function(format!("vcf-12/{name}"), |b| b.iter(run));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
