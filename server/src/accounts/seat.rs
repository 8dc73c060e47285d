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
        }
    }

    /// Whether shown with `?`.
    pub fn provisional(&self) -> bool {
        self.rating.is_provisional()
    }
}

/// The current rating of `user` in `pool` (a new player's rating when they never played it).
pub async fn rating_in(
    store: &dyn Store,
    user: UserId,
    pool: Pool,
) -> Result<SeatRating, StoreError> {
    Ok(store
        .standings(user)
        .await?
        .into_iter()
        .find(|s| s.pool == pool)
        .map_or_else(SeatRating::new_player, |s| SeatRating::of(s.rating)))
}
