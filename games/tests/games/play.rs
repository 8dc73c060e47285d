//! Properties of the seam over random games: the legal listing agrees with `apply`, notation round-trips, replay
//! from stored texts gives the same game, undo restores it, deltas and views agree with the game.

use games::{
    AnyAction, AnyConfig, AnyDelta, AnyGame, AnyLegal, AnyView, Game, GameKind, GomokuConfig,
    GomokuLegal, NotationError, ReplayError, Seat, Status, StoredReplayError,
};
use proptest::prelude::*;
use rules::{Action, ForbiddenPolicy, IllegalAction, Opening, Point, RuleSet};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn any_config() -> impl Strategy<Value = AnyConfig> {
    let rule_set = prop_oneof![
        Just(RuleSet::Freestyle),
        Just(RuleSet::Standard),
        Just(RuleSet::Renju)
    ];
    let policy = prop_oneof![
        Just(ForbiddenPolicy::Lose),
        Just(ForbiddenPolicy::Reject),
        Just(ForbiddenPolicy::Claim)
    ];
    let opening = prop_oneof![
        Just(Opening::None),
        Just(Opening::SwapAfterThree),
        Just(Opening::SwapAfterThreeFifthTwoOptions),
        Just(Opening::Swap1),
        Just(Opening::Swap2),
        Just(Opening::Soosorv { n: 3 }),
        Just(Opening::Taraguchi { n: 2 })
    ];
    (rule_set, policy, opening, any::<bool>()).prop_map(|(r, p, o, big)| {
        let size = if big && r != RuleSet::Renju { 19 } else { 15 };
        AnyConfig::Gomoku(GomokuConfig::new(size, r, p, o).unwrap())
    })
}

fn gomoku_legal(game: &AnyGame) -> GomokuLegal {
    let AnyLegal::Gomoku(legal) = game.legal() else {
        panic!("a Gomoku game");
    };
    legal
}

/// A legal action from the listing, mostly next to the stones as real games go (so that fives and forbidden
/// shapes happen).
fn pick(game: &AnyGame, rng: &mut Rng) -> Option<Action> {
    let legal = gomoku_legal(game);
    if legal.claim && rng.below(2) == 0 {
        return Some(Action::ClaimForbidden);
    }
    if !legal.add.is_empty() && rng.below(3) == 0 {
        let a = legal.add[rng.below(legal.add.len())];
        let others: Vec<Point> = legal.add.iter().copied().filter(|&b| b != a).collect();
        return Some(Action::PlaceTwo {
            points: [a, others[rng.below(others.len())]],
        });
    }
    if let Some(count) = legal.offer_count {
        if !legal.swap || rng.below(2) == 0 {
            let mut classes: Vec<&Vec<Point>> = legal.fifth_classes.iter().collect();
            let mut points = Vec::new();
            while points.len() < usize::from(count) && !classes.is_empty() {
                let c = classes.swap_remove(rng.below(classes.len()));
                points.push(c[rng.below(c.len())]);
            }
            return Some(Action::OfferFifths {
                offers: rules::Offers::new(&points)?,
            });
        }
    }
    if legal.swap {
        return Some(Action::DecideSwap {
            swap: rng.below(2) == 0,
        });
    }
    if let Some(max) = legal.declare {
        return Some(Action::DeclareOffers {
            count: 1 + rng.below(usize::from(max)) as u8,
        });
    }
    if !legal.choose_offer.is_empty() {
        return Some(Action::ChooseFifth {
            point: legal.choose_offer[rng.below(legal.choose_offer.len())],
        });
    }
    if let Some(options) = legal.choose {
        return Some(Action::ChooseFifth {
            point: options[rng.below(2)],
        });
    }
    if legal.fifth_classes.len() >= 2 {
        let a = rng.below(legal.fifth_classes.len());
        let b = (a + 1 + rng.below(legal.fifth_classes.len() - 1)) % legal.fifth_classes.len();
        let (ca, cb) = (&legal.fifth_classes[a], &legal.fifth_classes[b]);
        return Some(Action::ProposeFifth {
            points: [ca[rng.below(ca.len())], cb[rng.below(cb.len())]],
        });
    }
    if legal.places.is_empty() {
        return None;
    }
    let AnyGame::Gomoku(g) = game else {
        panic!("a Gomoku game");
    };
    let stones = g.rules_game().moves();
    let near: Vec<Point> = legal
        .places
        .iter()
        .copied()
        .filter(|p| stones.iter().any(|s| s.touches(*p)))
        .collect();
    let pool = if !near.is_empty() && rng.below(10) < 9 {
        &near
    } else {
        &legal.places
    };
    Some(Action::place(pool[rng.below(pool.len())]))
}

/// Every action `apply` takes from this position agrees with the listing (all points for places and choices,
/// both swap answers, the claim; fifth proposals within and across classes).
fn check_listing(game: &AnyGame, rng: &mut Rng) -> Result<(), TestCaseError> {
    let legal = gomoku_legal(game);
    let plays = |a: Action| game.clone().apply(AnyAction::Gomoku(a)).is_ok();
    let AnyGame::Gomoku(g) = game else {
        panic!("a Gomoku game");
    };
    let size = g.rules_game().rules().size();
    let points: Vec<Point> = (0..size)
        .flat_map(|x| (0..size).map(move |y| Point::new(x, y).unwrap()))
        .collect();
    for &p in &points {
        for a in [Action::place(p), Action::ChooseFifth { point: p }] {
            prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
        }
    }
    for a in [
        Action::DecideSwap { swap: true },
        Action::DecideSwap { swap: false },
        Action::ClaimForbidden,
    ] {
        prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
    }
    for _ in 0..40 {
        let pair = [
            points[rng.below(points.len())],
            points[rng.below(points.len())],
        ];
        let a = Action::ProposeFifth { points: pair };
        prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
    }
    if !legal.fifth_classes.is_empty() {
        // While black proposes: a few first points against every second one.
        for _ in 0..4 {
            let first = points[rng.below(points.len())];
            for &second in &points {
                let a = Action::ProposeFifth {
                    points: [first, second],
                };
                prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
            }
        }
    }
    for class in legal.fifth_classes.iter().filter(|c| c.len() > 1) {
        let a = Action::ProposeFifth {
            points: [class[0], class[class.len() - 1]],
        };
        prop_assert!(!plays(a), "symmetric offers refused: {:?}", a);
    }
    prop_assert_eq!(legal.is_empty(), game.status().is_over());
    Ok(())
}

/// What the random games went through, so that a test can show the properties were not checked vacuously.
#[derive(Default, Debug)]
struct Seen {
    swaps: usize,
    proposals: usize,
    choices: usize,
    claims: usize,
    fives: usize,
    forbidden_losses: usize,
}

/// One random game of up to `plies` actions, checking every property at every position.
fn walk(
    config: AnyConfig,
    first: Seat,
    seed: u64,
    plies: usize,
    seen: &mut Seen,
) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed | 1);
    let mut game = AnyGame::new(config, first);
    let mut texts: Vec<String> = Vec::new();
    while texts.len() < plies {
        check_listing(&game, &mut rng)?;
        let Some(action) = pick(&game, &mut rng) else {
            break;
        };
        let played = action;
        let action = || AnyAction::Gomoku(played);
        let text = action().encode();
        prop_assert_eq!(AnyAction::decode(GameKind::Gomoku, &text), Ok(action()));
        prop_assert_eq!(game.parse_action(&text), Ok(action()));
        let before = game.clone();
        let seat = game.seat_of(game.to_act().unwrap());
        prop_assert_eq!(
            game.clone().apply_as(seat.other(), action()).map(|_| ()),
            Err(games::AnyIllegal::Gomoku(IllegalAction::NotYourTurn))
        );
        let AnyDelta::Gomoku(delta) = game
            .apply_as(seat, action())
            .expect("a listed action plays")
        else {
            panic!("a Gomoku game");
        };
        texts.push(text);
        match action() {
            AnyAction::Gomoku(Action::DecideSwap { .. }) => seen.swaps += 1,
            AnyAction::Gomoku(Action::ProposeFifth { .. }) => seen.proposals += 1,
            AnyAction::Gomoku(Action::ChooseFifth { .. }) => seen.choices += 1,
            AnyAction::Gomoku(Action::ClaimForbidden) => seen.claims += 1,
            AnyAction::Gomoku(
                Action::Place { .. }
                | Action::PlaceTwo { .. }
                | Action::DeclareOffers { .. }
                | Action::OfferFifths { .. },
            )
            | AnyAction::Othello(_)
            | AnyAction::Draughts(_)
            | AnyAction::Insect(_) => {}
        }
        match game.status().outcome().map(|o| o.reason) {
            Some("five") => seen.fives += 1,
            Some("forbidden_move") => seen.forbidden_losses += 1,
            _ => {}
        }
        // The delta carries the new status and the forbidden points the view shows.
        let AnyGame::Gomoku(member) = &game else {
            panic!("a Gomoku game");
        };
        prop_assert_eq!(&delta.status, &member.status());
        let AnyView::Gomoku(view) = game.view(false) else {
            panic!("a Gomoku game");
        };
        prop_assert_eq!(&delta.forbidden, &view.forbidden);
        prop_assert_eq!(view.to_act, game.to_act());
        prop_assert_eq!(view.moves.len() as u32, game.ply());
        // Undo gives back exactly the game before.
        let mut undone = game.clone();
        prop_assert_eq!(undone.undo(), Some(action()));
        prop_assert_eq!(&undone, &before);
        prop_assert_eq!(undone.view(false), before.view(false));
        if game.status().is_over() {
            break;
        }
    }
    // A game ended by the room shows nobody to act and no hints, the same stones.
    let AnyView::Gomoku(ended) = game.view(true) else {
        panic!("a Gomoku game");
    };
    let AnyView::Gomoku(live) = game.view(false) else {
        panic!("a Gomoku game");
    };
    prop_assert_eq!(
        (
            ended.to_act,
            ended.phase,
            ended.claimable,
            ended.fifth_options
        ),
        (None, None, None, None)
    );
    prop_assert!(ended.forbidden.is_empty());
    prop_assert_eq!(&ended.moves, &live.moves);
    prop_assert_eq!(ended.swapped, live.swapped);
    // The stored texts replay into the same game, as do the actions themselves.
    let replayed = AnyGame::replay_stored(config, first, &texts).expect("the game replays");
    prop_assert_eq!(&replayed, &game);
    let from_actions =
        AnyGame::from_actions(config, first, &game.actions()).expect("the game replays");
    prop_assert_eq!(&from_actions, &game);
    prop_assert_eq!(game.action_count(), texts.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_random_game_agrees_with_its_listing_notation_replay_undo_and_views(
        config in any_config(),
        first in prop_oneof![Just(Seat::Zero), Just(Seat::One)],
        seed in any::<u64>(),
        plies in 1usize..60,
    ) {
        walk(config, first, seed, plies, &mut Seen::default())?;
    }

    #[test]
    fn arbitrary_actions_never_panic_and_a_refused_one_changes_nothing(
        config in any_config(),
        picks in proptest::collection::vec((0u8..19, 0u8..19, 0u8..19, 0u8..19, 0usize..6), 0..80),
    ) {
        let mut game = AnyGame::new(config, Seat::Zero);
        for (x, y, x2, y2, form) in picks {
            let (p, q) = (Point::new(x, y).unwrap(), Point::new(x2, y2).unwrap());
            let action = AnyAction::Gomoku([
                Action::place(p),
                Action::DecideSwap { swap: x % 2 == 0 },
                Action::DecideSwap { swap: false },
                Action::ProposeFifth { points: [p, q] },
                Action::ChooseFifth { point: p },
                Action::ClaimForbidden,
            ][form]);
            let before = game.clone();
            if game.apply(action).is_err() {
                prop_assert_eq!(&game, &before);
            }
        }
    }

    #[test]
    fn every_action_has_one_text_that_parses_back(
        x in 0u8..19, y in 0u8..19, x2 in 0u8..19, y2 in 0u8..19, form in 0usize..6,
    ) {
        let (p, q) = (Point::new(x, y).unwrap(), Point::new(x2, y2).unwrap());
        let action = [
            Action::place(p),
            Action::DecideSwap { swap: true },
            Action::DecideSwap { swap: false },
            Action::ProposeFifth { points: [p, q] },
            Action::ChooseFifth { point: p },
            Action::ClaimForbidden,
        ][form];
        let any = AnyAction::Gomoku(action);
        prop_assert_eq!(GameKind::Gomoku.parse_action(&any.notation()), Ok(any));
    }

    #[test]
    fn a_text_parses_only_as_the_action_that_writes_it(
        text in "[a-uA-Z0-9:,]{0,5}|(propose|choose):[a-uH0-9,]{0,8}|swap|keep|claim",
    ) {
        match GameKind::Gomoku.parse_action(&text) {
            Ok(action) => prop_assert_eq!(action.notation(), text),
            Err(NotationError::NotCanonical { canonical }) => {
                prop_assert_ne!(&canonical, &text);
                let action = GameKind::Gomoku.parse_action(&canonical).unwrap();
                prop_assert_eq!(action.notation(), canonical);
            }
            Err(e) => prop_assert!(!e.code().is_empty()),
        }
    }
}

#[test]
fn a_stored_game_that_does_not_replay_names_its_first_bad_action() {
    let config = AnyConfig::Gomoku(
        GomokuConfig::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, Opening::None).unwrap(),
    );
    let occupied = AnyGame::replay_stored(config, Seat::Zero, &["h8", "h9", "h8"]);
    assert_eq!(
        occupied,
        Err(ReplayError {
            index: 2,
            reason: StoredReplayError::Illegal(games::AnyIllegal::Gomoku(IllegalAction::Occupied)),
        })
    );
    assert_eq!(occupied.unwrap_err().reason.code(), "occupied");
    let garbled = AnyGame::replay_stored(config, Seat::Zero, &["h8", "h99x"]);
    assert_eq!(garbled.as_ref().map_err(|e| e.index), Err(1));
    assert_eq!(garbled.unwrap_err().reason.code(), "malformed_action");
    // Old JSON and notation mix in one stored game (rows written before and after the seam).
    let mixed = AnyGame::replay_stored(
        config,
        Seat::Zero,
        &[r#"{"action":"place","point":"h8"}"#, "h9"],
    )
    .unwrap();
    assert_eq!(mixed.ply(), 2);
    let after_end = AnyGame::from_actions(
        config,
        Seat::Zero,
        &["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]
            .map(|t| GameKind::Gomoku.parse_action(t).unwrap()),
    );
    let game = after_end.unwrap();
    let Status::Over(outcome) = game.status() else {
        panic!("black made five")
    };
    assert_eq!(outcome.reason, "five");
    let mut over = game.clone();
    assert_eq!(
        over.apply(GameKind::Gomoku.parse_action("b1").unwrap()),
        Err(games::AnyIllegal::Gomoku(IllegalAction::GameOver))
    );
}

#[test]
fn the_random_games_reach_every_kind_of_action_and_ending() {
    let mut seen = Seen::default();
    for (i, (rule_set, policy, opening)) in [
        (
            RuleSet::Renju,
            ForbiddenPolicy::Claim,
            Opening::SwapAfterThreeFifthTwoOptions,
        ),
        (
            RuleSet::Renju,
            ForbiddenPolicy::Lose,
            Opening::SwapAfterThree,
        ),
        (
            RuleSet::Renju,
            ForbiddenPolicy::Reject,
            Opening::SwapAfterThreeFifthTwoOptions,
        ),
        (RuleSet::Freestyle, ForbiddenPolicy::Reject, Opening::None),
    ]
    .into_iter()
    .enumerate()
    {
        let config = AnyConfig::Gomoku(GomokuConfig::new(15, rule_set, policy, opening).unwrap());
        for seed in 0..12u64 {
            walk(
                config,
                Seat::BOTH[(seed % 2) as usize],
                seed * 7919 + i as u64,
                120,
                &mut seen,
            )
            .unwrap();
        }
    }
    assert!(
        seen.swaps > 0
            && seen.proposals > 0
            && seen.choices > 0
            && seen.claims > 0
            && seen.fives > 0
            && seen.forbidden_losses > 0,
        "{seen:?}"
    );
}

#[test]
fn a_point_off_the_chosen_board_is_refused_at_its_edge() {
    for (size, inside, outside) in [(15, "o15", ["p1", "a16"]), (19, "s19", ["t1", "a20"])] {
        let config = AnyConfig::Gomoku(
            GomokuConfig::new(
                size,
                RuleSet::Freestyle,
                ForbiddenPolicy::Reject,
                Opening::None,
            )
            .unwrap(),
        );
        let mut game = AnyGame::new(config, Seat::Zero);
        for text in outside {
            // Beyond the largest board the notation refuses it; beyond this board the rules do.
            let refused = match GameKind::Gomoku.parse_action(text) {
                Ok(action) => {
                    game.apply(action) == Err(games::AnyIllegal::Gomoku(IllegalAction::OffBoard))
                }
                Err(e) => e.code() == "off_board",
            };
            assert!(refused, "{text} on {size}x{size}");
        }
        assert!(game
            .apply(GameKind::Gomoku.parse_action(inside).unwrap())
            .is_ok());
    }
}
