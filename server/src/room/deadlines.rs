//! The room's deadlines: flag falls, grace periods, waiting for a second player, a person idle against the
//! computer, resyncing members behind and retrying a result; the earliest is what the task sleeps until.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use protocol::{RoomEvent, RoomState};

use super::finish::Ending;
use super::seats::other;
use super::task::Room;
use super::GameClock;

/// How often a room retries resynchronising a client that fell behind.
const RESYNC_RETRY: Duration = Duration::from_millis(250);

impl Room {
    /// The earliest of the room's deadlines: a flag fall, a grace period, the end of waiting, a person idle
    /// against the computer, a resync retry, a result retry.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let clock = self
            .live
            .as_ref()
            .filter(|l| l.running())
            .and_then(|l| l.clock.as_ref())
            .and_then(GameClock::deadline);
        let grace = self.seats.iter().flatten().filter_map(|h| h.grace).min();
        let waiting = self
            .waiting_until
            .filter(|_| self.room_state() == RoomState::Waiting);
        let resync = self
            .fanout
            .any_behind()
            .then(|| self.env.clock.now() + RESYNC_RETRY);
        let result = self.pending.as_ref().map(|p| p.retry_at);
        let idle = self.idle_against_computer().map(|(at, _)| at);
        [clock, grace, waiting, idle, resync, result]
            .into_iter()
            .flatten()
            .min()
    }

    /// Does what is due: retries a pending result, flags a clock, forfeits or aborts for an absence, closes a
    /// room that waited out, resynchronises or closes members behind.
    pub(super) async fn on_deadline(&mut self) {
        self.retry_result().await;
        let now = self.env.clock.now();
        let flagged = self
            .live
            .as_ref()
            .filter(|l| l.running())
            .and_then(|l| l.clock.as_ref())
            .and_then(|c| c.flagged(now));
        if let Some(seat) = flagged {
            // Not stored now, it is retried on the room's clock.
            let _ = self.finish(Ending::won(other(seat), "timeout"), None).await;
        }
        let expired: Vec<usize> = (0..2)
            .filter(|&s| {
                self.seats[s]
                    .as_ref()
                    .and_then(|h| h.grace)
                    .is_some_and(|d| d <= now)
            })
            .collect();
        if !expired.is_empty() {
            let undecided = self.pending.is_none();
            if let Some(live) = self.live.as_ref().filter(|l| l.running() && undecided) {
                let loser = match (expired.as_slice(), live.to_act()) {
                    ([only], _) => *only,
                    (_, Some(colour)) => live.seat_of(colour),
                    _ => expired[0],
                };
                let ending = if live.ply() < 2 {
                    Ending::no_winner("aborted", true)
                } else {
                    Ending::won(other(loser), "abandoned")
                };
                let _ = self.finish(ending, None).await;
            }
            for seat in expired {
                self.free_seat(seat, None);
            }
            self.publish_lobby();
            self.maybe_close();
        }
        if let Some((at, machine)) = self.idle_against_computer() {
            if at <= now {
                self.computer_ends_idle_game(machine).await;
            }
        }
        let waited_out = self
            .waiting_until
            .is_some_and(|at| at <= now && self.room_state() == RoomState::Waiting);
        if waited_out && !self.closed {
            self.expire();
        }
        let slow = self.env.limits.slow_client;
        for (id, since) in self.fanout.behind() {
            if now.saturating_duration_since(since) >= slow {
                if self.members.contains_key(&id) {
                    tracing::info!(room = %self.id, conn = id, "closing a client that stayed behind");
                    self.env.metrics.kicked.fetch_add(1, Ordering::Relaxed);
                    self.fanout.kick(id);
                }
            } else {
                self.resync(id, None);
            }
        }
    }

    /// A game against the computer whose person is to act: when the computer stops waiting (the room's idle time,
    /// `--idle-claim-secs`, after the last action or the start), and the computer's seat. Otherwise a person could
    /// hold one of the computer's games (and its place among them) for ever without moving (issue #35).
    pub(super) fn idle_against_computer(&self) -> Option<(Instant, usize)> {
        if self.pending.is_some() {
            return None;
        }
        let live = self.live.as_ref().filter(|l| l.running())?;
        let person = live.seat_of(live.to_act()?);
        let machine = other(person);
        let is_computer = |seat: usize| self.seats[seat].as_ref().map(|h| h.identity.is_computer());
        match (is_computer(person), is_computer(machine)) {
            (Some(false), Some(true)) => {
                Some((live.last_action + self.env.limits.idle_claim, machine))
            }
            _ => None,
        }
    }

    /// The computer's person has been idle for the idle time: the computer ends the game as a person would with
    /// `claim_win` where that is allowed (a rated game without a clock: it wins, reason `idle`), and aborts it
    /// otherwise (reason `aborted`, no winner: its games are casual, so nothing is lost but the game).
    async fn computer_ends_idle_game(&mut self, machine: usize) {
        let Some(live) = self.live.as_ref() else {
            return;
        };
        let ending = if live.rated && live.clock.is_none() {
            Ending::won(machine, "idle")
        } else {
            Ending::no_winner("aborted", true)
        };
        tracing::info!(room = %self.id, reason = ending.reason, "the computer's opponent was idle: the game ends");
        // An ending that cannot be refused: if the store fails it is kept and retried.
        let _ = self.settle(ending, None).await;
    }

    /// Nobody took the second seat in time: the room tells its members and closes, so a connected creator cannot
    /// keep a room listed for ever.
    pub(super) fn expire(&mut self) {
        tracing::debug!(room = %self.id, "closing a room that waited too long");
        self.emit(
            RoomEvent::RoomClosed {
                reason: "expired".to_owned(),
            },
            None,
            None,
        );
        self.seats = [None, None];
        self.maybe_close();
    }
}
