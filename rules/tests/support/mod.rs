//! What the conformance example (`examples/conformance.rs`) shares with the tests: each game's vector checker.

pub mod conformance;
pub mod draughts_conformance;
pub mod insect_conformance;
pub mod othello_conformance;
