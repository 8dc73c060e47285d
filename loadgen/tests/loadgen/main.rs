//! The load generator and the hostile-input suite against real servers. One test binary (one link) for the
//! crate; each file is a module.

mod cluster;
mod flood;
mod greedy_brain;
mod hostile;
mod pair;
mod run;
mod versus;
