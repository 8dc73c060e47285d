//! Gomoku's own facts for the server: its stored kind and rating pools by rule set, who holds which colour in a
//! `rules::Game`, its configuration and action texts as `games::storage` writes them ([`config_text`],
//! [`action_text`], [`move_number`]), and a stored Gomoku game read back into `rules` values ([`decode`],
//! [`replay`]). What the server tells the store about a game of any game is in [`crate::stored`].

use games::{AnyAction, AnyConfig, GameConfig, GameKind, GomokuConfig};
use ratings::Pool;
use rules::{Action, Game, RuleSet, Rules};
use store::{GameRecord, SeatsAtEnd};

use crate::stored::RecordError;

/// The game's kind, as stored with each game (`games.game`).
pub const KIND: &str = GameKind::Gomoku.as_str();

/// The pool of freestyle games.
pub const FREESTYLE: Pool = Pool::new(KIND, "freestyle");
/// The pool of standard games.
pub const STANDARD: Pool = Pool::new(KIND, "standard");
/// The pool of Renju games, every opening rule and forbidden policy together.
pub const RENJU: Pool = Pool::new(KIND, "renju");
/// The pool a game under these rules is rated in. Opening rules and forbidden policies do not split pools.
pub fn pool_of(rules: &Rules) -> Pool {
    match rules.rule_set() {
        RuleSet::Freestyle => FREESTYLE,
        RuleSet::Standard => STANDARD,
        RuleSet::Renju => RENJU,
    }
}

/// Who holds which colour now, relative to the seats the game started with: the one place the server asks,
/// for a live game (the room), a game ending (the finish write) and a stored record (profiles, records). The
/// rules decide (`rules::Game::colours_swapped`), not a count of swap actions.
pub fn seats_now(game: &Game) -> SeatsAtEnd {
    if game.colours_swapped() {
        SeatsAtEnd::Exchanged
    } else {
        SeatsAtEnd::AsStarted
    }
}

/// A configuration's stored text ([`store::NewGame::config`]): `size=15,rule_set=renju,…` (`games::storage`).
pub fn config_text(rules: &Rules) -> String {
    GomokuConfig::from(*rules).encode()
}

/// An action's stored text ([`store::StoredAction::text`]): its notation (`h8`, `swap`, `propose:i9,j10`).
pub fn action_text(action: &Action) -> String {
    AnyAction::Gomoku(*action).encode()
}

/// An action's stored move number ([`store::StoredAction::ply`]): the game's ply after it when the action is a
/// move (a stone placed), `None` otherwise.
pub fn move_number(action: &Action, ply_after: u32) -> Option<u32> {
    <games::Gomoku as games::Game>::is_move(action).then_some(ply_after)
}

/// A stored game's rules and actions, read back from the store's texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The rules, from the stored configuration.
    pub rules: Rules,
    /// The actions in seq order.
    pub actions: Vec<Action>,
}

/// Reads a stored game's configuration and actions back through `games::storage` (notation, or the JSON that
/// actions were stored as before it).
pub fn decode(record: &GameRecord) -> Result<Decoded, RecordError> {
    let game = record.id;
    let kind = record
        .game
        .kind
        .parse::<GameKind>()
        .map_err(|_| RecordError::OtherGame {
            game,
            kind: record.game.kind.clone(),
        })?;
    let rules = match AnyConfig::decode(kind.as_str(), &record.game.config) {
        Ok(AnyConfig::Gomoku(config)) => config.rules(),
        Ok(_) => {
            return Err(RecordError::OtherGame {
                game,
                kind: record.game.kind.clone(),
            })
        }
        Err(error) => return Err(RecordError::Config { game, error }),
    };
    let actions = record
        .actions
        .iter()
        .map(|a| match AnyAction::decode(kind, &a.text) {
            Ok(AnyAction::Gomoku(action)) => Ok(action),
            Ok(_) => Err(RecordError::OtherGame {
                game,
                kind: record.game.kind.clone(),
            }),
            Err(error) => Err(RecordError::Action {
                game,
                seq: a.seq,
                error,
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Decoded { rules, actions })
}

/// A stored game replayed through the rules (`None`: it does not read back or its actions do not replay, which
/// the room never stores).
pub fn replay(record: &GameRecord) -> Option<Game> {
    let decoded = decode(record).ok()?;
    Game::from_actions(decoded.rules, &decoded.actions).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored::*;
    use rules::Color;

    #[test]
    fn every_rule_set_has_its_own_pool_named_as_stored_before_pools_had_games() {
        assert_eq!(pool_of(&Rules::freestyle()).name(), "freestyle");
        assert_eq!(pool_of(&Rules::standard()).name(), "standard");
        assert_eq!(
            pool_of(&Rules::renju(rules::ForbiddenPolicy::Claim)).name(),
            "renju"
        );
        for pool in POOLS.iter() {
            assert_eq!(pool_named(&pool.name()), Some(pool.clone()));
        }
        for rules in [
            Rules::freestyle(),
            Rules::standard(),
            Rules::renju(rules::ForbiddenPolicy::Lose),
        ] {
            assert_eq!(pool(&AnyConfig::Gomoku(rules.into())), pool_of(&rules));
        }
        assert_eq!(
            pool_named("othello/standard"),
            Some(Pool::new("othello", "standard"))
        );
        assert_eq!(
            pool_named("draughts/international"),
            Some(Pool::new("draughts", "international"))
        );
        for config in [
            AnyConfig::Othello(games::OthelloConfig::new(rules::othello::Scoring::European)),
            AnyConfig::Draughts(games::DraughtsConfig::international()),
        ] {
            assert!(POOLS.contains(&pool(&config)), "{config:?}");
        }
        assert_eq!(pool_named("othello"), None);
        assert_eq!(pool_named("Renju"), None);
    }

    fn record(config: &str, texts: &[&str]) -> GameRecord {
        let player = |name: &str| store::PlayerRef {
            name: name.to_owned(),
            user_id: None,
        };
        GameRecord {
            id: 7,
            game: store::NewGame {
                public_id: "p".to_owned(),
                room: "r".to_owned(),
                kind: KIND.to_owned(),
                config: config.to_owned(),
                pool: FREESTYLE,
                time_control: "{}".to_owned(),
                public: true,
                rated: false,
                black: player("b"),
                white: player("w"),
                started_at: 0,
            },
            actions: texts
                .iter()
                .enumerate()
                .map(|(seq, text)| store::StoredAction {
                    seq: seq as u32,
                    text: (*text).to_owned(),
                    ply: None,
                    used_ms: 0,
                    remaining_ms: None,
                    at: 0,
                })
                .collect(),
            end: None,
            rating_changes: None,
        }
    }

    #[test]
    fn a_game_is_stored_as_the_texts_of_games_storage_and_read_back_from_them() {
        let rules = Rules::renju(rules::ForbiddenPolicy::Reject);
        let config = config_text(&rules);
        assert_eq!(
            config,
            "size=15,rule_set=renju,forbidden_policy=reject,opening=none"
        );
        let h8 = Action::place("h8".parse().unwrap());
        assert_eq!(action_text(&h8), "h8");
        assert_eq!(move_number(&h8, 3), Some(3));
        assert_eq!(move_number(&Action::DecideSwap { swap: true }, 3), None);
        let decoded = decode(&record(
            &config,
            &["h8", r#"{"action":"place","point":"h9"}"#],
        ))
        .unwrap();
        assert_eq!(decoded.rules, rules);
        assert_eq!(decoded.actions, [h8, Action::place("h9".parse().unwrap())]);
        for c in [Color::Black, Color::White] {
            assert_eq!(colour(side(c)), c);
        }
    }

    #[test]
    fn a_record_that_does_not_read_back_is_a_typed_error() {
        let good = "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none";
        assert!(matches!(
            decode(&record("size=15", &[])),
            Err(RecordError::Config { game: 7, .. })
        ));
        assert!(matches!(
            decode(&record(good, &["h8", "z99"])),
            Err(RecordError::Action {
                game: 7,
                seq: 1,
                ..
            })
        ));
        let mut othello = record("scoring=japanese", &["f5"]);
        othello.game.kind = "othello".to_owned();
        assert!(matches!(
            decode(&othello),
            Err(RecordError::OtherGame { game: 7, .. })
        ));
        let mut chess = record(good, &[]);
        chess.game.kind = "chess".to_owned();
        assert!(matches!(decode(&chess), Err(RecordError::OtherGame { .. })));
        assert!(replay(&record(good, &["h8", "h8"])).is_none());
    }

    #[test]
    fn any_stored_game_reads_back_through_the_seam() {
        let good = "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none";
        let (config, actions) = decode_any(&record(
            good,
            &["h8", r#"{"action":"decide_swap","swap":true}"#],
        ))
        .unwrap();
        assert_eq!(config, AnyConfig::Gomoku(Rules::freestyle().into()));
        assert_eq!(
            actions,
            [
                AnyAction::Gomoku(Action::place("h8".parse().unwrap())),
                AnyAction::Gomoku(Action::DecideSwap { swap: true })
            ]
        );
        let mut othello = record("scoring=japanese", &["f5", "pass"]);
        othello.game.kind = "othello".to_owned();
        let (config, actions) = decode_any(&othello).unwrap();
        assert_eq!(config.kind(), GameKind::Othello);
        assert_eq!(actions.len(), 2);
        assert!(matches!(
            decode_any(&record("size=15", &[])),
            Err(RecordError::Config { game: 7, .. })
        ));
        assert!(matches!(
            decode_any(&record(good, &["h8", "f5x"])),
            Err(RecordError::Action { seq: 1, .. })
        ));
        let mut chess = record(good, &[]);
        chess.game.kind = "chess".to_owned();
        assert!(matches!(
            decode_any(&chess),
            Err(RecordError::OtherGame { .. })
        ));
    }

    #[test]
    fn only_an_accepted_swap_exchanges_the_seats() {
        let rules = Rules::renju(rules::ForbiddenPolicy::Reject)
            .with_opening(rules::Opening::SwapAfterThree);
        let opening: Vec<Action> = ["h8", "h9", "i9"]
            .iter()
            .map(|p| Action::place(p.parse().unwrap()))
            .collect();
        let after = |swap: bool| {
            let mut actions = opening.clone();
            actions.push(Action::DecideSwap { swap });
            seats_now(&Game::from_actions(rules, &actions).unwrap())
        };
        assert_eq!(
            seats_now(&Game::from_actions(rules, &opening).unwrap()),
            SeatsAtEnd::AsStarted
        );
        assert_eq!(after(false), SeatsAtEnd::AsStarted);
        assert_eq!(after(true), SeatsAtEnd::Exchanged);
    }
}
