//! What nodes say to each other over NATS (JSON): requests to a room's owner on `gomoku.room.<id>.cmd`, and the
//! owner's publications on `gomoku.room.<id>.out` (each versioned event once, and the frames meant for one
//! member on another node), and a draining node's hand-over on `gomoku.cluster.handover`.

use games::{AnyAction, GameKind};
use protocol::JoinRole;
use serde::{Deserialize, Serialize};

use crate::identity::Identity;
use crate::room::{Act, RoomError};
use crate::ws::outbox::ConnId;

/// The subject a room's owner takes requests on.
pub(crate) fn cmd_subject(room: &str) -> String {
    format!("gomoku.room.{room}.cmd")
}

/// The subject a room's owner publishes its events and addressed frames on.
pub(crate) fn out_subject(room: &str) -> String {
    format!("gomoku.room.{room}.out")
}

/// The subject a draining node announces its hand-over on: every node looks for rooms to take over at once.
pub(crate) const HANDOVER_SUBJECT: &str = "gomoku.cluster.handover";

/// A connection on some node.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Addr {
    /// The node the socket is on.
    pub(crate) node: String,
    /// The connection's id on that node.
    pub(crate) conn: ConnId,
}

/// An identity as the owner needs it to seat a player.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct WireIdentity {
    id: String,
    name: String,
    user_id: Option<store::UserId>,
}

impl From<&Identity> for WireIdentity {
    fn from(i: &Identity) -> WireIdentity {
        WireIdentity {
            id: i.id.clone(),
            name: i.name.clone(),
            user_id: i.user_id,
        }
    }
}

impl From<WireIdentity> for Identity {
    fn from(w: WireIdentity) -> Identity {
        Identity {
            id: w.id,
            name: w.name,
            user_id: w.user_id,
        }
    }
}

/// A room action as it crosses nodes (the wire forms of [`Act`]; `Act::Game` comes only from the owner's own
/// computer player and never crosses).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum WireAct {
    Ply {
        action: WireAction,
        ply: u32,
    },
    Unnumbered(WireAction),
    Notation {
        text: String,
        at: u32,
    },
    Resign,
    OfferDraw,
    AnswerDraw(bool),
    RequestTakeback,
    AnswerTakeback(bool),
    OfferRematch,
    AnswerRematch(bool),
    /// A chat line from a node that predates kept line ids.
    Chat(String),
    /// A chat line and the id the community's store kept it under (issue #38).
    Said {
        text: String,
        line: Option<i64>,
    },
    ShowSpectatorChat(bool),
    ClaimWin,
}

impl WireAct {
    /// The wire form of an action, or why it cannot cross nodes.
    pub(crate) fn of(act: Act) -> Result<WireAct, RoomError> {
        Ok(match act {
            Act::Ply { action, ply } => WireAct::Ply {
                action: WireAction::of(&action),
                ply,
            },
            Act::Unnumbered(a) => WireAct::Unnumbered(WireAction::of(&a)),
            Act::Notation { text, at } => WireAct::Notation { text, at },
            Act::Game { .. } => {
                return Err(RoomError::new(
                    protocol::code::INTERNAL,
                    "this action cannot be sent to another node",
                ))
            }
            Act::Resign => WireAct::Resign,
            Act::OfferDraw => WireAct::OfferDraw,
            Act::AnswerDraw(b) => WireAct::AnswerDraw(b),
            Act::RequestTakeback => WireAct::RequestTakeback,
            Act::AnswerTakeback(b) => WireAct::AnswerTakeback(b),
            Act::OfferRematch => WireAct::OfferRematch,
            Act::AnswerRematch(b) => WireAct::AnswerRematch(b),
            Act::Chat(text, line) => WireAct::Said { text, line },
            Act::ShowSpectatorChat(b) => WireAct::ShowSpectatorChat(b),
            Act::ClaimWin => WireAct::ClaimWin,
        })
    }
}

/// A game's action as it crosses nodes: the game and the action's stored text.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct WireAction {
    game: String,
    text: String,
}

impl WireAction {
    fn of(action: &AnyAction) -> WireAction {
        WireAction {
            game: action.kind().as_str().to_owned(),
            text: action.encode(),
        }
    }

    /// The action back, or `bad_notation` when this node does not read it.
    fn action(&self) -> Result<AnyAction, RoomError> {
        let bad = |e: String| RoomError::new(protocol::code::BAD_NOTATION, e);
        let kind: GameKind = self
            .game
            .parse()
            .map_err(|e: games::NotationError| bad(e.to_string()))?;
        AnyAction::decode(kind, &self.text).map_err(|e| bad(e.to_string()))
    }
}

impl WireAct {
    /// The room's action, or why this node cannot read it.
    pub(crate) fn into_act(self) -> Result<Act, RoomError> {
        Ok(match self {
            WireAct::Ply { action, ply } => Act::Ply {
                action: action.action()?,
                ply,
            },
            WireAct::Unnumbered(a) => Act::Unnumbered(a.action()?),
            WireAct::Notation { text, at } => Act::Notation { text, at },
            WireAct::Resign => Act::Resign,
            WireAct::OfferDraw => Act::OfferDraw,
            WireAct::AnswerDraw(b) => Act::AnswerDraw(b),
            WireAct::RequestTakeback => Act::RequestTakeback,
            WireAct::AnswerTakeback(b) => Act::AnswerTakeback(b),
            WireAct::OfferRematch => Act::OfferRematch,
            WireAct::AnswerRematch(b) => Act::AnswerRematch(b),
            WireAct::Chat(t) => Act::Chat(t, None),
            WireAct::Said { text, line } => Act::Chat(text, line),
            WireAct::ShowSpectatorChat(b) => Act::ShowSpectatorChat(b),
            WireAct::ClaimWin => Act::ClaimWin,
        })
    }
}

/// A request from a node whose socket spoke to a room owned by another.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Request {
    Join {
        from: Addr,
        identity: WireIdentity,
        role: JoinRole,
        since: Option<u64>,
        rid: Option<u64>,
    },
    Leave {
        from: Addr,
        rid: Option<u64>,
    },
    Act {
        from: Addr,
        rid: Option<u64>,
        act: WireAct,
        /// The acting connection's measured round trip to its own node (lag compensation, issue #18).
        #[serde(default)]
        rtt_ms: u64,
    },
    /// The socket is gone (no reply expected).
    Disconnected {
        from: Addr,
    },
    /// The member fell behind on its node and the node's history no longer covers it: send it a snapshot.
    Resync {
        from: Addr,
    },
    /// A moderator removed a kept chat line (issue #38): the room drops it and tells every member.
    RemoveChat {
        line: i64,
    },
}

/// The owner's answer to a request: `None` when done, else the room's refusal.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    pub(crate) error: Option<(String, String)>,
}

impl Reply {
    pub(crate) fn of(result: Result<(), RoomError>) -> Reply {
        Reply {
            error: result.err().map(|e| (e.code.into_owned(), e.message)),
        }
    }

    pub(crate) fn into_result(self) -> Result<(), RoomError> {
        match self.error {
            None => Ok(()),
            Some((code, message)) => Err(RoomError {
                code: code.into(),
                message,
                retry_after: None,
            }),
        }
    }
}

/// What a room's owner publishes on the room's subject, in the room's order.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Publication {
    /// A versioned event for every member on every node (the frame without a request id), but `skip`; the
    /// actor's copy carries the actor's request id.
    Event {
        version: u64,
        text: String,
        actor: Option<(Addr, u64)>,
        skip: Option<Addr>,
    },
    /// A frame for some members (`mine`: the one whose copy carries a request id). `version` is the room's
    /// version when it was sent: the members are up to date with it once they have it. `resync`: a snapshot for
    /// a member that fell behind.
    To {
        to: Vec<Addr>,
        text: String,
        mine: Option<(Addr, u64)>,
        version: u64,
        resync: bool,
    },
    /// Close a member that stayed behind too long.
    Kick { to: Addr },
    /// The room came back on a node (taken over once its owner's lease ran out, or restored by its restarted
    /// owner): every relay closes its members with 1012, as a room that moves closes its own, so that they join
    /// again and reach the room where it is now. The new owner knows none of them: without it they would hear
    /// nothing more of the room.
    Moved,
}
