//! The computer opponent (issue #17): a player like any other, seated through the same connection path as a
//! person's client.
//!
//! - [`pool`]: the search threads (a fixed number of std threads and a bounded queue; searches cancelled when the
//!   position changes under them).
//! - [`account`]: one account per level (`computer-1` … `computer-8`), the flag on seats, lobby entries and
//!   profiles.
//! - [`player`]: one task per game against the computer: an in-process connection (`ws::loopback`) that says
//!   hello with the level's token, joins the room and plays through the typed client's request ids and replica.
//! - [`position`]: the engine's game rebuilt from the replica; [`answers`]: how it answers offers.
//!
//! [`Computers`] is the handle in `AppState`: admission (level, saturation), seating a player in a room, and the
//! players of restored games.

pub mod account;
pub mod answers;
pub mod external;
pub mod player;
pub mod pool;
pub mod position;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use protocol::code;
use store::{Store, StoreError};
use tokio::sync::oneshot;

use crate::room::RoomError;
use crate::{AppState, Config};
use account::{Account, MAX_LEVEL, MIN_LEVEL};
use external::EngineSpec;
use pool::Pool;

/// Who plays for the computer: the server's own engine at a level, or an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The server's engine, level 1–8.
    Level(u8),
    /// An external Piskvork engine (`--engine NAME=PATH`).
    External(Arc<EngineSpec>),
}

/// How external engines are run.
#[derive(Clone, Copy, Debug)]
pub struct EngineLimits {
    /// Time per move.
    pub move_time: Duration,
    /// Memory cap in bytes.
    pub max_memory: u64,
}

/// The computer: its search threads, its accounts and how many games it plays.
#[derive(Clone, Debug)]
pub struct Computers {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    pool: Pool,
    accounts: Vec<Account>,
    engines: Vec<(Arc<EngineSpec>, Account)>,
    engine_limits: EngineLimits,
    games: Arc<AtomicUsize>,
    max_games: usize,
    seed: Option<u64>,
}

/// A game against the computer, counted until it drops (the player task holds it).
#[derive(Debug)]
pub struct Ticket {
    games: Arc<AtomicUsize>,
    opponent: Opponent,
}

impl Ticket {
    /// Who plays.
    pub fn opponent(&self) -> &Opponent {
        &self.opponent
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.games.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Computers {
    /// The computer of `config` over `store`: its threads are started and its accounts made (or found) with
    /// fresh sessions.
    pub async fn new(config: &Config, store: &Arc<dyn Store>) -> Result<Computers, StoreError> {
        let threads = config
            .computer_threads
            .unwrap_or_else(pool::default_threads);
        let now = crate::time::unix_ms();
        let accounts = account::ensure(store, now).await?;
        let names: Vec<(u8, String)> = config
            .engines
            .iter()
            .map(|e| (0, account::engine_account(&e.name)))
            .collect();
        let engine_accounts = account::ensure_named(store, &names, now).await?;
        let engines = config
            .engines
            .iter()
            .cloned()
            .map(Arc::new)
            .zip(engine_accounts)
            .collect();
        Ok(Computers {
            inner: Arc::new(Inner {
                pool: Pool::new(threads, config.computer_max_queued),
                accounts,
                engines,
                engine_limits: EngineLimits {
                    move_time: Duration::from_millis(config.engine_move_ms.max(1)),
                    max_memory: config.engine_memory_mib.saturating_mul(1024 * 1024),
                },
                games: Arc::default(),
                max_games: config.computer_max_games,
                seed: config.computer_seed,
            }),
        })
    }

    /// The search threads.
    pub fn pool(&self) -> &Pool {
        &self.inner.pool
    }

    /// The most games against the computer played at once.
    pub fn max_games(&self) -> usize {
        self.inner.max_games
    }

    /// Games against the computer being played now.
    pub fn games(&self) -> usize {
        self.inner.games.load(Ordering::Relaxed)
    }

    /// The configured external engine of this name.
    pub fn engine(&self, name: &str) -> Option<Arc<EngineSpec>> {
        self.inner
            .engines
            .iter()
            .find(|(e, _)| e.name == name)
            .map(|(e, _)| e.clone())
    }

    /// The names of the configured external engines.
    pub fn engine_names(&self) -> Vec<String> {
        self.inner
            .engines
            .iter()
            .map(|(e, _)| e.name.clone())
            .collect()
    }

    /// How external engines are run.
    pub fn engine_limits(&self) -> EngineLimits {
        self.inner.engine_limits
    }

    /// Who plays for `level` or, when named, the external `engine` (`unknown_engine` when it is not configured,
    /// `bad_level` for a level outside 1–8).
    pub fn opponent(&self, level: u8, engine: Option<&str>) -> Result<Opponent, RoomError> {
        match engine {
            Some(name) => self.engine(name).map(Opponent::External).ok_or_else(|| {
                RoomError::new(
                    code::UNKNOWN_ENGINE,
                    format!("this server has no engine named {name:?}"),
                )
            }),
            None => check_level(level).map(|()| Opponent::Level(level)),
        }
    }

    /// A new game against `opponent`, unless the computer is saturated (`computer_busy`: for its own engine,
    /// every search thread busy and every queue place taken; for any, as many games as allowed).
    pub fn admit(&self, opponent: Opponent) -> Result<Ticket, RoomError> {
        if matches!(opponent, Opponent::Level(_)) && self.inner.pool.saturated() {
            return Err(RoomError::new(
                code::COMPUTER_BUSY,
                "the computer is thinking for as many games as it can; try again in a moment",
            ));
        }
        let games = &self.inner.games;
        if games
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < self.inner.max_games).then_some(n + 1)
            })
            .is_err()
        {
            return Err(RoomError::new(
                code::COMPUTER_BUSY,
                "the computer plays as many games as this server allows; try again later",
            ));
        }
        Ok(Ticket {
            games: games.clone(),
            opponent,
        })
    }

    /// A game that exists already (a restored one): counted, whatever the limits.
    fn resume_ticket(&self, opponent: Opponent) -> Ticket {
        self.inner.games.fetch_add(1, Ordering::Relaxed);
        Ticket {
            games: self.inner.games.clone(),
            opponent,
        }
    }

    /// The seed of a new game: the configured one, or a fresh one.
    fn seed(&self) -> u64 {
        self.inner.seed.unwrap_or_else(rand::random)
    }

    /// The per-move cap that makes the node budget decide (with a configured seed), else the level's own.
    fn max_time(&self) -> Option<Duration> {
        self.inner.seed.map(|_| Duration::from_secs(20))
    }

    /// Seats the computer of the ticket's level in room `room` (a new task), and answers once it sat down or
    /// could not (the room's refusal).
    pub fn seat(
        &self,
        state: &AppState,
        room: &str,
        ticket: Ticket,
    ) -> oneshot::Receiver<Result<(), RoomError>> {
        let (ready, answer) = oneshot::channel();
        let account = self.account(ticket.opponent()).clone();
        let player = player::Player::new(
            state.clone(),
            account,
            room.to_owned(),
            self.seed(),
            self.max_time(),
            ticket,
        );
        tokio::spawn(player.play(Some(ready)));
        answer
    }

    /// After a restart: the computer takes its seat again in a restored room where `opponent` plays.
    pub fn resume(&self, state: &AppState, room: &str, opponent: Opponent) {
        let account = self.account(&opponent).clone();
        let ticket = self.resume_ticket(opponent);
        let player = player::Player::new(
            state.clone(),
            account,
            room.to_owned(),
            self.seed(),
            self.max_time(),
            ticket,
        );
        tokio::spawn(player.play(None));
    }

    fn account(&self, opponent: &Opponent) -> &Account {
        match opponent {
            Opponent::Level(level) => {
                let i = usize::from((*level).clamp(MIN_LEVEL, MAX_LEVEL) - MIN_LEVEL);
                &self.inner.accounts[i]
            }
            Opponent::External(spec) => self
                .inner
                .engines
                .iter()
                .find(|(e, _)| e == spec)
                .map(|(_, a)| a)
                .expect("an admitted engine is configured"),
        }
    }
}

/// `bad_level` unless `level` is 1–8.
pub fn check_level(level: u8) -> Result<(), RoomError> {
    if (MIN_LEVEL..=MAX_LEVEL).contains(&level) {
        Ok(())
    } else {
        Err(RoomError::new(
            code::BAD_LEVEL,
            format!("the computer's levels are {MIN_LEVEL} to {MAX_LEVEL}"),
        ))
    }
}
