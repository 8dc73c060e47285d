//! The computer's search threads: a fixed number of std threads (never tokio's workers, never `spawn_blocking`'s
//! unbounded pool), fed by a fair queue. Each player (the person the computer plays, whatever the number of their
//! games) has a queue of their own, and the threads serve the players round robin: one search of the next player
//! in turn, then the next player's, so one player's many searches never make another's wait behind all of them
//! (issue #35). A player's queue holds at most one live search per game (a game thinks about one position at a
//! time); a search whose position changed is skipped when its turn comes, or dropped as soon as its player queues
//! another. The server refuses new games against the computer while every thread is busy and `max_queued`
//! searches wait ([`Pool::saturated`]), saying when a place should be free ([`Pool::retry_after`]). Every search
//! carries a cancel flag, set when the position changes under it: a search not yet started is skipped, a running
//! one stops within 256 nodes.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use engine::{Decision, Engine, TimeBudget};
use tokio::sync::oneshot;

/// One search to run: the engine (its transposition table travels with it from move to move), the position and
/// the clock.
pub struct Search {
    /// The engine of the game, moved to the thread and back.
    pub engine: Box<Engine>,
    /// The position, with the side to act.
    pub game: rules::Game,
    /// The computer's clock as the room last told it.
    pub time: TimeBudget,
}

/// A search of any other game than Gomoku: a brain of the engine's registry (`engine::brain`) over the seam's
/// game, within a time budget. It waits in the same queues, in its player's turn, as a Gomoku search.
pub struct AnySearch {
    /// The brain of the game, moved to the thread and back (it keeps what it learnt between moves).
    pub brain: Box<dyn engine::brain::Brain>,
    /// The position, with the side to act.
    pub game: games::AnyGame,
    /// The time it may take.
    pub budget: Duration,
}

/// What came back from an [`AnySearch`].
pub struct AnySearched {
    /// The brain, for the next move.
    pub brain: Box<dyn engine::brain::Brain>,
    /// The action; `None` when the search was cancelled (or the game had ended).
    pub action: Option<games::AnyAction>,
}

/// `time` once `waited` has passed on it (a search that waited for a thread has that much less).
pub fn less(time: TimeBudget, waited: Duration) -> TimeBudget {
    match time {
        TimeBudget::Unlimited => TimeBudget::Unlimited,
        TimeBudget::PerMove(t) => TimeBudget::PerMove(t.saturating_sub(waited)),
        TimeBudget::Fischer {
            remaining,
            increment,
        } => TimeBudget::Fischer {
            remaining: remaining.saturating_sub(waited),
            increment,
        },
        TimeBudget::ByoYomi {
            remaining,
            period,
            periods,
        } if remaining > waited || periods == 0 => TimeBudget::ByoYomi {
            remaining: remaining.saturating_sub(waited),
            period,
            periods,
        },
        TimeBudget::ByoYomi {
            remaining,
            period,
            periods,
        } => TimeBudget::ByoYomi {
            remaining: Duration::ZERO,
            period: period.saturating_sub(waited - remaining),
            periods,
        },
    }
}

/// What came back from a search.
pub struct Searched {
    /// The engine, for the next move.
    pub engine: Box<Engine>,
    /// The decision; `None` when the search was cancelled (or the game had ended).
    pub decision: Option<Decision>,
    /// The place of the search in the order the threads took searches from the queues (0 first); `None` for a
    /// stale search dropped from its queue before its turn.
    pub served: Option<u64>,
}

/// Counts of what the pool did, for metrics and tests.
#[derive(Debug, Default)]
pub struct PoolStats {
    /// Searches started on a thread.
    pub started: AtomicU64,
    /// Searches whose result was thrown away because the position changed (skipped, dropped or stopped).
    pub cancelled: AtomicU64,
    /// Searches on a thread right now.
    pub running: AtomicUsize,
    /// The mean time of a search, in microseconds (a moving average; 0 before the first).
    pub mean_us: AtomicU64,
}

/// The mean search time assumed before any search was timed.
const FIRST_GUESS: Duration = Duration::from_secs(1);
/// The shortest and longest `retry_after` of a saturated pool.
const RETRY_MIN: Duration = Duration::from_secs(1);
const RETRY_MAX: Duration = Duration::from_secs(60);

/// One queued search, with what answers it.
struct Job {
    work: Work,
    cancel: Arc<AtomicBool>,
    queued: Instant,
}

/// A search of either kind and where its answer goes.
enum Work {
    Gomoku(Search, oneshot::Sender<Searched>),
    Any(AnySearch, oneshot::Sender<AnySearched>),
}

impl Job {
    fn stale(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Answers a stale search without running it.
    fn drop_stale(self, stats: &PoolStats) {
        stats.cancelled.fetch_add(1, Ordering::Relaxed);
        match self.work {
            Work::Gomoku(search, reply) => {
                let _ = reply.send(Searched {
                    engine: search.engine,
                    decision: None,
                    served: None,
                });
            }
            Work::Any(search, reply) => {
                let _ = reply.send(AnySearched {
                    brain: search.brain,
                    action: None,
                });
            }
        }
    }
}

/// The players' queues and whose turn it is.
#[derive(Default)]
struct Queues {
    /// The players with a search waiting, in the order they are served; the one served goes to the back if it has
    /// more.
    turns: VecDeque<Arc<str>>,
    /// Each player's waiting searches, oldest first (never empty).
    waiting: HashMap<Arc<str>, VecDeque<Job>>,
    /// Searches waiting, all players together.
    queued: usize,
    /// Searches taken by a thread and not answered yet.
    busy: usize,
    /// Searches taken so far.
    served: u64,
    /// The last handle dropped: the threads end.
    closed: bool,
}

impl Queues {
    /// The next search, from the player whose turn it is.
    fn next(&mut self) -> Option<(Job, u64)> {
        let player = self.turns.pop_front()?;
        let jobs = self.waiting.get_mut(&player)?;
        let job = jobs.pop_front()?;
        if jobs.is_empty() {
            self.waiting.remove(&player);
        } else {
            self.turns.push_back(player);
        }
        self.queued -= 1;
        self.busy += 1;
        let order = self.served;
        self.served += 1;
        Some((job, order))
    }

    /// Queues `job` behind `player`'s others, taking out (and giving back) those of them that went stale.
    fn push(&mut self, player: &str, job: Job) -> Vec<Job> {
        match self.waiting.get_mut(player) {
            Some(jobs) => {
                let (stale, live): (Vec<Job>, Vec<Job>) = jobs.drain(..).partition(Job::stale);
                jobs.extend(live);
                jobs.push_back(job);
                self.queued = self.queued + 1 - stale.len();
                stale
            }
            None => {
                let player: Arc<str> = player.into();
                self.waiting.insert(player.clone(), VecDeque::from([job]));
                self.turns.push_back(player);
                self.queued += 1;
                Vec::new()
            }
        }
    }
}

/// What the threads and the handles share.
struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
    stats: PoolStats,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queues> {
        // A panic never happens under the lock (engines run outside it), but a poisoned lock still holds sound
        // queues.
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Ends the threads when the last handle goes.
struct Closer {
    shared: Arc<Shared>,
}

impl Drop for Closer {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

/// A cheap handle to the search threads.
#[derive(Clone)]
pub struct Pool {
    shared: Arc<Shared>,
    _closer: Arc<Closer>,
    threads: usize,
    max_queued: usize,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let q = self.shared.lock();
        f.debug_struct("Pool")
            .field("threads", &self.threads)
            .field("busy", &q.busy)
            .field("queued", &q.queued)
            .finish_non_exhaustive()
    }
}

/// The default number of search threads: one fewer than the cores, at least one (the rest serve the sockets).
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get().saturating_sub(1))
        .max(1)
}

impl Pool {
    /// `threads` search threads (at least one); new games are refused while every thread is busy and `max_queued`
    /// searches wait. The threads end when the last handle drops.
    pub fn new(threads: usize, max_queued: usize) -> Pool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queues: Mutex::default(),
            ready: Condvar::new(),
            stats: PoolStats::default(),
        });
        for n in 0..threads {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("computer-{n}"))
                .spawn(move || serve(&shared));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "could not start a search thread");
            }
        }
        Pool {
            _closer: Arc::new(Closer {
                shared: shared.clone(),
            }),
            shared,
            threads,
            max_queued,
        }
    }

    /// How many search threads there are.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether every thread is busy and `max_queued` searches wait: no new game against the computer now.
    pub fn saturated(&self) -> bool {
        let q = self.shared.lock();
        q.busy + q.queued >= self.threads + self.max_queued
    }

    /// Searches waiting for a thread, all players together.
    pub fn queued(&self) -> usize {
        self.shared.lock().queued
    }

    /// When a saturated pool should have a place again: as many searches of the mean time as must end first, on
    /// every thread at once (1 s to 60 s).
    pub fn retry_after(&self) -> Duration {
        let (busy, queued) = {
            let q = self.shared.lock();
            (q.busy, q.queued)
        };
        let over = (busy + queued + 1).saturating_sub(self.threads + self.max_queued);
        let mean = match self.shared.stats.mean_us.load(Ordering::Relaxed) {
            0 => FIRST_GUESS,
            us => Duration::from_micros(us),
        };
        let rounds = u32::try_from(over.max(1).div_ceil(self.threads)).unwrap_or(u32::MAX);
        mean.saturating_mul(rounds).clamp(RETRY_MIN, RETRY_MAX)
    }

    /// What the pool did so far.
    pub fn stats(&self) -> &PoolStats {
        &self.shared.stats
    }

    /// Queues a search in `player`'s queue, to run in that player's turn until done or until `cancel` is set. The
    /// answer comes on the returned channel; dropping it does not stop the search (the flag does).
    pub fn search(
        &self,
        player: &str,
        search: Search,
        cancel: Arc<AtomicBool>,
    ) -> oneshot::Receiver<Searched> {
        let (reply, answer) = oneshot::channel();
        self.queue(player, Work::Gomoku(search, reply), cancel);
        answer
    }

    /// Queues a search of another game than Gomoku, as [`Pool::search`] does.
    pub fn search_any(
        &self,
        player: &str,
        search: AnySearch,
        cancel: Arc<AtomicBool>,
    ) -> oneshot::Receiver<AnySearched> {
        let (reply, answer) = oneshot::channel();
        self.queue(player, Work::Any(search, reply), cancel);
        answer
    }

    fn queue(&self, player: &str, work: Work, cancel: Arc<AtomicBool>) {
        let job = Job {
            work,
            cancel,
            queued: Instant::now(),
        };
        let stale = self.shared.lock().push(player, job);
        self.shared.ready.notify_one();
        for job in stale {
            job.drop_stale(&self.shared.stats);
        }
    }
}

/// A search thread: takes the next search in turn, runs it, and again, until the pool closes.
fn serve(shared: &Shared) {
    loop {
        let (job, order) = {
            let mut q = shared.lock();
            loop {
                if let Some(next) = q.next() {
                    break next;
                }
                if q.closed {
                    return;
                }
                q = shared.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        run(job, order, shared);
    }
}

/// Runs one search on a pool thread; the thread counts as free again before the answer goes.
fn run(job: Job, order: u64, shared: &Shared) {
    let stats = &shared.stats;
    let Job {
        work,
        cancel,
        queued,
    } = job;
    // Runs the search unless it is stale already, timing it; a panic in the engine (pure code over a position)
    // must not take the thread (and the pool) down. Answers whether the search is stale (cancelled before or
    // while it ran), counted in `cancelled` before the search leaves `running`: a reader who sees it leave
    // sees its cancellation counted.
    let timed = |think: &mut dyn FnMut() -> Option<()>| -> bool {
        if cancel.load(Ordering::Relaxed) {
            stats.cancelled.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        stats.started.fetch_add(1, Ordering::Relaxed);
        stats.running.fetch_add(1, Ordering::Relaxed);
        let began = Instant::now();
        let thought = std::panic::catch_unwind(std::panic::AssertUnwindSafe(think));
        let stale = cancel.load(Ordering::Relaxed);
        if stale {
            stats.cancelled.fetch_add(1, Ordering::Relaxed);
        }
        stats.running.fetch_sub(1, Ordering::Relaxed);
        record_time(stats, began.elapsed());
        if thought.is_err() {
            tracing::error!("the engine panicked; the computer will try again");
        }
        stale
    };
    match work {
        Work::Gomoku(
            Search {
                mut engine,
                game,
                time,
            },
            reply,
        ) => {
            // A search that waited for its turn has that much less time.
            let time = less(time, queued.elapsed());
            let mut decision = None;
            let stale = timed(&mut || {
                decision = engine.think(&game, &time, &cancel).ok();
                Some(())
            });
            let decision = if stale { None } else { decision };
            shared.lock().busy -= 1;
            let _ = reply.send(Searched {
                engine,
                decision,
                served: Some(order),
            });
        }
        Work::Any(
            AnySearch {
                mut brain,
                game,
                budget,
            },
            reply,
        ) => {
            let budget = budget
                .saturating_sub(queued.elapsed())
                .max(Duration::from_millis(50));
            let mut action = None;
            let stale = timed(&mut || {
                action = brain.choose(&game, budget, &cancel);
                Some(())
            });
            let action = if stale { None } else { action };
            shared.lock().busy -= 1;
            let _ = reply.send(AnySearched { brain, action });
        }
    }
}

/// Folds one search's time into the moving average (an eighth of the new one each time).
fn record_time(stats: &PoolStats, took: Duration) {
    let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX).max(1);
    let _ = stats
        .mean_us
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |mean| {
            Some(if mean == 0 {
                us
            } else {
                mean - mean / 8 + us / 8
            })
        });
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use engine::Limits;
    use rules::{Action, Game, Rules};

    use super::*;

    fn search(level: u8) -> Search {
        let mut game = Game::new(Rules::standard());
        game.apply(Action::place("h8".parse().unwrap())).unwrap();
        Search {
            engine: Box::new(Engine::new(Limits::level(level), 1)),
            game,
            time: TimeBudget::Unlimited,
        }
    }

    #[tokio::test]
    async fn a_search_answers_with_a_legal_action_and_the_engine_back() {
        let pool = Pool::new(1, 0);
        let s = search(1);
        let game = s.game.clone();
        let done = pool.search("a", s, Arc::default()).await.unwrap();
        let decision = done.decision.expect("a decision");
        assert!(game.check(decision.action).is_ok());
        assert_eq!(pool.stats().started.load(Ordering::Relaxed), 1);
    }

    #[tokio::test]
    async fn one_thread_without_queue_places_is_saturated_while_it_searches_and_free_after() {
        let pool = Pool::new(1, 0);
        assert!(!pool.saturated());
        let cancel = Arc::new(AtomicBool::new(false));
        let answer = pool.search("a", search(8), cancel.clone());
        assert!(pool.saturated(), "the one place is taken");
        cancel.store(true, Ordering::Relaxed);
        let started = Instant::now();
        let done = answer.await.unwrap();
        assert!(
            done.decision.is_none(),
            "a cancelled search has no decision"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "cancel stops it at once"
        );
        assert!(!pool.saturated());
        assert_eq!(pool.stats().cancelled.load(Ordering::Relaxed), 1);
    }

    #[tokio::test]
    async fn a_search_cancelled_before_it_starts_is_skipped() {
        let pool = Pool::new(1, 1);
        let first = Arc::new(AtomicBool::new(false));
        let running = pool.search("a", search(8), first.clone());
        let second = Arc::new(AtomicBool::new(true));
        let skipped = pool.search("b", search(1), second);
        assert!(
            pool.saturated(),
            "one thread and one queue place, both taken"
        );
        while pool.stats().running.load(Ordering::Relaxed) == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        first.store(true, Ordering::Relaxed);
        assert!(running.await.unwrap().decision.is_none());
        assert!(skipped.await.unwrap().decision.is_none());
        assert_eq!(pool.stats().started.load(Ordering::Relaxed), 1);
        assert_eq!(pool.stats().cancelled.load(Ordering::Relaxed), 2);
    }

    /// Waits until a thread runs a search.
    async fn until_running(pool: &Pool) {
        while pool.stats().running.load(Ordering::Relaxed) == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    #[tokio::test]
    async fn one_players_many_searches_do_not_make_anothers_wait_behind_all_of_them() {
        // One thread, busy with a search of A's; then A queues five more and B one.
        let pool = Pool::new(1, 0);
        let blocker = Arc::new(AtomicBool::new(false));
        let first = pool.search("a", search(8), blocker.clone());
        until_running(&pool).await;
        let a: Vec<_> = (0..5)
            .map(|_| pool.search("a", search(1), Arc::default()))
            .collect();
        let b = pool.search("b", search(1), Arc::default());
        assert_eq!(pool.queued(), 6);
        blocker.store(true, Ordering::Relaxed);

        let order = |s: Searched| s.served.expect("served");
        assert_eq!(order(first.await.unwrap()), 0);
        let mut a_served = Vec::new();
        for answer in a {
            a_served.push(order(answer.await.unwrap()));
        }
        let b_served = order(b.await.unwrap());
        // Round robin: A's next search, then B's, then the rest of A's.
        assert_eq!(a_served, [1, 3, 4, 5, 6]);
        assert_eq!(b_served, 2, "B is served before A's queue drains");
        assert!(b_served < *a_served.last().unwrap());
    }

    #[tokio::test]
    async fn players_take_turns_whatever_the_order_they_queued_in() {
        let pool = Pool::new(1, 0);
        let blocker = Arc::new(AtomicBool::new(false));
        let first = pool.search("x", search(8), blocker.clone());
        until_running(&pool).await;
        // A, A, A, B, B, C queued in this order: served A B C A B A.
        let queued: Vec<_> = ["a", "a", "a", "b", "b", "c"]
            .into_iter()
            .map(|p| (p, pool.search(p, search(1), Arc::default())))
            .collect();
        blocker.store(true, Ordering::Relaxed);
        first.await.unwrap();
        let mut served = Vec::new();
        for (player, answer) in queued {
            served.push((answer.await.unwrap().served.unwrap(), player));
        }
        served.sort_unstable();
        let players: Vec<&str> = served.into_iter().map(|(_, p)| p).collect();
        assert_eq!(players, ["a", "b", "c", "a", "b", "a"]);
    }

    #[tokio::test]
    async fn a_stale_search_is_dropped_as_soon_as_its_player_queues_another() {
        let pool = Pool::new(1, 0);
        let blocker = Arc::new(AtomicBool::new(false));
        let first = pool.search("x", search(8), blocker.clone());
        until_running(&pool).await;
        let stale = Arc::new(AtomicBool::new(false));
        let old = pool.search("a", search(1), stale.clone());
        stale.store(true, Ordering::Relaxed);
        let fresh = pool.search("a", search(1), Arc::default());
        let dropped = old.await.unwrap();
        assert!(dropped.decision.is_none() && dropped.served.is_none());
        assert_eq!(pool.queued(), 1, "only the fresh search waits");
        blocker.store(true, Ordering::Relaxed);
        first.await.unwrap();
        assert!(fresh.await.unwrap().decision.is_some());
        assert_eq!(pool.stats().cancelled.load(Ordering::Relaxed), 2);
    }

    #[tokio::test]
    async fn a_saturated_pool_says_when_a_place_should_be_free() {
        let pool = Pool::new(1, 1);
        assert_eq!(pool.retry_after(), FIRST_GUESS, "no search timed yet");
        let cancel = Arc::new(AtomicBool::new(false));
        let running = pool.search("a", search(8), cancel.clone());
        let waiting = pool.search("b", search(8), cancel.clone());
        assert!(pool.saturated());
        pool.stats().mean_us.store(2_500_000, Ordering::Relaxed);
        assert_eq!(pool.retry_after(), Duration::from_micros(2_500_000));
        let more: Vec<_> = (0..3)
            .map(|_| pool.search("c", search(8), cancel.clone()))
            .collect();
        assert_eq!(
            pool.retry_after(),
            Duration::from_micros(4 * 2_500_000),
            "three more searches must end first"
        );
        pool.stats().mean_us.store(1, Ordering::Relaxed);
        assert_eq!(pool.retry_after(), RETRY_MIN);
        pool.stats().mean_us.store(u64::MAX / 2, Ordering::Relaxed);
        assert_eq!(pool.retry_after(), RETRY_MAX);
        cancel.store(true, Ordering::Relaxed);
        running.await.unwrap();
        waiting.await.unwrap();
        for m in more {
            m.await.unwrap();
        }
        assert!(!pool.saturated());
    }

    #[test]
    fn time_spent_waiting_for_a_thread_comes_off_the_clock() {
        let s = Duration::from_secs;
        let f = TimeBudget::Fischer {
            remaining: s(10),
            increment: s(2),
        };
        assert_eq!(
            less(f, s(3)),
            TimeBudget::Fischer {
                remaining: s(7),
                increment: s(2)
            }
        );
        let b = TimeBudget::ByoYomi {
            remaining: s(1),
            period: s(10),
            periods: 2,
        };
        assert_eq!(
            less(b, s(3)),
            TimeBudget::ByoYomi {
                remaining: s(0),
                period: s(8),
                periods: 2
            },
            "the main time, then the period"
        );
        assert_eq!(less(TimeBudget::Unlimited, s(3)), TimeBudget::Unlimited);
    }

    #[test]
    fn there_is_always_at_least_one_thread() {
        assert!(default_threads() >= 1);
        assert_eq!(Pool::new(0, 0).threads(), 1);
    }
}
