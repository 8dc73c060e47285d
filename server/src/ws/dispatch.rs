//! Dispatch: a decoded message from a client that said hello becomes a lobby, room or room-registry call.

use protocol::{code, ClientMessage, ServerMessage};

use super::conn::Conn;
use crate::identity::Identity;
use crate::limits::address_key;
use crate::room::{Act, RoomError, RoomHandle, Settings};

impl Conn {
    /// The live room `id`, or `unknown_room`.
    fn room(&self, id: &str) -> Result<RoomHandle, RoomError> {
        self.state
            .rooms
            .get(id)
            .ok_or_else(|| RoomError::new(code::UNKNOWN_ROOM, "no such room"))
    }

    /// Handles one message of a client that said hello; a refusal is answered as an error frame with its `rid`.
    pub(super) async fn dispatch(
        &mut self,
        identity: Identity,
        msg: ClientMessage,
        rid: Option<u64>,
    ) {
        use ClientMessage as C;
        let result = match msg {
            C::Hello { .. } => Err(RoomError::new(
                code::ALREADY_HELLO,
                "hello was already said",
            )),
            C::Ping {} => {
                self.send(&ServerMessage::Pong {}, rid).await;
                Ok(())
            }
            C::SubscribeLobby {} => {
                self.lobby = true;
                self.state.lobby.subscribe(self.outbox.clone(), rid);
                Ok(())
            }
            C::UnsubscribeLobby {} => {
                self.lobby = false;
                self.state.lobby.unsubscribe(self.outbox.id);
                self.send(
                    &ServerMessage::Ack {
                        room: None,
                        version: None,
                    },
                    rid,
                )
                .await;
                Ok(())
            }
            C::CreateRoom {
                rules,
                time_control,
                rated,
                public,
                colour,
            } => {
                self.create_room(identity, rules, time_control, rated, public, colour, rid)
                    .await
            }
            C::Join { room, role, since } => self.join(identity, &room, role, since, rid).await,
            C::Leave { room } => match self.room(&room) {
                Ok(handle) => {
                    let r = handle.leave(self.outbox.id, rid).await;
                    if r.is_ok() {
                        self.rooms.remove(&handle.id);
                    }
                    r
                }
                Err(e) => Err(e),
            },
            C::Place { room, point, ply } => self.act(&room, rid, Act::Place { point, ply }).await,
            C::DecideSwap { room, swap } => {
                self.act(&room, rid, Act::Rules(rules::Action::DecideSwap { swap }))
                    .await
            }
            C::ProposeFifth { room, points } => {
                self.act(
                    &room,
                    rid,
                    Act::Rules(rules::Action::ProposeFifth { points }),
                )
                .await
            }
            C::ChooseFifth { room, point } => {
                self.act(&room, rid, Act::Rules(rules::Action::ChooseFifth { point }))
                    .await
            }
            C::ClaimForbidden { room } => {
                self.act(&room, rid, Act::Rules(rules::Action::ClaimForbidden))
                    .await
            }
            C::Resign { room } => self.act(&room, rid, Act::Resign).await,
            C::OfferDraw { room } => self.act(&room, rid, Act::OfferDraw).await,
            C::AnswerDraw { room, accept } => self.act(&room, rid, Act::AnswerDraw(accept)).await,
            C::RequestTakeback { room } => self.act(&room, rid, Act::RequestTakeback).await,
            C::AnswerTakeback { room, accept } => {
                self.act(&room, rid, Act::AnswerTakeback(accept)).await
            }
            C::OfferRematch { room } => self.act(&room, rid, Act::OfferRematch).await,
            C::AnswerRematch { room, accept } => {
                self.act(&room, rid, Act::AnswerRematch(accept)).await
            }
            C::Chat { room, text } => self.act(&room, rid, Act::Chat(text)).await,
            C::ShowSpectatorChat { room, show } => {
                self.act(&room, rid, Act::ShowSpectatorChat(show)).await
            }
            C::ClaimWin { room } => self.act(&room, rid, Act::ClaimWin).await,
        };
        if let Err(e) = result {
            self.room_error(e, rid).await;
        }
    }

    /// Sends an action to a room, as this connection.
    async fn act(&self, room: &str, rid: Option<u64>, act: Act) -> Result<(), RoomError> {
        self.room(room)?.act(self.outbox.id, rid, act).await
    }

    /// Joins a room, within the connection's limit of rooms.
    async fn join(
        &mut self,
        identity: Identity,
        room: &str,
        role: protocol::JoinRole,
        since: Option<u64>,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let handle = self.room(room)?;
        self.forget_closed_rooms();
        if !self.rooms.contains(&handle.id)
            && self.rooms.len() >= self.state.config.max_rooms_per_connection
        {
            return Err(RoomError::new(
                code::TOO_MANY_ROOMS,
                "this connection is in as many rooms as allowed",
            ));
        }
        self.keep_guest(&identity).await?;
        handle
            .join(identity, self.outbox.clone(), role, since, rid)
            .await?;
        self.rooms.insert(handle.id.clone());
        Ok(())
    }

    /// A guest joining or creating a room is worth keeping: its short first session is made long, once per
    /// connection.
    async fn keep_guest(&mut self, identity: &Identity) -> Result<(), RoomError> {
        let Some(token) = &self.unkept_guest_token else {
            return Ok(());
        };
        if let Err(e) = self.state.identities.keep(identity, token).await {
            tracing::error!(error = %e, "could not keep a guest session");
            return Err(RoomError::new(code::INTERNAL, "try again"));
        }
        self.unkept_guest_token = None;
        Ok(())
    }

    /// Creates a room with validated [`Settings`] and seats its creator.
    #[allow(clippy::too_many_arguments)]
    async fn create_room(
        &mut self,
        identity: Identity,
        rules: protocol::RulesSpec,
        time_control: protocol::TimeControl,
        rated: bool,
        public: bool,
        colour: protocol::ColourChoice,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let settings = Settings::new(rules, time_control, rated, public, colour)?;
        if rated && identity.is_guest() {
            return Err(RoomError::new(
                code::ACCOUNT_REQUIRED,
                "rated games need an account",
            ));
        }
        self.forget_closed_rooms();
        if self.rooms.len() >= self.state.config.max_rooms_per_connection {
            return Err(RoomError::new(
                code::TOO_MANY_ROOMS,
                "this connection is in as many rooms as allowed",
            ));
        }
        self.keep_guest(&identity).await?;
        let handle =
            self.state
                .rooms
                .create(&self.state, settings, &identity, address_key(self.peer))?;
        handle
            .join(
                identity,
                self.outbox.clone(),
                protocol::JoinRole::Player,
                None,
                rid,
            )
            .await?;
        self.rooms.insert(handle.id.clone());
        Ok(())
    }

    /// Drops rooms that have closed since this connection joined them, so they no longer count against its limit.
    fn forget_closed_rooms(&mut self) {
        let rooms = &self.state.rooms;
        self.rooms.retain(|id| rooms.get(id).is_some());
    }
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use tokio::sync::mpsc;

    use super::*;
    use crate::ws::conn::outbox;
    use crate::ws::conn::testing::{next_frame, state};
    use crate::ws::outbox::Out;

    const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    /// A connection that said hello (a new guest), with its queue emptied of the welcome.
    async fn greeted(state: &crate::AppState) -> (Conn, Identity, mpsc::Receiver<Out>) {
        let (outbox, mut rx, _kick) = outbox(state);
        let mut conn = Conn::open(state.clone(), outbox, None, LOOPBACK);
        conn.hello(protocol::PROTOCOL_VERSION, None, None).await;
        next_frame(&mut rx);
        let identity = conn.identity.clone().unwrap();
        (conn, identity, rx)
    }

    #[track_caller]
    fn assert_error(frame: protocol::Frame<ServerMessage>, rid: Option<u64>, expected: &str) {
        assert_eq!(frame.rid, rid);
        assert!(
            matches!(&frame.msg, ServerMessage::Error { code, .. } if code == expected),
            "{:?}",
            frame.msg
        );
    }

    #[tokio::test]
    async fn a_second_hello_is_answered_already_hello() {
        let (state, _dir) = state().await;
        let (mut conn, identity, mut rx) = greeted(&state).await;
        let hello = ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            token: None,
        };
        conn.dispatch(identity, hello, Some(3)).await;
        assert_error(next_frame(&mut rx), Some(3), code::ALREADY_HELLO);
        conn.close().await;
    }

    #[tokio::test]
    async fn an_action_in_an_unknown_room_is_answered_unknown_room() {
        let (state, _dir) = state().await;
        let (mut conn, identity, mut rx) = greeted(&state).await;
        let resign = ClientMessage::Resign {
            room: "nosuch".into(),
        };
        conn.dispatch(identity, resign, Some(4)).await;
        assert_error(next_frame(&mut rx), Some(4), code::UNKNOWN_ROOM);
        conn.close().await;
    }

    #[tokio::test]
    async fn a_room_with_a_time_control_out_of_range_is_not_created() {
        let (state, _dir) = state().await;
        let (mut conn, identity, mut rx) = greeted(&state).await;
        let create = ClientMessage::CreateRoom {
            rules: protocol::RulesSpec {
                size: 15,
                rule_set: rules::RuleSet::Renju,
                forbidden_policy: rules::ForbiddenPolicy::Reject,
                opening: rules::Opening::None,
            },
            time_control: protocol::TimeControl::Fischer {
                base_ms: 999,
                increment_ms: 0,
            },
            rated: false,
            public: true,
            colour: protocol::ColourChoice::Black,
        };
        conn.dispatch(identity, create, Some(5)).await;
        assert_error(next_frame(&mut rx), Some(5), code::INVALID_TIME_CONTROL);
        assert!(conn.rooms.is_empty());
        conn.close().await;
    }
}
