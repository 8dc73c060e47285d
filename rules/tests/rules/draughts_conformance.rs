//! The draughts rules agree with every record of `tests/data/draughts/positions.jsonl` and with the upstream
//! README's perft tables.

use crate::support;

use support::draughts_conformance::{
    check_perft_tables, check_position, PositionCase, PERFT_TABLES,
};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/draughts/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_record_agrees_on_moves_paths_captures_promotion_positions_after_and_perft() {
    let text = data("positions.jsonl");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: PositionCase = serde_json::from_str(line).expect("a record parses");
        count += 1;
        for e in check_position(&case).expect("a record's FEN reads") {
            failures.push(format!("{}: {e}", case.id));
        }
    }
    assert_eq!(count, 180, "the whole file was read");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_agrees_with_the_whole_tables() {
    let failures: Vec<String> = check_perft_tables(12)
        .into_iter()
        .filter_map(|(label, e)| e.map(|e| format!("{label}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_tables_checked_are_the_upstream_readmes() {
    let readme = data("UPSTREAM-README.md");
    let rows: Vec<Vec<String>> = readme
        .lines()
        .filter(|l| l.starts_with("| ") && l[2..].starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split('|').map(|c| c.trim().replace(',', "")).collect())
        .collect();
    assert_eq!(rows.len(), 15, "depths 1 to 15");
    for (column, (name, fen, table)) in PERFT_TABLES.iter().enumerate() {
        assert!(
            readme.contains(fen) || *name == "initial",
            "{name}'s FEN is the README's"
        );
        let listed: Vec<u64> = rows
            .iter()
            .filter_map(|r| r[column + 2].parse().ok())
            .collect();
        let deep_enough = match *name {
            "initial" => 9,
            "Random178" => 7,
            _ => 12,
        };
        assert_eq!(&listed[..deep_enough], *table, "{name}");
    }
}

#[test]
fn a_corrupted_record_is_reported_not_passed() {
    let text = data("positions.jsonl");
    let line = text.lines().next().unwrap();
    let corrupted = line
        .replace("\"perft\":{\"1\":9,", "\"perft\":{\"1\":10,")
        .replace("\"fen_after\":\"B:W26,32", "\"fen_after\":\"B:W25,32")
        .replace("\"max_captured\":0", "\"max_captured\":1");
    let case: PositionCase = serde_json::from_str(&corrupted).unwrap();
    let errors = check_position(&case).unwrap();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors
        .iter()
        .any(|e| e.contains("perft(1) = 9, expected 10")));
    assert!(errors.iter().any(|e| e.contains("move 31-26")));
    assert!(errors
        .iter()
        .any(|e| e.contains("max_captured 0, expected 1")));
    let mut missing: PositionCase = serde_json::from_str(line).unwrap();
    missing.legal_moves.pop();
    assert_eq!(
        check_position(&missing).unwrap(),
        ["move 35-30 is legal here but not in the record"]
    );
}
