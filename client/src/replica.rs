//! One room as a client follows it: a snapshot, then every event after it, each checked to be the next version.
//! The replica speaks protocol version 2: its one model of the position is the game itself ([`Replica::game`]),
//! replayed from the snapshot's `view` and kept by the `action` events, for every game.

use games::{AnyGame, AnyIllegal, Coded, Game, NotationError, Seat};
use protocol::{
    GameResult, GameSpec, GameSpecError, GameView, RoomEvent, RoomSnapshot, RoomState, RulesSpec,
    VersionedEvent,
};
use rules::Color;

/// A room's game as its client was told it. Built from a snapshot ([`Replica::from_snapshot`]), kept current
/// with [`Replica::apply`] (or [`Replica::catch_up`]); an event that does not follow from what the replica holds
/// is a [`ReplicaError`], after which the client should ask for a snapshot (`join` without `since`).
#[derive(Clone, Debug, PartialEq)]
pub struct Replica {
    /// The room's id.
    pub room: String,
    /// The rules the room plays (board size, rule set, opening), in a Gomoku room; a room's rules never change.
    /// Rooms of other games have none (their game is in [`Replica::game`]).
    pub rules: Option<RulesSpec>,
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
    /// The result, once over.
    pub result: Option<GameResult>,
    /// The game itself, once one started (a snapshot with `game` and `view`, then `action` events): replayed from
    /// the snapshot's actions and kept by applying each event's action. Its seats are not the room's (actions
    /// are applied for whoever is to act); colours come from the events.
    pub game: Option<AnyGame>,
    /// The room's game and configuration (the snapshot's `game`), so that the replica can start its game when a
    /// `game_started` brings the first position.
    pub spec: Option<GameSpec>,
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
    /// A `catch_up` that does not start where the replica is.
    CatchUpFrom {
        /// The replica's version.
        have: u64,
        /// The `since` the answer continues from.
        since: u64,
    },
    /// An `action` event for a room the replica follows without a game (a snapshot without `game`).
    NoGame,
    /// An `action` event that is not the next action: `at` is not the number of actions the replica holds.
    At {
        /// The event's `at`.
        at: u32,
        /// Actions the replica holds.
        actions: usize,
    },
    /// A snapshot's game is not a playable configuration.
    Config(GameSpecError),
    /// An action's text (in a snapshot's view or an event) is not an action of the game.
    Notation {
        /// The text.
        action: String,
        /// Why.
        error: NotationError,
    },
    /// An action (in a snapshot's view or an event) that the game refuses where the replica is.
    Illegal {
        /// Its text.
        action: String,
        /// Why.
        error: AnyIllegal,
    },
    /// The replica's game no longer shows what the server sent (a snapshot's view, an event's side to act).
    Diverged {
        /// What differs.
        what: &'static str,
    },
}

impl std::fmt::Display for ReplicaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplicaError::Gap { have, got } => write!(f, "version {got} follows {have}"),
            ReplicaError::CatchUpFrom { have, since } => {
                write!(f, "a catch_up from {since} for a replica at {have}")
            }
            ReplicaError::NoGame => {
                f.write_str("an action event for a room followed without a game")
            }
            ReplicaError::At { at, actions } => {
                write!(f, "an action at {at} for a game of {actions} actions")
            }
            ReplicaError::Config(e) => write!(f, "the room's game is not playable: {e}"),
            ReplicaError::Notation { action, error } => write!(f, "{action}: {error}"),
            ReplicaError::Illegal { action, error } => {
                write!(f, "{action} is refused ({}): {error}", error.code())
            }
            ReplicaError::Diverged { what } => write!(f, "the replica's {what} differs"),
        }
    }
}

impl std::error::Error for ReplicaError {}

impl Replica {
    /// The room as a snapshot shows it, for the client named `me` (its colour follows it through swaps and
    /// rematches; `None` for a client that never sits). A snapshot with `game` and `view` gives the replica its
    /// game, replayed from the view's actions and checked to show the same view; one that does not replay is an
    /// error.
    pub fn from_snapshot(snap: &RoomSnapshot, me: Option<&str>) -> Result<Replica, ReplicaError> {
        let game = match (&snap.game, &snap.view) {
            (Some(spec), Some(view)) => Some(Replica::replay(spec, view, snap.result.is_some())?),
            _ => None,
        };
        Ok(Replica {
            room: snap.id.clone(),
            rules: snap.rules,
            version: snap.version,
            state: snap.state,
            game_id: snap.game_id,
            names: [
                snap.seats.black.as_ref().map(|s| s.name.clone()),
                snap.seats.white.as_ref().map(|s| s.name.clone()),
            ],
            you: snap.you,
            to_act: snap.to_act,
            result: snap.result.clone(),
            game,
            spec: snap.game,
            me: me.map(str::to_owned),
        })
    }

    /// A snapshot's game: its actions replayed, and the view they give compared with the one sent.
    fn replay(
        spec: &protocol::GameSpec,
        view: &GameView,
        room_result: bool,
    ) -> Result<AnyGame, ReplicaError> {
        let config = spec.to_config().map_err(ReplicaError::Config)?;
        let mut game = AnyGame::new(config, Seat::Zero);
        for text in view.actions() {
            Replica::play(&mut game, text)?;
        }
        if GameView::of(&game, room_result) != *view {
            return Err(ReplicaError::Diverged { what: "view" });
        }
        Ok(game)
    }

    /// Applies one action's text to a game.
    fn play(game: &mut AnyGame, text: &str) -> Result<(), ReplicaError> {
        let action = game
            .parse_action(text)
            .map_err(|error| ReplicaError::Notation {
                action: text.to_owned(),
                error,
            })?;
        game.apply(action)
            .map(|_| ())
            .map_err(|error| ReplicaError::Illegal {
                action: text.to_owned(),
                error,
            })
    }

    /// The `at` of the client's next `act`: the number of actions the game holds (`None` without a game).
    pub fn next_at(&self) -> Option<u32> {
        self.game.as_ref().map(|g| g.action_count() as u32)
    }

    /// Whether the client is seated and must act now.
    pub fn my_turn(&self) -> bool {
        self.state == RoomState::Playing && self.you.is_some() && self.to_act == self.you
    }

    /// The name of the player who must act, when a seated player must (the client's own or the opponent's):
    /// what a harness driving several clients needs to pick the one whose turn it is.
    pub fn acting_name(&self) -> Option<&str> {
        self.names[self.to_act? as usize].as_deref()
    }

    /// The next move's ply: the moves the game holds, plus one.
    pub fn next_ply(&self) -> u32 {
        self.game.as_ref().map_or(0, |g| g.ply()) + 1
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
                view,
                ..
            } => {
                self.state = RoomState::Playing;
                self.game_id = Some(*game_id);
                self.names = [Some(black.name.clone()), Some(white.name.clone())];
                self.seat_me();
                self.to_act = *to_act;
                self.result = None;
                let spec = self
                    .spec
                    .or_else(|| self.game.as_ref().map(|g| GameSpec::from(g.config())));
                match (spec, view) {
                    (Some(spec), Some(view)) => {
                        self.game = Some(Replica::replay(&spec, view, false)?);
                    }
                    // A start without its view is the game's own starting position.
                    (Some(spec), None) => {
                        let config = spec.to_config().map_err(ReplicaError::Config)?;
                        self.game = Some(AnyGame::new(config, Seat::Zero));
                    }
                    // A room described without its game (a version-1 snapshot of classic Gomoku): no game to keep.
                    (None, _) => self.game = None,
                }
            }
            RoomEvent::ActionsTakenBack { view, to_act, .. } => {
                let Some(spec) = self
                    .spec
                    .or_else(|| self.game.as_ref().map(|g| GameSpec::from(g.config())))
                else {
                    return Err(ReplicaError::NoGame);
                };
                self.game = Some(Replica::replay(&spec, view, false)?);
                self.to_act = *to_act;
            }
            RoomEvent::Action {
                at, action, to_act, ..
            } => {
                let Some(game) = &self.game else {
                    return Err(ReplicaError::NoGame);
                };
                if *at as usize != game.action_count() {
                    return Err(ReplicaError::At {
                        at: *at,
                        actions: game.action_count(),
                    });
                }
                let mut next = game.clone();
                Replica::play(&mut next, action)?;
                if next.to_act() != *to_act {
                    return Err(ReplicaError::Diverged {
                        what: "side to act",
                    });
                }
                // Who holds which colour is the game's answer: a swap (Gomoku under Swap1, Swap2, Soosõrv or
                // Taraguchi) exchanges the names.
                let swapped = next.seat_of(Color::Black) != game.seat_of(Color::Black);
                self.game = Some(next);
                self.to_act = *to_act;
                if swapped {
                    self.names.swap(0, 1);
                    if self.me.is_some() {
                        self.seat_me();
                    } else {
                        self.you = self.you.map(Color::opposite);
                    }
                }
            }
            RoomEvent::GameOver { result, .. } => {
                self.state = RoomState::Over;
                self.to_act = None;
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
            "game":{"game":"gomoku","size":15,"rule_set":"freestyle","forbidden_policy":"reject","opening":"none"},
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

    /// A Gomoku stone's `action` event: `at` the actions before it.
    fn stone(version: u64, point: &str, at: u32, to_act: &str) -> (u64, RoomEvent) {
        let by = if at.is_multiple_of(2) {
            "black"
        } else {
            "white"
        };
        let ply = at + 1;
        event(&format!(
            r#"{{"t":"event","room":"r1","version":{version},"event":{{"kind":"action","at":{at},"by":"{by}",
            "action":"{point}","change":{{"game":"gomoku","placed":"{point}","ply":{ply},"forbidden":[]}},
            "to_act":"{to_act}","phase":"place","clocks":null}}}}"#
        ))
    }

    /// The stones the replica's game holds, in order.
    fn stones(r: &Replica) -> Vec<String> {
        r.game.as_ref().map_or_else(Vec::new, |g| {
            g.actions().iter().map(|a| a.notation()).collect()
        })
    }

    #[test]
    fn a_game_followed_from_a_snapshot_holds_the_stones_and_whose_turn_it_is() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann")).unwrap();
        assert_eq!(r.you, Some(Color::Black));
        let (v, e) = started(2, "ann", "bob");
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!((r.state, r.game_id), (RoomState::Playing, Some(7)));
        assert!(r.my_turn());
        let (v, e) = stone(3, "h8", 0, "white");
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!(stones(&r), ["h8"]);
        assert_eq!(r.next_ply(), 2);
        assert_eq!(r.next_at(), Some(1));
        assert!(!r.my_turn());
        assert_eq!(r.apply(v, &e), Ok(Applied::Stale), "the same version again");
        assert_eq!(stones(&r).len(), 1);
    }

    #[test]
    fn a_skipped_version_or_a_wrong_count_is_an_error_and_changes_nothing_it_should_not() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann")).unwrap();
        let (_, e) = started(2, "ann", "bob");
        assert_eq!(r.apply(3, &e), Err(ReplicaError::Gap { have: 1, got: 3 }));
        assert_eq!(r.version, 1);
        r.apply(2, &e).unwrap();
        let (v, e) = stone(3, "h8", 1, "white");
        assert_eq!(r.apply(v, &e), Err(ReplicaError::At { at: 1, actions: 0 }));
        assert_eq!(r.version, 2, "a refused event does not move the version");
        assert!(stones(&r).is_empty(), "nor add its stone");
    }

    #[test]
    fn the_clients_colour_follows_a_rematch_with_colours_exchanged() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann")).unwrap();
        let (v, e) = started(2, "bob", "ann");
        r.apply(v, &e).unwrap();
        assert_eq!(r.you, Some(Color::White));
        assert!(!r.my_turn());
    }

    #[test]
    fn a_catch_up_continues_from_its_since_and_refuses_to_start_past_the_replica() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann")).unwrap();
        let events: Vec<VersionedEvent> = [started(2, "ann", "bob"), stone(3, "h8", 0, "white")]
            .into_iter()
            .map(|(version, event)| VersionedEvent { version, event })
            .collect();
        assert_eq!(
            r.catch_up(2, &events),
            Err(ReplicaError::CatchUpFrom { have: 1, since: 2 })
        );
        r.catch_up(1, &events).unwrap();
        assert_eq!((r.version, stones(&r).len()), (3, 1));
        r.catch_up(1, &events).unwrap();
        assert_eq!(
            (r.version, stones(&r).len()),
            (3, 1),
            "events already held are stale"
        );
    }

    /// A playing room of another game: its `game` and `view` as the server sends them.
    fn generic_room(game: &str, view: &str) -> RoomSnapshot {
        let text = format!(
            r#"{{"t":"room","room":{{"id":"r2","version":4,"game":{game},
            "time_control":{{"kind":"none"}},"rated":false,"public":true,"game_id":9,"state":"playing",
            "seats":{{"black":{{"id":"p1","name":"ann","guest":true,"connected":true}},
            "white":{{"id":"p2","name":"bob","guest":true,"connected":true}}}},"you":"black","phase":"place",
            "to_act":"white","moves":[],"swapped":false,"clocks":null,"forbidden":[],"claimable":null,
            "fifth_options":null,"offers":[],"spectators":0,"result":null,"view":{view}}}}}"#
        );
        match frame(&text) {
            ServerMessage::Room { room } => room,
            other => panic!("{other:?}"),
        }
    }

    fn othello_room() -> RoomSnapshot {
        generic_room(
            r#"{"game":"othello","scoring":"japanese"}"#,
            r#"{"game":"othello","board":"...........................wb......bbb..........................","black":4,"white":1,"to_act":"white","phase":"place","legal":["f4","d6","f6"],"last":"f5","actions":["f5"]}"#,
        )
    }

    fn draughts_room() -> RoomSnapshot {
        generic_room(
            r#"{"game":"draughts","variant":"international"}"#,
            r#"{"game":"draughts","board":"bbbbbbbbbbbbbbbbbbbb.......w..w.wwwwwwwwwwwwwwwwww","to_act":"black","legal":[{"move":"16-21","path":[16,21],"captured":[],"crowned":false},{"move":"17-21","path":[17,21],"captured":[],"crowned":false},{"move":"17-22","path":[17,22],"captured":[],"crowned":false},{"move":"18-22","path":[18,22],"captured":[],"crowned":false},{"move":"18-23","path":[18,23],"captured":[],"crowned":false},{"move":"19-23","path":[19,23],"captured":[],"crowned":false},{"move":"19-24","path":[19,24],"captured":[],"crowned":false},{"move":"20-24","path":[20,24],"captured":[],"crowned":false},{"move":"20-25","path":[20,25],"captured":[],"crowned":false}],"counters":{"king_plies":0,"endgame":null,"repetitions":1},"ply":1,"actions":["32-28"]}"#,
        )
    }

    /// An `action` event with a change the replica does not read (it applies the notation itself).
    fn action(version: u64, at: u32, by: &str, text: &str, to_act: &str) -> (u64, RoomEvent) {
        event(&format!(
            r#"{{"t":"event","room":"r2","version":{version},"event":{{"kind":"action","at":{at},"by":"{by}",
            "action":"{text}","change":{{"game":"othello","placed":null,"flipped":[],"black":0,"white":0,"legal":[]}},
            "to_act":{to_act},"phase":null,"clocks":null}}}}"#
        ))
    }

    #[test]
    fn an_othello_replica_replays_its_snapshot_and_follows_action_events() {
        let mut r = Replica::from_snapshot(&othello_room(), Some("ann")).unwrap();
        assert_eq!(r.next_at(), Some(1));
        let (v, e) = action(5, 1, "white", "d6", r#""black""#);
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!((r.next_at(), r.to_act), (Some(2), Some(Color::Black)));
        assert!(r.my_turn());
        let game = r.game.as_ref().unwrap();
        assert_eq!(
            game.actions()
                .iter()
                .map(|a| a.notation())
                .collect::<Vec<_>>(),
            ["f5", "d6"]
        );
        assert_eq!(r.apply(v, &e), Ok(Applied::Stale), "the same version again");
    }

    #[test]
    fn an_action_event_out_of_order_or_unreadable_is_a_typed_error_and_changes_nothing() {
        let mut r = Replica::from_snapshot(&othello_room(), Some("ann")).unwrap();
        let before = r.clone();
        let (v, e) = action(5, 0, "white", "d6", r#""black""#);
        assert_eq!(r.apply(v, &e), Err(ReplicaError::At { at: 0, actions: 1 }));
        let (v, e) = action(5, 1, "white", "D6", r#""black""#);
        assert!(matches!(
            r.apply(v, &e),
            Err(ReplicaError::Notation {
                error: NotationError::NotCanonical { .. },
                ..
            })
        ));
        let (v, e) = action(5, 1, "white", "a1", r#""black""#);
        assert!(matches!(r.apply(v, &e), Err(ReplicaError::Illegal { .. })));
        let (v, e) = action(5, 1, "white", "d6", "null");
        assert_eq!(
            r.apply(v, &e),
            Err(ReplicaError::Diverged {
                what: "side to act"
            })
        );
        assert_eq!(r, before, "refused events leave the replica as it was");
    }

    #[test]
    fn a_draughts_replica_follows_moves_and_captures_and_refuses_an_illegal_one() {
        let mut r = Replica::from_snapshot(&draughts_room(), Some("ann")).unwrap();
        assert_eq!(r.next_at(), Some(1));
        let (v, e) = action(5, 1, "black", "19-23", r#""white""#);
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        let (v, e) = action(6, 2, "white", "28x19", r#""black""#);
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!(r.next_at(), Some(3));
        let (v, e) = action(7, 3, "black", "32-28", r#""white""#);
        assert!(matches!(r.apply(v, &e), Err(ReplicaError::Illegal { .. })));
        assert_eq!((r.version, r.next_at()), (6, Some(3)));
    }

    #[test]
    fn a_snapshot_whose_view_does_not_follow_from_its_actions_is_an_error() {
        let mut room = othello_room();
        if let Some(GameView::Othello(view)) = &mut room.view {
            view.black = 5;
        }
        assert_eq!(
            Replica::from_snapshot(&room, None),
            Err(ReplicaError::Diverged { what: "view" })
        );
        let mut room = othello_room();
        if let Some(GameView::Othello(view)) = &mut room.view {
            view.actions = vec!["pass".into()];
        }
        assert!(matches!(
            Replica::from_snapshot(&room, None),
            Err(ReplicaError::Illegal { .. })
        ));
    }

    #[test]
    fn an_action_event_in_a_room_followed_without_a_game_is_no_game() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann")).unwrap();
        let (v, e) = action(2, 0, "black", "h8", r#""white""#);
        assert_eq!(r.apply(v, &e), Err(ReplicaError::NoGame));
    }

    #[test]
    fn the_replica_keeps_the_rules_the_snapshot_gives_through_a_game() {
        let mut r = Replica::from_snapshot(&waiting_room(), Some("ann")).unwrap();
        let fifteen = RulesSpec {
            size: 15,
            rule_set: rules::RuleSet::Freestyle,
            forbidden_policy: rules::ForbiddenPolicy::Reject,
            opening: rules::Opening::None,
        };
        assert_eq!(r.rules, Some(fifteen));
        let (v, e) = started(2, "ann", "bob");
        r.apply(v, &e).unwrap();
        assert_eq!(
            r.rules,
            Some(fifteen),
            "a game starting does not change the rules"
        );
        let mut nineteen = waiting_room();
        nineteen.rules = Some(RulesSpec {
            size: 19,
            ..fifteen
        });
        let r = Replica::from_snapshot(&nineteen, None).unwrap();
        assert_eq!(r.rules.map(|r| r.size), Some(19));
    }

    #[test]
    fn the_acting_name_is_whoever_must_act_and_none_while_nobody_must() {
        let mut r = Replica::from_snapshot(&waiting_room(), None).unwrap();
        assert_eq!(r.acting_name(), None, "nobody acts in a waiting room");
        let (v, e) = started(2, "ann", "bob");
        r.apply(v, &e).unwrap();
        assert_eq!(r.acting_name(), Some("ann"));
        let (v, e) = stone(3, "h8", 0, "white");
        r.apply(v, &e).unwrap();
        assert_eq!(r.acting_name(), Some("bob"));
        let (v, e) = event(
            r#"{"t":"event","room":"r1","version":4,"event":{"kind":"player_left","colour":"white","name":"bob"}}"#,
        );
        r.apply(v, &e).unwrap();
        assert_eq!(
            r.acting_name(),
            None,
            "white must act but its seat is empty"
        );
    }

    /// A waiting Othello room: its `game`, no view yet.
    fn waiting_othello() -> RoomSnapshot {
        let text = r#"{"t":"room","room":{"id":"r3","version":1,"game":{"game":"othello","scoring":"european"},
            "time_control":{"kind":"none"},"rated":false,"public":true,"game_id":null,"state":"waiting",
            "seats":{"black":{"id":"p1","name":"ann","guest":true,"connected":true},"white":null},"you":"black",
            "phase":"none","to_act":null,"moves":[],"swapped":false,"clocks":null,"forbidden":[],"claimable":null,
            "fifth_options":null,"offers":[],"spectators":0,"result":null}}"#;
        match frame(text) {
            ServerMessage::Room { room } => room,
            other => panic!("{other:?}"),
        }
    }

    const OTHELLO_START: &str = r#"{"game":"othello","board":"...........................wb......bw...........................","black":2,"white":2,"to_act":"black","phase":"place","legal":["d3","c4","f5","e6"],"last":null,"actions":[]}"#;

    fn othello_started(version: u64, view: &str) -> (u64, RoomEvent) {
        event(&format!(
            r#"{{"t":"event","room":"r3","version":{version},"event":{{"kind":"game_started","game_id":8,
            "black":{{"id":"a","name":"ann","guest":true,"connected":true}},"white":{{"id":"b","name":"bob","guest":true,"connected":true}},
            "clocks":null,"forbidden":[],"to_act":"black","phase":"none","view":{view}}}}}"#
        ))
    }

    #[test]
    fn a_game_started_with_a_view_gives_a_waiting_rooms_replica_its_game() {
        let mut r = Replica::from_snapshot(&waiting_othello(), Some("ann")).unwrap();
        assert_eq!(r.game, None, "no game before it starts");
        let (v, e) = othello_started(2, OTHELLO_START);
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!((r.next_at(), r.to_act), (Some(0), Some(Color::Black)));
        assert!(r.my_turn());
        let (v, e) = event(
            r#"{"t":"event","room":"r3","version":3,"event":{"kind":"action","at":0,"by":"black","action":"f5",
            "change":{"game":"othello","placed":"f5","flipped":["e5"],"black":4,"white":1,"legal":[]},
            "to_act":"white","phase":"place","clocks":null}}"#,
        );
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!(r.next_at(), Some(1));
        let wrong = OTHELLO_START.replace(r#""black":2"#, r#""black":3"#);
        let (v, e) = othello_started(4, &wrong);
        assert_eq!(
            r.apply(v, &e),
            Err(ReplicaError::Diverged { what: "view" }),
            "a starting view the game does not give is refused"
        );
    }

    #[test]
    fn actions_taken_back_replace_the_replicas_game_with_the_view_sent() {
        let mut r = Replica::from_snapshot(&othello_room(), Some("ann")).unwrap();
        let (v, e) = action(5, 1, "white", "d6", r#""black""#);
        r.apply(v, &e).unwrap();
        let (v, e) = event(&format!(
            r#"{{"t":"event","room":"r2","version":6,"event":{{"kind":"actions_taken_back","at":0,"ply":0,
            "view":{},"to_act":"black","phase":"place","clocks":null}}}}"#,
            OTHELLO_START
        ));
        assert_eq!(r.apply(v, &e), Ok(Applied::Applied));
        assert_eq!((r.next_at(), r.to_act), (Some(0), Some(Color::Black)));
        assert!(r.game.as_ref().unwrap().actions().is_empty());
    }
}
