//! The modern opening rules on the seam (issue #19): the legal listing agrees with `apply` in every opening
//! phase, the view carries what a client shows (phase, the count to offer, the offers, the opening's name), and
//! who holds which colour comes out of the game.

use games::{Game, Gomoku, GomokuChange, GomokuConfig, GomokuLegal, Seat};
use proptest::prelude::*;
use rules::{Action, Color, ForbiddenPolicy, Offers, Opening, Phase, Point, RuleSet, Symmetry};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn game(opening: Opening) -> Gomoku {
    let config = GomokuConfig::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, opening).unwrap();
    Gomoku::new(config, Seat::Zero)
}

fn play(g: &mut Gomoku, texts: &[&str]) {
    for t in texts {
        let action = g.parse_action(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        g.apply(action).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

#[test]
fn the_view_shows_the_phase_the_count_the_offers_and_the_opening_name() {
    let mut g = game(Opening::SOOSORV_8);
    assert_eq!(g.view(false).phase, Some(Phase::PlaceOpening));
    play(&mut g, &["h8", "h9", "i9"]);
    let view = g.view(false);
    assert_eq!(view.opening_name.map(|o| o.code), Some("4D"));
    assert_eq!(view.opening_name.map(|o| o.romaji), Some("Kagetsu"));
    assert_eq!(view.phase, Some(Phase::SwapDecision));
    play(&mut g, &["swap", "j7"]);
    assert_eq!(g.view(false).phase, Some(Phase::DeclareOffers { max: 8 }));
    assert_eq!(g.legal().declare, Some(8));
    play(&mut g, &["declare:3", "keep"]);
    assert_eq!(g.view(false).phase, Some(Phase::OfferFifths { count: 3 }));
    assert_eq!(g.legal().offer_count, Some(3));
    let delta = g
        .apply(g.parse_action("offer:a1,k10,c12").unwrap())
        .unwrap();
    assert_eq!(
        delta.change,
        GomokuChange::FifthsOffered {
            points: vec![p("a1"), p("k10"), p("c12")]
        }
    );
    let view = g.view(false);
    assert_eq!(view.offers, Some(vec![p("a1"), p("k10"), p("c12")]));
    assert_eq!(view.to_act, Some(Color::White));
    assert_eq!(g.legal().choose_offer, vec![p("a1"), p("k10"), p("c12")]);
    // Once the room holds a result the view shows nothing to act on, but the opening's name stays.
    let over = g.view(true);
    assert_eq!(over.offers, None);
    assert_eq!(over.opening_name.map(|o| o.code), Some("4D"));
}

#[test]
fn who_holds_which_colour_follows_every_swap() {
    // Seat 0 starts with black. Taraguchi: swap after 1 (seat 0 white), keep, swap after 3 (seat 0 black again).
    let mut g = game(Opening::TARAGUCHI_10);
    play(&mut g, &["h8", "swap"]);
    assert_eq!(g.seat_of(Color::Black), Seat::One);
    play(&mut g, &["i9", "keep", "j10", "swap"]);
    assert_eq!(g.seat_of(Color::Black), Seat::Zero);
    assert_eq!(g.seat_of(g.to_act().unwrap()), Seat::One, "white plays 4");
    // Swap2: the first player places all three stones while holding black.
    let mut g = game(Opening::Swap2);
    for m in ["h8", "j10", "g9"] {
        assert_eq!(g.seat_of(g.to_act().unwrap()), Seat::Zero);
        play(&mut g, &[m]);
    }
    assert_eq!(g.seat_of(g.to_act().unwrap()), Seat::One);
    play(&mut g, &["add:i9,f10"]);
    assert_eq!(
        g.seat_of(g.to_act().unwrap()),
        Seat::Zero,
        "the first player picks"
    );
    play(&mut g, &["swap"]);
    assert_eq!(g.seat_of(Color::White), Seat::Zero);
    assert_eq!(
        g.seat_of(g.to_act().unwrap()),
        Seat::Zero,
        "and plays 6 as white"
    );
}

#[test]
fn the_opening_actions_count_as_moves_and_decisions_as_the_room_needs() {
    let add = Action::PlaceTwo {
        points: [p("a1"), p("a2")],
    };
    let declare = Action::DeclareOffers { count: 2 };
    let offer = Action::OfferFifths {
        offers: Offers::new(&[p("a1")]).unwrap(),
    };
    assert!(Gomoku::is_move(&add));
    assert!(!Gomoku::is_move(&declare) && !Gomoku::is_move(&offer));
    for a in [add, declare, offer] {
        assert!(Gomoku::is_opening_decision(&a));
        assert!(Gomoku::at_most_once(&a));
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random action from the listing.
fn pick(legal: &GomokuLegal, rng: &mut Rng) -> Option<Action> {
    let mut options = Vec::new();
    if legal.swap {
        options.push(Action::DecideSwap {
            swap: rng.below(2) == 0,
        });
    }
    if legal.add.len() >= 2 {
        let a = rng.below(legal.add.len());
        let b = (a + 1 + rng.below(legal.add.len() - 1)) % legal.add.len();
        options.push(Action::PlaceTwo {
            points: [legal.add[a], legal.add[b]],
        });
    }
    if let Some(max) = legal.declare {
        options.push(Action::DeclareOffers {
            count: 1 + rng.below(usize::from(max)) as u8,
        });
    }
    if let Some(count) = legal.offer_count {
        let mut classes = legal.fifth_classes.clone();
        let mut points = Vec::new();
        while points.len() < usize::from(count) && !classes.is_empty() {
            let c = classes.swap_remove(rng.below(classes.len()));
            points.push(c[rng.below(c.len())]);
        }
        if let Some(offers) = Offers::new(&points) {
            options.push(Action::OfferFifths { offers });
        }
    }
    if !legal.choose_offer.is_empty() {
        options.push(Action::ChooseFifth {
            point: legal.choose_offer[rng.below(legal.choose_offer.len())],
        });
    }
    if !legal.places.is_empty() {
        options.push(Action::place(legal.places[rng.below(legal.places.len())]));
    }
    (!options.is_empty()).then(|| options[rng.below(options.len())])
}

/// Every opening action `apply` takes agrees with the listing: extra stones, declarations, offers (right and
/// wrong counts, repeats, symmetric pairs, occupied points), choices and places.
fn check(g: &Gomoku, rng: &mut Rng) -> Result<(), TestCaseError> {
    let legal = g.legal();
    let plays = |a: Action| g.clone().apply(a).is_ok();
    let all: Vec<Point> = (0..15)
        .flat_map(|x| (0..15).map(move |y| Point::new(x, y).unwrap()))
        .collect();
    let any = |rng: &mut Rng| all[rng.below(all.len())];
    for &q in &all {
        for a in [Action::place(q), Action::ChooseFifth { point: q }] {
            prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
        }
    }
    for count in 0..=11 {
        let a = Action::DeclareOffers { count };
        prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
    }
    for a in [
        Action::DecideSwap { swap: true },
        Action::DecideSwap { swap: false },
    ] {
        prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
    }
    for _ in 0..20 {
        let near = g.rules_game().moves().first().copied().unwrap_or(p("h8"));
        let a = Action::PlaceTwo {
            points: [any(rng), if rng.below(2) == 0 { near } else { any(rng) }],
        };
        prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
        let len = 1 + rng.below(4);
        let mut points: Vec<Point> = (0..len).map(|_| any(rng)).collect();
        if let Some(c) = legal.fifth_classes.iter().find(|c| c.len() > 1) {
            if rng.below(2) == 0 {
                points[0] = c[0];
                points.push(c[1]);
            }
        }
        let a = Action::OfferFifths {
            offers: Offers::new(&points).unwrap(),
        };
        prop_assert_eq!(plays(a), legal.contains(&a), "{:?}", a);
    }
    if let Some(a) = pick(&legal, rng) {
        prop_assert!(plays(a), "a picked action plays: {:?}", a);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_listing_agrees_with_apply_in_every_opening_phase(
        which in 0usize..4,
        seed in any::<u64>(),
    ) {
        let opening = [Opening::Swap1, Opening::Swap2, Opening::Soosorv { n: 3 }, Opening::Taraguchi { n: 2 }][which];
        let mut rng = Rng(seed | 1);
        let mut g = game(opening);
        for _ in 0..9 {
            check(&g, &mut rng)?;
            let Some(a) = pick(&g.legal(), &mut rng) else { break };
            g.apply(a).expect("a listed action plays");
            let replayed = Gomoku::from_actions(g.config(), Seat::Zero, &g.actions()).unwrap();
            prop_assert_eq!(&replayed, &g);
        }
    }

    #[test]
    fn symmetry_of_the_board_commutes_with_naming_the_opening(
        xs in proptest::collection::vec((4u8..11, 4u8..11), 3),
        s in 0usize..8,
    ) {
        let stones: Vec<Point> = xs.iter().map(|&(x, y)| Point::new(x, y).unwrap()).collect();
        let mut with_centre = stones.clone();
        with_centre[0] = Point::centre(15);
        for pos in [stones, with_centre] {
            let sym = Symmetry::ALL[s];
            let moved: Vec<Point> = pos.iter().map(|&q| sym.apply(q, 15)).collect();
            prop_assert_eq!(rules::name_opening(&moved, 15), rules::name_opening(&pos, 15));
        }
    }
}
