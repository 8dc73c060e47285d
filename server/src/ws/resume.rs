//! Identity resumption: `hello` resumes the session of a token (the one in `hello`, then the upgrade request's)
//! or makes a new guest, and answers `welcome`.

use protocol::{code, ServerMessage, You};

use super::conn::Conn;
use crate::identity::{hash_token, NewGuestError};
use crate::limits::Refusal;

impl Conn {
    /// Answers `hello`: the identity of the first token that resumes a session, or a new guest when none was
    /// offered; `invalid_token` when one was offered and none resumed.
    pub(super) async fn hello(&mut self, version: u32, token: Option<String>, rid: Option<u64>) {
        if version != protocol::PROTOCOL_VERSION && version != protocol::PROTOCOL_VERSION_1 {
            self.error(
                code::UNSUPPORTED_VERSION,
                &format!(
                    "this server speaks protocol {} (and {})",
                    protocol::PROTOCOL_VERSION,
                    protocol::PROTOCOL_VERSION_1
                ),
                rid,
            )
            .await;
            return;
        }
        if version == protocol::PROTOCOL_VERSION_1 {
            // Set before anything is answered: the `welcome` is the same in both versions, the rooms' frames not.
            self.outbox.edge().speak_v1();
        }
        // The token in `hello` first, then the upgrade request's; a cookie's token is never echoed back to scripts.
        let candidates = [(token, true), (self.ambient_token.take(), false)];
        let mut resumed = None;
        let mut offered = false;
        for (candidate, echo) in candidates {
            let Some(t) = candidate else { continue };
            offered = true;
            // Watched before it is read, so a logout in between still reaches this connection.
            let live = (self.state.live_sessions).watch(hash_token(&t), self.outbox.clone());
            match self.state.identities.resume(&t).await {
                Ok(Some(identity)) => {
                    let shown = if echo { t.clone() } else { String::new() };
                    resumed = Some((identity, shown, t, live));
                    break;
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::error!(error = %e, "could not read a session");
                    return self.error(code::INTERNAL, "try again", rid).await;
                }
            }
        }
        let (identity, token, session_token, live) = match resumed {
            Some(found) => found,
            // A client that meant to be someone is told it is not, rather than made a stranger: it may sign in
            // again, or say hello without a token to be a new guest (the upgrade's token is used up, so that
            // second hello makes one).
            None if offered => {
                return self
                    .error(
                        code::INVALID_TOKEN,
                        "this token is unknown or expired; say hello without it to be a new guest",
                        rid,
                    )
                    .await;
            }
            None => match self.state.identities.new_guest(self.peer).await {
                Ok((identity, token)) => {
                    let live =
                        (self.state.live_sessions).watch(hash_token(&token), self.outbox.clone());
                    (identity, token.clone(), token, live)
                }
                Err(e @ NewGuestError::RateLimited(_)) => {
                    return self.error(code::RATE_LIMITED, &e.to_string(), rid).await;
                }
                Err(e) => {
                    tracing::error!(error = %e, "could not create a guest session");
                    return self.error(code::INTERNAL, "try again", rid).await;
                }
            },
        };
        // A socket takes a place under its player's cap (a second hello as the same player keeps its place).
        if self.player_capped
            && self
                .player_permit
                .as_ref()
                .is_none_or(|p| p.player() != identity.id)
        {
            match self.state.player_limits.admit(&identity.id) {
                Some(permit) => self.player_permit = Some(permit),
                None => {
                    tracing::debug!(player = %identity.id, "too many connections for this player");
                    self.closing = true;
                    return super::conn::refuse(&self.outbox, Refusal::Player, rid).await;
                }
            }
        }
        self.unkept_guest_token = identity.is_guest().then_some(session_token);
        let welcome = ServerMessage::Welcome {
            you: You {
                id: identity.id.clone(),
                name: identity.name.clone(),
                guest: identity.is_guest(),
            },
            token,
            server_version: env!("CARGO_PKG_VERSION").to_owned(),
        };
        if let Some(previous) = self.identity.take() {
            self.state.lobby.online(&previous.id, false);
            if let Some(user) = previous.user_id {
                self.state.presence.disconnect(user, self.outbox.id);
            }
        }
        self.state.lobby.online(&identity.id, true);
        if let Some(user) = identity.user_id.filter(|_| !identity.is_computer()) {
            self.state.presence.connect(user, &self.outbox);
        }
        self.identity = Some(identity);
        self.live = Some(live);
        self.send(&welcome, rid).await;
        if let Some(identity) = &self.identity {
            // A second hello under another identity: the earlier one's challenges stop coming here.
            self.state.challenges.disconnect(self.outbox.id);
            self.state.challenges.connect(&identity.id, self.reach());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::*;
    use crate::ws::conn::outbox;
    use crate::ws::conn::testing::{next_frame, state};

    const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[tokio::test]
    async fn a_hello_without_a_token_makes_a_new_guest_and_welcomes_it_with_its_token() {
        let (state, _dir) = state().await;
        let (outbox, mut rx, _kick) = outbox(&state);
        let mut conn = Conn::open(state, outbox, None, LOOPBACK);
        conn.hello(protocol::PROTOCOL_VERSION, None, Some(1)).await;
        let frame = next_frame(&mut rx);
        assert_eq!(frame.rid, Some(1));
        let ServerMessage::Welcome { you, token, .. } = frame.msg else {
            panic!("{:?}", frame.msg);
        };
        assert!(you.guest);
        assert!(!token.is_empty());
        assert_eq!(conn.identity.as_ref().map(|i| &i.id), Some(&you.id));
        conn.close().await;
    }

    #[tokio::test]
    async fn a_hello_with_another_protocol_version_is_refused_and_leaves_the_connection_nobody() {
        let (state, _dir) = state().await;
        let (outbox, mut rx, _kick) = outbox(&state);
        let mut conn = Conn::open(state, outbox, None, LOOPBACK);
        conn.hello(protocol::PROTOCOL_VERSION + 1, None, Some(7))
            .await;
        let frame = next_frame(&mut rx);
        assert_eq!(frame.rid, Some(7));
        assert!(
            matches!(&frame.msg, ServerMessage::Error { code, .. } if code == code::UNSUPPORTED_VERSION),
            "{:?}",
            frame.msg
        );
        assert!(conn.identity.is_none());
        conn.close().await;
    }

    #[tokio::test]
    async fn a_hello_with_an_unknown_token_is_told_so_rather_than_made_a_guest() {
        let (state, _dir) = state().await;
        let (outbox, mut rx, _kick) = outbox(&state);
        let mut conn = Conn::open(state, outbox, None, LOOPBACK);
        conn.hello(
            protocol::PROTOCOL_VERSION,
            Some("not-a-session".into()),
            Some(2),
        )
        .await;
        let frame = next_frame(&mut rx);
        assert!(
            matches!(&frame.msg, ServerMessage::Error { code, .. } if code == code::INVALID_TOKEN),
            "{:?}",
            frame.msg
        );
        assert!(conn.identity.is_none());
        conn.close().await;
    }
}
