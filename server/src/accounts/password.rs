//! Password rules and hashing: argon2id, run on the blocking pool (it takes tens of milliseconds of CPU and
//! megabytes of memory by design), with a cap on how many hashes run at once so a flood of logins cannot
//! exhaust memory.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::Rng;
use tokio::sync::{OnceCell, Semaphore};

use super::error::ApiError;

/// Fewest characters in a password.
pub const MIN_LEN: usize = 8;
/// Most bytes in a password: enough for any passphrase, small enough that hashing stays cheap to refuse.
pub const MAX_BYTES: usize = 1024;

/// Checks a new password against the rules (length only: composition rules do not make passwords stronger).
pub fn validate(password: &str) -> Result<(), ApiError> {
    if password.chars().count() < MIN_LEN {
        Err(ApiError::WeakPassword(MIN_LEN))
    } else if password.len() > MAX_BYTES {
        Err(ApiError::PasswordTooLong(MAX_BYTES))
    } else {
        Ok(())
    }
}

/// The cost of argon2id. The defaults are OWASP's recommendation (19 MiB, 2 passes, 1 lane).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashCost {
    /// Memory in KiB.
    pub memory_kib: u32,
    /// Passes over the memory.
    pub iterations: u32,
    /// Lanes.
    pub parallelism: u32,
}

impl Default for HashCost {
    fn default() -> HashCost {
        HashCost {
            memory_kib: Params::DEFAULT_M_COST,
            iterations: Params::DEFAULT_T_COST,
            parallelism: Params::DEFAULT_P_COST,
        }
    }
}

/// Hashes and verifies passwords off the async threads.
#[derive(Clone)]
pub struct Hasher {
    cost: HashCost,
    permits: Arc<Semaphore>,
    /// A hash of a random password, verified against when the user does not exist, so an unknown name costs
    /// the same time as a wrong password and timing does not reveal which names are registered.
    decoy: Arc<OnceCell<String>>,
}

impl Hasher {
    /// A hasher with this cost, running at most `concurrent` hashes at once.
    pub fn new(cost: HashCost, concurrent: usize) -> Hasher {
        Hasher {
            cost,
            permits: Arc::new(Semaphore::new(concurrent.max(1))),
            decoy: Arc::new(OnceCell::new()),
        }
    }

    /// The argon2id PHC string of `password` with a fresh random salt.
    pub async fn hash(&self, password: &str) -> Result<String, ApiError> {
        let cost = self.cost;
        let password = password.to_owned();
        self.blocking(move || hash_now(cost, &password)).await?
    }

    /// Whether `password` matches the stored PHC string. A malformed stored hash counts as no match (and is
    /// logged: it means the database holds something we did not write).
    pub async fn verify(&self, password: &str, phc: &str) -> Result<bool, ApiError> {
        let password = password.to_owned();
        let phc = phc.to_owned();
        self.blocking(move || verify_now(&password, &phc)).await
    }

    /// Spends the time of a verification without a user to verify against (see `decoy`).
    pub async fn verify_decoy(&self, password: &str) -> Result<(), ApiError> {
        let decoy = self
            .decoy
            .get_or_try_init(|| async {
                let random: [u8; 16] = rand::rng().random();
                self.hash(&format!("{random:?}")).await
            })
            .await?
            .clone();
        self.verify(password, &decoy).await.map(|_| ())
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|e| ApiError::Internal(format!("hash permits closed: {e}")))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::Internal(format!("hashing task failed: {e}")))
    }
}

fn argon2(cost: HashCost) -> Result<Argon2<'static>, ApiError> {
    let params = Params::new(cost.memory_kib, cost.iterations, cost.parallelism, None)
        .map_err(|e| ApiError::Internal(format!("argon2 parameters: {e}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

fn hash_now(cost: HashCost, password: &str) -> Result<String, ApiError> {
    let salt_bytes: [u8; 16] = rand::rng().random();
    let salt = SaltString::encode_b64(&salt_bytes)
        .map_err(|e| ApiError::Internal(format!("salt: {e}")))?;
    argon2(cost)?
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("argon2 hash: {e}")))
}

fn verify_now(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        // The parameters come from the stored string, so hashes made under an older cost still verify.
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(e) => {
            tracing::error!(error = %e, "stored password hash is malformed");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cheap() -> Hasher {
        Hasher::new(
            HashCost {
                memory_kib: 64,
                iterations: 1,
                parallelism: 1,
            },
            2,
        )
    }

    #[test]
    fn passwords_of_at_least_eight_characters_pass() {
        assert!(validate("12345678").is_ok());
        assert!(
            validate("пароль-ok").is_ok(),
            "characters, not bytes, count"
        );
        assert_eq!(validate("1234567").unwrap_err().code(), "weak_password");
        assert_eq!(validate("").unwrap_err().code(), "weak_password");
        assert_eq!(
            validate(&"x".repeat(MAX_BYTES + 1)).unwrap_err().code(),
            "password_too_long"
        );
    }

    #[tokio::test]
    async fn a_hash_is_argon2id_salted_and_verifies_only_its_password() {
        let hasher = cheap();
        let a = hasher.hash("correct horse").await.unwrap();
        let b = hasher.hash("correct horse").await.unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(!a.contains("correct horse"));
        assert!(hasher.verify("correct horse", &a).await.unwrap());
        assert!(!hasher.verify("correct horsf", &a).await.unwrap());
    }

    #[tokio::test]
    async fn a_malformed_stored_hash_matches_nothing() {
        assert!(!cheap()
            .verify("anything", "not a phc string")
            .await
            .unwrap());
    }

    #[tokio::test]
    async fn the_decoy_verification_succeeds_without_a_user() {
        let hasher = cheap();
        hasher.verify_decoy("whatever1").await.unwrap();
        hasher.verify_decoy("whatever2").await.unwrap();
    }

    #[test]
    fn the_default_cost_is_owasps() {
        assert_eq!(
            HashCost::default(),
            HashCost {
                memory_kib: 19 * 1024,
                iterations: 2,
                parallelism: 1
            }
        );
    }
}
