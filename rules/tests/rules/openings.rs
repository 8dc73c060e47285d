//! The modern opening rules (Swap1, Swap2, Soosõrv-N, Taraguchi-N) and the 26 canonical openings: every branch
//! played through, every refusal with its code, undo and replay through the opening phases.

use rules::{
    name_opening, Action, Color, ForbiddenPolicy, Game, IllegalAction, Offers, Opening,
    OpeningFamily, Phase, Point, RuleSet, Rules, Status, Symmetry, CANONICAL_OPENINGS,
};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

/// A small text form for tests: a point, `swap`, `keep`, `declare:N`, `offer:a,b,…`, `two:a,b`, `choose:a`.
fn action(text: &str) -> Action {
    let points = |s: &str| s.split(',').map(p).collect::<Vec<_>>();
    match text {
        "swap" => Action::DecideSwap { swap: true },
        "keep" => Action::DecideSwap { swap: false },
        _ => match text.split_once(':') {
            Some(("declare", n)) => Action::DeclareOffers {
                count: n.parse().unwrap(),
            },
            Some(("offer", list)) => Action::OfferFifths {
                offers: Offers::new(&points(list)).unwrap(),
            },
            Some(("two", list)) => {
                let ps = points(list);
                Action::PlaceTwo {
                    points: [ps[0], ps[1]],
                }
            }
            Some(("choose", q)) => Action::ChooseFifth { point: p(q) },
            _ => Action::place(p(text)),
        },
    }
}

fn play(rules: Rules, texts: &[&str]) -> Game {
    let mut g = Game::new(rules);
    for t in texts {
        g.apply(action(t))
            .unwrap_or_else(|e| panic!("{t} in {:?}: {e}", g.status()));
    }
    g
}

fn renju(opening: Opening) -> Rules {
    Rules::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, opening).unwrap()
}

fn phase(g: &Game) -> (Color, Phase) {
    match g.status() {
        Status::Ongoing { to_act, phase } => (to_act, phase),
        other => panic!("over: {other:?}"),
    }
}

fn refusal(g: &Game, text: &str) -> &'static str {
    g.check(action(text)).expect_err(text).code()
}

// --- The 26 canonical openings -------------------------------------------------------------------------------

/// Every arrangement of three distinct stones (black, white, black) in the central 5x5 square of the 15x15 board.
fn all_positions() -> Vec<[Point; 3]> {
    let square: Vec<Point> = (5..10)
        .flat_map(|x| (5..10).map(move |y| Point::new(x, y).unwrap()))
        .collect();
    let mut out = Vec::new();
    for &a in &square {
        for &b in &square {
            for &c in &square {
                if a != b && b != c && a != c {
                    out.push([a, b, c]);
                }
            }
        }
    }
    out
}

#[test]
fn every_three_stone_position_in_the_central_square_names_one_opening_or_none() {
    let centre = Point::centre(15);
    let mut seen = std::collections::HashMap::new();
    for stones in all_positions() {
        let canonical = stones[0] == centre && centre.touches(stones[1]);
        let name = name_opening(&stones, 15);
        assert_eq!(name.is_some(), canonical, "{stones:?}");
        if let Some(o) = name {
            let direct = stones[0].x() == stones[1].x() || stones[0].y() == stones[1].y();
            assert_eq!(o.family == OpeningFamily::Direct, direct, "{stones:?}");
            *seen.entry(o.code).or_insert(0) += 1;
        }
        for s in Symmetry::ALL {
            let moved = stones.map(|q| s.apply(q, 15));
            assert_eq!(name_opening(&moved, 15), name, "{stones:?} under {s:?}");
        }
    }
    assert_eq!(seen.len(), 26, "all 26 are reached");
    // Each family: 4 white stones x 23 third stones; an opening off the family's mirror axis comes in 8
    // orientations, one on it in 4.
    assert_eq!(seen.values().sum::<i32>(), 2 * 4 * 23);
    assert!(seen.values().all(|&n| n == 4 || n == 8), "{seen:?}");
}

#[test]
fn the_names_are_the_federation_list() {
    let named = |stones: [&str; 3]| name_opening(&stones.map(p), 15).unwrap();
    // Direct (white h9), indirect (white i9), as in the RIF / renju.net diagrams.
    assert_eq!(named(["h8", "h9", "h10"]).romaji, "Kansei");
    assert_eq!(named(["h8", "h9", "i9"]).code, "4D");
    assert_eq!(named(["h8", "h9", "i9"]).japanese, "花月");
    assert_eq!(named(["h8", "h9", "j7"]).romaji, "Shingetsu");
    assert_eq!(named(["h8", "h9", "j6"]).english, "Planet");
    assert_eq!(named(["h8", "i9", "j10"]).romaji, "Chosei");
    assert_eq!(named(["h8", "i9", "i7"]).code, "7I");
    assert_eq!(named(["h8", "i9", "i7"]).chinese, "浦月");
    assert_eq!(named(["h8", "i9", "f6"]).romaji, "Suisei");
    assert_eq!(named(["h8", "i9", "j9"]).romaji, "Kyogetsu");
    assert_eq!(CANONICAL_OPENINGS[1].romaji, "Keigetsu");
    assert_eq!(name_opening(&[p("h8"), p("h9")], 15), None);
    assert_eq!(name_opening(&[p("h8"), p("h10"), p("i9")], 15), None);
    assert_eq!(name_opening(&[p("h8"), p("h9"), p("k8")], 15), None);
}

// --- Swap1 ---------------------------------------------------------------------------------------------------

#[test]
fn swap1_the_first_player_places_three_anywhere_then_the_other_picks_a_colour() {
    let mut g = Game::new(Rules::freestyle().with_opening(Opening::Swap1));
    assert_eq!(phase(&g), (Color::Black, Phase::PlaceOpening));
    for (k, m) in ["a1", "o15", "c3"].iter().enumerate() {
        g.apply(action(m)).unwrap();
        let want = if k < 2 {
            (Color::Black, Phase::PlaceOpening)
        } else {
            (Color::White, Phase::SwapDecision)
        };
        assert_eq!(phase(&g), want);
    }
    assert_eq!(g.board().get(p("o15")), Some(Color::White));
    assert_eq!(refusal(&g, "h8"), "swap_decision_pending");
    let mut taken = g.clone();
    taken.apply(action("swap")).unwrap();
    assert!(taken.colours_swapped());
    assert_eq!(phase(&taken), (Color::White, Phase::Place));
    g.apply(action("keep")).unwrap();
    assert!(!g.colours_swapped());
    assert_eq!(phase(&g), (Color::White, Phase::Place));
    g.apply(action("h8")).unwrap();
    assert_eq!(g.board().get(p("h8")), Some(Color::White));
}

// --- Swap2 ---------------------------------------------------------------------------------------------------

fn swap2_three() -> Game {
    play(
        Rules::standard().with_opening(Opening::Swap2),
        &["h8", "j10", "g9"],
    )
}

#[test]
fn swap2_answer_take_black_swaps_and_white_plays_four() {
    let mut g = swap2_three();
    assert_eq!(phase(&g), (Color::White, Phase::Swap2Decision));
    g.apply(action("swap")).unwrap();
    assert!(g.colours_swapped());
    assert_eq!(phase(&g), (Color::White, Phase::Place));
}

#[test]
fn swap2_answer_take_white_keeps_colours_and_white_plays_four() {
    let mut g = swap2_three();
    g.apply(action("keep")).unwrap();
    assert!(!g.colours_swapped());
    g.apply(action("k11")).unwrap();
    assert_eq!(phase(&g), (Color::Black, Phase::Place));
}

#[test]
fn swap2_answer_two_more_stones_leaves_the_choice_to_the_first_player() {
    let g = swap2_three();
    let mut two = g.clone();
    two.apply(action("two:i9,f10")).unwrap();
    assert_eq!(two.ply(), 5);
    assert_eq!(two.board().get(p("i9")), Some(Color::White));
    assert_eq!(two.board().get(p("f10")), Some(Color::Black));
    assert_eq!(phase(&two), (Color::Black, Phase::SwapDecision));
    for (decision, swapped) in [("swap", true), ("keep", false)] {
        let mut after = two.clone();
        after.apply(action(decision)).unwrap();
        assert_eq!(after.colours_swapped(), swapped);
        assert_eq!(phase(&after), (Color::White, Phase::Place));
        after.apply(action("a1")).unwrap();
        assert_eq!(after.board().get(p("a1")), Some(Color::White));
    }
    assert_eq!(two.clone().undo(), Some(action("two:i9,f10")));
    let mut undone = two.clone();
    undone.undo();
    assert_eq!(undone, g);
}

#[test]
fn swap2_refusals() {
    let g = swap2_three();
    assert_eq!(refusal(&g, "two:h8,a1"), "occupied");
    assert_eq!(refusal(&g, "two:a1,h8"), "occupied");
    assert_eq!(refusal(&g, "two:a1,a1"), "occupied");
    assert_eq!(refusal(&g, "a1"), "swap_decision_pending");
    assert_eq!(refusal(&g, "declare:3"), "no_declaration_expected");
    let before = play(Rules::standard().with_opening(Opening::Swap2), &["h8"]);
    assert_eq!(refusal(&before, "two:a1,a2"), "no_place_two_expected");
    assert_eq!(refusal(&before, "swap"), "no_swap_pending");
    let mut kept = g.clone();
    kept.apply(action("keep")).unwrap();
    assert_eq!(refusal(&kept, "two:a1,a2"), "no_place_two_expected");
}

// --- Soosõrv-N -----------------------------------------------------------------------------------------------

fn soosorv(n: u8) -> Rules {
    renju(Opening::Soosorv { n })
}

#[test]
fn soosorv_first_three_stones_must_make_a_canonical_opening() {
    let g = Game::new(soosorv(8));
    assert_eq!(refusal(&g, "h9"), "must_play_centre");
    let g = play(soosorv(8), &["h8"]);
    assert_eq!(phase(&g), (Color::Black, Phase::PlaceOpening));
    assert_eq!(refusal(&g, "h10"), "must_touch_first_stone");
    let g = play(soosorv(8), &["h8", "i9"]);
    assert_eq!(refusal(&g, "k8"), "not_a_canonical_opening");
    assert_eq!(refusal(&g, "a1"), "not_a_canonical_opening");
    assert_eq!(g.legal_places().len(), 23);
}

fn soosorv_to_declaration(first_swap: bool) -> Game {
    let swap = if first_swap { "swap" } else { "keep" };
    play(soosorv(8), &["h8", "h9", "i9", swap, "j7"])
}

#[test]
fn soosorv_white_declares_then_black_may_swap_then_offers_that_many() {
    for first in [true, false] {
        for second in [true, false] {
            let mut g = soosorv_to_declaration(first);
            assert_eq!(phase(&g), (Color::White, Phase::DeclareOffers { max: 8 }));
            assert_eq!(refusal(&g, "a1"), "declaration_pending");
            assert_eq!(refusal(&g, "declare:0"), "declaration_out_of_range");
            assert_eq!(refusal(&g, "declare:9"), "declaration_out_of_range");
            g.apply(action("declare:2")).unwrap();
            assert_eq!(g.declared_offers(), Some(2));
            assert_eq!(phase(&g), (Color::Black, Phase::SwapDecision));
            g.apply(action(if second { "swap" } else { "keep" }))
                .unwrap();
            assert_eq!(g.colours_swapped(), first ^ second);
            assert_eq!(phase(&g), (Color::Black, Phase::OfferFifths { count: 2 }));
            assert_eq!(refusal(&g, "a1"), "offers_required");
            assert_eq!(refusal(&g, "offer:a1"), "wrong_number_of_offers");
            assert_eq!(refusal(&g, "offer:a1,a2,a3"), "wrong_number_of_offers");
            assert_eq!(refusal(&g, "offer:a1,a1"), "duplicate_offer");
            assert_eq!(refusal(&g, "offer:a1,h8"), "occupied");
            g.apply(action("offer:a1,k10")).unwrap();
            assert_eq!(g.offers().unwrap().as_slice(), &[p("a1"), p("k10")]);
            assert_eq!(refusal(&g, "a2"), "fifth_choice_pending");
            assert_eq!(refusal(&g, "choose:a2"), "not_a_fifth_option");
            g.apply(action("choose:k10")).unwrap();
            assert_eq!(g.board().get(p("k10")), Some(Color::Black));
            assert_eq!(g.board().get(p("a1")), None);
            assert_eq!(phase(&g), (Color::White, Phase::Place));
        }
    }
}

#[test]
fn soosorv_refuses_symmetric_offers_and_accepts_the_boundaries_of_n() {
    // 1D (h8 h9 h10) with white's fourth stone on h11 is symmetric about column h: g5 and i5 mirror each other.
    let mut g = play(
        soosorv(8),
        &["h8", "h9", "h10", "keep", "h11", "declare:2", "keep"],
    );
    assert_eq!(refusal(&g, "offer:g5,i5"), "symmetric_offer");
    g.apply(action("offer:g5,h5")).unwrap();
    for (n, max) in [(1, 1), (10, 10)] {
        let mut g = play(soosorv(n), &["h8", "h9", "h10", "keep", "h11"]);
        assert_eq!(phase(&g), (Color::White, Phase::DeclareOffers { max }));
        let over = format!("declare:{}", max + 1);
        assert_eq!(refusal(&g, &over), "declaration_out_of_range");
        g.apply(action(&format!("declare:{max}"))).unwrap();
    }
}

#[test]
fn soosorv_undo_walks_back_through_every_phase() {
    let texts = [
        "h8",
        "h9",
        "i9",
        "swap",
        "j7",
        "declare:3",
        "swap",
        "offer:a1,k10,c12",
        "choose:c12",
        "d4",
    ];
    let full = play(soosorv(8), &texts);
    let mut g = full.clone();
    for k in (0..texts.len()).rev() {
        assert_eq!(g.undo(), Some(action(texts[k])));
        assert_eq!(
            g,
            play(soosorv(8), &texts[..k]),
            "after undoing {}",
            texts[k]
        );
    }
    assert_eq!(g.undo(), None);
    // Replay of the stored sequence gives the same game, colours included.
    let replayed = Game::from_actions(soosorv(8), full.actions()).unwrap();
    assert_eq!(replayed, full);
    assert!(!replayed.colours_swapped());
    let mut bad = full.actions().to_vec();
    bad[7] = action("offer:a1,a2");
    assert_eq!(
        Game::from_actions(soosorv(8), &bad).unwrap_err().reason,
        IllegalAction::WrongNumberOfOffers
    );
}

// --- Taraguchi-N ---------------------------------------------------------------------------------------------

fn taraguchi(n: u8) -> Rules {
    renju(Opening::Taraguchi { n })
}

#[test]
fn taraguchi_each_of_the_first_four_moves_is_inside_its_square_with_a_swap_after_it() {
    let mut g = Game::new(taraguchi(10));
    assert_eq!(phase(&g), (Color::Black, Phase::Place));
    assert_eq!(refusal(&g, "h9"), "must_play_centre");
    g.apply(action("h8")).unwrap();
    assert_eq!(phase(&g), (Color::White, Phase::SwapDecision));
    g.apply(action("swap")).unwrap();
    assert_eq!(phase(&g), (Color::White, Phase::Place));
    assert_eq!(refusal(&g, "h10"), "outside_central_square");
    assert_eq!(g.legal_places().len(), 8);
    g.apply(action("i9")).unwrap();
    assert_eq!(phase(&g), (Color::Black, Phase::SwapDecision));
    g.apply(action("keep")).unwrap();
    assert_eq!(refusal(&g, "k8"), "outside_central_square");
    assert_eq!(g.legal_places().len(), 23);
    g.apply(action("j10")).unwrap();
    assert_eq!(phase(&g), (Color::White, Phase::SwapDecision));
    g.apply(action("swap")).unwrap();
    assert_eq!(refusal(&g, "l8"), "outside_central_square");
    assert_eq!(g.legal_places().len(), 49 - 3);
    g.apply(action("k8")).unwrap();
    assert_eq!(
        phase(&g),
        (Color::Black, Phase::TaraguchiChoice { count: 10 })
    );
    assert!(!g.colours_swapped(), "swapped twice");
}

fn taraguchi_four(n: u8) -> Game {
    play(
        taraguchi(n),
        &["h8", "keep", "i9", "keep", "j10", "keep", "k8"],
    )
}

#[test]
fn taraguchi_choice_one_swap_fifth_in_the_nine_square_swap_then_white_anywhere() {
    for (first, second) in [("swap", "keep"), ("keep", "swap"), ("keep", "keep")] {
        let mut g = taraguchi_four(10);
        assert_eq!(refusal(&g, "l12"), "swap_decision_pending");
        g.apply(action(first)).unwrap();
        assert_eq!(phase(&g), (Color::Black, Phase::Place));
        assert_eq!(refusal(&g, "m8"), "outside_central_square");
        g.apply(action("l12")).unwrap();
        assert_eq!(phase(&g), (Color::White, Phase::SwapDecision));
        g.apply(action(second)).unwrap();
        assert_eq!(g.colours_swapped(), (first == "swap") ^ (second == "swap"));
        assert_eq!(phase(&g), (Color::White, Phase::Place));
        g.apply(action("a1")).unwrap();
        assert_eq!(phase(&g), (Color::Black, Phase::Place));
    }
}

#[test]
fn taraguchi_choice_two_black_offers_n_anywhere_and_white_chooses() {
    let mut g = taraguchi_four(3);
    assert_eq!(refusal(&g, "offer:a1,b1"), "wrong_number_of_offers");
    assert_eq!(refusal(&g, "offer:a1,b1,c1,d1"), "wrong_number_of_offers");
    g.apply(action("offer:a1,o15,e3")).unwrap();
    assert_eq!(phase(&g).0, Color::White);
    g.apply(action("choose:o15")).unwrap();
    assert_eq!(g.board().get(p("o15")), Some(Color::Black));
    assert_eq!(
        phase(&g),
        (Color::White, Phase::Place),
        "no swap after a chosen fifth"
    );
    g.apply(action("a2")).unwrap();
    let mut back = g.clone();
    back.undo();
    back.undo();
    assert_eq!(back.offers().unwrap().len(), 3);
    back.undo();
    assert_eq!(back, taraguchi_four(3));
}

#[test]
fn taraguchi_symmetric_offers_are_refused() {
    // h8 i9 j10 k11 (a diagonal line) is symmetric about it: g9 and i7 mirror each other.
    let g = play(
        taraguchi(2),
        &["h8", "keep", "i9", "keep", "j10", "keep", "k11"],
    );
    assert_eq!(refusal(&g, "offer:g9,i7"), "symmetric_offer");
    assert!(g.check(action("offer:g9,i6")).is_ok());
}

#[test]
fn actions_outside_their_phase_are_refused_with_their_codes() {
    let g = Game::new(Rules::freestyle().with_opening(Opening::Swap2));
    assert_eq!(refusal(&g, "declare:2"), "no_declaration_expected");
    assert_eq!(refusal(&g, "offer:a1"), "no_offers_expected");
    assert_eq!(refusal(&g, "choose:a1"), "no_fifth_choice_pending");
    assert_eq!(refusal(&g, "two:a1,a2"), "no_place_two_expected");
    assert_eq!(refusal(&g, "keep"), "no_swap_pending");
    assert!(IllegalAction::ALL
        .iter()
        .any(|r| r.code() == "not_a_canonical_opening"));
}
