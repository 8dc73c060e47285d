//! The computer opponent (issue #17): a player like any other, seated through the same connection path as a
//! person's client.
//!
//! - [`pool`]: the search threads (a fixed number of std threads and a bounded queue; searches cancelled when the
//!   position changes under them).
//! - [`account`]: one account per level (`computer-1` … `computer-8`), the flag on seats, lobby entries and
//!   profiles.
//! - [`player`]: one task per game against the computer: an in-process connection (`ws::loopback`) that says
//!   hello with the level's token, joins the room and plays through the typed client's request ids and replica.
//! - [`answers`]: how it answers offers.
//!
//! [`Computers`] is the handle in `AppState`: admission (level, the caps per player and per address, saturation),
//! seating a player in a room, and the players of restored games.

pub mod account;
pub mod answers;
pub mod external;
pub mod player;
pub mod pool;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use protocol::code;
use store::{Store, StoreError};
use tokio::sync::oneshot;

use crate::room::RoomError;
use crate::{AppState, Config};
use account::{Account, MAX_LEVEL, MIN_LEVEL};
use external::{EngineSpec, ProcessLimits};
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
    /// What each engine process runs under.
    pub process: ProcessLimits,
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
    games: Arc<Games>,
    max_games: usize,
    max_per_player: usize,
    max_per_ip: usize,
    seed: Option<u64>,
}

/// The games being played against the computer: how many, whose, from where, and how long games last.
#[derive(Debug, Default)]
struct Games {
    count: AtomicUsize,
    /// Games per player (identity key) and per address ([`crate::limits::address_key`]).
    held: Mutex<Held>,
    /// The mean length of a game, in milliseconds (a moving average; 0 before the first ended).
    mean_ms: AtomicU64,
}

#[derive(Debug, Default)]
struct Held {
    players: HashMap<String, usize>,
    addresses: HashMap<IpAddr, usize>,
}

impl Held {
    fn take(&mut self, asker: &Asker) {
        *self.players.entry(asker.player.clone()).or_default() += 1;
        *self.addresses.entry(asker.address).or_default() += 1;
    }

    fn give_back(&mut self, asker: &Asker) {
        fn less<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: &K) {
            if let Some(n) = map.get_mut(key) {
                *n -= 1;
                if *n == 0 {
                    map.remove(key);
                }
            }
        }
        less(&mut self.players, &asker.player);
        less(&mut self.addresses, &asker.address);
    }
}

/// Who asks for a game against the computer: the player (an identity's key) and their address (IPv6 by /64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asker {
    /// The identity's key.
    pub player: String,
    /// The address key ([`crate::limits::address_key`]).
    pub address: IpAddr,
}

/// A game against the computer, counted until it drops (the player task holds it).
#[derive(Debug)]
pub struct Ticket {
    games: Arc<Games>,
    opponent: Opponent,
    /// Who asked for the game (none for a restored game): counted against their caps, and whose queue the
    /// game's searches wait in.
    asker: Option<Asker>,
    began: Instant,
}

impl Ticket {
    /// Who plays.
    pub fn opponent(&self) -> &Opponent {
        &self.opponent
    }

    /// Who asked for the game, when known.
    pub fn asker(&self) -> Option<&Asker> {
        self.asker.as_ref()
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Some(asker) = &self.asker {
            self.games
                .held
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .give_back(asker);
        }
        self.games.count.fetch_sub(1, Ordering::Relaxed);
        let ms = u64::try_from(self.began.elapsed().as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let _ = self
            .games
            .mean_ms
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |mean| {
                Some(if mean == 0 {
                    ms
                } else {
                    mean - mean / 8 + ms / 8
                })
            });
    }
}

/// The `retry_after` of a full games limit before any game ended.
const GAMES_FIRST_GUESS: Duration = Duration::from_secs(30);
/// The shortest and longest `retry_after` of a full games limit.
const GAMES_RETRY_MIN: Duration = Duration::from_secs(1);
const GAMES_RETRY_MAX: Duration = Duration::from_secs(300);

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
                engine_limits: engine_limits(config),
                games: Arc::default(),
                max_games: config.computer_max_games,
                max_per_player: config.computer_max_games_per_player,
                max_per_ip: config.computer_max_games_per_ip,
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
        self.inner.games.count.load(Ordering::Relaxed)
    }

    /// Games against the computer `player` plays now.
    pub fn games_of(&self, player: &str) -> usize {
        let held = self
            .inner
            .games
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        held.players.get(player).copied().unwrap_or(0)
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

    /// A new game against `opponent` for `asker`, unless they already play as many as allowed
    /// (`too_many_computer_games`: `--computer-max-games-per-player` for the player,
    /// `--computer-max-games-per-ip` for their address) or the computer is saturated (`computer_busy`, with when to
    /// try again: for its own engine, every search thread busy and every queue place taken; for any, as many games
    /// as allowed).
    pub fn admit(&self, opponent: Opponent, asker: Asker) -> Result<Ticket, RoomError> {
        let inner = &self.inner;
        let mut held = inner.games.held.lock().unwrap_or_else(|e| e.into_inner());
        let mine = held.players.get(&asker.player).copied().unwrap_or(0);
        if mine >= inner.max_per_player {
            return Err(RoomError::new(
                code::TOO_MANY_COMPUTER_GAMES,
                format!("you already play {mine} games against the computer; finish one first"),
            ));
        }
        let here = held.addresses.get(&asker.address).copied().unwrap_or(0);
        if here >= inner.max_per_ip {
            return Err(RoomError::new(
                code::TOO_MANY_COMPUTER_GAMES,
                format!(
                    "{here} games against the computer are played from your address; one must end first"
                ),
            ));
        }
        if matches!(opponent, Opponent::Level(_)) && inner.pool.saturated() {
            return Err(RoomError::new(
                code::COMPUTER_BUSY,
                "the computer is thinking for as many games as it can; try again in a moment",
            )
            .retry_after(inner.pool.retry_after()));
        }
        let games = &inner.games;
        if games
            .count
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < inner.max_games).then_some(n + 1)
            })
            .is_err()
        {
            return Err(RoomError::new(
                code::COMPUTER_BUSY,
                "the computer plays as many games as this server allows; try again later",
            )
            .retry_after(self.games_retry_after()));
        }
        held.take(&asker);
        Ok(Ticket {
            games: games.clone(),
            opponent,
            asker: Some(asker),
            began: Instant::now(),
        })
    }

    /// When a full games limit should have a free game: the mean length of a game shared among the games being
    /// played (one of them ends about that often), 1 s to 5 min; 30 s before any game ended.
    pub fn games_retry_after(&self) -> Duration {
        let games = &self.inner.games;
        match games.mean_ms.load(Ordering::Relaxed) {
            0 => GAMES_FIRST_GUESS,
            mean => {
                let playing = games.count.load(Ordering::Relaxed).max(1) as u64;
                Duration::from_millis(mean / playing).clamp(GAMES_RETRY_MIN, GAMES_RETRY_MAX)
            }
        }
    }

    /// A game that exists already (a restored one): counted, whatever the limits.
    fn resume_ticket(&self, opponent: Opponent) -> Ticket {
        self.inner.games.count.fetch_add(1, Ordering::Relaxed);
        Ticket {
            games: self.inner.games.clone(),
            opponent,
            asker: None,
            began: Instant::now(),
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

/// How the configuration says external engines run; a warning when the process cap cannot bind (a server run
/// as root that gives its engines no user of their own: the kernel does not count root's processes).
fn engine_limits(config: &Config) -> EngineLimits {
    let process = ProcessLimits {
        memory: config.engine_memory_mib.saturating_mul(1024 * 1024),
        cpu_secs: config.engine_cpu_secs.max(1),
        processes: config.engine_max_processes,
        user: config.engine_user,
    };
    #[cfg(unix)]
    if !config.engines.is_empty() && process.user.is_none() && running_as_root() {
        tracing::warn!(
            "the server runs as root and its engines too: --engine-max-processes does not bind root; \
             give them a user of their own with --engine-user"
        );
    }
    EngineLimits {
        move_time: Duration::from_millis(config.engine_move_ms.max(1)),
        process,
    }
}

/// Whether this process runs as root.
#[cfg(unix)]
fn running_as_root() -> bool {
    // SAFETY: geteuid only reads the process's credentials; it cannot fail.
    unsafe { libc::geteuid() == 0 }
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

/// The strongest level the server's own computer plays `kind` at, or `None` when it does not play it: Gomoku (its
/// engine, levels 1–8), and every other game whose brains in the engine's registry start with a searching engine
/// (not the random-legal brain alone), capped at the Gomoku levels' top. What `play_computer` accepts and
/// `GET /api/computer` lists.
pub fn max_level(kind: games::GameKind) -> Option<u8> {
    if kind == games::GameKind::Gomoku {
        return Some(MAX_LEVEL);
    }
    let info = engine::brain::brains(kind).first()?;
    (info.name != engine::brain::RandomBrain::NAME).then(|| (*info.levels.end()).min(MAX_LEVEL))
}
