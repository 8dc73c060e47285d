//! Roles: `player` (everyone), `moderator` (the console: reports, actions, the audit log) and `administrator`
//! (a moderator who also makes moderators). Stored in `users.role`; the first administrator is made from the
//! command line ([`super::admin`]).

/// A user's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// Everyone.
    Player,
    /// May read reports and act on them.
    Moderator,
    /// A moderator who may also grant and revoke the moderator role.
    Administrator,
}

impl Role {
    /// The stored text.
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Moderator => "moderator",
            Role::Administrator => "administrator",
        }
    }

    /// The role a stored text names (an unknown text is a player: no one gains rights by a typo).
    pub fn parse(text: &str) -> Role {
        match text {
            "moderator" => Role::Moderator,
            "administrator" => Role::Administrator,
            _ => Role::Player,
        }
    }

    /// The role a command line names, exactly.
    pub fn named(text: &str) -> Option<Role> {
        match text {
            "player" => Some(Role::Player),
            "moderator" => Some(Role::Moderator),
            "administrator" => Some(Role::Administrator),
            _ => None,
        }
    }

    /// Whether the role opens the moderators' console.
    pub fn moderates(self) -> bool {
        self >= Role::Moderator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_reads_back_as_stored_and_unknown_texts_are_players() {
        for role in [Role::Player, Role::Moderator, Role::Administrator] {
            assert_eq!(Role::parse(role.as_str()), role);
            assert_eq!(Role::named(role.as_str()), Some(role));
        }
        assert_eq!(Role::parse("Administrator "), Role::Player);
        assert_eq!(Role::named("admin"), None);
        assert!(!Role::Player.moderates());
        assert!(Role::Moderator.moderates() && Role::Administrator.moderates());
    }
}
