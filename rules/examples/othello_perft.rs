//! Perft from the Othello start position with leaves per second, by wall clock and by this thread's CPU time
//! (`/proc/self/schedstat` on Linux), so that a figure taken on a busy machine can be read for what one core does.
//!
//! ```text
//! cargo run --release -p rules --example othello_perft -- [DEPTH] [ply|free]
//! ```
//! DEPTH defaults to 10, the mode to `ply` (Aart Bik's: a pass uses a ply).

use std::time::Instant;

use rules::othello::{perft, PerftMode, Position};

/// Nanoseconds this process has run on a CPU, where the kernel says (`None` elsewhere).
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = match args.first().map(|d| d.parse()) {
        None => 10,
        Some(Ok(d)) if d <= 14 => d,
        Some(_) => {
            eprintln!("usage: othello_perft [DEPTH 0..=14] [ply|free]");
            std::process::exit(2);
        }
    };
    let mode = match args.get(1).map(String::as_str) {
        None | Some("ply") => PerftMode::PassIsPly,
        Some("free") => PerftMode::PassIsFree,
        Some(_) => {
            eprintln!("usage: othello_perft [DEPTH 0..=14] [ply|free]");
            std::process::exit(2);
        }
    };
    let (p, o) = Position::start().sides();
    let (wall, cpu) = (Instant::now(), cpu_ns());
    let leaves = perft(p, o, depth, mode);
    let wall = wall.elapsed().as_secs_f64();
    let cpu = cpu.zip(cpu_ns()).map(|(a, b)| (b - a) as f64 / 1e9);
    print!(
        "perft({depth}) {mode:?}: {leaves} leaves in {wall:.3} s wall = {:.1} M leaves/s",
        leaves as f64 / wall / 1e6
    );
    match cpu {
        Some(cpu) => println!(
            "; {cpu:.3} s CPU = {:.1} M leaves/s per CPU second",
            leaves as f64 / cpu / 1e6
        ),
        None => println!(),
    }
}
