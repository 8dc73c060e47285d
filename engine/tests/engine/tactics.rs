//! Tactics: positions with a forced win by continuous fours or by a four-three, each first proved by the
//! tests' own exhaustive search over the rules; level 8 must find the win and play it out against forced
//! answers. And the Renju cases: a four-three whose four square is forbidden is no threat, white aims black's
//! forced block at a forbidden point, and white claims a forbidden stone at once.

use crate::common::{exhaustive_vcf, game, p, think};
use engine::search::WIN_BOUND;
use rules::{Action, Color, ForbiddenPolicy, Game, Rules, Status};

/// Plays the engine (attacker) against forced answers until the game ends; panics if a move is not a four.
fn play_out(mut g: Game, attacker: Color, max_fours: usize) {
    for _ in 0..=max_fours {
        let d = think(&g, 8, Some(200_000), 1);
        assert!(g.check(d.action).is_ok(), "{:?} is legal", d.action);
        g.apply(d.action).unwrap();
        if let Status::Won { winner, .. } = g.status() {
            assert_eq!(winner, attacker);
            return;
        }
        // The defender: block the five point (or, when there is none, the engine left the forcing line).
        let fives = g.five_points(attacker);
        assert!(
            !fives.is_empty(),
            "after {:?} the attacker threatens five",
            d.action
        );
        let block = fives
            .iter()
            .map(|&f| Action::place(f))
            .find(|&a| g.check(a).is_ok());
        let Some(block) = block else {
            return; // no legal answer: the win is certain
        };
        g.apply(block).unwrap();
        if g.claimable().is_some() {
            return; // the block was forbidden: white claims it next
        }
        if matches!(g.status(), Status::Won { winner, .. } if winner == attacker) {
            return; // the block was forbidden and lost at once
        }
        assert!(
            !g.status().is_over(),
            "the defender's block did not end the game"
        );
    }
    panic!("no win within {max_fours} fours");
}

fn four_three_position(rules: Rules) -> Game {
    // Black: g8 h8 i8 (f8 is white's) and j9 j10: j8 is a four (g8–j8) and an open three (j8–j10).
    game(
        rules,
        &[
            "g8", "f8", "h8", "a1", "i8", "o15", "j9", "a15", "j10", "o1",
        ],
    )
}

#[test]
fn level_8_wins_a_four_three_in_every_rule_set() {
    for rules in [
        Rules::freestyle(),
        Rules::standard(),
        Rules::renju(ForbiddenPolicy::Reject),
    ] {
        let g = four_three_position(rules);
        let line = exhaustive_vcf(&g, Color::Black, 3).expect("the position has a VCF");
        assert_eq!(line[0], p("j8"), "the only first four that wins");
        let d = think(&g, 8, Some(200_000), 1);
        assert_eq!(d.action, Action::place(p("j8")));
        assert!(d.score > WIN_BOUND);
        play_out(g, Color::Black, 4);
    }
}

#[test]
fn a_four_three_whose_four_square_is_forbidden_is_no_threat() {
    // As above, and black i7 k9 make j8 a second three: four-three-three is a double three, forbidden.
    let moves = [
        "g8", "f8", "h8", "a1", "i8", "o15", "j9", "a15", "j10", "o1", "i7", "a8", "k9", "o8",
    ];
    for policy in [
        ForbiddenPolicy::Reject,
        ForbiddenPolicy::Claim,
        ForbiddenPolicy::Lose,
    ] {
        let g = game(Rules::renju(policy), &moves);
        assert!(g.forbidden_points().iter().any(|f| f.0 == p("j8")));
        let d = think(&g, 8, Some(100_000), 1);
        assert_ne!(d.action, Action::place(p("j8")), "{policy:?}");
        let mut after = g.clone();
        after.apply(d.action).unwrap();
        assert!(
            after.claimable().is_none(),
            "black never plays a forbidden point"
        );
        assert!(!matches!(
            after.status(),
            Status::Won {
                winner: Color::White,
                ..
            }
        ));
    }
}

/// Black has a double three on h8 (f8 g8 and h9 h10); white's i9 j10 k11 (l12 black) make g7 a four whose
/// only completing point is h8.
fn forbidden_block_position(policy: ForbiddenPolicy) -> Game {
    game(
        Rules::renju(policy),
        &["f8", "i9", "g8", "j10", "h9", "k11", "h10", "o1", "l12"],
    )
}

#[test]
fn white_aims_the_forced_block_at_a_forbidden_point() {
    for policy in [
        ForbiddenPolicy::Reject,
        ForbiddenPolicy::Claim,
        ForbiddenPolicy::Lose,
    ] {
        let g = forbidden_block_position(policy);
        assert!(g.forbidden_points().iter().any(|f| f.0 == p("h8")));
        assert!(exhaustive_vcf(&g, Color::White, 1).is_some());
        let d = think(&g, 8, Some(100_000), 1);
        assert_eq!(d.action, Action::place(p("g7")), "{policy:?}");
        assert!(d.score > WIN_BOUND);
        play_out(g, Color::White, 2);
    }
}

#[test]
fn under_claim_white_claims_a_forbidden_stone_at_once() {
    let mut g = forbidden_block_position(ForbiddenPolicy::Claim);
    g.apply(Action::place(p("a2"))).unwrap();
    g.apply(Action::place(p("h8"))).unwrap();
    assert!(g.claimable().is_some());
    let d = think(&g, 1, Some(1_000), 1);
    assert_eq!(d.action, Action::ClaimForbidden);
}

/// Continuous fours found by the tests' own search in seeded random games: level 8 must find each.
#[test]
fn level_8_finds_every_vcf_the_exhaustive_search_finds() {
    let mut found = 0;
    let mut rng = crate::common::Rng(17);
    for (k, rules) in [
        Rules::freestyle(),
        Rules::standard(),
        Rules::renju(ForbiddenPolicy::Reject),
    ]
    .into_iter()
    .cycle()
    .take(240)
    .enumerate()
    {
        let mut g = Game::new(rules);
        let plies = 10 + rng.below(14);
        for _ in 0..plies {
            match crate::common::random_action(&g, &mut rng) {
                Some(a) => {
                    g.apply(a).unwrap();
                }
                None => break,
            }
        }
        let Some(attacker) = g.to_act() else { continue };
        // Interesting positions only: no five to take or to block, yet a win by two or three fours.
        if !g.five_points(attacker).is_empty() || !g.five_points(attacker.opposite()).is_empty() {
            continue;
        }
        let Some(line) = exhaustive_vcf(&g, attacker, 3) else {
            continue;
        };
        if exhaustive_vcf(&g, attacker, 1).is_some() {
            continue;
        }
        found += 1;
        let d = think(&g, 8, Some(300_000), k as u64);
        assert!(
            d.score > WIN_BOUND,
            "case {k}: missed the VCF {line:?} in\n{:?}",
            g.board()
        );
        play_out(g, attacker, 6);
    }
    assert!(found >= 3, "only {found} VCF positions were generated");
}
