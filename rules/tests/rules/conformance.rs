//! The rules crate agrees with every line of the conformance vectors in `tests/data/`.

use crate::support;

use serde::de::DeserializeOwned;
use support::conformance::{check_forbidden, check_win, ForbiddenCase, WinCase};

/// Checks every line of a vector file and returns how many lines it read and every mismatch found.
fn run<T: DeserializeOwned>(
    name: &str,
    id: impl Fn(&T) -> &str,
    check: impl Fn(&T) -> Result<Vec<String>, String>,
) -> (usize, Vec<String>) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: T = serde_json::from_str(line).expect("a vector line parses");
        count += 1;
        for e in check(&case).expect("a vector line is well formed") {
            failures.push(format!("{}: {e}", id(&case)));
        }
    }
    (count, failures)
}

#[test]
fn every_forbidden_vector_agrees_on_points_kinds_and_fives() {
    let (count, failures) = run(
        "forbidden.jsonl",
        |c: &ForbiddenCase| &c.id,
        check_forbidden,
    );
    assert_eq!(count, 1307, "the whole file was read");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_finished_game_is_won_by_the_listed_side_with_the_listed_line_and_not_before() {
    let (count, failures) = run("wins.jsonl", |c: &WinCase| &c.id, check_win);
    assert_eq!(count, 250, "the whole file was read");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
