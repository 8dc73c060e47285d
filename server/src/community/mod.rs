//! People around the board (issue #38): roles, follows, blocks, reports, the moderators' actions and audit log,
//! and a player's own data. The HTTP side is `crate::http::community`; what sockets check before a chat line, a
//! join, a challenge or a quick pairing is [`gate`]; the operator's command line is [`admin`].
//!
//! Nothing here is cached: every check reads the store, which all nodes of a cluster share, so a block, a mute or
//! a ban made through one node holds on every node at its next check.

pub mod admin;
pub mod error;
pub mod follows;
pub mod gate;
pub mod presence;
pub mod role;

use store::CommunityStore;

pub use error::CommunityError;
pub use role::Role;

/// The community tables of a store (every real store has them; a test double answers `internal`).
pub fn tables(store: &dyn store::Store) -> Result<&dyn CommunityStore, CommunityError> {
    store
        .community()
        .ok_or_else(|| CommunityError::Internal("the store keeps no community tables".to_owned()))
}

/// The address range a guest is muted or banned by: the range key of the registration limits (the server's
/// `--registration-range-*-prefix`), from the client address the proxy settings resolved.
pub fn range_of(config: &crate::Config, ip: std::net::IpAddr) -> String {
    crate::limits::range_key(
        ip,
        config.registration_range_v4_prefix,
        config.registration_range_v6_prefix,
    )
}
