//! Arena pairing and the lichess-like streak scoring.

use tournament::arena::{pair, points, score, ArenaRecord, Waiting};
use tournament::Outcome::{Draw, Loss, Win};

fn w(id: u64, score: u32, rating: i32, last: Option<u64>) -> Waiting {
    Waiting {
        id,
        score,
        rating,
        last_opponent: last,
    }
}

#[test]
fn a_win_is_two_a_draw_one_and_a_loss_nothing() {
    assert_eq!(
        (points(Win, false), points(Draw, false), points(Loss, false)),
        (2, 1, 0)
    );
}

#[test]
fn after_two_wins_in_a_row_results_count_double() {
    assert_eq!(score(&[Win, Win]), 4);
    assert_eq!(score(&[Win, Win, Win]), 8, "the third win is on fire");
    assert_eq!(score(&[Win, Win, Draw]), 6, "a draw on fire is worth 2");
    assert_eq!(
        score(&[Win, Win, Draw, Win]),
        8,
        "the draw ended the streak"
    );
    // 2 + 2, then the loss on fire is 0, then 2 + 2 + 4.
    assert_eq!(score(&[Win, Win, Loss, Win, Win, Win]), 12);
    assert_eq!(
        score(&[Win, Draw, Win, Loss, Win]),
        7,
        "never two wins in a row: 2 + 1 + 2 + 0 + 2"
    );
}

#[test]
fn the_record_says_when_a_player_is_on_fire() {
    let mut r = ArenaRecord::new();
    assert!(!r.on_fire());
    assert_eq!(r.add(Win), 2);
    assert!(!r.on_fire());
    assert_eq!(r.add(Win), 2);
    assert!(r.on_fire());
    assert_eq!(r.add(Win), 4);
    assert_eq!(r.add(Loss), 0);
    assert!(!r.on_fire());
    assert_eq!(r.score(), 8);
    assert_eq!(r.results(), &[Win, Win, Win, Loss]);
}

#[test]
fn waiting_players_are_paired_by_score_then_rating() {
    let (pairs, left) = pair(&[
        w(1, 0, 1500, None),
        w(2, 4, 1400, None),
        w(3, 4, 1600, None),
        w(4, 2, 2000, None),
    ]);
    assert_eq!(pairs, vec![(3, 2), (4, 1)]);
    assert_eq!(left, None);
}

#[test]
fn the_last_opponent_is_avoided_when_someone_else_is_free() {
    let (pairs, _) = pair(&[
        w(1, 6, 1500, Some(2)),
        w(2, 6, 1500, Some(1)),
        w(3, 4, 1500, None),
        w(4, 2, 1500, None),
    ]);
    assert_eq!(pairs, vec![(1, 3), (2, 4)]);
}

#[test]
fn the_last_opponent_is_taken_when_nobody_else_waits() {
    let (pairs, left) = pair(&[w(1, 6, 1500, Some(2)), w(2, 6, 1500, Some(1))]);
    assert_eq!(pairs, vec![(1, 2)]);
    assert_eq!(left, None);
}

#[test]
fn an_odd_player_out_keeps_waiting_and_nobody_pairs_alone() {
    let (pairs, left) = pair(&[
        w(1, 0, 1500, None),
        w(2, 0, 1400, None),
        w(3, 0, 1300, None),
    ]);
    assert_eq!(pairs, vec![(1, 2)]);
    assert_eq!(left, Some(3));
    assert_eq!(pair(&[]), (vec![], None));
    assert_eq!(pair(&[w(9, 0, 1500, None)]), (vec![], Some(9)));
}
