//! Who holds which colour: the game's one answer ([`Game::first_seat`]) after every opening decision.

use games::{
    AnyAction, AnyConfig, AnyDelta, AnyGame, AnyIllegal, Game, GameKind, GomokuChange,
    GomokuConfig, Seat,
};
use rules::{Color, ForbiddenPolicy, IllegalAction, Opening, RuleSet};

fn fifth_rule() -> AnyConfig {
    AnyConfig::Gomoku(
        GomokuConfig::new(
            15,
            RuleSet::Freestyle,
            ForbiddenPolicy::Reject,
            Opening::SwapAfterThreeFifthTwoOptions,
        )
        .unwrap(),
    )
}

fn act(text: &str) -> AnyAction {
    GameKind::Gomoku.parse_action(text).unwrap()
}

/// Plays the first three stones (seat 0 black) and returns the game at the swap decision.
fn at_swap_decision(first: Seat) -> AnyGame {
    let mut game = AnyGame::new(fifth_rule(), first);
    for (seat, text) in [(first, "h8"), (first.other(), "h9"), (first, "j10")] {
        game.apply_as(seat, act(text)).unwrap();
    }
    assert_eq!(game.to_act(), Some(Color::White));
    game
}

#[test]
fn the_seat_given_at_the_start_holds_the_first_colour_until_a_decision() {
    for first in Seat::BOTH {
        let game = at_swap_decision(first);
        assert_eq!(game.first_colour(), Color::Black);
        assert_eq!(game.first_seat(), first);
        assert_eq!(game.seat_of(Color::Black), first);
        assert_eq!(game.seat_of(Color::White), first.other());
        assert_eq!(game.colour_of(first), Color::Black);
        assert_eq!(game.colour_of(first.other()), Color::White);
    }
}

#[test]
fn after_an_accepted_swap_the_other_seat_holds_black() {
    let mut game = at_swap_decision(Seat::Zero);
    // Only the seat holding white decides.
    assert_eq!(
        game.apply_as(Seat::Zero, act("swap")),
        Err(AnyIllegal::Gomoku(IllegalAction::NotYourTurn))
    );
    let AnyDelta::Gomoku(delta) = game.apply_as(Seat::One, act("swap")).unwrap() else {
        panic!("a Gomoku game");
    };
    assert_eq!(delta.change, GomokuChange::SwapDecided { swapped: true });
    assert_eq!(game.first_seat(), Seat::One);
    assert_eq!(game.seat_of(Color::Black), Seat::One);
    // White plays the fourth stone: now seat 0.
    assert_eq!(game.seat_of(game.to_act().unwrap()), Seat::Zero);
    assert_eq!(
        game.apply_as(Seat::One, act("k11")),
        Err(AnyIllegal::Gomoku(IllegalAction::NotYourTurn))
    );
    game.apply_as(Seat::Zero, act("k11")).unwrap();
    assert_eq!(game.first_seat(), Seat::One);
}

#[test]
fn after_a_declined_swap_the_seats_keep_their_colours() {
    let mut game = at_swap_decision(Seat::Zero);
    let AnyDelta::Gomoku(delta) = game.apply_as(Seat::One, act("keep")).unwrap() else {
        panic!("a Gomoku game");
    };
    assert_eq!(delta.change, GomokuChange::SwapDecided { swapped: false });
    assert_eq!(game.first_seat(), Seat::Zero);
    game.apply_as(Seat::One, act("k11")).unwrap();
    assert_eq!(game.first_seat(), Seat::Zero);
}

#[test]
fn the_fifth_proposal_and_choice_keep_the_colour_holder_a_swap_made() {
    for (decision, black) in [("swap", Seat::One), ("keep", Seat::Zero)] {
        let mut game = at_swap_decision(Seat::Zero);
        game.apply_as(Seat::One, act(decision)).unwrap();
        game.apply_as(black.other(), act("k11")).unwrap();
        // Black proposes, white chooses: each by the seat holding that colour now.
        assert_eq!(
            game.apply_as(black.other(), act("propose:a1,o15")),
            Err(AnyIllegal::Gomoku(IllegalAction::NotYourTurn))
        );
        game.apply_as(black, act("propose:a1,o15")).unwrap();
        assert_eq!(game.seat_of(game.to_act().unwrap()), black.other());
        let AnyDelta::Gomoku(delta) = game.apply_as(black.other(), act("choose:o15")).unwrap()
        else {
            panic!("a Gomoku game");
        };
        assert!(matches!(
            delta.change,
            GomokuChange::Placed {
                colour: Color::Black,
                ply: 5,
                ..
            }
        ));
        assert_eq!(game.first_seat(), black, "after {decision}");
        assert_eq!(game.seat_of(game.to_act().unwrap()), black.other());
        // A takeback of the fifth is refused by the room: it is an opening decision.
        let last = game.actions().last().unwrap().clone();
        assert!(AnyGame::is_opening_decision(&last));
        assert!(AnyGame::is_move(&last));
    }
}

#[test]
fn undoing_a_swap_gives_the_colours_back_so_only_the_room_may_refuse_it() {
    let mut game = at_swap_decision(Seat::One);
    game.apply_as(Seat::Zero, act("swap")).unwrap();
    assert_eq!(game.first_seat(), Seat::Zero);
    assert_eq!(game.undo(), Some(act("swap")));
    assert_eq!(game.first_seat(), Seat::One);
}

#[test]
fn which_actions_are_moves_opening_decisions_or_made_at_most_once() {
    for (text, is_move, opening, once) in [
        ("h8", true, false, false),
        ("swap", false, true, true),
        ("keep", false, true, true),
        ("propose:a1,o15", false, true, true),
        ("choose:a1", true, true, true),
        ("claim", false, false, true),
    ] {
        let a = act(text);
        assert_eq!(AnyGame::is_move(&a), is_move, "{text}");
        assert_eq!(AnyGame::is_opening_decision(&a), opening, "{text}");
        assert_eq!(AnyGame::at_most_once(&a), once, "{text}");
    }
}
