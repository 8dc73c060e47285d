//! An event's room (issue #34, `crate::events`): the events task opens a room with both seats already held by
//! the paired players, its game started at once, and each player comes to it as a player back from a
//! disconnection comes to their seat (`join` as a player). A player who does not come loses the game by the room's
//! ordinary rules: the grace period runs from the opening, then the game is forfeited (`abandoned`), or aborted if
//! fewer than two moves were made. When any game ends the room tells the events task (which ignores games that
//! are not an event's), so a room restored after a restart needs no link back to its event.

use rules::Color;
use tokio::sync::mpsc;

use super::env::RoomEnv;
use super::seats::SeatHolder;
use super::task::Room;
use super::{RoomError, RoomHandle, Rooms, Settings, QUEUE};
use crate::events::GameOver;
use crate::identity::Identity;
use crate::AppState;

impl Rooms {
    /// Where every room reports its finished games (set once, by the events task at start).
    pub(crate) fn set_event_hook(&self, tx: mpsc::UnboundedSender<GameOver>) {
        let _ = self.inner.events.set(tx);
    }

    /// Opens a room for an event's game: `players[0]` takes the colour that moves first, both seats are held
    /// from the start (each player with a grace period to come), and the game is stored and started before this
    /// returns. Gives the room and the stored game's id.
    pub(crate) async fn open_evented(
        &self,
        state: &AppState,
        settings: Settings,
        players: [Identity; 2],
    ) -> Result<(RoomHandle, store::GameId), RoomError> {
        let (tx, rx) = mpsc::channel(QUEUE);
        let handle = self.insert_new(tx);
        let env = RoomEnv::of(state);
        let grace = Some(env.clock.now() + env.limits.grace);
        let mut room = Room::new(handle.id.clone(), settings, None, None, env);
        for (seat, identity) in players.into_iter().enumerate() {
            let rating = room.rating_of(&identity).await;
            room.seats[seat] = Some(SeatHolder {
                identity,
                rating,
                conns: Vec::new(),
                grace,
            });
        }
        room.next_first = Color::Black;
        if let Err(e) = room.create_live().await {
            self.closed(&handle.id, None, None);
            return Err(e);
        }
        let game = room
            .live
            .as_ref()
            .map(|l| l.id)
            .ok_or_else(RoomError::internal)?;
        room.emit_started(None, None);
        room.publish_lobby();
        tokio::spawn(room.run(rx));
        Ok((handle, game))
    }
}

impl Room {
    /// A game of the room ended (stored and announced): the events task hears who won and who was there.
    pub(super) fn tell_event(&self, winner_seat: Option<usize>, aborted: bool) {
        let (Some(tx), Some(live)) = (self.env.rooms.inner.events.get(), self.live.as_ref()) else {
            return;
        };
        let key = |s: usize| self.seats[s].as_ref().map(|h| h.identity.key());
        let present = |s: usize| self.seats[s].as_ref().is_some_and(|h| !h.conns.is_empty());
        let _ = tx.send(GameOver {
            game_id: live.id,
            winner: if aborted {
                None
            } else {
                winner_seat.and_then(key)
            },
            aborted,
            players: [key(0), key(1)],
            present: [present(0), present(1)],
        });
    }
}
