//! Opening decisions: the centre and the touching second stone, the swap decision after move 3 judged by a
//! search of the position, black's two non-symmetric fifth-move options, and white's choice between them.

use crate::common::{game, p, think};
use rules::{points_equivalent, Action, Color, ForbiddenPolicy, Opening, Phase, Rules, Status};

fn swap_rules() -> Rules {
    Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::SwapAfterThree)
}

fn fifth_rules() -> Rules {
    Rules::standard().with_opening(Opening::SwapAfterThreeFifthTwoOptions)
}

#[test]
fn the_first_stone_goes_on_the_centre_and_the_second_touches_it() {
    for level in 1..=8 {
        let g = game(swap_rules(), &[]);
        let d = think(&g, level, Some(1_000), u64::from(level));
        assert_eq!(d.action, Action::place(p("h8")));
        let g = game(swap_rules(), &["h8"]);
        let d = think(&g, level, Some(1_000), u64::from(level));
        let Action::Place { point } = d.action else {
            panic!("a stone")
        };
        assert!(point.touches(p("h8")), "level {level}: {point}");
    }
}

#[test]
fn the_swap_decision_follows_the_search_of_the_position() {
    let openings: [[&str; 3]; 4] = [
        ["h8", "i9", "j10"],
        ["h8", "h9", "i8"],
        ["h8", "g7", "a1"],
        ["h8", "i8", "g7"],
    ];
    for stones in openings {
        let plain = game(Rules::renju(ForbiddenPolicy::Reject), &stones);
        let as_white = think(&plain, 7, Some(20_000), 5);
        let g = game(swap_rules(), &stones);
        assert_eq!(
            g.status(),
            Status::Ongoing {
                to_act: Color::White,
                phase: Phase::SwapDecision
            }
        );
        let d = think(&g, 7, Some(20_000), 5);
        assert_eq!(
            d.action,
            Action::DecideSwap {
                swap: as_white.score < 0
            },
            "{stones:?}: white's score {}",
            as_white.score
        );
    }
}

#[test]
fn black_proposes_two_fifth_moves_that_are_not_symmetric() {
    // Symmetric positions, where a careless second option would be refused.
    let positions: [[&str; 4]; 3] = [
        ["h8", "h9", "h7", "a1"],
        ["h8", "i9", "g7", "o15"],
        ["h8", "i8", "h10", "j10"],
    ];
    for stones in positions {
        let g = play_to_fifth(&stones);
        for level in [1u8, 4, 8] {
            let d = think(&g, level, Some(3_000), 3);
            let Action::ProposeFifth { points: [a, b] } = d.action else {
                panic!("a proposal, got {:?}", d.action)
            };
            assert!(!points_equivalent(g.board(), a, b), "{a} and {b}");
            assert!(g.check(d.action).is_ok());
            // Options worth proposing: near the stones, not thrown away in a corner.
            for q in [a, b] {
                assert!(
                    g.moves()
                        .iter()
                        .any(|m| m.x().abs_diff(q.x()) <= 2 && m.y().abs_diff(q.y()) <= 2),
                    "{q} is far from every stone"
                );
            }
        }
    }
}

#[test]
fn white_chooses_the_fifth_move_that_leaves_black_less() {
    // j8 would give black an open three h8–j8; a15 is a stone thrown away.
    let mut g = play_to_fifth(&["h8", "h9", "i8", "a1"]);
    g.apply(Action::ProposeFifth {
        points: [p("j8"), p("a15")],
    })
    .unwrap();
    for level in [4u8, 8] {
        let d = think(&g, level, Some(5_000), 1);
        assert_eq!(d.action, Action::ChooseFifth { point: p("a15") });
    }
}

/// The four stones under the fifth-move rule, without a swap: black to propose.
fn play_to_fifth(stones: &[&str; 4]) -> rules::Game {
    let mut g = rules::Game::new(fifth_rules());
    for (k, s) in stones.iter().enumerate() {
        g.apply(Action::place(p(s))).unwrap();
        if k == 2 {
            g.apply(Action::DecideSwap { swap: false }).unwrap();
        }
    }
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_act: Color::Black,
            phase: Phase::ProposeFifth
        }
    );
    g
}

/// Whether `action` is what `phase` asks for (the engine's own answer, not its last-resort fallback).
fn answers(phase: Phase, action: Action) -> bool {
    match (phase, action) {
        (Phase::Place | Phase::PlaceOpening, Action::Place { .. }) => true,
        (Phase::Place, Action::ClaimForbidden) => true,
        (Phase::SwapDecision | Phase::Swap2Decision, Action::DecideSwap { .. }) => true,
        (Phase::ProposeFifth, Action::ProposeFifth { .. }) => true,
        (Phase::DeclareOffers { max }, Action::DeclareOffers { count }) => {
            (1..=max).contains(&count)
        }
        (
            Phase::OfferFifths { count } | Phase::TaraguchiChoice { count },
            Action::OfferFifths { offers },
        ) => offers.len() == usize::from(count),
        (Phase::ChooseFifth { options }, Action::ChooseFifth { point }) => options.contains(&point),
        (Phase::ChooseOffer { offers }, Action::ChooseFifth { point }) => offers.contains(point),
        _ => false,
    }
}

/// Two engines play a game under `rules` from the empty board; every opening step is answered in kind and
/// accepted by the rules. Returns the phases the game went through and the game.
fn engine_game(rules: Rules, level: u8, seed: u64) -> (Vec<&'static str>, rules::Game) {
    let mut g = rules::Game::new(rules);
    let mut phases = Vec::new();
    for turn in 0..60u64 {
        let Status::Ongoing { phase, .. } = g.status() else {
            break;
        };
        if !phases.contains(&phase.as_str()) {
            phases.push(phase.as_str());
        }
        let d = think(&g, level, Some(3_000), seed + turn);
        assert!(
            answers(phase, d.action),
            "{rules:?} turn {turn}: {:?} in phase {phase:?}",
            d.action
        );
        g.apply(d.action)
            .unwrap_or_else(|e| panic!("{rules:?} turn {turn}: {:?} refused: {e}", d.action));
    }
    (phases, g)
}

#[test]
fn the_engine_plays_every_modern_opening_through_each_of_its_phases() {
    let cases = [
        (
            Rules::freestyle().with_opening(Opening::Swap1),
            vec!["place_opening", "swap_decision", "place"],
        ),
        (
            Rules::standard().with_opening(Opening::Swap2),
            vec!["place_opening", "swap2_decision", "place"],
        ),
        (
            Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::Soosorv { n: 8 }),
            vec![
                "place_opening",
                "swap_decision",
                "place",
                "declare_offers",
                "offer_fifths",
                "choose_offer",
            ],
        ),
        (
            Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::Taraguchi { n: 10 }),
            vec!["place", "swap_decision", "taraguchi_choice", "choose_offer"],
        ),
    ];
    for (rules, expected) in cases {
        for (level, seed) in [(1, 3), (4, 11)] {
            let (phases, g) = engine_game(rules, level, seed);
            for phase in &expected {
                assert!(
                    phases.contains(phase),
                    "{rules:?} level {level}: {phase} never came ({phases:?})"
                );
            }
            assert!(g.ply() >= 6, "{rules:?}: only {} stones", g.ply());
        }
    }
}

#[test]
fn soosorv_offers_are_as_many_as_declared_and_never_symmetric() {
    let rules = Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::Soosorv { n: 8 });
    // The 26th... any canonical opening: h8, h9, i9 (4D Kagetsu), then swap declined, white's move 4.
    let mut g = rules::Game::new(rules);
    for a in [
        Action::place(p("h8")),
        Action::place(p("h9")),
        Action::place(p("i9")),
        Action::DecideSwap { swap: false },
        Action::place(p("g9")),
        Action::DeclareOffers { count: 5 },
        Action::DecideSwap { swap: false },
    ] {
        g.apply(a).unwrap();
    }
    assert!(matches!(
        g.status(),
        Status::Ongoing {
            phase: Phase::OfferFifths { count: 5 },
            ..
        }
    ));
    for (level, seed) in [(2, 1), (6, 2), (8, 3)] {
        let d = think(&g, level, Some(20_000), seed);
        let Action::OfferFifths { offers } = d.action else {
            panic!("level {level}: {:?}", d.action)
        };
        let points = offers.as_slice();
        assert_eq!(points.len(), 5);
        for (i, &a) in points.iter().enumerate() {
            for &b in &points[i + 1..] {
                assert!(!points_equivalent(g.board(), a, b), "{a} and {b}");
            }
        }
        assert!(g.check(d.action).is_ok());
    }
}
