//! Speed of the rules crate over the positions of `tests/data/forbidden.jsonl` (see docs/benchmarks.md).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rules::{renju, Action, Board, Color, ForbiddenPolicy, Game, Point, Rules};
use std::hint::black_box;

/// The move lists of every position in the vector file (`pass` kept as `None`).
fn positions() -> Vec<Vec<Option<Point>>> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/forbidden.jsonl"
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let s = m.as_str().unwrap();
                    (s != "pass").then(|| s.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

fn build(moves: &[Option<Point>]) -> Board {
    let mut b = Board::new(15);
    let mut c = Color::Black;
    for m in moves {
        if let Some(p) = m {
            b.place(*p, c);
        }
        c = c.opposite();
    }
    b
}

fn whole_board(c: &mut Criterion) {
    rules::warm_up();
    let all = positions();
    let mut group = c.benchmark_group("forbidden");
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("whole_board_from_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for moves in &all {
                n += renju::forbidden_points(&build(black_box(moves))).len();
            }
            n
        })
    });
    group.finish();
}

fn incremental(c: &mut Criterion) {
    rules::warm_up();
    // Every position of the file that has a move to apply: the position before its last stone, and that stone.
    let cases: Vec<(renju::ForbiddenSet, Point, Color)> = positions()
        .iter()
        .filter_map(|moves| {
            let (last, before) = moves.split_last()?;
            let p = (*last)?;
            let color = if before.len() % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            Some((renju::ForbiddenSet::new(build(before)), p, color))
        })
        .collect();
    let mut group = c.benchmark_group("forbidden");
    // Every game of the file replayed stone by stone into one kept set: one element is one stone applied.
    let all = positions();
    let stones: usize = all.iter().map(|m| m.iter().flatten().count()).sum();
    group.throughput(Throughput::Elements(stones as u64));
    group.bench_function("incremental_update_replay", |b| {
        b.iter(|| {
            let mut n = 0;
            for moves in &all {
                let mut set = renju::ForbiddenSet::new(Board::new(15));
                let mut color = Color::Black;
                for m in moves {
                    if let Some(p) = m {
                        set.place(*p, color);
                        n += set.kind_at(*p).is_some() as usize;
                    }
                    color = color.opposite();
                }
            }
            n
        })
    });
    // One stone on each of the 1307 positions, each set cold in cache (as across many rooms).
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("incremental_update_cold", |b| {
        b.iter_batched_ref(
            || cases.clone(),
            |cases| {
                for (set, p, color) in cases.iter_mut() {
                    set.place(*p, *color);
                    black_box(set.kind_at(*p));
                }
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn apply_move(c: &mut Criterion) {
    rules::warm_up();
    // Games of the file replayed up to their last move; the benchmark applies that move (with win detection).
    let games: Vec<(Game, Action)> = positions()
        .iter()
        .filter(|m| m.iter().all(Option::is_some))
        .filter_map(|moves| {
            let moves: Vec<Point> = moves.iter().map(|m| m.unwrap()).collect();
            let (last, before) = moves.split_last()?;
            let actions: Vec<Action> = before.iter().map(|&p| Action::place(p)).collect();
            let g = Game::from_actions(Rules::renju(ForbiddenPolicy::Claim), &actions).ok()?;
            g.check(Action::place(*last)).ok()?;
            Some((g, Action::place(*last)))
        })
        .collect();
    let mut group = c.benchmark_group("game");
    // A game keeps its history vectors' capacity between moves, as in a room; cloning would shrink them, so the
    // same games are reused: each iteration applies the last move and takes it back.
    let mut games = games;
    group.bench_function("apply_and_undo_one_move", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % games.len();
            let (g, a) = &mut games[i];
            g.apply(black_box(*a)).unwrap();
            g.undo()
        })
    });
    group.finish();
}

criterion_group!(benches, whole_board, incremental, apply_move);
criterion_main!(benches);
