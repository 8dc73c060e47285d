//! Speed of the rules crate over the positions of `tests/data/forbidden.jsonl` (see docs/benchmarks.md).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rules::{renju, Action, Board, Color, ForbiddenPolicy, Game, Point, Rules};
use std::hint::black_box;
use std::time::{Duration, Instant};

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

/// Mid-game positions for the per-move benchmarks: every position of the file with 12 to 60 stones whose last
/// move is legal under Renju with the claim policy (so a forbidden black stone still plays) and does not end the
/// game, as the game before that move, a kept forbidden set of it, and the move. The first 64 such positions, so
/// that they stay in cache as a search's one position does.
fn mid_game() -> Vec<(Game, renju::ForbiddenSet, Point, Color)> {
    positions()
        .iter()
        .filter(|m| m.iter().all(Option::is_some) && (13..=61).contains(&m.len()))
        .filter_map(|moves| {
            let moves: Vec<Point> = moves.iter().map(|m| m.unwrap()).collect();
            let (last, before) = moves.split_last()?;
            let actions: Vec<Action> = before.iter().map(|&p| Action::place(p)).collect();
            let g = Game::from_actions(Rules::renju(ForbiddenPolicy::Claim), &actions).ok()?;
            let mut after = g.clone();
            after.apply(Action::place(*last)).ok()?;
            if after.status().is_over() {
                return None;
            }
            let color = g.to_act()?;
            let set = renju::ForbiddenSet::new(g.board().clone());
            Some((g, set, *last, color))
        })
        .take(64)
        .collect()
}

/// Times `timed` over the cases, with `before` and `after` run untimed on each case around it, so that one half
/// of a pair (apply, undo) is measured alone and every case is back as it was. The clock is read once per round
/// of up to 64 cases, not per case.
fn alternate<T>(
    cases: &mut [T],
    iters: u64,
    mut before: impl FnMut(&mut T),
    mut timed: impl FnMut(&mut T),
    mut after: impl FnMut(&mut T),
) -> Duration {
    let mut total = Duration::ZERO;
    let mut done = 0;
    while done < iters {
        let n = (cases.len() as u64).min(iters - done) as usize;
        for case in &mut cases[..n] {
            before(case);
        }
        let start = Instant::now();
        for case in &mut cases[..n] {
            timed(case);
        }
        total += start.elapsed();
        for case in &mut cases[..n] {
            after(case);
        }
        done += n as u64;
    }
    total
}

fn fresh_set(c: &mut Criterion) {
    rules::warm_up();
    let mut group = c.benchmark_group("forbidden");
    // Built and asked one question, as a room or a replay starts: returning the set itself would time the
    // copies of it through the harness as well.
    group.bench_function("fresh_set_15", |b| {
        b.iter(|| {
            let set = renju::ForbiddenSet::new(Board::new(black_box(15)));
            // The set must be written out: its answers are otherwise known at compile time.
            black_box(&set);
            set.kind_at(black_box(Point::centre(15)))
        })
    });
    group.finish();
}

fn per_move(c: &mut Criterion) {
    rules::warm_up();
    let mut cases = mid_game();
    let mut group = c.benchmark_group("forbidden");
    // One stone placed on, then one removed from, a kept set of a mid-game position; each measured alone.
    group.bench_function("kept_place_one_stone", |b| {
        b.iter_custom(|iters| {
            alternate(
                &mut cases,
                iters,
                |_| {},
                |(_, set, p, color)| set.place(black_box(*p), *color),
                |(_, set, p, _)| set.remove(*p),
            )
        })
    });
    group.bench_function("kept_remove_one_stone", |b| {
        b.iter_custom(|iters| {
            alternate(
                &mut cases,
                iters,
                |(_, set, p, color)| set.place(*p, *color),
                |(_, set, p, _)| set.remove(black_box(*p)),
                |_| {},
            )
        })
    });
    // What a search asks most: is this point forbidden for black? Every empty neighbour of a stone, from a
    // kept set (a lookup) and from the board alone.
    let checks: Vec<(usize, Point)> = cases
        .iter()
        .enumerate()
        .flat_map(|(i, (g, _, _, _))| {
            let board = g.board();
            board
                .points()
                .filter(|&p| {
                    board.is_empty_at(p)
                        && board
                            .points()
                            .any(|q| board.get(q).is_some() && q.touches(p))
                })
                .map(move |p| (i, p))
                .collect::<Vec<_>>()
        })
        .collect();
    group.throughput(Throughput::Elements(checks.len() as u64));
    group.bench_function("check_one_point_on_board", |b| {
        b.iter(|| {
            let mut n = 0;
            for &(i, p) in &checks {
                n += renju::forbidden_at(cases[i].0.board(), black_box(p)).is_some() as usize;
            }
            n
        })
    });
    group.bench_function("check_one_point_kept", |b| {
        b.iter(|| {
            let mut n = 0;
            for &(i, p) in &checks {
                n += cases[i].1.kind_at(black_box(p)).is_some() as usize;
            }
            n
        })
    });
    group.finish();

    let mut group = c.benchmark_group("game");
    group.bench_function("apply_one_move", |b| {
        b.iter_custom(|iters| {
            alternate(
                &mut cases,
                iters,
                |_| {},
                |(g, _, p, _)| {
                    black_box(g.apply(Action::place(black_box(*p))).unwrap());
                },
                |(g, _, _, _)| {
                    g.undo();
                },
            )
        })
    });
    group.bench_function("undo_one_move", |b| {
        b.iter_custom(|iters| {
            alternate(
                &mut cases,
                iters,
                |(g, _, p, _)| {
                    g.apply(Action::place(*p)).unwrap();
                },
                |(g, _, _, _)| {
                    black_box(g.undo());
                },
                |_| {},
            )
        })
    });
    group.finish();

    // The computer opponent's search step: play a stone in the game (legality, win detection), bring the kept
    // forbidden set up to date, and take both back.
    let mut group = c.benchmark_group("search");
    group.bench_function("apply_update_undo_one_stone", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % cases.len();
            let (g, set, p, color) = &mut cases[i];
            let p = black_box(*p);
            black_box(g.apply(Action::place(p)).unwrap());
            set.place(p, *color);
            black_box(set.kind_at(p));
            g.undo();
            set.remove(p);
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    whole_board,
    incremental,
    apply_move,
    fresh_set,
    per_move
);
criterion_main!(benches);
