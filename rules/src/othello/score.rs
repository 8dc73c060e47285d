//! Disc counts, how a game ended, and the scoring of an unfinished board.

use std::fmt;

use crate::Color;

/// How empty squares left on a finished board are scored (the room chooses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Every empty square goes to the winner (in a draw they are split evenly).
    Japanese,
    /// The empty squares are split evenly; an odd one goes to the winner.
    European,
}

impl Scoring {
    /// Stable name (`japanese`, `european`), as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scoring::Japanese => "japanese",
            Scoring::European => "european",
        }
    }
}

/// Why a game is over (neither side can move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// One side has no disc left (checked first: a wipe-out on a full board is a wipe-out).
    WipeOut,
    /// All 64 squares hold a disc.
    BoardFull,
    /// Squares are empty but neither side can move.
    NoMoves,
}

impl EndReason {
    /// Stable code (`wipe_out`, `board_full`, `no_moves`).
    pub const fn code(self) -> &'static str {
        match self {
            EndReason::WipeOut => "wipe_out",
            EndReason::BoardFull => "board_full",
            EndReason::NoMoves => "no_moves",
        }
    }
}

/// The disc counts of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// Black discs.
    pub black: u8,
    /// White discs.
    pub white: u8,
}

impl Score {
    /// Counts (at most 64 together).
    pub const fn new(black: u8, white: u8) -> Score {
        Score { black, white }
    }

    /// Empty squares.
    pub const fn empty(&self) -> u8 {
        64 - self.black - self.white
    }

    /// The side with more discs; `None` when equal.
    pub const fn winner(&self) -> Option<Color> {
        if self.black > self.white {
            Some(Color::Black)
        } else if self.white > self.black {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Why a position with these counts, where neither side can move, is over.
    pub const fn end_reason(&self) -> EndReason {
        if self.black == 0 || self.white == 0 {
            EndReason::WipeOut
        } else if self.empty() == 0 {
            EndReason::BoardFull
        } else {
            EndReason::NoMoves
        }
    }

    /// The final counts with the empty squares given out by `scoring` (they add up to 64). The winner is the
    /// same as by the discs alone.
    pub const fn scored(&self, scoring: Scoring) -> Score {
        let empty = self.empty();
        let (to_winner, to_loser) = match scoring {
            Scoring::Japanese => (empty, 0),
            Scoring::European => (empty - empty / 2, empty / 2),
        };
        match self.winner() {
            Some(Color::Black) => Score::new(self.black + to_winner, self.white + to_loser),
            Some(Color::White) => Score::new(self.black + to_loser, self.white + to_winner),
            // Equal discs leave an even number of empty squares.
            None => Score::new(self.black + empty / 2, self.white + empty / 2),
        }
    }

    /// The result as shown: winner first with the winner's count first, `black 40–24`, `white 33–31`,
    /// `draw 32–32` (an en dash between the counts).
    pub fn result_text(&self, scoring: Scoring) -> String {
        self.scored(scoring).to_string()
    }
}

impl fmt::Display for Score {
    /// The counts as they stand, in the form of [`Score::result_text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner() {
            Some(Color::Black) => write!(f, "black {}–{}", self.black, self.white),
            Some(Color::White) => write!(f, "white {}–{}", self.white, self.black),
            None => write!(f, "draw {}–{}", self.black, self.white),
        }
    }
}
