//! Insect chess level-against-level matches, for the ladder in `docs/engine.md`.
//!
//! ```sh
//! cargo run --release -p engine --example insect_match -- --a 2 --b 1 --games 100 --seed 1
//! ```
//!
//! Games come in pairs: each start (a few random legal plies from the start, drawn from the seed) is played once
//! with A as south and once with A as north. Prints each pair's results as it goes, then wins/draws/losses for
//! A, A's score, and the Elo difference (A minus B) with its 95 % interval (normal approximation on the per-game
//! scores).
//!
//! Options: `--ms N` per-move time budget in milliseconds (default 50; the levels' node budgets usually stop the
//! search first, which keeps a match the same from run to run), `--plies N` random opening plies (default 4),
//! `--quiet` to print only the summary.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::insect::{Engine, Level};
use rules::insect::{Game, Side, Status};

struct Options {
    a: u8,
    b: u8,
    games: u32,
    seed: u64,
    ms: u64,
    plies: u32,
    quiet: bool,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        a: 2,
        b: 1,
        games: 100,
        seed: 1,
        ms: 50,
        plies: 4,
        quiet: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--quiet" {
            o.quiet = true;
            continue;
        }
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_| format!("bad value for {flag}: {value}");
        match flag.as_str() {
            "--a" => o.a = value.parse().map_err(bad)?,
            "--b" => o.b = value.parse().map_err(bad)?,
            "--games" => o.games = value.parse().map_err(bad)?,
            "--seed" => o.seed = value.parse().map_err(bad)?,
            "--ms" => o.ms = value.parse().map_err(bad)?,
            "--plies" => o.plies = value.parse().map_err(bad)?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(o)
}

/// SplitMix64, for the random openings.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A start: `plies` random legal plies from the initial position (redrawn if the game ends on the way).
fn opening(state: &mut u64, plies: u32) -> Game {
    loop {
        let mut game = Game::new();
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[(next(state) % legal.len() as u64) as usize];
            game.apply(mv).expect("a listed move is legal");
        }
        if !game.status().is_over() {
            return game;
        }
    }
}

/// What one player's searches did over a match.
#[derive(Default)]
struct Stats {
    moves: u64,
    depth: u64,
    nodes: u64,
    time: Duration,
    /// The longest move.
    longest: Duration,
    /// Moves whose search the time budget stopped (then the node budget did not decide it).
    at_time_cap: u64,
}

impl Stats {
    fn line(&self, name: &str, level: u8) -> String {
        let m = self.moves.max(1) as f64;
        format!(
            "{name} (level {level}): {} moves, mean depth {:.1}, mean nodes {:.0}, mean time {:.1} ms, longest {:.0} ms, {} at the time cap",
            self.moves,
            self.depth as f64 / m,
            self.nodes as f64 / m,
            self.time.as_secs_f64() * 1000.0 / m,
            self.longest.as_secs_f64() * 1000.0,
            self.at_time_cap
        )
    }
}

/// A player: its engine, level and statistics.
type Player<'a> = (&'a mut Engine, Level, &'a mut Stats);

/// Plays one game from `start`; returns its final status.
fn play(start: &Game, south: Player<'_>, north: Player<'_>, ms: u64) -> Status {
    let cancel = AtomicBool::new(false);
    let mut game = start.clone();
    let mut players = [south, north];
    for (engine, _, _) in players.iter_mut() {
        engine.clear();
    }
    while !game.status().is_over() {
        let (engine, level, stats) =
            &mut players[usize::from(game.position().turn() == Side::North)];
        let mv = engine
            .choose(&game, *level, Duration::from_millis(ms), &cancel)
            .expect("an ongoing game has a move");
        game.apply(mv).expect("the engine plays legal moves");
        let report = engine.last_report().expect("a report for each move");
        stats.moves += 1;
        stats.depth += report.depth.max(0) as u64;
        stats.nodes += report.nodes;
        stats.time += report.elapsed;
        stats.longest = stats.longest.max(report.elapsed);
        if report.elapsed >= Duration::from_millis(ms) {
            stats.at_time_cap += 1;
        }
    }
    game.status()
}

/// Elo difference for a score fraction.
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            eprintln!(
                "usage: insect_match [--a N] [--b M] [--games G] [--seed S] [--ms T] [--plies P] [--quiet]"
            );
            std::process::exit(2);
        }
    };
    let (level_a, level_b) = (Level::new(o.a), Level::new(o.b));
    let mut a = Engine::new(o.seed.wrapping_mul(31).wrapping_add(1));
    let mut b = Engine::new(o.seed.wrapping_mul(31).wrapping_add(2));
    let mut state = o.seed;
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut reasons = std::collections::BTreeMap::<String, u32>::new();
    let (mut stats_a, mut stats_b) = (Stats::default(), Stats::default());
    let started = Instant::now();
    let mut start = opening(&mut state, o.plies);
    for g in 0..o.games {
        if g % 2 == 0 && g > 0 {
            start = opening(&mut state, o.plies);
        }
        let a_side = if g % 2 == 0 { Side::South } else { Side::North };
        let status = if a_side == Side::South {
            play(
                &start,
                (&mut a, level_a, &mut stats_a),
                (&mut b, level_b, &mut stats_b),
                o.ms,
            )
        } else {
            play(
                &start,
                (&mut b, level_b, &mut stats_b),
                (&mut a, level_a, &mut stats_a),
                o.ms,
            )
        };
        let result = match status {
            Status::Won { winner, .. } if winner == a_side => {
                wins += 1;
                "A wins"
            }
            Status::Won { .. } => {
                losses += 1;
                "B wins"
            }
            _ => {
                draws += 1;
                "draw"
            }
        };
        *reasons
            .entry(status.reason().unwrap_or("?").to_string())
            .or_default() += 1;
        if !o.quiet {
            println!(
                "game {:>3}: A ({}) as {:<5} {:<6} ({})  [{}-{}-{}]",
                g + 1,
                o.a,
                a_side,
                result,
                status,
                wins,
                draws,
                losses
            );
        }
    }
    let n = f64::from(wins + draws + losses);
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    let variance = (f64::from(wins) * (1.0 - score).powi(2)
        + f64::from(draws) * (0.5 - score).powi(2)
        + f64::from(losses) * score.powi(2))
        / n;
    let se = (variance / n).sqrt();
    let (lo, hi) = (elo(score - 1.96 * se), elo(score + 1.96 * se));
    println!(
        "level {} vs level {}: {} games, seed {}, {} ms/move, {} opening plies, {:.0} s",
        o.a,
        o.b,
        n,
        o.seed,
        o.ms,
        o.plies,
        started.elapsed().as_secs_f64()
    );
    if wins + draws == 0 || losses + draws == 0 {
        // Every game won (or lost): the difference has no finite estimate.
        println!(
            "A wins {wins}, draws {draws}, losses {losses}; score {:.1} %; Elo {}",
            100.0 * score,
            if losses == 0 { "+inf" } else { "-inf" }
        );
    } else {
        println!(
            "A wins {wins}, draws {draws}, losses {losses}; score {:.1} %; Elo {:+.0} (95 %: {:+.0} .. {:+.0})",
            100.0 * score,
            elo(score),
            lo,
            hi
        );
    }
    let reasons: Vec<String> = reasons.iter().map(|(r, c)| format!("{r} {c}")).collect();
    println!("endings: {}", reasons.join(", "));
    println!("{}", stats_a.line("A", o.a));
    println!("{}", stats_b.line("B", o.b));
}
