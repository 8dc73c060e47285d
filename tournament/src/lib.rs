//! Tournament pairing and scoring for every game of the site (issue #34), pure: no I/O, no async, no clocks,
//! no randomness.
//!
//! - [`swiss`] and [`dutch`]: a Swiss tournament and its pairing by the FIDE Dutch system (C.04.3), with late
//!   joins, withdrawals, byes and forbidden pairs; the criteria we approximate are listed in [`dutch`] and in
//!   the crate's README.md;
//! - [`tiebreak`]: Buchholz, Buchholz cut 1, Sonneborn–Berger, direct encounter, standings;
//! - [`berger`]: round robins by the FIDE Berger tables, single or double;
//! - [`arena`]: lichess-like arena pairing and streak scoring;
//! - [`score`]: score systems (1/½/0, 2/1/0, +2/0/−2); [`matches`](mod@matches): N-game matches;
//! - [`trf`]: the FIDE TRF-16 file with the TRF(x) extension lines, export and import.

pub mod arena;
pub mod berger;
pub mod dutch;
pub mod matches;
mod matching;
pub mod score;
pub mod swiss;
pub mod tiebreak;
pub mod trf;

pub use dutch::{pair, PairingError};
pub use score::{Outcome, ScoreSystem};
pub use swiss::{Board, BoardResult, Bye, Colour, PlayerId, Round, RoundEntry, Swiss, SwissError};
