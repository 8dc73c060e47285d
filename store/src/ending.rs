//! What ending a game decides before any SQL runs: who sat where at the end, the score, and the tallies a rating
//! row counts. Shared by the sqlx stores (`common.rs`) and SQLite's batch writer (`sqlite_writer.rs`), which
//! differ only in how they run their statements.

use ratings::glicko2;
use rules::Color;

use crate::UserId;

/// The users seated black and white at the end of a game that started with `black` and `white`.
pub(crate) fn seats_at_end(
    black: Option<UserId>,
    white: Option<UserId>,
    swapped: bool,
) -> (Option<UserId>, Option<UserId>) {
    if swapped {
        (white, black)
    } else {
        (black, white)
    }
}

/// Black's score (1, 0.5 or 0) when `winner` won (`None`: a draw).
pub(crate) fn score_black(winner: Option<Color>) -> f64 {
    match winner {
        Some(Color::Black) => glicko2::WIN,
        Some(Color::White) => glicko2::LOSS,
        None => glicko2::DRAW,
    }
}

/// The (wins, losses, draws) a score adds to a player's row.
pub(crate) fn tally(score: f64) -> (i64, i64, i64) {
    if score > 0.75 {
        (1, 0, 0)
    } else if score < 0.25 {
        (0, 1, 0)
    } else {
        (0, 0, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_tally_as_one_win_loss_or_draw() {
        assert_eq!(tally(score_black(Some(Color::Black))), (1, 0, 0));
        assert_eq!(tally(1.0 - score_black(Some(Color::Black))), (0, 1, 0));
        assert_eq!(tally(score_black(None)), (0, 0, 1));
        assert_eq!(tally(score_black(Some(Color::White))), (0, 1, 0));
    }
}
