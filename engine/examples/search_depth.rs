//! Depth and speed of the main search on a fixed set of middle-game positions (issue #39): for each position,
//! our level 8 thinks once at a node budget (its time cap lifted, so the budget binds however loaded the
//! machine is), with the search techniques given, and the depth it completed, its nodes, time and nodes per
//! second are printed, then the totals.
//!
//! ```text
//! cargo run --release -p engine --example search_depth -- [NODES] [SWITCHES] [--board]
//! cargo run --release -p engine --example search_depth -- 200000 base       # the search before issue #39
//! cargo run --release -p engine --example search_depth -- 200000 all
//! cargo run --release -p engine --example search_depth -- ms:1000 all       # a second a position instead
//! cargo run --release -p engine --example search_depth -- 0 all --board     # the positions as Piskvork BOARD
//! ```
//!
//! SWITCHES are the `match` harness's (`base`, `all`, `+NAME`, `-NAME`, comma-separated). The positions are
//! seeded random play near the stones (a fixed LCG), 14, 18 and 22 stones under freestyle and renju, the first
//! two of each where neither side has a five or a flex four to play nor a VCF of up to 16 fours or a VCT of 3 threats: twelve
//! positions, always the same.
//! `--board` prints each as the `BOARD` command the side to move would get, for running an external brain
//! (Rapfi) on exactly these positions.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::position::{cell, class};
use engine::search::{Budget, SearchOptions};
use engine::threat::Threats;
use engine::{piskvork, Engine, Limits, Position, TimeBudget};
use rules::{Action, Color, ForbiddenPolicy, Game, Rules};

/// The fixed positions, named by rule set, stones and seed.
fn positions() -> Vec<(String, Game)> {
    let mut out = Vec::new();
    for (name, rules) in [
        ("freestyle", Rules::freestyle()),
        ("renju", Rules::renju(ForbiddenPolicy::Reject)),
    ] {
        for stones in [14usize, 18, 22] {
            let mut found = 0;
            let mut seed = 1u64;
            while found < 2 {
                if let Some(game) = random_game(&rules, stones, seed) {
                    out.push((format!("{name}-{stones}-s{seed}"), game));
                    found += 1;
                }
                seed += 1;
            }
        }
    }
    out
}

fn random_game(rules: &Rules, stones: usize, seed: u64) -> Option<Game> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    };
    let mut game = Game::new(*rules);
    let mut pos = Position::new(rules);
    while game.ply() < stones {
        let c = pos.to_move();
        // Near the stones, and favouring shapes: the best third of the candidates by both colours' values.
        let mut moves: Vec<(i32, usize)> = pos
            .candidates()
            .filter(|&i| pos.playable(c, i))
            .map(|i| (-(pos.value(c, i) + pos.value(c.opposite(), i)), i))
            .collect();
        moves.sort_unstable();
        moves.truncate(moves.len().div_ceil(3).max(1));
        let m = moves[next(moves.len())].1;
        if pos.class(c, m) >= class::B4 {
            return None;
        }
        let p = engine::position::point(m);
        game.apply(Action::place(p)).ok()?;
        pos.place(cell(p), c);
    }
    // Quiet: no flex four or five to play, and no win by fours for either side (a VCF search of 16 fours).
    let cancel = AtomicBool::new(false);
    let mut threats = Threats::new();
    let quiet = [Color::Black, Color::White].iter().all(|&c| {
        let mut budget = Budget::new(200_000, None, &cancel);
        pos.count_at_least(c, class::F4) == 0
            && threats.vcf(&mut pos, c, 16, &mut budget).is_none()
            && threats.vct(&mut pos, c, 3, 12, &mut budget).is_none()
    });
    quiet.then_some(game)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // NODES, or `ms:T` for a time limit of T milliseconds a position instead (for comparing speed with an
    // external brain given the same time).
    let budget = args.first().map_or("200000", String::as_str);
    let (nodes, time) = match budget.strip_prefix("ms:") {
        Some(ms) => (None, Duration::from_millis(ms.parse().expect("ms:T"))),
        None => (
            Some(budget.parse::<u64>().expect("a node count")),
            Duration::from_secs(600),
        ),
    };
    let switches = args.get(1).map_or("default", String::as_str);
    let mut options = SearchOptions::DEFAULT;
    for word in switches.split(',') {
        match word {
            "base" => options = SearchOptions::BASELINE,
            "all" => options = SearchOptions::ALL,
            "default" => options = SearchOptions::DEFAULT,
            _ => {
                let (name, on) = match word.strip_prefix('-') {
                    Some(name) => (name, false),
                    None => (word.strip_prefix('+').unwrap_or(word), true),
                };
                assert!(options.set(name, on), "unknown switch {word:?}");
            }
        }
    }
    let board = args.iter().any(|a| a == "--board");
    // The lines go to a pipe that may close early (`| head`): stop quietly then.
    let mut out = std::io::stdout().lock();
    let (mut total_nodes, mut total_secs, mut total_depth) = (0u64, 0f64, 0i64);
    let list = positions();
    for (name, game) in &list {
        if board {
            let to_move = game.to_act().expect("the game is on");
            println!(
                "# {name}\nINFO rule {}",
                piskvork::rule_code(game.rules().rule_set())
            );
            println!("{}", piskvork::board_command(game, to_move));
            continue;
        }
        let limits = Limits {
            level: 8,
            max_nodes: nodes,
            max_time: Some(time),
        };
        let mut engine = Engine::new(limits, 1);
        engine.set_search_options(options);
        let start = Instant::now();
        let d = engine
            .think(game, &TimeBudget::Unlimited, &AtomicBool::new(false))
            .expect("the game is on");
        let secs = start.elapsed().as_secs_f64();
        total_nodes += d.nodes;
        total_secs += secs;
        total_depth += i64::from(d.depth);
        let _ = writeln!(
            out,
            "{name:<20} depth {:>2}  nodes {:>8}  {:>7.3} s  {:>8.0} nodes/s  score {:>7}  move {:?}",
            d.depth,
            d.nodes,
            secs,
            d.nodes as f64 / secs,
            d.score,
            d.action
        );
    }
    if !board {
        let _ = writeln!(
            out,
            "total ({switches}, {budget} a position): mean depth {:.2}, {} nodes in {:.2} s, {:.0} nodes/s",
            total_depth as f64 / list.len() as f64,
            total_nodes,
            total_secs,
            total_nodes as f64 / total_secs
        );
    }
}
