//! The insect chess computer (`engine::insect`): legal moves at every level, food wins taken, food threats
//! parried, forced wins scored as wins, the draw rules used, and the cancel flag obeyed.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::insect::{Engine, Level, Report, DRAW, MATE};
use rules::insect::{Game, Move, Position, Side, Square};

const BUDGET: Duration = Duration::from_millis(200);

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn think(game: &Game, level: Level) -> Report {
    let mut engine = Engine::new(u64::from(level.level));
    engine
        .think(game, level, BUDGET, &AtomicBool::new(false))
        .expect("an ongoing game has a move")
}

/// SplitMix64 for the seeded random games.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Games reached by seeded random playouts of 0–`max` plies, still ongoing.
fn random_games(seed: u64, count: usize, max: u64) -> Vec<Game> {
    let mut state = seed;
    let mut games = Vec::new();
    while games.len() < count {
        let mut game = Game::new();
        let plies = next(&mut state) % (max + 1);
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            game.apply(legal[(next(&mut state) % legal.len() as u64) as usize])
                .unwrap();
        }
        if !game.status().is_over() {
            games.push(game);
        }
    }
    games
}

/// The square of the food of the side that is not `side` (the one `side` attacks).
fn enemy_food(side: Side) -> Square {
    match side {
        Side::South => "d11".parse().unwrap(),
        Side::North => "d1".parse().unwrap(),
    }
}

/// Whether the side to move can step onto the enemy's food.
fn food_win(position: &Position) -> bool {
    let food = enemy_food(position.turn());
    position.legal_moves().iter().any(|m| m.to() == food)
}

#[test]
fn every_level_returns_a_legal_move_on_random_positions() {
    for game in random_games(1, 40, 120) {
        for level in Level::all() {
            let report = think(&game, level);
            assert!(
                game.legal_moves().contains(&report.best),
                "level {} played {} in {}",
                level.level,
                report.best,
                game.position()
            );
            assert_eq!(report.pv.first(), Some(&report.best));
            // The principal variation is a line the rules accept (it may stop where the game ends).
            let mut line = game.clone();
            for &m in &report.pv {
                line.apply(m)
                    .unwrap_or_else(|e| panic!("{m} in {:?}: {e}", report.pv));
            }
        }
    }
}

#[test]
fn every_level_takes_a_free_food() {
    // South's scorpion stands in north's mud next to north's food, with north's centipede next to it.
    let game = Game::from_placement("2S4/2c4/7/7/7/7/7/7/7/7/6L s").unwrap();
    for level in Level::all() {
        let report = think(&game, level);
        assert_eq!(report.best, mv("c11-d11"), "level {}", level.level);
        assert_eq!(report.mate_in(), Some(1));
    }
    // The same for north, with its diving beetle's capture of south's scorpion on offer too.
    let game = Game::from_placement("l6/7/7/7/7/7/7/S6/d6/7/2w4 n").unwrap();
    for level in Level::all() {
        assert_eq!(
            think(&game, level).best,
            mv("c1-d1"),
            "level {}",
            level.level
        );
    }
}

#[test]
fn every_level_stops_an_enemy_one_step_from_its_food() {
    // North's scorpion stands in south's mud at d2; only south's wasp can reach it, and may take it (an enemy
    // in one's own mud has no strength). South's centipede could take north's wolf spider instead.
    let game = Game::from_placement("7/7/7/7/l6/C6/7/7/7/3sW2/7 s").unwrap();
    for level in Level::all() {
        assert_eq!(
            think(&game, level).best,
            mv("e2-d2"),
            "level {}",
            level.level
        );
    }
    // South's wasp stands in north's mud at e11; north's diving beetle takes it there (by the mud rule), rather
    // than north's scorpion taking south's centipede.
    let game = Game::from_placement("4Wd1/7/7/7/7/7/C6/s6/7/7/6L n").unwrap();
    for level in Level::all() {
        assert_eq!(
            think(&game, level).best,
            mv("f11-e11"),
            "level {}",
            level.level
        );
    }
}

/// Every move that leaves the opponent no step onto our food, when there is one.
fn parries(game: &Game) -> Vec<Move> {
    let mut parries = Vec::new();
    for m in game.legal_moves() {
        let mut after = game.clone();
        after.apply(m).unwrap();
        if after.status().is_over() || !food_win(after.position()) {
            parries.push(m);
        }
    }
    parries
}

#[test]
fn a_food_win_is_always_taken_and_a_food_threat_always_parried_on_random_positions() {
    let (mut wins, mut threats) = (0, 0);
    let mut state = 5u64;
    for _ in 0..400 {
        let mut game = Game::new();
        for _ in 0..200 {
            if game.status().is_over() {
                break;
            }
            let position = *game.position();
            let legal = game.legal_moves();
            let parries = parries(&game);
            // Only a piece next to our food can take it, and our move cannot move it: a move that lets the
            // opponent take the food means that it stands there now.
            let threatened = parries.len() < legal.len();
            if food_win(&position) || threatened {
                let level = Level::new((next(&mut state) % u64::from(Level::MAX)) as u8 + 1);
                let best = think(&game, level).best;
                if food_win(&position) {
                    wins += 1;
                    assert_eq!(
                        best.to(),
                        enemy_food(position.turn()),
                        "level {}: {position}",
                        level.level
                    );
                } else if !parries.is_empty() {
                    threats += 1;
                    assert!(
                        parries.contains(&best),
                        "level {}: {best} in {position}",
                        level.level
                    );
                }
            }
            let legal = game.legal_moves();
            game.apply(legal[(next(&mut state) % legal.len() as u64) as usize])
                .unwrap();
        }
    }
    assert!(
        wins > 20 && threats > 20,
        "{wins} wins, {threats} threats seen"
    );
}

#[test]
fn a_forced_food_win_in_three_plies_scores_as_a_win() {
    // South's scorpion steps into north's mud at d10; no north piece can reach it, so it takes the food next.
    let game = Game::from_placement("7/7/3S3/7/7/7/7/7/6s/c6/7 s").unwrap();
    for level in Level::all() {
        let report = think(&game, level);
        assert_eq!(report.best, mv("d9-d10"), "level {}", level.level);
        assert_eq!(report.score, MATE - 3, "level {}", level.level);
        assert_eq!(report.mate_in(), Some(3));
        assert_eq!(report.pv.len(), 3, "{:?}", report.pv);
    }
}

/// A game from `placement` with `moves` played: the pieces shuffle back and forth.
fn shuffled(placement: &str, moves: &[&str]) -> Game {
    let mut game = Game::from_placement(placement).unwrap();
    for m in moves {
        game.apply(mv(m)).unwrap();
    }
    game
}

#[test]
fn the_side_behind_takes_a_drawing_repetition() {
    // South has a tiger beetle against north's scorpion, centipede and wolf spider; a4-a3 makes the start
    // position stand for the third time.
    let game = shuffled(
        "7/7/4lcs/7/7/7/7/7/T6/7/7 n",
        &[
            "g9-g8", "a3-a4", "g8-g9", "a4-a3", "g9-g8", "a3-a4", "g8-g9",
        ],
    );
    for level in Level::all() {
        let report = think(&game, level);
        assert_eq!(report.best, mv("a4-a3"), "level {}", level.level);
        assert_eq!(report.score, DRAW);
    }
}

#[test]
fn the_side_ahead_does_not_walk_into_a_repetition() {
    // The same shuffle with north to move at the end: g8-g9 would draw a won game.
    let game = shuffled(
        "7/7/4lcs/7/7/7/7/7/T6/7/7 s",
        &[
            "a3-a4", "g9-g8", "a4-a3", "g8-g9", "a3-a4", "g9-g8", "a4-a3",
        ],
    );
    for level in Level::all() {
        let report = think(&game, level);
        assert_ne!(report.best, mv("g8-g9"), "level {}", level.level);
        assert!(
            report.score > 500,
            "level {}: {}",
            level.level,
            report.score
        );
    }
}

#[test]
fn a_cancelled_search_still_returns_a_legal_move_at_once() {
    let game = random_games(9, 1, 30).remove(0);
    let mut engine = Engine::new(1);
    let started = Instant::now();
    let best = engine
        .choose(
            &game,
            Level::new(Level::MAX),
            Duration::from_secs(60),
            &AtomicBool::new(true),
        )
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(game.legal_moves().contains(&best));
}

#[test]
fn the_time_budget_stops_the_strongest_level() {
    let game = Game::new();
    let level = Level {
        nodes: u64::MAX,
        ..Level::new(Level::MAX)
    };
    let mut engine = Engine::new(1);
    let started = Instant::now();
    engine
        .choose(
            &game,
            level,
            Duration::from_millis(100),
            &AtomicBool::new(false),
        )
        .unwrap();
    assert!(started.elapsed() < Duration::from_millis(1_000));
}

#[test]
fn a_finished_game_has_no_move() {
    let game = Game::from_placement("7/7/7/7/7/7/7/7/7/7/3s2L s").unwrap();
    assert!(game.status().is_over());
    let mut engine = Engine::new(1);
    assert_eq!(
        engine.choose(&game, Level::new(1), BUDGET, &AtomicBool::new(false)),
        None
    );
}

#[test]
fn a_node_limited_search_is_the_same_every_time() {
    let game = random_games(3, 1, 20).remove(0);
    let level = Level::new(3);
    // A budget long enough that the level's node budget always ends the search first.
    let think = |game: &Game| {
        Engine::new(3)
            .think(
                game,
                level,
                Duration::from_secs(60),
                &AtomicBool::new(false),
            )
            .unwrap()
    };
    let (a, b) = (think(&game), think(&game));
    assert_eq!(
        (a.best, a.nodes, a.score, a.pv),
        (b.best, b.nodes, b.score, b.pv)
    );
}

#[test]
fn one_ply_before_the_hundred_ply_rule_only_a_capture_or_a_food_win_avoids_the_draw() {
    // Random games until one stands at 99 plies without a capture.
    let mut state = 21u64;
    let game = loop {
        let mut game = Game::new();
        while !game.status().is_over() && game.no_capture_plies() < 99 {
            let legal = game.legal_moves();
            game.apply(legal[(next(&mut state) % legal.len() as u64) as usize])
                .unwrap();
        }
        if !game.status().is_over() {
            break game;
        }
    };
    for level in Level::all() {
        let report = think(&game, level);
        let captures = game.position().piece_at(report.best.to()).is_some();
        let wins = report.best.to() == enemy_food(game.position().turn());
        assert!(
            captures || wins || report.score == DRAW,
            "level {}: {} scored {} in {}",
            level.level,
            report.best,
            report.score,
            game.position()
        );
    }
}

#[test]
fn an_engine_can_move_to_another_thread() {
    // A server wraps it in a blocking task per move.
    fn assert_send<T: Send + 'static>() {}
    assert_send::<Engine>();
    assert_send::<Report>();
}
