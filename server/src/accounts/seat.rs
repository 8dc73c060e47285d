//! A seated player's rating and tier in a room's pool, for room snapshots and lobby entries.

use ratings::{Pool, Rating, Tier};
use store::{Store, StoreError, UserId};

/// What a seat shows about its player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatRating {
    /// The rating in the pool (a new player's 1500 when the pool was never played).
    pub rating: Rating,
    /// The tier it earns.
    pub tier: Tier,
    /// Rated games the player played in all pools together (the lobby ranks their rooms by it).
    pub rated_games: u32,
    /// Whether the player is established in some pool ([`ratings::established`]).
    pub established: bool,
}

impl SeatRating {
    /// The rating of a player who never played the pool.
    pub fn new_player() -> SeatRating {
        SeatRating::of(Rating::default())
    }

    /// From a rating.
    pub fn of(rating: Rating) -> SeatRating {
        SeatRating {
            rating,
            tier: Tier::of(&rating),
            rated_games: 0,
            established: false,
        }
    }

    /// The rating after one more rated game (the player's record otherwise as it was).
    pub fn after_game(&self, rating: Rating) -> SeatRating {
        SeatRating {
            rated_games: self.rated_games.saturating_add(1),
            established: self.established,
            ..SeatRating::of(rating)
        }
    }

    /// The player's standing as the lobby ranks rooms.
    pub fn standing(&self) -> crate::lobby::Standing {
        use crate::lobby::Standing;
        if self.established {
            Standing::Established
        } else if self.rated_games > 0 {
            Standing::Rated
        } else {
            Standing::Account
        }
    }

    /// Whether shown with `?`.
    pub fn provisional(&self) -> bool {
        self.rating.is_provisional()
    }
}

/// The current rating of `user` in `pool` (a new player's rating when they never played it), with their record in
/// all pools.
pub async fn rating_in(
    store: &dyn Store,
    user: UserId,
    pool: Pool,
) -> Result<SeatRating, StoreError> {
    let standings = store.standings(user).await?;
    let mut seat = standings
        .iter()
        .find(|s| s.pool == pool)
        .map_or_else(SeatRating::new_player, |s| SeatRating::of(s.rating));
    seat.rated_games = standings
        .iter()
        .fold(0u32, |n, s| n.saturating_add(s.games));
    seat.established = standings.iter().any(|s| s.established);
    Ok(seat)
}
