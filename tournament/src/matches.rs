//! N-game matches: two players, colours alternating, one score and one result.

use crate::score::{Outcome, ScoreSystem};
use crate::swiss::Colour;

/// A match between player A and player B.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    /// Number of games (at least 1; even by default for Othello and draughts).
    pub games: u32,
    /// A's colour in the first game; colours then alternate.
    pub a_first: Colour,
    /// How each game is scored.
    pub system: ScoreSystem,
}

/// Why a match description or its results were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// A match has at least one game.
    NoGames,
    /// More than [`MAX_GAMES`] games.
    TooManyGames,
    /// More results than games.
    TooManyResults,
}

/// The longest match.
pub const MAX_GAMES: u32 = 100;

/// Who won a match.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchWinner {
    /// Player A.
    A,
    /// Player B.
    B,
    /// Equal scores after every game.
    Tied,
}

/// The state of a match after some games.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchScore {
    /// A's score in units of the score system.
    pub a: i32,
    /// B's score.
    pub b: i32,
    /// Games played.
    pub played: u32,
    /// The winner once known: after the last game, or earlier when the leader can no longer be caught.
    pub winner: Option<MatchWinner>,
}

impl Match {
    /// A match of `games` games.
    pub fn new(games: u32, a_first: Colour, system: ScoreSystem) -> Result<Match, MatchError> {
        if games == 0 {
            return Err(MatchError::NoGames);
        }
        if games > MAX_GAMES {
            return Err(MatchError::TooManyGames);
        }
        Ok(Match {
            games,
            a_first,
            system,
        })
    }

    /// A's colour in game `index` (0-based).
    pub fn colour_of_a(&self, index: u32) -> Colour {
        if index.is_multiple_of(2) {
            self.a_first
        } else {
            self.a_first.opposite()
        }
    }

    /// The running score from A's results so far.
    pub fn score(&self, a_results: &[Outcome]) -> Result<MatchScore, MatchError> {
        if a_results.len() > self.games as usize {
            return Err(MatchError::TooManyResults);
        }
        let a = self.system.total(a_results.iter().copied());
        let b = self.system.total(a_results.iter().map(|o| o.reversed()));
        let played = a_results.len() as u32;
        let left = i64::from(self.games - played);
        // The most a game can swing the difference between the two.
        let swing = i64::from(self.system.win - self.system.loss);
        let diff = i64::from(a) - i64::from(b);
        let winner = if played == self.games {
            Some(match diff.cmp(&0) {
                std::cmp::Ordering::Greater => MatchWinner::A,
                std::cmp::Ordering::Less => MatchWinner::B,
                std::cmp::Ordering::Equal => MatchWinner::Tied,
            })
        } else if diff > left * swing {
            Some(MatchWinner::A)
        } else if -diff > left * swing {
            Some(MatchWinner::B)
        } else {
            None
        };
        Ok(MatchScore {
            a,
            b,
            played,
            winner,
        })
    }
}
