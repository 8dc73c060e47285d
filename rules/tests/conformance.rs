//! The rules crate agrees with every line of the conformance vectors in `tests/data/`.

mod support {
    pub mod conformance;
}

use support::conformance::{check_forbidden, check_win, ForbiddenCase, WinCase};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_forbidden_vector_agrees_on_points_kinds_and_fives() {
    let text = data("forbidden.jsonl");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: ForbiddenCase = serde_json::from_str(line).expect("a vector line parses");
        count += 1;
        for e in check_forbidden(&case).expect("a vector line is well formed") {
            failures.push(format!("{}: {e}", case.id));
        }
    }
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
    let text = data("wins.jsonl");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: WinCase = serde_json::from_str(line).expect("a vector line parses");
        count += 1;
        for e in check_win(&case).expect("a vector line is well formed") {
            failures.push(format!("{}: {e}", case.id));
        }
    }
    assert_eq!(count, 250, "the whole file was read");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
