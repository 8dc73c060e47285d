//! The computer's search threads: a fixed number of std threads (never tokio's workers, never `spawn_blocking`'s
//! unbounded pool), fed by a bounded queue. A player waits for a place in the queue (back-pressure: a full queue
//! slows the computer's replies, it never grows); the server refuses new games against the computer while every
//! place is taken ([`Pool::saturated`]). Every search carries a cancel flag, set when the position changes under
//! it: a search not yet started is skipped, a running one stops within 256 nodes.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use engine::{Decision, Engine, TimeBudget};
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

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
}

/// Counts of what the pool did, for metrics and tests.
#[derive(Debug, Default)]
pub struct PoolStats {
    /// Searches started on a thread.
    pub started: AtomicU64,
    /// Searches whose result was thrown away because the position changed (skipped or stopped).
    pub cancelled: AtomicU64,
    /// Searches on a thread right now.
    pub running: AtomicUsize,
}

type Job = Box<dyn FnOnce() + Send>;

/// A cheap handle to the search threads.
#[derive(Clone)]
pub struct Pool {
    jobs: mpsc::Sender<Job>,
    /// A permit per thread and per queue place: held from queueing until the search is over.
    places: Arc<Semaphore>,
    threads: usize,
    stats: Arc<PoolStats>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("threads", &self.threads)
            .field("free", &self.places.available_permits())
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
    /// `threads` search threads (at least one) and `max_queued` searches waiting beyond them. The threads end when
    /// the last handle drops.
    pub fn new(threads: usize, max_queued: usize) -> Pool {
        let threads = threads.max(1);
        let (jobs, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for n in 0..threads {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("computer-{n}"))
                .spawn(move || loop {
                    // One thread takes the next job at a time; the lock is released before the job runs.
                    let job = match rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "could not start a search thread");
            }
        }
        Pool {
            jobs,
            places: Arc::new(Semaphore::new(threads + max_queued)),
            threads,
            stats: Arc::default(),
        }
    }

    /// How many search threads there are.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether every thread is busy and every queue place taken: no new game against the computer now.
    pub fn saturated(&self) -> bool {
        self.places.available_permits() == 0
    }

    /// What the pool did so far.
    pub fn stats(&self) -> &PoolStats {
        &self.stats
    }

    /// Queues a search once a place is free (waiting meanwhile: back-pressure), to run until done or until
    /// `cancel` is set. The answer comes on the returned channel; dropping it does not stop the search (the flag
    /// does).
    pub async fn search(
        &self,
        search: Search,
        cancel: Arc<AtomicBool>,
    ) -> oneshot::Receiver<Searched> {
        let (reply, answer) = oneshot::channel();
        let Ok(permit) = self.places.clone().acquire_owned().await else {
            return answer;
        };
        let stats = self.stats.clone();
        let queued = Instant::now();
        let job: Job = Box::new(move || {
            let search = Search {
                time: less(search.time, queued.elapsed()),
                ..search
            };
            run(search, &cancel, &stats, permit, reply)
        });
        if self.jobs.send(job).is_err() {
            tracing::error!("the search threads are gone");
        }
        answer
    }
}

/// Runs one search on a pool thread.
fn run(
    search: Search,
    cancel: &AtomicBool,
    stats: &PoolStats,
    permit: OwnedSemaphorePermit,
    reply: oneshot::Sender<Searched>,
) {
    let Search {
        mut engine,
        game,
        time,
    } = search;
    let decision = if cancel.load(Ordering::Relaxed) {
        None
    } else {
        stats.started.fetch_add(1, Ordering::Relaxed);
        stats.running.fetch_add(1, Ordering::Relaxed);
        // The engine is pure code over a position; a panic in it must not take the thread (and the pool) down.
        let thought = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            engine.think(&game, &time, cancel)
        }));
        stats.running.fetch_sub(1, Ordering::Relaxed);
        match thought {
            Ok(Ok(decision)) => Some(decision),
            Ok(Err(_)) => None,
            Err(_) => {
                tracing::error!("the engine panicked; the computer will try again");
                None
            }
        }
    };
    let decision = if cancel.load(Ordering::Relaxed) {
        stats.cancelled.fetch_add(1, Ordering::Relaxed);
        None
    } else {
        decision
    };
    drop(permit);
    let _ = reply.send(Searched { engine, decision });
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
        let done = pool.search(s, Arc::default()).await.await.unwrap();
        let decision = done.decision.expect("a decision");
        assert!(game.check(decision.action).is_ok());
        assert_eq!(pool.stats().started.load(Ordering::Relaxed), 1);
    }

    #[tokio::test]
    async fn one_thread_without_queue_places_is_saturated_while_it_searches_and_free_after() {
        let pool = Pool::new(1, 0);
        assert!(!pool.saturated());
        let cancel = Arc::new(AtomicBool::new(false));
        let answer = pool.search(search(8), cancel.clone()).await;
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
        let running = pool.search(search(8), first.clone()).await;
        let second = Arc::new(AtomicBool::new(true));
        let skipped = pool.search(search(1), second).await;
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
