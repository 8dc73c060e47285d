//! Request ids and pending frames, without a transport.

use std::collections::VecDeque;

use protocol::{ClientMessage, DecodeError, Frame, ServerMessage};

/// A client's request bookkeeping: each request gets the next id (from 1), and frames read while waiting for one
/// answer are kept, oldest first, until asked for.
#[derive(Debug)]
pub struct Requests {
    next_rid: u64,
    pending: VecDeque<Frame<ServerMessage>>,
}

impl Default for Requests {
    fn default() -> Requests {
        Requests::new()
    }
}

impl Requests {
    /// No request sent yet; the first id is 1.
    pub fn new() -> Requests {
        Requests {
            next_rid: 1,
            pending: VecDeque::new(),
        }
    }

    /// A fresh request id.
    pub fn next_rid(&mut self) -> u64 {
        let rid = self.next_rid;
        self.next_rid += 1;
        rid
    }

    /// The text frame of `msg` under a fresh request id, and the id.
    pub fn encode(&mut self, msg: &ClientMessage) -> (u64, String) {
        let rid = self.next_rid();
        (rid, protocol::encode(msg, Some(rid)))
    }

    /// Keeps a frame that is not the answer being waited for.
    pub fn keep(&mut self, frame: Frame<ServerMessage>) {
        self.pending.push_back(frame);
    }

    /// The oldest kept frame.
    pub fn next_kept(&mut self) -> Option<Frame<ServerMessage>> {
        self.pending.pop_front()
    }

    /// Takes the kept frame that carries `rid`, if one arrived already; the others stay in order.
    pub fn take_reply(&mut self, rid: u64) -> Option<ServerMessage> {
        let i = self.pending.iter().position(|f| f.rid == Some(rid))?;
        self.pending.remove(i).map(|f| f.msg)
    }

    /// How many frames are kept.
    pub fn kept(&self) -> usize {
        self.pending.len()
    }
}

/// The generic `act` of an action in room `room`: its notation, at `at` (the number of actions the game accepted
/// before it; [`crate::Replica::next_at`] for the next one).
pub fn act(room: &str, action: &games::AnyAction, at: u32) -> ClientMessage {
    ClientMessage::Act {
        room: room.to_owned(),
        action: action.notation(),
        at,
    }
}

/// Reads a server frame. Servers are trusted to stay under any size, so no limit applies.
pub fn decode(text: &str) -> Result<Frame<ServerMessage>, DecodeError> {
    protocol::decode(text, usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pong(rid: Option<u64>) -> Frame<ServerMessage> {
        Frame {
            rid,
            msg: ServerMessage::Pong {},
        }
    }

    #[test]
    fn request_ids_start_at_one_and_never_repeat() {
        let mut r = Requests::new();
        let (first, text) = r.encode(&ClientMessage::Ping {});
        assert_eq!(first, 1);
        assert_eq!(decode_client(&text).rid, Some(1));
        assert_eq!(r.next_rid(), 2);
        assert_eq!(r.encode(&ClientMessage::Ping {}).0, 3);
    }

    fn decode_client(text: &str) -> Frame<ClientMessage> {
        protocol::decode(text, usize::MAX).expect("a client frame")
    }

    #[test]
    fn a_reply_is_taken_out_of_the_kept_frames_and_the_rest_keep_their_order() {
        let mut r = Requests::new();
        r.keep(pong(None));
        r.keep(pong(Some(7)));
        r.keep(pong(Some(8)));
        assert_eq!(r.take_reply(9), None);
        assert_eq!(r.take_reply(7), Some(ServerMessage::Pong {}));
        assert_eq!(r.kept(), 2);
        assert_eq!(r.next_kept().map(|f| f.rid), Some(None));
        assert_eq!(r.next_kept().map(|f| f.rid), Some(Some(8)));
        assert!(r.next_kept().is_none());
    }

    #[test]
    fn an_act_carries_the_actions_notation_and_its_index() {
        let f5 = games::GameKind::Othello.parse_action("f5").unwrap();
        let mut r = Requests::new();
        let (rid, text) = r.encode(&act("r1", &f5, 0));
        assert_eq!(
            text,
            format!(r#"{{"rid":{rid},"t":"act","room":"r1","action":"f5","at":0}}"#)
        );
        let jump = games::GameKind::Draughts.parse_action("28x19x10").unwrap();
        assert_eq!(
            act("r1", &jump, 7),
            ClientMessage::Act {
                room: "r1".into(),
                action: "28x19x10".into(),
                at: 7
            }
        );
    }

    #[test]
    fn a_server_frame_that_does_not_decode_is_a_typed_error() {
        assert!(decode("{\"t\":\"pong\",\"rid\":4}").is_ok_and(|f| f.rid == Some(4)));
        let e = decode("{\"t\":\"no_such_message\"}").unwrap_err();
        assert_eq!(e.code(), "unknown_type");
        assert_eq!(decode("[1,").unwrap_err().code(), "bad_json");
    }
}
