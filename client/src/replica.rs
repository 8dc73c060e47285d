//! One room as a client follows it: a snapshot, then every event after it, each checked to be the next version.

use protocol::{GameResult, RoomEvent, RoomPhase, RoomSnapshot, RoomState, VersionedEvent};
use rules::{Color, Point};

/// A room's game as its client was told it. Built from a snapshot ([`Replica::from_snapshot`]), kept current
/// with [`Replica::apply`] (or [`Replica::catch_up`]); an event that does not follow from what the replica holds
/// is a [`ReplicaError`], after which the client should ask for a snapshot (`join` without `since`).
#[derive(Clone, Debug, PartialEq)]
pub struct Replica {
    /// The room's id.
    pub room: String,
    /// The version of the last event applied.
    pub version: u64,
    /// Waiting, playing or over.
    pub state: RoomState,
    /// The stored game's id, once a game started.
    pub game_id: Option<i64>,
    /// Who holds black and white now, by name.
    pub names: [Option<String>; 2],
    /// The client's colour when it is seated.
    pub you: Option<Color>,
    /// Which colour must act.
    pub to_act: Option<Color>,
    /// What it must do.
    pub phase: RoomPhase,
    /// The stones in order.
    pub moves: Vec<Point>,
    /// Whether the players exchanged colours after move 3.
    pub swapped: bool,
    /// The two proposed fifth moves while white chooses.
    pub fifth_options: Option<[Point; 2]>,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// The client's own name, so that its colour follows swaps and rematches.
    me: Option<String>,
}

/// What [`Replica::apply`] did with an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// It was the next version and is now part of the replica.
    Applied,
    /// The replica already had it (a version at or below its own): nothing changed.
    Stale,
}

/// An event the replica cannot follow: it is out of date and needs a snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplicaError {
    /// Versions were skipped.
    Gap {
        /// The replica's version.
        have: u64,
        /// The event's.
        got: u64,
    },
    /// A stone count that does not match the stones held.
    Ply {
        /// The ply the event names.
        ply: u32,
        /// Stones the replica holds after it.
        stones: usize,
    },
    /// A `catch_up` that does not start where the replica is.
    CatchUpFrom {
        /// The replica's version.
        have: u64,
        /// The `since` the answer continues from.
        since: u64,
    },
}

impl std::fmt::Display for ReplicaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplicaError::Gap { have, got } => write!(f, "version {got} follows {have}"),
            ReplicaError::Ply { ply, stones } => {
                write!(f, "an event says ply {ply} but leaves {stones} stones")
            }
            ReplicaError::CatchUpFrom { have, since } => {
                write!(f, "a catch_up from {since} for a replica at {have}")
            }
        }
    }
}

impl std::error::Error for ReplicaError {}

impl Replica {
    /// The room as a snapshot shows it, for the client named `me` (its colour follows it through swaps and
    /// rematches; `None` for a client that never sits).
    pub fn from_snapshot(snap: &RoomSnapshot, me: Option<&str>) -> Replica {
        Replica {
            room: snap.id.clone(),
            version: snap.version,
            state: snap.state,
            game_id: snap.game_id,
            names: [
                snap.seats.black.as_ref().map(|s| s.name.clone()),
                snap.seats.white.as_ref().map(|s| s.name.clone()),
            ],
            you: snap.you,
            to_act: snap.to_act,
            phase: snap.phase,
            moves: snap.moves.clone(),
            swapped: snap.swapped,
            fifth_options: snap.fifth_options,
            result: snap.result.clone(),
            me: me.map(str::to_owned),
        }
    }

    /// Whether the client is seated and must act now.
    pub fn my_turn(&self) -> bool {
        self.state == RoomState::Playing && self.you.is_some() && self.to_act == self.you
    }

    /// The next stone's ply.
    pub fn next_ply(&self) -> u32 {
        self.moves.len() as u32 + 1
    }

    /// Follows one event of version `version`.
    pub fn apply(&mut self, version: u64, event: &RoomEvent) -> Result<Applied, ReplicaError> {
        if version <= self.version {
            return Ok(Applied::Stale);
        }
        if version != self.version + 1 {
            return Err(ReplicaError::Gap {
                have: self.version,
                got: version,
            });
        }
        self.follow(event)?;
        self.version = version;
        Ok(Applied::Applied)
    }

    /// Follows a `catch_up` answer to a `join` that gave `since`.
    pub fn catch_up(&mut self, since: u64, events: &[VersionedEvent]) -> Result<(), ReplicaError> {
        if since > self.version {
            return Err(ReplicaError::CatchUpFrom {
                have: self.version,
                since,
            });
        }
        for e in events {
            self.apply(e.version, &e.event)?;
        }
        Ok(())
    }

    fn colour_of(&self, name: &str) -> Option<Color> {
        if self.names[0].as_deref() == Some(name) {
            Some(Color::Black)
        } else if self.names[1].as_deref() == Some(name) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Recomputes the client's colour from the names (when it knows its own).
    fn seat_me(&mut self) {
        if let Some(me) = self.me.clone() {
            self.you = self.colour_of(&me);
        }
    }

    /// Checks that an event's ply is the count of the stones it leaves.
    fn check_ply(ply: u32, stones: usize) -> Result<(), ReplicaError> {
        if ply as usize == stones {
            Ok(())
        } else {
            Err(ReplicaError::Ply { ply, stones })
        }
    }

    fn follow(&mut self, event: &RoomEvent) -> Result<(), ReplicaError> {
        match event {
            RoomEvent::PlayerJoined { colour, player } => {
                self.names[*colour as usize] = Some(player.name.clone());
                self.seat_me();
            }
            RoomEvent::PlayerLeft { colour, .. } => {
                self.names[*colour as usize] = None;
                self.seat_me();
            }
            RoomEvent::GameStarted {
                game_id,
                black,
                white,
                to_act,
                phase,
                ..
            } => {
                self.state = RoomState::Playing;
                self.game_id = Some(*game_id);
                self.names = [Some(black.name.clone()), Some(white.name.clone())];
                self.seat_me();
                self.to_act = *to_act;
                self.phase = *phase;
                self.moves.clear();
                self.swapped = false;
                self.fifth_options = None;
                self.result = None;
            }
            RoomEvent::Move {
                point,
                ply,
                to_act,
                phase,
                ..
            } => {
                Replica::check_ply(*ply, self.moves.len() + 1)?;
                self.moves.push(*point);
                self.to_act = *to_act;
                self.phase = *phase;
                self.fifth_options = None;
            }
            RoomEvent::SwapDecided {
                swapped,
                black,
                white,
                to_act,
                phase,
                ..
            } => {
                self.names = [Some(black.clone()), Some(white.clone())];
                if self.me.is_some() {
                    self.seat_me();
                } else if *swapped {
                    self.you = self.you.map(Color::opposite);
                }
                self.swapped = *swapped;
                self.to_act = *to_act;
                self.phase = *phase;
            }
            RoomEvent::FifthProposed {
                points,
                to_act,
                phase,
                ..
            } => {
                self.fifth_options = Some(*points);
                self.to_act = *to_act;
                self.phase = *phase;
            }
            RoomEvent::TakenBack {
                ply,
                moves,
                to_act,
                phase,
                ..
            } => {
                Replica::check_ply(*ply, moves.len())?;
                self.moves.clone_from(moves);
                self.to_act = *to_act;
                self.phase = *phase;
                self.fifth_options = None;
            }
            RoomEvent::GameOver { result, .. } => {
                self.state = RoomState::Over;
                self.to_act = None;
                self.phase = RoomPhase::None;
                self.result = Some(result.clone());
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::ServerMessage;

    fn frame(text: &str) -> ServerMessage {
        crate::decode(text).expect("a server frame").msg
    }

    fn waiting_room() -> RoomSnapshot {
        let text = r#"{"t":"room","room":{"id":"r1","version":1,
            "rules":{"size":15,"rule_set":"freestyle","forbidden_policy":"reject","opening":"none"},
            "time_control":{"kind":"none"},"rated":false,"public":true,"game_id":null,"state":"waiting",
            "seats":{"black":{"id":"p1","name":"ann","guest":true,"connected":true},"white":null},"you":"black","phase":"none",
            "to_act":null,"moves":[],"swapped":false,"clocks":null,"forbidden":[],"claimable":null,
            "fifth_options":null,"offers":[],"spectators":0,"result":null}}"#;
        match frame(text) {
            ServerMessage::Room { room } => room,
            other => panic!("{other:?}"),
        }
    }

    fn event(text: &str) -> (u64, RoomEvent) {
        match frame(text) {
            ServerMessage::Event { version, event, .. } => (version, event),
            other => panic!("{other:?}"),
        }
    }

    fn started(version: u64, black: &str, white: &str) -> (u64, RoomEvent) {
        event(&format!(
            r#"{{"t":"event","room":"r1","version":{version},"event":{{"kind":"game_started","game_id":7,
            "black":{{"id":"a","name":"{black}","guest":true,"connected":true}},"white":{{"id":"b","name":"{white}","guest":true,"connected":true}},
            "clocks":null,"forbidden":[],"to_act":"black","phase":"place"}}}}"#
        ))
    }

    fn stone(version: u64, point: &str, ply: u32, to_act: &str) -> (u64, RoomEvent) {
        event(&format!(
            r#"{{"t":"event","room":"r1","version":{version},"event":{{"kind":"move","colour":"black",
            "point":"{point}","ply":{ply},"to_act":"{to_act}","phase":"place","clocks":null,"forbidden":[]}}}}"#
        ))
    }

    #[test]
    fn a_game_followed_from_a_snapshot_holds_the_stones_and_whose_turn_it_is() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann"));
        assert_eq!(r.you, Some(Color::Black));
        let (v, e) = started(2, "ann", "bob");
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!((r.state, r.game_id), (RoomState::Playing, Some(7)));
        assert!(r.my_turn());
        let (v, e) = stone(3, "h8", 1, "white");
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!(r.moves, vec!["h8".parse().unwrap()]);
        assert_eq!(r.next_ply(), 2);
        assert!(!r.my_turn());
        assert_eq!(r.apply(v, &e), Ok(Applied::Stale), "the same version again");
        assert_eq!(r.moves.len(), 1);
    }

    #[test]
    fn a_skipped_version_or_a_wrong_ply_is_an_error_and_changes_nothing_it_should_not() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann"));
        let (_, e) = started(2, "ann", "bob");
        assert_eq!(r.apply(3, &e), Err(ReplicaError::Gap { have: 1, got: 3 }));
        assert_eq!(r.version, 1);
        r.apply(2, &e).unwrap();
        let (v, e) = stone(3, "h8", 2, "white");
        assert_eq!(r.apply(v, &e), Err(ReplicaError::Ply { ply: 2, stones: 1 }));
        assert_eq!(r.version, 2, "a refused event does not move the version");
        assert!(r.moves.is_empty(), "nor add its stone");
    }

    #[test]
    fn the_clients_colour_follows_a_rematch_with_colours_exchanged() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann"));
        let (v, e) = started(2, "bob", "ann");
        r.apply(v, &e).unwrap();
        assert_eq!(r.you, Some(Color::White));
        assert!(!r.my_turn());
    }

    #[test]
    fn a_catch_up_continues_from_its_since_and_refuses_to_start_past_the_replica() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann"));
        let events: Vec<VersionedEvent> = [started(2, "ann", "bob"), stone(3, "h8", 1, "white")]
            .into_iter()
            .map(|(version, event)| VersionedEvent { version, event })
            .collect();
        assert_eq!(
            r.catch_up(2, &events),
            Err(ReplicaError::CatchUpFrom { have: 1, since: 2 })
        );
        r.catch_up(1, &events).unwrap();
        assert_eq!((r.version, r.moves.len()), (3, 1));
        r.catch_up(1, &events).unwrap();
        assert_eq!(
            (r.version, r.moves.len()),
            (3, 1),
            "events already held are stale"
        );
    }
}
