//! `hub-draughts`: the draughts engine as a Hub engine (Scan's protocol), on stdin and stdout.
//!
//! `hub-draughts [hub] [--level N] [--seed S]` (level 1–8, default 8; a leading `hub` is accepted, as Scan is
//! started `scan hub`). Every line is handled by [`engine::hub::HubBrain`] under [`engine::hub::serve_threaded`]:
//! `stop`, `ping` and `quit` reach a search in progress.

fn main() {
    let mut level = 8u8;
    let mut seed = 0u64;
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("hub") {
        args.next();
    }
    while let Some(arg) = args.next() {
        let parsed = match arg.as_str() {
            "--level" => args
                .next()
                .and_then(|v| v.parse().ok())
                .filter(|v| (1..=8).contains(v))
                .map(|v| level = v),
            "--seed" => args.next().and_then(|v| v.parse().ok()).map(|v| seed = v),
            _ => None,
        };
        if parsed.is_none() {
            eprintln!("usage: hub-draughts [hub] [--level 1-8] [--seed N]");
            std::process::exit(2);
        }
    }
    let mut brain = engine::hub::HubBrain::new(level, seed);
    // A closed stdout or stdin means the manager is gone: the engine just ends.
    let _ = engine::hub::serve_threaded(
        &mut brain,
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout(),
    );
    // No waiting for the reading thread or the tables' destructors.
    std::process::exit(0);
}
