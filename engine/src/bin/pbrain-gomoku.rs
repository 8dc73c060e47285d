//! `pbrain-gomoku`: the engine as a Gomocup brain, speaking the Piskvork protocol on stdin and stdout.
//!
//! `pbrain-gomoku [--level N] [--seed S]` (level 1–8, default 8). Every protocol line is handled by
//! [`engine::piskvork::Brain`]; this binary only reads lines and writes the answers, flushing after each.

use std::io::{BufRead, Write};

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
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply = brain.handle(&line);
        for l in &reply.lines {
            if writeln!(out, "{l}").is_err() {
                return;
            }
        }
        if out.flush().is_err() || reply.quit {
            return;
        }
    }
}
