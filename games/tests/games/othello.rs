//! Othello on the seam: configuration and its stored text, notation, seats, status and outcome, views, deltas,
//! the legal listing, stored replay, and whole games played through `AnyGame`.

use games::{
    AnyAction, AnyConfig, AnyDelta, AnyDetail, AnyGame, AnyIllegal, AnyLegal, AnyPhase, AnyView,
    Coded, ConfigError, DecodeError, Game, GameConfig, GameKind, NotationError, Othello,
    OthelloChange, OthelloConfig, OthelloDetail, OthelloLegal, OthelloPhase, ReplayError, Seat,
    Status, StoredConfig, StoredReplayError,
};
use proptest::prelude::*;
use rules::othello::{IllegalMove, Move, Score, Scoring, Square};
use rules::{Color, ParsePointError};

fn japanese() -> AnyConfig {
    AnyConfig::Othello(OthelloConfig::new(Scoring::Japanese))
}

fn act(text: &str) -> AnyAction {
    GameKind::Othello.parse_action(text).unwrap()
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn legal(game: &AnyGame) -> OthelloLegal {
    let AnyLegal::Othello(legal) = game.legal() else {
        panic!("an Othello game");
    };
    legal
}

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

/// Plays a whole game through `AnyGame` by notation: random listed squares, a pass when the listing says so.
/// Returns the game and every action text.
fn play_out(seed: u64, black: Seat) -> (AnyGame, Vec<String>) {
    let mut rng = Rng(seed | 1);
    let mut game = AnyGame::new(japanese(), black);
    let mut texts = Vec::new();
    while let Some(colour) = game.to_act() {
        let listing = legal(&game);
        let text = if listing.pass {
            "pass".to_owned()
        } else {
            listing.places[rng.below(listing.places.len())].to_string()
        };
        let seat = game.seat_of(colour);
        game.apply_as(seat, act(&text))
            .expect("a listed action plays");
        texts.push(text);
    }
    (game, texts)
}

#[test]
fn the_configuration_is_stored_as_its_scoring_and_rated_in_the_othello_pool() {
    for (scoring, text) in [
        (Scoring::Japanese, "scoring=japanese"),
        (Scoring::European, "scoring=european"),
    ] {
        let config = AnyConfig::Othello(OthelloConfig::new(scoring));
        assert_eq!(
            config.stored(),
            StoredConfig {
                game: "othello",
                text: text.to_owned()
            }
        );
        assert_eq!(AnyConfig::decode("othello", text), Ok(config));
        assert_eq!(config.kind(), GameKind::Othello);
        let pool = config.pool();
        assert_eq!((pool.game, pool.variant), ("othello", "standard"));
    }
}

#[test]
fn a_stored_configuration_that_is_not_one_is_refused() {
    for (text, err) in [
        ("", ConfigError::Malformed),
        ("scoring", ConfigError::Malformed),
        ("scoring=japanese,size=8", ConfigError::Malformed),
        (
            "size=15,rule_set=renju,forbidden_policy=reject,opening=none",
            ConfigError::Malformed,
        ),
        ("scoring=", ConfigError::UnknownValue { field: "scoring" }),
        (
            "scoring=Japanese",
            ConfigError::UnknownValue { field: "scoring" },
        ),
        (
            "scoring=chinese",
            ConfigError::UnknownValue { field: "scoring" },
        ),
    ] {
        assert_eq!(AnyConfig::decode("othello", text), Err(err), "{text:?}");
    }
    assert_eq!(
        AnyConfig::decode("reversi", "scoring=japanese"),
        Err(ConfigError::UnknownGame)
    );
}

#[test]
fn actions_are_stored_as_their_notation() {
    for (text, mv) in [
        ("a1", Move::Place(sq("a1"))),
        ("h8", Move::Place(sq("h8"))),
        ("f5", Move::Place(sq("f5"))),
        ("pass", Move::Pass),
    ] {
        let action = AnyAction::Othello(mv);
        assert_eq!(action.encode(), text);
        assert_eq!(action.to_string(), text);
        assert_eq!(
            AnyAction::decode(GameKind::Othello, text),
            Ok(action.clone())
        );
        assert_eq!(action.kind(), GameKind::Othello);
    }
}

#[test]
fn a_text_that_is_no_othello_action_gets_a_typed_error() {
    for (text, err) in [
        ("", NotationError::Malformed),
        ("f", NotationError::Malformed),
        ("f5d6", NotationError::Malformed),
        ("swap", NotationError::Malformed),
        ("5f", NotationError::Malformed),
        (" f5", NotationError::Malformed),
        (
            "{\"action\":\"place\",\"point\":\"f5\"}",
            NotationError::Malformed,
        ),
        ("i1", NotationError::Point(ParsePointError::OutOfRange)),
        ("a9", NotationError::Point(ParsePointError::OutOfRange)),
        ("a0", NotationError::Point(ParsePointError::OutOfRange)),
        ("a10", NotationError::Point(ParsePointError::OutOfRange)),
        (
            "F5",
            NotationError::NotCanonical {
                canonical: "f5".to_owned(),
            },
        ),
        (
            "PASS",
            NotationError::NotCanonical {
                canonical: "pass".to_owned(),
            },
        ),
        (
            "Pass",
            NotationError::NotCanonical {
                canonical: "pass".to_owned(),
            },
        ),
    ] {
        assert_eq!(
            GameKind::Othello.parse_action(text),
            Err(err.clone()),
            "{text:?}"
        );
        assert_eq!(
            AnyAction::decode(GameKind::Othello, text),
            Err(DecodeError::Notation(err)),
            "{text:?}"
        );
    }
}

#[test]
fn black_moves_first_from_the_seat_given_and_keeps_it_all_game() {
    for black in Seat::BOTH {
        let mut game = AnyGame::new(japanese(), black);
        assert_eq!(game.first_colour(), Color::Black);
        assert_eq!(game.first_seat(), black);
        assert_eq!(game.seat_of(Color::White), black.other());
        assert_eq!(game.colour_of(black), Color::Black);
        assert_eq!(
            game.apply_as(black.other(), act("f5")),
            Err(AnyIllegal::Othello(IllegalMove::NotYourTurn))
        );
        game.apply_as(black, act("f5")).unwrap();
        assert_eq!(game.seat_of(game.to_act().unwrap()), black.other());
        game.apply_as(black.other(), act("d6")).unwrap();
        assert_eq!(game.first_seat(), black);
    }
}

#[test]
fn the_start_view_shows_the_four_discs_black_to_place_and_its_four_dots() {
    let game = AnyGame::new(japanese(), Seat::Zero);
    let AnyView::Othello(view) = game.view(false) else {
        panic!("an Othello view");
    };
    assert_eq!(
        view.cells[usize::from(sq("d4").index())],
        Some(Color::White)
    );
    assert_eq!(
        view.cells[usize::from(sq("e4").index())],
        Some(Color::Black)
    );
    assert_eq!(view.cells.iter().filter(|c| c.is_some()).count(), 4);
    assert_eq!((view.black, view.white), (2, 2));
    assert_eq!(view.to_act, Some(Color::Black));
    assert_eq!(view.phase, Some(OthelloPhase::Place));
    assert_eq!(view.legal, [sq("d3"), sq("c4"), sq("f5"), sq("e6")]);
    assert_eq!(view.last, None);
    assert_eq!(
        game.status(),
        Status::Ongoing {
            to_act: Color::Black,
            phase: AnyPhase::Othello(OthelloPhase::Place)
        }
    );
    assert_eq!(AnyPhase::Othello(OthelloPhase::Place).code(), "place");
    assert_eq!(AnyPhase::Othello(OthelloPhase::Pass).code(), "pass");
    // With a result held by the room (a resignation), nobody is to act and no dots are shown.
    let AnyView::Othello(view) = game.view(true) else {
        panic!("an Othello view");
    };
    assert_eq!((view.to_act, view.phase, view.legal.len()), (None, None, 0));
    assert_eq!((view.black, view.white), (2, 2));
}

#[test]
fn a_placed_disc_has_a_delta_with_its_flips_the_counts_and_the_next_dots() {
    let mut game = AnyGame::new(japanese(), Seat::Zero);
    let AnyDelta::Othello(delta) = game.apply(act("f5")).unwrap() else {
        panic!("an Othello delta");
    };
    assert_eq!(
        delta.change,
        OthelloChange::Placed {
            colour: Color::Black,
            square: sq("f5"),
            flipped: vec![sq("e5")]
        }
    );
    assert_eq!((delta.black, delta.white), (4, 1));
    assert_eq!(delta.legal, [sq("f4"), sq("d6"), sq("f6")]);
    assert!(matches!(
        delta.status,
        Status::Ongoing {
            to_act: Color::White,
            phase: OthelloPhase::Place
        }
    ));
    assert_eq!(game.ply(), 1);
    let AnyView::Othello(view) = game.view(false) else {
        panic!("an Othello view");
    };
    assert_eq!(view.last, Some(Move::Place(sq("f5"))));
    assert_eq!(view.legal, delta.legal);
}

#[test]
fn refusals_carry_their_codes_and_change_nothing() {
    let mut game = AnyGame::new(japanese(), Seat::Zero);
    for (text, code) in [
        ("d4", "occupied"),
        ("a1", "no_flip"),
        ("pass", "cannot_pass"),
    ] {
        let before = game.clone();
        let err = game.apply(act(text)).unwrap_err();
        assert_eq!(err.code(), code, "{text}");
        assert_eq!(game, before);
    }
    // A Gomoku action on an Othello game.
    let gomoku = GameKind::Gomoku.parse_action("h8").unwrap();
    assert_eq!(game.apply(gomoku.clone()), Err(AnyIllegal::WrongGame));
    assert_eq!(
        game.apply_as(Seat::Zero, gomoku),
        Err(AnyIllegal::WrongGame)
    );
    assert_eq!(AnyIllegal::WrongGame.code(), "wrong_game");
}

#[test]
fn the_shortest_game_ends_in_a_wipe_out_with_the_discs_in_the_detail() {
    let texts = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"];
    for (scoring, scored, result) in [
        (Scoring::Japanese, Score::new(64, 0), "black 64–0"),
        (Scoring::European, Score::new(39, 25), "black 39–25"),
    ] {
        let config = AnyConfig::Othello(OthelloConfig::new(scoring));
        let game = AnyGame::replay_stored(config, Seat::One, &texts).unwrap();
        let outcome = game.status().outcome().cloned().expect("over");
        assert_eq!(outcome.winner, Some(Color::Black));
        assert_eq!(outcome.reason, "wipe_out");
        let AnyDetail::Othello(detail) = outcome.detail else {
            panic!("an Othello detail");
        };
        assert_eq!(
            detail,
            OthelloDetail {
                discs: Score::new(13, 0),
                scoring,
                scored
            }
        );
        assert_eq!(detail.result_text(), result);
        assert!(legal(&game).is_empty());
        assert_eq!(game.to_act(), None);
        let AnyView::Othello(view) = game.view(false) else {
            panic!("an Othello view");
        };
        assert_eq!((view.to_act, view.legal.len(), view.black), (None, 0, 13));
    }
}

#[test]
fn a_stored_game_that_does_not_replay_is_refused_at_its_first_bad_action() {
    let refused =
        |texts: &[&str]| AnyGame::replay_stored(japanese(), Seat::Zero, texts).unwrap_err();
    assert_eq!(
        refused(&["f5", "F6"]),
        ReplayError {
            index: 1,
            reason: StoredReplayError::Decode(DecodeError::Notation(NotationError::NotCanonical {
                canonical: "f6".to_owned()
            }))
        }
    );
    assert_eq!(
        refused(&["f5", "f5"]),
        ReplayError {
            index: 1,
            reason: StoredReplayError::Illegal(AnyIllegal::Othello(IllegalMove::Occupied))
        }
    );
    assert_eq!(refused(&["pass"]).reason.code(), "cannot_pass");
}

#[test]
fn any_game_plays_whole_othello_games_with_their_passes_to_the_end() {
    let mut passes_seen = 0;
    let mut reasons = std::collections::BTreeSet::new();
    for seed in 1..=60u64 {
        let black = if seed % 2 == 0 { Seat::Zero } else { Seat::One };
        let (game, texts) = play_out(seed, black);
        let outcome = game.status().outcome().cloned().expect("played to the end");
        reasons.insert(outcome.reason);
        let AnyDetail::Othello(detail) = &outcome.detail else {
            panic!("an Othello detail");
        };
        assert_eq!(outcome.winner, detail.discs.winner());
        assert_eq!(detail.scored.black + detail.scored.white, 64);
        let AnyGame::Othello(member) = &game else {
            panic!("an Othello game");
        };
        let record = member.rules_game().record();
        assert_eq!(record, texts.concat(), "the record is the texts joined");
        assert_eq!(
            &rules::othello::Game::from_record(&record).unwrap(),
            member.rules_game()
        );
        passes_seen += texts.iter().filter(|t| *t == "pass").count();
        assert_eq!(
            game.ply() as usize,
            texts.iter().filter(|t| *t != "pass").count()
        );
        assert_eq!(game.action_count(), texts.len());
        let replayed = AnyGame::replay_stored(japanese(), black, &texts).unwrap();
        assert_eq!(replayed, game);
        let actions = game.actions();
        assert_eq!(
            AnyGame::from_actions(japanese(), black, &actions).unwrap(),
            game
        );
    }
    assert!(passes_seen > 0, "some random game had a forced pass");
    assert!(reasons.contains("board_full"), "{reasons:?}");
}

#[test]
fn a_forced_pass_is_an_action_with_a_pass_phase_and_a_passed_delta() {
    // Find a random game with a pass and stop just before it.
    let (_, texts) = (1..200u64)
        .map(|seed| play_out(seed, Seat::Zero))
        .find(|(_, texts)| texts.contains(&"pass".to_owned()))
        .expect("a game with a pass");
    let at = texts.iter().position(|t| t == "pass").unwrap();
    let mut game_before = AnyGame::replay_stored(japanese(), Seat::Zero, &texts[..at]).unwrap();
    let passer = game_before.to_act().unwrap();
    assert_eq!(
        game_before.status(),
        Status::Ongoing {
            to_act: passer,
            phase: AnyPhase::Othello(OthelloPhase::Pass)
        }
    );
    assert_eq!(
        legal(&game_before),
        OthelloLegal {
            places: vec![],
            pass: true
        }
    );
    let AnyView::Othello(view) = game_before.view(false) else {
        panic!("an Othello view");
    };
    assert_eq!(
        (view.phase, view.legal.len()),
        (Some(OthelloPhase::Pass), 0)
    );
    // Any square is refused with `must_pass`; the pass plays and hands the move over.
    let err = game_before.clone().apply(act("a1")).unwrap_err();
    assert!(matches!(
        err,
        AnyIllegal::Othello(IllegalMove::MustPass | IllegalMove::Occupied)
    ));
    let ply = game_before.ply();
    let AnyDelta::Othello(delta) = game_before
        .apply_as(game_before.seat_of(passer), act("pass"))
        .unwrap()
    else {
        panic!("an Othello delta");
    };
    assert_eq!(delta.change, OthelloChange::Passed { colour: passer });
    assert_eq!(delta.status.to_act(), Some(passer.opposite()));
    assert!(!delta.legal.is_empty());
    assert_eq!(game_before.ply(), ply, "a pass is not a move");
    assert!(!Othello::is_move(&Move::Pass));
    assert!(Othello::is_move(&Move::Place(sq("a1"))));
    assert_eq!(game_before.undo(), Some(act("pass")));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Everywhere in random games, exactly the listed actions play, and undo restores the game.
    #[test]
    fn the_listing_agrees_with_apply_and_undo_restores(seed in any::<u64>(), stop in 0usize..70) {
        let (_, texts) = play_out(seed, Seat::Zero);
        let stop = stop.min(texts.len());
        let game = AnyGame::replay_stored(japanese(), Seat::Zero, &texts[..stop]).unwrap();
        let listing = legal(&game);
        let candidates = Square::all().map(Move::Place).chain([Move::Pass]);
        for mv in candidates {
            let mut probe = game.clone();
            let played = probe.apply(AnyAction::Othello(mv));
            prop_assert_eq!(played.is_ok(), listing.contains(&mv), "{}", mv);
            if played.is_ok() {
                prop_assert_eq!(probe.undo(), Some(AnyAction::Othello(mv)));
            }
            prop_assert_eq!(&probe, &game, "refused, or played and undone: the game as before");
        }
        prop_assert!(!Othello::is_opening_decision(&Move::Pass));
        prop_assert!(!Othello::at_most_once(&Move::Pass));
    }
}

#[test]
fn the_pass_is_the_forced_action_exactly_when_it_is_due() {
    let mut game = AnyGame::new(japanese(), Seat::Zero);
    assert_eq!(game.forced(), None, "black has a choice at the start");
    for (i, square) in ["d3", "c3", "b3", "b2", "f5", "a3", "a1"]
        .into_iter()
        .enumerate()
    {
        game.apply(act(square)).unwrap();
        assert_eq!(game.forced(), None, "after {square} (ply {})", i + 1);
    }
    game.apply(act("c1")).unwrap();
    assert_eq!(
        game.forced(),
        Some(act("pass")),
        "black has no move, white has"
    );
    game.apply(act("pass")).unwrap();
    assert_eq!(game.forced(), None, "white has a choice");
    // Draughts and Gomoku never force an action, even with one legal move.
    let mut draughts = AnyGame::new(
        AnyConfig::decode("draughts", "variant=international").unwrap(),
        Seat::Zero,
    );
    for mv in ["31-26", "16-21", "33-29", "17-22"] {
        draughts
            .apply(games::GameKind::Draughts.parse_action(mv).unwrap())
            .unwrap();
    }
    assert_eq!(
        match draughts.legal() {
            games::AnyLegal::Draughts(l) => l.moves.len(),
            _ => unreachable!(),
        },
        1
    );
    assert_eq!(draughts.forced(), None);
}
