//! Quick pairing: players enter a queue (a preset, or a custom game and time control) and one task pairs
//! compatible players, opens a room for each pair and seats both, as lichess's pools do.
//!
//! Like the lobby, one task owns every queue; connections talk to it through [`PairingHandle`]. Two seekers are
//! compatible when they want the same game, time control and rated or casual, are not the same player (two tabs
//! of one account), and their ratings are within both of their ranges; a range starts at
//! [`RANGE_START`] points and widens by [`RANGE_GROWTH_PER_SEC`] for every second waited. The same two players
//! are not paired a third time in a row while anyone else waits in their queue. Colours go to whoever played
//! the other colour more often in their recent games (random when even).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use protocol::{
    code, encode, ColourChoice, GameSpec, JoinRole, QuickCount, ServerMessage, TimeControl,
};
use rand::Rng;
use rules::Color;
use tokio::sync::{mpsc, oneshot};

use crate::identity::Identity;
use crate::room::{RoomError, Settings};
use crate::ws::outbox::{ConnId, Outbox, SendError};
use crate::AppState;

/// A rating range's half-width when a seeker enters the queue.
pub const RANGE_START: f64 = 100.0;
/// How much a seeker's range widens per second of waiting.
pub const RANGE_GROWTH_PER_SEC: f64 = 50.0;
/// How many connections of one player may wait in the queues at once (one seek per connection).
pub const MAX_SEEKS_PER_PLAYER: usize = 3;
/// How often the queues are swept again (ranges have widened meanwhile) and the counts pushed.
const TICK: Duration = Duration::from_secs(1);
/// How many recent colours of a player the colour balance looks at.
const COLOUR_MEMORY: usize = 10;
/// How many players' recent pairings are remembered (older entries are forgotten all at once past it).
const HISTORY_CAP: usize = 100_000;
/// The id of every custom pool together, in the counts.
pub const CUSTOM: &str = "custom";

/// One of the server's quick-pairing presets: one of a game's own ([`games::Listed::quick_presets`]).
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Its id on the wire (`renju-5+3`, `othello-3+2`).
    pub id: &'static str,
    /// The game and its configuration (renju presets play Soosõrv-8 with forbidden moves refused).
    pub config: games::AnyConfig,
    /// The time control.
    pub time_control: TimeControl,
}

impl From<games::QuickPreset<games::AnyConfig>> for Preset {
    fn from(p: games::QuickPreset<games::AnyConfig>) -> Preset {
        let time_control = match p.clock {
            games::QuickClock::Fischer {
                minutes,
                increment_s,
            } => TimeControl::Fischer {
                base_ms: u64::from(minutes) * 60_000,
                increment_ms: u64::from(increment_s) * 1000,
            },
            games::QuickClock::ByoYomi {
                minutes,
                periods,
                period_s,
            } => TimeControl::ByoYomi {
                base_ms: u64::from(minutes) * 60_000,
                periods,
                period_ms: u64::from(period_s) * 1000,
            },
        };
        Preset {
            id: p.id,
            config: p.config,
            time_control,
        }
    }
}

/// Every game's presets, game by game in the list's order, each game's in its own order: the order of the
/// lobby's tiles and of `quick_counts`.
pub fn presets() -> &'static [Preset] {
    static PRESETS: LazyLock<Vec<Preset>> = LazyLock::new(|| {
        games::GameKind::ALL
            .into_iter()
            .flat_map(games::GameKind::quick_presets)
            .map(Preset::from)
            .collect()
    });
    &PRESETS
}

/// The preset of an id.
pub fn preset(id: &str) -> Option<&'static Preset> {
    presets().iter().find(|p| p.id == id)
}

/// What a seek asks for, validated: its preset id (or `custom`) and the settings its room will have.
#[derive(Clone, Copy, Debug)]
pub struct SeekSpec {
    /// The preset's id, or [`CUSTOM`].
    pub preset: &'static str,
    /// The room's settings (public: listed in the lobby's live games and on the players' profiles, as every game
    /// is unless made private on purpose; the colour is decided at pairing).
    pub settings: Settings,
}

impl SeekSpec {
    /// The seek a `seek_quick` describes: a preset by id, or `custom` with a game and time control.
    pub fn new(
        preset: &str,
        game: Option<GameSpec>,
        time_control: Option<TimeControl>,
        rated: bool,
    ) -> Result<SeekSpec, RoomError> {
        if preset == CUSTOM {
            let game = game.ok_or_else(|| {
                RoomError::new(code::INVALID_FIELD, "a custom seek needs `rules` or `game`")
            })?;
            let settings = Settings::new(
                game,
                time_control.unwrap_or_default(),
                rated,
                true,
                ColourChoice::Black,
            )?;
            return Ok(SeekSpec {
                preset: CUSTOM,
                settings,
            });
        }
        let Some(p) = self::preset(preset) else {
            return Err(RoomError::new(code::UNKNOWN_PRESET, "no such preset"));
        };
        if game.is_some() || time_control.is_some() {
            return Err(RoomError::new(
                code::INVALID_FIELD,
                "only a custom seek gives a game or time control",
            ));
        }
        let settings = Settings::new(
            GameSpec::from(p.config),
            p.time_control,
            rated,
            true,
            ColourChoice::Black,
        )?;
        Ok(SeekSpec {
            preset: p.id,
            settings,
        })
    }

    fn key(&self) -> PoolKey {
        (
            self.settings.config,
            self.settings.time_control,
            self.settings.rated,
        )
    }
}

/// Players are paired only inside one pool: the same game, time control, and rated or casual.
type PoolKey = (games::AnyConfig, TimeControl, bool);

/// One connection waiting to be paired.
#[derive(Debug)]
pub struct Seeker {
    /// Who.
    pub identity: Identity,
    /// Where its frames go.
    pub outbox: Outbox,
    /// Where rooms opened for it are handed to its connection (which then leaves them when it closes).
    pub adopt: mpsc::UnboundedSender<Arc<str>>,
    /// Its address (rooms count the addresses of their creators).
    pub ip: IpAddr,
    /// Its rating in the pool (a guest's, or a rating that could not be read, counts as 1500).
    pub rating: f64,
    /// What it seeks.
    pub spec: SeekSpec,
    /// The request id of its `seek_quick`, answered by the pairing task's `ack` before any `paired`.
    pub rid: Option<u64>,
    /// The identity keys it must never be paired with: everyone it blocks or is blocked by (issue #38).
    pub unpairable: Vec<String>,
}

struct Waiting {
    seeker: Seeker,
    since: Instant,
}

enum Command {
    Seek {
        seeker: Box<Seeker>,
        reply: oneshot::Sender<Result<(), RoomError>>,
    },
    Cancel {
        conn: ConnId,
        reply: oneshot::Sender<()>,
    },
    Counts(oneshot::Sender<Vec<QuickCount>>),
}

/// A handle to the pairing task.
#[derive(Clone, Debug)]
pub struct PairingHandle {
    tx: mpsc::UnboundedSender<Command>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("pairing command")
    }
}

/// The receiving end of the pairing task's commands, until [`start`] runs it.
pub struct PairingInbox(mpsc::UnboundedReceiver<Command>);

impl PairingHandle {
    /// A handle and the inbox [`start`] runs the task on (the task needs the app's state, which holds the handle).
    pub fn channel() -> (PairingHandle, PairingInbox) {
        let (tx, rx) = mpsc::unbounded_channel();
        (PairingHandle { tx }, PairingInbox(rx))
    }

    /// Enters a queue; on success the task itself acknowledges the seek to its connection (so that the `ack`
    /// comes before any `paired`), and this returns once the seeker waits.
    pub async fn seek(&self, seeker: Seeker) -> Result<(), RoomError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Command::Seek {
                seeker: Box::new(seeker),
                reply,
            })
            .map_err(|_| RoomError::new(code::INTERNAL, "pairing is not running"))?;
        answer
            .await
            .map_err(|_| RoomError::new(code::INTERNAL, "pairing is not running"))?
    }

    /// Takes a connection out of its queue. Once this returns, the connection is in no queue and no pairing of
    /// it is under way: every room opened for it has been handed to its `adopt` channel.
    pub async fn cancel(&self, conn: ConnId) {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::Cancel { conn, reply }).is_ok() {
            let _ = answer.await;
        }
    }
}

impl PairingHandle {
    /// How many wait and play in each preset now (the lobby gets the same numbers at most once a second).
    pub async fn counts(&self) -> Vec<QuickCount> {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::Counts(reply)).is_err() {
            return Vec::new();
        }
        answer.await.unwrap_or_default()
    }
}

/// A player's recent pairings: their last two opponents and their last colours.
#[derive(Default)]
struct History {
    opponents: VecDeque<String>,
    colours: VecDeque<Color>,
}

impl History {
    /// Black games minus white games, recently.
    fn balance(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Color::Black { 1 } else { -1 })
            .sum()
    }

    /// Whether both of the last two games were against `opponent`.
    fn twice_against(&self, opponent: &str) -> bool {
        self.opponents.len() == 2 && self.opponents.iter().all(|o| o == opponent)
    }

    fn record(&mut self, opponent: &str, colour: Color) {
        self.opponents.push_back(opponent.to_owned());
        if self.opponents.len() > 2 {
            self.opponents.pop_front();
        }
        self.colours.push_back(colour);
        if self.colours.len() > COLOUR_MEMORY {
            self.colours.pop_front();
        }
    }
}

struct Pairing {
    state: AppState,
    pools: HashMap<PoolKey, Vec<Waiting>>,
    /// Each waiting connection's pool.
    by_conn: HashMap<ConnId, PoolKey>,
    /// Waiting connections per player id.
    by_player: HashMap<String, usize>,
    history: HashMap<String, History>,
    /// Rooms it opened whose game may still be running, by preset id.
    playing: HashMap<&'static str, Vec<Arc<str>>>,
    counts_sent: Vec<QuickCount>,
}

/// The range a seeker accepts after waiting `waited`.
pub fn range_after(waited: Duration) -> f64 {
    RANGE_START + RANGE_GROWTH_PER_SEC * waited.as_secs_f64()
}

/// Whether `a` and `b` may be paired at `now`: not the same player, both connected, ratings inside both ranges,
/// and not a third game in a row between them while `others` (anyone else) wait in their pool.
fn compatible(
    history: &HashMap<String, History>,
    a: &Waiting,
    b: &Waiting,
    now: Instant,
    others: bool,
) -> bool {
    let (pa, pb) = (&a.seeker.identity.id, &b.seeker.identity.id);
    if pa == pb || a.seeker.outbox.is_closed() || b.seeker.outbox.is_closed() {
        return false;
    }
    if a.seeker.unpairable.contains(pb) || b.seeker.unpairable.contains(pa) {
        return false;
    }
    let diff = (a.seeker.rating - b.seeker.rating).abs();
    let range_a = range_after(now.saturating_duration_since(a.since));
    let range_b = range_after(now.saturating_duration_since(b.since));
    if diff > range_a.min(range_b) {
        return false;
    }
    let repeated = history.get(pa).is_some_and(|h| h.twice_against(pb))
        || history.get(pb).is_some_and(|h| h.twice_against(pa));
    !(repeated && others)
}

/// Starts the pairing task on `inbox` for the app `state`.
pub fn start(inbox: PairingInbox, state: AppState) {
    let mut pairing = Pairing {
        state,
        pools: HashMap::new(),
        by_conn: HashMap::new(),
        by_player: HashMap::new(),
        history: HashMap::new(),
        playing: HashMap::new(),
        counts_sent: Vec::new(),
    };
    // The first counts reach the lobby before the server accepts anyone, so every subscriber gets them after
    // its snapshot.
    pairing.push_counts();
    tokio::spawn(run(inbox.0, pairing));
}

async fn run(mut rx: mpsc::UnboundedReceiver<Command>, mut pairing: Pairing) {
    let clock = pairing.state.clock.clone();
    let mut next_tick = clock.now() + TICK;
    loop {
        let cmd = tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(cmd) => cmd,
                None => break,
            },
            () = clock.sleep_until(next_tick) => {
                next_tick = clock.now() + TICK;
                pairing.sweep().await;
                pairing.refresh_playing().await;
                pairing.push_counts();
                continue;
            }
        };
        match cmd {
            Command::Seek { seeker, reply } => {
                let outbox = seeker.outbox.clone();
                let rid = seeker.rid;
                let r = pairing.enter(*seeker);
                let entered = r.as_ref().ok().copied();
                if entered.is_some() {
                    let ack = ServerMessage::Ack {
                        room: None,
                        version: None,
                    };
                    let text: Utf8Bytes = encode(&ack, rid).into();
                    if outbox.try_send(text) == Err(SendError::Full) {
                        outbox.kick();
                    }
                }
                let _ = reply.send(r.map(drop));
                if let Some(key) = entered {
                    pairing.match_newest(key).await;
                }
            }
            Command::Cancel { conn, reply } => {
                pairing.remove(conn);
                let _ = reply.send(());
            }
            Command::Counts(reply) => {
                let _ = reply.send(pairing.counts());
            }
        }
    }
}

impl Pairing {
    fn waiting_total(&self) -> usize {
        self.by_conn.len()
    }

    /// Puts a seeker in its pool, within the limits.
    fn enter(&mut self, seeker: Seeker) -> Result<PoolKey, RoomError> {
        let conn = seeker.outbox.id;
        if self.by_conn.contains_key(&conn) {
            return Err(RoomError::new(
                code::ALREADY_SEEKING,
                "this connection already waits to be paired",
            ));
        }
        let player = seeker.identity.id.clone();
        let n = self.by_player.get(&player).copied().unwrap_or(0);
        if n >= MAX_SEEKS_PER_PLAYER {
            return Err(RoomError::new(
                code::TOO_MANY_SEEKS,
                format!("you already wait on {n} connections"),
            ));
        }
        if self.waiting_total() >= self.state.config.max_quick_seekers {
            return Err(RoomError::new(
                code::QUEUE_FULL,
                "the pairing queues are full; try again in a moment",
            ));
        }
        let key = seeker.spec.key();
        self.by_conn.insert(conn, key);
        self.by_player.insert(player, n + 1);
        self.pools.entry(key).or_default().push(Waiting {
            seeker,
            since: self.state.clock.now(),
        });
        Ok(key)
    }

    /// Takes a connection out of its pool, if it waits.
    fn remove(&mut self, conn: ConnId) -> Option<Seeker> {
        let key = self.by_conn.remove(&conn)?;
        let pool = self.pools.get_mut(&key)?;
        let at = pool.iter().position(|w| w.seeker.outbox.id == conn)?;
        let w = pool.remove(at);
        if pool.is_empty() {
            self.pools.remove(&key);
        }
        let player = &w.seeker.identity.id;
        if let Some(n) = self.by_player.get_mut(player) {
            *n -= 1;
            if *n == 0 {
                self.by_player.remove(player);
            }
        }
        Some(w.seeker)
    }

    fn compatible(&self, a: &Waiting, b: &Waiting, now: Instant, others: bool) -> bool {
        compatible(&self.history, a, b, now, others)
    }

    /// The best partner for the waiting seeker at `i` among `candidates` (indices into the pool), if any.
    fn partner(
        &self,
        pool: &[Waiting],
        i: usize,
        candidates: &[usize],
        now: Instant,
    ) -> Option<usize> {
        let a = &pool[i];
        candidates
            .iter()
            .copied()
            .filter(|&j| j != i)
            .filter(|&j| {
                let (pa, pb) = (&a.seeker.identity.id, &pool[j].seeker.identity.id);
                let others = candidates.iter().any(|&k| {
                    let p = &pool[k].seeker.identity.id;
                    p != pa && p != pb
                });
                self.compatible(a, &pool[j], now, others)
            })
            .min_by(|&x, &y| {
                let dx = (pool[x].seeker.rating - a.seeker.rating).abs();
                let dy = (pool[y].seeker.rating - a.seeker.rating).abs();
                dx.total_cmp(&dy).then(x.cmp(&y))
            })
    }

    /// Pairs the newest seeker of a pool if someone compatible waits.
    async fn match_newest(&mut self, key: PoolKey) {
        let now = self.state.clock.now();
        let Some(pool) = self.pools.get(&key) else {
            return;
        };
        let i = pool.len() - 1;
        let all: Vec<usize> = (0..pool.len()).collect();
        if let Some(j) = self.partner(pool, i, &all, now) {
            let (a, b) = (pool[j].seeker.outbox.id, pool[i].seeker.outbox.id);
            self.pair(a, b).await;
        }
    }

    /// Pairs everyone who can be paired now, oldest seekers first.
    async fn sweep(&mut self) {
        let now = self.state.clock.now();
        let keys: Vec<PoolKey> = self.pools.keys().copied().collect();
        for key in keys {
            let mut pairs = Vec::new();
            if let Some(pool) = self.pools.get(&key) {
                let mut free: Vec<usize> = (0..pool.len()).collect();
                while let Some(&i) = free.first() {
                    match self.partner(pool, i, &free, now) {
                        Some(j) => {
                            pairs.push((pool[i].seeker.outbox.id, pool[j].seeker.outbox.id));
                            free.retain(|&k| k != i && k != j);
                        }
                        None => {
                            free.remove(0);
                        }
                    }
                }
            }
            for (a, b) in pairs {
                self.pair(a, b).await;
            }
        }
    }

    /// Opens a room for two waiting connections and seats both; each gets `paired`.
    async fn pair(&mut self, a: ConnId, b: ConnId) {
        let (Some(a), Some(b)) = (self.remove(a), self.remove(b)) else {
            return;
        };
        let balance = |s: &Seeker| self.history.get(&s.identity.id).map_or(0, History::balance);
        let a_black = match balance(&a).cmp(&balance(&b)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => rand::rng().random_bool(0.5),
        };
        let (black, white) = if a_black { (a, b) } else { (b, a) };
        let spec = black.spec;
        let handle = match self
            .state
            .rooms
            .create(&self.state, spec.settings, &black.identity, black.ip)
            .await
        {
            Ok(handle) => handle,
            Err(e) => {
                let msg = ServerMessage::error(e.code, e.message);
                send(&black.outbox, &msg);
                send(&white.outbox, &msg);
                return;
            }
        };
        for seeker in [&black, &white] {
            if let Err(e) = handle
                .join(
                    seeker.identity.clone(),
                    seeker.outbox.clone(),
                    JoinRole::Player,
                    None,
                    None,
                )
                .await
            {
                tracing::warn!(error = %e.message, "a paired player could not be seated");
            }
        }
        for (me, them, colour) in [
            (&black, &white, Color::Black),
            (&white, &black, Color::White),
        ] {
            send(
                &me.outbox,
                &ServerMessage::Paired {
                    room: handle.id.to_string(),
                    preset: spec.preset.to_owned(),
                    colour,
                    opponent: them.identity.name.clone(),
                },
            );
        }
        // Only now, with `paired` queued: a `cancel_quick` that finds the room adopted is answered at once, and its
        // `ack` must come after the `paired` (else the client is told it left, then that it was paired). One that
        // comes earlier waits for this pairing to finish in the task's queue.
        for seeker in [&black, &white] {
            let _ = seeker.adopt.send(handle.id.clone());
        }
        if self.history.len() > HISTORY_CAP {
            self.history.clear();
        }
        for (me, them, colour) in [
            (&black, &white, Color::Black),
            (&white, &black, Color::White),
        ] {
            self.history
                .entry(me.identity.id.clone())
                .or_default()
                .record(&them.identity.id, colour);
        }
        self.playing.entry(spec.preset).or_default().push(handle.id);
    }

    /// Forgets rooms whose game is over or that closed.
    async fn refresh_playing(&mut self) {
        for rooms in self.playing.values_mut() {
            let mut still = Vec::with_capacity(rooms.len());
            for id in rooms.drain(..) {
                let Some(room) = self.state.rooms.get(&id) else {
                    continue;
                };
                if room.summary().await.is_ok_and(|s| s.playing) {
                    still.push(id);
                }
            }
            *rooms = still;
        }
    }

    /// The counts per preset, presets first, then `custom`.
    fn counts(&self) -> Vec<QuickCount> {
        let mut waiting: HashMap<&str, u32> = HashMap::new();
        for pool in self.pools.values() {
            for w in pool {
                *waiting.entry(w.seeker.spec.preset).or_default() += 1;
            }
        }
        presets()
            .iter()
            .map(|p| p.id)
            .chain([CUSTOM])
            .map(|id| QuickCount {
                preset: id.to_owned(),
                waiting: waiting.get(id).copied().unwrap_or(0),
                playing: self.playing.get(id).map_or(0, |r| r.len() as u32),
            })
            .collect()
    }

    /// Tells the lobby the counts when they changed.
    fn push_counts(&mut self) {
        let counts = self.counts();
        if counts != self.counts_sent {
            self.counts_sent = counts.clone();
            self.state
                .lobby
                .quick_counts(ServerMessage::QuickCounts { presets: counts });
        }
    }
}

/// Queues a message without waiting; a client too far behind to take it is kicked (it reconnects and finds its
/// room through its seat).
fn send(outbox: &Outbox, msg: &ServerMessage) {
    let text: Utf8Bytes = encode(msg, None).into();
    if outbox.try_send(text) == Err(SendError::Full) {
        outbox.kick();
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    fn waiting(
        id: u64,
        player: &str,
        rating: f64,
        since: Instant,
    ) -> (Waiting, mpsc::Receiver<crate::ws::outbox::Out>) {
        let (tx, rx) = mpsc::channel(4);
        let outbox = Outbox::new(id, tx, Arc::new(tokio::sync::Notify::new()));
        let identity = Identity {
            id: player.to_owned(),
            name: player.to_owned(),
            user_id: None,
        };
        let seeker = Seeker {
            identity,
            outbox,
            adopt: mpsc::unbounded_channel().0,
            ip: IpAddr::V4(Ipv4Addr::LOCALHOST),
            rating,
            spec: SeekSpec::new("renju-5+3", None, None, false).unwrap(),
            rid: None,
            unpairable: Vec::new(),
        };
        (Waiting { seeker, since }, rx)
    }

    #[test]
    fn a_range_starts_at_100_points_and_widens_by_50_a_second() {
        assert_eq!(range_after(Duration::ZERO), 100.0);
        assert_eq!(range_after(Duration::from_secs(4)), 300.0);
    }

    #[test]
    fn ratings_apart_by_more_than_either_range_wait_until_both_ranges_reach() {
        let t0 = Instant::now();
        let history = HashMap::new();
        let (a, _ra) = waiting(1, "a", 1500.0, t0);
        let (b, _rb) = waiting(2, "b", 1800.0, t0 + Duration::from_secs(10));
        // 300 apart: `a` accepts after 4 s, `b` only after 4 s of its own.
        assert!(!compatible(
            &history,
            &a,
            &b,
            t0 + Duration::from_secs(10),
            false
        ));
        assert!(!compatible(
            &history,
            &a,
            &b,
            t0 + Duration::from_millis(13_999),
            false
        ));
        assert!(compatible(
            &history,
            &a,
            &b,
            t0 + Duration::from_secs(14),
            false
        ));
    }

    #[test]
    fn players_who_block_one_another_are_never_compatible() {
        let t0 = Instant::now();
        let (mut a, _ra) = waiting(1, "u1", 1500.0, t0);
        let (b, _rb) = waiting(2, "u2", 1500.0, t0);
        assert!(compatible(&HashMap::new(), &a, &b, t0, false));
        a.seeker.unpairable.push("u2".to_owned());
        assert!(!compatible(&HashMap::new(), &a, &b, t0, false));
        assert!(!compatible(&HashMap::new(), &b, &a, t0, false));
    }

    #[test]
    fn the_same_player_is_never_compatible_with_himself() {
        let t0 = Instant::now();
        let (a, _ra) = waiting(1, "a", 1500.0, t0);
        let (b, _rb) = waiting(2, "a", 1500.0, t0);
        assert!(!compatible(&HashMap::new(), &a, &b, t0, false));
    }

    #[test]
    fn a_third_game_in_a_row_between_two_players_waits_while_others_wait() {
        let t0 = Instant::now();
        let (a, _ra) = waiting(1, "a", 1500.0, t0);
        let (b, _rb) = waiting(2, "b", 1500.0, t0);
        let mut history: HashMap<String, History> = HashMap::new();
        history
            .entry("a".into())
            .or_default()
            .record("b", Color::Black);
        assert!(compatible(&history, &a, &b, t0, true), "once is no repeat");
        history
            .entry("a".into())
            .or_default()
            .record("b", Color::White);
        assert!(!compatible(&history, &a, &b, t0, true));
        assert!(!compatible(&history, &b, &a, t0, true));
        assert!(compatible(&history, &a, &b, t0, false), "nobody else waits");
        history
            .entry("a".into())
            .or_default()
            .record("c", Color::White);
        assert!(compatible(&history, &a, &b, t0, true));
    }

    #[test]
    fn the_colour_balance_counts_the_last_ten_games() {
        let mut h = History::default();
        for _ in 0..12 {
            h.record("x", Color::Black);
        }
        assert_eq!(h.balance(), 10);
        h.record("x", Color::White);
        assert_eq!(h.balance(), 8);
    }
}
