//! Where the server's time comes from: tokio's clock in production, a hand-driven clock in tests.
//!
//! Game clocks, grace periods and rate limits read time through [`TimeSource`]. Tests drive a [`ManualClock`]
//! instead of tokio's paused time because the SQLite store commits on its own worker thread: with paused time,
//! tokio would jump to the next timer (a flag fall, a grace deadline) whenever it waited for such a commit.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;

/// A future that completes at a deadline.
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A monotonic clock the server can wait on.
pub trait TimeSource: Send + Sync + 'static {
    /// The current instant.
    fn now(&self) -> Instant;
    /// Completes once [`TimeSource::now`] reaches `deadline`.
    fn sleep_until(&self, deadline: Instant) -> Sleep;
}

/// A shared time source.
pub type Clock = Arc<dyn TimeSource>;

/// The real clock (tokio's, so it also follows `tokio::time::pause`).
#[derive(Clone, Copy, Debug, Default)]
pub struct TokioClock;

impl TimeSource for TokioClock {
    fn now(&self) -> Instant {
        tokio::time::Instant::now().into_std()
    }

    fn sleep_until(&self, deadline: Instant) -> Sleep {
        Box::pin(tokio::time::sleep_until(tokio::time::Instant::from_std(
            deadline,
        )))
    }
}

/// A clock that moves only when told to ([`ManualClock::advance`]); for tests of clocks and grace periods.
#[derive(Debug)]
pub struct ManualClock {
    base: Instant,
    offset_ms: AtomicU64,
    tick: watch::Sender<u64>,
}

impl ManualClock {
    /// A clock standing at the current real instant.
    pub fn new() -> Arc<ManualClock> {
        Arc::new(ManualClock {
            base: Instant::now(),
            offset_ms: AtomicU64::new(0),
            tick: watch::Sender::new(0),
        })
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come.
    pub fn advance(&self, by: Duration) {
        let now = self
            .offset_ms
            .fetch_add(by.as_millis() as u64, Ordering::SeqCst)
            + by.as_millis() as u64;
        self.tick.send_replace(now);
    }
}

impl TimeSource for ManualClock {
    fn now(&self) -> Instant {
        self.base + Duration::from_millis(self.offset_ms.load(Ordering::SeqCst))
    }

    fn sleep_until(&self, deadline: Instant) -> Sleep {
        let mut rx = self.tick.subscribe();
        let target = deadline.saturating_duration_since(self.base).as_millis() as u64;
        // Round up: a deadline between two milliseconds is reached at the later one.
        let target = if self.base + Duration::from_millis(target) < deadline {
            target + 1
        } else {
            target
        };
        Box::pin(async move {
            loop {
                if *rx.borrow_and_update() >= target {
                    return;
                }
                if rx.changed().await.is_err() {
                    // The clock is gone: time never comes.
                    std::future::pending::<()>().await;
                }
            }
        })
    }
}

/// Milliseconds since the Unix epoch, for stored records (wall time, not used for any deadline).
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
