//! `rules::othello` agrees with every record of `tests/data/othello/positions.jsonl` and with the perft table
//! from the start position; the `conformance` example's `othello` mode reports a corrupted file.

use crate::support;

use std::path::PathBuf;

use support::othello_conformance::{check_case, check_start_perft, report, OthelloCase};

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/othello/positions.jsonl")
}

#[test]
fn every_record_agrees_with_the_rules() {
    let text = std::fs::read_to_string(data()).unwrap();
    let mut count = 0;
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: OthelloCase = serde_json::from_str(line).expect("a record parses");
        count += 1;
        for e in check_case(&case).expect("a record is well formed") {
            failures.push(format!("{}: {e}", case.id));
        }
    }
    assert_eq!(count, 302, "the file's README counts 302 records");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Depths 1–9 in both modes run in well under a second with the crate's dev opt-level 3; depth 10 is in
/// `start_perft_depth_ten_in_both_modes` and the example.
#[test]
fn start_perft_agrees_through_depth_nine_in_both_modes() {
    let errors = check_start_perft(9);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn start_perft_depth_ten_in_both_modes() {
    let errors: Vec<String> = check_start_perft(10);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_example_report_passes_the_real_file_and_fails_a_corrupted_copy() {
    let text = std::fs::read_to_string(data()).unwrap();
    let (out, code) = report(&text, 6);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("302 passed, 0 failed\n"), "{out}");

    // Corrupt two records: a flipped disc that is not flipped, and a legal move removed from the list; and one
    // line that is not a record.
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(lines[0].contains(r#""flipped":["d4"]"#));
    lines[0] = lines[0].replace(r#""flipped":["d4"]"#, r#""flipped":["e4"]"#);
    assert!(lines[1].contains(r#""legal_moves":["c2","e2","#));
    lines[1] = lines[1].replace(r#""legal_moves":["c2","e2","#, r#""legal_moves":["e2","#);
    lines[2] = "{not json".to_owned();
    let (out, code) = report(&lines.join("\n"), 6);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("oth-0000: d3 flips: expected [e4], got [d4]\n"),
        "{out}"
    );
    assert!(
        out.contains("oth-0001: before legal moves: expected [e2 "),
        "{out}"
    );
    assert!(out.contains("line 3: "), "{out}");
    assert!(out.ends_with("299 passed, 3 failed\n"), "{out}");
}
