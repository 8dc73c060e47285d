//! A table of any game (Gomoku, Othello, draughts) driven in the generic form: two guests play by notation
//! (`act`), a spectator follows every event with the typed client's [`Replica`], and the tests read the game
//! from it (whose turn, the legal actions, the position).

use client::{Applied, Replica};
use games::Game as _;
use protocol::{
    ClientMessage, ColourChoice, GameSpec, JoinRole, RoomEvent, RoomSnapshot, ServerMessage,
    TimeControl,
};
use rules::Color;

use crate::table::Client;
use crate::test_server::{test_config, Db, TestServer};

/// The `create_room` of a game by its [`GameSpec`] (casual, public, the creator's colour as given).
pub fn create_game(
    game: GameSpec,
    time_control: TimeControl,
    colour: ColourChoice,
) -> ClientMessage {
    crate::table::casual_room(None, Some(game), time_control, colour)
}

/// The same `create_room`, rated.
pub fn rated(create: ClientMessage) -> ClientMessage {
    match create {
        ClientMessage::CreateRoom {
            rules,
            game,
            time_control,
            public,
            colour,
            rating_range,
            ..
        } => ClientMessage::CreateRoom {
            rules,
            game,
            time_control,
            rated: true,
            public,
            colour,
            rating_range,
        },
        other => panic!("only a create_room is rated, not {other:?}"),
    }
}

/// The notation of every action of `game`, in order.
pub fn notations(game: &games::AnyGame) -> Vec<String> {
    game.actions().iter().map(|a| a.notation()).collect()
}

/// Two players in a started game of any game, and a spectator following it.
pub struct GameTable {
    /// The room's id.
    pub room: String,
    /// The creator, seated at black.
    pub black: Client,
    /// The joiner, seated at white.
    pub white: Client,
    /// The stored game's id.
    pub game_id: i64,
    /// The game's public id (`GET /api/games/{record}`).
    pub record: String,
    /// A spectator whose events keep [`GameTable::replica`].
    pub watcher: Client,
    /// The room as the spectator follows it.
    pub replica: Replica,
}

impl GameTable {
    /// Two new guests: one creates a room of `game` and takes black, the other joins (white) and the game
    /// starts; a third guest watches.
    pub async fn open(server: &TestServer, game: GameSpec, tc: TimeControl) -> GameTable {
        let black = server.client().await;
        let white = server.client().await;
        GameTable::seat(
            server,
            black,
            white,
            create_game(game, tc, ColourChoice::Black),
        )
        .await
    }

    /// As [`GameTable::open`] with the players given and the room created by `create` (rated, say), sent by
    /// the first player, who must take black.
    pub async fn seat(
        server: &TestServer,
        mut black: Client,
        mut white: Client,
        create: ClientMessage,
    ) -> GameTable {
        let snap = match black.request(create).await {
            ServerMessage::Room { room } => room,
            other => panic!("expected a room, got {other:?}"),
        };
        assert_eq!(snap.you, Some(Color::Black));
        let joined = white.join(&snap.id, JoinRole::Player).await;
        assert_eq!(joined.you, Some(Color::White));
        let game_id = joined.game_id.expect("the game started");
        let record = joined.record.clone().expect("a started game has a record");
        black
            .event_where(|e| matches!(e, RoomEvent::GameStarted { .. }))
            .await;
        let mut watcher = server.client().await;
        let seen = watcher.join(&snap.id, JoinRole::Spectator).await;
        let replica = Replica::from_snapshot(&seen, None).expect("the snapshot replays");
        assert!(
            replica.game.is_some(),
            "a started game of any game has its view"
        );
        GameTable {
            room: snap.id,
            black,
            white,
            game_id,
            record,
            watcher,
            replica,
        }
    }

    /// Back at a table after the server restarted: both players say hello with their tokens and sit down again,
    /// and a new spectator follows.
    pub async fn resume(
        server: &TestServer,
        room: &str,
        tokens: [&str; 2],
        game_id: i64,
        record: &str,
    ) -> GameTable {
        let mut black = Client::hello(server.addr, Some(tokens[0])).await;
        let mut white = Client::hello(server.addr, Some(tokens[1])).await;
        for c in [&mut black, &mut white] {
            let snap = c.join(room, JoinRole::Player).await;
            assert_eq!(snap.game_id, Some(game_id), "the same game goes on");
        }
        let mut watcher = server.client().await;
        let seen = watcher.join(room, JoinRole::Spectator).await;
        let replica = Replica::from_snapshot(&seen, None).expect("the snapshot replays");
        GameTable {
            room: room.to_owned(),
            black,
            white,
            game_id,
            record: record.to_owned(),
            watcher,
            replica,
        }
    }

    /// Stops `server` and starts a new one (test settings) on the same database, where the players sit down
    /// again at this table's game.
    pub async fn restart(self, server: TestServer, db: &Db) -> (TestServer, GameTable) {
        let tokens = [self.black.token.clone(), self.white.token.clone()];
        server.stop().await;
        let server = TestServer::start_on(db, test_config()).await;
        let t = GameTable::resume(
            &server,
            &self.room,
            [tokens[0].as_str(), tokens[1].as_str()],
            self.game_id,
            &self.record,
        )
        .await;
        (server, t)
    }

    /// The player who holds `colour` now (by the replica's names: after a rematch the creator holds white).
    pub fn holding(&mut self, colour: Color) -> &mut Client {
        let name = self.replica.names[colour as usize].clone();
        if name.as_deref() == Some(self.black.name.as_str()) {
            &mut self.black
        } else {
            &mut self.white
        }
    }

    /// The player who must act now (by the replica).
    pub fn mover(&mut self) -> &mut Client {
        match self.replica.to_act {
            Some(colour) => self.holding(colour),
            None => panic!("nobody is to act: {:?}", self.replica.result),
        }
    }

    /// The other player.
    pub fn waiter(&mut self) -> &mut Client {
        match self.replica.to_act {
            Some(colour) => self.holding(colour.opposite()),
            None => panic!("nobody is to act: {:?}", self.replica.result),
        }
    }

    /// The replica's game.
    pub fn game(&self) -> &games::AnyGame {
        self.replica
            .game
            .as_ref()
            .expect("the replica follows a game")
    }

    /// The player to act plays `text` at the replica's next index; `Ok` with the event it was answered with
    /// (the spectator has followed it, and any forced action after it), `Err` with the error code.
    pub async fn play(&mut self, text: &str) -> Result<RoomEvent, String> {
        let at = self.replica.next_at().expect("a game");
        let room = self.room.clone();
        let reply = self
            .mover()
            .request(crate::table::act(&room, text, at))
            .await;
        match reply {
            ServerMessage::Event { version, event, .. } => {
                self.follow_to(version).await;
                self.follow_forced().await;
                Ok(event)
            }
            ServerMessage::Error { code, .. } => Err(code),
            other => panic!("unexpected reply to {text}: {other:?}"),
        }
    }

    /// Plays each of `line` in turn, panicking at the first refusal.
    pub async fn play_line(&mut self, line: &[&str]) {
        for text in line {
            self.play(text)
                .await
                .unwrap_or_else(|code| panic!("{text} refused: {code}"));
        }
    }

    /// The player who moved last asks to take the move back and the player to act accepts; the answer to the
    /// request, and the event that took the actions back.
    pub async fn take_back(&mut self) -> (ServerMessage, RoomEvent) {
        let room = self.room.clone();
        let asked = self
            .send(false, ClientMessage::RequestTakeback { room: room.clone() })
            .await;
        self.send(true, ClientMessage::AnswerTakeback { room, accept: true })
            .await;
        (asked, self.follow_one().await)
    }

    /// Sends a message about the room from the player to act (`mover: true`) or the other, and returns its
    /// answer; the spectator follows any event it caused.
    pub async fn send(&mut self, mover: bool, msg: ClientMessage) -> ServerMessage {
        let client = if mover { self.mover() } else { self.waiter() };
        let reply = client.request(msg).await;
        if let ServerMessage::Event { version, .. } = &reply {
            self.follow_to(*version).await;
        }
        reply
    }

    /// Applies the spectator's events until the replica is at `version`.
    pub async fn follow_to(&mut self, version: u64) {
        while self.replica.version < version {
            self.follow_one().await;
        }
    }

    /// Applies the spectator's next event; returns it.
    pub async fn follow_one(&mut self) -> RoomEvent {
        loop {
            let (v, e) = self.watcher.event().await;
            match self.replica.apply(v, &e) {
                Ok(Applied::Applied) => return e,
                Ok(Applied::Stale) => continue,
                Err(err) => panic!("the spectator's replica cannot follow {e:?}: {err}"),
            }
        }
    }

    /// While the game has an action its side to act is forced to take (Othello's pass), the room takes it:
    /// follows those events.
    pub async fn follow_forced(&mut self) {
        while self.replica.result.is_none()
            && self.game().forced().is_some()
            && self.game().to_act().is_some()
        {
            self.follow_one().await;
        }
    }

    /// Follows events until the game is over, then returns the result.
    pub async fn follow_to_end(&mut self) -> protocol::GameResult {
        while self.replica.result.is_none() {
            self.follow_one().await;
        }
        self.replica.result.clone().expect("over")
    }

    /// A fresh snapshot as the spectator sees it.
    pub async fn snapshot(&mut self) -> RoomSnapshot {
        let room = self.room.clone();
        self.watcher.join(&room, JoinRole::Spectator).await
    }
}
