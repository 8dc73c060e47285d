//! What the server tells the store and the rating pools about its games: Gomoku's kind, texts and pools (the
//! file's first subject, hence its name), every game's pools (Othello's and draughts' beside Gomoku's), the
//! rating step, who holds which colour in a stored game of any game ([`replay_any`], [`seats_at_end`]), and the
//! stored texts. The store and `ratings` know no rules; these facts come from here, and only from
//! here. This is also the one place that turns the store's texts into rules values and back: a configuration
//! and an action are written as `games::storage` writes them ([`config_text`], [`action_text`], [`move_number`])
//! and read back through it ([`decode`]), so no rename in `rules` changes a stored row. The room holds any game
//! through the seam and reads a stored game back as one with [`decode_any`].

use games::{
    AnyAction, AnyConfig, AnyGame, ConfigError, DecodeError, Game as _, GameConfig, GameKind,
    GomokuConfig, Seat,
};
use ratings::Pool;
use rules::{Action, Color, Game, RuleSet, Rules};
use store::{GameId, GameRecord, Rater, SeatsAtEnd, Side};

/// The game's kind, as stored with each game (`games.game`).
pub const KIND: &str = GameKind::Gomoku.as_str();

/// The pool of freestyle games.
pub const FREESTYLE: Pool = Pool::new(KIND, "freestyle");
/// The pool of standard games.
pub const STANDARD: Pool = Pool::new(KIND, "standard");
/// The pool of Renju games, every opening rule and forbidden policy together.
pub const RENJU: Pool = Pool::new(KIND, "renju");
/// The pool of Othello games, both scorings together (`othello/standard`).
pub const OTHELLO: Pool = Pool::new("othello", "standard");
/// The pool of international draughts games (`draughts/international`).
pub const DRAUGHTS: Pool = Pool::new("draughts", "international");
/// Every pool, in display order: Gomoku's, then Othello's, then draughts'.
pub const POOLS: [Pool; 5] = [FREESTYLE, STANDARD, RENJU, OTHELLO, DRAUGHTS];

/// The rating step the store runs for a finished rated game: Glicko-2, each game a rating period of its own.
pub const RATER: Rater = Rater(ratings::glicko2::rate_game);

/// The pool a game under these rules is rated in. Opening rules and forbidden policies do not split pools.
pub fn pool_of(rules: &Rules) -> Pool {
    match rules.rule_set() {
        RuleSet::Freestyle => FREESTYLE,
        RuleSet::Standard => STANDARD,
        RuleSet::Renju => RENJU,
    }
}

/// The pool a game under this configuration is rated in, as the seam names it (`games::PoolKey`).
pub fn pool(config: &AnyConfig) -> Pool {
    let key = config.pool();
    Pool::new(key.game, key.variant)
}

/// The pool a name ([`Pool::name`]) names among the game's pools, if any.
pub fn pool_named(name: &str) -> Option<Pool> {
    POOLS.into_iter().find(|p| p.name() == name)
}

/// Where a pool stands in display order ([`POOLS`]); a pool of no known game after them all.
pub fn display_rank(pool: &Pool) -> usize {
    POOLS.iter().position(|p| p == pool).unwrap_or(POOLS.len())
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

/// The side a colour is filed under in the store (its `black_*` and `white_*` seats).
pub const fn side(colour: Color) -> Side {
    match colour {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

/// The colour of a side of the store.
pub const fn colour(side: Side) -> Color {
    match side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    }
}

/// Why a stored game does not read back as a Gomoku game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The game is of another kind than the server plays.
    #[error("game {game} is a game of `{kind}`, not gomoku")]
    OtherGame {
        /// The stored game.
        game: GameId,
        /// Its stored kind.
        kind: String,
    },
    /// The stored configuration is not one `games::storage` writes.
    #[error("game {game}'s configuration does not read: {error}")]
    Config {
        /// The stored game.
        game: GameId,
        /// Why.
        error: ConfigError,
    },
    /// A stored action is neither notation nor the JSON stored before it.
    #[error("action {seq} of game {game} does not read: {error}")]
    Action {
        /// The stored game.
        game: GameId,
        /// The action's seq.
        seq: u32,
        /// Why.
        error: DecodeError,
    },
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

/// Reads a stored game of any game back through the seam: its configuration and its actions in seq order, from
/// the texts `games::storage` writes (and, for Gomoku, the JSON actions were stored as before the notation).
pub fn decode_any(record: &GameRecord) -> Result<(AnyConfig, Vec<AnyAction>), RecordError> {
    let game = record.id;
    let config =
        AnyConfig::decode(&record.game.kind, &record.game.config).map_err(|error| match error {
            ConfigError::UnknownGame => RecordError::OtherGame {
                game,
                kind: record.game.kind.clone(),
            },
            error => RecordError::Config { game, error },
        })?;
    let kind = config.kind();
    let actions = record
        .actions
        .iter()
        .map(|a| {
            AnyAction::decode(kind, &a.text).map_err(|error| RecordError::Action {
                game,
                seq: a.seq,
                error,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((config, actions))
}

/// A stored game replayed through the rules (`None`: it does not read back or its actions do not replay, which
/// the room never stores).
pub fn replay(record: &GameRecord) -> Option<Game> {
    let decoded = decode(record).ok()?;
    Game::from_actions(decoded.rules, &decoded.actions).ok()
}

/// A stored game of any game replayed through the seam, seat 0 holding black at the start as the store files
/// its players (`None`: it does not read back or does not replay).
pub fn replay_any(record: &GameRecord) -> Option<AnyGame> {
    let (config, actions) = decode_any(record).ok()?;
    let first = if AnyGame::new(config, Seat::Zero).colour_of(Seat::Zero) == Color::Black {
        Seat::Zero
    } else {
        Seat::One
    };
    AnyGame::from_actions(config, first, &actions).ok()
}

/// Who holds which colour now in a game replayed by [`replay_any`], relative to the start: the seam's answer
/// (`Game::seat_of`), for every game (a Gomoku swap exchanges them; Othello and draughts never do).
pub fn seats_at_end(game: &AnyGame) -> SeatsAtEnd {
    if game.seat_of(Color::Black) == Seat::Zero {
        SeatsAtEnd::AsStarted
    } else {
        SeatsAtEnd::Exchanged
    }
}

/// Who holds which colour at the end of a stored game of any game (as started when it does not replay).
pub fn seats_of(record: &GameRecord) -> SeatsAtEnd {
    replay_any(record)
        .as_ref()
        .map_or(SeatsAtEnd::AsStarted, seats_at_end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_has_its_own_pool_named_as_stored_before_pools_had_games() {
        assert_eq!(pool_of(&Rules::freestyle()).name(), "freestyle");
        assert_eq!(pool_of(&Rules::standard()).name(), "standard");
        assert_eq!(
            pool_of(&Rules::renju(rules::ForbiddenPolicy::Claim)).name(),
            "renju"
        );
        for pool in POOLS {
            assert_eq!(pool_named(&pool.name()), Some(pool.clone()));
        }
        for rules in [
            Rules::freestyle(),
            Rules::standard(),
            Rules::renju(rules::ForbiddenPolicy::Lose),
        ] {
            assert_eq!(pool(&AnyConfig::Gomoku(rules.into())), pool_of(&rules));
        }
        assert_eq!(pool_named("othello/standard"), Some(OTHELLO));
        assert_eq!(pool_named("draughts/international"), Some(DRAUGHTS));
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
