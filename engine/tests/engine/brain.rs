//! The brains against the games: every registered brain at every level returns an action the game accepts, on
//! seeded random positions of its game (under every Gomoku opening rule for the Gomoku brains); `None` exactly
//! when the game is over; a raised cancel flag gives a legal action promptly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::brain;
use games::{AnyAction, AnyConfig, AnyGame, Game, GameKind, GomokuConfig, OthelloConfig, Seat};
use rules::othello::Scoring;
use rules::{ForbiddenPolicy, Opening, RuleSet};

/// SplitMix64: the tests' own seeded random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every opening rule (`rules::Opening`'s variants).
const OPENINGS: [Opening; 7] = [
    Opening::None,
    Opening::SwapAfterThree,
    Opening::SwapAfterThreeFifthTwoOptions,
    Opening::Swap1,
    Opening::Swap2,
    Opening::Soosorv { n: 3 },
    Opening::Taraguchi { n: 2 },
];

/// The configurations a game's brains are tried under: Gomoku under every opening (the rule sets and policies
/// taking turns), Othello, draughts.
fn configs(kind: GameKind) -> Vec<AnyConfig> {
    match kind {
        GameKind::Gomoku => OPENINGS
            .iter()
            .enumerate()
            .map(|(k, &opening)| {
                let (rule_set, policy) = [
                    (RuleSet::Renju, ForbiddenPolicy::Reject),
                    (RuleSet::Standard, ForbiddenPolicy::Lose),
                    (RuleSet::Renju, ForbiddenPolicy::Claim),
                    (RuleSet::Freestyle, ForbiddenPolicy::Lose),
                ][k % 4];
                AnyConfig::Gomoku(GomokuConfig::new(15, rule_set, policy, opening).unwrap())
            })
            .collect(),
        GameKind::Othello => vec![AnyConfig::Othello(OthelloConfig::new(Scoring::Japanese))],
        // Every other game in its default configuration, so a new game is tried without a line here.
        other => vec![other.default_config()],
    }
}

/// A position `plies` random legal actions into a game (fewer if it ends first).
fn position(config: AnyConfig, plies: usize, rng: &mut Rng) -> AnyGame {
    let mut game = AnyGame::new(config, Seat::Zero);
    for _ in 0..plies {
        let listed = game.legal_actions();
        if listed.is_empty() {
            break;
        }
        game.apply(listed[rng.below(listed.len())].clone()).unwrap();
    }
    game
}

/// Seeded positions of a configuration: the opening phases (the first dozen actions) and deeper.
fn positions(config: AnyConfig, seed: u64) -> Vec<AnyGame> {
    let mut rng = Rng(seed);
    let depths: &[usize] = match config {
        AnyConfig::Gomoku(_) => &[0, 2, 3, 4, 5, 6, 8, 20],
        _ => &[0, 7, 30, 50],
    };
    depths
        .iter()
        .map(|&d| position(config, d, &mut rng))
        .collect()
}

fn assert_accepted(game: &AnyGame, action: &AnyAction, who: &str) {
    if let Err(e) = game.clone().apply(action.clone()) {
        panic!("{who} chose {action:?}, refused ({e}), in {game:?}");
    }
}

const BUDGET: Duration = Duration::from_millis(80);

#[test]
fn every_brain_at_every_level_chooses_an_action_its_game_accepts() {
    let never = AtomicBool::new(false);
    for kind in GameKind::ALL {
        for info in brain::brains(kind) {
            for level in info.levels.clone() {
                let mut b = brain::make(kind, info.name, level, u64::from(level)).unwrap();
                assert_eq!((b.name(), b.level()), (info.name, level));
                for (k, config) in configs(kind).into_iter().enumerate() {
                    for game in positions(config, (u64::from(level) << 8) | k as u64) {
                        let who = format!("{kind} {} level {level}", info.name);
                        match b.choose(&game, BUDGET, &never) {
                            Some(action) => assert_accepted(&game, &action, &who),
                            None => assert!(game.status().is_over(), "{who}: None in {game:?}"),
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn the_gomoku_engine_answers_every_opening_phase_by_playing_whole_openings() {
    // The engine on both sides through each opening rule's decisions, under Renju (reject and claim) and
    // freestyle, until twelve actions or the end: every answer is accepted, so each phase was answered (Swap2's
    // third answer, two more stones, included).
    let never = AtomicBool::new(false);
    let mut phases = Vec::new();
    let mut placed_two = false;
    for (k, opening) in OPENINGS.into_iter().enumerate() {
        for (rule_set, policy) in [
            (RuleSet::Renju, ForbiddenPolicy::Reject),
            (RuleSet::Renju, ForbiddenPolicy::Claim),
            (RuleSet::Freestyle, ForbiddenPolicy::Lose),
        ] {
            let config =
                AnyConfig::Gomoku(GomokuConfig::new(15, rule_set, policy, opening).unwrap());
            let mut game = AnyGame::new(config, Seat::Zero);
            let mut b = brain::make(GameKind::Gomoku, "engine", 4, k as u64).unwrap();
            for _ in 0..12 {
                let Some(phase) = game.status().phase().copied() else {
                    break;
                };
                let action = b
                    .choose(&game, BUDGET, &never)
                    .expect("an action while the game runs");
                assert_accepted(&game, &action, &format!("{opening:?} {phase:?}"));
                phases.push(phase);
                placed_two |= matches!(action, AnyAction::Gomoku(rules::Action::PlaceTwo { .. }));
                game.apply(action).unwrap();
            }
        }
    }
    let codes: Vec<&str> = phases
        .iter()
        .map(|p| match p {
            games::AnyPhase::Gomoku(p) => p.as_str(),
            _ => unreachable!(),
        })
        .collect();
    for code in [
        "place_opening",
        "swap_decision",
        "swap2_decision",
        "propose_fifth",
        "choose_fifth",
        "declare_offers",
        "offer_fifths",
        "taraguchi_choice",
        "choose_offer",
    ] {
        assert!(codes.contains(&code), "the engine met {code}: {codes:?}");
    }
    assert!(
        placed_two,
        "Swap2's second player places two more stones at times"
    );
}

/// A finished game of each kind: random play until the rules end it (Gomoku: a quick five).
fn finished(kind: GameKind) -> AnyGame {
    let mut rng = Rng(99);
    match kind {
        GameKind::Gomoku => {
            let config = AnyConfig::Gomoku(
                GomokuConfig::new(15, RuleSet::Freestyle, ForbiddenPolicy::Lose, Opening::None)
                    .unwrap(),
            );
            let mut game = AnyGame::new(config, Seat::Zero);
            for t in ["h8", "a1", "h9", "a3", "h10", "a5", "h11", "a7", "h12"] {
                game.apply(GameKind::Gomoku.parse_action(t).unwrap())
                    .unwrap();
            }
            game
        }
        _ => position(configs(kind)[0], 10_000, &mut rng),
    }
}

#[test]
fn a_brain_answers_none_exactly_when_the_game_is_over() {
    let never = AtomicBool::new(false);
    for kind in GameKind::ALL {
        let over = finished(kind);
        assert!(over.status().is_over(), "{kind} finished");
        for info in brain::brains(kind) {
            let mut b = (info.make)(*info.levels.end(), 1);
            assert_eq!(
                b.choose(&over, BUDGET, &never),
                None,
                "{kind} {}",
                info.name
            );
        }
    }
}

#[test]
fn a_raised_cancel_flag_returns_a_legal_action_promptly() {
    // Before the call: at the strongest level with a long budget, the answer comes at once and is legal.
    let raised = AtomicBool::new(true);
    for kind in GameKind::ALL {
        for info in brain::brains(kind) {
            let mut b = (info.make)(*info.levels.end(), 3);
            for game in positions(configs(kind)[0], 5) {
                let start = Instant::now();
                let chosen = b.choose(&game, Duration::from_secs(30), &raised);
                assert!(
                    start.elapsed() < Duration::from_millis(1_500),
                    "{kind} {} took {:?}",
                    info.name,
                    start.elapsed()
                );
                match chosen {
                    Some(action) => assert_accepted(&game, &action, info.name),
                    None => assert!(game.status().is_over()),
                }
            }
        }
    }
    // During the call: raised from another thread a little after the search started.
    for kind in [GameKind::Gomoku, GameKind::Othello, GameKind::Draughts] {
        let mut rng = Rng(11);
        let game = position(configs(kind)[0], 12, &mut rng);
        let mut b = brain::make(kind, "engine", 8, 1).unwrap();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        });
        let start = Instant::now();
        let chosen = b.choose(&game, Duration::from_secs(30), &cancel);
        let took = start.elapsed();
        raiser.join().unwrap();
        assert!(took < Duration::from_millis(2_000), "{kind} took {took:?}");
        assert_accepted(&game, &chosen.expect("a legal action"), "cancelled engine");
    }
}

#[test]
fn the_registry_has_a_random_brain_for_every_game_and_refuses_unknown_names_and_levels() {
    for kind in GameKind::ALL {
        let list = brain::brains(kind);
        assert!(list.iter().any(|i| i.name == "random"), "{kind}");
        for info in list {
            assert!(!info.levels.is_empty());
            assert_eq!(
                list.iter().filter(|i| i.name == info.name).count(),
                1,
                "names are unique within a game"
            );
            assert!(brain::make(kind, info.name, info.levels.end() + 1, 0).is_none());
            assert!(brain::make(kind, info.name, 0, 0).is_none());
        }
        assert!(brain::make(kind, "nobody", 1, 0).is_none());
    }
    assert_eq!(
        brain::brains(GameKind::Gomoku)[0].levels,
        1..=8,
        "the Gomoku engine's levels"
    );
    assert_eq!(brain::brains(GameKind::Othello)[0].levels, 1..=8);
    assert_eq!(
        (
            brain::brains(GameKind::Draughts)[0].name,
            brain::brains(GameKind::Draughts)[0].levels.clone()
        ),
        ("engine", 1..=8),
        "the draughts engine plays first, at levels 1-8"
    );
}

#[test]
fn a_brain_given_another_games_position_answers_none() {
    let never = AtomicBool::new(false);
    let othello = AnyGame::new(configs(GameKind::Othello)[0], Seat::Zero);
    let gomoku = AnyGame::new(configs(GameKind::Gomoku)[0], Seat::Zero);
    let mut g = brain::make(GameKind::Gomoku, "engine", 1, 0).unwrap();
    let mut o = brain::make(GameKind::Othello, "engine", 1, 0).unwrap();
    assert_eq!(g.choose(&othello, BUDGET, &never), None);
    assert_eq!(o.choose(&gomoku, BUDGET, &never), None);
}

#[test]
fn the_random_brain_is_the_same_for_the_same_seed() {
    let never = AtomicBool::new(false);
    for kind in GameKind::ALL {
        let play = |seed| {
            let mut b = brain::make(kind, "random", 1, seed).unwrap();
            let mut game = AnyGame::new(configs(kind)[0], Seat::Zero);
            let mut actions = Vec::new();
            for _ in 0..20 {
                let Some(a) = b.choose(&game, BUDGET, &never) else {
                    break;
                };
                game.apply(a.clone()).unwrap();
                actions.push(a);
            }
            actions
        };
        assert_eq!(play(4), play(4), "{kind}");
        assert_ne!(play(4), play(5), "{kind}");
    }
}

#[test]
fn every_brain_analyses_positions_with_an_accepted_best_action_a_legal_line_and_none_when_over() {
    let never = AtomicBool::new(false);
    for kind in GameKind::ALL {
        for info in brain::brains(kind) {
            let mut b = (info.make)(*info.levels.end(), 5);
            for config in configs(kind) {
                for game in positions(config, 21) {
                    let who = format!("{kind} {} analysing", info.name);
                    let Some(e) = b.analyse(&game, BUDGET, &never) else {
                        assert!(game.status().is_over(), "{who}: None while not over");
                        continue;
                    };
                    assert_accepted(&game, &e.best, &who);
                    assert_eq!(
                        e.pv.first(),
                        Some(&e.best),
                        "{who}: the line starts with the best"
                    );
                    assert_eq!(
                        brain::legal_line(&game, e.pv.clone()),
                        e.pv,
                        "{who}: the line plays"
                    );
                    assert!(e.pv.len() <= brain::MAX_LINE, "{who}");
                }
            }
            assert_eq!(
                b.analyse(&finished(kind), BUDGET, &never),
                None,
                "{kind} over"
            );
        }
    }
}
