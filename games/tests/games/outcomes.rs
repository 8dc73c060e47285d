//! Outcomes the rules reach only in long games, replayed from recorded ones.

use games::{
    AnyAction, AnyConfig, AnyDetail, AnyGame, Game, GomokuConfig, GomokuDetail, Seat, Status,
};
use rules::{Action, ForbiddenPolicy, Opening, Point, RuleSet};

/// A renju game (`reject`) that leaves one empty point, forbidden to black, with black to place; shared with the
/// rules crate's tests (see the README beside it).
const NO_LEGAL_POINT: &str = include_str!("../../../rules/tests/data/renju_no_legal_point.txt");

fn renju_reject(plies: usize) -> AnyGame {
    let config = AnyConfig::Gomoku(
        GomokuConfig::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, Opening::None).unwrap(),
    );
    let mut game = AnyGame::new(config, Seat::Zero);
    for xy in NO_LEGAL_POINT.split_whitespace().take(plies) {
        let (x, y) = xy.split_once(',').unwrap();
        let p = Point::new(x.parse().unwrap(), y.parse().unwrap()).unwrap();
        game.apply(AnyAction::Gomoku(Action::place(p))).unwrap();
    }
    game
}

#[test]
fn a_renju_board_with_only_forbidden_points_left_for_black_is_drawn_as_no_legal_point() {
    let Status::Over(outcome) = renju_reject(224).status() else {
        panic!("the game should be over");
    };
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, "no_legal_point");
    assert_eq!(
        outcome.detail,
        AnyDetail::Gomoku(GomokuDetail::NoLegalPoint)
    );
    assert!(matches!(renju_reject(223).status(), Status::Ongoing { .. }));
}
