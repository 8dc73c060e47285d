//! What a room tells those who must decide about it without joining it: its game, whether it is rated, whether
//! it waits, and who sits in it (the invitation of the computer checks these).

use games::AnyConfig;

use super::task::Room;

/// A room at a glance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomSummary {
    /// The game the room plays.
    pub config: AnyConfig,
    /// Whether its games are rated.
    pub rated: bool,
    /// Whether it waits for its first game.
    pub waiting: bool,
    /// Whether a game is being played in it now (started, no result yet).
    pub playing: bool,
    /// The identity keys of its seated players (seat 0 first).
    pub seated: [Option<String>; 2],
}

impl Room {
    /// The room at a glance.
    pub(super) fn summary(&self) -> RoomSummary {
        RoomSummary {
            config: self.config,
            rated: self.rated,
            waiting: self.live.is_none(),
            playing: self.live.as_ref().is_some_and(|l| l.result.is_none()),
            seated: [0, 1].map(|s| self.seats[s].as_ref().map(|h| h.identity.key())),
        }
    }
}
