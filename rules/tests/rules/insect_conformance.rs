//! `rules::insect` agrees with every record of `tests/data/insect/positions.jsonl` (games from the start) and
//! `tests/data/insect/scattered.jsonl` (scattered placements and one move each); a corrupted record is reported.

use crate::support;

use support::insect_conformance::{check_case, check_text, InsectCase};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/insect/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_game_from_the_start_agrees_on_position_legal_moves_status_and_reason() {
    let (passed, failed, lines) = check_text(&data("positions.jsonl"));
    assert!(lines.is_empty(), "{}", lines.join("\n"));
    assert_eq!((passed, failed), (400, 0), "the whole file was read");
}

#[test]
fn every_scattered_placement_agrees_on_legal_moves_and_what_its_move_leads_to() {
    let (passed, failed, lines) = check_text(&data("scattered.jsonl"));
    assert!(lines.is_empty(), "{}", lines.join("\n"));
    assert_eq!((passed, failed), (400, 0), "the whole file was read");
}

#[test]
fn the_files_reach_every_end_reason_the_rules_have() {
    let text = data("positions.jsonl") + &data("scattered.jsonl");
    let reasons: std::collections::BTreeSet<String> = text
        .lines()
        .filter_map(|l| {
            let case: InsectCase = serde_json::from_str(l).ok()?;
            case.reason.or(case.then_reason)
        })
        .collect();
    // No record ends without a move: the checks above cover every other reason.
    assert_eq!(
        reasons.into_iter().collect::<Vec<_>>(),
        ["food", "no_capture", "no_pieces", "repetition"]
    );
}

#[test]
fn a_corrupted_record_is_reported_not_passed() {
    let text = data("scattered.jsonl");
    let case: InsectCase = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert!(check_case(&case).unwrap().is_empty());

    let mut wrong = case.clone();
    wrong.legal.pop();
    wrong.then_status = Some("draw".to_owned());
    let errors = check_case(&wrong).unwrap();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].starts_with("legal moves differ"));
    assert!(errors[1].contains("expected draw"));

    let games = data("positions.jsonl");
    let mut game: InsectCase = serde_json::from_str(games.lines().next().unwrap()).unwrap();
    game.moves.truncate(game.moves.len() - 1);
    let errors = check_case(&game).unwrap();
    assert!(errors.iter().any(|e| e.contains("position")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("status")), "{errors:?}");

    let (passed, failed, lines) = check_text("{\"id\": \"x\", \"legal\": []}\n");
    assert_eq!((passed, failed), (0, 1));
    assert!(lines[0].contains("neither record shape"), "{lines:?}");
}
