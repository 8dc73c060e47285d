//! Checks draughts positions of the `positions.jsonl` format (see `tests/data/draughts/UPSTREAM-README.md`) and
//! the upstream README's perft tables against the rules crate. Shared by the `draughts_conformance` test and the
//! `conformance` example.

use std::collections::BTreeMap;

use rules::draughts::{Position, Role};
use rules::Color;
use serde::Deserialize;

/// One line of `positions.jsonl`.
#[derive(Deserialize)]
pub struct PositionCase {
    pub id: String,
    pub fen: String,
    pub to_move: String,
    pub max_captured: usize,
    pub legal_moves: Vec<MoveCase>,
    pub perft: BTreeMap<String, u64>,
}

/// One legal move of a record.
#[derive(Deserialize, Debug, PartialEq)]
pub struct MoveCase {
    #[serde(rename = "move")]
    pub text: String,
    pub from: u8,
    pub to: u8,
    pub path: Vec<u8>,
    pub captured: Vec<u8>,
    pub promotes: bool,
    pub fen_after: String,
    pub piece: String,
}

/// The perft tables of the upstream README: name, FEN, perft(1), perft(2), …
pub const PERFT_TABLES: [(&str, &str, &[u64]); 3] = [
    (
        "initial",
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
        &[
            9, 81, 658, 4_265, 27_117, 167_140, 1_049_442, 6_483_961, 41_022_423,
        ],
    ),
    (
        "Random178",
        "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
        &[14, 55, 1_168, 5_432, 87_195, 629_010, 9_041_010],
    ),
    (
        "Woldouby",
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
        &[
            6, 12, 30, 73, 215, 590, 1_944, 6_269, 22_369, 88_050, 377_436, 1_910_989,
        ],
    ),
];

fn describe(m: &rules::draughts::Move, before: &Position) -> MoveCase {
    MoveCase {
        text: m.to_string(),
        from: m.from().number(),
        to: m.to().number(),
        path: m.path().iter().map(|s| s.number()).collect(),
        captured: m.captured().iter().map(|s| s.number()).collect(),
        promotes: m.promotes(),
        fen_after: before.play(m).expect("a listed move plays").fen(),
        piece: match m.role() {
            Role::Man => "man",
            Role::King => "king",
        }
        .to_owned(),
    }
}

/// Every difference between a record and what the rules crate says, as readable lines; `Err` when the record's
/// FEN does not read.
pub fn check_position(case: &PositionCase) -> Result<Vec<String>, String> {
    let position = Position::from_fen(&case.fen).map_err(|e| format!("fen {:?}: {e}", case.fen))?;
    let mut errors = Vec::new();
    let turn = match position.turn() {
        Color::White => "W",
        Color::Black => "B",
    };
    if turn != case.to_move {
        errors.push(format!(
            "to_move: the FEN says {turn}, the record {}",
            case.to_move
        ));
    }
    // Records write kings and men in either order; the position read back from our FEN must be the same.
    if Position::from_fen(&position.fen()).ok() != Some(position) {
        errors.push(format!(
            "fen written back as {}, which reads otherwise",
            position.fen()
        ));
    }
    let legal = position.legal_moves();
    let found: Vec<MoveCase> = legal.iter().map(|m| describe(m, &position)).collect();
    // A move is its start, end and captured set (routes that share them are one move). The path listed for a
    // move with several routes is the oracle's pick; ours is the smallest route, so the record's path must be
    // one of the move's routes, and both must name the same move.
    let same_move =
        |a: &MoveCase, b: &MoveCase| (a.from, a.to, &a.captured) == (b.from, b.to, &b.captured);
    for m in &case.legal_moves {
        let Some(f) = found.iter().find(|f| same_move(f, m)) else {
            errors.push(format!("move {} of the record is not legal here", m.text));
            continue;
        };
        let comparable = MoveCase {
            text: m.text.clone(),
            path: m.path.clone(),
            ..describe(
                &legal[found
                    .iter()
                    .position(|x| std::ptr::eq(x, f))
                    .expect("found")],
                &position,
            )
        };
        if &comparable != m {
            errors.push(format!("move {}: listed as {f:?}, expected {m:?}", m.text));
        }
        match position.parse_move(&m.text) {
            Ok(p) if p.to_string() == f.text => {}
            Ok(p) => errors.push(format!("{} reads as {p}, not as {}", m.text, f.text)),
            Err(e) => errors.push(format!("{} does not read: {e}", m.text)),
        }
        let path_text = |p: &[u8]| p.iter().map(u8::to_string).collect::<Vec<_>>().join("x");
        if f.path.len() != m.path.len() || (f.captured.is_empty() && f.path != m.path) {
            errors.push(format!(
                "move {}: path {:?}, expected {:?}",
                m.text, f.path, m.path
            ));
        } else if !m.captured.is_empty() && path_text(&m.path) != m.text {
            errors.push(format!("move {}: text and path differ", m.text));
        }
    }
    for f in &found {
        if !case.legal_moves.iter().any(|m| same_move(f, m)) {
            errors.push(format!(
                "move {} is legal here but not in the record",
                f.text
            ));
        }
    }
    let key = |m: &MoveCase| (m.from, m.to);
    if found.len() == case.legal_moves.len()
        && found.iter().map(key).ne(case.legal_moves.iter().map(key))
    {
        errors.push("the moves are not in the record's order".to_owned());
    }
    let max = legal.iter().map(|m| m.captured().len()).max().unwrap_or(0);
    if max != case.max_captured {
        errors.push(format!(
            "max_captured {max}, expected {}",
            case.max_captured
        ));
    }
    for (depth, &expected) in &case.perft {
        let d: u32 = depth
            .parse()
            .map_err(|_| format!("perft depth {depth:?}"))?;
        let got = position.perft(d);
        if got != expected {
            errors.push(format!("perft({d}) = {got}, expected {expected}"));
        }
    }
    Ok(errors)
}

/// Checks the perft tables to at most `max_depth` plies; returns one `(label, mismatch)` per cell checked.
pub fn check_perft_tables(max_depth: usize) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for (name, fen, table) in PERFT_TABLES {
        let position = Position::from_fen(fen).expect("the tables' FENs read");
        for (i, &expected) in table.iter().enumerate().take(max_depth) {
            let depth = i as u32 + 1;
            let got = position.perft(depth);
            let label = format!("perft {name} depth {depth}");
            out.push((
                label,
                (got != expected).then(|| format!("{got}, expected {expected}")),
            ));
        }
    }
    out
}

/// The `conformance draughts FILE` command: every record of the file, then the perft tables in full; prints each
/// mismatch and `N passed, M failed`; exit status 1 on any failure, 2 when the file cannot be read.
#[allow(dead_code)]
pub fn run_file(file: &str) -> std::process::ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {file}: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let (mut passed, mut failed) = (0usize, 0usize);
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let result = serde_json::from_str::<PositionCase>(line)
            .map_err(|e| e.to_string())
            .and_then(|c| check_position(&c).map(|r| (c.id, r)));
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
    for (label, mismatch) in check_perft_tables(usize::MAX) {
        match mismatch {
            None => passed += 1,
            Some(e) => {
                failed += 1;
                println!("{label}: {e}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    }
}
