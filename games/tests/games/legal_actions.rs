//! `Game::legal_actions` over seeded random games of every game, and of Gomoku under every rule set, forbidden
//! policy and opening rule: every listed action applies, the list is empty exactly when the game is over, and a
//! sample of actions not in the list is refused (or, for the phases whose list is a bounded sample, agrees with
//! the complete listing `Game::legal`).

use games::{
    AnyAction, AnyConfig, AnyGame, AnyLegal, DraughtsAction, DraughtsConfig, Game, GomokuConfig,
    OthelloConfig, Seat,
};
use rules::othello::{Move, Scoring};
use rules::{Action, ForbiddenPolicy, Offers, Opening, Phase, Point, RuleSet};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64: any seed, zero included.
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

/// Every opening rule (`rules::Opening`'s variants; Soosõrv and Taraguchi with a small and the usual N).
const OPENINGS: [Opening; 9] = [
    Opening::None,
    Opening::SwapAfterThree,
    Opening::SwapAfterThreeFifthTwoOptions,
    Opening::Swap1,
    Opening::Swap2,
    Opening::Soosorv { n: 3 },
    Opening::SOOSORV_8,
    Opening::Taraguchi { n: 2 },
    Opening::TARAGUCHI_10,
];

/// Every game's configurations: Gomoku under every rule set, policy and opening (15x15, and 19x19 outside
/// Renju with the first opening of each), both Othello scorings, draughts.
fn configs() -> Vec<AnyConfig> {
    let mut out = Vec::new();
    for rule_set in [RuleSet::Freestyle, RuleSet::Standard, RuleSet::Renju] {
        for policy in [
            ForbiddenPolicy::Lose,
            ForbiddenPolicy::Reject,
            ForbiddenPolicy::Claim,
        ] {
            for opening in OPENINGS {
                out.push(AnyConfig::Gomoku(
                    GomokuConfig::new(15, rule_set, policy, opening).unwrap(),
                ));
            }
            if rule_set != RuleSet::Renju {
                out.push(AnyConfig::Gomoku(
                    GomokuConfig::new(19, rule_set, policy, Opening::Swap2).unwrap(),
                ));
            }
        }
    }
    out.push(AnyConfig::Othello(OthelloConfig::new(Scoring::Japanese)));
    out.push(AnyConfig::Othello(OthelloConfig::new(Scoring::European)));
    out.push(AnyConfig::Draughts(DraughtsConfig::international()));
    out
}

fn point(size: u8, rng: &mut Rng) -> Point {
    // One more than the board so that off-board points are tried too (Point allows up to 19x19 at least).
    let side = usize::from(size.min(18)) + 1;
    Point::new(rng.below(side) as u8, rng.below(side) as u8).unwrap()
}

/// Random actions of every Gomoku kind, most of them illegal.
fn gomoku_samples(size: u8, rng: &mut Rng) -> Vec<Action> {
    let mut out = vec![
        Action::ClaimForbidden,
        Action::DecideSwap { swap: true },
        Action::DecideSwap { swap: false },
    ];
    for _ in 0..6 {
        out.push(Action::place(point(size, rng)));
        out.push(Action::ChooseFifth {
            point: point(size, rng),
        });
        out.push(Action::ProposeFifth {
            points: [point(size, rng), point(size, rng)],
        });
        out.push(Action::PlaceTwo {
            points: [point(size, rng), point(size, rng)],
        });
        out.push(Action::DeclareOffers {
            count: rng.below(12) as u8,
        });
        let k = 1 + rng.below(10);
        let points: Vec<Point> = (0..k).map(|_| point(size, rng)).collect();
        out.push(Action::OfferFifths {
            offers: Offers::new(&points).unwrap(),
        });
    }
    out
}

/// Whether Gomoku's list is a bounded sample for this kind of action in this phase (so an unlisted action of
/// that kind may still be legal).
fn sampled(phase: Option<Phase>, action: &Action) -> bool {
    matches!(
        (phase, action),
        (Some(Phase::Swap2Decision), Action::PlaceTwo { .. })
            | (Some(Phase::ProposeFifth), Action::ProposeFifth { .. })
            | (
                Some(Phase::OfferFifths { .. } | Phase::TaraguchiChoice { .. }),
                Action::OfferFifths { .. }
            )
    )
}

/// Random actions of the game, and one of each other game (refused as the wrong game).
fn samples(game: &AnyGame, rng: &mut Rng) -> Vec<AnyAction> {
    let mut out = match game {
        AnyGame::Gomoku(g) => gomoku_samples(g.rules_game().rules().size(), rng)
            .into_iter()
            .map(AnyAction::Gomoku)
            .collect::<Vec<_>>(),
        AnyGame::Othello(_) => {
            let mut out = vec![AnyAction::Othello(Move::Pass)];
            for _ in 0..12 {
                let square = rules::othello::Square::new(rng.below(64) as u8).unwrap();
                out.push(AnyAction::Othello(Move::Place(square)));
            }
            out
        }
        AnyGame::Draughts(_) => {
            let mut out = Vec::new();
            for _ in 0..16 {
                let len = 2 + rng.below(3);
                let path = (0..len)
                    .map(|_| rules::draughts::Square::new(1 + rng.below(50) as u8).unwrap())
                    .collect();
                out.push(AnyAction::Draughts(DraughtsAction::Move {
                    path,
                    capture: rng.below(2) == 0,
                }));
            }
            out
        }
        AnyGame::Insect(_) => {
            let square = |rng: &mut Rng| {
                rules::insect::Square::new(rng.below(rules::insect::SQUARES as usize) as u8)
                    .unwrap()
            };
            (0..16)
                .map(|_| AnyAction::Insect(rules::insect::Move::new(square(rng), square(rng))))
                .collect()
        }
    };
    out.push(AnyAction::Gomoku(Action::DecideSwap { swap: true }));
    out.push(AnyAction::Othello(Move::Pass));
    out.push(AnyAction::Draughts(DraughtsAction::Move {
        path: vec![
            rules::draughts::Square::new(32).unwrap(),
            rules::draughts::Square::new(28).unwrap(),
        ],
        capture: false,
    }));
    out
}

/// The listing's properties at one position.
fn check(game: &AnyGame, listed: &[AnyAction], rng: &mut Rng) {
    assert_eq!(
        listed.is_empty(),
        game.status().is_over(),
        "empty exactly when over: {game:?}"
    );
    for action in listed {
        let mut g = game.clone();
        if let Err(e) = g.apply(action.clone()) {
            panic!("listed {action:?} refused ({e}) in {game:?}");
        }
    }
    let phase = match game {
        AnyGame::Gomoku(g) => g.status().phase().copied(),
        _ => None,
    };
    for action in samples(game, rng) {
        if listed.contains(&action) {
            continue;
        }
        let mut g = game.clone();
        let applied = g.apply(action.clone());
        match (&action, game) {
            (AnyAction::Gomoku(a), AnyGame::Gomoku(_)) if sampled(phase, a) => {
                // The complete listing is exact for proposals and offers (Swap2's pairs are judged by the rules
                // themselves: black's stone may be forbidden or make a five).
                let AnyLegal::Gomoku(legal) = game.legal() else {
                    unreachable!()
                };
                if !matches!(a, Action::PlaceTwo { .. }) {
                    assert_eq!(applied.is_ok(), legal.contains(a), "{a:?} in {game:?}");
                }
            }
            // Another route or the short form of a listed draughts move is applied as the listed one.
            (AnyAction::Draughts(_), AnyGame::Draughts(_)) if applied.is_ok() => {
                let recorded = AnyAction::Draughts(g.actions().last().cloned().map_or_else(
                    || unreachable!(),
                    |a| match a {
                        AnyAction::Draughts(d) => d,
                        _ => unreachable!(),
                    },
                ));
                assert!(
                    listed.contains(&recorded),
                    "{action:?} recorded as the unlisted {recorded:?}"
                );
            }
            _ => assert!(
                applied.is_err(),
                "{action:?} is not listed but applies in {game:?}"
            ),
        }
    }
}

/// A listed action, as games go: mostly near the last stone in Gomoku (so that fives and forbidden shapes
/// happen), uniformly otherwise.
fn pick(game: &AnyGame, listed: &[AnyAction], rng: &mut Rng) -> AnyAction {
    if let AnyGame::Gomoku(g) = game {
        if let Some(&last) = g.rules_game().moves().last() {
            let near: Vec<&AnyAction> = listed
                .iter()
                .filter(|a| match a {
                    AnyAction::Gomoku(Action::Place { point }) => {
                        point
                            .x()
                            .abs_diff(last.x())
                            .max(point.y().abs_diff(last.y()))
                            <= 2
                    }
                    _ => true,
                })
                .collect();
            if !near.is_empty() && rng.below(5) > 0 {
                return near[rng.below(near.len())].clone();
            }
        }
    }
    listed[rng.below(listed.len())].clone()
}

/// Plays one seeded random game of up to `limit` actions from the listing, checking every position. Returns
/// whether it ended by the rules.
fn walk(config: AnyConfig, seed: u64, limit: usize) -> bool {
    let mut rng = Rng(seed);
    let mut game = AnyGame::new(config, Seat::Zero);
    for _ in 0..limit {
        let listed = game.legal_actions();
        check(&game, &listed, &mut rng);
        if listed.is_empty() {
            return true;
        }
        let action = pick(&game, &listed, &mut rng);
        game.apply(action).expect("a listed action applies");
    }
    let listed = game.legal_actions();
    check(&game, &listed, &mut rng);
    game.status().is_over()
}

#[test]
fn every_listed_action_applies_and_unlisted_ones_are_refused_in_random_games_of_every_game_and_rule(
) {
    let mut ended = 0;
    for (k, config) in configs().into_iter().enumerate() {
        let limit = match config {
            AnyConfig::Gomoku(_) => 60,
            _ => 200,
        };
        for seed in 0..2 {
            ended += usize::from(walk(config, (k as u64) << 8 | seed, limit));
        }
    }
    assert!(ended > 20, "some games end by the rules: {ended}");
}

#[test]
fn every_opening_decision_phase_lists_its_decisions() {
    // Along one game per opening rule, each phase the game enters lists actions of the kind it asks for.
    let mut seen = Vec::new();
    for opening in OPENINGS {
        for seed in 0..6 {
            let config = AnyConfig::Gomoku(
                GomokuConfig::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, opening).unwrap(),
            );
            let mut rng = Rng(seed);
            let mut game = AnyGame::new(config, Seat::Zero);
            for _ in 0..12 {
                let AnyGame::Gomoku(g) = &game else {
                    unreachable!()
                };
                let Some(phase) = g.status().phase().copied() else {
                    break;
                };
                let listed = game.legal_actions();
                let has = |f: &dyn Fn(&Action) -> bool| {
                    listed
                        .iter()
                        .any(|a| matches!(a, AnyAction::Gomoku(a) if f(a)))
                };
                let ok = match phase {
                    Phase::Place | Phase::PlaceOpening => {
                        has(&|a| matches!(a, Action::Place { .. }))
                    }
                    Phase::SwapDecision => {
                        has(&|a| matches!(a, Action::DecideSwap { swap: true }))
                            && has(&|a| matches!(a, Action::DecideSwap { swap: false }))
                    }
                    Phase::Swap2Decision => {
                        has(&|a| matches!(a, Action::DecideSwap { .. }))
                            && has(&|a| matches!(a, Action::PlaceTwo { .. }))
                    }
                    Phase::ProposeFifth => has(&|a| matches!(a, Action::ProposeFifth { .. })),
                    Phase::ChooseFifth { .. } | Phase::ChooseOffer { .. } => {
                        has(&|a| matches!(a, Action::ChooseFifth { .. }))
                    }
                    Phase::DeclareOffers { max } => {
                        listed
                            .iter()
                            .filter(|a| {
                                matches!(a, AnyAction::Gomoku(Action::DeclareOffers { .. }))
                            })
                            .count()
                            == usize::from(max)
                    }
                    Phase::OfferFifths { count } => has(
                        &|a| matches!(a, Action::OfferFifths { offers } if offers.len() == usize::from(count)),
                    ),
                    Phase::TaraguchiChoice { .. } => {
                        has(&|a| matches!(a, Action::DecideSwap { .. }))
                            && has(&|a| matches!(a, Action::OfferFifths { .. }))
                    }
                };
                assert!(ok, "{opening:?} in {phase:?}: {listed:?}");
                seen.push(phase.as_str());
                let action = listed[rng.below(listed.len())].clone();
                game.apply(action).unwrap();
            }
        }
    }
    for phase in [
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
        assert!(seen.contains(&phase), "the games reach {phase}");
    }
}

#[test]
fn a_forbidden_point_is_not_listed_under_reject_and_is_listed_under_claim() {
    // Black's double three at j9 (h9 i9 / j10 j11 around it) in Renju.
    let texts = ["h8", "a1", "h9", "a3", "i9", "a5", "j10", "a7", "j11", "a9"];
    let place_j9 = AnyAction::Gomoku(Action::place("j9".parse().unwrap()));
    for (policy, listed) in [
        (ForbiddenPolicy::Reject, false),
        (ForbiddenPolicy::Claim, true),
    ] {
        let config = GomokuConfig::new(15, RuleSet::Renju, policy, Opening::None).unwrap();
        let mut game = AnyGame::new(AnyConfig::Gomoku(config), Seat::Zero);
        for t in texts {
            let action = games::GameKind::Gomoku.parse_action(t).unwrap();
            game.apply(action).unwrap();
        }
        let AnyGame::Gomoku(g) = &game else {
            unreachable!()
        };
        assert!(
            g.forbidden_points()
                .iter()
                .any(|(p, _)| *p == "j9".parse::<Point>().unwrap()),
            "j9 is forbidden: {:?}",
            g.forbidden_points()
        );
        assert_eq!(
            game.legal_actions().contains(&place_j9),
            listed,
            "{policy:?}"
        );
    }
}
