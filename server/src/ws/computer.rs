//! The computer's requests: `play_computer` (a new room with the computer in it) and `invite_computer` (the
//! computer into one's waiting room). The computer then joins like any client (`crate::computer::player`).

use protocol::{code, ClientMessage, ServerMessage};

use super::conn::Conn;
use crate::computer::{Asker, Opponent};
use crate::identity::Identity;
use crate::limits::address_key;
use crate::room::RoomError;

impl Conn {
    /// `play_computer`: a casual room of the asked game with the computer of `level` seated in it.
    pub(super) async fn play_computer(
        &mut self,
        identity: Identity,
        msg: ClientMessage,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let ClientMessage::PlayComputer {
            rules,
            game,
            time_control,
            public,
            colour,
            level,
            engine,
        } = msg
        else {
            return Ok(());
        };
        let opponent = self.state.computer.opponent(level, engine.as_deref())?;
        self.not_in_a_rated_game(&identity)?;
        let game = super::dispatch::requested_game(rules, game)?;
        // Checked before the room exists, so a refusal leaves nothing behind.
        let settings = crate::room::Settings::new(game, time_control, false, public, colour)?;
        plays(&opponent, &settings.config)?;
        let ticket = self.state.computer.admit(opponent, self.asker(&identity))?;
        let room = self
            .create_room(
                identity,
                game,
                time_control,
                false,
                public,
                colour,
                None,
                rid,
            )
            .await?;
        let seated = self.state.computer.seat(&self.state, &room, ticket);
        match seated.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(RoomError::new(
                code::INTERNAL,
                "the computer could not sit down",
            )),
        }
    }

    /// `invite_computer`: the computer of `level` into the asker's own casual Gomoku room while it waits.
    pub(super) async fn invite_computer(
        &mut self,
        identity: Identity,
        room: &str,
        level: u8,
        engine: Option<&str>,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let opponent = self.state.computer.opponent(level, engine)?;
        self.not_in_a_rated_game(&identity)?;
        let handle = self
            .state
            .rooms
            .get(room)
            .ok_or_else(|| RoomError::new(code::UNKNOWN_ROOM, "no such room"))?;
        let summary = handle.summary().await?;
        plays(&opponent, &summary.config)?;
        if summary.rated {
            return Err(RoomError::new(
                code::CASUAL_ONLY,
                "the computer plays casual games only; invite it into a casual room",
            ));
        }
        let key = identity.key();
        if !summary.seated.iter().flatten().any(|k| *k == key) {
            return Err(RoomError::new(
                code::NOT_A_PLAYER,
                "only a player seated in the room invites the computer",
            ));
        }
        if !summary.waiting || summary.seated.iter().all(Option::is_some) {
            return Err(RoomError::new(code::ROOM_FULL, "the room has no free seat"));
        }
        let ticket = self.state.computer.admit(opponent, self.asker(&identity))?;
        match self.state.computer.seat(&self.state, room, ticket).await {
            Ok(Ok(())) => {
                let ack = ServerMessage::Ack {
                    room: Some(room.to_owned()),
                    version: None,
                };
                self.send(&ack, rid).await;
                Ok(())
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(RoomError::new(
                code::INTERNAL,
                "the computer could not sit down",
            )),
        }
    }

    /// Who asks, for the computer's caps per player and per address.
    fn asker(&self, identity: &Identity) -> Asker {
        Asker {
            player: identity.key(),
            address: address_key(self.peer),
        }
    }

    /// `in_rated_game` while the player sits in a rated game being played: the computer would be a helper at
    /// full strength beside it (#35).
    fn not_in_a_rated_game(&self, identity: &Identity) -> Result<(), RoomError> {
        if self.state.rooms.playing_rated(&identity.key()) {
            return Err(RoomError::new(
                code::IN_RATED_GAME,
                "you are playing a rated game: the computer plays you once it is over",
            ));
        }
        Ok(())
    }
}

/// `no_engine` unless `opponent` plays the game of `config`: the server's engine plays Gomoku and Renju under
/// every opening rule, and every other game whose list in the engine's registry starts with a searching brain
/// (`engine::brain::brains`: the Othello, draughts and insect-chess engines; not a random-legal brain alone); an external
/// engine plays Gomoku only, without an opening rule (Piskvork has no swap or fifth-move options).
fn plays(opponent: &Opponent, config: &games::AnyConfig) -> Result<(), RoomError> {
    use games::GameConfig;
    let games::AnyConfig::Gomoku(gomoku) = config else {
        return match opponent {
            Opponent::Level(_) if crate::computer::max_level(config.kind()).is_some() => Ok(()),
            _ => Err(no_engine()),
        };
    };
    if matches!(opponent, Opponent::External(_)) && gomoku.rules().opening() != rules::Opening::None
    {
        return Err(RoomError::new(
            code::NO_ENGINE,
            "external engines play only games without an opening rule",
        ));
    }
    Ok(())
}

fn no_engine() -> RoomError {
    RoomError::new(code::NO_ENGINE, "the computer has no engine for this game")
}
