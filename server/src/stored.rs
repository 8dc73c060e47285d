//! What the server tells the store and the rating pools about a game of any game: its pool (asked of the game,
//! [`games::GameConfig::pool`]) and every game's pools in display order, the rating step, the store's sides and
//! colours, and a stored game read back through the seam ([`decode_any`], [`replay_any`]) with who holds which
//! colour at its end ([`seats_at_end`]). The store and `ratings` know no rules; these facts come from here, and
//! the texts are the ones `games::storage` writes and reads.

use std::sync::LazyLock;

use games::{
    AnyAction, AnyConfig, AnyGame, ConfigError, DecodeError, Game as _, GameConfig, GameKind, Seat,
};
use ratings::Pool;
use rules::Color;
use store::{GameId, GameRecord, Rater, SeatsAtEnd, Side};

/// The rating step the store runs for a finished rated game: Glicko-2, each game a rating period of its own.
pub const RATER: Rater = Rater(ratings::glicko2::rate_game);

/// Every game's pools, in display order: the games in their list's order, each game's pools in its own.
pub static POOLS: LazyLock<Vec<Pool>> = LazyLock::new(|| {
    GameKind::ALL
        .into_iter()
        .flat_map(|kind| kind.pools())
        .map(|key| Pool::new(key.game, key.variant))
        .collect()
});

/// The pool a game under this configuration is rated in, as the seam names it (`games::PoolKey`).
pub fn pool(config: &AnyConfig) -> Pool {
    let key = config.pool();
    Pool::new(key.game, key.variant)
}

/// The pool a name ([`Pool::name`]) names among the game's pools, if any.
pub fn pool_named(name: &str) -> Option<Pool> {
    POOLS.iter().find(|p| p.name() == name).cloned()
}

/// Where a pool stands in display order ([`POOLS`]); a pool of no known game after them all.
pub fn display_rank(pool: &Pool) -> usize {
    POOLS.iter().position(|p| p == pool).unwrap_or(POOLS.len())
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

/// Why a stored game does not read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The game is of no kind the server plays.
    #[error("game {game} is a game of `{kind}`, which this server does not play")]
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

/// A stored game of any game replayed through the seam, seat 0 holding black at the start as the store files
/// its players (`None`: it does not read back or does not replay).
pub fn replay_any(record: &GameRecord) -> Option<AnyGame> {
    let (config, actions) = decode_any(record).ok()?;
    AnyGame::from_actions(config, first_seat(config), &actions).ok()
}

/// The seat that holds a stored game's first colour at its start: the store files its players by colour, black
/// in seat 0, so it is seat 0 when the game's first colour is black (draughts: seat 1).
pub fn first_seat(config: AnyConfig) -> Seat {
    if AnyGame::new(config, Seat::Zero).colour_of(Seat::Zero) == Color::Black {
        Seat::Zero
    } else {
        Seat::One
    }
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
