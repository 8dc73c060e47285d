//! The load generator as a library: the binary (`main.rs`) parses flags and calls into these modules, and the
//! hostile-input tests reuse the client pieces (connecting, the move picker).

#![warn(missing_docs)]

pub mod anypick;
pub mod cluster;
pub mod conn;
pub mod crash;
pub mod echo;
pub mod flood;
pub mod greedy_brain;
pub mod ledger;
pub mod memory;
pub mod pair;
pub mod picker;
pub mod plan;
pub mod report;
pub mod run;
pub mod saturate;
pub mod session;
pub mod stats;
pub mod verify;
pub mod versus;
