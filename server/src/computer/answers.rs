//! How the computer answers what the opponent offers.
//!
//! - A takeback: accepted in casual games (every game against the computer is one), refused in rated ones.
//! - A draw: accepted only when the game has nothing left in it: the board is nearly full (at most a tenth of its
//!   points empty), or at least half of it is filled and the computer's last search scored the position dead
//!   even (within [`DEAD_EVEN`] of zero either way, less than half of what one open three is worth). Otherwise
//!   it plays on, as a player who sees a chance would.
//! - A rematch: accepted (the computer never offers one itself).

/// The score band (engine units; an open three is 60) inside which the computer sees a filled board as even.
pub const DEAD_EVEN: i32 = 25;

/// Whether the computer takes back the opponent's move.
pub fn accept_takeback(rated: bool) -> bool {
    !rated
}

/// Whether the computer agrees to a draw on a `size`×`size` board holding `stones`, its last search having scored
/// the position `last_score` for itself (none yet: nothing searched).
pub fn accept_draw(size: u8, stones: usize, last_score: Option<i32>) -> bool {
    let cells = usize::from(size) * usize::from(size);
    let empty = cells.saturating_sub(stones);
    let nearly_full = empty * 10 <= cells;
    let even = stones * 2 >= cells && last_score.is_some_and(|s| s.abs() <= DEAD_EVEN);
    nearly_full || even
}

/// Whether the computer plays again (always).
pub fn accept_rematch() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_accepted_on_a_nearly_full_board_whatever_the_score() {
        // 225 points: 22 empty is under a tenth, 23 is not.
        assert!(accept_draw(15, 203, Some(500)));
        assert!(!accept_draw(15, 202, Some(500)));
        assert!(accept_draw(15, 225, None));
    }

    #[test]
    fn a_draw_is_accepted_on_a_half_full_board_only_when_it_is_dead_even() {
        assert!(accept_draw(15, 113, Some(DEAD_EVEN)));
        assert!(accept_draw(15, 113, Some(-DEAD_EVEN)));
        assert!(!accept_draw(15, 113, Some(DEAD_EVEN + 1)));
        assert!(!accept_draw(15, 112, Some(0)), "under half the board");
        assert!(!accept_draw(15, 113, None));
        assert!(!accept_draw(15, 5, Some(0)), "an opening is never dead");
    }

    #[test]
    fn takebacks_only_in_casual_games_and_rematches_always() {
        assert!(accept_takeback(false));
        assert!(!accept_takeback(true));
        assert!(accept_rematch());
    }
}
