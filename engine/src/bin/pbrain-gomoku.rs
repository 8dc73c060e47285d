//! `pbrain-gomoku`: the engine as a Gomocup brain, speaking the Piskvork protocol on stdin and stdout.
//!
//! `pbrain-gomoku [--level N] [--seed S]` (level 1–8, default 8). Every protocol line is handled by
//! [`engine::piskvork::Brain`]; this binary only reads lines and writes the answers, flushing after each.

fn main() {
    let mut level = 8u8;
    let mut seed = 0u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next();
        let parsed = match arg.as_str() {
            "--level" => value.and_then(|v| v.parse().ok()).map(|v| level = v),
            "--seed" => value.and_then(|v| v.parse().ok()).map(|v| seed = v),
            _ => None,
        };
        if parsed.is_none() {
            eprintln!("usage: pbrain-gomoku [--level 1-8] [--seed N]");
            std::process::exit(2);
        }
    }
    let mut brain = engine::piskvork::Brain::new(level, seed);
    // A closed stdout or stdin means the manager is gone: the brain just ends.
    let _ = engine::piskvork::serve(
        &mut brain,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    );
}
