//! `match`: N games between two players, each one of our levels or an external Piskvork brain, from the 26
//! canonical renju openings with colours both ways; reports wins, losses, draws, the score, the Elo difference
//! with its 95% interval, moves per second, timeouts and illegal moves, as text or (`--json`) one JSON object.
//!
//! ```text
//! match --a 5 --b 4 --games 20 --ms 100 [--scale F] [--rules R] [--seed 1] [--threads N] [--json]
//! match --a 3 --b "cmd:target/release/pbrain-gomoku --level 3" --rules renju --ms 200
//! ```
//!
//! - A player is `K` or `level:K` (our engine at level 1–8, through `Engine::think` in this process) or
//!   `cmd:COMMAND LINE` (a Piskvork brain, one process per game; the line is split at white space).
//! - `--games N` openings, each played twice (a as black, then b as black): 2N games. Opening `g` is canonical
//!   opening `g mod 26`, turned by a symmetry the seed chooses (`openings.rs` says why they suit every rule set).
//! - `--ms` caps each move (a level's own cap applies when shorter; a brain gets it as `INFO timeout_turn` and a
//!   second of grace), or `--scale F` gives each level F times its own cap (so that the levels keep their ratios
//!   of time at a shorter pace; brains keep `--ms`).
//! - `--rules` is `freestyle`, `standard`, `renju`, or `standard-swap` / `renju-swap` (swap after three: the player
//!   holding white decides after the opening's three stones; levels only, as the Piskvork protocol has no swap).
//! - A player that does not answer in time loses the game and the loss counts as a timeout; one that answers
//!   garbage, plays an illegal move or whose process dies loses it too, counted as illegal.
//! - `K/SWITCHES` is level K with main-search techniques switched (`8/base` is the search before issue #39,
//!   `8/base,+lmr` that with late-move reductions), and `--nodes N` gives every level a budget of N nodes a move
//!   with its time cap lifted to a minute: such a match measures what a technique buys at equal nodes, and the
//!   same seed gives the same games on any machine, however loaded. `--memory MB` is what an external brain is
//!   told it may use (`INFO max_memory`, 256 MiB by default).
//! - `--threads N` plays N games at once; the results are summed in game order, so they do not depend on which
//!   game finished first (time-limited searches still depend on the machine's load).
//!
//! Exit status 2 for bad flags (with the reason on stderr), 0 otherwise. `MATCH_VERBOSE=1` prints each game's
//! end on stderr.

mod args;
mod brain;
mod openings;
mod report;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use args::{Args, Command, Player};
use brain::{Brain, Failure};
use engine::{Engine, Limits, TimeBudget};
use report::{GameResult, Totals};
use rules::{Action, Color, Game, Status};

/// One player seated in one game.
enum Seat {
    /// Our engine.
    Engine(Box<Engine>),
    /// An external brain.
    Brain(Brain),
}

impl Seat {
    fn new(player: &Player, args: &Args, seed: u64) -> Seat {
        let time = args.move_time(player);
        match player {
            Player::Level(level) | Player::Tuned(level, ..) => {
                let mut engine = Engine::new(
                    Limits {
                        level: *level,
                        max_nodes: args.nodes,
                        max_time: Some(time),
                    },
                    seed,
                );
                if let Player::Tuned(_, options, _) = player {
                    engine.set_search_options(*options);
                }
                Seat::Engine(Box::new(engine))
            }
            Player::Command(words) => Seat::Brain(Brain::new(words.clone(), time, args.memory)),
        }
    }

    /// The player's next action in `game`, one the rules accept.
    fn act(&mut self, game: &Game) -> Result<Action, Failure> {
        match self {
            Seat::Engine(engine) => {
                let cancel = AtomicBool::new(false);
                let d = engine
                    .think(game, &TimeBudget::Unlimited, &cancel)
                    .map_err(|e| Failure::Illegal(format!("the engine could not move: {e}")))?;
                game.check(d.action).map_err(|e| {
                    Failure::Illegal(format!("the engine chose {:?}: {e}", d.action))
                })?;
                Ok(d.action)
            }
            Seat::Brain(brain) => brain.act(game),
        }
    }
}

/// Plays game `index` of the match: opening `index / 2`, with `a` holding black first when `index` is even.
fn play_game(args: &Args, index: usize) -> GameResult {
    let opening_index = (index / 2) as u32;
    let a_is_black = index.is_multiple_of(2);
    let opening = openings::opening(args.rules, opening_index, args.seed);
    let seed = args.seed ^ (u64::from(opening_index) << 1 | u64::from(a_is_black));
    let mut seats = [
        Seat::new(&args.a, args, seed),
        Seat::new(&args.b, args, seed.rotate_left(17)),
    ];
    // Which of a (0) and b (1) holds `colour` now: a holds black at the start of even games, and a swap after
    // three exchanges the holders.
    let holder = |game: &Game, colour: Color| {
        let black = if a_is_black { 0 } else { 1 };
        let swapped = game.colours_swapped();
        if (colour == Color::Black) != swapped {
            black
        } else {
            1 - black
        }
    };
    let mut game = opening.game;
    let mut result = GameResult::default();
    let winner = loop {
        match game.status() {
            Status::Won { winner, .. } => break Some(holder(&game, winner)),
            Status::Drawn => break None,
            Status::Ongoing { to_act, .. } => {
                let who = holder(&game, to_act);
                let outcome = seats[who].act(&game).and_then(|action| {
                    game.apply(action)
                        .map_err(|e| Failure::Illegal(e.to_string()))
                });
                match outcome {
                    Ok(_) => result.moves[who] += 1,
                    Err(failure) => {
                        let player = if who == 0 { &args.a } else { &args.b };
                        eprintln!(
                            "match: game {} ({}): {} {failure}; it loses",
                            index + 1,
                            opening.canonical.code,
                            player.label()
                        );
                        if failure.is_timeout() {
                            result.timeouts[who] += 1;
                        } else {
                            result.illegal[who] += 1;
                        }
                        break Some(1 - who);
                    }
                }
            }
        }
    };
    result.winner = winner;
    result.plies = game.ply();
    if std::env::var_os("MATCH_VERBOSE").is_some() {
        let how = match winner {
            Some(0) => "a wins",
            Some(_) => "b wins",
            None => "drawn",
        };
        eprintln!(
            "game {}: {} {:?}, a {}, {} plies, {how}\n{:?}",
            index + 1,
            opening.canonical.code,
            opening.symmetry,
            if a_is_black { "black" } else { "white" },
            game.ply(),
            game.board()
        );
    }
    result
}

/// Plays every game of the match on `args.threads` threads and returns the results in game order.
fn play_all(args: &Args) -> Vec<GameResult> {
    let total = args.games as usize * 2;
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel();
    std::thread::scope(|scope| {
        for _ in 0..args.threads.min(total) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= total {
                    break;
                }
                if tx.send((index, play_game(args, index))).is_err() {
                    break;
                }
            });
        }
    });
    drop(tx);
    let mut results = vec![None; total];
    for (index, result) in rx {
        results[index] = Some(result);
    }
    results
        .into_iter()
        .map(|r| r.expect("every game was played"))
        .collect()
}

fn main() {
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(Command::Play(a)) => a,
        Ok(Command::Help) => {
            println!("{}", args::USAGE);
            return;
        }
        Err(e) => {
            eprintln!("match: {e}\n{}", args::USAGE);
            std::process::exit(2);
        }
    };
    for player in [&args.a, &args.b] {
        if let Player::Command(words) = player {
            if let Err(e) = brain::probe(words) {
                eprintln!("match: cannot start {}: {e}", player.label());
                std::process::exit(2);
            }
        }
    }
    let start = Instant::now();
    let results = play_all(&args);
    let wall: Duration = start.elapsed();
    let totals = Totals::sum(&results);
    if args.json {
        println!("{}", report::json(&args, &totals, wall));
    } else {
        println!("{}", report::text(&args, &totals, wall));
    }
}
