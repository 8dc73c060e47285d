//! What a socket checks before a chat line, a join, a challenge or a quick pairing (issue #38): mutes and bans
//! (of an account, or of guests from an address range) and blocks. Each check reads the store, so it holds on
//! every node of a cluster; each refusal is a typed error frame (`muted`, `banned`, `blocked`).

use std::net::IpAddr;

use protocol::code;

use crate::identity::Identity;
use crate::room::{RoomError, RoomHandle};
use crate::AppState;

fn internal(e: impl std::fmt::Display) -> RoomError {
    tracing::error!(error = %e, "community check failed");
    RoomError::new(code::INTERNAL, "try again")
}

fn now() -> store::Millis {
    crate::time::unix_ms()
}

/// The account ids of a room's seated players: the room's own summary, or, for a room another node of a cluster
/// owns (whose relay gives no summary), its lobby entry (every node lists every public room).
async fn seated_users(state: &AppState, room: &RoomHandle) -> Vec<store::UserId> {
    let keys: Vec<String> = match room.summary().await {
        Ok(summary) => summary.seated.into_iter().flatten().collect(),
        Err(_) => state
            .lobby
            .list()
            .await
            .into_iter()
            .find(|entry| *entry.id == *room.id)
            .map(|entry| entry.players.into_iter().map(|p| p.id).collect())
            .unwrap_or_default(),
    };
    keys.iter()
        .filter_map(|key| key.strip_prefix('u')?.parse().ok())
        .collect()
}

/// Until when (ms) the sender is under a sanction of `kind`, if it is: an account by its id, a guest by its
/// address range.
async fn sanction(
    state: &AppState,
    identity: &Identity,
    ip: IpAddr,
    kind: &str,
) -> Result<Option<Option<store::Millis>>, RoomError> {
    // A store without the community's tables (a test double) has no sanctions to hold.
    let Some(tables) = state.store.community() else {
        return Ok(None);
    };
    let range = identity
        .user_id
        .is_none()
        .then(|| super::range_of(&state.config, ip));
    tables
        .sanctioned(kind, identity.user_id, range.as_deref(), now())
        .await
        .map_err(internal)
}

/// Refuses a banned account or guest range (`banned`).
pub async fn not_banned(
    state: &AppState,
    identity: &Identity,
    ip: IpAddr,
) -> Result<(), RoomError> {
    if identity.is_computer() {
        return Ok(());
    }
    match sanction(state, identity, ip, "ban").await? {
        None => Ok(()),
        Some(_) => Err(RoomError::new(
            code::BANNED,
            "a moderator has banned this account or network from playing and chatting",
        )),
    }
}

/// Whether a chat line may be said in `room`: not by a muted or banned sender, and not before a seated player who
/// blocked the sender.
pub async fn chat(
    state: &AppState,
    identity: &Identity,
    ip: IpAddr,
    room: &RoomHandle,
) -> Result<(), RoomError> {
    if identity.is_computer() {
        return Ok(());
    }
    not_banned(state, identity, ip).await?;
    if let Some(until) = sanction(state, identity, ip, "mute").await? {
        let message = match until {
            Some(t) => format!(
                "a moderator has muted you: you cannot chat for another {} minutes",
                ((t - now()).max(0) + 59_999) / 60_000
            ),
            None => "a moderator has muted you: you cannot chat".to_owned(),
        };
        return Err(RoomError::new(code::MUTED, message));
    }
    blocked_by_seated(state, identity, room).await
}

/// A room where a seated player blocked `identity` is closed to it (it would read their chat): `blocked`.
pub async fn join(
    state: &AppState,
    identity: &Identity,
    ip: IpAddr,
    room: &RoomHandle,
) -> Result<(), RoomError> {
    if identity.is_computer() {
        return Ok(());
    }
    not_banned(state, identity, ip).await?;
    blocked_by_seated(state, identity, room).await
}

async fn blocked_by_seated(
    state: &AppState,
    identity: &Identity,
    room: &RoomHandle,
) -> Result<(), RoomError> {
    let (Some(me), Some(tables)) = (identity.user_id, state.store.community()) else {
        return Ok(());
    };
    for seated in seated_users(state, room).await {
        if seated != me && tables.blocks(seated, me).await.map_err(internal)? {
            return Err(RoomError::new(
                code::BLOCKED,
                "you cannot chat or watch in this player's rooms",
            ));
        }
    }
    Ok(())
}

/// Whether `identity` may challenge the account `to`: not when `to` blocked it (`blocked`), nor when banned.
pub async fn challenge(
    state: &AppState,
    identity: &Identity,
    ip: IpAddr,
    to: store::UserId,
) -> Result<(), RoomError> {
    not_banned(state, identity, ip).await?;
    let (Some(me), Some(tables)) = (identity.user_id, state.store.community()) else {
        return Ok(());
    };
    if tables.blocks(to, me).await.map_err(internal)? {
        return Err(RoomError::new(
            code::BLOCKED,
            "this player takes no challenges from you",
        ));
    }
    Ok(())
}

/// The identity keys quick pairing must never pair `identity` with: everyone it blocks or is blocked by.
pub async fn unpairable(
    state: &AppState,
    identity: &Identity,
    ip: IpAddr,
) -> Result<Vec<String>, RoomError> {
    not_banned(state, identity, ip).await?;
    let (Some(me), Some(tables)) = (identity.user_id, state.store.community()) else {
        return Ok(Vec::new());
    };
    Ok(tables
        .block_relations(me)
        .await
        .map_err(internal)?
        .into_iter()
        .map(|id| format!("u{id}"))
        .collect())
}

/// Keeps a chat line about to be said (the evidence of reports, a player's own data), before the room sends it,
/// so a report made as soon as anyone reads it finds it; answers its id, for [`refused`] when the room then
/// refuses the line. A failure to keep it is logged: the line is said anyway.
pub async fn saying(
    state: &AppState,
    identity: &Identity,
    ip: IpAddr,
    room: &str,
    text: &str,
) -> Option<i64> {
    if identity.is_computer() {
        return None;
    }
    let text = crate::room::clean_chat(text).ok()?;
    let tables = super::tables(state.store.as_ref()).ok()?;
    let range = identity
        .user_id
        .is_none()
        .then(|| super::range_of(&state.config, ip));
    match tables
        .add_chat_line(
            room,
            identity.user_id,
            &identity.name,
            &text,
            range.as_deref(),
            now(),
        )
        .await
    {
        Ok(id) => Some(id),
        Err(e) => {
            tracing::warn!(error = %e, "could not keep a chat line");
            None
        }
    }
}

/// The room refused a line [`saying`] kept: it is forgotten.
pub async fn refused(state: &AppState, line: Option<i64>) {
    let (Some(id), Ok(tables)) = (line, super::tables(state.store.as_ref())) else {
        return;
    };
    if let Err(e) = tables.forget_chat_line(id).await {
        tracing::warn!(error = %e, "could not forget a refused chat line");
    }
}
