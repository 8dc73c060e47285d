//! The rules crate's tests: every game's conformance vectors, properties, notation and draw rules, and the
//! fuzzing functions on random inputs. One test binary (one link) for the crate; each file is a module.

#[path = "../support/mod.rs"]
mod support;

mod conformance;
mod draughts_conformance;
mod draughts_draws;
mod draughts_notation;
mod draughts_properties;
mod fuzzing;
mod game;
mod insect;
mod insect_conformance;
mod insect_properties;
mod openings;
mod othello;
mod othello_conformance;
mod othello_properties;
mod properties;
