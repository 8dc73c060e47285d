//! Draughts levels against each other:
//! `cargo run --release -p engine --example draughts_match -- A B [GAMES] [PERMILLE] [SEED]`
//! plays GAMES games (default 40) between level A and level B from seeded random openings of two plies (a
//! first move for each side, drawn from the initial position's 9 and the reply's 9: balanced, as every first
//! move is), each opening twice with the colours swapped, every move within PERMILLE thousandths (default 100)
//! of its level's time cap. A game still running after 400 plies counts as a draw (none has so far: the rules'
//! draws end them). Prints A's wins, losses and draws, its score, the Elo difference with its 95% interval, and
//! each level's longest move.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::draughts::{Engine, Level};
use rules::draughts::{Game, Move, Status};
use rules::Color;

/// Plies after which a game is called a draw.
const MAX_PLIES: usize = 400;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let level =
        |i: usize| Level::new(args.get(i).copied().unwrap_or(1) as u8).expect("a level 1-8");
    let (a, b) = (level(0), level(1));
    let games = args.get(2).copied().unwrap_or(40) as usize;
    let permille = args.get(3).copied().unwrap_or(100) as u32;
    let budget = |l: Level| l.settings().time * permille / 1000;
    let seed = args.get(4).copied().unwrap_or(1);
    let cancel = AtomicBool::new(false);
    let start = Instant::now();
    let (mut wins, mut losses, mut draws, mut capped) = (0, 0, 0, 0);
    let mut longest = [Duration::ZERO; 2];
    let mut plies = 0;
    let mut scores = Vec::new();
    let mut rng = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
    let mut opening = Vec::new();
    for game_no in 0..games {
        if game_no % 2 == 0 {
            opening = random_opening(&mut rng, 2);
        }
        // A is White in even games, Black in odd ones.
        let a_colour = if game_no % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut engines = [
            Engine::new(seed ^ game_no as u64),
            Engine::new(!seed ^ game_no as u64),
        ];
        let mut game = Game::new();
        for mv in &opening {
            game.play(mv).expect("an opening move");
        }
        while !game.status().is_over() && game.moves().len() < MAX_PLIES {
            let k = usize::from(game.position().turn() != a_colour);
            let lvl = [a, b][k];
            let t = Instant::now();
            let mv = engines[k]
                .choose(&game, lvl, budget(lvl), &cancel)
                .expect("a move while the game runs");
            longest[k] = longest[k].max(t.elapsed());
            game.play(&mv).expect("a legal move");
        }
        plies += game.moves().len();
        let points = match game.status() {
            Status::Won { winner, .. } if winner == a_colour => {
                wins += 1;
                1.0
            }
            Status::Won { .. } => {
                losses += 1;
                0.0
            }
            _ => {
                draws += 1;
                capped += usize::from(!game.status().is_over());
                0.5
            }
        };
        if std::env::var_os("MATCH_VERBOSE").is_some() {
            eprintln!(
                "game {game_no}: A {a_colour:?}, {} plies, {:?}",
                game.moves().len(),
                game.status()
            );
        }
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
        "level {} vs level {}: {games} games, {} and {} ms/move: +{wins} -{losses} ={draws} ({capped} at {MAX_PLIES} plies), score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}], {:.0} plies/game, longest move {} and {} ms, {:.0} s",
        a.number(),
        b.number(),
        budget(a).as_millis(),
        budget(b).as_millis(),
        mean * 100.0,
        elo(mean),
        elo(mean - 1.96 * se),
        elo(mean + 1.96 * se),
        plies as f64 / n,
        longest[0].as_millis(),
        longest[1].as_millis(),
        start.elapsed().as_secs_f64()
    );
}

/// `plies` random legal moves from the start (xorshift).
fn random_opening(rng: &mut u64, plies: usize) -> Vec<Move> {
    let mut game = Game::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let legal = game.legal_moves();
        let mv = legal[(*rng % legal.len() as u64) as usize].clone();
        game.play(&mv).expect("a listed move");
        moves.push(mv);
    }
    moves
}
