//! Time: a move never takes more than the clock allows (Fischer, byo-yomi, per move), and the cancel flag
//! stops a search at once.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::common::game;
use engine::{Engine, Limits, TimeBudget};
use rules::Rules;

const MIDDLE_GAME: [&str; 12] = [
    "h8", "i9", "g9", "i7", "i8", "g8", "j9", "h10", "f7", "h7", "g6", "e8",
];

fn timed(time: TimeBudget, cancel: &AtomicBool) -> Duration {
    let g = game(Rules::freestyle(), &MIDDLE_GAME);
    let mut engine = Engine::new(Limits::level(8), 1);
    let start = Instant::now();
    let d = engine.think(&g, &time, cancel).unwrap();
    assert!(g.check(d.action).is_ok());
    start.elapsed()
}

#[test]
fn a_move_stays_within_a_fischer_share() {
    let t = timed(
        TimeBudget::Fischer {
            remaining: Duration::from_millis(3_000),
            increment: Duration::from_millis(0),
        },
        &AtomicBool::new(false),
    );
    // A thirtieth of three seconds, less the safety margin; the rest is slack for a loaded machine.
    assert!(t < Duration::from_millis(1_000), "{t:?}");
}

#[test]
fn a_move_in_byo_yomi_stays_inside_the_period() {
    let t = timed(
        TimeBudget::ByoYomi {
            remaining: Duration::ZERO,
            period: Duration::from_millis(1_500),
            periods: 1,
        },
        &AtomicBool::new(false),
    );
    assert!(t < Duration::from_millis(1_500), "{t:?}");
}

#[test]
fn the_cancel_flag_stops_the_search() {
    let t = timed(TimeBudget::Unlimited, &AtomicBool::new(true));
    assert!(t < Duration::from_millis(1_000), "{t:?}");
}
