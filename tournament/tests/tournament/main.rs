//! The tournament crate's integration tests, one binary (one link; the modules share the test threads): a
//! module per area, each named in its own header. `data/README.md` names the origin of every data file.

mod arena;
mod bbp_issue_7;
mod berger;
mod dutch_examples;
mod score;
mod swiss_random;
mod tiebreak;
mod trf;
