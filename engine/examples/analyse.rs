//! Prints the engine's decision for a position: `cargo run --release -p engine --example analyse -- LEVEL MS
//! h8 i9 ...` (stones alternate from black, freestyle).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::{Engine, Limits, TimeBudget};
use rules::{Action, Game, Rules};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(8);
    let ms: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mut game = Game::new(Rules::freestyle());
    for m in args.iter().skip(2) {
        game.apply(Action::place(m.parse().expect("a point")))
            .expect("a legal move");
    }
    let limits = Limits {
        level,
        max_nodes: None,
        max_time: Some(Duration::from_millis(ms)),
    };
    let start = Instant::now();
    let d = Engine::new(limits, 1)
        .think(&game, &TimeBudget::Unlimited, &AtomicBool::new(false))
        .expect("the game is on");
    let secs = start.elapsed().as_secs_f64();
    let pv: Vec<String> = d.pv.iter().map(|p| p.to_string()).collect();
    println!(
        "{:?} depth {} score {} nodes {} in {:.3}s ({:.0} nodes/s) pv {}",
        d.action,
        d.depth,
        d.score,
        d.nodes,
        secs,
        d.nodes as f64 / secs,
        pv.join(" ")
    );
}
