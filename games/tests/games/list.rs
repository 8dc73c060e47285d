//! The one list of games: what every listed game answers for itself (pools, default configuration, stored texts,
//! record export), asked through `GameKind` and `AnyGame` as the layers above ask it.

use games::{AnyConfig, AnyGame, Game, GameConfig, GameKind, RecordHeader, Seat, StoredConfig};

#[test]
fn every_game_is_listed_once_by_a_name_that_reads_back() {
    let mut names: Vec<&str> = GameKind::ALL.iter().map(|k| k.as_str()).collect();
    for kind in GameKind::ALL {
        assert_eq!(kind.as_str().parse::<GameKind>().unwrap(), kind);
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), GameKind::ALL.len());
    assert!("chess".parse::<GameKind>().is_err());
}

#[test]
fn a_default_configuration_is_of_its_game_rated_in_one_of_its_pools_and_stored_text_reads_back() {
    for kind in GameKind::ALL {
        let config = kind.default_config();
        assert_eq!(config.kind(), kind);
        assert!(
            kind.pools().contains(&config.pool()),
            "{kind}: {:?}",
            config.pool()
        );
        let StoredConfig { game, text } = config.stored();
        assert_eq!(AnyConfig::decode(game, &text).unwrap(), config);
    }
}

#[test]
fn pools_are_named_by_their_game_and_no_two_games_share_one() {
    let mut all = Vec::new();
    for kind in GameKind::ALL {
        assert!(!kind.pools().is_empty());
        for pool in kind.pools() {
            assert_eq!(pool.game, kind.as_str());
            all.push(*pool);
        }
    }
    let count = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), count);
}

#[test]
fn every_game_plays_its_first_listed_actions_and_stores_and_replays_them() {
    for kind in GameKind::ALL {
        let mut game = AnyGame::new(kind.default_config(), Seat::Zero);
        for _ in 0..6 {
            if let Some(forced) = game.forced() {
                game.apply(forced).unwrap();
                continue;
            }
            let Some(action) = game.legal_actions().into_iter().next() else {
                break;
            };
            game.apply(action).unwrap();
        }
        let texts: Vec<String> = game.actions().iter().map(|a| a.encode()).collect();
        assert!(!texts.is_empty(), "{kind}");
        let again = AnyGame::replay_stored(game.config(), Seat::Zero, &texts).unwrap();
        assert_eq!(again, game);
    }
}

#[test]
fn a_record_export_names_the_players_where_the_format_has_them_and_ends_with_a_newline() {
    let header = RecordHeader {
        black: "bea \"b\"",
        white: "wil",
        result: Some(Some(rules::Color::White)),
        event: "Rated game",
        site: "example.org:8080",
        date: "2026.12.07",
        time_control: "5+3",
    };
    for kind in GameKind::ALL {
        let mut game = AnyGame::new(kind.default_config(), Seat::Zero);
        let first = game.legal_actions().into_iter().next().unwrap();
        let text = first.notation();
        game.apply(first).unwrap();
        let record = game.record(&header);
        assert!(record.ends_with('\n'), "{kind}: {record:?}");
        let format = kind.record_format();
        assert!(format.mime.starts_with("text/"));
        if format.extension == "pdn" {
            // PDN's seven-tag roster, in its order, first.
            let roster =
                "[Event \"Rated game\"]\n[Site \"example.org:8080\"]\n[Date \"2026.12.07\"]\n\
                [Round \"-\"]\n[White \"wil\"]\n[Black \"bea \\\"b\\\"\"]\n[Result \"2-0\"]\n\
                [GameType \"20\"]\n[TimeControl \"5+3\"]\n\n1. ";
            assert!(record.starts_with(roster), "{record}");
            assert!(record.contains(&format!("1. {text} 2-0\n")), "{record}");
            let read = rules::draughts::Game::from_pdn(&record).unwrap();
            assert_eq!(read.moves().len(), 1, "{record}");
        } else {
            assert!(record.contains(&text), "{kind}: {record:?} lacks {text}");
        }
        // Every record with a header names the players, the date, the event and the time control.
        if record.starts_with('[') {
            for tag in [
                "[Event \"Rated game\"]",
                "[Date \"2026.12.07\"]",
                "[Site \"example.org:8080\"]",
                "[TimeControl \"5+3\"]",
                "\"wil\"]",
            ] {
                assert!(record.contains(tag), "{kind}: {record} lacks {tag}");
            }
        }
    }
}

#[test]
fn the_othello_record_has_a_header_with_its_scoring_and_final_discs_and_reads_back() {
    let header = RecordHeader {
        black: "bea",
        white: "wil",
        result: Some(Some(rules::Color::Black)),
        event: "Casual game",
        site: "?",
        date: "2026.12.07",
        time_control: "none",
    };
    // The shortest game: black wipes white out in nine moves.
    let line = ["c4", "c3", "c2", "b4", "a5", "f4", "g4", "c5", "d6"];
    let mut game = AnyGame::new(GameKind::Othello.default_config(), Seat::Zero);
    for m in line {
        let action = GameKind::Othello.parse_action(m).unwrap();
        game.apply(action).unwrap();
    }
    let record = game.record(&header);
    assert!(
        record.starts_with(
            "[Event \"Casual game\"]\n[Site \"?\"]\n[Date \"2026.12.07\"]\n[Round \"-\"]\n\
             [Black \"bea\"]\n[White \"wil\"]\n[Result \"1-0\"]\n[Scoring \"japanese\"]\n\
             [Discs \"64-0\"]\n[TimeControl \"none\"]\n\nc4c3c2b4a5f4g4c5d6\n"
        ),
        "{record}"
    );
    let read = rules::othello::Game::from_record(&record).unwrap();
    assert_eq!(read.transcript(), line.concat());
}
