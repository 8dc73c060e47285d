//! Othello levels against each other:
//! `cargo run --release -p engine --example othello_match -- A B [GAMES] [PERMILLE] [SEED]`
//! plays GAMES games (default 24) between level A and level B from seeded random openings of six plies, each
//! opening twice with the colours swapped, every move within PERMILLE thousandths (default 25) of its level's
//! time cap. Prints A's wins, losses and draws, its score, and the Elo difference with its 95% interval.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use engine::othello::{Engine, Level};
use rules::othello::{Move, Position, PositionStatus};
use rules::Color;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let level =
        |i: usize| Level::new(args.get(i).copied().unwrap_or(1) as u8).expect("a level 1-8");
    let (a, b) = (level(0), level(1));
    let games = args.get(2).copied().unwrap_or(24) as usize;
    let permille = args.get(3).copied().unwrap_or(25) as u32;
    let budget = |l: Level| l.settings().time * permille / 1000;
    let seed = args.get(4).copied().unwrap_or(1);
    let cancel = AtomicBool::new(false);
    let start = Instant::now();
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    let mut scores = Vec::new();
    let mut rng = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
    let mut opening = Vec::new();
    for game in 0..games {
        if game % 2 == 0 {
            opening = random_opening(&mut rng, 6);
        }
        // A is black in even games, white in odd ones.
        let a_colour = if game % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut engines = [
            Engine::new(seed ^ game as u64),
            Engine::new(!seed ^ game as u64),
        ];
        let mut position = Position::start();
        for &mv in &opening {
            position = position.play(mv).expect("an opening move").0;
        }
        while !matches!(position.status(), PositionStatus::Over(_)) {
            let a_moves = position.to_move() == a_colour;
            let (engine, lvl) = if a_moves {
                (&mut engines[0], a)
            } else {
                (&mut engines[1], b)
            };
            let mv = engine
                .choose(&position, lvl, budget(lvl), &cancel)
                .expect("a move");
            position = position.play(mv).expect("a legal move").0;
        }
        let score = position.score();
        let diff = i32::from(score.black) - i32::from(score.white);
        let a_diff = if a_colour == Color::Black {
            diff
        } else {
            -diff
        };
        let points = match a_diff.signum() {
            1 => {
                wins += 1;
                1.0
            }
            -1 => {
                losses += 1;
                0.0
            }
            _ => {
                draws += 1;
                0.5
            }
        };
        scores.push(points);
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n;
    let se = (var / n).sqrt();
    let elo = |s: f64| {
        let s = s.clamp(0.001, 0.999);
        -400.0 * (1.0 / s - 1.0).log10()
    };
    println!(
        "level {} vs level {}: {games} games, {} and {} ms/move: +{wins} -{losses} ={draws}, score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}], {:.0} s",
        a.number(),
        b.number(),
        budget(a).as_millis(),
        budget(b).as_millis(),
        mean * 100.0,
        elo(mean),
        elo(mean - 1.96 * se),
        elo(mean + 1.96 * se),
        start.elapsed().as_secs_f64()
    );
}

/// `plies` random legal moves from the start (xorshift; never a finished game so early).
fn random_opening(rng: &mut u64, plies: usize) -> Vec<Move> {
    let mut position = Position::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let legal = position.legal_moves().to_vec();
        let mv = Move::Place(legal[(*rng % legal.len() as u64) as usize]);
        position = position.play(mv).unwrap().0;
        moves.push(mv);
    }
    moves
}
