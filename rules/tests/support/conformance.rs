//! Checks positions and finished games of the conformance vector format (see `tests/data/UPSTREAM-README.md`)
//! against the rules crate. Shared by the conformance test and the `conformance` example.

use std::collections::{BTreeMap, BTreeSet};

use rules::{renju, Action, Board, Color, ForbiddenPolicy, Game, Point, Rules, Status, WinReason};
use serde::Deserialize;

/// One line of `forbidden.jsonl`.
#[derive(Deserialize)]
pub struct ForbiddenCase {
    pub id: String,
    pub moves: Vec<String>,
    pub black: Vec<String>,
    pub white: Vec<String>,
    pub forbidden: Vec<String>,
    #[serde(default)]
    pub forbidden_kinds: BTreeMap<String, String>,
    /// Absent from lines whose source did not record it.
    pub black_five_points: Option<Vec<String>>,
    /// Absent from lines whose source did not record it.
    pub white_five_points: Option<Vec<String>>,
    #[serde(default)]
    pub point_checks: BTreeMap<String, bool>,
}

/// One line of `wins.jsonl`.
#[derive(Deserialize)]
pub struct WinCase {
    pub id: String,
    pub moves: Vec<String>,
    pub winner: String,
    pub winning_move: String,
    pub winning_line: Vec<String>,
}

fn point(s: &str) -> Result<Point, String> {
    s.parse().map_err(|e| format!("bad point {s:?}: {e}"))
}

fn set(points: &[String]) -> Result<BTreeSet<Point>, String> {
    points.iter().map(|s| point(s)).collect()
}

fn show(points: &BTreeSet<Point>) -> String {
    points
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board of a position built from its move list (`pass` skips a turn).
pub fn board_from_moves(moves: &[String]) -> Result<Board, String> {
    let mut board = Board::new(15);
    let mut color = Color::Black;
    for m in moves {
        if m != "pass" {
            let p = point(m)?;
            if !board.is_empty_at(p) {
                return Err(format!("move {m} is on an occupied point"));
            }
            board.place(p, color);
        }
        color = color.opposite();
    }
    Ok(board)
}

/// Every difference between the case and what the rules crate says, as readable lines.
pub fn check_forbidden(case: &ForbiddenCase) -> Result<Vec<String>, String> {
    let board = board_from_moves(&case.moves)?;
    let mut errors = Vec::new();
    if board.stones_of(Color::Black).collect::<BTreeSet<_>>() != set(&case.black)?
        || board.stones_of(Color::White).collect::<BTreeSet<_>>() != set(&case.white)?
    {
        errors.push("the move list does not give the listed stones".to_string());
    }
    let found = renju::forbidden_points(&board);
    let found_set: BTreeSet<Point> = found.iter().map(|&(p, _)| p).collect();
    let expected = set(&case.forbidden)?;
    if found_set != expected {
        errors.push(format!(
            "forbidden: expected [{}], got [{}]",
            show(&expected),
            show(&found_set)
        ));
    }
    let mut incremental = renju::ForbiddenSet::new(Board::new(15));
    let mut color = Color::Black;
    for m in &case.moves {
        if m != "pass" {
            incremental.place(point(m)?, color);
        }
        color = color.opposite();
    }
    if incremental.points() != found {
        errors.push("the incrementally kept set differs from the whole-board scan".to_string());
    }
    for (p, kind) in &found {
        if let Some(want) = case.forbidden_kinds.get(&p.to_string()) {
            if want != kind.as_str() {
                errors.push(format!("kind at {p}: expected {want}, got {kind}"));
            }
        }
    }
    for (p, &want) in &case.point_checks {
        let got = renju::forbidden_at(&board, point(p)?).is_some();
        if got != want {
            errors.push(format!(
                "point check {p}: expected forbidden={want}, got {got}"
            ));
        }
    }
    let rules = Rules::renju(ForbiddenPolicy::Reject);
    let game_like = FivePoints {
        board: &board,
        rules,
    };
    for (color, listed) in [
        (Color::Black, &case.black_five_points),
        (Color::White, &case.white_five_points),
    ] {
        let Some(listed) = listed else { continue };
        let want = set(listed)?;
        let got = game_like.five_points(color);
        if got != want {
            errors.push(format!(
                "{color} five points: expected [{}], got [{}]",
                show(&want),
                show(&got)
            ));
        }
    }
    Ok(errors)
}

struct FivePoints<'a> {
    board: &'a Board,
    rules: Rules,
}

impl FivePoints<'_> {
    fn five_points(&self, color: Color) -> BTreeSet<Point> {
        self.board
            .points()
            .filter(|&p| {
                self.board.is_empty_at(p)
                    && rules::Direction::ALL.iter().any(|&d| {
                        self.rules
                            .is_winning_run(color, self.board.run_through(p, d, color))
                    })
            })
            .collect()
    }
}

/// Every difference between a finished game and what the rules crate makes of it.
pub fn check_win(case: &WinCase) -> Result<Vec<String>, String> {
    let mut game = Game::new(Rules::renju(ForbiddenPolicy::Reject));
    let mut errors = Vec::new();
    for (i, m) in case.moves.iter().enumerate() {
        if game.status().is_over() {
            errors.push(format!("the game ended before move {} ({m})", i + 1));
            return Ok(errors);
        }
        if let Err(e) = game.apply(Action::place(point(m)?)) {
            errors.push(format!("move {} ({m}) refused: {}", i + 1, e.code()));
            return Ok(errors);
        }
    }
    match game.status() {
        Status::Won {
            winner,
            reason: WinReason::Five { line },
        } => {
            if winner.as_str() != case.winner {
                errors.push(format!("winner: expected {}, got {winner}", case.winner));
            }
            let want = set(&case.winning_line)?;
            let got: BTreeSet<Point> = line.points().into_iter().collect();
            if got != want {
                errors.push(format!(
                    "winning line: expected [{}], got [{}]",
                    show(&want),
                    show(&got)
                ));
            }
            if game.moves().last().map(|p| p.to_string()).as_deref()
                != Some(case.winning_move.as_str())
            {
                errors.push(format!("winning move: expected {}", case.winning_move));
            }
        }
        other => errors.push(format!("expected a win by {}, got {other:?}", case.winner)),
    }
    Ok(errors)
}
