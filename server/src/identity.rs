//! Who a connection is: a guest bound to a random token, or (with accounts) a registered user.

use std::sync::Arc;

use base64::Engine;
use rand::Rng;
use sha2::{Digest, Sha256};
use store::{PlayerRef, SessionOwner, Store, StoreError, UserId};

use crate::time::unix_ms;

/// A player as the server knows them. Guests have no `user_id`; accounts set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Display name (`guest-…` for guests).
    pub name: String,
    /// Set for registered users.
    pub user_id: Option<UserId>,
}

impl Identity {
    /// Whether this is a guest.
    pub fn is_guest(&self) -> bool {
        self.user_id.is_none()
    }

    /// A key that is equal for the same player and different for different ones (names of users and guests
    /// live in separate spaces).
    pub fn key(&self) -> String {
        match self.user_id {
            Some(id) => format!("u{id}"),
            None => format!("g{}", self.name),
        }
    }

    /// As stored in a game record.
    pub fn player_ref(&self) -> PlayerRef {
        PlayerRef {
            name: self.name.clone(),
            user_id: self.user_id,
        }
    }

    /// From a game record's player.
    pub fn from_player_ref(p: &PlayerRef) -> Identity {
        Identity {
            name: p.name.clone(),
            user_id: p.user_id,
        }
    }
}

/// SHA-256 of a session token: the only form in which tokens are stored.
pub fn hash_token(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// A fresh random token (256 bits, URL-safe base64).
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Issues and resumes identities through the store's sessions.
#[derive(Clone)]
pub struct Identities {
    store: Arc<dyn Store>,
    guest_ttl_ms: i64,
}

impl Identities {
    /// Identities backed by `store`; guest tokens expire after `guest_days`.
    pub fn new(store: Arc<dyn Store>, guest_days: u64) -> Identities {
        Identities {
            store,
            guest_ttl_ms: guest_days as i64 * 24 * 3600 * 1000,
        }
    }

    /// The identity an unexpired token stands for.
    pub async fn resume(&self, token: &str) -> Result<Option<Identity>, StoreError> {
        Ok(
            match self.store.session(&hash_token(token), unix_ms()).await? {
                Some(SessionOwner::Guest(name)) => Some(Identity {
                    name,
                    user_id: None,
                }),
                Some(SessionOwner::User(user)) => Some(Identity {
                    name: user.name,
                    user_id: Some(user.id),
                }),
                None => None,
            },
        )
    }

    /// A new guest (`guest-` and six random letters or digits) with its token.
    pub async fn new_guest(&self) -> Result<(Identity, String), StoreError> {
        const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
        let suffix: String = {
            let mut rng = rand::rng();
            (0..6)
                .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
                .collect()
        };
        let name = format!("guest-{suffix}");
        let token = new_token();
        self.store
            .create_session(
                &hash_token(&token),
                &SessionOwner::Guest(name.clone()),
                unix_ms() + self.guest_ttl_ms,
            )
            .await?;
        Ok((
            Identity {
                name,
                user_id: None,
            },
            token,
        ))
    }
}
