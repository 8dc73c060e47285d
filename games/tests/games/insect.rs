//! Insect chess (昆虫棋) on the seam: its notation read exactly, its stored texts, seats and colours (south is
//! black and moves first), a move and its undo, and the end by food.

use games::insect::{parse_insect, InsectConfig};
use games::{
    AnyAction, AnyConfig, AnyGame, Coded, Game, GameConfig, GameKind, NotationError, Seat,
};
use rules::Color;

fn game() -> AnyGame {
    AnyGame::new(AnyConfig::Insect(InsectConfig::standard()), Seat::One)
}

fn play(game: &mut AnyGame, texts: &[&str]) {
    for text in texts {
        let action = game.parse_action(text).unwrap();
        game.apply(action).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

#[test]
fn a_move_reads_only_as_written() {
    assert_eq!(parse_insect("e2-e3").unwrap().to_string(), "e2-e3");
    assert_eq!(parse_insect("e4-e8").unwrap().to_string(), "e4-e8");
    assert_eq!(
        parse_insect("E2-E3"),
        Err(NotationError::NotCanonical {
            canonical: "e2-e3".into()
        })
    );
    assert_eq!(parse_insect("e2e3"), Err(NotationError::Malformed));
    assert!(matches!(
        parse_insect("h1-h2"),
        Err(NotationError::Point(_))
    ));
    assert!(matches!(
        parse_insect("a12-a11"),
        Err(NotationError::Point(_))
    ));
    assert_eq!(
        GameKind::Insect.parse_action("e2-e3").unwrap().kind(),
        GameKind::Insect
    );
}

#[test]
fn the_configuration_is_stored_as_one_variant_and_rated_in_one_pool() {
    let config = AnyConfig::Insect(InsectConfig::standard());
    let stored = config.stored();
    assert_eq!(
        (stored.game, stored.text.as_str()),
        ("insect", "variant=standard")
    );
    assert_eq!(
        AnyConfig::decode("insect", "variant=standard").unwrap(),
        config
    );
    assert_eq!(
        AnyConfig::decode("insect", "variant=other")
            .unwrap_err()
            .code(),
        "unknown_config_value"
    );
    assert_eq!(
        AnyConfig::decode("insect", "variant=standard,x=1")
            .unwrap_err()
            .code(),
        "malformed_config"
    );
    assert_eq!(
        (config.pool().game, config.pool().variant),
        ("insect", "standard")
    );
}

#[test]
fn south_is_black_moves_first_and_the_seat_given_holds_it_all_game() {
    let mut g = game();
    assert_eq!(g.to_act(), Some(Color::Black));
    assert_eq!(g.seat_of(Color::Black), Seat::One);
    let e2e3 = g.parse_action("e2-e3").unwrap();
    assert_eq!(
        g.clone()
            .apply_as(Seat::Zero, e2e3.clone())
            .unwrap_err()
            .code(),
        "not_your_turn"
    );
    g.apply_as(Seat::One, e2e3.clone()).unwrap();
    assert_eq!(
        (g.to_act(), g.ply(), g.action_count()),
        (Some(Color::White), 1, 1)
    );
    assert_eq!(g.seat_of(Color::Black), Seat::One);
    assert_eq!(g.undo(), Some(e2e3));
    assert_eq!(g, game());
}

#[test]
fn a_refused_move_keeps_its_rules_code_and_another_games_action_is_the_wrong_game() {
    let mut g = game();
    let refuse =
        |g: &mut AnyGame, text: &str| g.clone().apply(g.parse_action(text).unwrap()).unwrap_err();
    assert_eq!(refuse(&mut g, "e10-e9").code(), "not_your_piece");
    assert_eq!(refuse(&mut g, "e1-e2").code(), "no_piece");
    assert_eq!(refuse(&mut g, "e2-e4").code(), "not_a_step");
    let othello = GameKind::Othello.parse_action("f5").unwrap();
    assert_eq!(g.apply(othello).unwrap_err().code(), "wrong_game");
    assert!(matches!(g.legal_actions()[0], AnyAction::Insect(_)));
}

#[test]
fn a_piece_on_the_enemy_food_ends_the_game_for_south_and_the_view_shows_nobody_to_act() {
    let mut g = game();
    play(
        &mut g,
        &[
            "e2-e3", "e10-e9", "g1-g2", "c10-b10", "e3-e4", "e9-f9", "e4-e8", "a11-a10", "e8-d8",
            "f9-f10", "g2-g3", "f10-e10", "d8-d9", "e10-f10", "d9-d10", "a10-a11", "d10-d11",
        ],
    );
    let outcome = g.status().outcome().cloned().expect("over");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Color::Black), "food")
    );
    assert!(g.legal_actions().is_empty());
    let games::AnyView::Insect(view) = g.view(false) else {
        panic!("an insect view");
    };
    assert_eq!((view.to_act, view.phase, view.legal.len()), (None, None, 0));
    assert_eq!(view.ply, 17);
    assert_eq!(view.last.unwrap().to_string(), "d10-d11");
}
