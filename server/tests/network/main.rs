//! The server at the edge of the network: bad input, floods, slow clients, lag, transport limits, close codes,
//! the open-file limit and a closed stdout. One test binary (one link) for the area; each file is a module.

mod bad_input;
#[path = "../common/mod.rs"]
mod common;
mod fd_limit;
mod flooding;
mod lag;
mod slow_clients;
mod stdout_closed;
mod transport;
mod typed_closes;
