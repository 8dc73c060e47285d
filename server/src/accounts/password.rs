//! Password rules and hashing: argon2id, run on the blocking pool (it takes tens of milliseconds of CPU and
//! megabytes of memory by design), a bounded number at once and in fair turns per client address
//! ([`super::hash_queue`]), so a flood of logins can neither exhaust memory nor keep a real login waiting.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::{Arc, LazyLock};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::Rng;
use tokio::sync::OnceCell;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use super::error::ApiError;
use super::hash_queue::{HashQueue, Refused, RETRY_AFTER};

/// Fewest characters in a password (zero-width characters do not count).
pub const MIN_LEN: usize = 8;
/// Most bytes in a password: enough for any passphrase, small enough that hashing stays cheap to refuse.
pub const MAX_BYTES: usize = 1024;

/// The embedded list of common passwords ([`validate`] refuses them).
const COMMON: &str = include_str!("common-passwords.txt");

fn common() -> &'static HashSet<&'static str> {
    static SET: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
        COMMON
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    });
    &SET
}

/// The form in which a password is hashed: Unicode NFKC, so that the same password typed on another keyboard or
/// system (composed or decomposed accents, full-width digits) is the same password.
pub fn normalize(password: &str) -> String {
    password.nfkc().collect()
}

/// Whether a character shows nothing: format characters such as the zero-width space and joiners, and the other
/// default-ignorable fillers and selectors.
fn invisible(c: char) -> bool {
    c.general_category() == GeneralCategory::Format
        || matches!(c,
            '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
            | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FFA0}' | '\u{E0100}'..='\u{E01EF}')
}

/// Checks a new password against the rules and returns the form to hash ([`normalize`]). Refused: more than
/// [`MAX_BYTES`]; control characters, or nothing but spaces and invisible characters (`invalid_password`); fewer
/// than [`MIN_LEN`] characters, not counting invisible ones (`weak_password`); one of the most common passwords
/// (`common_password`). No composition rules: they do not make passwords stronger.
pub fn validate(password: &str) -> Result<String, ApiError> {
    if password.len() > MAX_BYTES {
        return Err(ApiError::PasswordTooLong(MAX_BYTES));
    }
    let normalized = normalize(password);
    let blank = !normalized.is_empty()
        && normalized
            .chars()
            .all(|c| c.is_whitespace() || invisible(c));
    if blank || normalized.chars().any(char::is_control) {
        return Err(ApiError::InvalidPassword);
    }
    if normalized.chars().filter(|&c| !invisible(c)).count() < MIN_LEN {
        return Err(ApiError::WeakPassword(MIN_LEN));
    }
    if common().contains(normalized.to_lowercase().as_str()) {
        return Err(ApiError::CommonPassword);
    }
    Ok(normalized)
}

/// The forms of a password to try at login, newest first: the normalised one (what hashes are made of now), then
/// the password as typed when that differs, because hashes made before normalisation were made of that.
pub fn login_forms(password: &str) -> Vec<String> {
    let normalized = normalize(password);
    if normalized == password {
        vec![normalized]
    } else {
        vec![normalized, password.to_owned()]
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

/// Hashes and verifies passwords off the async threads, each in its client address's turn ([`HashQueue`]).
#[derive(Clone)]
pub struct Hasher {
    cost: HashCost,
    queue: Arc<HashQueue>,
    /// A hash of a random password, verified against when the user does not exist, so an unknown name costs
    /// the same time as a wrong password and timing does not reveal which names are registered.
    decoy: Arc<OnceCell<String>>,
}

impl Hasher {
    /// A hasher with this cost, taking turns in `queue`.
    pub fn new(cost: HashCost, queue: Arc<HashQueue>) -> Hasher {
        Hasher {
            cost,
            queue,
            decoy: Arc::new(OnceCell::new()),
        }
    }

    /// A hasher with a queue of its own that hashes one at a time (for tools and tests: the server's share one
    /// queue).
    pub fn standalone(cost: HashCost) -> Hasher {
        Hasher::new(
            cost,
            HashQueue::new(super::hash_queue::HashLimits {
                running: 1,
                per_address: usize::MAX,
                queued: usize::MAX,
            }),
        )
    }

    /// The argon2id PHC string of `password` with a fresh random salt, hashed in `client`'s turn.
    pub async fn hash(&self, client: IpAddr, password: &str) -> Result<String, ApiError> {
        let cost = self.cost;
        let password = password.to_owned();
        self.blocking(client, move || hash_now(cost, &password))
            .await?
    }

    /// Whether `password` matches the stored PHC string, checked in `client`'s turn. A malformed stored hash
    /// counts as no match (and is logged: it means the database holds something we did not write).
    pub async fn verify(
        &self,
        client: IpAddr,
        password: &str,
        phc: &str,
    ) -> Result<bool, ApiError> {
        let password = password.to_owned();
        let phc = phc.to_owned();
        self.blocking(client, move || verify_now(&password, &phc))
            .await
    }

    /// Spends the time of a verification without a user to verify against (see `decoy`).
    pub async fn verify_decoy(&self, client: IpAddr, password: &str) -> Result<(), ApiError> {
        let decoy = self
            .decoy
            .get_or_try_init(|| async {
                let random: [u8; 16] = rand::rng().random();
                self.hash(client, &format!("{random:?}")).await
            })
            .await?
            .clone();
        self.verify(client, password, &decoy).await.map(|_| ())
    }

    async fn blocking<T: Send + 'static>(
        &self,
        client: IpAddr,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self
            .queue
            .acquire(client)
            .await
            .map_err(|refused| match refused {
                Refused::Address => ApiError::RateLimited(RETRY_AFTER),
                Refused::Full => ApiError::Busy(RETRY_AFTER),
            })?;
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
            HashQueue::new(super::super::hash_queue::HashLimits {
                running: 2,
                per_address: 2,
                queued: 8,
            }),
        )
    }

    const CLIENT: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    fn code(password: &str) -> &'static str {
        validate(password).unwrap_err().code()
    }

    #[test]
    fn passwords_of_at_least_eight_characters_pass() {
        assert_eq!(validate("gomoku-fan").unwrap(), "gomoku-fan");
        assert!(
            validate("пароль-ok").is_ok(),
            "characters, not bytes, count"
        );
        assert!(validate("two words").is_ok(), "spaces are fine inside");
        assert_eq!(code("1234567"), "weak_password");
        assert_eq!(code(""), "weak_password");
        assert!(validate(&"x".repeat(MAX_BYTES)).is_ok());
        assert_eq!(code(&"x".repeat(MAX_BYTES + 1)), "password_too_long");
    }

    #[test]
    fn the_most_common_passwords_are_refused_in_any_case() {
        for password in [
            "12345678",
            "password",
            "PassWord1",
            "qwertyuiop",
            "iloveyou",
        ] {
            assert_eq!(code(password), "common_password", "{password}");
        }
        assert_eq!(
            code("\u{FF11}\u{FF12}\u{FF13}\u{FF14}\u{FF15}\u{FF16}\u{FF17}\u{FF18}"),
            "common_password",
            "full-width 12345678 is 12345678 after NFKC"
        );
        assert!(common().len() > 100);
        assert!(
            common().iter().all(|p| p.chars().count() >= MIN_LEN),
            "shorter ones are refused anyway"
        );
    }

    #[test]
    fn control_and_invisible_only_passwords_are_refused() {
        for password in [
            " ".repeat(8),
            "\0".repeat(8),
            "\u{200B}".repeat(8),
            "\u{200D}\u{FEFF}\u{2060}\u{3164} \u{00A0}\u{200C}\u{180E}".to_owned(),
            "tab\tinside-it".to_owned(),
            "new\nline-here".to_owned(),
        ] {
            assert_eq!(code(&password), "invalid_password", "{password:?}");
        }
    }

    #[test]
    fn zero_width_characters_do_not_count_toward_the_length() {
        assert_eq!(code("abcdefg\u{200B}"), "weak_password");
        assert!(validate("abcdefgh\u{200B}").is_ok());
    }

    #[test]
    fn passwords_are_hashed_in_nfkc() {
        let composed = "caf\u{E9}-au-lait";
        let decomposed = "cafe\u{301}-au-lait";
        assert_eq!(validate(decomposed).unwrap(), composed);
        assert_eq!(
            normalize("\u{FB01}ve-fingers"),
            "five-fingers",
            "the fi ligature"
        );
        assert_eq!(login_forms(composed), vec![composed.to_owned()]);
        assert_eq!(
            login_forms(decomposed),
            vec![composed.to_owned(), decomposed.to_owned()],
            "a hash made before normalisation was made of the password as typed"
        );
    }

    #[tokio::test]
    async fn a_hash_is_argon2id_salted_and_verifies_only_its_password() {
        let hasher = cheap();
        let a = hasher.hash(CLIENT, "correct horse").await.unwrap();
        let b = hasher.hash(CLIENT, "correct horse").await.unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(!a.contains("correct horse"));
        assert!(hasher.verify(CLIENT, "correct horse", &a).await.unwrap());
        assert!(!hasher.verify(CLIENT, "correct horsf", &a).await.unwrap());
    }

    #[tokio::test]
    async fn a_malformed_stored_hash_matches_nothing() {
        assert!(!cheap()
            .verify(CLIENT, "anything", "not a phc string")
            .await
            .unwrap());
    }

    #[tokio::test]
    async fn the_decoy_verification_succeeds_without_a_user() {
        let hasher = cheap();
        hasher.verify_decoy(CLIENT, "whatever1").await.unwrap();
        hasher.verify_decoy(CLIENT, "whatever2").await.unwrap();
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
