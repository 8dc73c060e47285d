//! What the view, the delta, the listing and the outcome carry for Renju's forbidden points, claims and the fifth
//! options: the fields the room's snapshots and events are made from.

use games::{
    AnyConfig, AnyDelta, AnyDetail, AnyGame, AnyIllegal, AnyLegal, AnyView, Coded, Game, GameKind,
    GomokuChange, GomokuConfig, GomokuDetail, Outcome, Seat, Status,
};
use rules::{Color, ForbiddenKind, ForbiddenPolicy, IllegalAction, Opening, Phase, Point, RuleSet};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn config(rule_set: RuleSet, policy: ForbiddenPolicy, opening: Opening) -> AnyConfig {
    AnyConfig::Gomoku(GomokuConfig::new(15, rule_set, policy, opening).unwrap())
}

fn play(game: &mut AnyGame, text: &str) -> Result<AnyDelta, AnyIllegal> {
    let action = GameKind::Gomoku.parse_action(text).unwrap();
    game.apply(action)
}

fn view(game: &AnyGame, room_result: bool) -> games::GomokuView {
    let AnyView::Gomoku(v) = game.view(room_result) else {
        panic!("a Gomoku game");
    };
    v
}

/// Black d8 e8 f8 g8 i8 (h8 would make six), white far away; black to place.
fn before_overline(policy: ForbiddenPolicy) -> AnyGame {
    let mut game = AnyGame::new(config(RuleSet::Renju, policy, Opening::None), Seat::Zero);
    for text in ["d8", "a1", "e8", "a3", "f8", "a5", "g8", "a7", "i8", "a9"] {
        play(&mut game, text).unwrap();
    }
    game
}

#[test]
fn black_to_place_under_renju_sees_its_forbidden_points_and_cannot_place_there_under_reject() {
    let mut game = before_overline(ForbiddenPolicy::Reject);
    let v = view(&game, false);
    assert_eq!(v.to_act, Some(Color::Black));
    assert_eq!(v.phase, Some(Phase::Place));
    assert!(v.forbidden.contains(&(p("h8"), ForbiddenKind::Overline)));
    let AnyLegal::Gomoku(legal) = game.legal() else {
        panic!("a Gomoku game");
    };
    assert!(!legal.places.contains(&p("h8")));
    assert!(legal.places.contains(&p("c8")));
    assert_eq!(
        play(&mut game, "h8"),
        Err(AnyIllegal::Gomoku(IllegalAction::Forbidden(
            ForbiddenKind::Overline
        )))
    );
    assert_eq!(
        AnyIllegal::Gomoku(IllegalAction::Forbidden(ForbiddenKind::Overline)).code(),
        "forbidden_overline"
    );
    // The room ended it (say black resigned): no hints.
    assert!(view(&game, true).forbidden.is_empty());
}

#[test]
fn white_does_not_see_black_forbidden_points_and_freestyle_has_none() {
    let mut game = before_overline(ForbiddenPolicy::Reject);
    play(&mut game, "o15").unwrap();
    assert_eq!(view(&game, false).to_act, Some(Color::White));
    assert!(view(&game, false).forbidden.is_empty());
    let mut free = AnyGame::new(
        config(RuleSet::Freestyle, ForbiddenPolicy::Reject, Opening::None),
        Seat::Zero,
    );
    for text in ["d8", "a1", "e8", "a3", "f8", "a5", "g8", "a7", "i8", "a9"] {
        play(&mut free, text).unwrap();
    }
    assert!(view(&free, false).forbidden.is_empty());
}

#[test]
fn a_standing_forbidden_stone_is_claimable_until_white_claims_it() {
    let mut game = before_overline(ForbiddenPolicy::Claim);
    let AnyDelta::Gomoku(delta) = play(&mut game, "h8").unwrap() else {
        panic!("a Gomoku game");
    };
    assert_eq!(
        delta.change,
        GomokuChange::Placed {
            colour: Color::Black,
            point: p("h8"),
            ply: 11,
            claimable: Some(ForbiddenKind::Overline),
        }
    );
    assert_eq!(
        delta.status,
        Status::Ongoing {
            to_act: Color::White,
            phase: Phase::Place
        }
    );
    assert_eq!(
        view(&game, false).claimable,
        Some((p("h8"), ForbiddenKind::Overline))
    );
    assert_eq!(view(&game, true).claimable, None);
    let AnyLegal::Gomoku(legal) = game.legal() else {
        panic!("a Gomoku game");
    };
    assert!(legal.claim);
    let AnyDelta::Gomoku(claimed) = play(&mut game, "claim").unwrap() else {
        panic!("a Gomoku game");
    };
    assert_eq!(
        claimed.change,
        GomokuChange::ForbiddenClaimed {
            point: p("h8"),
            kind: ForbiddenKind::Overline
        }
    );
    let expected = Outcome {
        winner: Some(Color::White),
        reason: "forbidden_claimed",
        detail: GomokuDetail::Forbidden {
            point: p("h8"),
            kind: ForbiddenKind::Overline,
        },
    };
    assert_eq!(claimed.status, Status::Over(expected.clone()));
    assert_eq!(
        game.status(),
        Status::Over(Outcome {
            winner: expected.winner,
            reason: expected.reason,
            detail: AnyDetail::Gomoku(expected.detail),
        })
    );
    // Over by the rules: the view shows no claim any more, and nothing is legal.
    assert_eq!(view(&game, false).claimable, None);
    assert_eq!(view(&game, false).to_act, None);
    let AnyLegal::Gomoku(legal) = game.legal() else {
        panic!("a Gomoku game");
    };
    assert!(legal.is_empty());
}

#[test]
fn a_claim_lapses_once_white_places_a_stone() {
    let mut game = before_overline(ForbiddenPolicy::Claim);
    play(&mut game, "h8").unwrap();
    play(&mut game, "o15").unwrap();
    assert_eq!(view(&game, false).claimable, None);
    play(&mut game, "n1").unwrap();
    assert_eq!(
        play(&mut game, "claim"),
        Err(AnyIllegal::Gomoku(IllegalAction::NothingToClaim))
    );
}

#[test]
fn under_the_lose_policy_a_forbidden_stone_ends_the_game_with_its_point_and_kind() {
    let mut game = before_overline(ForbiddenPolicy::Lose);
    play(&mut game, "h8").unwrap();
    let Status::Over(outcome) = game.status() else {
        panic!("black lost")
    };
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Color::White), "forbidden_move")
    );
    assert_eq!(
        outcome.detail,
        AnyDetail::Gomoku(GomokuDetail::Forbidden {
            point: p("h8"),
            kind: ForbiddenKind::Overline
        })
    );
}

#[test]
fn the_fifth_options_are_shown_while_white_chooses() {
    let mut game = AnyGame::new(
        config(
            RuleSet::Renju,
            ForbiddenPolicy::Reject,
            Opening::SwapAfterThreeFifthTwoOptions,
        ),
        Seat::One,
    );
    for text in ["h8", "h9", "j10"] {
        play(&mut game, text).unwrap();
    }
    let v = view(&game, false);
    assert_eq!(
        (v.to_act, v.phase),
        (Some(Color::White), Some(Phase::SwapDecision))
    );
    let AnyLegal::Gomoku(legal) = game.legal() else {
        panic!("a Gomoku game");
    };
    assert!(legal.swap && legal.places.is_empty());
    play(&mut game, "keep").unwrap();
    play(&mut game, "k11").unwrap();
    let v = view(&game, false);
    assert_eq!(
        (v.to_act, v.phase),
        (Some(Color::Black), Some(Phase::ProposeFifth))
    );
    let AnyLegal::Gomoku(legal) = game.legal() else {
        panic!("a Gomoku game");
    };
    assert!(legal.places.is_empty() && legal.fifth_classes.len() > 1);
    let AnyDelta::Gomoku(delta) = play(&mut game, "propose:a1,o15").unwrap() else {
        panic!("a Gomoku game");
    };
    assert_eq!(
        delta.change,
        GomokuChange::FifthProposed {
            points: [p("a1"), p("o15")]
        }
    );
    let v = view(&game, false);
    assert_eq!(v.fifth_options, Some([p("a1"), p("o15")]));
    assert_eq!(v.to_act, Some(Color::White));
    assert_eq!(view(&game, true).fifth_options, None);
    let AnyLegal::Gomoku(legal) = game.legal() else {
        panic!("a Gomoku game");
    };
    assert_eq!(legal.choose, Some([p("a1"), p("o15")]));
    assert_eq!(
        play(&mut game, "choose:b2"),
        Err(AnyIllegal::Gomoku(IllegalAction::NotAFifthOption))
    );
    play(&mut game, "choose:a1").unwrap();
    let v = view(&game, false);
    assert_eq!(v.moves.len(), 5);
    assert_eq!(v.fifth_options, None);
    assert!(!v.swapped);
}

#[test]
fn symmetric_fifth_offers_share_a_class_and_are_refused_together() {
    // h8, h9, h7 and i8/g8 make a position symmetric about the h file: a1 and o1 mirror each other.
    let mut game = AnyGame::new(
        config(
            RuleSet::Freestyle,
            ForbiddenPolicy::Reject,
            Opening::SwapAfterThreeFifthTwoOptions,
        ),
        Seat::Zero,
    );
    for text in ["h8", "h9", "h7", "keep", "h6"] {
        play(&mut game, text).unwrap();
    }
    let AnyLegal::Gomoku(legal) = game.legal() else {
        panic!("a Gomoku game");
    };
    let class = legal
        .fifth_classes
        .iter()
        .find(|c| c.contains(&p("a1")))
        .unwrap();
    assert!(class.contains(&p("o1")), "{class:?}");
    assert_eq!(
        play(&mut game, "propose:a1,o1"),
        Err(AnyIllegal::Gomoku(IllegalAction::FifthOptionsSymmetric))
    );
    assert!(play(&mut game, "propose:a1,a2").is_ok());
}
