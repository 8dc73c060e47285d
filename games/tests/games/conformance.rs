//! The seam's Gomoku member agrees with the Renju conformance vectors of `rules/tests/data/`: every game is
//! replayed through [`AnyGame`] from its moves' notation, and its status, view and outcome are compared with the
//! vector.

use std::collections::{BTreeMap, BTreeSet};

use games::{
    AnyConfig, AnyDelta, AnyDetail, AnyGame, AnyIllegal, AnyView, Game, GomokuChange, GomokuConfig,
    GomokuDetail, Seat, Status, StoredReplayError,
};
use rules::{Color, ForbiddenPolicy, IllegalAction, Opening, RuleSet};
use serde::Deserialize;

#[derive(Deserialize)]
struct ForbiddenCase {
    id: String,
    moves: Vec<String>,
    to_move: String,
    black: Vec<String>,
    white: Vec<String>,
    forbidden: Vec<String>,
    #[serde(default)]
    forbidden_kinds: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct WinCase {
    id: String,
    moves: Vec<String>,
    winner: String,
    winning_move: String,
    winning_line: Vec<String>,
}

fn lines<T: for<'de> Deserialize<'de>>(name: &str) -> Vec<T> {
    let path = format!("{}/../rules/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a vector line parses"))
        .collect()
}

fn renju(policy: ForbiddenPolicy) -> AnyConfig {
    AnyConfig::Gomoku(GomokuConfig::new(15, RuleSet::Renju, policy, Opening::None).unwrap())
}

fn colour(name: &str) -> Color {
    match name {
        "black" => Color::Black,
        "white" => Color::White,
        other => panic!("no colour {other}"),
    }
}

/// The position replayed through the seam: under the reject policy when black never played a forbidden point on
/// the way, else under the claim policy (the stone stands; white's next stone lets the claim lapse).
fn replay(moves: &[String]) -> (AnyGame, ForbiddenPolicy) {
    match AnyGame::replay_stored(renju(ForbiddenPolicy::Reject), Seat::Zero, moves) {
        Ok(game) => (game, ForbiddenPolicy::Reject),
        Err(e) => {
            assert!(
                matches!(
                    e.reason,
                    StoredReplayError::Illegal(AnyIllegal::Gomoku(IllegalAction::Forbidden(_)))
                ),
                "only a forbidden stone may stop the reject replay: {e}"
            );
            let game = AnyGame::replay_stored(renju(ForbiddenPolicy::Claim), Seat::Zero, moves)
                .expect("under the claim policy every stone stands");
            (game, ForbiddenPolicy::Claim)
        }
    }
}

#[test]
fn every_forbidden_vector_that_is_a_game_gives_the_listed_status_and_forbidden_points() {
    let cases: Vec<ForbiddenCase> = lines("forbidden.jsonl");
    assert_eq!(cases.len(), 1307, "the whole file was read");
    let mut failures = Vec::new();
    let (mut replayed, mut under_claim, mut not_games) = (0, 0, 0);
    for case in &cases {
        if case.moves.iter().any(|m| m == "pass") {
            // A pass is no action of Gomoku: these hand-made positions have stone counts no game reaches.
            let (b, w) = (case.black.len(), case.white.len());
            assert!(b != w && b != w + 1, "{}: a game could reach it", case.id);
            not_games += 1;
            continue;
        }
        replayed += 1;
        let (game, policy) = replay(&case.moves);
        if policy == ForbiddenPolicy::Claim {
            under_claim += 1;
        }
        let to_move = colour(&case.to_move);
        if game.to_act() != Some(to_move) || game.status().is_over() {
            failures.push(format!("{}: status {:?}", case.id, game.status()));
            continue;
        }
        let AnyGame::Gomoku(member) = &game else {
            panic!("a Gomoku game");
        };
        let AnyView::Gomoku(view) = game.view(false) else {
            panic!("a Gomoku game");
        };
        let want: BTreeSet<String> = case.forbidden.iter().cloned().collect();
        // The view shows black's forbidden points while black is to place; the member tells them for any side.
        let shown = if to_move == Color::Black {
            view.forbidden.clone()
        } else {
            if !view.forbidden.is_empty() {
                failures.push(format!("{}: forbidden points shown to white", case.id));
            }
            member.forbidden_points()
        };
        let got: BTreeSet<String> = shown.iter().map(|(p, _)| p.to_string()).collect();
        if got != want {
            failures.push(format!("{}: forbidden {got:?}, want {want:?}", case.id));
        }
        for (p, kind) in &shown {
            if let Some(k) = case.forbidden_kinds.get(&p.to_string()) {
                if k != kind.as_str() {
                    failures.push(format!("{}: {p} is {kind}, want {k}", case.id));
                }
            }
        }
        let stones: BTreeSet<String> = case.black.iter().chain(&case.white).cloned().collect();
        let placed: BTreeSet<String> = view.moves.iter().map(|p| p.to_string()).collect();
        if placed != stones {
            failures.push(format!("{}: the view's stones differ", case.id));
        }
    }
    assert_eq!((replayed, not_games), (1004, 303));
    assert!(
        under_claim > 0 && under_claim < replayed,
        "both policies were used: {under_claim}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_finished_game_is_won_through_the_seam_by_the_listed_side_with_the_listed_line() {
    let cases: Vec<WinCase> = lines("wins.jsonl");
    assert_eq!(cases.len(), 250, "the whole file was read");
    for case in &cases {
        let (last, before) = case.moves.split_last().expect("a game has moves");
        let mut game = AnyGame::replay_stored(renju(ForbiddenPolicy::Reject), Seat::Zero, before)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert!(!game.status().is_over(), "{}: over too early", case.id);
        let action = game.parse_action(last).unwrap();
        let AnyDelta::Gomoku(delta) = game
            .apply_as(game.seat_of(game.to_act().unwrap()), action)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id))
        else {
            panic!("a Gomoku game");
        };
        let winner = colour(&case.winner);
        assert_eq!(
            delta.change,
            GomokuChange::Placed {
                colour: winner,
                point: case.winning_move.parse().unwrap(),
                ply: case.moves.len() as u32,
                claimable: None,
            },
            "{}",
            case.id
        );
        let Status::Over(outcome) = game.status() else {
            panic!("{}: not over", case.id)
        };
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Some(winner), "five"),
            "{}",
            case.id
        );
        let AnyDetail::Gomoku(GomokuDetail::Five { line }) = &outcome.detail else {
            panic!("{}: no line", case.id)
        };
        let got: BTreeSet<String> = line.iter().map(|p| p.to_string()).collect();
        let want: BTreeSet<String> = case.winning_line.iter().cloned().collect();
        assert_eq!(got, want, "{}", case.id);
        let Status::Over(in_delta) = delta.status else {
            panic!("{}: the delta says the game goes on", case.id)
        };
        assert_eq!(in_delta.detail, GomokuDetail::Five { line: line.clone() });
        assert_eq!(game.to_act(), None);
    }
}
