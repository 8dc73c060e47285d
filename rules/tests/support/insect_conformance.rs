//! Checks insect chess records of the two shapes of `tests/data/insect/` (see its README) against
//! `rules::insect`: games from the start (`moves`, `position`, `legal`, `status`, `reason`) and scattered
//! placements (`start`, `legal`, `then`, `then_position`, `then_status`, `then_reason`). Shared by the
//! `insect_conformance` test and the `conformance` example's `insect` mode.

use rules::insect::{Game, Move};
use serde::Deserialize;

/// One line of either file; which fields are present says which shape it is.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct InsectCase {
    pub id: String,
    /// Moves from the start (or from `start`), in order.
    #[serde(default)]
    pub moves: Vec<String>,
    /// A scattered record's placement to begin from; absent for a game from the start.
    pub start: Option<String>,
    /// A game record's placement after its moves.
    pub position: Option<String>,
    /// The legal moves after `moves`, sorted as strings; empty once the game is over.
    pub legal: Vec<String>,
    pub status: Option<String>,
    pub reason: Option<String>,
    /// A scattered record's one further move, and what it leads to.
    pub then: Option<String>,
    pub then_position: Option<String>,
    pub then_status: Option<String>,
    pub then_reason: Option<String>,
}

fn sorted_legal(game: &Game) -> Vec<String> {
    let mut legal: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
    legal.sort();
    legal
}

fn replay(mut game: Game, moves: &[String]) -> Result<Game, String> {
    for (i, text) in moves.iter().enumerate() {
        let mv: Move = text
            .parse()
            .map_err(|e| format!("move {i} {text:?} does not read: {e}"))?;
        game.apply(mv)
            .map_err(|e| format!("move {i} {text} refused: {} ({e})", e.code()))?;
    }
    Ok(game)
}

/// Compares the game's placement, status and reason with what the record expects, adding one line per
/// difference to `errors`, each labelled with `what`.
fn compare(
    game: &Game,
    what: &str,
    position: &str,
    status: &str,
    reason: Option<&str>,
    errors: &mut Vec<String>,
) {
    let got = game.position().placement();
    if got != position {
        errors.push(format!("{what} position {got}, expected {position}"));
    }
    let got = game.status();
    if got.code() != status || got.reason() != reason {
        errors.push(format!(
            "{what} status {} {:?}, expected {status} {reason:?}",
            got.code(),
            got.reason()
        ));
    }
}

/// Every difference between a record and what the rules crate says, as readable lines; `Err` when the record
/// has neither shape.
pub fn check_case(case: &InsectCase) -> Result<Vec<String>, String> {
    let mut errors = Vec::new();
    let game = match &case.start {
        Some(start) => match Game::from_placement(start) {
            Ok(game) => game,
            Err(e) => {
                errors.push(format!("start {start} refused: {} ({e})", e.code()));
                return Ok(errors);
            }
        },
        None => Game::new(),
    };
    if let Some(start) = &case.start {
        if &game.start().placement() != start {
            errors.push(format!(
                "start written back as {}, not {start}",
                game.start().placement()
            ));
        }
    }
    let game = match replay(game, &case.moves) {
        Ok(game) => game,
        Err(e) => {
            errors.push(e);
            return Ok(errors);
        }
    };
    let legal = sorted_legal(&game);
    if legal != case.legal {
        let missing: Vec<&String> = case.legal.iter().filter(|m| !legal.contains(m)).collect();
        let extra: Vec<&String> = legal.iter().filter(|m| !case.legal.contains(m)).collect();
        errors.push(format!(
            "legal moves differ: not found {missing:?}, not expected {extra:?}"
        ));
    }
    match (&case.start, &case.position, &case.status, &case.then) {
        (None, Some(position), Some(status), None) => {
            compare(
                &game,
                "after the moves:",
                position,
                status,
                case.reason.as_deref(),
                &mut errors,
            );
        }
        (Some(_), None, None, Some(then)) => {
            let (Some(position), Some(status)) = (&case.then_position, &case.then_status) else {
                return Err(format!(
                    "{}: then without then_position or then_status",
                    case.id
                ));
            };
            if game.status().is_over() {
                errors.push(format!(
                    "the game is over ({}) before {then}",
                    game.status()
                ));
            }
            match replay(game, std::slice::from_ref(then)) {
                Ok(after) => compare(
                    &after,
                    &format!("after {then}:"),
                    position,
                    status,
                    case.then_reason.as_deref(),
                    &mut errors,
                ),
                Err(e) => errors.push(e),
            }
        }
        _ => return Err(format!("{}: neither record shape", case.id)),
    }
    Ok(errors)
}

/// Checks every record of a file's text: `(passed, failed, report lines)`, one line per mismatch.
pub fn check_text(text: &str) -> (usize, usize, Vec<String>) {
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut lines = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let result = serde_json::from_str::<InsectCase>(line)
            .map_err(|e| e.to_string())
            .and_then(|c| check_case(&c).map(|r| (c.id, r)));
        match result {
            Ok((_, errors)) if errors.is_empty() => passed += 1,
            Ok((id, errors)) => {
                failed += 1;
                lines.extend(errors.into_iter().map(|e| format!("{id}: {e}")));
            }
            Err(e) => {
                failed += 1;
                lines.push(format!("line {}: {e}", n + 1));
            }
        }
    }
    (passed, failed, lines)
}

/// The `conformance insect FILE` command: every record of the file (either shape); prints each mismatch and
/// `N passed, M failed`; exit status 1 on any failure, 2 when the file cannot be read.
#[allow(dead_code)]
pub fn run_file(file: &str) -> std::process::ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {file}: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let (passed, failed, lines) = check_text(&text);
    for line in lines {
        println!("{line}");
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    }
}
