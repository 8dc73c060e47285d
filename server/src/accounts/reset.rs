//! Password reset without mail (issue #35): an operator issues a one-time code from the command line
//! (`server reset-password NAME`, [`issue`]) and passes it to the player by whatever channel they trust; the
//! player spends it at `POST /api/password/reset` with a new password.
//!
//! A code is 80 random bits, shown as 16 characters of Crockford's base32 in groups of four (`7KQ2-M9XD-…`),
//! read back ignoring case, dashes and spaces, with `O` as `0` and `I`/`L` as `1`. The store keeps only its
//! SHA-256, one code per account (a newer one replaces it), and deletes it when it is spent and whenever the
//! password changes; an expired code just stops working. Attempts are limited
//! like logins, by the same buckets (`Accounts::admit_login`); an unknown name, a wrong code, a spent one and
//! an expired one get the same answer. A successful reset ends every session of the account.

use std::fmt;
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use rand::Rng;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use store::Store;

use super::change::ChangedView;
use super::error::ApiError;
use super::{password, username, Accounts, ClientIp};

/// How long a code stays valid unless the operator says otherwise (`--valid-mins`).
pub const DEFAULT_VALID_MINS: u64 = 60;

/// Characters of a code: Crockford's base32 (no `I`, `L`, `O`, `U`).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters in a code (5 bits each: 80 bits).
const CODE_LEN: usize = 16;

/// A fresh code, grouped for reading aloud: `XXXX-XXXX-XXXX-XXXX`.
fn new_code() -> String {
    let mut rng = rand::rng();
    let chars: Vec<char> = (0..CODE_LEN)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect();
    chars
        .chunks(4)
        .map(|group| group.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// The canonical form of a typed code: upper case, without dashes and spaces, `O` read as `0` and `I`/`L` as
/// `1`; `None` when it cannot be a code (so nothing is looked up).
fn canonical(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        })
        .collect();
    (code.len() == CODE_LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

/// The only form in which a code is stored.
fn hash(canonical: &str) -> Vec<u8> {
    Sha256::digest(canonical.as_bytes()).to_vec()
}

/// A code just issued, to show the operator.
#[derive(Clone)]
pub struct Issued {
    /// The account's name as registered.
    pub name: String,
    /// The code, in clear: shown once, never stored.
    pub code: String,
    /// When it stops working (milliseconds since the Unix epoch).
    pub expires_at: i64,
}

impl fmt::Debug for Issued {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Issued")
            .field("name", &self.name)
            .field("code", &"***")
            .field("expires_at", &self.expires_at)
            .finish()
    }
}

/// Issues a reset code for the account `name` (any case), valid for `valid_for` from `now` (milliseconds since
/// the Unix epoch); it replaces any earlier code of the account. `not_found` for an unknown name.
pub async fn issue(
    store: &dyn Store,
    name: &str,
    valid_for: Duration,
    now: i64,
) -> Result<Issued, ApiError> {
    let user = store.user_by_name(name).await?.ok_or(ApiError::NotFound)?;
    let code = new_code();
    let canonical = canonical(&code).expect("a fresh code is well formed");
    let expires_at = now.saturating_add(i64::try_from(valid_for.as_millis()).unwrap_or(i64::MAX));
    store
        .create_password_reset(user.id, &hash(&canonical), expires_at)
        .await?;
    tracing::info!(user = %user.name, expires_at, "password reset code issued");
    Ok(Issued {
        name: user.name,
        code,
        expires_at,
    })
}

/// The body of `POST /api/password/reset`. `Debug` hides the code and the password.
#[derive(Deserialize)]
pub struct PasswordReset {
    /// The account's name.
    pub username: String,
    /// The code the operator gave.
    pub code: String,
    /// The password wanted from now on.
    pub new_password: String,
}

impl fmt::Debug for PasswordReset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PasswordReset")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// Sets a new password with a reset code: `200` with how many sessions ended (all of the account's; the player
/// then signs in); `400 invalid_reset_code` for an unknown name or a wrong, spent or expired code, `429
/// rate_limited`, or the registration rules' `400`s for the new password (which leave the code unspent).
pub async fn reset_password(
    State(accounts): State<Accounts>,
    ClientIp(ip): ClientIp,
    body: Result<Json<PasswordReset>, JsonRejection>,
) -> Result<Json<ChangedView>, ApiError> {
    let Json(reset) = body.map_err(|e| ApiError::InvalidBody(e.body_text()))?;
    let new = password::validate(&reset.new_password)?;
    let attempt = accounts.admit_login(ip, &reset.username).await?;
    let code = canonical(&reset.code);
    let user = match (username::validate(&reset.username), &code) {
        (Ok(name), Some(_)) => accounts.store().user_by_name(&name).await?,
        _ => None,
    };
    let spent = match (&user, &code) {
        (Some(user), Some(code)) => {
            accounts
                .store()
                .take_password_reset(user.id, &hash(code), accounts.now_ms())
                .await?
        }
        _ => false,
    };
    let Some(user) = user.filter(|_| spent) else {
        attempt.failed().await;
        tracing::info!("password reset refused: wrong name or code");
        return Err(ApiError::InvalidResetCode);
    };
    attempt.succeeded().await;
    // The code is spent before hashing: should hashing fail, the operator issues another.
    let hash = accounts.inner.hasher.hash(ip, &new).await?;
    let revoked = accounts.set_password(user.id, &hash, None).await?;
    tracing::info!(user = %user.name, revoked, "password reset with a code");
    Ok(Json(ChangedView { revoked }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_sixteen_base32_characters_in_groups_of_four() {
        let code = new_code();
        assert_eq!(code.len(), 19, "{code}");
        assert_eq!(code.matches('-').count(), 3, "{code}");
        assert!(canonical(&code).is_some(), "{code}");
        assert_ne!(new_code(), new_code());
    }

    #[test]
    fn a_typed_code_is_read_ignoring_case_dashes_spaces_and_look_alikes() {
        let canonical_form = canonical("7KQ2-M9XD-0A1B-CDEF").unwrap();
        assert_eq!(canonical_form, "7KQ2M9XD0A1BCDEF");
        assert_eq!(
            canonical(" 7kq2 m9xd oaib cdef ").as_deref(),
            Some("7KQ2M9XD0A1BCDEF")
        );
        assert_eq!(
            canonical("7kq2-m9xd-0alb-cdef").as_deref(),
            Some("7KQ2M9XD0A1BCDEF")
        );
        assert_eq!(canonical("7KQ2-M9XD-0A1B-CDE"), None, "too short");
        assert_eq!(
            canonical("7KQ2-M9XD-0A1B-CDEU"),
            None,
            "not in the alphabet"
        );
        assert_eq!(canonical(""), None);
    }
}
