//! The first protocol version, at the WebSocket edge. Inside, the server speaks one form for every game (protocol
//! version 2: `act`, the `action` and `actions_taken_back` events, the snapshot's `game` and `view`). A connection
//! whose `hello` said `version: 1` still gets Gomoku rooms under the classic openings (none, swap after three,
//! fifth move with two options) in the form it was written for: this module translates what goes out to it
//! (`move`, `swap_decided`, `fifth_proposed`, `taken_back`, the snapshot's `moves`, `phase`, `forbidden`, …) and
//! what comes in from any client (`place`, `decide_swap`, `propose_fifth`, `choose_fifth`, `claim_forbidden`,
//! which become the room's generic [`Act`]s).
//!
//! What goes out is translated per connection, from the frame the room encoded once for everyone: a version-1
//! connection pays a decode and an encode per frame, a version-2 connection nothing. A version-1 room event needs
//! to know its room (its opening, and who holds which colour for `swap_decided`): the connection learns it from
//! the room's snapshot, which a version-1 `join` with `since` therefore asks for when the connection has not seen
//! one (see [`Edge::since`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use axum::extract::ws::Utf8Bytes;
use games::AnyAction;
use protocol::{
    decode, encode, ClientMessage, GameChange, GamePhase, GameView, RoomEvent, RoomPhase,
    RoomSnapshot, RulesSpec, ServerMessage, VersionedEvent,
};
use rules::{Action, Color, Opening};

use crate::room::Act;

/// A connection's dialect: version 2 until its `hello` says 1, and what a version-1 connection knows of its
/// rooms.
#[derive(Debug, Default)]
pub struct Edge {
    v1: AtomicBool,
    rooms: Mutex<HashMap<String, Known>>,
}

/// What a version-1 connection knows of a room, from its snapshots and events.
#[derive(Clone, Debug, Default)]
struct Known {
    /// A Gomoku room under a classic opening: the rooms whose form changed.
    classic: bool,
    /// Whether its opening has a swap (`swap_decided` then names the players).
    swaps: bool,
    /// Whether `names` come from a snapshot or `game_started` (not only from the room's configuration).
    named: bool,
    /// Who holds black and who white, by name (`swap_decided` names them).
    names: [String; 2],
}

impl Edge {
    /// The connection said `version: 1`.
    pub fn speak_v1(&self) {
        self.v1.store(true, Ordering::Relaxed);
    }

    /// Whether the connection speaks version 1.
    pub fn is_v1(&self) -> bool {
        self.v1.load(Ordering::Relaxed)
    }

    /// Whether a version-1 `join` with `since` needs the room's configuration first ([`Edge::learn`]): the
    /// connection has not seen the room.
    pub fn needs_config(&self, room: &str, since: Option<u64>) -> bool {
        self.is_v1() && since.is_some() && !self.rooms().contains_key(room)
    }

    /// What a room's configuration tells of its form, for a connection that has not seen the room.
    pub fn learn(&self, room: &str, config: &games::AnyConfig) {
        let rules = protocol::GameSpec::from(*config).rules();
        self.rooms().entry(room.to_owned()).or_insert(Known {
            classic: classic(rules.as_ref()),
            swaps: rules.is_some_and(|r| r.opening != Opening::None),
            named: false,
            names: Default::default(),
        });
    }

    /// The `since` of a `join` as the room should get it: a version-1 connection that does not know the room's
    /// form, or who holds which colour in a room whose missed events may hold a swap, asks for a snapshot
    /// instead of the missed events (it could not translate them).
    pub fn since(&self, room: &str, since: Option<u64>) -> Option<u64> {
        if !self.is_v1() {
            return since;
        }
        let rooms = self.rooms();
        since.filter(|_| {
            rooms
                .get(room)
                .is_some_and(|k| !k.classic || !k.swaps || k.named)
        })
    }

    /// A frame as this connection gets it: unchanged for version 2; for version 1, translated, or `None` when
    /// the first version has no such message (a forbidden claim's `action`: the result announces it).
    pub fn outgoing(&self, text: Utf8Bytes) -> Option<Utf8Bytes> {
        if !self.is_v1() {
            return Some(text);
        }
        let Ok(frame) = decode::<ServerMessage>(text.as_str(), usize::MAX) else {
            return Some(text);
        };
        let msg = self.translate(frame.msg)?;
        Some(encode(&msg, frame.rid).into())
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Known>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn translate(&self, msg: ServerMessage) -> Option<ServerMessage> {
        Some(match msg {
            ServerMessage::Room { room } => ServerMessage::Room {
                room: self.snapshot(room),
            },
            ServerMessage::Event {
                room,
                version,
                event,
            } => {
                let event = self.event(&room, event)?;
                ServerMessage::Event {
                    room,
                    version,
                    event,
                }
            }
            ServerMessage::CatchUp { room, events } => {
                let events = events
                    .into_iter()
                    .filter_map(|e| {
                        Some(VersionedEvent {
                            version: e.version,
                            event: self.event(&room, e.event)?,
                        })
                    })
                    .collect();
                ServerMessage::CatchUp { room, events }
            }
            ServerMessage::Lobby {
                mut rooms,
                online,
                total,
            } => {
                for r in &mut rooms {
                    if classic(r.rules.as_ref()) {
                        r.game = None;
                    }
                }
                ServerMessage::Lobby {
                    rooms,
                    online,
                    total,
                }
            }
            ServerMessage::LobbyRoom { mut room } => {
                if classic(room.rules.as_ref()) {
                    room.game = None;
                }
                ServerMessage::LobbyRoom { room }
            }
            other => other,
        })
    }

    /// A classic Gomoku room's snapshot in the first version's form: its position in `moves`, `phase`,
    /// `swapped`, `forbidden`, `claimable` and `fifth_options`, described by `rules` alone.
    fn snapshot(&self, mut snap: RoomSnapshot) -> RoomSnapshot {
        let classic = classic(snap.rules.as_ref());
        let name = |seat: &Option<protocol::Seat>| {
            seat.as_ref().map(|s| s.name.clone()).unwrap_or_default()
        };
        self.rooms().insert(
            snap.id.clone(),
            Known {
                classic,
                swaps: snap.rules.is_some_and(|r| r.opening != Opening::None),
                named: true,
                names: [name(&snap.seats.black), name(&snap.seats.white)],
            },
        );
        if !classic {
            return snap;
        }
        snap.game = None;
        if let Some(GameView::Gomoku(p)) = snap.view.take() {
            snap.phase = room_phase(p.phase.as_ref());
            snap.moves = p.moves;
            snap.swapped = p.swapped;
            snap.forbidden = p.forbidden;
            snap.claimable = p.claimable;
            snap.fifth_options = p.fifth_options;
        }
        snap
    }

    /// A room event in the first version's form (`None`: that version has no such event).
    fn event(&self, room: &str, event: RoomEvent) -> Option<RoomEvent> {
        let mut rooms = self.rooms();
        let known = rooms.entry(room.to_owned()).or_default();
        match &event {
            RoomEvent::PlayerJoined { colour, player } => {
                known.names[index(*colour)] = player.name.clone();
            }
            RoomEvent::GameStarted { black, white, .. } => {
                known.names = [black.name.clone(), white.name.clone()];
                known.named = true;
            }
            _ => {}
        }
        if !known.classic {
            return Some(event);
        }
        Some(match event {
            RoomEvent::GameStarted {
                game_id,
                record,
                black,
                white,
                clocks,
                to_act,
                unrated,
                view,
                forbidden,
                phase,
            } => {
                let (forbidden, phase) = match view {
                    Some(GameView::Gomoku(p)) => (p.forbidden, room_phase(p.phase.as_ref())),
                    _ => (forbidden, phase),
                };
                RoomEvent::GameStarted {
                    game_id,
                    record,
                    black,
                    white,
                    clocks,
                    forbidden,
                    to_act,
                    phase,
                    unrated,
                    view: None,
                }
            }
            RoomEvent::Action {
                change: GameChange::Gomoku(change),
                to_act,
                phase,
                clocks,
                ..
            } => {
                let phase = room_phase(phase.as_ref());
                if let Some(point) = change.placed {
                    // The stone's colour (stones alternate, black first): a fifth move chosen by white is black's.
                    let colour = if change.ply % 2 == 1 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    RoomEvent::Move {
                        colour,
                        point,
                        ply: change.ply,
                        claimable: change.claimable,
                        to_act,
                        phase,
                        clocks,
                        forbidden: change.forbidden,
                    }
                } else if let Some(swapped) = change.swapped {
                    if swapped {
                        known.names.swap(0, 1);
                    }
                    RoomEvent::SwapDecided {
                        swapped,
                        black: known.names[0].clone(),
                        white: known.names[1].clone(),
                        to_act,
                        phase,
                        clocks,
                    }
                } else if let Some(points) = change.proposed {
                    RoomEvent::FifthProposed {
                        points,
                        to_act,
                        phase,
                        clocks,
                    }
                } else {
                    // A claim of a forbidden stone: the result that follows announces it.
                    return None;
                }
            }
            RoomEvent::ActionsTakenBack {
                ply,
                view: GameView::Gomoku(p),
                to_act,
                clocks,
                ..
            } => RoomEvent::TakenBack {
                ply,
                moves: p.moves,
                to_act,
                phase: room_phase(p.phase.as_ref()),
                clocks,
                forbidden: p.forbidden,
            },
            other => other,
        })
    }
}

/// The room's act for a first-version Gomoku message (`place`, `decide_swap`, `propose_fifth`, `choose_fifth`,
/// `claim_forbidden`), with the room it is for; `None` for every other message.
pub fn act(msg: &ClientMessage) -> Option<(&str, Act)> {
    let gomoku = |a: Action| AnyAction::Gomoku(a);
    Some(match *msg {
        ClientMessage::Place {
            ref room,
            point,
            ply,
        } => (
            room,
            Act::Ply {
                action: gomoku(Action::Place { point }),
                ply,
            },
        ),
        ClientMessage::DecideSwap { ref room, swap } => {
            (room, Act::Unnumbered(gomoku(Action::DecideSwap { swap })))
        }
        ClientMessage::ProposeFifth { ref room, points } => (
            room,
            Act::Unnumbered(gomoku(Action::ProposeFifth { points })),
        ),
        ClientMessage::ChooseFifth { ref room, point } => {
            (room, Act::Unnumbered(gomoku(Action::ChooseFifth { point })))
        }
        ClientMessage::ClaimForbidden { ref room } => {
            (room, Act::Unnumbered(gomoku(Action::ClaimForbidden)))
        }
        _ => return None,
    })
}

/// Whether rules describe a Gomoku room under a classic opening, whose form the first version has its own of.
fn classic(rules: Option<&RulesSpec>) -> bool {
    rules.is_some_and(|r| {
        matches!(
            r.opening,
            Opening::None | Opening::SwapAfterThree | Opening::SwapAfterThreeFifthTwoOptions
        )
    })
}

/// The first version's phase of a game's phase code (the same snake_case words).
fn room_phase(phase: Option<&GamePhase>) -> RoomPhase {
    phase
        .and_then(|p| serde_json::to_value(p).ok())
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default()
}

fn index(colour: Color) -> usize {
    match colour {
        Color::Black => 0,
        Color::White => 1,
    }
}
