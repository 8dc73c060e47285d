//! Helpers shared by the engine's integration tests: games from move lists, random legal play, and an
//! exhaustive VCF search of the tests' own that knows nothing of the engine (it asks only the rules).

#![allow(dead_code)]

use std::sync::atomic::AtomicBool;

use engine::{Decision, Engine, Limits, TimeBudget};
use rules::{Action, Color, Game, Phase, Point, Rules, Status};

/// A point from `h8` notation.
pub fn p(s: &str) -> Point {
    s.parse().unwrap()
}

/// A game from alternating stones.
pub fn game(rules: Rules, moves: &[&str]) -> Game {
    let actions: Vec<Action> = moves.iter().map(|m| Action::place(p(m))).collect();
    Game::from_actions(rules, &actions).expect("a legal game")
}

/// One decision of an engine with these limits.
pub fn think(game: &Game, level: u8, nodes: Option<u64>, seed: u64) -> Decision {
    let mut engine = Engine::new(
        Limits {
            level,
            max_nodes: nodes,
            // Long enough never to bind: the node budget decides, so the same seed gives the same decision.
            max_time: Some(std::time::Duration::from_secs(120)),
        },
        seed,
    );
    engine
        .think(game, &TimeBudget::Unlimited, &AtomicBool::new(false))
        .expect("the game is on")
}

/// A tiny deterministic generator for random play in tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// A random legal action for whoever acts now, stones kept near the others so that games look like games.
pub fn random_action(game: &Game, rng: &mut Rng) -> Option<Action> {
    let Status::Ongoing { phase, .. } = game.status() else {
        return None;
    };
    match phase {
        Phase::SwapDecision => Some(Action::DecideSwap {
            swap: rng.below(2) == 1,
        }),
        Phase::ChooseFifth { options } => Some(Action::ChooseFifth {
            point: options[rng.below(2)],
        }),
        Phase::ProposeFifth => {
            let near = near_points(game);
            for _ in 0..200 {
                let a = near[rng.below(near.len())];
                let b = near[rng.below(near.len())];
                let action = Action::ProposeFifth { points: [a, b] };
                if game.check(action).is_ok() {
                    return Some(action);
                }
            }
            None
        }
        Phase::Place => {
            let legal = game.legal_places();
            let near: Vec<Point> = near_points(game)
                .into_iter()
                .filter(|q| legal.contains(q))
                .collect();
            let pool = if near.is_empty() { legal } else { near };
            (!pool.is_empty()).then(|| Action::place(pool[rng.below(pool.len())]))
        }
        // The opening rules of #19 are not the engine's (the server refuses them for computer games).
        _ => None,
    }
}

/// Empty points within two of a stone (the centre on an empty board).
pub fn near_points(game: &Game) -> Vec<Point> {
    let board = game.board();
    if game.ply() == 0 {
        return vec![Point::centre(board.size())];
    }
    board
        .points()
        .filter(|&q| {
            board.is_empty_at(q)
                && game
                    .moves()
                    .iter()
                    .any(|m| m.x().abs_diff(q.x()) <= 2 && m.y().abs_diff(q.y()) <= 2)
        })
        .collect()
}

/// Whether `attacker`, to move in `game` (phase Place), wins by continuous fours within `depth` fours: checked by
/// trying every point near the stones with the rules alone. The defender's only answer to a four is its
/// completing point; a completing point the rules refuse the defender (a forbidden point under reject), or
/// under the lose and claim policies one that is forbidden, is no answer.
pub fn exhaustive_vcf(game: &Game, attacker: Color, depth: u32) -> Option<Vec<Point>> {
    if game.to_act() != Some(attacker) {
        return None;
    }
    if let Some(&five) = game.five_points(attacker).first() {
        if game.check(Action::place(five)).is_ok() {
            return Some(vec![five]);
        }
    }
    if depth == 0 || !game.five_points(attacker.opposite()).is_empty() {
        return None;
    }
    for q in near_points(game) {
        let mut g = game.clone();
        if g.apply(Action::place(q)).is_err() {
            continue;
        }
        if g.claimable().is_some() {
            continue;
        }
        if let Status::Won { winner, .. } = g.status() {
            if winner == attacker {
                return Some(vec![q]);
            }
            continue;
        }
        let fives = g.five_points(attacker);
        let answers: Vec<Point> = fives
            .iter()
            .copied()
            .filter(|&f| {
                let mut h = g.clone();
                h.apply(Action::place(f)).is_ok()
                    && h.claimable().is_none()
                    && !matches!(h.status(), Status::Won { winner, .. } if winner == attacker)
            })
            .collect();
        if fives.is_empty() {
            continue;
        }
        if fives.len() >= 2 || answers.is_empty() {
            return Some(vec![q]);
        }
        let mut h = g.clone();
        h.apply(Action::place(answers[0])).expect("checked");
        if let Some(mut rest) = exhaustive_vcf(&h, attacker, depth - 1) {
            rest.insert(0, q);
            return Some(rest);
        }
    }
    None
}
