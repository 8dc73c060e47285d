//! The engine's integration tests, one binary (one link, and the modules share the test threads): each module
//! is one area, named in its own header.

mod brain;
mod common;
mod draughts;
mod ffo;
mod hub;
mod insect;
mod match_harness;
mod openings;
mod othello;
mod othello_ffo;
mod pbrain;
mod properties;
mod tactics;
mod time;
