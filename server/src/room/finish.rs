//! How a game ends: the ending the rules, a clock, an absence or a player decided; storing it exactly once
//! (or holding it and retrying with a backoff when the store fails); then announcing it.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use games::{AnyDetail, AnyGame, Game, Status};
use protocol::{GameResult, RatingDelta, RoomEvent};
use rules::Color;
use store::{Finish, Finished, GameEnd};

use super::fanout::Actor;
use super::task::Room;
use super::RoomError;
use crate::accounts::seat::SeatRating;
use crate::stored;
use crate::time::unix_ms;

/// [`GameResult::unrated`]: the game ended before both sides moved and was aborted.
const UNRATED_TOO_FEW_MOVES: &str = "too_few_moves";
/// [`GameResult::unrated`]: the two accounts already played as many rated games as count in the window.
pub(super) const UNRATED_REPEATED: &str = "repeated_pairing";

/// How long a room waits before it first retries storing a result the board or the clock decided; each retry
/// waits twice as long as the one before, up to [`RESULT_RETRY_MAX`].
const RESULT_RETRY_FIRST: Duration = Duration::from_millis(100);
/// The longest wait between two attempts to store a decided result (the room keeps trying until it is stored).
const RESULT_RETRY_MAX: Duration = Duration::from_secs(5);

/// How a game ends, by seat.
pub(super) struct Ending {
    pub(super) winner: Option<usize>,
    pub(super) reason: &'static str,
    pub(super) aborted: bool,
    /// What the rules' outcome carries (the five's line, the forbidden stone…): `Some` exactly when the game's
    /// rules ended it, `None` for the room's endings (resignation, time, agreement, absence).
    pub(super) detail: Option<AnyDetail>,
    /// The rules ended the game on a claim (an action that is no move, such as claiming a forbidden stone).
    pub(super) claimed: bool,
}

impl Ending {
    /// Whether a player asked for this ending (resign, agreed draw, claims): if it cannot be stored the request
    /// is refused and the game goes on. Other endings (the board, a clock, an absence) cannot be refused.
    pub(super) fn by_request(&self) -> bool {
        self.claimed || matches!(self.reason, "resign" | "draw_agreed" | "idle")
    }

    /// Whether the game's rules decided this ending (it stands however few moves were made).
    pub(super) fn by_rules(&self) -> bool {
        self.detail.is_some()
    }

    pub(super) fn won(winner: usize, reason: &'static str) -> Ending {
        Ending {
            winner: Some(winner),
            reason,
            aborted: false,
            detail: None,
            claimed: false,
        }
    }

    pub(super) fn no_winner(reason: &'static str, aborted: bool) -> Ending {
        Ending {
            winner: None,
            reason,
            aborted,
            detail: None,
            claimed: false,
        }
    }
}

/// A result the board, a clock or an absence decided that the store has not taken yet. Until it is stored the
/// game takes no action (`result_pending`) and nobody hears of the result.
pub(super) struct PendingResult {
    pub(super) ending: Ending,
    /// Attempts made so far (the backoff grows with them).
    pub(super) attempts: u32,
    /// When the room tries again.
    pub(super) retry_at: Instant,
}

/// A game's end as stored, ready to be announced.
pub(super) struct Recorded {
    pub(super) ending: Ending,
    pub(super) unrated: Option<&'static str>,
    pub(super) finished: Option<Finished>,
}

impl Room {
    /// How the rules ended the running game, if they did.
    pub(super) fn decided_ending(&self) -> Option<Ending> {
        let live = self.live.as_ref().filter(|l| l.running())?;
        let Status::Over(outcome) = live.game.status() else {
            return None;
        };
        let claimed = live
            .game
            .actions()
            .last()
            .is_some_and(|a| !AnyGame::is_move(a));
        Some(Ending {
            winner: outcome.winner.map(|c| live.seat_of(c)),
            reason: outcome.reason,
            aborted: false,
            detail: Some(outcome.detail),
            claimed,
        })
    }

    /// Ends the game if the rules decided it (see [`Room::finish`] for the errors).
    pub(super) async fn finish_if_decided(&mut self, actor: Actor) -> Result<(), RoomError> {
        if self.pending.is_some() {
            return Err(RoomError::result_pending());
        }
        match self.decided_ending() {
            Some(ending) => self.finish(ending, actor).await,
            None => Ok(()),
        }
    }

    /// Ends the running game: stored first (exactly once), then announced; nobody hears of a result that is not
    /// stored. A player's request that cannot be stored is refused with `internal` and the game goes on; any
    /// other ending that cannot be stored is kept and retried (`result_pending` meanwhile).
    pub(super) async fn finish(&mut self, ending: Ending, actor: Actor) -> Result<(), RoomError> {
        let recorded = self.record(ending).await?;
        self.announce(recorded, actor);
        Ok(())
    }

    /// Stores an ending (as [`Room::finish`], without announcing it).
    pub(super) async fn record(&mut self, ending: Ending) -> Result<Recorded, RoomError> {
        self.running_live()?;
        let by_request = ending.by_request();
        match self.store_ending(ending).await {
            Ok(recorded) => Ok(recorded),
            Err(_) if by_request => Err(RoomError::internal()),
            Err(ending) => {
                self.hold(ending, 1);
                Err(RoomError::result_pending())
            }
        }
    }

    /// Stores an ending that cannot be refused, then announces it; if the store fails it is kept and retried.
    pub(super) async fn settle(&mut self, ending: Ending, actor: Actor) -> Result<(), RoomError> {
        match self.store_ending(ending).await {
            Ok(recorded) => {
                self.announce(recorded, actor);
                Ok(())
            }
            Err(ending) => {
                self.hold(ending, 1);
                Err(RoomError::result_pending())
            }
        }
    }

    /// Keeps a decided ending that the store refused, to retry after a backoff on the room's clock. The clocks
    /// stop: the game is decided, only its record is missing.
    pub(super) fn hold(&mut self, ending: Ending, attempts: u32) {
        let now = self.env.clock.now();
        if let Some(c) = self.live.as_mut().and_then(|l| l.clock.as_mut()) {
            c.freeze(now);
        }
        let wait = RESULT_RETRY_FIRST
            .saturating_mul(1 << attempts.saturating_sub(1).min(16))
            .min(RESULT_RETRY_MAX);
        self.pending = Some(PendingResult {
            ending,
            attempts,
            retry_at: now + wait,
        });
    }

    /// Tries again to store a pending result whose time has come; announces it once stored.
    pub(super) async fn retry_result(&mut self) {
        let now = self.env.clock.now();
        let Some(pending) = self.pending.take_if(|p| p.retry_at <= now) else {
            return;
        };
        match self.store_ending(pending.ending).await {
            Ok(recorded) => {
                self.announce(recorded, None);
                self.maybe_close();
            }
            Err(ending) => self.hold(ending, pending.attempts + 1),
        }
    }

    /// Writes an ending to the store (one attempt). A rated game that ends by a player's choice or absence before
    /// both sides moved is aborted instead (rating farming by instant resignation): it needs `rated_min_moves`
    /// moves and an action of each player, since under Swap1, Swap2 and Soosõrv the first player alone places
    /// three stones. Gives the ending back when the store fails; nothing in the room changes either way.
    pub(super) async fn store_ending(&self, mut ending: Ending) -> Result<Recorded, Ending> {
        let min_moves = self.env.limits.rated_min_moves;
        let live = self.live.as_ref().expect("a running game");
        let both_acted = (0..2).all(|seat| live.actors.contains(&seat));
        if live.rated && !ending.by_rules() && (live.ply() < min_moves || !both_acted) {
            ending = Ending::no_winner("aborted", true);
        }
        let mut unrated = live.unrated;
        if ending.aborted && live.rated {
            unrated = Some(UNRATED_TOO_FEW_MOVES);
        }
        let finish = Finish {
            end: GameEnd {
                winner: ending.winner.map(|s| stored::side(live.colour_of(s))),
                aborted: ending.aborted,
                reason: ending.reason.to_owned(),
                ended_at: unix_ms(),
            },
            seats: live.seats_at_end(),
            rater: stored::RATER,
        };
        match self.env.writer.finish_game(live.id, finish).await {
            Ok(finished) => Ok(Recorded {
                ending,
                unrated,
                finished,
            }),
            Err(e) => {
                tracing::error!(game = live.id, error = %e, "could not store a result");
                Err(ending)
            }
        }
    }

    /// Announces a stored ending: the room's game is over.
    pub(super) fn announce(&mut self, recorded: Recorded, actor: Actor) {
        let Recorded {
            ending,
            unrated,
            finished,
        } = recorded;
        let now = self.env.clock.now();
        let Some(live) = self.live.as_mut().filter(|l| l.running()) else {
            return;
        };
        if ending.aborted {
            if let Some(p) = live.pairing.take() {
                self.env.rooms.release_rated(p);
            }
        }
        if let Some(c) = &mut live.clock {
            c.freeze(now);
        }
        let winner = ending.winner.map(|s| live.colour_of(s));
        let name_of = |c: Color| {
            self.seats[live.seat_of(c)]
                .as_ref()
                .map(|h| h.identity.name.clone())
                .unwrap_or_default()
        };
        let rating_changes = finished.and_then(|f| f.rating_changes);
        let finished_changes = rating_changes.as_ref().map(|c| [c[0].after, c[1].after]);
        let ratings = rating_changes.map(|changes| {
            [Color::Black, Color::White]
                .into_iter()
                .zip(changes)
                .map(|(c, ch)| RatingDelta {
                    name: name_of(c),
                    before: ch.before.rating,
                    after: ch.after.rating,
                    tier: Some(ch.after.tier().name().to_owned()),
                    provisional: Some(ch.after.is_provisional()),
                })
                .collect()
        });
        let (line, forbidden, detail) = GameResult::marks(ending.detail.as_ref());
        let result = GameResult {
            winner,
            winner_name: winner.map(name_of),
            reason: ending.reason.to_owned(),
            line,
            forbidden,
            ratings,
            unrated: unrated.map(str::to_owned),
            detail,
        };
        if let Some(changes) = finished_changes {
            for (c, after) in [Color::Black, Color::White].into_iter().zip(changes) {
                if let Some(h) = self.seats[live.seat_of(c)].as_mut() {
                    h.rating = Some(match h.rating {
                        Some(before) => before.after_game(after),
                        None => SeatRating::of(after),
                    });
                }
            }
        }
        live.result = Some(result.clone());
        live.rated_play = None;
        let clocks = live.clocks(now);
        self.next_first = live.colour_of(0).opposite();
        self.offers.clear();
        self.env
            .metrics
            .games_finished
            .fetch_add(1, Ordering::Relaxed);
        self.emit(RoomEvent::GameOver { result, clocks }, actor, None);
        self.publish_lobby();
        self.match_game_over(ending.winner, ending.aborted);
        self.tell_event(ending.winner, ending.aborted);
    }
}
