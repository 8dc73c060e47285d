//! Follow notifications (issue #38): when a followed player starts a public game, each follower connected to this
//! node gets `friend_playing` on every connection, with the room to watch.
//!
//! The lobby tells this task of every public room that starts a game (`LobbyHandle::started`), on every node of a
//! cluster alike (each node's lobby hears of every node's public rooms), so each node tells its own connections and
//! no follower hears twice. Private games are never announced. A player who hides their games from followers
//! (`share_games = false`) is not announced, nor to a follower they block.

use protocol::{encode, LobbyRoom, ServerMessage};

use crate::AppState;

/// The account id of a lobby player's identity key (`u42`), if an account's.
fn account(key: &str) -> Option<store::UserId> {
    key.strip_prefix('u')?.parse().ok()
}

/// Starts the task; it ends with the lobby.
pub fn start(state: AppState) {
    let mut started = state.lobby.started();
    tokio::spawn(async move {
        while let Some(room) = started.recv().await {
            tell_followers(&state, &room).await;
        }
    });
}

async fn tell_followers(state: &AppState, room: &LobbyRoom) {
    let Some(tables) = state.store.community() else {
        return;
    };
    for player in &room.players {
        let Some(id) = account(&player.id) else {
            continue;
        };
        let followers = match tables.followers_to_tell(id).await {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(error = %e, "could not read followers");
                continue;
            }
        };
        let here = state.presence.online_of(&followers);
        if here.is_empty() {
            continue;
        }
        let opponent = room
            .players
            .iter()
            .find(|p| p.id != player.id)
            .map(|p| p.name.clone())
            .unwrap_or_default();
        let frame = encode(
            &ServerMessage::FriendPlaying {
                player: player.name.clone(),
                room: room.id.clone(),
                opponent,
            },
            None,
        )
        .into();
        for follower in here {
            // Blocking someone also hides one's games from them.
            if matches!(tables.blocks(id, follower).await, Ok(false)) {
                state.presence.tell(follower, &frame);
            }
        }
    }
}
