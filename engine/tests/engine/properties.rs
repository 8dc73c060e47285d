//! Properties over random games: every level returns an action the rules accept in every rule set, opening and
//! forbidden-move policy; the engine never misses the block of a four; black never plays a forbidden point; a
//! seed fixes every decision.

use crate::common::{random_action, think, Rng};
use proptest::prelude::*;
use rules::{Action, Color, ForbiddenPolicy, Game, Opening, RuleSet, Rules, Status};

fn rules_of(k: u8) -> Rules {
    let set = [RuleSet::Freestyle, RuleSet::Standard, RuleSet::Renju][(k % 3) as usize];
    let policy = [
        ForbiddenPolicy::Reject,
        ForbiddenPolicy::Claim,
        ForbiddenPolicy::Lose,
    ][(k / 3 % 3) as usize];
    let opening = [
        Opening::None,
        Opening::SwapAfterThree,
        Opening::SwapAfterThreeFifthTwoOptions,
    ][(k / 9 % 3) as usize];
    let size = if k / 27 % 2 == 1 && set != RuleSet::Renju {
        19
    } else {
        15
    };
    Rules::new(size, set, policy, opening).unwrap()
}

/// A random game of up to `plies` actions that is still going.
fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = Rng(seed);
    let mut g = Game::new(rules);
    for _ in 0..plies {
        let Some(a) = random_action(&g, &mut rng) else {
            break;
        };
        let mut next = g.clone();
        next.apply(a).unwrap();
        if next.status().is_over() {
            break;
        }
        g = next;
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_level_returns_a_legal_action_in_every_opening(k in 0u8..54, seed in any::<u64>(), plies in 0usize..14) {
        let g = random_game(rules_of(k), seed, plies);
        for level in 1..=8 {
            let d = think(&g, level, Some(400), seed);
            prop_assert!(g.check(d.action).is_ok(), "level {} chose {:?} in phase {:?}", level, d.action, g.status());
        }
    }

    #[test]
    fn the_engine_never_misses_the_block_of_a_four(k in 0u8..54, seed in any::<u64>(), plies in 6usize..40) {
        let g = random_game(rules_of(k), seed, plies);
        let Some(me) = g.to_act() else { return Ok(()) };
        let Status::Ongoing { phase: rules::Phase::Place, .. } = g.status() else { return Ok(()) };
        if g.claimable().is_some() {
            return Ok(());
        }
        let theirs = g.five_points(me.opposite());
        // A block black may not make under Renju is no block (black never plays a forbidden point: under `claim`
        // it would lose at once, under `lose` it loses, under `reject` it is refused), so such a four is not a case.
        let forbidden: Vec<_> = if me == Color::Black { g.forbidden_points().into_iter().map(|(q, _)| q).collect() } else { Vec::new() };
        let blocks: Vec<_> = theirs.iter().copied().filter(|&q| g.check(Action::place(q)).is_ok() && !forbidden.contains(&q)).collect();
        prop_assume!(!blocks.is_empty());
        // Levels 1–3 overlook threats now and then by design; from level 4 on, never.
        for level in [4u8, 6, 8] {
            let d = think(&g, level, Some(2_000), seed);
            let mut after = g.clone();
            after.apply(d.action).unwrap();
            let won = matches!(after.status(), Status::Won { winner, .. } if winner == me);
            let blocked = matches!(d.action, Action::Place { point } if theirs.contains(&point));
            prop_assert!(won || blocked, "level {} played {:?} against the four at {:?}", level, d.action, theirs);
        }
    }

    #[test]
    fn black_never_plays_a_forbidden_point(policy in 0usize..3, seed in any::<u64>(), plies in 8usize..40, level in 1u8..=8) {
        let policy = [ForbiddenPolicy::Reject, ForbiddenPolicy::Claim, ForbiddenPolicy::Lose][policy];
        let g = random_game(Rules::renju(policy), seed, plies);
        prop_assume!(g.to_act() == Some(Color::Black));
        let d = think(&g, level, Some(600), seed);
        if let Action::Place { point } = d.action {
            let forbidden = g.forbidden_points();
            let only_forbidden = g.legal_places().iter().all(|q| forbidden.iter().any(|f| f.0 == *q));
            prop_assert!(only_forbidden || !forbidden.iter().any(|f| f.0 == point), "{point} is forbidden");
        }
    }
}

#[test]
fn a_seed_fixes_every_decision() {
    for (k, seed) in [(0u8, 1u64), (2, 2), (11, 3), (20, 4)] {
        let g = random_game(rules_of(k), seed, 9);
        for level in [1u8, 4, 8] {
            let a = think(&g, level, Some(3_000), seed);
            let b = think(&g, level, Some(3_000), seed);
            assert_eq!(a, b, "level {level}");
        }
    }
}

#[test]
fn a_whole_game_between_two_levels_stays_legal() {
    let mut g = Game::new(
        Rules::renju(ForbiddenPolicy::Claim).with_opening(Opening::SwapAfterThreeFifthTwoOptions),
    );
    let mut plies = 0;
    while !g.status().is_over() && plies < 120 {
        let level = if g.to_act() == Some(Color::Black) {
            2
        } else {
            5
        };
        let d = think(&g, level, Some(1_500), plies);
        g.apply(d.action)
            .unwrap_or_else(|e| panic!("{:?} refused: {e}", d.action));
        plies += 1;
    }
}

#[test]
fn level_1_overlooks_a_four_now_and_then_but_level_4_never() {
    // White's four e5–h5 (d5 black): black must block i5.
    let g = crate::common::game(
        Rules::standard(),
        &["h8", "e5", "d5", "f5", "h9", "g5", "a15", "h5"],
    );
    let blocks = g.five_points(Color::White);
    let missed = |level: u8| {
        (0..60u64)
            .filter(|&seed| {
                let d = think(&g, level, Some(2_000), seed);
                !matches!(d.action, Action::Place { point } if blocks.contains(&point))
            })
            .count()
    };
    let beginner = missed(1);
    assert!(
        beginner > 0 && beginner < 40,
        "level 1 missed {beginner} of 60"
    );
    assert_eq!(missed(4), 0);
}

#[test]
fn every_level_plays_legal_moves_on_the_20x20_board() {
    for (set, seed) in [(RuleSet::Freestyle, 7u64), (RuleSet::Standard, 8)] {
        let rules = Rules::new(20, set, ForbiddenPolicy::Reject, Opening::None).unwrap();
        // Stones in the far corners first, where an index of the 19x19 board would wrap.
        let mut g = crate::common::game(rules, &["t20", "a1", "t1", "a20"]);
        let mut plies = 0;
        while !g.status().is_over() && plies < 40 {
            let level = [1u8, 3, 5, 8][plies % 4];
            let d = think(&g, level, Some(300), seed + plies as u64);
            g.apply(d.action)
                .unwrap_or_else(|e| panic!("level {level} chose {:?} on 20x20: {e}", d.action));
            plies += 1;
        }
        assert!(plies >= 9, "{set:?}: the game went on ({plies} plies)");
    }
}
