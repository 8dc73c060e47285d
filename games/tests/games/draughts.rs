//! International draughts on the seam: tested directly (configuration and pool, notation and stored texts,
//! colours, deltas, the legal listing, views and every outcome's reason code), then through `AnyGame` and the
//! stored texts of `AnyConfig`/`AnyAction` (golden texts, replay of whole random games).

use games::storage::StoredConfig;
use games::{
    draughts_text, parse_draughts, AnyAction, AnyConfig, AnyDelta, AnyDetail, AnyGame, AnyIllegal,
    AnyLegal, AnyPhase, AnyView, Coded, ConfigError, DecodeError, Draughts, DraughtsAction,
    DraughtsChange, DraughtsConfig, DraughtsCounters, DraughtsDetail, DraughtsIllegal,
    DraughtsLegal, DraughtsPhase, Game, GameConfig, GameKind, NotationError, Outcome, ReplayError,
    Seat, Status, StoredReplayError,
};
use rules::draughts::{DrawReason, Position, Role, Square, SquareSet, WinReason};
use rules::Color;

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

fn action(text: &str) -> DraughtsAction {
    parse_draughts(text).unwrap()
}

fn new_game() -> Draughts {
    Draughts::new(DraughtsConfig::international(), Seat::One)
}

fn setup(fen: &str) -> Draughts {
    Draughts::from_position(
        DraughtsConfig::international(),
        Seat::Zero,
        Position::from_fen(fen).unwrap(),
    )
}

#[test]
fn the_configuration_is_stored_as_one_text_and_rated_in_the_international_pool() {
    let config = DraughtsConfig::international();
    assert_eq!(config.encode(), "variant=international");
    assert_eq!(DraughtsConfig::decode("variant=international"), Ok(config));
    let pool = config.pool();
    assert_eq!((pool.game, pool.variant), ("draughts", "international"));
    for (text, code) in [
        ("variant=frisian", "unknown_config_value"),
        ("variant=International", "unknown_config_value"),
        ("", "malformed_config"),
        ("size=10", "malformed_config"),
    ] {
        assert_eq!(
            DraughtsConfig::decode(text).unwrap_err().code(),
            code,
            "{text:?}"
        );
    }
}

#[test]
fn an_action_and_its_text_are_one_to_one() {
    for text in ["32-28", "46-5", "46x5", "28x19", "28x19x10", "2x11x22x13x2"] {
        let a = action(text);
        assert_eq!(draughts_text(&a), text);
        assert_eq!(Draughts::notation(&a), text);
        assert_eq!(new_game().parse_action(text), Ok(a));
    }
    assert_eq!(
        action("28x19x10"),
        DraughtsAction::Move {
            path: vec![sq(28), sq(19), sq(10)],
            capture: true
        }
    );
    assert_ne!(
        action("46-5"),
        action("46x5"),
        "a king's quiet move and capture differ"
    );
}

#[test]
fn every_other_text_is_refused_with_a_typed_error() {
    assert_eq!(
        parse_draughts("032-28"),
        Err(NotationError::NotCanonical {
            canonical: "32-28".into()
        })
    );
    for text in [
        "", "32", "32-", "-28", "32 - 28", "32-28-23", "32-28x23", "51-46", "0-5", "a-b", "x",
        "32x", "h8", "32–28",
    ] {
        assert_eq!(
            parse_draughts(text),
            Err(NotationError::Malformed),
            "{text:?}"
        );
    }
    let long = vec!["1"; 22].join("x");
    assert_eq!(
        parse_draughts(&long),
        Err(NotationError::Malformed),
        "more landings than pieces"
    );
}

#[test]
fn white_moves_first_and_the_seat_given_holds_white_for_the_whole_game() {
    let mut game = new_game();
    assert_eq!(game.first_colour(), Color::White);
    assert_eq!(game.first_seat(), Seat::One);
    assert_eq!(game.seat_of(Color::White), Seat::One);
    assert_eq!(game.colour_of(Seat::Zero), Color::Black);
    assert_eq!(
        game.status(),
        Status::Ongoing {
            to_act: Color::White,
            phase: games::DraughtsPhase::Move
        }
    );
    assert_eq!(game.status().phase().unwrap().code(), "move");
    assert_eq!(
        game.apply_as(Seat::Zero, action("32-28")),
        Err(DraughtsIllegal::NotYourTurn)
    );
    assert_eq!(game.action_count(), 0, "a refusal changes nothing");
    let delta = game.apply_as(Seat::One, action("32-28")).unwrap();
    assert_eq!(
        delta.change,
        DraughtsChange::Moved {
            colour: Color::White,
            path: vec![sq(32), sq(28)],
            captured: SquareSet::EMPTY,
            crowned: false
        }
    );
    assert_eq!(delta.ply, 1);
    assert_eq!(delta.status.to_act(), Some(Color::Black));
    assert_eq!(
        game.apply_as(Seat::One, action("19-23")),
        Err(DraughtsIllegal::NotYourTurn)
    );
    game.apply_as(Seat::Zero, action("19-23")).unwrap();
    assert_eq!(game.first_seat(), Seat::One);
    assert!(!Draughts::is_opening_decision(&action("32-28")));
    assert!(Draughts::is_move(&action("32-28")));
    assert!(!Draughts::at_most_once(&action("32-28")));
}

#[test]
fn a_capture_delta_carries_its_path_and_captured_squares_and_a_quiet_move_is_refused_then() {
    let mut game = new_game();
    game.apply(action("32-28")).unwrap();
    game.apply(action("19-23")).unwrap();
    assert_eq!(
        game.apply(action("33-29")),
        Err(DraughtsIllegal::IllegalMove),
        "capture is mandatory"
    );
    assert_eq!(
        game.apply(action("28x10")),
        Err(DraughtsIllegal::IllegalMove)
    );
    let delta = game.apply(action("28x19")).unwrap();
    assert_eq!(
        delta.change,
        DraughtsChange::Moved {
            colour: Color::White,
            path: vec![sq(28), sq(19)],
            captured: [sq(23)].into_iter().collect(),
            crowned: false
        }
    );
    assert_eq!(delta.counters.king_plies, 0);
}

#[test]
fn the_listing_is_every_legal_move_with_its_path_cut_to_the_majority() {
    let game = setup("W:W8,42,K49:B11,12,15,17,22,33,43");
    let legal = game.legal();
    let texts: Vec<String> = legal
        .moves
        .iter()
        .map(|m| draughts_text(&m.action()))
        .collect();
    let rules: Vec<String> = game
        .rules_game()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(texts, rules);
    assert!(legal
        .moves
        .iter()
        .all(|m| m.captured.len() == 4 && m.role == Role::King));
    assert!(legal.contains(&action("49x38x29x7x16")));
    assert!(
        !legal.contains(&action("49x16")),
        "the listing holds full paths only"
    );
}

#[test]
fn a_short_form_or_another_route_is_applied_as_the_listed_move_and_recorded_so() {
    let mut game = setup("W:W8,42,K49:B11,12,15,17,22,33,43");
    let delta = game.apply(action("49x27")).unwrap();
    let DraughtsChange::Moved { path, captured, .. } = delta.change;
    assert_eq!(
        draughts_text(&DraughtsAction::Move {
            path,
            capture: true
        }),
        "49x16x7x18x27"
    );
    assert_eq!(captured.len(), 4);
    assert_eq!(game.actions(), vec![action("49x16x7x18x27")]);
    assert_eq!(game.undo(), Some(action("49x16x7x18x27")));

    let mut windmill = setup("W:WK2:B7,8,17,18");
    windmill.apply(action("2x13x22x11x2")).unwrap();
    assert_eq!(windmill.actions(), vec![action("2x11x22x13x2")]);
}

#[test]
fn an_ambiguous_short_form_is_refused_with_the_candidates() {
    let mut game = setup("W:W9,46,K20:B8,10,16,22,37,38,41");
    let refused = game.apply(action("20x2")).unwrap_err();
    assert_eq!(refused.code(), "ambiguous_move");
    assert_eq!(
        refused,
        DraughtsIllegal::AmbiguousMove {
            candidates: vec!["20x42x31x13x2".into(), "20x47x36x13x2".into()]
        }
    );
    assert_eq!(game.action_count(), 0);
}

#[test]
fn a_crowning_move_says_so_in_the_delta_and_the_view_shows_the_king() {
    let mut game = setup("W:W7:B30");
    let delta = game.apply(action("7-2")).unwrap();
    assert!(matches!(
        delta.change,
        DraughtsChange::Moved { crowned: true, .. }
    ));
    let view = game.view(false);
    let piece = view.squares[1].unwrap();
    assert_eq!((piece.colour, piece.role), (Color::White, Role::King));
}

#[test]
fn the_view_shows_the_fifty_squares_the_side_to_act_the_legal_paths_and_the_counters() {
    let game = new_game();
    let view = game.view(false);
    assert_eq!(view.squares.len(), 50);
    assert_eq!(view.squares.iter().filter(|p| p.is_some()).count(), 40);
    assert_eq!(view.squares[0].unwrap().colour, Color::Black);
    assert_eq!(view.squares[49].unwrap().colour, Color::White);
    assert_eq!(view.to_act, Some(Color::White));
    assert_eq!(view.legal.len(), 9);
    assert_eq!(view.legal[0].path, vec![sq(31), sq(26)]);
    assert_eq!(
        view.counters,
        DraughtsCounters {
            king_plies: 0,
            endgame: None,
            repetitions: 1
        }
    );
    let closed = game.view(true);
    assert_eq!(closed.to_act, None, "a room result hides who acts");
    assert!(closed.legal.is_empty());
    assert_eq!(closed.squares, view.squares);
}

#[test]
fn taking_the_last_piece_wins_with_no_pieces() {
    let mut game = setup("W:WK2:B7,8,17,18");
    let delta = game.apply(action("2x11x22x13x2")).unwrap();
    let expected = Outcome {
        winner: Some(Color::White),
        reason: "no_pieces",
        detail: DraughtsDetail::Win(WinReason::NoPieces),
    };
    assert_eq!(delta.status, Status::Over(expected.clone()));
    assert_eq!(game.status(), Status::Over(expected));
    assert_eq!(game.to_act(), None);
    assert!(game.legal().moves.is_empty());
    assert!(game.view(false).legal.is_empty());
    assert_eq!(game.apply(action("2-7")), Err(DraughtsIllegal::GameOver));
    assert_eq!(
        game.apply_as(Seat::Zero, action("2-7")),
        Err(DraughtsIllegal::GameOver)
    );
}

#[test]
fn a_side_with_no_legal_move_loses_with_no_moves() {
    let game = setup("W:W46:B41,37");
    assert_eq!(
        game.status(),
        Status::Over(Outcome {
            winner: Some(Color::Black),
            reason: "no_moves",
            detail: DraughtsDetail::Win(WinReason::NoMoves),
        })
    );
}

#[test]
fn the_third_repetition_draws_with_threefold_and_undo_reopens_it() {
    let mut game = setup("W:WK47,K49:BK2,K4");
    let cycle = ["47-41", "2-7", "41-47", "7-2"];
    for m in cycle.iter().chain(&cycle[..3]) {
        game.apply(action(m)).unwrap();
    }
    assert_eq!(game.view(false).counters.repetitions, 2);
    let delta = game.apply(action("7-2")).unwrap();
    assert_eq!(
        delta.status,
        Status::Over(Outcome {
            winner: None,
            reason: "threefold",
            detail: DraughtsDetail::Draw(DrawReason::Threefold),
        })
    );
    assert_eq!(delta.counters.repetitions, 3);
    assert_eq!(game.undo(), Some(action("7-2")));
    assert!(!game.status().is_over());
}

/// Plays quiet king moves (first in list order that keeps every position below three repetitions and leaves no
/// capture) until the game ends; returns the plies played.
fn shuffle_kings_until_over(game: &mut Draughts, limit: usize) -> usize {
    fn go(game: &mut Draughts, left: usize) -> bool {
        if game.status().is_over() {
            return true;
        }
        if left == 0 {
            return false;
        }
        for m in game.legal().moves {
            if m.capture {
                continue;
            }
            let delta = game.apply(m.action()).unwrap();
            let ok = delta.counters.repetitions < 3
                && game.legal().moves.iter().all(|n| !n.capture)
                && go(game, left - 1);
            if ok {
                return true;
            }
            game.undo();
        }
        false
    }
    assert!(go(game, limit));
    game.action_count()
}

#[test]
fn two_kings_against_a_lone_king_draw_with_endgame_limit_after_five_moves_each() {
    let mut game = setup("W:WK36,K45:BK6");
    assert_eq!(game.view(false).counters.endgame, Some((5, 0)));
    assert_eq!(shuffle_kings_until_over(&mut game, 10), 10);
    let outcome = game.status().outcome().cloned().unwrap();
    assert_eq!(outcome.reason, "endgame_limit");
    assert_eq!(
        outcome.detail,
        DraughtsDetail::Draw(DrawReason::EndgameLimit { moves_each: 5 })
    );
    assert_eq!(game.view(false).counters.endgame, Some((5, 10)));
}

#[test]
fn twenty_five_king_moves_each_draw_with_twenty_five_moves() {
    let mut game = setup("W:WK36,K45:BK6,K15");
    assert_eq!(shuffle_kings_until_over(&mut game, 50), 50);
    let outcome = game.status().outcome().cloned().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason),
        (None, "twenty_five_moves")
    );
    assert_eq!(game.view(false).counters.king_plies, 50);
}

#[test]
fn stored_texts_replay_into_the_same_game() {
    let mut game = new_game();
    let mut seed = 7u64;
    for _ in 0..80 {
        let moves = game.legal().moves;
        if moves.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = &moves[(seed >> 33) as usize % moves.len()];
        game.apply(m.action()).unwrap();
    }
    let texts: Vec<String> = game.actions().iter().map(Draughts::notation).collect();
    let actions: Vec<DraughtsAction> = texts.iter().map(|t| parse_draughts(t).unwrap()).collect();
    let replayed =
        Draughts::from_actions(DraughtsConfig::international(), Seat::One, &actions).unwrap();
    assert_eq!(replayed, game);
    assert_eq!(replayed.view(false), game.view(false));
    let mut broken = actions.clone();
    broken.insert(1, action("32-28"));
    let error =
        Draughts::from_actions(DraughtsConfig::international(), Seat::One, &broken).unwrap_err();
    assert_eq!((error.index, error.reason.code()), (1, "illegal_move"));
}

#[test]
fn golden_stored_texts_of_a_short_game() {
    let mut game = new_game();
    for m in ["32-28", "19-23", "28x19", "14x23", "37-32", "17-21"] {
        game.apply(action(m)).unwrap();
    }
    let texts: Vec<String> = game.actions().iter().map(Draughts::notation).collect();
    assert_eq!(
        texts,
        ["32-28", "19-23", "28x19", "14x23", "37-32", "17-21"]
    );
    assert_eq!(game.config().encode(), "variant=international");
    assert_eq!(
        game.rules_game().position().fen(),
        "W:W31,32,33,34,35,36,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,18,20,21,23"
    );
}

// ---- Through `AnyGame` and the stored texts. ----

fn any_config() -> AnyConfig {
    AnyConfig::Draughts(DraughtsConfig::international())
}

fn any_act(text: &str) -> AnyAction {
    GameKind::Draughts.parse_action(text).unwrap()
}

fn any_legal(game: &AnyGame) -> DraughtsLegal {
    let AnyLegal::Draughts(legal) = game.legal() else {
        panic!("a draughts game");
    };
    legal
}

#[test]
fn draughts_is_a_game_kind_named_draughts() {
    assert_eq!(GameKind::Draughts.as_str(), "draughts");
    assert_eq!(GameKind::Draughts.to_string(), "draughts");
    assert_eq!("draughts".parse::<GameKind>(), Ok(GameKind::Draughts));
    assert_eq!(
        "Draughts".parse::<GameKind>(),
        Err(NotationError::UnknownGame)
    );
    assert_eq!(
        "checkers".parse::<GameKind>(),
        Err(NotationError::UnknownGame)
    );
    assert!(GameKind::ALL.contains(&GameKind::Draughts));
    assert_eq!(games::DRAUGHTS, GameKind::Draughts.as_str());
    assert_eq!(DraughtsConfig::international().kind(), GameKind::Draughts);
}

#[test]
fn golden_the_configuration_is_stored_as_draughts_and_its_variant() {
    let config = any_config();
    assert_eq!(
        config.stored(),
        StoredConfig {
            game: "draughts",
            text: "variant=international".to_owned()
        }
    );
    assert_eq!(config.kind(), GameKind::Draughts);
    assert_eq!(config.encode(), "variant=international");
    assert_eq!(
        AnyConfig::decode("draughts", "variant=international"),
        Ok(config)
    );
    let pool = config.pool();
    assert_eq!((pool.game, pool.variant), ("draughts", "international"));
    let game = AnyGame::new(config, Seat::Zero);
    assert_eq!(game.kind(), GameKind::Draughts);
    assert_eq!(game.config(), config);
}

#[test]
fn a_stored_draughts_configuration_that_is_not_one_is_refused() {
    for (text, err) in [
        (
            "variant=frisian",
            ConfigError::UnknownValue { field: "variant" },
        ),
        ("variant=", ConfigError::UnknownValue { field: "variant" }),
        ("variant=international,size=10", ConfigError::Malformed),
        ("variant=international,", ConfigError::Malformed),
        ("", ConfigError::Malformed),
        ("variant", ConfigError::Malformed),
        ("scoring=japanese", ConfigError::Malformed),
        (" variant=international", ConfigError::Malformed),
    ] {
        assert_eq!(AnyConfig::decode("draughts", text), Err(err), "{text:?}");
    }
    assert_eq!(
        AnyConfig::decode("Draughts", "variant=international"),
        Err(ConfigError::UnknownGame)
    );
    // Another game's name does not read draughts' text, nor draughts' name another game's.
    assert_eq!(
        AnyConfig::decode("othello", "variant=international"),
        Err(ConfigError::Malformed)
    );
    assert_eq!(
        AnyConfig::decode("draughts", "scoring=european")
            .unwrap_err()
            .code(),
        "malformed_config"
    );
}

#[test]
fn golden_draughts_actions_are_stored_as_their_paths() {
    for (text, path, capture) in [
        ("32-28", vec![32, 28], false),
        ("46-5", vec![46, 5], false),
        ("46x5", vec![46, 5], true),
        ("28x19x10", vec![28, 19, 10], true),
        ("2x11x22x13x2", vec![2, 11, 22, 13, 2], true),
    ] {
        let action = AnyAction::Draughts(DraughtsAction::Move {
            path: path.into_iter().map(sq).collect(),
            capture,
        });
        assert_eq!(action.encode(), text);
        assert_eq!(action.to_string(), text);
        assert_eq!(action.notation(), text);
        assert_eq!(
            AnyAction::decode(GameKind::Draughts, text),
            Ok(action.clone())
        );
        assert_eq!(GameKind::Draughts.parse_action(text), Ok(action.clone()));
        assert_eq!(action.kind(), GameKind::Draughts);
        assert!(AnyGame::is_move(&action));
        assert!(!AnyGame::is_opening_decision(&action));
        assert!(!AnyGame::at_most_once(&action));
    }
}

#[test]
fn a_stored_text_that_is_no_draughts_action_gets_a_typed_error() {
    assert_eq!(
        AnyAction::decode(GameKind::Draughts, "032-28"),
        Err(DecodeError::Notation(NotationError::NotCanonical {
            canonical: "32-28".to_owned()
        }))
    );
    // Gomoku's legacy JSON is read for Gomoku only; another game's notation is not a path.
    for text in [
        "",
        "h8",
        "pass",
        "f5",
        "{\"action\":\"place\",\"point\":\"h8\"}",
        "32-28 ",
        "51-46",
        "32x",
    ] {
        assert_eq!(
            AnyAction::decode(GameKind::Draughts, text),
            Err(DecodeError::Notation(NotationError::Malformed)),
            "{text:?}"
        );
        assert_eq!(
            GameKind::Draughts.parse_action(text),
            Err(NotationError::Malformed),
            "{text:?}"
        );
    }
    assert!(AnyAction::decode(GameKind::Othello, "32-28").is_err());
    assert!(AnyAction::decode(GameKind::Gomoku, "32-28").is_err());
}

#[test]
fn any_game_plays_draughts_with_its_phase_view_delta_and_refusals() {
    let mut game = AnyGame::new(any_config(), Seat::One);
    assert_eq!(game.first_colour(), Color::White);
    assert_eq!(game.first_seat(), Seat::One);
    assert_eq!(
        game.status(),
        Status::Ongoing {
            to_act: Color::White,
            phase: AnyPhase::Draughts(DraughtsPhase::Move)
        }
    );
    assert_eq!(game.status().phase().unwrap().code(), "move");
    let AnyView::Draughts(view) = game.view(false) else {
        panic!("a draughts view");
    };
    assert_eq!((view.squares.len(), view.legal.len()), (50, 9));
    assert_eq!(any_legal(&game).moves, view.legal);

    let before = game.clone();
    for (seat, text, code) in [
        (Seat::Zero, "32-28", "not_your_turn"),
        (Seat::One, "32-23", "illegal_move"),
        (Seat::One, "19-23", "illegal_move"),
    ] {
        let err = game.apply_as(seat, any_act(text)).unwrap_err();
        assert_eq!(err.code(), code, "{text}");
        assert!(matches!(err, AnyIllegal::Draughts(_)));
        assert_eq!(game, before, "a refusal changes nothing");
    }
    assert_eq!(
        game.apply_as(Seat::Zero, any_act("32-28")),
        Err(AnyIllegal::Draughts(DraughtsIllegal::NotYourTurn))
    );
    // Another game's action on a draughts game, and a draughts action on an Othello game.
    let h8 = GameKind::Gomoku.parse_action("h8").unwrap();
    assert_eq!(game.apply(h8.clone()), Err(AnyIllegal::WrongGame));
    assert_eq!(game.apply_as(Seat::One, h8), Err(AnyIllegal::WrongGame));
    let othello = AnyConfig::decode("othello", "scoring=japanese").unwrap();
    assert_eq!(
        AnyGame::new(othello, Seat::Zero).apply(any_act("32-28")),
        Err(AnyIllegal::WrongGame)
    );

    let AnyDelta::Draughts(delta) = game.apply_as(Seat::One, any_act("32-28")).unwrap() else {
        panic!("a draughts delta");
    };
    assert_eq!(delta.ply, 1);
    assert_eq!(
        delta.change,
        DraughtsChange::Moved {
            colour: Color::White,
            path: vec![sq(32), sq(28)],
            captured: SquareSet::EMPTY,
            crowned: false
        }
    );
    game.apply_as(Seat::Zero, any_act("19-23")).unwrap();
    assert_eq!(game.ply(), 2);
    assert_eq!(game.action_count(), 2);
    assert_eq!(game.actions(), vec![any_act("32-28"), any_act("19-23")]);
    assert_eq!(game.undo(), Some(any_act("19-23")));
    assert_eq!(game.actions(), vec![any_act("32-28")]);
}

#[test]
fn an_ambiguous_short_form_through_any_game_lists_its_candidates() {
    let mut game = AnyGame::Draughts(setup("W:W9,46,K20:B8,10,16,22,37,38,41"));
    let err = game.apply(any_act("20x2")).unwrap_err();
    assert_eq!(err.code(), "ambiguous_move");
    assert_eq!(
        err.to_string(),
        "several moves fit; play one of 20x42x31x13x2, 20x47x36x13x2"
    );
    assert_eq!(game.action_count(), 0);
}

#[test]
fn golden_a_stored_short_draughts_game_replays_and_its_bad_texts_are_refused_where_they_are() {
    let texts = ["32-28", "19-23", "28x19", "14x23", "37-32", "17-21"];
    let game = AnyGame::replay_stored(any_config(), Seat::Zero, &texts).unwrap();
    let stored: Vec<String> = game.actions().iter().map(AnyAction::encode).collect();
    assert_eq!(stored, texts);
    let AnyGame::Draughts(member) = &game else {
        panic!("a draughts game");
    };
    assert_eq!(
        member.rules_game().position().fen(),
        "W:W31,32,33,34,35,36,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,18,20,21,23"
    );
    assert_eq!(game.first_seat(), Seat::Zero);

    let refused =
        |texts: &[&str]| AnyGame::replay_stored(any_config(), Seat::Zero, texts).unwrap_err();
    assert_eq!(
        refused(&["32-28", "19-023"]),
        ReplayError {
            index: 1,
            reason: StoredReplayError::Decode(DecodeError::Notation(NotationError::NotCanonical {
                canonical: "19-23".to_owned()
            }))
        }
    );
    assert_eq!(
        refused(&["32-28", "19-23", "33-29"]),
        ReplayError {
            index: 2,
            reason: StoredReplayError::Illegal(AnyIllegal::Draughts(DraughtsIllegal::IllegalMove))
        },
        "a quiet move where a capture is due"
    );
    assert_eq!(refused(&["h8"]).reason.code(), "malformed_action");
}

/// Plays a whole draughts game through `AnyGame` by its stored texts: a random listed move each turn, applied by
/// the seat to act after the other seat is refused. Returns the game, every text, and the captures and crownings
/// seen in the deltas.
fn play_out(seed: u64, white: Seat) -> (AnyGame, Vec<String>, usize, usize) {
    let mut rng = seed | 1;
    let mut game = AnyGame::new(any_config(), white);
    let (mut texts, mut captures, mut crownings) = (Vec::new(), 0, 0);
    while let Some(colour) = game.to_act() {
        let listing = any_legal(&game);
        assert!(!listing.moves.is_empty(), "a running game has a move");
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let listed = &listing.moves[(rng % listing.moves.len() as u64) as usize];
        let text = draughts_text(&listed.action());
        let action = AnyAction::decode(GameKind::Draughts, &text).unwrap();
        let seat = game.seat_of(colour);
        assert_eq!(
            game.clone().apply_as(seat.other(), action.clone()),
            Err(AnyIllegal::Draughts(DraughtsIllegal::NotYourTurn))
        );
        let AnyDelta::Draughts(delta) = game.apply_as(seat, action).expect("a listed move plays")
        else {
            panic!("a draughts delta");
        };
        let DraughtsChange::Moved {
            colour: mover,
            path,
            captured,
            crowned,
        } = &delta.change;
        assert_eq!(*mover, colour);
        assert_eq!(*path, listed.path);
        assert_eq!((*captured, *crowned), (listed.captured, listed.crowned));
        assert_eq!(captured.is_empty(), !listed.capture);
        assert_eq!(delta.status, game.status().map_draughts());
        captures += usize::from(!captured.is_empty());
        crownings += usize::from(*crowned);
        texts.push(text);
        assert!(texts.len() < 2000, "a draughts game ends");
    }
    (game, texts, captures, crownings)
}

/// The draughts status inside an `AnyGame` status.
trait MapDraughts {
    fn map_draughts(self) -> Status<DraughtsPhase, DraughtsDetail>;
}

impl MapDraughts for Status<AnyPhase, AnyDetail> {
    fn map_draughts(self) -> Status<DraughtsPhase, DraughtsDetail> {
        match self {
            Status::Ongoing {
                to_act,
                phase: AnyPhase::Draughts(phase),
            } => Status::Ongoing { to_act, phase },
            Status::Over(Outcome {
                winner,
                reason,
                detail: AnyDetail::Draughts(detail),
            }) => Status::Over(Outcome {
                winner,
                reason,
                detail,
            }),
            other => panic!("not a draughts status: {other:?}"),
        }
    }
}

#[test]
fn any_game_plays_whole_random_draughts_games_to_their_end_and_replays_them_from_their_texts() {
    let mut reasons = std::collections::BTreeMap::new();
    let (mut captures, mut crownings) = (0, 0);
    for seed in 1..=40u64 {
        let white = if seed % 2 == 0 { Seat::Zero } else { Seat::One };
        let (game, texts, c, k) = play_out(seed, white);
        captures += c;
        crownings += k;
        let outcome = game.status().outcome().cloned().expect("played to the end");
        *reasons.entry(outcome.reason).or_insert(0) += 1;
        match &outcome.detail {
            AnyDetail::Draughts(DraughtsDetail::Win(reason)) => {
                assert_eq!(outcome.reason, reason.code());
                assert!(outcome.winner.is_some());
            }
            AnyDetail::Draughts(DraughtsDetail::Draw(reason)) => {
                assert_eq!(outcome.reason, reason.code());
                assert_eq!(outcome.winner, None);
            }
            other => panic!("not a draughts detail: {other:?}"),
        }
        assert_eq!(game.legal(), AnyLegal::Draughts(DraughtsLegal::default()));
        assert_eq!(game.ply() as usize, texts.len());
        assert_eq!(game.action_count(), texts.len());
        let stored: Vec<String> = game.actions().iter().map(AnyAction::encode).collect();
        assert_eq!(stored, texts, "the record is the texts played");

        let replayed = AnyGame::replay_stored(any_config(), white, &texts).unwrap();
        assert_eq!(replayed, game);
        assert_eq!(replayed.view(false), game.view(false));
        assert_eq!(replayed.status(), game.status());
        let actions = game.actions();
        assert_eq!(
            AnyGame::from_actions(any_config(), white, &actions).unwrap(),
            game
        );
        // One more move after the end is refused, and undo reopens the game.
        let mut reopened = game.clone();
        let last = reopened.undo().expect("a move was played");
        assert_eq!(last, actions[actions.len() - 1]);
        assert!(!reopened.status().is_over());
        assert!(any_legal(&reopened).contains(match &last {
            AnyAction::Draughts(a) => a,
            other => panic!("not a draughts action: {other:?}"),
        }));
    }
    assert!(
        captures > 0 && crownings > 0,
        "{captures} captures, {crownings} crownings"
    );
    let wins = reasons.get("no_pieces").copied().unwrap_or(0)
        + reasons.get("no_moves").copied().unwrap_or(0);
    let draws: usize = ["threefold", "twenty_five_moves", "endgame_limit"]
        .iter()
        .map(|r| reasons.get(r).copied().unwrap_or(0))
        .sum();
    assert!(wins > 0 && draws > 0, "{reasons:?}");
    assert_eq!(wins + draws, 40, "{reasons:?}");
}
