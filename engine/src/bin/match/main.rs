//! `match`: level against level, from balanced openings with colours both ways, reporting wins, losses, draws,
//! the score and the Elo difference with its 95% interval.
//!
//! `match --a 5 --b 4 --games 20 --ms 100 [--scale F] [--rules R] [--seed 1]`, R one of `freestyle`, `standard`,
//! `renju`, `standard-swap`, `renju-swap` (swap after three: the player holding white decides, after the
//! opening's three stones):
//! `--games` openings are each played twice (a as black, then b as black); `--ms` caps each move (a level's own
//! cap applies when it is shorter), or `--scale F` gives each level F times its own cap (so that the levels keep
//! their ratios of time at a shorter pace).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::{Engine, Level, Limits, TimeBudget};
use rules::{Action, Color, ForbiddenPolicy, Game, Opening, Point, Rules, Status};

struct Args {
    a: u8,
    b: u8,
    games: u32,
    ms: u64,
    scale: Option<f64>,
    rules: Rules,
    seed: u64,
}

fn args() -> Result<Args, String> {
    let mut out = Args {
        a: 2,
        b: 1,
        games: 10,
        ms: 100,
        scale: None,
        rules: Rules::freestyle(),
        seed: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_| format!("{flag}: bad value {value:?}");
        match flag.as_str() {
            "--a" => out.a = value.parse().map_err(bad)?,
            "--b" => out.b = value.parse().map_err(bad)?,
            "--games" => out.games = value.parse().map_err(bad)?,
            "--ms" => out.ms = value.parse().map_err(bad)?,
            "--seed" => out.seed = value.parse().map_err(bad)?,
            "--scale" => {
                out.scale = Some(
                    value
                        .parse()
                        .map_err(|_| format!("{flag}: bad value {value:?}"))?,
                )
            }
            "--rules" => {
                out.rules = match value.as_str() {
                    "freestyle" => Rules::freestyle(),
                    "standard" => Rules::standard(),
                    "renju" => Rules::renju(ForbiddenPolicy::Reject),
                    "renju-swap" => {
                        Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::SwapAfterThree)
                    }
                    "standard-swap" => Rules::standard().with_opening(Opening::SwapAfterThree),
                    _ => return Err(format!("unknown rules {value:?}")),
                }
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(out)
}

/// A balanced-ish opening: the centre and two stones within two of it, from a seeded stream.
fn opening(rules: Rules, seed: u64) -> Game {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut game = Game::new(rules);
    let c = Point::centre(rules.size());
    game.apply(Action::place(c)).expect("the centre is free");
    while game.ply() < 3 {
        let dx = next(5) as i32 - 2;
        let dy = next(5) as i32 - 2;
        if let Some(p) = c.offset(dx, dy, rules.size()) {
            // An occupied point is refused; the next draw tries again.
            let _ = game.apply(Action::place(p));
        }
    }
    game
}

/// Plays one game from `game` between the player who holds black at the start (`first`) and the other; returns
/// the winner (0 first, 1 second), if any. Under swap-after-three the colours the players hold can change.
fn play(mut game: Game, first: &mut Engine, second: &mut Engine) -> Option<usize> {
    let cancel = AtomicBool::new(false);
    let holder = |game: &Game, colour: Color| {
        usize::from((colour == Color::White) != game.colours_swapped())
    };
    loop {
        match game.status() {
            Status::Won { winner, .. } => {
                if std::env::var_os("MATCH_VERBOSE").is_some() {
                    eprintln!("{} plies, {winner} wins\n{:?}", game.ply(), game.board());
                }
                return Some(holder(&game, winner));
            }
            Status::Drawn => return None,
            Status::Ongoing { to_act, .. } => {
                let engine = if holder(&game, to_act) == 0 {
                    &mut *first
                } else {
                    &mut *second
                };
                let d = engine
                    .think(&game, &TimeBudget::Unlimited, &cancel)
                    .expect("the game is on");
                game.apply(d.action)
                    .expect("the engine plays legal actions");
            }
        }
    }
}

fn elo(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn main() {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("match: {e}");
            std::process::exit(2);
        }
    };
    let limits = |level: u8| {
        let cap = Level::new(level).time_cap;
        Limits {
            level,
            max_nodes: None,
            max_time: Some(match args.scale {
                Some(f) => cap.mul_f64(f),
                None => Duration::from_millis(args.ms).min(cap),
            }),
        }
    };
    let (mut wins, mut losses, mut draws) = (0u32, 0u32, 0u32);
    let mut scores = Vec::new();
    for g in 0..args.games {
        let start = opening(args.rules, args.seed.wrapping_add(u64::from(g)));
        for a_is_black in [true, false] {
            let seed = args.seed ^ (u64::from(g) << 1 | u64::from(a_is_black));
            let mut a = Engine::new(limits(args.a), seed);
            let mut b = Engine::new(limits(args.b), seed.rotate_left(17));
            let winner = if a_is_black {
                play(start.clone(), &mut a, &mut b)
            } else {
                play(start.clone(), &mut b, &mut a)
            };
            let a_index = if a_is_black { 0 } else { 1 };
            let s = match winner {
                Some(w) if w == a_index => {
                    wins += 1;
                    1.0
                }
                Some(_) => {
                    losses += 1;
                    0.0
                }
                None => {
                    draws += 1;
                    0.5
                }
            };
            scores.push(s);
        }
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    let se = (var / n).sqrt();
    let (lo, hi) = (elo(mean - 1.96 * se), elo(mean + 1.96 * se));
    println!(
        "level {} vs level {}: +{wins} -{losses} ={draws}  score {:.1}%  Elo {:+.0} [{:+.0}, {:+.0}]",
        args.a,
        args.b,
        mean * 100.0,
        elo(mean),
        lo,
        hi
    );
}
