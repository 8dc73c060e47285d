//! Prints the stones of a short self-play game (level 4, seeded) up to the first quiet position (no five to
//! take or block) after PLIES stones, for picking benchmark positions:
//! `cargo run --release -p engine --example selfplay -- freestyle|standard|renju PLIES SEED`.

use std::sync::atomic::AtomicBool;

use engine::{Engine, Limits, TimeBudget};
use rules::{ForbiddenPolicy, Game, Rules};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = match args.first().map(String::as_str) {
        Some("standard") => Rules::standard(),
        Some("renju") => Rules::renju(ForbiddenPolicy::Reject),
        _ => Rules::freestyle(),
    };
    let plies: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(16);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut game = Game::new(rules);
    let mut engine = Engine::new(
        Limits {
            level: 4,
            max_nodes: Some(20_000),
            max_time: None,
        },
        seed,
    );
    let quiet = |g: &Game| {
        g.five_points(rules::Color::Black).is_empty()
            && g.five_points(rules::Color::White).is_empty()
    };
    while (game.ply() < plies || !quiet(&game)) && !game.status().is_over() {
        let d = engine
            .think(&game, &TimeBudget::Unlimited, &AtomicBool::new(false))
            .expect("the game is on");
        game.apply(d.action).expect("legal");
    }
    let moves: Vec<String> = game.moves().iter().map(|p| format!("\"{p}\"")).collect();
    println!("{}", moves.join(", "));
    println!("{:?}", game.board());
}
