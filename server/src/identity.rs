//! Who a connection is: a guest bound to a random token, or (with accounts) a registered user; and how new
//! guests are made: a unique id each, a name no other live guest holds, a short first session, and a limit on how
//! many one address may make.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use rand::Rng;
use sha2::{Digest, Sha256};
use store::{Guest, Millis, PlayerRef, SessionOwner, Store, StoreError, UserId};

use crate::accounts::rate_limit::{Limit, RateLimiter};
use crate::time::{unix_ms, Clock};
use crate::Config;

/// A player as the server knows them. Guests have no `user_id`; accounts set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The player's unique id: `u` and the user id for registered users, `g` and the guest's random id for guests.
    /// Seats, room membership and per-player limits go by it, never by the name.
    pub id: String,
    /// Display name (`guest-…` for guests; unique among live guests, but reused once its holder expired).
    pub name: String,
    /// Set for registered users.
    pub user_id: Option<UserId>,
}

impl Identity {
    /// A registered user.
    pub fn user(user_id: UserId, name: String) -> Identity {
        Identity {
            id: format!("u{user_id}"),
            name,
            user_id: Some(user_id),
        }
    }

    /// A guest, as its session stores it.
    pub fn guest(guest: &Guest) -> Identity {
        Identity {
            id: format!("g{}", guest.id),
            name: guest.name.clone(),
            user_id: None,
        }
    }

    /// The computer's level when this is one of the computer's accounts (`computer::account`).
    pub fn computer_level(&self) -> Option<u8> {
        crate::computer::account::level_of(&self.name, self.user_id)
    }

    /// The external engine's name when this is an external engine's account.
    pub fn engine_name(&self) -> Option<String> {
        crate::computer::account::engine_of(&self.name, self.user_id)
    }

    /// Whether the computer plays under this identity (one of its levels, or an external engine).
    pub fn is_computer(&self) -> bool {
        self.computer_level().is_some() || self.engine_name().is_some()
    }

    /// Whether this is a guest.
    pub fn is_guest(&self) -> bool {
        self.user_id.is_none()
    }

    /// A key that is equal for the same player and different for different ones: the id.
    pub fn key(&self) -> String {
        self.id.clone()
    }

    /// As stored in a game record.
    pub fn player_ref(&self) -> PlayerRef {
        PlayerRef {
            name: self.name.clone(),
            user_id: self.user_id,
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

/// A fresh guest id: 80 random bits as 20 lower-case hex digits (the form the migration gave older guests).
fn new_guest_id() -> String {
    let bytes: [u8; 10] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A guest name: `guest-` and six random letters or digits (30 bits; [`Identities::new_guest`] draws again while
/// a live guest holds the one drawn).
fn random_guest_name() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    let suffix: String = (0..6)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    format!("guest-{suffix}")
}

/// How many names a new guest draws before giving up: with 2^30 names, eight all held would take a billion live
/// guests.
const NAME_DRAWS: usize = 8;

/// Why no new guest was made.
#[derive(Debug, thiserror::Error)]
pub enum NewGuestError {
    /// The address made as many new guests as it may for now; one more is allowed after the wait.
    #[error("too many new guests from this address; try again in {} s", .0.as_secs().max(1))]
    RateLimited(Duration),
    /// Every name drawn was held by a live guest.
    #[error("no free guest name was found")]
    NoFreeName,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Draws guest names (random; a test may fix the sequence to force collisions).
type NameSource = Arc<dyn Fn() -> String + Send + Sync>;

/// Issues and resumes identities through the store's sessions.
#[derive(Clone)]
pub struct Identities {
    store: Arc<dyn Store>,
    clock: Clock,
    /// An instant of `clock` and the Unix milliseconds at it: session times follow the injected clock, so tests
    /// can let sessions expire.
    epoch: (Instant, Millis),
    guest_ttl_ms: i64,
    unused_guest_ttl_ms: i64,
    new_guests: Arc<RateLimiter>,
    names: NameSource,
}

impl fmt::Debug for Identities {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Identities")
            .field("guest_ttl_ms", &self.guest_ttl_ms)
            .field("unused_guest_ttl_ms", &self.unused_guest_ttl_ms)
            .finish_non_exhaustive()
    }
}

impl Identities {
    /// Identities backed by `store` on `clock`, with the guest session lengths and the per-address limit on new
    /// guests from `config`.
    pub fn new(store: Arc<dyn Store>, config: &Config, clock: Clock) -> Identities {
        let minutes = |m: u64| i64::try_from(m.saturating_mul(60_000)).unwrap_or(i64::MAX / 4);
        Identities {
            store,
            epoch: (clock.now(), unix_ms()),
            clock,
            guest_ttl_ms: minutes(config.guest_session_days.saturating_mul(24 * 60)),
            unused_guest_ttl_ms: minutes(config.unused_guest_session_mins),
            new_guests: Arc::new(RateLimiter::new(Limit {
                burst: config.guest_burst_per_ip,
                per_minute: config.guests_per_minute_per_ip,
            })),
            names: Arc::new(random_guest_name),
        }
    }

    /// The same identities drawing guest names from `names` (tests force name collisions with it).
    pub fn with_names(mut self, names: impl Fn() -> String + Send + Sync + 'static) -> Identities {
        self.names = Arc::new(names);
        self
    }

    /// Now, in Unix milliseconds of the injected clock.
    fn now_ms(&self) -> Millis {
        let (at, ms) = self.epoch;
        let elapsed = self.clock.now().saturating_duration_since(at);
        ms + i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX / 2)
    }

    /// The identity an unexpired token stands for.
    pub async fn resume(&self, token: &str) -> Result<Option<Identity>, StoreError> {
        Ok(
            match self
                .store
                .session(&hash_token(token), self.now_ms())
                .await?
            {
                Some(SessionOwner::Guest(guest)) => Some(Identity::guest(&guest)),
                Some(SessionOwner::User(user)) => Some(Identity::user(user.id, user.name)),
                None => None,
            },
        )
    }

    /// A new guest for a client at `peer`, with its token: a fresh id and a name no live guest holds. Its session
    /// is short ([`Config::unused_guest_session_mins`]) until [`Identities::keep`]; the sweep of expired sessions
    /// removes it when the guest never plays. Each address may make only so many
    /// ([`Config::guest_burst_per_ip`], [`Config::guests_per_minute_per_ip`]).
    pub async fn new_guest(&self, peer: IpAddr) -> Result<(Identity, String), NewGuestError> {
        self.new_guests
            .take(
                &crate::limits::address_key(peer).to_string(),
                self.clock.now(),
            )
            .map_err(NewGuestError::RateLimited)?;
        let token = new_token();
        let hash = hash_token(&token);
        for _ in 0..NAME_DRAWS {
            let guest = Guest {
                id: new_guest_id(),
                name: (self.names)(),
            };
            let now = self.now_ms();
            if self
                .store
                .create_guest_session(&hash, &guest, now + self.unused_guest_ttl_ms, now)
                .await?
            {
                return Ok((Identity::guest(&guest), token));
            }
        }
        Err(NewGuestError::NoFreeName)
    }

    /// The guest of `token` did something worth keeping (joined or created a room): its session now lasts
    /// [`Config::guest_session_days`] from now. A session that expired meanwhile is stored again under the same
    /// token, id and name, unless another guest took the name over (then the guest plays on, but its token will
    /// not resume it).
    pub async fn keep(&self, identity: &Identity, token: &str) -> Result<(), StoreError> {
        let Some(id) = identity
            .id
            .strip_prefix('g')
            .filter(|_| identity.is_guest())
        else {
            return Ok(());
        };
        let hash = hash_token(token);
        let now = self.now_ms();
        let until = now + self.guest_ttl_ms;
        if self.store.extend_session(&hash, until, now).await? {
            return Ok(());
        }
        let guest = Guest {
            id: id.to_owned(),
            name: identity.name.clone(),
        };
        if !self
            .store
            .create_guest_session(&hash, &guest, until, now)
            .await?
        {
            tracing::info!(guest = %identity.name, "an expired guest's name was taken meanwhile");
        }
        Ok(())
    }

    /// Who holds a stored game's seat, for a restarted server: a user by id; a guest by the live session that
    /// holds its name (names are unique among live guests). A guest without one (its session expired, or the
    /// store failed) gets an id no token stands for, so nobody can take the seat and it is forfeited when its
    /// grace period ends.
    pub async fn of_player(&self, player: &PlayerRef) -> Identity {
        if let Some(user_id) = player.user_id {
            return Identity::user(user_id, player.name.clone());
        }
        let guest = match self.store.live_guest(&player.name, self.now_ms()).await {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(error = %e, "could not look up a seated guest");
                None
            }
        };
        Identity::guest(&guest.unwrap_or_else(|| Guest {
            id: new_guest_id(),
            name: player.name.clone(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;
    use std::sync::Mutex;

    use super::*;
    use crate::time::ManualClock;

    const PEER: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));

    async fn identities(config: Config) -> (Identities, Arc<ManualClock>, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let store = store::open(&dir.path().join("t.db").to_string_lossy())
            .await
            .unwrap();
        let clock = ManualClock::new();
        (Identities::new(store, &config, clock.clone()), clock, dir)
    }

    /// Names in the given order, then fresh random ones.
    fn names(list: &[&str]) -> impl Fn() -> String + Send + Sync + 'static {
        let list = Mutex::new(list.iter().rev().map(|s| s.to_string()).collect::<Vec<_>>());
        move || list.lock().unwrap().pop().unwrap_or_else(random_guest_name)
    }

    #[tokio::test]
    async fn a_new_guest_draws_again_while_a_live_guest_holds_the_name() {
        let (ids, _clock, _dir) = identities(Config::default()).await;
        let ids = ids.with_names(names(&["guest-aaaaaa", "guest-aaaaaa", "guest-bbbbbb"]));
        let (first, _) = ids.new_guest(PEER).await.unwrap();
        let (second, token) = ids.new_guest(PEER).await.unwrap();
        assert_eq!(first.name, "guest-aaaaaa");
        assert_eq!(second.name, "guest-bbbbbb");
        assert_ne!(first.id, second.id);
        assert_eq!(ids.resume(&token).await.unwrap(), Some(second));
    }

    #[tokio::test]
    async fn a_new_guest_gives_up_after_eight_held_names() {
        let (ids, _clock, _dir) = identities(Config::default()).await;
        let ids = ids.with_names(|| "guest-aaaaaa".to_owned());
        ids.new_guest(PEER).await.unwrap();
        let err = ids.new_guest(PEER).await.unwrap_err();
        assert!(matches!(err, NewGuestError::NoFreeName), "{err:?}");
    }

    #[tokio::test]
    async fn an_expired_guests_name_goes_to_the_next_guest_with_a_new_id() {
        let (ids, clock, _dir) = identities(Config::default()).await;
        let ids = ids.with_names(names(&["guest-aaaaaa", "guest-aaaaaa"]));
        let (first, old_token) = ids.new_guest(PEER).await.unwrap();
        clock.advance(Duration::from_secs(3600));
        let (second, _) = ids.new_guest(PEER).await.unwrap();
        assert_eq!(second.name, first.name);
        assert_ne!(second.id, first.id, "the name is reused, the id never");
        assert_eq!(ids.resume(&old_token).await.unwrap(), None);
    }

    #[tokio::test]
    async fn one_address_makes_a_burst_of_guests_then_one_per_refill() {
        let config = Config {
            guest_burst_per_ip: 3,
            guests_per_minute_per_ip: 2.0,
            ..Config::default()
        };
        let (ids, clock, _dir) = identities(config).await;
        for _ in 0..3 {
            ids.new_guest(PEER).await.unwrap();
        }
        let err = ids.new_guest(PEER).await.unwrap_err();
        assert!(
            matches!(err, NewGuestError::RateLimited(wait) if wait == Duration::from_secs(30)),
            "{err:?}"
        );
        ids.new_guest(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 8)))
            .await
            .expect("another address has its own allowance");
        clock.advance(Duration::from_millis(29_999));
        assert!(ids.new_guest(PEER).await.is_err());
        clock.advance(Duration::from_millis(1));
        ids.new_guest(PEER).await.expect("one more after 30 s");
    }

    #[tokio::test]
    async fn a_seat_of_a_live_guest_is_restored_to_that_guest_and_of_a_gone_one_to_nobody() {
        let (ids, clock, _dir) = identities(Config::default()).await;
        let (live, _) = ids.new_guest(PEER).await.unwrap();
        let seat = |name: &str| PlayerRef {
            name: name.to_owned(),
            user_id: None,
        };
        assert_eq!(ids.of_player(&seat(&live.name)).await, live);
        let gone = ids.of_player(&seat("guest-zzzzzz")).await;
        assert_eq!(gone.name, "guest-zzzzzz");
        assert!(gone.is_guest());
        clock.advance(Duration::from_secs(3600));
        assert_ne!(
            ids.of_player(&seat(&live.name)).await.id,
            live.id,
            "an expired guest's seat is nobody's"
        );
    }

    #[tokio::test]
    async fn a_kept_guest_outlives_the_short_first_session() {
        let (ids, clock, _dir) = identities(Config::default()).await;
        let (kept, kept_token) = ids.new_guest(PEER).await.unwrap();
        let (unused, unused_token) = ids.new_guest(PEER).await.unwrap();
        ids.keep(&kept, &kept_token).await.unwrap();
        clock.advance(Duration::from_millis(3_599_999));
        assert_eq!(ids.resume(&unused_token).await.unwrap(), Some(unused));
        clock.advance(Duration::from_millis(1));
        assert_eq!(ids.resume(&unused_token).await.unwrap(), None);
        assert_eq!(ids.resume(&kept_token).await.unwrap(), Some(kept.clone()));
        clock.advance(Duration::from_secs(30 * 24 * 3600));
        assert_eq!(ids.resume(&kept_token).await.unwrap(), None);
    }

    #[tokio::test]
    async fn keeping_a_guest_whose_session_expired_stores_it_again() {
        let (ids, clock, _dir) = identities(Config::default()).await;
        let (guest, token) = ids.new_guest(PEER).await.unwrap();
        clock.advance(Duration::from_secs(3600));
        assert_eq!(ids.resume(&token).await.unwrap(), None);
        ids.keep(&guest, &token).await.unwrap();
        assert_eq!(ids.resume(&token).await.unwrap(), Some(guest));
    }
}
