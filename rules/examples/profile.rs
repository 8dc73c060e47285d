//! A small driver for instruction counts (`valgrind --tool=callgrind`), which stay the same whatever else the
//! machine runs, unlike wall-clock benchmarks. It replays the positions of `tests/data/forbidden.jsonl`:
//!
//! ```text
//! cargo build --release -p rules --example profile
//! valgrind --tool=callgrind target/release/examples/profile MODE ROUNDS
//! ```
//! MODE is `replay` (every game stone by stone into a kept forbidden set, from a fresh set), `whole` (every
//! position's board from its moves, then its forbidden points), `fresh` (fresh sets only), `undo` (every game
//! replayed into a kept set, then taken back stone by stone), `game` (every game replayed with `Game::apply`
//! and taken back with `Game::undo`) or `step` (the search step of the benchmarks: in every position of 12 to
//! 60 stones, its last stone applied to the game and to a kept set, and both taken back, ten times a round).
//! It prints a checksum so that the work is not optimised away.

use std::hint::black_box;

use rules::{renju, Action, Board, Color, ForbiddenPolicy, Game, Point, Rules};

fn positions() -> Vec<Vec<Option<Point>>> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/forbidden.jsonl"
    ))
    .expect("the vector file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            // The move list is the only array of strings after `"moves": `; read it without a JSON parser.
            let start = l.find("\"moves\": [").expect("a move list") + 10;
            let end = start + l[start..].find(']').expect("end of the move list");
            l[start..end]
                .split(',')
                .map(|m| m.trim().trim_matches('"'))
                .filter(|m| !m.is_empty())
                .map(|m| (m != "pass").then(|| m.parse().expect("a point")))
                .collect()
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str).unwrap_or("replay");
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1);
    rules::warm_up();
    let all = positions();
    let mut n = 0usize;
    if mode == "step" {
        let mut cases: Vec<(Game, renju::ForbiddenSet, Point, Color)> = all
            .iter()
            .filter(|m| m.iter().all(Option::is_some) && (13..=61).contains(&m.len()))
            .filter_map(|moves| {
                let moves: Vec<Point> = moves.iter().flatten().copied().collect();
                let (last, before) = moves.split_last()?;
                let actions: Vec<Action> = before.iter().map(|&p| Action::place(p)).collect();
                let g = Game::from_actions(Rules::renju(ForbiddenPolicy::Claim), &actions).ok()?;
                let mut after = g.clone();
                after.apply(Action::place(*last)).ok()?;
                if after.status().is_over() {
                    return None;
                }
                let color = g.to_act()?;
                let set = renju::ForbiddenSet::new(g.board().clone());
                Some((g, set, *last, color))
            })
            .collect();
        for _ in 0..rounds * 10 {
            for (g, set, p, color) in cases.iter_mut() {
                g.apply(Action::place(*p)).expect("a legal move");
                set.place(*p, *color);
                n += set.kind_at(*p).is_some() as usize;
                g.undo();
                set.remove(*p);
            }
        }
        println!("step x{rounds}: {} cases, checksum {n}", cases.len());
        return;
    }
    for _ in 0..rounds {
        for moves in &all {
            match mode {
                "fresh" => {
                    let set = renju::ForbiddenSet::new(Board::new(black_box(15)));
                    // The set must be written out: its answers are otherwise known at compile time.
                    black_box(&set);
                    n += set.kind_at(Point::centre(15)).is_some() as usize;
                }
                "whole" => {
                    let mut b = Board::new(15);
                    let mut c = Color::Black;
                    for p in moves {
                        if let Some(p) = p {
                            b.place(*p, c);
                        }
                        c = c.opposite();
                    }
                    n += renju::forbidden_points(black_box(&b)).len();
                }
                "replay" | "undo" => {
                    let mut set = renju::ForbiddenSet::new(Board::new(15));
                    let mut c = Color::Black;
                    for p in moves {
                        if let Some(p) = p {
                            set.place(*p, c);
                            n += set.kind_at(*p).is_some() as usize;
                        }
                        c = c.opposite();
                    }
                    if mode == "undo" {
                        for p in moves.iter().rev().flatten() {
                            set.remove(*p);
                            n += set.kind_at(*p).is_some() as usize;
                        }
                    }
                }
                _ => {
                    if moves.iter().any(Option::is_none) {
                        continue;
                    }
                    let mut g = Game::new(Rules::renju(ForbiddenPolicy::Claim));
                    for p in moves.iter().flatten() {
                        if g.apply(Action::place(*p)).is_err() {
                            break;
                        }
                    }
                    n += g.ply();
                    while g.undo().is_some() {}
                }
            }
        }
    }
    println!("{mode} x{rounds}: checksum {n}");
}
