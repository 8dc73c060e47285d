//! The texts of the game-writing statements that both write paths run: the sqlx stores (`common.rs`, SQLite in
//! memory and Postgres) and SQLite's writer thread (`sqlite_writer.rs`, rusqlite). Parameters are `$1`-style,
//! which both databases accept and SQLite numbers in order of first appearance, so binding by position works
//! in every driver.

/// Inserts a game (14 parameters: room, the four rules columns, time control, public, rated, black name and
/// user, white name and user, started at, public id) and returns its id.
pub(crate) const INSERT_GAME: &str =
    "INSERT INTO games (room, board_size, rule_set, forbidden_policy, opening, time_control, public, \
     rated, black_name, black_user_id, white_name, white_user_id, started_at, public_id) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id";

/// The game's id if it exists.
pub(crate) const GAME_EXISTS: &str = "SELECT id FROM games WHERE id = $1";

/// A game's `decide_swap` actions, in order.
pub(crate) const SWAP_ACTIONS: &str =
    "SELECT action FROM actions WHERE game_id = $1 AND action LIKE '%decide_swap%' ORDER BY seq";

/// Records that a game's colours were swapped (`$1` true, `$2` the game).
pub(crate) const MARK_SWAPPED: &str = "UPDATE games SET swapped = $1 WHERE id = $2";

/// Creates a player's rating row in a pool at the given rating if there is none.
pub(crate) const ENSURE_RATING: &str =
    "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, tier, updated_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, pool) DO NOTHING";

/// Two players' ratings in a pool (`$1`), lower user id first; Postgres appends its row lock.
pub(crate) const RATINGS_OF_TWO: &str =
    "SELECT user_id, rating, deviation, volatility FROM ratings \
     WHERE pool = $1 AND user_id IN ($2, $3) ORDER BY user_id";

/// A player's rating after a game, with the game counted as a win, loss or draw.
pub(crate) const UPDATE_RATING: &str =
    "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = games + 1, \
     wins = wins + $4, losses = losses + $5, draws = draws + $6, tier = $7, updated_at = $8 \
     WHERE user_id = $9 AND pool = $10";

/// One line of a player's rating history.
pub(crate) const INSERT_RATING_CHANGE: &str =
    "INSERT INTO rating_changes (game_id, user_id, pool, rating_before, deviation_before, \
     volatility_before, rating_after, deviation_after, volatility_after, tier_after, at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";
