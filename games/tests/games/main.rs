//! The game seam over every game. One test binary (one link) for the crate; each file is a module.

mod conformance;
mod draughts;
mod insect;
mod legal_actions;
mod list;
mod openings;
mod othello;
mod outcomes;
mod play;
mod seats;
mod storage;
mod view;
