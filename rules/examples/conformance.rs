//! Checks the rules crate against a conformance vector file of the `forbidden.jsonl` or `wins.jsonl` format.
//!
//! ```text
//! cargo run --release -p rules --example conformance -- forbidden FILE
//! cargo run --release -p rules --example conformance -- wins FILE
//! cargo run --release -p rules --example conformance -- othello FILE
//! cargo run --release -p rules --example conformance -- draughts FILE
//! cargo run --release -p rules --example conformance -- insect FILE
//! ```
//! The `othello` mode reads `tests/data/othello/positions.jsonl`'s format; before the file it checks the perft
//! table from the start position through depth 10 in both conventions (a mismatch there counts as a failure).
//! `draughts` checks every record of the `positions.jsonl` format and then, always, the upstream README's perft
//! tables in full (each table cell counts as one check).
//! `insect` reads either record shape of `tests/data/insect/` (games from the start, scattered placements) and
//! checks each record's placement, sorted legal moves, status and reason.
//! Prints every mismatch and ends with `N passed, M failed`; exits with status 1 if any failed.

#[path = "../tests/support/conformance.rs"]
mod conformance;
#[path = "../tests/support/draughts_conformance.rs"]
mod draughts_conformance;
#[path = "../tests/support/insect_conformance.rs"]
mod insect_conformance;
#[path = "../tests/support/othello_conformance.rs"]
mod othello_conformance;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (kind, file) = match args.as_slice() {
        [k, f] if k == "othello" => return othello_conformance::run_file(f),
        [k, f] if k == "draughts" => return draughts_conformance::run_file(f),
        [k, f] if k == "insect" => return insect_conformance::run_file(f),
        [k, f] if k == "forbidden" || k == "wins" => (k.as_str(), f.as_str()),
        _ => {
            eprintln!("usage: conformance (forbidden|wins|othello|draughts|insect) FILE");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut passed, mut failed) = (0usize, 0usize);
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let result = if kind == "forbidden" {
            serde_json::from_str::<conformance::ForbiddenCase>(line)
                .map_err(|e| e.to_string())
                .and_then(|c| conformance::check_forbidden(&c).map(|r| (c.id, r)))
        } else {
            serde_json::from_str::<conformance::WinCase>(line)
                .map_err(|e| e.to_string())
                .and_then(|c| conformance::check_win(&c).map(|r| (c.id, r)))
        };
        match result {
            Ok((_, errors)) if errors.is_empty() => passed += 1,
            Ok((id, errors)) => {
                failed += 1;
                for e in errors {
                    println!("{id}: {e}");
                }
            }
            Err(e) => {
                failed += 1;
                println!("line {}: {e}", n + 1);
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
