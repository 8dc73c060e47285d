//! Checks Othello positions of the conformance format (see `tests/data/othello/UPSTREAM-README.md`) against
//! `rules::othello`, and the perft table from the start. Shared by the Othello conformance test and the
//! `conformance` example's `othello` mode.

use std::collections::BTreeMap;

use rules::othello::{
    perft, Move, PerftMode, Position, PositionStatus, Score, Scoring, Square, SquareSet,
};
use rules::Color;
use serde::Deserialize;

/// Counts of a finished position.
#[derive(Deserialize)]
pub struct ScoreRecord {
    pub black: u8,
    pub white: u8,
    pub empty: u8,
    pub winner: String,
    pub empties_to_winner: Counts,
}

/// Two disc counts (the file writes a draw's split as `32.0`).
#[derive(Deserialize)]
pub struct Counts {
    pub black: f64,
    pub white: f64,
}

/// The position after the record's move.
#[derive(Deserialize)]
pub struct After {
    pub board: String,
    pub to_move: String,
    pub status: String,
    pub legal_moves: Vec<String>,
    pub score: Option<ScoreRecord>,
}

/// One line of `positions.jsonl`.
#[derive(Deserialize)]
pub struct OthelloCase {
    pub id: String,
    pub board: String,
    pub to_move: String,
    pub status: String,
    pub legal_moves: Vec<String>,
    #[serde(default)]
    pub perft: BTreeMap<String, u64>,
    #[serde(rename = "move")]
    pub mv: Option<String>,
    #[serde(default)]
    pub flipped: Vec<String>,
    pub after: Option<After>,
    pub score: Option<ScoreRecord>,
}

/// Perft from the start, depths 1..=10: (depth, mode 1 "pass is a ply", mode 2 "pass is free"), from the README.
pub const START_PERFT: [(u32, u64, u64); 10] = [
    (1, 4, 4),
    (2, 12, 12),
    (3, 56, 56),
    (4, 244, 244),
    (5, 1_396, 1_396),
    (6, 8_200, 8_200),
    (7, 55_092, 55_092),
    (8, 390_216, 390_216),
    (9, 3_005_288, 3_005_320),
    (10, 24_571_284, 24_571_420),
];

/// Perft of a position in a mode.
pub fn perft_of(position: &Position, depth: u32, mode: PerftMode) -> u64 {
    let (p, o) = position.sides();
    perft(p, o, depth, mode)
}

/// Every mismatch of the start-position perft table up to `max_depth` in both modes.
pub fn check_start_perft(max_depth: u32) -> Vec<String> {
    let start = Position::start();
    let mut errors = Vec::new();
    for &(depth, bik, free) in START_PERFT.iter().filter(|r| r.0 <= max_depth) {
        for (mode, want) in [(PerftMode::PassIsPly, bik), (PerftMode::PassIsFree, free)] {
            let got = perft_of(&start, depth, mode);
            if got != want {
                errors.push(format!(
                    "start perft({depth}) {mode:?}: expected {want}, got {got}"
                ));
            }
        }
    }
    errors
}

fn square(s: &str) -> Result<Square, String> {
    s.parse().map_err(|e| format!("bad square {s:?}: {e}"))
}

fn squares(list: &[String]) -> Result<SquareSet, String> {
    list.iter().map(|s| square(s)).collect()
}

fn show(set: SquareSet) -> String {
    set.map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

fn status_text(status: PositionStatus) -> &'static str {
    match status {
        PositionStatus::Play => "play",
        PositionStatus::MustPass => "must_pass",
        PositionStatus::Over(_) => "game_over",
    }
}

fn side(colour: Color) -> &'static str {
    match colour {
        Color::Black => "X",
        Color::White => "O",
    }
}

/// The European split as this crate defines it, computed from the record's own raw counts.
fn european(record: &ScoreRecord) -> (u8, u8) {
    let (half, odd) = (record.empty / 2, record.empty % 2);
    match record.winner.as_str() {
        "X" => (record.black + half + odd, record.white + half),
        "O" => (record.black + half, record.white + half + odd),
        _ => (record.black + half, record.white + half),
    }
}

fn check_score(what: &str, position: &Position, record: &ScoreRecord, errors: &mut Vec<String>) {
    let score: Score = position.score();
    if (score.black, score.white, score.empty()) != (record.black, record.white, record.empty) {
        errors.push(format!(
            "{what} discs: expected {}/{}/{} empty, got {}/{}/{}",
            record.black,
            record.white,
            record.empty,
            score.black,
            score.white,
            score.empty()
        ));
    }
    let winner = match score.winner() {
        Some(c) => side(c),
        None => "draw",
    };
    if winner != record.winner {
        errors.push(format!(
            "{what} winner: expected {}, got {winner}",
            record.winner
        ));
    }
    let japanese = score.scored(Scoring::Japanese);
    let want = &record.empties_to_winner;
    if (f64::from(japanese.black), f64::from(japanese.white)) != (want.black, want.white) {
        errors.push(format!(
            "{what} japanese score: expected {}–{}, got {}–{}",
            want.black, want.white, japanese.black, japanese.white
        ));
    }
    let european_score = score.scored(Scoring::European);
    let want = european(record);
    if (european_score.black, european_score.white) != want {
        errors.push(format!(
            "{what} european score: expected {}–{}, got {}–{}",
            want.0, want.1, european_score.black, european_score.white
        ));
    }
}

fn check_side(
    what: &str,
    position: &Position,
    status: &str,
    legal: &[String],
    errors: &mut Vec<String>,
) -> Result<(), String> {
    let got = status_text(position.status());
    if got != status {
        errors.push(format!("{what} status: expected {status}, got {got}"));
    }
    let want = squares(legal)?;
    let got = position.legal_moves();
    if got != want {
        errors.push(format!(
            "{what} legal moves: expected [{}], got [{}]",
            show(want),
            show(got)
        ));
    }
    // Every other square is refused.
    for s in Square::all().filter(|&s| !want.contains(s)) {
        if status == "play" && position.play(Move::Place(s)).is_ok() {
            errors.push(format!("{what}: {s} plays but is not listed"));
        }
    }
    Ok(())
}

/// Every mismatch between the rules and one record; `Err` when the record itself is malformed.
pub fn check_case(case: &OthelloCase) -> Result<Vec<String>, String> {
    let mut errors = Vec::new();
    let position = Position::from_text(&case.board, &case.to_move).map_err(|e| e.to_string())?;
    check_side(
        "before",
        &position,
        &case.status,
        &case.legal_moves,
        &mut errors,
    )?;
    for (depth, &want) in &case.perft {
        let depth: u32 = depth
            .parse()
            .map_err(|_| format!("perft depth {depth:?}"))?;
        let got = perft_of(&position, depth, PerftMode::PassIsPly);
        if got != want {
            errors.push(format!("perft({depth}): expected {want}, got {got}"));
        }
    }
    if let Some(record) = &case.score {
        check_score("score", &position, record, &mut errors);
    }
    let Some(mv) = &case.mv else {
        if case.status != "game_over" {
            return Err("a record without a move must be game_over".into());
        }
        if position.play(Move::Pass).is_ok() {
            errors.push("a pass plays in a finished position".into());
        }
        return Ok(errors);
    };
    let mv = if mv == "pass" {
        Move::Pass
    } else {
        Move::Place(square(mv)?)
    };
    let after = case
        .after
        .as_ref()
        .ok_or("a record with a move has `after`")?;
    match position.play(mv) {
        Err(e) => errors.push(format!("{mv} refused: {e}")),
        Ok((next, flipped)) => {
            let want = squares(&case.flipped)?;
            if flipped != want {
                errors.push(format!(
                    "{mv} flips: expected [{}], got [{}]",
                    show(want),
                    show(flipped)
                ));
            }
            let want =
                Position::from_text(&after.board, &after.to_move).map_err(|e| e.to_string())?;
            if next != want {
                errors.push(format!(
                    "after {mv}: expected {} {}, got {} {}",
                    after.board,
                    after.to_move,
                    next.board_text(),
                    side(next.to_move())
                ));
            }
            check_side(
                "after",
                &next,
                &after.status,
                &after.legal_moves,
                &mut errors,
            )?;
            if let Some(record) = &after.score {
                check_score("after score", &next, record, &mut errors);
            }
        }
    }
    Ok(errors)
}

/// The example's `othello` mode over a file's text: checks the start perft table through depth 10 in both modes
/// and every record, and returns the report (each mismatch, then `N passed, M failed`: records passed; failures are
/// records and perft rows) with the exit status (0, or 1 on any failure).
#[allow(dead_code)] // The example prints it; the conformance test checks it on the real file and a corrupted copy.
pub fn report(text: &str, perft_depth: u32) -> (String, u8) {
    let mut out = String::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    let perft_errors = check_start_perft(perft_depth);
    if perft_errors.is_empty() {
        out += &format!("start perft 1..{perft_depth} agrees in both modes\n");
    }
    for e in &perft_errors {
        failed += 1;
        out += &format!("{e}\n");
    }
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let result = serde_json::from_str::<OthelloCase>(line)
            .map_err(|e| e.to_string())
            .and_then(|c| check_case(&c).map(|r| (c.id, r)));
        match result {
            Ok((_, errors)) if errors.is_empty() => passed += 1,
            Ok((id, errors)) => {
                failed += 1;
                for e in errors {
                    out += &format!("{id}: {e}\n");
                }
            }
            Err(e) => {
                failed += 1;
                out += &format!("line {}: {e}\n", n + 1);
            }
        }
    }
    out += &format!("{passed} passed, {failed} failed\n");
    (out, u8::from(failed != 0))
}

/// The example's `othello` mode: [`report`] over a file with the full depth-10 perft table, printed; exits 2
/// when the file cannot be read.
#[allow(dead_code)] // Only the example runs it.
pub fn run_file(file: &str) -> std::process::ExitCode {
    match std::fs::read_to_string(file) {
        Ok(text) => {
            let (out, code) = report(&text, 10);
            print!("{out}");
            std::process::ExitCode::from(code)
        }
        Err(e) => {
            eprintln!("cannot read {file}: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
