//! `pbrain-gomoku`: the engine as a Gomocup brain, speaking the Piskvork protocol on stdin and stdout.
//!
//! `pbrain-gomoku [--level N] [--seed S] [--debug]` (level 1–8, default 8; `--debug` writes a `DEBUG` line as
//! each search starts). Every protocol line is handled by [`engine::piskvork::Brain`] under
//! [`engine::piskvork::serve_threaded`]: stdin is read on a thread of its own while the brain thinks, so `END`
//! ends the process at once and `INFO` applies to the search in progress.

fn main() {
    let mut level = 8u8;
    let mut seed = 0u64;
    let mut debug = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let parsed = match arg.as_str() {
            "--level" => args.next().and_then(|v| v.parse().ok()).map(|v| level = v),
            "--seed" => args.next().and_then(|v| v.parse().ok()).map(|v| seed = v),
            "--debug" => {
                debug = true;
                Some(())
            }
            _ => None,
        };
        if parsed.is_none() {
            eprintln!("usage: pbrain-gomoku [--level 1-8] [--seed N] [--debug]");
            std::process::exit(2);
        }
    }
    let mut brain = engine::piskvork::Brain::new(level, seed);
    brain.set_debug(debug);
    // A closed stdout or stdin means the manager is gone: the brain just ends.
    let _ = engine::piskvork::serve_threaded(
        &mut brain,
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout(),
    );
    // `END` wants the process gone at once: no waiting for the reading thread or for the tables' destructors.
    std::process::exit(0);
}
