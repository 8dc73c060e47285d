//! Game clocks: Fischer (base plus increment) and byo-yomi (main time, then periods). Pure: instants are passed
//! in, so the room decides when to look and tests need no timers.

use std::time::{Duration, Instant};

use protocol::{SideClock, TimeControl};

/// The most a move is credited for lag, however slow the player's network (or whatever lag a client claims).
pub const LAG_CREDIT_CAP_MS: u64 = 500;

/// What a move is credited for the lag of a connection whose measured round trip is `rtt_ms`: half of it (the
/// move's own trip to the server; the position's trip to the player came before the clock could tell), at most
/// [`LAG_CREDIT_CAP_MS`].
pub fn lag_credit_ms(rtt_ms: u64) -> u64 {
    (rtt_ms / 2).min(LAG_CREDIT_CAP_MS)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Side {
    /// Main time left (Fischer: all of it).
    main_ms: u64,
    /// Byo-yomi periods left.
    periods: u32,
}

/// Both players' clocks, indexed by seat (clocks follow the players, not the colours, through a swap).
///
/// Each seat's first action of a game has an allowance (`--first-move-secs`, docs/rules.md): while it lasts the
/// seat's main time does not run; what the first action takes beyond it is charged as usual.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    control: TimeControl,
    sides: [Side; 2],
    running: Option<(usize, Instant)>,
    /// Each seat's first-action allowance left: 0 once the seat has acted.
    first_ms: [u64; 2],
}

impl GameClock {
    /// Fresh clocks for a time control, each seat's first action allowed `first_move_ms` before its main time
    /// runs; `None` when it has no clock.
    pub fn with_first_move(control: TimeControl, first_move_ms: u64) -> Option<GameClock> {
        let mut clock = GameClock::new(control)?;
        clock.first_ms = [first_move_ms; 2];
        Some(clock)
    }

    /// Fresh clocks for a time control, with no first-action allowance; `None` when it has no clock.
    pub fn new(control: TimeControl) -> Option<GameClock> {
        let side = match control {
            TimeControl::None => return None,
            TimeControl::Fischer { base_ms, .. } => Side {
                main_ms: base_ms,
                periods: 0,
            },
            TimeControl::ByoYomi {
                base_ms, periods, ..
            } => Side {
                main_ms: base_ms,
                periods,
            },
        };
        Some(GameClock {
            control,
            sides: [side; 2],
            running: None,
            first_ms: [0; 2],
        })
    }

    /// Gives `seat` its first-action allowance back or takes it (a restored game: only a seat that has not acted
    /// yet keeps it).
    pub fn set_first_move(&mut self, seat: usize, first_move_ms: u64) {
        self.first_ms[seat] = first_move_ms;
    }

    /// Clocks rebuilt from stored totals (see [`GameClock::totals`]), stopped.
    pub fn from_totals(control: TimeControl, totals: [i64; 2]) -> Option<GameClock> {
        let mut clock = GameClock::new(control)?;
        for (side, total) in clock.sides.iter_mut().zip(totals) {
            let total = total.max(0) as u64;
            *side = match control {
                TimeControl::ByoYomi {
                    periods, period_ms, ..
                } if period_ms > 0 => {
                    let all_periods = periods as u64 * period_ms;
                    if total >= all_periods {
                        Side {
                            main_ms: total - all_periods,
                            periods,
                        }
                    } else {
                        Side {
                            main_ms: total % period_ms,
                            periods: (total / period_ms) as u32,
                        }
                    }
                }
                _ => Side {
                    main_ms: total,
                    periods: side.periods,
                },
            };
        }
        Some(clock)
    }

    /// Each seat's whole remaining time as one number, for the store: Fischer's remaining time, or byo-yomi's
    /// main time plus the full periods left (a period is whole again after every move).
    pub fn totals(&self, now: Instant) -> [i64; 2] {
        [0, 1].map(|seat| self.budget_ms(seat, now) as i64)
    }

    fn period_ms(&self) -> u64 {
        match self.control {
            TimeControl::ByoYomi { period_ms, .. } => period_ms,
            _ => 0,
        }
    }

    /// Time left for `seat` before its flag falls, as of `now`.
    fn budget_ms(&self, seat: usize, now: Instant) -> u64 {
        let side = self.sides[seat];
        let full = side.main_ms + side.periods as u64 * self.period_ms();
        full.saturating_sub(self.elapsed_ms(seat, now))
    }

    /// The time charged to `seat` since its clock started (what ran beyond its first-action allowance).
    fn elapsed_ms(&self, seat: usize, now: Instant) -> u64 {
        self.ran_ms(seat, now).saturating_sub(self.first_ms[seat])
    }

    /// The time since `seat`'s clock started, 0 when it is not running.
    fn ran_ms(&self, seat: usize, now: Instant) -> u64 {
        match self.running {
            Some((s, since)) if s == seat => {
                now.saturating_duration_since(since).as_millis() as u64
            }
            _ => 0,
        }
    }

    /// Starts `seat`'s clock at `now` (the other one is stopped).
    pub fn start(&mut self, seat: usize, now: Instant) {
        self.running = Some((seat, now));
    }

    /// Which seat's clock runs.
    pub fn running(&self) -> Option<usize> {
        self.running.map(|(s, _)| s)
    }

    /// Stops the running clock at `now` after its player moved, applies the increment (Fischer) or keeps the
    /// current period (byo-yomi), and says how long the move took. Call [`GameClock::flagged`] first: a flag
    /// that has fallen is not undone by moving.
    pub fn stop(&mut self, now: Instant) -> u64 {
        self.stop_credited(now, 0)
    }

    /// [`GameClock::stop`], the move being credited with `credit_ms` of lag: it is charged that much less (never
    /// less than nothing).
    pub fn stop_credited(&mut self, now: Instant, credit_ms: u64) -> u64 {
        let Some((seat, since)) = self.running.take() else {
            return 0;
        };
        let ran = now.saturating_duration_since(since).as_millis() as u64;
        let used = ran
            .saturating_sub(std::mem::take(&mut self.first_ms[seat]))
            .saturating_sub(credit_ms);
        let side = &mut self.sides[seat];
        match self.control {
            TimeControl::None => {}
            TimeControl::Fischer { increment_ms, .. } => {
                side.main_ms = side.main_ms.saturating_sub(used) + increment_ms;
            }
            TimeControl::ByoYomi { period_ms, .. } => {
                if used <= side.main_ms {
                    side.main_ms -= used;
                } else {
                    let over = used - side.main_ms;
                    side.main_ms = 0;
                    let lost = (over / period_ms.max(1)) as u32;
                    side.periods = side.periods.saturating_sub(lost);
                }
            }
        }
        used
    }

    /// Freezes the clocks (game over) without charging any increment.
    pub fn freeze(&mut self, now: Instant) {
        if let Some((seat, since)) = self.running.take() {
            let used = (now.saturating_duration_since(since).as_millis() as u64)
                .saturating_sub(self.first_ms[seat]);
            let period = self.period_ms();
            let side = &mut self.sides[seat];
            if used <= side.main_ms {
                side.main_ms -= used;
            } else {
                let over = used - side.main_ms;
                side.main_ms = 0;
                if let Some(lost) = over.checked_div(period) {
                    side.periods = side.periods.saturating_sub(lost as u32);
                }
            }
        }
    }

    /// The seat whose flag has fallen by `now`, if any.
    pub fn flagged(&self, now: Instant) -> Option<usize> {
        let (seat, _) = self.running?;
        (self.budget_ms(seat, now) == 0).then_some(seat)
    }

    /// When the running seat's flag falls.
    pub fn deadline(&self) -> Option<Instant> {
        let (seat, since) = self.running?;
        let side = self.sides[seat];
        Some(
            since
                + Duration::from_millis(
                    self.first_ms[seat] + side.main_ms + side.periods as u64 * self.period_ms(),
                ),
        )
    }

    /// One seat's clock as shown to clients at `now`.
    pub fn view(&self, seat: usize, now: Instant) -> SideClock {
        let side = self.sides[seat];
        let elapsed = self.elapsed_ms(seat, now);
        let first_move_ms = Some(self.first_ms[seat].saturating_sub(self.ran_ms(seat, now)))
            .filter(|&left| left > 0);
        let view = match self.control {
            TimeControl::ByoYomi { period_ms, .. } => {
                if elapsed < side.main_ms {
                    SideClock {
                        remaining_ms: side.main_ms - elapsed,
                        periods: Some(side.periods),
                        byo_yomi: false,
                        first_move_ms: None,
                    }
                } else {
                    let over = elapsed - side.main_ms;
                    let lost = (over / period_ms.max(1)) as u32;
                    let periods = side.periods.saturating_sub(lost);
                    SideClock {
                        remaining_ms: if periods == 0 {
                            0
                        } else {
                            period_ms - over % period_ms.max(1)
                        },
                        periods: Some(periods),
                        byo_yomi: true,
                        first_move_ms: None,
                    }
                }
            }
            _ => SideClock {
                remaining_ms: side.main_ms.saturating_sub(elapsed),
                periods: None,
                byo_yomi: false,
                first_move_ms: None,
            },
        };
        SideClock {
            first_move_ms,
            ..view
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FISCHER: TimeControl = TimeControl::Fischer {
        base_ms: 10_000,
        increment_ms: 2_000,
    };
    const BYO: TimeControl = TimeControl::ByoYomi {
        base_ms: 5_000,
        periods: 2,
        period_ms: 3_000,
    };

    fn ms(t0: Instant, ms: u64) -> Instant {
        t0 + Duration::from_millis(ms)
    }

    #[test]
    fn fischer_charges_the_mover_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut c = GameClock::new(FISCHER).unwrap();
        c.start(0, t0);
        assert_eq!(c.view(0, ms(t0, 4_000)).remaining_ms, 6_000);
        assert_eq!(c.stop(ms(t0, 4_000)), 4_000);
        assert_eq!(c.view(0, ms(t0, 9_000)).remaining_ms, 8_000);
        assert_eq!(c.view(1, ms(t0, 9_000)).remaining_ms, 10_000);
    }

    #[test]
    fn fischer_flag_falls_at_the_deadline() {
        let t0 = Instant::now();
        let mut c = GameClock::new(FISCHER).unwrap();
        c.start(1, t0);
        assert_eq!(c.deadline(), Some(ms(t0, 10_000)));
        assert_eq!(c.flagged(ms(t0, 9_999)), None);
        assert_eq!(c.flagged(ms(t0, 10_000)), Some(1));
    }

    #[test]
    fn byo_yomi_keeps_a_period_used_in_part_and_loses_a_whole_one() {
        let t0 = Instant::now();
        let mut c = GameClock::new(BYO).unwrap();
        c.start(0, t0);
        // Main time gone and 1 s into the first period: it is kept.
        c.stop(ms(t0, 6_000));
        let v = c.view(0, ms(t0, 6_000));
        assert_eq!(
            (v.remaining_ms, v.periods, v.byo_yomi),
            (3_000, Some(2), true)
        );
        // A whole period and a bit: one period lost.
        c.start(0, ms(t0, 10_000));
        let v = c.view(0, ms(t0, 13_500));
        assert_eq!((v.remaining_ms, v.periods), (2_500, Some(1)));
        c.stop(ms(t0, 13_500));
        assert_eq!(c.deadline(), None);
        c.start(0, ms(t0, 20_000));
        assert_eq!(c.deadline(), Some(ms(t0, 23_000)));
        assert_eq!(c.flagged(ms(t0, 23_000)), Some(0));
    }

    #[test]
    fn a_first_action_runs_on_its_allowance_before_the_main_time() {
        let t0 = Instant::now();
        let mut c = GameClock::with_first_move(FISCHER, 3_000).unwrap();
        c.start(0, t0);
        let v = c.view(0, ms(t0, 1_000));
        assert_eq!((v.remaining_ms, v.first_move_ms), (10_000, Some(2_000)));
        // Beyond the allowance the main time runs; the flag falls allowance + main time after the start.
        let v = c.view(0, ms(t0, 4_000));
        assert_eq!((v.remaining_ms, v.first_move_ms), (9_000, None));
        assert_eq!(c.deadline(), Some(ms(t0, 13_000)));
        assert_eq!(c.flagged(ms(t0, 12_999)), None);
        assert_eq!(c.flagged(ms(t0, 13_000)), Some(0));
        // The first action is charged what it took beyond the allowance, then earns the increment.
        assert_eq!(c.stop(ms(t0, 4_000)), 1_000);
        assert_eq!(c.view(0, ms(t0, 4_000)).remaining_ms, 11_000);
        // The other seat still has its own allowance, shown while it waits.
        assert_eq!(c.view(1, ms(t0, 4_000)).first_move_ms, Some(3_000));
        c.start(1, ms(t0, 4_000));
        assert_eq!(c.stop(ms(t0, 5_000)), 0);
        assert_eq!(c.view(1, ms(t0, 5_000)).remaining_ms, 12_000);
        // A second action has no allowance.
        c.start(0, ms(t0, 5_000));
        assert_eq!(c.view(0, ms(t0, 6_000)).remaining_ms, 10_000);
        assert_eq!(c.view(0, ms(t0, 6_000)).first_move_ms, None);
        assert_eq!(c.deadline(), Some(ms(t0, 16_000)));
    }

    #[test]
    fn a_first_action_allowance_holds_under_byo_yomi() {
        let t0 = Instant::now();
        let mut c = GameClock::with_first_move(BYO, 2_000).unwrap();
        c.start(0, t0);
        assert_eq!(c.deadline(), Some(ms(t0, 2_000 + 5_000 + 6_000)));
        assert_eq!(c.stop(ms(t0, 2_500)), 500);
        let v = c.view(0, ms(t0, 2_500));
        assert_eq!(
            (v.remaining_ms, v.periods, v.byo_yomi),
            (4_500, Some(2), false)
        );
    }

    #[test]
    fn totals_round_trip_through_the_store_encoding() {
        let t0 = Instant::now();
        let mut c = GameClock::new(BYO).unwrap();
        c.start(0, t0);
        c.stop(ms(t0, 2_000));
        c.start(1, ms(t0, 2_000));
        c.stop(ms(t0, 9_000));
        let totals = c.totals(ms(t0, 9_000));
        assert_eq!(totals, [3_000 + 6_000, 6_000]);
        let back = GameClock::from_totals(BYO, totals).unwrap();
        assert_eq!(back.sides, c.sides);
        let f = GameClock::from_totals(FISCHER, [1234, 5678]).unwrap();
        assert_eq!(f.view(1, t0).remaining_ms, 5678);
    }
}
