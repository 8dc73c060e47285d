//! Othello engine speed, single thread: the exact solver on FFO #40 after its first two best moves (18 empty
//! squares) and the level-6 midgame search of an opening position.
//!
//! `cargo bench -p engine --bench othello`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use engine::othello::{Engine, Level};
use rules::othello::{Move, Position};

fn ffo_40_after(moves: &[&str]) -> Position {
    let mut position = Position::from_text(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
        "X",
    )
    .unwrap();
    for mv in moves {
        position = position.play(Move::Place(mv.parse().unwrap())).unwrap().0;
    }
    position
}

fn bench(c: &mut Criterion) {
    let cancel = AtomicBool::new(false);
    let mut group = c.benchmark_group("othello");
    group.sample_size(10);
    let endgame = {
        let mut position = ffo_40_after(&["a2"]);
        // The opponent's best reply, as the solver sees it.
        let reply = Engine::new(0)
            .solve(&position, None, &cancel)
            .unwrap()
            .best
            .unwrap();
        position = position.play(reply).unwrap().0;
        position
    };
    group.bench_function(
        "solve FFO #40 after a2 and the best reply (18 empty)",
        |b| b.iter(|| Engine::new(0).solve(&endgame, None, &cancel).unwrap()),
    );
    let opening = ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"]
        .iter()
        .fold(Position::start(), |p, m| {
            p.play(Move::Place(m.parse().unwrap())).unwrap().0
        });
    group.bench_function("level 6 midgame search (depth 8) after ten plies", |b| {
        b.iter(|| {
            Engine::new(0)
                .think(
                    &opening,
                    Level::new(6).unwrap(),
                    Duration::from_secs(60),
                    &cancel,
                )
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
