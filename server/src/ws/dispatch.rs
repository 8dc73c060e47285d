//! Dispatch: a decoded message from a client that said hello becomes a lobby, room or room-registry call.

use protocol::{code, ClientMessage, ServerMessage};

use super::conn::Conn;
use crate::identity::Identity;
use crate::limits::address_key;
use crate::room::{Act, RoomError, RoomHandle, Settings};

/// The message a `create_room` without `rules` or `game` is refused with: the decoder's own words for the
/// missing field, as when `rules` was required.
pub(super) const MISSING_CONFIG: &str = "invalid message: missing field `rules`";

/// The game a `create_room` asks for, from `rules` (Gomoku), `game` (any game) or both: both must then say the
/// same.
pub(super) fn requested_game(
    rules: Option<protocol::RulesSpec>,
    game: Option<protocol::GameSpec>,
) -> Result<protocol::GameSpec, RoomError> {
    match (rules, game) {
        (Some(rules), None) => Ok(rules.into()),
        (None, Some(game)) => Ok(game),
        (Some(rules), Some(game)) if game.rules() == Some(rules) => Ok(game),
        (Some(_), Some(_)) => Err(RoomError::new(
            code::CONFLICTING_CONFIG,
            "rules and game say different things",
        )),
        (None, None) => Err(RoomError::new(code::INVALID_FIELD, MISSING_CONFIG)),
    }
}

impl Conn {
    /// The live room `id` (in a cluster, wherever it runs), or `unknown_room`.
    fn room(&self, id: &str) -> Result<RoomHandle, RoomError> {
        self.state
            .rooms
            .route(id)
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
        self.adopt_paired_rooms();
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
                game,
                time_control,
                rated,
                public,
                colour,
                rating_range,
            } => match requested_game(rules, game) {
                Ok(game) => self
                    .create_room(
                        identity,
                        game,
                        time_control,
                        rated,
                        public,
                        colour,
                        rating_range,
                        rid,
                    )
                    .await
                    .map(drop),
                Err(e) => Err(e),
            },
            C::Join { room, role, since } => {
                // A first-version connection catches up only in rooms whose form it knows (`ws/v1.rs`).
                if self.outbox.edge().needs_config(&room, since) {
                    if let Ok(handle) = self.room(&room) {
                        if let Ok(summary) = handle.summary().await {
                            self.outbox.edge().learn(&room, &summary.config);
                        }
                    }
                }
                let since = self.outbox.edge().since(&room, since);
                self.join(identity, &room, role, since, rid).await
            }
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
            ref first @ (C::Place { .. }
            | C::DecideSwap { .. }
            | C::ProposeFifth { .. }
            | C::ChooseFifth { .. }
            | C::ClaimForbidden { .. }) => {
                let (room, act) = super::v1::act(first).expect("a first-version Gomoku message");
                self.act(room, rid, act).await
            }
            C::Act { room, action, at } => {
                self.act(&room, rid, Act::Notation { text: action, at })
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
            C::Chat { room, text } => self.chat(&identity, &room, text, rid).await,
            C::ShowSpectatorChat { room, show } => {
                self.act(&room, rid, Act::ShowSpectatorChat(show)).await
            }
            C::ClaimWin { room } => self.act(&room, rid, Act::ClaimWin).await,
            C::SeekQuick {
                preset,
                rules,
                game,
                time_control,
                rated,
            } => {
                self.seek_quick(identity, &preset, rules, game, time_control, rated, rid)
                    .await
            }
            C::CancelQuick {} => {
                if self.seeking {
                    self.state.pairing.cancel(self.outbox.id).await;
                    self.seeking = false;
                }
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
            C::Challenge {
                to,
                rules,
                game,
                time_control,
                rated,
                colour,
                games,
            } => {
                let (settings, games) = (
                    ChallengeTerms {
                        rules,
                        game,
                        time_control,
                        rated,
                        colour,
                    },
                    games.unwrap_or(1),
                );
                self.challenge(identity, &to, settings, games, rid).await
            }
            C::AnswerChallenge { id, accept, reason } => {
                let reach = self.reach();
                match self
                    .state
                    .challenges
                    .answer(identity, reach, id, accept, reason)
                    .await
                {
                    Ok(()) => {
                        self.adopt_paired_rooms();
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
                    Err(e) => Err(e),
                }
            }
            C::CancelChallenge { id } => match self.state.challenges.cancel(identity, id).await {
                Ok(()) => {
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
                Err(e) => Err(e),
            },
            msg @ C::PlayComputer { .. } => self.play_computer(identity, msg, rid).await,
            C::InviteComputer {
                room,
                level,
                engine,
            } => {
                self.invite_computer(identity, &room, level, engine.as_deref(), rid)
                    .await
            }
        };
        if let Err(e) = result {
            self.room_error(e, rid).await;
        }
    }

    /// Sends an action to a room, as this connection.
    async fn act(&self, room: &str, rid: Option<u64>, act: Act) -> Result<(), RoomError> {
        self.room(room)?
            .act_lagged(self.outbox.id, rid, act, self.rtt.ms())
            .await
    }

    /// A chat line, once the community's checks pass (mutes, bans, blocks: issue #38); kept once said.
    async fn chat(
        &self,
        identity: &Identity,
        room: &str,
        text: String,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let handle = self.room(room)?;
        crate::community::gate::chat(&self.state, identity, self.peer, &handle).await?;
        let line =
            crate::community::gate::saying(&self.state, identity, self.peer, room, &text).await;
        let said = self.act(room, rid, Act::Chat(text, line)).await;
        if said.is_err() {
            crate::community::gate::refused(&self.state, line).await;
        }
        said
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
        crate::community::gate::join(&self.state, &identity, self.peer, &handle).await?;
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

    /// Creates a room with validated [`Settings`] and seats its creator; answers the room's id.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn create_room(
        &mut self,
        identity: Identity,
        game: protocol::GameSpec,
        time_control: protocol::TimeControl,
        rated: bool,
        public: bool,
        colour: protocol::ColourChoice,
        rating_range: Option<protocol::RatingRange>,
        rid: Option<u64>,
    ) -> Result<std::sync::Arc<str>, RoomError> {
        let settings = Settings::new(game, time_control, rated, public, colour)?
            .with_rating_range(rating_range)?;
        self.may_open_a_room(&identity, rated).await?;
        let handle = self
            .state
            .rooms
            .create(&self.state, settings, &identity, address_key(self.peer))
            .await?;
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
        Ok(handle.id)
    }

    /// Challenges the registered player `to` (the challenges task answers with the `challenge`).
    async fn challenge(
        &mut self,
        identity: Identity,
        to: &str,
        terms: ChallengeTerms,
        games: u32,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let ChallengeTerms {
            rules,
            game,
            time_control,
            rated,
            colour,
        } = terms;
        let game = requested_game(rules, game)?;
        // Public, as every game is unless made private on purpose: watchable and on both profiles.
        let settings = Settings::new(game, time_control, rated, true, colour)?;
        crate::matches::check_games(games::GameConfig::kind(&settings.config), games)?;
        refuse_rated_guest(&identity, rated)?;
        let internal = |e: store::StoreError| {
            tracing::error!(error = %e, "could not look a challenged player up");
            RoomError::new(code::INTERNAL, "try again")
        };
        let user = self
            .state
            .store
            .user_by_name(to)
            .await
            .map_err(internal)?
            .filter(|u| identity.user_id != Some(u.id))
            .ok_or_else(|| RoomError::new(code::UNKNOWN_PLAYER, "no such player"))?;
        let policy = self
            .state
            .store
            .challenge_policy(user.id)
            .await
            .map_err(internal)?;
        crate::community::gate::challenge(&self.state, &identity, self.peer, user.id).await?;
        if policy == "none" || (policy == "accounts" && identity.is_guest()) {
            return Err(RoomError::new(
                code::CHALLENGES_REFUSED,
                "this player takes no such challenges",
            ));
        }
        self.room_for_one_more(&identity).await?;
        let new = crate::challenges::NewChallenge {
            from: identity,
            reach: self.reach(),
            to: Identity::user(user.id, user.name),
            settings,
            rid,
            games,
        };
        self.state.challenges.create(new).await
    }

    /// Enters a quick-pairing queue (the pairing task answers `ack`, then `paired` when it pairs).
    #[allow(clippy::too_many_arguments)]
    async fn seek_quick(
        &mut self,
        identity: Identity,
        preset: &str,
        rules: Option<protocol::RulesSpec>,
        game: Option<protocol::GameSpec>,
        time_control: Option<protocol::TimeControl>,
        rated: bool,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let game = match (rules, game) {
            (None, None) => None,
            (rules, game) => Some(requested_game(rules, game)?),
        };
        let spec = crate::pairing::SeekSpec::new(preset, game, time_control, rated)?;
        self.may_open_a_room(&identity, rated).await?;
        let rating = match identity.user_id {
            Some(user) => {
                let pool = crate::stored::pool(&spec.settings.config);
                crate::accounts::seat::rating_in(self.state.store.as_ref(), user, pool)
                    .await
                    .map_or(1500.0, |r| r.rating.rating)
            }
            None => 1500.0,
        };
        let unpairable =
            crate::community::gate::unpairable(&self.state, &identity, self.peer).await?;
        let seeker = crate::pairing::Seeker {
            unpairable,
            identity,
            outbox: self.outbox.clone(),
            adopt: self.adopted.0.clone(),
            ip: self.peer,
            rating,
            spec,
            rid,
        };
        self.state.pairing.seek(seeker).await?;
        self.seeking = true;
        Ok(())
    }

    /// What every way into a new room checks first: a rated game needs an account, and the connection must have
    /// room for one more (a guest is then kept, as by [`Conn::keep_guest`]).
    async fn may_open_a_room(&mut self, identity: &Identity, rated: bool) -> Result<(), RoomError> {
        refuse_rated_guest(identity, rated)?;
        self.room_for_one_more(identity).await
    }

    /// Refuses a new room beyond the connection's limit (rooms that have closed no longer count); keeps a guest
    /// who may have one.
    async fn room_for_one_more(&mut self, identity: &Identity) -> Result<(), RoomError> {
        self.forget_closed_rooms();
        if self.rooms.len() >= self.state.config.max_rooms_per_connection {
            return Err(RoomError::new(
                code::TOO_MANY_ROOMS,
                "this connection is in as many rooms as allowed",
            ));
        }
        self.keep_guest(identity).await
    }

    /// Drops rooms that have closed since this connection joined them, so they no longer count against its limit.
    fn forget_closed_rooms(&mut self) {
        let rooms = &self.state.rooms;
        self.rooms.retain(|id| rooms.get(id).is_some());
    }
}

/// Rated games need an account.
fn refuse_rated_guest(identity: &Identity, rated: bool) -> Result<(), RoomError> {
    if rated && identity.is_guest() {
        return Err(RoomError::new(
            code::ACCOUNT_REQUIRED,
            "rated games need an account",
        ));
    }
    Ok(())
}

/// A challenge's game terms as the client sent them (before they become the room's `Settings`).
struct ChallengeTerms {
    rules: Option<protocol::RulesSpec>,
    game: Option<protocol::GameSpec>,
    time_control: protocol::TimeControl,
    rated: bool,
    colour: protocol::ColourChoice,
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
            rules: Some(protocol::RulesSpec {
                size: 15,
                rule_set: rules::RuleSet::Renju,
                forbidden_policy: rules::ForbiddenPolicy::Reject,
                opening: rules::Opening::None,
            }),
            game: None,
            time_control: protocol::TimeControl::Fischer {
                base_ms: 999,
                increment_ms: 0,
            },
            rated: false,
            public: true,
            colour: protocol::ColourChoice::Black,
            rating_range: None,
        };
        conn.dispatch(identity, create, Some(5)).await;
        assert_error(next_frame(&mut rx), Some(5), code::INVALID_TIME_CONTROL);
        assert!(conn.rooms.is_empty());
        conn.close().await;
    }
}
