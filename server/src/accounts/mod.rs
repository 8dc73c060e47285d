//! Accounts: registration, login and logout, sessions for browsers (cookie) and other clients (bearer token),
//! rate limits on guessing, and the read side of ratings: leaderboards, profiles, game lists and the tier table.
//!
//! Everything here is reached through [`router`], which owns its state ([`Accounts`]) so it merges into any
//! application router. The WebSocket `hello` resumes the same tokens through [`crate::identity`], because both
//! store tokens with the same hash ([`token::hash`]); the upgrade request reads a browser's cookie with
//! [`token::for_upgrade`]. Rooms show seated players' ratings through [`seat::rating_in`].
//!
//! Passwords and tokens never reach a log: request bodies are not logged, the credentials type redacts its
//! `Debug`, and errors name only codes.

pub mod auth;
pub mod challenge_setting;
pub mod change;
pub mod error;
pub mod leaderboard;
mod limiter;
pub mod live;
pub mod password;
pub mod players;
pub mod rate_limit;
pub mod reset;
pub mod seat;
pub mod token;
pub mod username;
pub mod view;

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::Router;
use store::{SessionOwner, Store};
use tokio::sync::watch;
use unicode_normalization::UnicodeNormalization;

use crate::time::{unix_ms, Clock};

pub use error::ApiError;
use limiter::Limiter;
pub use password::HashCost;
pub use rate_limit::Limit;

/// How often expired sessions are deleted.
pub const SWEEP_EVERY: Duration = Duration::from_secs(3600);

/// How accounts behave; built from the server's configuration.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How long a login stays valid.
    pub session_ttl: Duration,
    /// Whether the session cookie is marked `Secure` (only when the site is served over HTTPS).
    pub secure_cookies: bool,
    /// Login and registration attempts per client address.
    pub per_address: Limit,
    /// Failed logins per account name from all addresses; once spent, the account admits only addresses without
    /// recent failures for it.
    pub per_account: Limit,
    /// Login attempts per client address and account name together (a successful one is given back).
    pub per_address_account: Limit,
    /// Accounts registered per client address (`None`: no limit).
    pub registrations_per_ip: Option<Limit>,
    /// Accounts registered per address range (`None`: no limit).
    pub registrations_per_range: Option<Limit>,
    /// The prefix lengths of an address range: IPv4, IPv6.
    pub range_prefixes: (u8, u8),
    /// The cost of argon2id for new hashes.
    pub hash_cost: HashCost,
    /// Most password hashes computed at once.
    pub concurrent_hashes: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            session_ttl: Duration::from_secs(30 * 24 * 3600),
            secure_cookies: false,
            per_address: Limit {
                burst: 20,
                per_minute: 10.0,
            },
            per_account: Limit {
                burst: 5,
                per_minute: 3.0,
            },
            per_address_account: Limit {
                burst: 5,
                per_minute: 3.0,
            },
            registrations_per_ip: per_day(5),
            registrations_per_range: per_day(10),
            range_prefixes: (24, 48),
            hash_cost: HashCost::default(),
            concurrent_hashes: 4,
        }
    }
}

/// A limit of `n` a day: `n` at once, then one every 24 hours divided by `n`; `None` for 0 (no limit).
pub fn per_day(n: u32) -> Option<Limit> {
    (n > 0).then(|| Limit {
        burst: n,
        per_minute: f64::from(n) / (24.0 * 60.0),
    })
}

impl Settings {
    /// The settings the server's flags and environment give.
    pub fn from_config(config: &crate::Config) -> Settings {
        let defaults = Settings::default();
        Settings {
            session_ttl: Duration::from_secs(config.session_days.saturating_mul(24 * 3600)),
            secure_cookies: config.secure_cookies,
            per_address: Limit {
                burst: config.login_burst_per_ip,
                per_minute: config.login_per_minute_per_ip,
            },
            per_account: Limit {
                burst: config.login_burst_per_account,
                per_minute: config.login_per_minute_per_account,
            },
            per_address_account: Limit {
                burst: config.login_burst_per_address_account,
                per_minute: config.login_per_minute_per_address_account,
            },
            registrations_per_ip: per_day(config.registrations_per_day_per_ip),
            registrations_per_range: per_day(config.registrations_per_day_per_range),
            range_prefixes: (
                config.registration_range_v4_prefix,
                config.registration_range_v6_prefix,
            ),
            hash_cost: HashCost {
                memory_kib: config.password_memory_kib,
                ..defaults.hash_cost
            },
            ..defaults
        }
    }
}

/// The accounts feature's state: cheap to clone (one `Arc`).
#[derive(Clone)]
pub struct Accounts {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn Store>,
    settings: Settings,
    clock: Clock,
    /// The clock's instant and the wall time at start-up: session expiry follows the injected clock, so tests
    /// can move a month ahead without waiting.
    epoch: (Instant, i64),
    hasher: password::Hasher,
    /// The connections of each session, closed when it is revoked.
    live: live::LiveSessions,
    per_address: Limiter,
    per_account: Limiter,
    per_address_account: Limiter,
    /// Registrations per client address and per address range (issue #35).
    registrations_per_ip: Option<Limiter>,
    registrations_per_range: Option<Limiter>,
    /// Whether the limits are kept in the store for every node of a cluster (swept with the sessions).
    shared_limits: bool,
}

impl Accounts {
    /// Accounts over `store`, with rate limits and session expiry measured on `clock`.
    pub fn new(store: Arc<dyn Store>, settings: Settings, clock: Clock) -> Accounts {
        Accounts::with_live_sessions(store, settings, clock, live::LiveSessions::new())
    }

    /// [`Accounts::new`] closing revoked sessions' connections through `live` (the application's registry).
    pub fn with_live_sessions(
        store: Arc<dyn Store>,
        settings: Settings,
        clock: Clock,
        live: live::LiveSessions,
    ) -> Accounts {
        Accounts::build(store, settings, clock, live, false)
    }

    /// `shared`: the login limits are kept in the store, for all the nodes of a cluster.
    fn build(
        store: Arc<dyn Store>,
        settings: Settings,
        clock: Clock,
        live: live::LiveSessions,
        shared: bool,
    ) -> Accounts {
        let epoch = (clock.now(), unix_ms());
        let limiter = |kind: &'static str, limit: Limit| {
            if shared {
                Limiter::shared(store.clone(), kind, limit)
            } else {
                Limiter::local(limit)
            }
        };
        Accounts {
            inner: Arc::new(Inner {
                per_address: limiter("address", settings.per_address),
                per_account: limiter("account", settings.per_account),
                per_address_account: limiter("pair", settings.per_address_account),
                registrations_per_ip: settings
                    .registrations_per_ip
                    .map(|l| limiter("register_ip", l)),
                registrations_per_range: settings
                    .registrations_per_range
                    .map(|l| limiter("register_range", l)),
                shared_limits: shared,
                store,
                live,
                hasher: password::Hasher::new(settings.hash_cost, settings.concurrent_hashes),
                settings,
                clock,
                epoch,
            }),
        }
    }

    /// The accounts of an application: its store and clock, settings from its configuration; also starts the
    /// sweep of expired sessions, which stops when the application shuts down. A cluster node (issue #22) keeps
    /// its login limits in the store, shared with the other nodes.
    pub fn from_app(state: &crate::AppState) -> Accounts {
        let accounts = Accounts::build(
            state.store.clone(),
            Settings::from_config(&state.config),
            state.clock.clone(),
            state.live_sessions.clone(),
            state.cluster.is_some(),
        );
        accounts.spawn_sweeper(state.shutdown.subscribe());
        accounts
    }

    /// Deletes expired sessions (users' and guests') every [`SWEEP_EVERY`] of the injected clock, and shared
    /// login buckets that have refilled. Expired sessions are ignored anyway, as a full bucket is the same as
    /// none; the sweep only keeps the tables from growing without bound.
    pub fn spawn_sweeper(&self, mut shutdown: watch::Receiver<bool>) {
        let accounts = self.clone();
        tokio::spawn(async move {
            loop {
                let next = accounts.inner.clock.now() + SWEEP_EVERY;
                tokio::select! {
                    () = accounts.inner.clock.sleep_until(next) => {}
                    _ = shutdown.wait_for(|stop| *stop) => return,
                }
                match accounts
                    .store()
                    .delete_expired_sessions(accounts.now_ms())
                    .await
                {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(sessions = n, "expired sessions deleted"),
                    Err(e) => tracing::warn!(error = %e, "could not delete expired sessions"),
                }
                if accounts.inner.shared_limits {
                    match accounts.store().sweep_buckets().await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(buckets = n, "refilled login buckets deleted"),
                        Err(e) => tracing::warn!(error = %e, "could not sweep the login buckets"),
                    }
                }
            }
        });
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    /// Wall time in milliseconds since the Unix epoch, as the injected clock sees it.
    pub fn now_ms(&self) -> i64 {
        let (at, ms) = self.inner.epoch;
        let elapsed = self.inner.clock.now().saturating_duration_since(at);
        ms + i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX / 2)
    }

    /// Whom the session token in these headers (bearer, else cookie) stands for, if anyone.
    pub async fn owner(&self, headers: &HeaderMap) -> Result<Option<SessionOwner>, ApiError> {
        let Some(token) = token::from_headers(headers) else {
            return Ok(None);
        };
        Ok(self
            .inner
            .store
            .session(&token::hash(&token), self.now_ms())
            .await?)
    }

    /// Whether cookies for this request are marked `Secure`: always with `--secure-cookies`, and whenever the
    /// request came over HTTPS ([`token::over_https`]).
    pub fn secure_cookies(&self, headers: &HeaderMap) -> bool {
        self.inner.settings.secure_cookies || token::over_https(headers)
    }

    /// Revokes the session of a token: deletes it, then closes the connections acting under it (in that order, so
    /// a connection that resumes meanwhile finds it gone).
    pub async fn revoke(&self, token: &str) -> Result<(), ApiError> {
        let hash = token::hash(token);
        self.inner.store.delete_session(&hash).await?;
        self.inner.live.revoke(&hash);
        Ok(())
    }

    /// Revokes every session of a user and closes their connections; returns how many sessions there were.
    pub async fn revoke_all(&self, user: store::UserId) -> Result<usize, ApiError> {
        let hashes = self.inner.store.delete_user_sessions(user).await?;
        for hash in &hashes {
            self.inner.live.revoke(hash);
        }
        Ok(hashes.len())
    }

    /// Sets a user's password hash and ends every session of the user but `keep` (with their sockets), together
    /// with any pending reset code; returns how many sessions ended.
    pub async fn set_password(
        &self,
        user: store::UserId,
        password_hash: &str,
        keep: Option<&[u8]>,
    ) -> Result<usize, ApiError> {
        let hashes = self
            .inner
            .store
            .change_password(user, password_hash, keep)
            .await?;
        for hash in &hashes {
            self.inner.live.revoke(hash);
        }
        Ok(hashes.len())
    }

    /// Takes one registration attempt for an address, and one of the accounts its address and its address range
    /// may register a day (issue #35); the caller gives the latter back ([`RegistrationSlot::give_back`]) when no
    /// account is made after all (a taken name). Registrations count only against the address: a name that is
    /// asked for (perhaps an existing account's) must not lose login attempts to them.
    async fn admit_registration(&self, ip: IpAddr) -> Result<RegistrationSlot, ApiError> {
        let now = self.inner.clock.now();
        self.inner
            .per_address
            .take(&address_key(ip), now)
            .await?
            .map_err(ApiError::RateLimited)?;
        let (v4, v6) = self.inner.settings.range_prefixes;
        let keys = [address_key(ip), crate::limits::range_key(ip, v4, v6)];
        let limiters = [
            self.inner.registrations_per_ip.as_ref(),
            self.inner.registrations_per_range.as_ref(),
        ];
        let mut slot = RegistrationSlot {
            accounts: self.clone(),
            taken: Vec::new(),
        };
        for (index, (limiter, key)) in limiters.into_iter().zip(keys).enumerate() {
            let Some(limiter) = limiter else { continue };
            match limiter.take(&key, now).await? {
                Ok(()) => slot.taken.push((index, key)),
                Err(wait) => {
                    slot.give_back().await;
                    tracing::info!(%ip, "registration refused: too many accounts from this network");
                    return Err(ApiError::TooManyRegistrations(wait));
                }
            }
        }
        Ok(slot)
    }

    /// Admits a login attempt for an address and an account name, before the password is checked; the caller
    /// reports the outcome to the returned [`LoginAttempt`].
    ///
    /// Nothing here limits an account by its name alone, so nobody can lock the owner out (lichess's approach):
    /// every attempt counts against the address, and against the address and name together (given back when the
    /// password is right); failures also count against the name from all addresses, and once those are spent the
    /// name admits only addresses without recent failures for it. The owner, from their own address, keeps
    /// getting in; a guesser spread over many addresses gets one try per address now and then.
    async fn admit_login(&self, ip: IpAddr, account: &str) -> Result<LoginAttempt, ApiError> {
        let now = self.inner.clock.now();
        let address = address_key(ip);
        self.inner
            .per_address
            .take(&address, now)
            .await?
            .map_err(ApiError::RateLimited)?;
        // Names are case-insensitive and compared in NFC, so are their limits; long junk names are cut so keys
        // stay small.
        let account: String = account
            .nfc()
            .take(username::MAX_LEN + 1)
            .collect::<String>()
            .to_lowercase();
        let pair = format!("{address} {account}");
        let pairs = &self.inner.per_address_account;
        if self.inner.per_account.has_room(&account, now).await? {
            pairs.take(&pair, now).await?
        } else {
            pairs.take_if_full(&pair, now).await?
        }
        .map_err(ApiError::RateLimited)?;
        Ok(LoginAttempt {
            accounts: self.clone(),
            account,
            pair,
        })
    }
}

/// The registrations a new account took from its address's and its range's daily limits.
struct RegistrationSlot {
    accounts: Accounts,
    /// (0 for the address's limit, 1 for the range's; the key).
    taken: Vec<(usize, String)>,
}

impl RegistrationSlot {
    /// No account was made: the registrations are given back. (A shared bucket the store cannot reach keeps
    /// them: the error is logged.)
    async fn give_back(self) {
        let inner = &self.accounts.inner;
        for (index, key) in &self.taken {
            let limiter = if *index == 0 {
                inner.registrations_per_ip.as_ref()
            } else {
                inner.registrations_per_range.as_ref()
            };
            if let Some(limiter) = limiter {
                if let Err(e) = limiter.refund(key, inner.clock.now()).await {
                    tracing::warn!(error = %e, "could not give a registration back");
                }
            }
        }
    }
}

/// A login attempt the limits let through; told how it ended, it settles the counts.
struct LoginAttempt {
    accounts: Accounts,
    account: String,
    pair: String,
}

impl LoginAttempt {
    /// The password was right: the attempt does not count against the address and name. (A shared bucket the
    /// store cannot reach keeps the attempt: the login goes ahead, the error is logged.)
    async fn succeeded(self) {
        let inner = &self.accounts.inner;
        if let Err(e) = inner
            .per_address_account
            .refund(&self.pair, inner.clock.now())
            .await
        {
            tracing::warn!(error = %e, "could not give a login attempt back");
        }
    }

    /// The password was wrong (or the name unknown): the failure counts against the name from all addresses.
    /// (A shared bucket the store cannot reach misses the failure: the answer is the same, the error logged.)
    async fn failed(self) {
        let inner = &self.accounts.inner;
        if let Err(e) = inner
            .per_account
            .charge(&self.account, inner.clock.now())
            .await
        {
            tracing::warn!(error = %e, "could not count a failed login");
        }
    }
}

/// The rate-limit key of an address: [`crate::limits::address_key`] (IPv6 by its /64) as text.
fn address_key(ip: IpAddr) -> String {
    crate::limits::address_key(ip).to_string()
}

/// The accounts routes, with their state already applied, to merge into the application's router:
/// `POST /api/register`, `POST /api/login`, `POST /api/logout`, `POST /api/logout/everywhere`, `POST /api/password`,
/// `POST /api/password/reset`, `GET /api/me`, `GET /api/leaderboard`,
/// `GET /api/tiers`, `GET /api/players/{name}`, `GET /api/players/{name}/games`.
pub fn router<S>(accounts: Accounts) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    Router::new()
        .route("/api/register", post(auth::register))
        .route("/api/login", post(auth::login))
        .route("/api/logout", post(auth::logout))
        .route("/api/logout/everywhere", post(auth::logout_everywhere))
        .route("/api/password", post(change::change_password))
        .route("/api/password/reset", post(reset::reset_password))
        .route("/api/me", get(auth::me))
        .route(
            "/api/me/challenges",
            get(challenge_setting::get_setting).put(challenge_setting::put_setting),
        )
        .route("/api/leaderboard", get(leaderboard::leaderboard))
        .route("/api/tiers", get(leaderboard::tiers))
        .route("/api/players/{name}", get(players::profile))
        .route("/api/players/{name}/games", get(players::games))
        .with_state(accounts)
}

/// The client's address, as [`crate::http::ClientAddr`] resolves it (behind a trusted proxy, the address it
/// forwards). Without connect info every client shares one address, so limits still hold, only more tightly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<ClientIp, Infallible> {
        Ok(ClientIp(
            crate::http::ClientAddr::of(&parts.extensions)
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.ip),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_addresses_share_a_limit_per_64_bit_prefix() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(c));
        let mapped: IpAddr = "::ffff:10.0.0.7".parse().unwrap();
        assert_eq!(address_key(mapped), "10.0.0.7");
    }
}
