//! The texts of the game-writing statements that both executors of `write.rs` run: the sqlx stores (`common.rs`,
//! SQLite in memory and Postgres) and SQLite's writer thread (`sqlite_writer.rs`, rusqlite). Parameters are `$1`-style,
//! which both databases accept and SQLite numbers in order of first appearance, so binding by position works
//! in every driver.

/// Inserts a game (13 parameters, in the order of `write::GameColumns`: room, game, config, pool, time control,
/// public, rated, black name and user, white name and user, started at, public id) and returns its id. The
/// columns of Gomoku's rules that games had before `config` (`board_size`, …) are left empty: the store no
/// longer reads them.
pub(crate) const INSERT_GAME: &str =
    "INSERT INTO games (room, game, config, pool, time_control, public, rated, black_name, black_user_id, \
     white_name, white_user_id, started_at, public_id) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id";

/// Ends a game that has not ended (`$1`–`$5` as `write::EndColumns`, `$6` the game) and returns what rating it
/// needs; no row when the game had already ended (or does not exist).
pub(crate) const END_GAME: &str =
    "UPDATE games SET ended_at = $1, winner = $2, aborted = $3, reason = $4, swapped = $5 \
     WHERE id = $6 AND ended_at IS NULL RETURNING rated, black_user_id, white_user_id, pool";

/// The game's id if it exists.
pub(crate) const GAME_EXISTS: &str = "SELECT id FROM games WHERE id = $1";

/// A takeback: deletes the actions of game `$1` from seq `$2` on.
pub(crate) const DELETE_ACTIONS_FROM: &str = "DELETE FROM actions WHERE game_id = $1 AND seq >= $2";

/// Creates a player's rating row in a pool at the given rating if there is none.
pub(crate) const ENSURE_RATING: &str =
    "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, tier, updated_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, pool) DO NOTHING";

/// Two players' ratings and standings in a pool (`$1`), lower user id first; Postgres appends its row lock.
pub(crate) const RATINGS_OF_TWO: &str =
    "SELECT user_id, rating, deviation, volatility, games, established, established_opponents FROM ratings \
     WHERE pool = $1 AND user_id IN ($2, $3) ORDER BY user_id";

/// How many players are established in pool `$1`, counting no further than `$2`.
pub(crate) const ESTABLISHED_IN_POOL: &str =
    "SELECT COUNT(*) FROM (SELECT 1 FROM ratings WHERE pool = $1 AND established LIMIT $2) AS seeds";

/// Counts opponent `$3` among the established opponents of player `$1` in pool `$2`, unless it is already.
pub(crate) const ADD_ESTABLISHED_OPPONENT: &str =
    "INSERT INTO established_opponents (user_id, pool, opponent_id) VALUES ($1, $2, $3) \
     ON CONFLICT (user_id, pool, opponent_id) DO NOTHING";

/// A player's rating after a game, with the game counted as a win, loss or draw, and whether the player is
/// established and against how many established opponents.
pub(crate) const UPDATE_RATING: &str =
    "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = games + 1, \
     wins = wins + $4, losses = losses + $5, draws = draws + $6, tier = $7, updated_at = $8, \
     established = $9, established_opponents = $10 \
     WHERE user_id = $11 AND pool = $12";

/// One line of a player's rating history.
pub(crate) const INSERT_RATING_CHANGE: &str =
    "INSERT INTO rating_changes (game_id, user_id, pool, rating_before, deviation_before, \
     volatility_before, rating_after, deviation_after, volatility_after, tier_after, at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// Creates a player's ladder row in a game (`$1` user, `$2` game, `$3` at) at 0 points if there is none.
pub(crate) const ENSURE_LADDER: &str =
    "INSERT INTO ladders (user_id, game, points, games, updated_at) \
     VALUES ($1, $2, 0, 0, $3) ON CONFLICT (user_id, game) DO NOTHING";

/// Two players' ladder points in a game (`$1`), lower user id first; Postgres appends its row lock.
pub(crate) const LADDERS_OF_TWO: &str =
    "SELECT user_id, points FROM ladders WHERE game = $1 AND user_id IN ($2, $3) ORDER BY user_id";

/// A player's ladder points after a rated game (`$1` points, `$2` at, `$3` user, `$4` game), the game counted.
pub(crate) const UPDATE_LADDER: &str =
    "UPDATE ladders SET points = $1, games = games + 1, updated_at = $2 WHERE user_id = $3 AND game = $4";
