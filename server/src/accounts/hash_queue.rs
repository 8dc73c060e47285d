//! Fair turns at password hashing (#35: junk logins from many addresses slowed a real login from 0.09 s to 2.8 s).
//!
//! Argon2 costs tens of milliseconds of CPU and megabytes of memory per hash by design, so hashing is bounded:
//! at most `running` hashes at once (the cores, `--password-hash-threads`). A request that finds them all busy
//! waits its turn, but not in one line: each client address (an IPv6 address by its /64) has its own queue, and a
//! freed place goes to the next address in turn (round robin), so a real login waits behind at most one hash of
//! each address ahead of it, however many requests a flood has queued. One address may have at most
//! `per_address` hashes running or waiting (`--password-hashes-per-ip`); past that it is told to retry (429). All
//! queues together hold at most `queued` waiting hashes (`--password-hash-queue`); past that the server is busy
//! (503). Both answers carry `Retry-After`.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use crate::limits::address_key;

/// Why a hash was not queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The address has as many hashes running or waiting as it may.
    Address,
    /// Every queue together is full.
    Full,
}

/// How long a refused client is told to wait: about as long as the queue ahead takes to clear a place.
pub const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The limits of a [`HashQueue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashLimits {
    /// Hashes computed at once.
    pub running: usize,
    /// Hashes one address may have running or waiting.
    pub per_address: usize,
    /// Hashes waiting, all addresses together.
    pub queued: usize,
}

impl HashLimits {
    /// The limits the server's flags give (`--password-hash-threads`, default the cores;
    /// `--password-hashes-per-ip`; `--password-hash-queue`).
    pub fn from_config(config: &crate::Config) -> HashLimits {
        HashLimits {
            running: config
                .password_hash_threads
                .unwrap_or_else(default_hash_threads),
            per_address: config.password_hashes_per_ip,
            queued: config.password_hash_queue,
        }
    }
}

/// Hashes at once by default: one per core.
pub fn default_hash_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The queues of hashes waiting for a place, per address, served in turn.
#[derive(Debug)]
pub struct HashQueue {
    limits: HashLimits,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    running: usize,
    /// Hashes running or waiting per address (forgotten at zero).
    per_address: HashMap<IpAddr, usize>,
    /// The waiting hashes of each address, oldest first.
    waiting: HashMap<IpAddr, VecDeque<Waiter>>,
    /// The addresses with waiting hashes, in the order their turns come.
    turns: VecDeque<IpAddr>,
    queued: usize,
    next_id: u64,
}

#[derive(Debug)]
struct Waiter {
    id: u64,
    grant: oneshot::Sender<()>,
}

/// A place to hash in; dropping it gives the place to the next address in turn.
#[derive(Debug)]
pub struct HashPermit {
    queue: Arc<HashQueue>,
    address: IpAddr,
}

impl HashQueue {
    /// A queue with these limits (each at least one).
    pub fn new(limits: HashLimits) -> Arc<HashQueue> {
        Arc::new(HashQueue {
            limits: HashLimits {
                running: limits.running.max(1),
                per_address: limits.per_address.max(1),
                queued: limits.queued,
            },
            state: Mutex::default(),
        })
    }

    /// The limits in force.
    pub fn limits(&self) -> HashLimits {
        self.limits
    }

    /// A place to hash in for a request from `ip`: at once when one is free and nobody waits, else when the
    /// address's turn comes; refused when the address or the queues are full.
    pub async fn acquire(self: &Arc<Self>, ip: IpAddr) -> Result<HashPermit, Refused> {
        let address = address_key(ip);
        let (id, granted) = {
            let mut state = self.state.lock().expect("hash queue lock");
            let mine = state.per_address.get(&address).copied().unwrap_or(0);
            if mine >= self.limits.per_address {
                return Err(Refused::Address);
            }
            if state.running < self.limits.running && state.queued == 0 {
                state.running += 1;
                *state.per_address.entry(address).or_default() += 1;
                return Ok(self.permit(address));
            }
            if state.queued >= self.limits.queued {
                return Err(Refused::Full);
            }
            *state.per_address.entry(address).or_default() += 1;
            state.queued += 1;
            let id = state.next_id;
            state.next_id += 1;
            let (grant, granted) = oneshot::channel();
            let state = &mut *state;
            let queue = state.waiting.entry(address).or_default();
            if queue.is_empty() {
                state.turns.push_back(address);
            }
            queue.push_back(Waiter { id, grant });
            (id, granted)
        };
        let mut waiting = Waiting {
            queue: self.clone(),
            address,
            id,
            granted: Some(granted),
        };
        let granted = waiting.granted.as_mut().expect("set above");
        // The sender lives in the queue until the turn comes, so an error means the queue itself is gone.
        let _ = granted.await;
        waiting.granted = None;
        Ok(self.permit(address))
    }

    fn permit(self: &Arc<Self>, address: IpAddr) -> HashPermit {
        HashPermit {
            queue: self.clone(),
            address,
        }
    }

    /// Hashes waiting now, all addresses together.
    pub fn waiting(&self) -> usize {
        self.state.lock().expect("hash queue lock").queued
    }

    /// Hashes running now.
    pub fn running(&self) -> usize {
        self.state.lock().expect("hash queue lock").running
    }

    /// Gives the free places to the next addresses in turn. Each granted hash counts as running from here.
    fn hand_out(&self, state: &mut State) {
        while state.running < self.limits.running {
            let Some(address) = state.turns.pop_front() else {
                return;
            };
            let Some(queue) = state.waiting.get_mut(&address) else {
                continue;
            };
            let Some(waiter) = queue.pop_front() else {
                state.waiting.remove(&address);
                continue;
            };
            if queue.is_empty() {
                state.waiting.remove(&address);
            } else {
                state.turns.push_back(address);
            }
            state.queued -= 1;
            state.running += 1;
            // The receiver lives until its `Waiting` is dropped, which first takes it out of the queue under
            // this lock: a waiter still queued always hears its grant.
            let _ = waiter.grant.send(());
        }
    }

    /// One hash of `address` ended (or a waiter that held a place gave it up).
    fn release(&self, address: IpAddr) {
        let mut state = self.state.lock().expect("hash queue lock");
        state.running -= 1;
        forget_one(&mut state.per_address, address);
        self.hand_out(&mut state);
    }
}

fn forget_one(counts: &mut HashMap<IpAddr, usize>, address: IpAddr) {
    if let Some(n) = counts.get_mut(&address) {
        *n -= 1;
        if *n == 0 {
            counts.remove(&address);
        }
    }
}

impl Drop for HashPermit {
    fn drop(&mut self) {
        self.queue.release(self.address);
    }
}

/// A hash waiting for its turn; dropped early (the request was abandoned) it leaves the queue, or gives back the
/// place it was granted meanwhile.
struct Waiting {
    queue: Arc<HashQueue>,
    address: IpAddr,
    id: u64,
    /// `None` once the grant was taken.
    granted: Option<oneshot::Receiver<()>>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let Some(mut granted) = self.granted.take() else {
            return;
        };
        let mut guard = self.queue.state.lock().expect("hash queue lock");
        let state = &mut *guard;
        let still_queued = match state.waiting.get_mut(&self.address) {
            Some(queue) => match queue.iter().position(|w| w.id == self.id) {
                Some(at) => {
                    queue.remove(at);
                    if queue.is_empty() {
                        state.waiting.remove(&self.address);
                        state.turns.retain(|a| *a != self.address);
                    }
                    true
                }
                None => false,
            },
            None => false,
        };
        if still_queued {
            state.queued -= 1;
            forget_one(&mut state.per_address, self.address);
            return;
        }
        drop(guard);
        // Out of the queue: it was granted a place (under the lock, before this look), which goes back.
        if granted.try_recv().is_ok() {
            self.queue.release(self.address);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex as StdMutex;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn queue(running: usize, per_address: usize, queued: usize) -> Arc<HashQueue> {
        HashQueue::new(HashLimits {
            running,
            per_address,
            queued,
        })
    }

    /// Spawns a waiter from `from` named `name` that, once granted, writes its name into `order` and holds its
    /// place until `go` says so (dropped: at once).
    fn wait(
        q: &Arc<HashQueue>,
        from: &str,
        name: &'static str,
        order: &Arc<StdMutex<Vec<&'static str>>>,
    ) -> tokio::task::JoinHandle<()> {
        let (q, from, order) = (q.clone(), ip(from), order.clone());
        tokio::spawn(async move {
            let permit = q.acquire(from).await.expect("queued");
            order.lock().unwrap().push(name);
            drop(permit);
        })
    }

    async fn until_waiting(q: &HashQueue, n: usize) {
        while q.waiting() != n {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_real_login_is_served_before_a_flood_from_several_addresses_drains() {
        let q = queue(1, 2, 64);
        let order = Arc::new(StdMutex::new(Vec::new()));
        let busy = q.acquire(ip("192.0.2.1")).await.unwrap();
        // The flood: three addresses, two hashes each (their most), queued in this order.
        let mut tasks = Vec::new();
        for (n, (from, name)) in [
            ("198.51.100.1", "a1"),
            ("198.51.100.1", "a2"),
            ("198.51.100.2", "b1"),
            ("198.51.100.2", "b2"),
            ("198.51.100.3", "c1"),
            ("198.51.100.3", "c2"),
        ]
        .into_iter()
        .enumerate()
        {
            tasks.push(wait(&q, from, name, &order));
            until_waiting(&q, n + 1).await;
        }
        // Then the real login.
        tasks.push(wait(&q, "203.0.113.9", "real", &order));
        until_waiting(&q, 7).await;
        drop(busy);
        for t in tasks {
            t.await.unwrap();
        }
        // One hash of each address ahead of it, then its own: not behind the whole flood (first come, first
        // served would have made it seventh).
        assert_eq!(
            *order.lock().unwrap(),
            ["a1", "b1", "c1", "real", "a2", "b2", "c2"]
        );
        assert_eq!((q.running(), q.waiting()), (0, 0));
    }

    #[tokio::test]
    async fn an_address_has_at_most_its_hashes_in_flight_and_the_queues_a_bound() {
        let q = queue(1, 2, 3);
        let running = q.acquire(ip("198.51.100.1")).await.unwrap();
        let order = Arc::new(StdMutex::new(Vec::new()));
        let a2 = wait(&q, "198.51.100.1", "a2", &order);
        until_waiting(&q, 1).await;
        // The address's third, running or waiting: refused at once.
        assert_eq!(
            q.acquire(ip("198.51.100.1")).await.unwrap_err(),
            Refused::Address
        );
        // An IPv6 /64 is one address.
        let v6a = wait(&q, "2001:db8::1", "v6a", &order);
        until_waiting(&q, 2).await;
        let v6b = wait(&q, "2001:db8::2", "v6b", &order);
        until_waiting(&q, 3).await;
        assert_eq!(
            q.acquire(ip("2001:db8::3")).await.unwrap_err(),
            Refused::Address
        );
        // Three wait: the queues are full for anyone.
        assert_eq!(
            q.acquire(ip("203.0.113.1")).await.unwrap_err(),
            Refused::Full
        );
        drop(running);
        for t in [a2, v6a, v6b] {
            t.await.unwrap();
        }
        // Drained, everyone may queue again.
        let _again = q.acquire(ip("198.51.100.1")).await.unwrap();
        assert_eq!(q.waiting(), 0);
    }

    #[tokio::test]
    async fn an_abandoned_wait_leaves_the_queue_and_a_granted_place_goes_on() {
        let q = queue(1, 1, 8);
        let running = q.acquire(ip("198.51.100.1")).await.unwrap();
        let abandoned = {
            let q = q.clone();
            tokio::spawn(async move {
                let _ = q.acquire(ip("198.51.100.2")).await;
            })
        };
        until_waiting(&q, 1).await;
        abandoned.abort();
        let _ = abandoned.await;
        assert_eq!(q.waiting(), 0);
        // Its address may queue again (its count went with it), and the place goes to the next in turn.
        let order = Arc::new(StdMutex::new(Vec::new()));
        let next = wait(&q, "198.51.100.2", "next", &order);
        until_waiting(&q, 1).await;
        drop(running);
        next.await.unwrap();
        assert_eq!(*order.lock().unwrap(), ["next"]);
        assert_eq!((q.running(), q.waiting()), (0, 0));
    }
}
