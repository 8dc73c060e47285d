//! A match room (issue #34, `crate::matches`): the match is stored before its first game, each finished game is
//! counted, and the next game starts by itself (the rematch machinery: colours exchanged) until all are played.

use games::GameConfig as _;
use store::NewMatch;

use super::task::Room;
use super::RoomError;
use crate::matches::MatchState;
use crate::time::unix_ms;

impl Room {
    /// Before a game starts: a match room without its stored match stores it now (its first game), so the match
    /// exists before anyone hears of its games. Refused with `internal` when the store fails.
    pub(super) async fn store_match(&mut self) -> Result<(), RoomError> {
        if self.match_games <= 1 || self.matched.is_some() {
            return Ok(());
        }
        let player = |s: usize| {
            self.seats[s]
                .as_ref()
                .map(|h| h.identity.player_ref())
                .ok_or_else(RoomError::internal)
        };
        let new = NewMatch {
            room: self.id.to_string(),
            game: self.config.kind().as_str().to_owned(),
            games: self.match_games,
            rated: self.rated,
            first: player(0)?,
            second: player(1)?,
            created_at: unix_ms(),
        };
        let id = self.env.store.create_match(&new).await.map_err(|e| {
            tracing::error!(room = %self.id, error = %e, "could not store a match");
            RoomError::internal()
        })?;
        self.matched = Some(MatchState {
            id,
            games: self.match_games,
            first_seat: 0,
            tally: Default::default(),
        });
        Ok(())
    }

    /// A game of the room ended (stored and announced): the match counts it, and its next game is due unless
    /// every game has been played.
    pub(super) fn match_game_over(&mut self, winner_seat: Option<usize>, aborted: bool) {
        if let Some(m) = &mut self.matched {
            m.game_over(winner_seat, aborted);
            self.match_next = !m.over();
        }
    }

    /// Starts the match's next game, if both players are still seated (a player who left ends the match's
    /// play; its score stays as it is).
    pub(super) async fn continue_match(&mut self) {
        self.match_next = false;
        if self.rematch_possible().is_err() {
            return;
        }
        if let Err(e) = self.start_rematch(None).await {
            tracing::warn!(room = %self.id, error = %e.message, "a match's next game could not start");
        }
    }

    /// A room restored after a restart finds its match again (a room holds one match at most): its games so far
    /// are read from the store, and seat 0 is whoever held black at the start of the restored game.
    pub(crate) async fn resume_match(&mut self) {
        let store = self.env.store.clone();
        let found = match store.match_of_room(&self.id).await {
            Ok(Some(m)) => m,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(room = %self.id, error = %e, "could not read a room's match");
                return;
            }
        };
        let games = match store.match_games(&self.id).await {
            Ok(games) => games,
            Err(e) => {
                tracing::error!(room = %self.id, error = %e, "could not read a match's games");
                return;
            }
        };
        let Some(seat0) = self.seats[0].as_ref().map(|h| h.identity.player_ref()) else {
            return;
        };
        self.match_games = found.new.games;
        self.matched = Some(MatchState::resumed(&found, &games, &seat0));
    }
}
