//! Solves the FFO endgame test positions #40–#49 exactly and prints, for each, the score and best move found
//! against the known ones, the time and the nodes:
//! `cargo run --release -p engine --example othello_ffo [-- FIRST LAST]` (numbers within 40..=49).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use engine::othello::Engine;
use rules::othello::Position;

#[path = "../tests/engine/ffo.rs"]
mod ffo;
use ffo::FFO;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let first = args.first().copied().unwrap_or(40);
    let last = args.get(1).copied().unwrap_or(49);
    let cancel = AtomicBool::new(false);
    let mut engine = Engine::new(1);
    let (mut total_nodes, mut total_time, mut total_cpu, mut ok) = (0u64, 0.0f64, 0.0f64, true);
    println!(
        "  #  empty  score (known)  move (known)     time s   cpu s        nodes   Mnodes/cpu s"
    );
    for &(number, board, side, score, best) in FFO.iter().filter(|c| (first..=last).contains(&c.0))
    {
        let position = Position::from_text(board, side).expect("an FFO board");
        let empty = position.score().empty();
        let start = Instant::now();
        let cpu = cpu_seconds();
        let solution = engine.solve(&position, None, &cancel).expect("no budget");
        let time = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu;
        let mv = solution.best.map(|m| m.to_string()).unwrap_or_default();
        let right = solution.score == score && best.contains(&mv.as_str());
        ok &= right;
        total_nodes += solution.nodes;
        total_time += time;
        total_cpu += cpu;
        println!(
            "{number:>3}  {empty:>5}  {:>+5} ({score:>+3})   {mv:>4} ({:<7})  {time:>8.3} {cpu:>7.3}  {:>12}  {:>8.2}{}",
            solution.score,
            best.join(","),
            solution.nodes,
            solution.nodes as f64 / cpu / 1e6,
            if right { "" } else { "  WRONG" }
        );
    }
    println!(
        "total                                     {total_time:>8.3} {total_cpu:>7.3}  {total_nodes:>12}  {:>8.2}",
        total_nodes as f64 / total_cpu / 1e6
    );
    if !ok {
        std::process::exit(1);
    }
}

/// This thread's CPU time so far (Linux's schedstat; 0 elsewhere): the machine is shared, so wall time
/// overstates the work.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}
