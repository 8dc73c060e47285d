//! `draughts-match`: international draughts, two players against each other, each one of our levels or an
//! outside Hub engine (Scan's protocol, `hub_engine.rs`):
//!
//! ```text
//! draughts-match A B [GAMES] [PERMILLE] [SEED] [--ms T] [--json]
//! draughts-match 6 5 100 100 1
//! draughts-match 3 "cmd:target/release/hub-draughts --level 3" 20 100 1 --ms 300
//! ```
//!
//! A player is `K` or `level:K` (our engine at level 1–8, in this process) or `cmd:COMMAND LINE` (a Hub engine,
//! one process per game; the line is split at white space). GAMES games (default 40) from seeded random openings
//! of two plies (a first move for each side, drawn from the initial position's 9 and the reply's 9: balanced, as
//! every first move is), each opening twice with the colours swapped; a level gets PERMILLE thousandths (default
//! 100) of its own time cap a move, an outside engine `--ms` (default 1,000) as `level move-time` and a second
//! of grace. A game still running after 400 plies counts as a draw (none has so far: the rules' draws end them).
//! An outside engine that does not answer in time loses the game (a timeout); one that answers garbage or an
//! illegal move, or whose process dies, loses it too (illegal). Prints A's wins, losses and draws, its score,
//! the Elo difference with its 95% interval and each side's longest move, or (`--json`) one JSON object.
//! Exit status 2 for bad arguments.

mod hub_engine;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::draughts::{Engine, Level};
use hub_engine::{Failure, HubEngine};
use rules::draughts::{Game, Move, Status};
use rules::Color;

/// Plies after which a game is called a draw.
const MAX_PLIES: usize = 400;

/// One side of the match.
#[derive(Clone, Debug)]
enum Player {
    Level(Level),
    Command(Vec<String>),
}

impl Player {
    fn parse(spec: &str) -> Result<Player, String> {
        if let Some(line) = spec.strip_prefix("cmd:") {
            let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
            if words.is_empty() {
                return Err(format!("{spec:?}: `cmd:` needs a command line"));
            }
            return Ok(Player::Command(words));
        }
        spec.strip_prefix("level:")
            .unwrap_or(spec)
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .map(Player::Level)
            .ok_or(format!(
                "{spec:?}: a player is 1-8, level:K or cmd:COMMAND LINE"
            ))
    }

    fn label(&self) -> String {
        match self {
            Player::Level(l) => format!("level {}", l.number()),
            Player::Command(words) => format!("`{}`", words.join(" ")),
        }
    }
}

/// A player seated in one game.
enum Seat {
    Engine(Box<Engine>, Level, Duration),
    Hub(HubEngine),
}

impl Seat {
    fn act(&mut self, game: &Game, cancel: &AtomicBool) -> Result<Move, Failure> {
        match self {
            Seat::Engine(engine, level, budget) => engine
                .choose(game, *level, *budget, cancel)
                .ok_or(Failure::Illegal("no move while the game runs".into())),
            Seat::Hub(hub) => hub.act(game),
        }
    }
}

struct Args {
    a: Player,
    b: Player,
    games: usize,
    permille: u32,
    seed: u64,
    ms: u64,
    json: bool,
}

fn parse_args(words: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut positional = Vec::new();
    let (mut ms, mut json) = (1_000u64, false);
    let mut words = words;
    while let Some(w) = words.next() {
        match w.as_str() {
            "--json" => json = true,
            "--ms" => {
                ms = words
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&v| v > 0)
                    .ok_or("--ms needs a positive number of milliseconds")?;
            }
            _ if w.starts_with("--") => return Err(format!("unknown flag {w}")),
            _ => positional.push(w),
        }
    }
    let number = |i: usize, default: u64| -> Result<u64, String> {
        positional.get(i).map_or(Ok(default), |v| {
            v.parse().map_err(|_| format!("{v:?} is not a number"))
        })
    };
    let player = |i: usize| Player::parse(positional.get(i).map_or("1", String::as_str));
    let games = number(2, 40)? as usize;
    if games == 0 {
        return Err("GAMES must be at least 1".into());
    }
    Ok(Args {
        a: player(0)?,
        b: player(1)?,
        games,
        permille: number(3, 100)?.clamp(1, 100_000) as u32,
        seed: number(4, 1)?,
        ms,
        json,
    })
}

fn main() {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("draughts-match: {e}\nusage: draughts-match A B [GAMES] [PERMILLE] [SEED] [--ms T] [--json]");
            std::process::exit(2);
        }
    };
    for p in [&args.a, &args.b] {
        if let Player::Command(words) = p {
            if let Err(e) = hub_engine::probe(words) {
                eprintln!("draughts-match: cannot start {}: {e}", p.label());
                std::process::exit(2);
            }
        }
    }
    let budget = |p: &Player| match p {
        Player::Level(l) => l.settings().time * args.permille / 1000,
        Player::Command(_) => Duration::from_millis(args.ms),
    };
    let seat = |p: &Player, seed: u64| match p {
        Player::Level(l) => Seat::Engine(Box::new(Engine::new(seed)), *l, budget(p)),
        Player::Command(words) => Seat::Hub(HubEngine::new(words.clone(), budget(p))),
    };
    let seed = args.seed;
    let cancel = AtomicBool::new(false);
    let start = Instant::now();
    let (mut wins, mut losses, mut draws, mut capped) = (0, 0, 0, 0);
    let (mut timeouts, mut illegal) = ([0u32; 2], [0u32; 2]);
    let mut longest = [Duration::ZERO; 2];
    let mut plies = 0;
    let mut scores = Vec::new();
    let mut rng = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
    let mut opening = Vec::new();
    for game_no in 0..args.games {
        if game_no % 2 == 0 {
            opening = random_opening(&mut rng, 2);
        }
        // A is White in even games, Black in odd ones.
        let a_colour = if game_no % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut seats = [
            seat(&args.a, seed ^ game_no as u64),
            seat(&args.b, !seed ^ game_no as u64),
        ];
        let mut game = Game::new();
        for mv in &opening {
            game.play(mv).expect("an opening move");
        }
        let mut forfeit = None;
        while !game.status().is_over() && game.moves().len() < MAX_PLIES {
            let k = usize::from(game.position().turn() != a_colour);
            let t = Instant::now();
            let played = seats[k].act(&game, &cancel).and_then(|mv| {
                game.play(&mv)
                    .map_err(|e| Failure::Illegal(e.code().to_owned()))
            });
            longest[k] = longest[k].max(t.elapsed());
            if let Err(failure) = played {
                let who = if k == 0 { &args.a } else { &args.b };
                eprintln!(
                    "draughts-match: game {}: {} {failure}; it loses",
                    game_no + 1,
                    who.label()
                );
                if failure == Failure::Silent {
                    timeouts[k] += 1;
                } else {
                    illegal[k] += 1;
                }
                forfeit = Some(k);
                break;
            }
        }
        plies += game.moves().len();
        let points = match (forfeit, game.status()) {
            (Some(0), _) => {
                losses += 1;
                0.0
            }
            (Some(_), _) => {
                wins += 1;
                1.0
            }
            (None, Status::Won { winner, .. }) if winner == a_colour => {
                wins += 1;
                1.0
            }
            (None, Status::Won { .. }) => {
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
    if args.json {
        println!(
            "{{\"a\":{:?},\"b\":{:?},\"games\":{},\"wins\":{wins},\"losses\":{losses},\"draws\":{draws},\"capped\":{capped},\"score\":{mean:.4},\"elo\":{:.1},\"elo_low\":{:.1},\"elo_high\":{:.1},\"plies\":{plies},\"timeouts_a\":{},\"timeouts_b\":{},\"illegal_a\":{},\"illegal_b\":{},\"longest_ms_a\":{},\"longest_ms_b\":{}}}",
            args.a.label(),
            args.b.label(),
            args.games,
            elo(mean),
            elo(mean - 1.96 * se),
            elo(mean + 1.96 * se),
            timeouts[0],
            timeouts[1],
            illegal[0],
            illegal[1],
            longest[0].as_millis(),
            longest[1].as_millis(),
        );
        return;
    }
    println!(
        "{} vs {}: {} games, {} and {} ms/move: +{wins} -{losses} ={draws} ({capped} at {MAX_PLIES} plies), score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}], {:.0} plies/game, timeouts {}/{}, illegal {}/{}, longest move {} and {} ms, {:.0} s",
        args.a.label(),
        args.b.label(),
        args.games,
        budget(&args.a).as_millis(),
        budget(&args.b).as_millis(),
        mean * 100.0,
        elo(mean),
        elo(mean - 1.96 * se),
        elo(mean + 1.96 * se),
        plies as f64 / n,
        timeouts[0],
        timeouts[1],
        illegal[0],
        illegal[1],
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
