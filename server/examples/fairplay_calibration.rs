//! Calibration of the fair-play statistic (`docs/fairplay.md`): engine levels play Othello as "players", each
//! game is judged by the server's own fair-play judge (`server::fairplay::judge`), and the players' windows of
//! games go through the server's statistic at a rating of 1500. The cheater is level 8 (the judge's own engine,
//! at another time budget); honest players are lower levels (2 to 6). Prints one table (markdown) of detections and
//! false positives.
//!
//! ```text
//! nice -n 10 cargo run --release -p server --example fairplay_calibration -- [GAMES] [WINDOW] [JUDGE_MS] [MOVE_MS] [SEED]
//! ```
//!
//! GAMES games per player (default 40) against opponents of levels 3 to 5 in turn, colours alternating, each
//! from a seeded random opening of six plies; windows of WINDOW games (default 10); the judge thinks JUDGE_MS
//! (default 20) about each position, the players MOVE_MS (default 30) about each move.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::brain;
use games::{AnyAction, AnyConfig, AnyGame, Game, GameKind};
use rules::Color;
use server::fairplay::judge::{self, Tally};
use server::fairplay::statistic::{self, Thresholds};

/// The players: a name and the Othello engine's level.
const PLAYERS: &[(&str, u8)] = &[
    ("honest level 2", 2),
    ("honest level 3", 3),
    ("honest level 4", 4),
    ("honest level 5", 5),
    ("honest level 6", 6),
    ("cheater (level 8)", 8),
];

/// The opponents' levels, in turn.
const OPPONENTS: [u8; 3] = [3, 4, 5];

/// The rating the statistic reads the expected rate at.
const RATING: f64 = 1500.0;

fn next(rng: &mut u64) -> u64 {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

/// Plays one game; returns the game's config and actions.
fn play(
    subject: u8,
    opponent: u8,
    subject_colour: Color,
    seed: u64,
    move_ms: u64,
) -> (AnyConfig, Vec<AnyAction>) {
    let config = GameKind::Othello.default_config();
    let mut game = AnyGame::new(config, server::stored::first_seat(config));
    let mut rng = seed | 1;
    // A seeded random opening of six plies.
    for _ in 0..6 {
        let legal = game.legal_actions();
        if legal.is_empty() || game.status().is_over() {
            break;
        }
        let pick = legal[(next(&mut rng) % legal.len() as u64) as usize].clone();
        game.apply(pick).expect("a legal action");
    }
    let make =
        |level: u8, s: u64| brain::make(GameKind::Othello, "engine", level, s).expect("a level");
    let mut subject_brain = make(subject, seed ^ 0x51);
    let mut opponent_brain = make(opponent, seed ^ 0x0b);
    let cancel = AtomicBool::new(false);
    let budget = Duration::from_millis(move_ms);
    while let Some(to_act) = game.to_act() {
        let action = match game.forced() {
            Some(forced) => forced,
            None => {
                let b = if to_act == subject_colour {
                    &mut subject_brain
                } else {
                    &mut opponent_brain
                };
                b.choose(&game, budget, &cancel).expect("an action")
            }
        };
        game.apply(action).expect("the brain's action plays");
    }
    (config, game.actions())
}

struct Row {
    name: &'static str,
    games: u32,
    tally: Tally,
    windows: Vec<statistic::Assessment>,
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let arg = |i: usize, default: u64| args.get(i).copied().unwrap_or(default);
    let games = arg(0, 40) as u32;
    let window = arg(1, 10) as usize;
    let judge_ms = arg(2, 20);
    let move_ms = arg(3, 30);
    let seed = arg(4, 1);
    let thresholds = Thresholds::default();
    let started = Instant::now();
    let mut rows = Vec::new();
    for &(name, level) in PLAYERS {
        let mut per_game = Vec::new();
        let mut total = Tally::default();
        for g in 0..games {
            let colour = if g % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let opponent = OPPONENTS[(g as usize / 2) % OPPONENTS.len()];
            let game_seed = seed
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add(u64::from(g / 2) * 7919 + 1);
            let (config, actions) = play(level, opponent, colour, game_seed, move_ms);
            let (mut judge_brain, _) =
                server::analysis::runner::brain_for(GameKind::Othello).expect("a judge");
            let tallies = judge::judge_game(
                config,
                &actions,
                judge_brain.as_mut(),
                Duration::from_millis(judge_ms),
                &AtomicBool::new(false),
            )
            .expect("the game replays");
            let t = tallies[judge::index(colour)];
            total.judged += t.judged;
            total.top1 += t.top1;
            total.top3 += t.top3;
            total.loss_sum += t.loss_sum;
            total.loss_moves += t.loss_moves;
            per_game.push((u64::from(t.judged), u64::from(t.top1), RATING));
        }
        let windows = per_game
            .chunks(window)
            .filter(|c| c.len() == window)
            .map(|c| statistic::assess(GameKind::Othello, c, &thresholds))
            .collect();
        eprintln!(
            "{name}: {games} games in {:.0} s",
            started.elapsed().as_secs_f64()
        );
        rows.push(Row {
            name,
            games,
            tally: total,
            windows,
        });
    }
    let expected = statistic::expected_rate(GameKind::Othello, RATING);
    println!(
        "Othello, {games} games a player, windows of {window} games, judge {judge_ms} ms a position, players \
         {move_ms} ms a move, seed {seed}; rating {RATING}: expected top-1 rate {:.0} %, min {} judged moves, \
         alpha {:e}",
        expected * 100.0,
        thresholds.min_moves,
        thresholds.alpha
    );
    println!();
    println!(
        "| player | judged moves | top-1 | top-3 | avg loss | windows flagged | smallest window p | \
         P(flag) per window, binomial at its top-1 rate |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for row in &rows {
        let t = row.tally;
        let n = f64::from(t.judged.max(1));
        let rate = f64::from(t.top1) / n;
        let flagged = row.windows.iter().filter(|w| w.flagged).count();
        let smallest = row
            .windows
            .iter()
            .map(|w| w.p_value)
            .fold(1.0_f64, f64::min);
        // The chance that a window of the average judged size is flagged, were the player's moves binomial at
        // its observed rate: the false-positive (or detection) rate the few windows above only sample.
        let per_window =
            (f64::from(t.judged) / f64::from(row.games) * window as f64).round() as u64;
        let k_star = (0..=per_window)
            .find(|&k| statistic::upper_tail(per_window, k, expected) <= thresholds.alpha)
            .unwrap_or(per_window + 1);
        let modelled = if per_window >= u64::from(thresholds.min_moves) {
            statistic::upper_tail(per_window, k_star, rate)
        } else {
            0.0
        };
        println!(
            "| {} | {} | {:.1} % | {:.1} % | {:.0} | {flagged} / {} | {smallest:.1e} | {modelled:.1e} |",
            row.name,
            t.judged,
            rate * 100.0,
            f64::from(t.top3) / n * 100.0,
            t.loss_sum as f64 / f64::from(t.loss_moves.max(1)),
            row.windows.len(),
        );
    }
    eprintln!("{:.0} s in all", started.elapsed().as_secs_f64());
}
