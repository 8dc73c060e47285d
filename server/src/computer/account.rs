//! The computer's accounts: one registered user per level, `computer-1` … `computer-8`, each with a session the
//! computer's connections say hello with. They are accounts like any other (a user id in every game record),
//! flagged by their reserved names: people cannot register a name that starts with `computer-` or `computer_`
//! (`accounts::username`), and only a user (not a guest) of such a name with a level in 1–8 counts as the computer.

use std::sync::Arc;

use store::{SessionOwner, Store, StoreError, UserId};

use crate::identity::{hash_token, new_token};

/// The lowest level.
pub const MIN_LEVEL: u8 = 1;
/// The highest level.
pub const MAX_LEVEL: u8 = 8;

/// What the computer's accounts are named before their level.
pub const NAME_PREFIX: &str = "computer-";

/// The stored password of a computer account: not a PHC string, so no password ever verifies against it.
const NO_PASSWORD: &str = "!computer";

/// What external engines' accounts are named before the engine's name.
pub const ENGINE_PREFIX: &str = "engine-";

/// The account name of an external engine.
pub fn engine_account(name: &str) -> String {
    format!("{ENGINE_PREFIX}{name}")
}

/// The external engine's name of a seated player: a registered user named `engine-NAME`.
pub fn engine_of(name: &str, user_id: Option<UserId>) -> Option<String> {
    user_id.and(
        name.strip_prefix(ENGINE_PREFIX)
            .filter(|n| !n.is_empty())
            .map(str::to_owned),
    )
}

/// The account name of a level.
pub fn name_of(level: u8) -> String {
    format!("{NAME_PREFIX}{level}")
}

/// The computer's level when `name` is a computer account's name (the caller checks that it is a user's).
pub fn level_of_name(name: &str) -> Option<u8> {
    let level: u8 = name.strip_prefix(NAME_PREFIX)?.parse().ok()?;
    (MIN_LEVEL..=MAX_LEVEL)
        .contains(&level)
        .then_some(level)
        .filter(|l| name_of(*l) == name)
}

/// The computer's level of a seated player: a registered user with a computer account's name.
pub fn level_of(name: &str, user_id: Option<UserId>) -> Option<u8> {
    user_id.and(level_of_name(name))
}

/// One level's (or external engine's) account and the token its connections resume it with.
#[derive(Clone)]
pub struct Account {
    /// The level (0 for an external engine's account).
    pub level: u8,
    /// The account's name.
    pub name: String,
    /// The user.
    pub user_id: UserId,
    /// A session token of the account (kept in memory only; a new one each start).
    pub token: String,
}

impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Account")
            .field("level", &self.level)
            .field("user_id", &self.user_id)
            .finish_non_exhaustive()
    }
}

/// Makes sure every level has its account, and gives each a fresh session (the sessions of an earlier start are
/// removed). `now` is the store's time in Unix milliseconds.
pub async fn ensure(store: &Arc<dyn Store>, now: i64) -> Result<Vec<Account>, StoreError> {
    let names: Vec<(u8, String)> = (MIN_LEVEL..=MAX_LEVEL).map(|l| (l, name_of(l))).collect();
    ensure_named(store, &names, now).await
}

/// The same for accounts of the given names (the level is 0 for an external engine's).
pub async fn ensure_named(
    store: &Arc<dyn Store>,
    names: &[(u8, String)],
    now: i64,
) -> Result<Vec<Account>, StoreError> {
    let mut accounts = Vec::new();
    for (level, name) in names {
        let (level, name) = (*level, name.clone());
        let user = match store.user_by_name(&name).await? {
            Some(user) => user,
            None => match store.create_user(&name, NO_PASSWORD, now).await {
                Ok(user) => user,
                // Another server on the same database made it meanwhile.
                Err(StoreError::UsernameTaken) => store
                    .user_by_name(&name)
                    .await?
                    .ok_or(StoreError::UsernameTaken)?,
                Err(e) => return Err(e),
            },
        };
        if user.password_hash != NO_PASSWORD {
            tracing::warn!(%name, "a computer account's name is held by an account with a password");
        }
        store.delete_user_sessions(user.id).await?;
        let token = new_token();
        store
            .create_session(
                &hash_token(&token),
                &SessionOwner::User(user.clone()),
                i64::MAX / 2,
            )
            .await?;
        accounts.push(Account {
            level,
            name: name.clone(),
            user_id: user.id,
            token,
        });
    }
    Ok(accounts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_eight_level_names_are_computer_names() {
        for level in 1..=8 {
            assert_eq!(level_of_name(&name_of(level)), Some(level));
            assert_eq!(level_of(&name_of(level), Some(3)), Some(level));
            assert_eq!(
                level_of(&name_of(level), None),
                None,
                "a guest is never the computer"
            );
        }
        for name in [
            "computer-0",
            "computer-9",
            "computer-08",
            "computer-+1",
            "computer-",
            "Computer-1",
            "computerfan",
        ] {
            assert_eq!(level_of_name(name), None, "{name}");
        }
    }

    #[tokio::test]
    async fn the_accounts_are_made_once_and_get_fresh_tokens_each_start() {
        let dir = tempfile::tempdir().unwrap();
        let store = store::open(&dir.path().join("t.db").to_string_lossy())
            .await
            .unwrap();
        let first = ensure(&store, 0).await.unwrap();
        let again = ensure(&store, 0).await.unwrap();
        assert_eq!(first.len(), 8);
        for (a, b) in first.iter().zip(&again) {
            assert_eq!(a.user_id, b.user_id, "the same account");
            assert_ne!(a.token, b.token, "a fresh session");
        }
        let owner = store
            .session(&hash_token(&again[4].token), 1)
            .await
            .unwrap();
        assert!(matches!(owner, Some(SessionOwner::User(u)) if u.name == "computer-5"));
    }
}
