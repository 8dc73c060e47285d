//! Established players: whose games move whose rating, and who is listed on a pool's leaderboard.
//!
//! These rules stop rating farming with many accounts (issue #35: twenty accounts from one address put a booster
//! at #1 in half a minute) and let strong, active players onto the leaderboard early (issue #36: a 25–2 player was
//! still off it after 27 games). They hold per pool, are pure, and are applied by the store in the transaction
//! that rates a game, so every node of a cluster applies them alike. `docs/ratings.md` explains them to players
//! and operators.
//!
//! - A player is **established** in a pool once they have played [`ESTABLISHED_GAMES`] rated games there, at
//!   least [`ESTABLISHED_OPPONENTS`] of them against different opponents who were established when the game was
//!   played. While a pool has fewer than [`SEED_PLAYERS`] established players (a new server, a new game) the
//!   games alone are enough, so a pool can start. Once established, always established in that pool.
//! - **A new account cannot move an established rating**: in a game between an established player and one who is
//!   not, only the newcomer's rating changes ([`moves`]); the established player's stays as it was (the game is
//!   still in both records). Games between two newcomers rate both, as any game between two established players.
//! - The **leaderboard** ([`listed`]) lists established players with at least [`BOARD_OPPONENTS`] different
//!   established opponents, a deviation of at most [`BOARD_DEVIATION`] (looser than the provisional
//!   [`crate::PROVISIONAL_DEVIATION`]: a player who wins every game keeps a high deviation for long), and a rated
//!   game in the pool within the last [`BOARD_ACTIVE_DAYS`] days.
//!
//! A ring of fresh accounts thus gains nothing by feeding one of them wins: its members are not established (their
//! games are among themselves), so the booster is not established either, lists nowhere, and its inflated number
//! moves no real player's rating when it meets one.

use crate::Rating;

/// Rated games in a pool before a player can be established there.
pub const ESTABLISHED_GAMES: u32 = 10;
/// Different opponents, established when played, a player needs to become established (outside a seeding pool).
pub const ESTABLISHED_OPPONENTS: u32 = 3;
/// While a pool has fewer established players than this, [`ESTABLISHED_GAMES`] games alone establish a player.
pub const SEED_PLAYERS: u32 = 10;
/// Rated games in the pool the leaderboard asks for.
pub const BOARD_GAMES: u32 = ESTABLISHED_GAMES;
/// Different established opponents the leaderboard asks for.
pub const BOARD_OPPONENTS: u32 = 3;
/// The highest deviation the leaderboard admits. Written as a literal in the leaderboard's SQL, which a store test
/// keeps equal to this.
pub const BOARD_DEVIATION: f64 = 150.0;
/// Days since the last rated game in the pool within which a player stays on the leaderboard.
pub const BOARD_ACTIVE_DAYS: u32 = 30;
/// [`BOARD_ACTIVE_DAYS`] in milliseconds.
pub const BOARD_ACTIVE_MS: i64 = BOARD_ACTIVE_DAYS as i64 * 24 * 3600 * 1000;

/// What these rules know of a player in a pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Rated games in the pool.
    pub games: u32,
    /// Whether the player is established in the pool.
    pub established: bool,
    /// Different opponents the player met in rated games of the pool while those opponents were established.
    pub established_opponents: u32,
}

impl Standing {
    /// The standing after one more rated game: `new_opponent` when the opponent was established and had not
    /// been counted before, `seeding` when the pool had fewer than [`SEED_PLAYERS`] established players.
    pub fn after_game(self, new_opponent: bool, seeding: bool) -> Standing {
        let games = self.games.saturating_add(1);
        let established_opponents = self
            .established_opponents
            .saturating_add(u32::from(new_opponent));
        Standing {
            games,
            established: self.established
                || (games >= ESTABLISHED_GAMES
                    && (seeding || established_opponents >= ESTABLISHED_OPPONENTS)),
            established_opponents,
        }
    }
}

/// Whether a player's rating moves in a rated game: always for a player who is not established, and for an
/// established one only against an established opponent.
pub const fn moves(player_established: bool, opponent_established: bool) -> bool {
    !player_established || opponent_established
}

/// Whether a player with `standing` and `rating`, whose last rated game in the pool was at `last_game_ms`, is on
/// the pool's leaderboard at `now_ms` (milliseconds since the Unix epoch). The store's leaderboard query is the
/// same rule in SQL.
pub fn listed(standing: &Standing, rating: &Rating, last_game_ms: i64, now_ms: i64) -> bool {
    standing.established
        && standing.games >= BOARD_GAMES
        && standing.established_opponents >= BOARD_OPPONENTS
        && rating.deviation <= BOARD_DEVIATION
        && last_game_ms >= active_since(now_ms)
}

/// The earliest last game that keeps a player on the leaderboard at `now_ms`.
pub const fn active_since(now_ms: i64) -> i64 {
    now_ms.saturating_sub(BOARD_ACTIVE_MS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glicko2::{rate_game, WIN};

    fn after(mut s: Standing, games: u32, new_opponents: u32, seeding: bool) -> Standing {
        for i in 0..games {
            s = s.after_game(i < new_opponents, seeding);
        }
        s
    }

    #[test]
    fn games_alone_establish_only_while_the_pool_is_seeding() {
        let new = Standing::default();
        assert!(!after(new, ESTABLISHED_GAMES - 1, 0, true).established);
        assert!(after(new, ESTABLISHED_GAMES, 0, true).established);
        assert!(
            !after(new, 100, 0, false).established,
            "a ring among itself"
        );
        assert!(!after(new, 100, ESTABLISHED_OPPONENTS - 1, false).established);
        assert!(after(new, ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS, false).established);
        assert!(
            !after(new, ESTABLISHED_GAMES - 1, ESTABLISHED_OPPONENTS, false).established,
            "the opponents alone are not enough"
        );
    }

    #[test]
    fn established_stays_established() {
        let s = after(Standing::default(), ESTABLISHED_GAMES, 0, true);
        assert!(s.after_game(false, false).established);
    }

    #[test]
    fn only_newcomers_move_against_newcomers() {
        assert!(moves(false, false));
        assert!(moves(false, true));
        assert!(moves(true, true));
        assert!(!moves(true, false));
    }

    #[test]
    fn a_player_who_wins_every_game_is_listed_after_the_rule_s_games() {
        let now = 1_000 * BOARD_ACTIVE_MS;
        let mut rating = Rating::default();
        let mut standing = Standing::default();
        let opponents = [1450.0, 1500.0, 1550.0, 1600.0];
        for game in 1..=BOARD_GAMES {
            let opponent = Rating::new(opponents[game as usize % 4], 60.0, 0.06);
            rating = rate_game(rating, opponent, WIN).0;
            standing = standing.after_game(game <= 4, false);
            assert_eq!(
                listed(&standing, &rating, now, now),
                game == BOARD_GAMES,
                "after {game} wins: {standing:?} {rating:?}"
            );
        }
        assert!(
            rating.is_provisional(),
            "still provisional, listed all the same"
        );
        assert!(
            !listed(&standing, &rating, active_since(now) - 1, now),
            "inactive"
        );
    }
}
