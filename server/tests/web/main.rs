//! The server's documents and pages: the HTTP API, the exports, the schemas and protocol document checked
//! against the server, stored games read back, and the web client in a real browser. One test binary (one
//! link) for the area; each file is a module.

mod analysis;
#[path = "../common/mod.rs"]
mod common;
mod computer_doc;
mod exports;
mod http;
mod protocol_doc;
mod schemas;
mod stored_games;
mod v1_edge;
mod web_client;
