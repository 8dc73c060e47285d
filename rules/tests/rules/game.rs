//! Whole-game behaviour of every rule set, policy and opening.

use rules::renju;
use rules::{
    Action, Color, Event, ForbiddenKind, ForbiddenPolicy, Game, IllegalAction, Opening, Phase,
    Point, RuleSet, Rules, Status, WinReason,
};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn place(s: &str) -> Action {
    Action::place(p(s))
}

/// Plays the moves in order, panicking on the first refusal.
fn play(rules: Rules, moves: &[&str]) -> Game {
    let mut g = Game::new(rules);
    for m in moves {
        g.apply(place(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

fn winner(g: &Game) -> Option<Color> {
    match g.status() {
        Status::Won { winner, .. } => Some(winner),
        _ => None,
    }
}

#[test]
fn freestyle_five_or_more_wins_for_either_colour() {
    // Black makes six by filling the gap of XXX_XX.
    let g = play(
        Rules::freestyle(),
        &[
            "a1", "a15", "b1", "b15", "c1", "c15", "e1", "d14", "f1", "e13", "d1",
        ],
    );
    assert_eq!(winner(&g), Some(Color::Black));
    let Status::Won {
        reason: WinReason::Five { line },
        ..
    } = g.status()
    else {
        panic!()
    };
    assert_eq!(line.len, 6);
}

#[test]
fn standard_overline_does_not_win() {
    let g = play(
        Rules::standard(),
        &[
            "a1", "a15", "b1", "b15", "c1", "c15", "e1", "d14", "f1", "e13", "d1",
        ],
    );
    assert_eq!(winner(&g), None);
    assert_eq!(g.to_act(), Some(Color::White));
}

#[test]
fn renju_white_wins_with_an_overline() {
    let g = play(
        Rules::renju(ForbiddenPolicy::Reject),
        &[
            "h8", "a1", "h9", "b1", "j12", "c1", "k13", "e1", "m2", "f1", "n4", "d1",
        ],
    );
    assert_eq!(winner(&g), Some(Color::White));
}

/// A position where black's next stone at h8 is a double-three: e8 f8 _ and h6 h7 _ around h8 (open lines).
fn double_three_setup(policy: ForbiddenPolicy) -> Game {
    play(
        Rules::renju(policy),
        &["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"],
    )
}

#[test]
fn reject_policy_refuses_a_forbidden_move_and_the_game_goes_on() {
    let mut g = double_three_setup(ForbiddenPolicy::Reject);
    assert_eq!(
        g.forbidden_points(),
        vec![(p("h8"), ForbiddenKind::DoubleThree)]
    );
    assert_eq!(
        g.apply(place("h8")),
        Err(IllegalAction::Forbidden(ForbiddenKind::DoubleThree))
    );
    assert_eq!(
        IllegalAction::Forbidden(ForbiddenKind::DoubleThree).code(),
        "forbidden_double_three"
    );
    assert_eq!(g.ply(), 8);
    assert!(g.apply(place("h9")).is_ok());
}

#[test]
fn lose_policy_ends_the_game_naming_the_kind_and_point() {
    let mut g = double_three_setup(ForbiddenPolicy::Lose);
    g.apply(place("h8")).unwrap();
    assert_eq!(
        g.status(),
        Status::Won {
            winner: Color::White,
            reason: WinReason::ForbiddenMove {
                point: p("h8"),
                kind: ForbiddenKind::DoubleThree
            }
        }
    );
    assert_eq!(g.apply(place("o15")), Err(IllegalAction::GameOver));
}

#[test]
fn claim_policy_lets_white_claim_at_once() {
    let mut g = double_three_setup(ForbiddenPolicy::Claim);
    let ev = g.apply(place("h8")).unwrap();
    assert!(matches!(
        ev,
        Event::Placed {
            claimable: Some(ForbiddenKind::DoubleThree),
            ..
        }
    ));
    assert_eq!(g.claimable(), Some((p("h8"), ForbiddenKind::DoubleThree)));
    g.apply(Action::ClaimForbidden).unwrap();
    assert_eq!(
        g.status(),
        Status::Won {
            winner: Color::White,
            reason: WinReason::ForbiddenClaimed {
                point: p("h8"),
                kind: ForbiddenKind::DoubleThree
            }
        }
    );
}

#[test]
fn claim_lapses_for_good_when_white_places_a_stone() {
    let mut g = double_three_setup(ForbiddenPolicy::Claim);
    g.apply(place("h8")).unwrap();
    g.apply(place("o15")).unwrap();
    assert_eq!(g.claimable(), None);
    g.apply(place("o1")).unwrap();
    assert_eq!(
        g.apply_as(Color::White, Action::ClaimForbidden),
        Err(IllegalAction::NothingToClaim)
    );
}

#[test]
fn black_cannot_claim_and_nothing_is_claimable_without_a_forbidden_move() {
    let mut g = play(Rules::renju(ForbiddenPolicy::Claim), &["h8"]);
    assert_eq!(
        g.apply(Action::ClaimForbidden),
        Err(IllegalAction::NothingToClaim)
    );
    let mut g = double_three_setup(ForbiddenPolicy::Claim);
    g.apply(place("h8")).unwrap();
    assert_eq!(
        g.apply_as(Color::Black, Action::ClaimForbidden),
        Err(IllegalAction::NotYourTurn)
    );
}

#[test]
fn black_five_wins_even_when_the_stone_is_also_forbidden() {
    // Black: d8 e8 f8 g8 (four) and h6 h7 ... h8 makes five on row 8 and an overline? No: five and a three.
    let g = play(
        Rules::renju(ForbiddenPolicy::Lose),
        &[
            "d8", "a1", "e8", "a3", "f8", "a5", "g8", "a7", "h6", "a9", "h7", "a11", "h8",
        ],
    );
    assert_eq!(winner(&g), Some(Color::Black));
}

fn swap_rules() -> Rules {
    Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::SwapAfterThree)
}

#[test]
fn swap_after_three_requires_the_centre_then_a_touching_stone() {
    let mut g = Game::new(swap_rules());
    assert_eq!(g.apply(place("a1")), Err(IllegalAction::MustPlayCentre));
    g.apply(place("h8")).unwrap();
    assert_eq!(
        g.apply(place("h10")),
        Err(IllegalAction::MustTouchFirstStone)
    );
    g.apply(place("i9")).unwrap();
    g.apply(place("j10")).unwrap();
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_act: Color::White,
            phase: Phase::SwapDecision
        }
    );
    assert_eq!(
        g.apply(place("a1")),
        Err(IllegalAction::SwapDecisionPending)
    );
}

#[test]
fn swapping_exchanges_colours_and_white_plays_move_four() {
    let mut g = play(swap_rules(), &["h8", "i9", "j10"]);
    assert_eq!(
        g.apply(Action::DecideSwap { swap: true }),
        Ok(Event::ColoursSwapped)
    );
    assert!(g.colours_swapped());
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_act: Color::White,
            phase: Phase::Place
        }
    );
    assert_eq!(
        g.apply(Action::DecideSwap { swap: false }),
        Err(IllegalAction::NoSwapPending)
    );
    g.apply(place("g7")).unwrap();
    assert_eq!(g.to_act(), Some(Color::Black));
}

#[test]
fn declining_the_swap_keeps_colours() {
    let mut g = play(swap_rules(), &["h8", "i9", "j10"]);
    assert_eq!(
        g.apply(Action::DecideSwap { swap: false }),
        Ok(Event::SwapDeclined)
    );
    assert!(!g.colours_swapped());
}

fn fifth_rules() -> Rules {
    Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::SwapAfterThreeFifthTwoOptions)
}

fn at_fifth() -> Game {
    let mut g = play(fifth_rules(), &["h8", "h9", "h10"]);
    g.apply(Action::DecideSwap { swap: false }).unwrap();
    g.apply(place("i9")).unwrap();
    g
}

#[test]
fn fifth_move_needs_two_proposals_and_white_chooses() {
    let mut g = at_fifth();
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_act: Color::Black,
            phase: Phase::ProposeFifth
        }
    );
    assert_eq!(
        g.apply(place("g9")),
        Err(IllegalAction::FifthProposalRequired)
    );
    let points = [p("g10"), p("j11")];
    g.apply(Action::ProposeFifth { points }).unwrap();
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_act: Color::White,
            phase: Phase::ChooseFifth { options: points }
        }
    );
    assert_eq!(g.apply(place("a1")), Err(IllegalAction::FifthChoicePending));
    assert_eq!(
        g.apply(Action::ChooseFifth { point: p("a1") }),
        Err(IllegalAction::NotAFifthOption)
    );
    g.apply(Action::ChooseFifth { point: p("j11") }).unwrap();
    assert_eq!(g.moves().last(), Some(&p("j11")));
    assert_eq!(g.board().get(p("j11")), Some(Color::Black));
    assert_eq!(
        g.status(),
        Status::Ongoing {
            to_act: Color::White,
            phase: Phase::Place
        }
    );
}

#[test]
fn symmetric_or_identical_fifth_proposals_are_refused() {
    // Stones h8 h9 h10 i9: symmetric about the vertical line? No: i9 breaks it. Mirror in row 9 keeps them all.
    let mut g = at_fifth();
    assert_eq!(
        g.apply(Action::ProposeFifth {
            points: [p("g7"), p("g11")]
        }),
        Err(IllegalAction::FifthOptionsSymmetric)
    );
    assert_eq!(
        g.apply(Action::ProposeFifth {
            points: [p("g7"), p("g7")]
        }),
        Err(IllegalAction::FifthOptionsIdentical)
    );
    assert_eq!(
        g.apply(Action::ProposeFifth {
            points: [p("g7"), p("h8")]
        }),
        Err(IllegalAction::Occupied)
    );
}

#[test]
fn undo_restores_the_previous_state_exactly() {
    let mut g = at_fifth();
    let before = format!("{g:?}");
    g.apply(Action::ProposeFifth {
        points: [p("g10"), p("j11")],
    })
    .unwrap();
    g.apply(Action::ChooseFifth { point: p("g10") }).unwrap();
    assert_eq!(g.undo(), Some(Action::ChooseFifth { point: p("g10") }));
    assert_eq!(
        g.undo(),
        Some(Action::ProposeFifth {
            points: [p("g10"), p("j11")]
        })
    );
    assert_eq!(format!("{g:?}"), before);
}

#[test]
fn replaying_an_illegal_list_names_the_first_bad_action() {
    let err = Game::from_actions(swap_rules(), &[place("h8"), place("a1")]).unwrap_err();
    assert_eq!(err.index, 1);
    assert_eq!(err.reason, IllegalAction::MustTouchFirstStone);
}

#[test]
fn occupied_and_off_board_points_are_refused() {
    let mut g = play(Rules::freestyle(), &["h8"]);
    assert_eq!(g.apply(place("h8")), Err(IllegalAction::Occupied));
    assert_eq!(g.apply(place("p1")), Err(IllegalAction::OffBoard));
    let big = Rules::new(
        19,
        RuleSet::Freestyle,
        ForbiddenPolicy::Reject,
        Opening::None,
    )
    .unwrap();
    assert!(Game::new(big).apply(place("s19")).is_ok());
}

/// Freestyle or standard on Gomocup's 20x20 board.
fn twenty(rule_set: RuleSet) -> Rules {
    Rules::new(20, rule_set, ForbiddenPolicy::Reject, Opening::None).unwrap()
}

#[test]
fn the_20x20_board_is_offered_to_freestyle_and_standard_and_renju_stays_on_15x15() {
    assert_eq!(twenty(RuleSet::Freestyle).size(), 20);
    assert_eq!(twenty(RuleSet::Standard).size(), 20);
    assert_eq!(
        Rules::new(20, RuleSet::Renju, ForbiddenPolicy::Reject, Opening::None),
        Err(rules::RulesError::RenjuNeeds15x15)
    );
    assert_eq!(
        Rules::new(
            21,
            RuleSet::Freestyle,
            ForbiddenPolicy::Reject,
            Opening::None
        ),
        Err(rules::RulesError::UnsupportedSize(21))
    );
    assert_eq!(rules::MAX_SIZE, 20);
    assert_eq!("t20".parse::<Point>().unwrap(), Point::new(19, 19).unwrap());
    assert!("u1".parse::<Point>().is_err() && "a21".parse::<Point>().is_err());
    let mut g = play(twenty(RuleSet::Freestyle), &["t20", "a1", "t1", "a20"]);
    assert_eq!(g.apply(place("h8")).map(|_| ()), Ok(()));
    // On 19x19 the 20th row and column are off the board.
    let nineteen = Rules::new(
        19,
        RuleSet::Freestyle,
        ForbiddenPolicy::Reject,
        Opening::None,
    )
    .unwrap();
    assert_eq!(
        Game::new(nineteen).apply(place("t20")),
        Err(IllegalAction::OffBoard)
    );
}

#[test]
fn fives_are_won_at_every_far_edge_of_the_20x20_board() {
    // Black's five ends on the last column, the last row, and the far corner along both diagonals; white's
    // stones stay out of the way on the first row.
    let fives: [[&str; 5]; 4] = [
        ["p10", "q10", "r10", "s10", "t10"],
        ["k16", "k17", "k18", "k19", "k20"],
        ["p16", "q17", "r18", "s19", "t20"],
        ["p5", "q4", "r3", "s2", "t1"],
    ];
    for five in fives {
        for rule_set in [RuleSet::Freestyle, RuleSet::Standard] {
            let white = ["a1", "c1", "e1", "g1"];
            let mut moves = Vec::new();
            for k in 0..4 {
                moves.extend([five[k], white[k]]);
            }
            let mut g = play(twenty(rule_set), &moves);
            assert_eq!(winner(&g), None);
            g.apply(place(five[4])).unwrap();
            assert_eq!(
                winner(&g),
                Some(Color::Black),
                "{five:?} under {rule_set:?}"
            );
        }
    }
    // An overline reaching the corner wins freestyle, not standard.
    let six = ["o20", "p20", "q20", "r20", "s20", "t20"];
    let white = ["a1", "c1", "e1", "g1", "i1"];
    let mut moves = Vec::new();
    for k in 0..5 {
        let stone = if k == 4 { six[5] } else { six[k] };
        moves.extend([stone, white[k]]);
    }
    // o20 p20 q20 r20 and t20, then s20 joins them into six.
    let mut free = play(twenty(RuleSet::Freestyle), &moves);
    free.apply(place("s20")).unwrap();
    assert_eq!(winner(&free), Some(Color::Black));
    let mut standard = play(twenty(RuleSet::Standard), &moves);
    standard.apply(place("s20")).unwrap();
    assert_eq!(
        winner(&standard),
        None,
        "six in a row is no win in standard"
    );
}

#[test]
fn a_full_board_without_five_is_a_draw() {
    // Fill 15x15 column pairs in a pattern that never makes five: rows alternate in blocks of two.
    let mut g = Game::new(Rules::freestyle());
    let mut black = Vec::new();
    let mut white = Vec::new();
    for y in 0..15u8 {
        for x in 0..15u8 {
            let colour_black = ((x / 2) + y) % 2 == 0;
            let pt = Point::new(x, y).unwrap();
            if colour_black {
                black.push(pt)
            } else {
                white.push(pt)
            }
        }
    }
    assert_eq!(black.len(), 113);
    assert_eq!(white.len(), 112);
    for i in 0..225 {
        let pt = if i % 2 == 0 {
            black[i / 2]
        } else {
            white[i / 2]
        };
        g.apply(Action::place(pt)).unwrap();
    }
    assert_eq!(g.status(), Status::Drawn);
}

#[test]
fn every_reason_has_a_distinct_snake_case_code() {
    let codes: std::collections::BTreeSet<&str> =
        IllegalAction::ALL.iter().map(|r| r.code()).collect();
    assert_eq!(codes.len(), IllegalAction::ALL.len());
    assert!(codes
        .iter()
        .all(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')));
}

/// A renju game from the match harness (level 4 against level 3, 2 Dec 2026) that filled all but one point, (12,3),
/// which is forbidden to black, who is to place: zero-based `x,y` points in the order played.
const ALL_BUT_A_FORBIDDEN_POINT: &str = include_str!("../data/renju_no_legal_point.txt");

/// The renju game of the first `plies` stones of `moves` under `policy`.
fn renju_game_of(policy: ForbiddenPolicy, moves: &str, plies: usize) -> Game {
    let rules = Rules::new(15, RuleSet::Renju, policy, Opening::None).unwrap();
    let actions: Vec<Action> = moves
        .split_whitespace()
        .take(plies)
        .map(|xy| {
            let (x, y) = xy.split_once(',').unwrap();
            Action::place(Point::new(x.parse().unwrap(), y.parse().unwrap()).unwrap())
        })
        .collect();
    assert_eq!(actions.len(), plies);
    Game::from_actions(rules, &actions).unwrap()
}

#[test]
fn under_reject_a_board_whose_every_empty_point_is_forbidden_to_black_is_drawn() {
    let last = Point::new(12, 3).unwrap();
    let g = renju_game_of(ForbiddenPolicy::Reject, ALL_BUT_A_FORBIDDEN_POINT, 224);
    assert!(!g.board().is_full());
    assert!(renju::forbidden_at(g.board(), last).is_some());
    assert_eq!(g.status(), Status::Drawn);
    assert!(g.legal_places().is_empty());
    // One stone earlier it is white's turn, with two points left: the game goes on.
    let before = renju_game_of(ForbiddenPolicy::Reject, ALL_BUT_A_FORBIDDEN_POINT, 223);
    assert!(matches!(
        before.status(),
        Status::Ongoing {
            to_act: Color::White,
            ..
        }
    ));
}

#[test]
fn under_lose_and_claim_black_may_still_play_the_last_forbidden_point() {
    let last = Point::new(12, 3).unwrap();
    for policy in [ForbiddenPolicy::Lose, ForbiddenPolicy::Claim] {
        let g = renju_game_of(policy, ALL_BUT_A_FORBIDDEN_POINT, 224);
        assert!(
            matches!(
                g.status(),
                Status::Ongoing {
                    to_act: Color::Black,
                    ..
                }
            ),
            "{policy:?}: {:?}",
            g.status()
        );
        assert_eq!(g.legal_places(), vec![last], "{policy:?}");
    }
}
