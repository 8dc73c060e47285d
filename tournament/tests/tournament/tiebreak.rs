//! Tie-breaks on a small crosstable computed by hand (five players, three rounds, a bye each round).
//!
//! | round | boards (white first)        | bye |
//! |-------|-----------------------------|-----|
//! | 1     | 1–4 1-0, 5–2 ½-½            | 3   |
//! | 2     | 3–1 0-1, 2–4 1-0            | 5   |
//! | 3     | 1–2 ½-½, 3–5 1-0            | 4   |
//!
//! Scores: 1: 2½, 2: 2, 3: 2, 5: 1½, 4: 1. For the others' tie-breaks an unplayed round counts ½, so the
//! adjusted scores are 1: 2½, 2: 2, 3: 1½, 4: ½, 5: 1. Virtual opponents (S_before + (1 − S_round) + ½(n − R)):
//! 3 in round 1: 0 + 0 + 1 = 1; 5 in round 2: ½ + 0 + ½ = 1; 4 in round 3: 0 + 0 + 0 = 0.

use tournament::tiebreak::{
    buchholz, buchholz_cut1, direct_encounter, sonneborn_berger, standings, TieBreak,
};
use tournament::{Board, BoardResult, Round, Swiss, SwissError};

fn crosstable() -> Swiss {
    let mut s = Swiss::new(
        "hand",
        3,
        &[("P1", 0), ("P2", 0), ("P3", 0), ("P4", 0), ("P5", 0)],
    )
    .unwrap();
    let round = |b: &[(u32, u32)], bye: u32| Round {
        boards: b
            .iter()
            .map(|&(white, black)| Board { white, black })
            .collect(),
        bye: Some(bye),
    };
    s.record(
        &round(&[(1, 4), (5, 2)], 3),
        &[BoardResult::WhiteWins, BoardResult::Draw],
        &[],
    )
    .unwrap();
    s.record(
        &round(&[(3, 1), (2, 4)], 5),
        &[BoardResult::BlackWins, BoardResult::WhiteWins],
        &[],
    )
    .unwrap();
    s.record(
        &round(&[(1, 2), (3, 5)], 4),
        &[BoardResult::Draw, BoardResult::WhiteWins],
        &[],
    )
    .unwrap();
    s
}

#[test]
fn scores_count_the_byes_as_wins() {
    let s = crosstable();
    let scores: Vec<u32> = (1..=5).map(|p| s.score_halves(p)).collect();
    assert_eq!(scores, vec![5, 4, 4, 2, 3]);
}

#[test]
fn buchholz_uses_adjusted_scores_and_virtual_opponents() {
    let s = crosstable();
    let values: Vec<f64> = (1..=5).map(|p| buchholz(&s, p).unwrap()).collect();
    assert_eq!(values, vec![4.0, 4.0, 4.5, 4.5, 4.5]);
}

#[test]
fn buchholz_cut_1_drops_the_lowest_contribution() {
    let s = crosstable();
    let values: Vec<f64> = (1..=5).map(|p| buchholz_cut1(&s, p).unwrap()).collect();
    assert_eq!(values, vec![3.5, 3.5, 3.5, 4.5, 3.5]);
}

#[test]
fn sonneborn_berger_weighs_each_opponent_by_the_result() {
    let s = crosstable();
    let values: Vec<f64> = (1..=5).map(|p| sonneborn_berger(&s, p).unwrap()).collect();
    assert_eq!(values, vec![3.0, 2.25, 2.0, 0.0, 2.0]);
}

#[test]
fn direct_encounter_counts_only_when_everyone_in_the_group_has_met() {
    let s = crosstable();
    assert_eq!(direct_encounter(&s, &[1, 2]).unwrap(), vec![0.5, 0.5]);
    assert_eq!(direct_encounter(&s, &[3, 5]).unwrap(), vec![1.0, 0.0]);
    assert_eq!(
        direct_encounter(&s, &[1, 2, 3]).unwrap(),
        vec![0.0, 0.0, 0.0],
        "2 and 3 never met"
    );
}

#[test]
fn standings_order_by_score_then_each_tie_break() {
    let s = crosstable();
    let table = standings(
        &s,
        &[
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
        ],
    )
    .unwrap();
    let order: Vec<(u32, u32)> = table.iter().map(|r| (r.place, r.id)).collect();
    assert_eq!(order, vec![(1, 1), (2, 3), (3, 2), (4, 5), (5, 4)]);
    assert_eq!(table[1].tie_breaks, vec![3.5, 4.5, 2.0]);
}

#[test]
fn players_equal_on_everything_share_a_place() {
    let s = crosstable();
    let table = standings(&s, &[TieBreak::DirectEncounter]).unwrap();
    let order: Vec<(u32, u32)> = table.iter().map(|r| (r.place, r.id)).collect();
    assert_eq!(order, vec![(1, 1), (2, 2), (2, 3), (4, 5), (5, 4)]);
}

#[test]
fn unknown_players_and_broken_tournaments_are_typed_errors() {
    let s = crosstable();
    assert_eq!(buchholz(&s, 6), Err(SwissError::UnknownPlayer(6)));
    assert_eq!(buchholz(&s, 0), Err(SwissError::UnknownPlayer(0)));
    assert_eq!(
        direct_encounter(&s, &[1, 9]),
        Err(SwissError::UnknownPlayer(9))
    );
    let mut broken = s.clone();
    broken.players[4].history.pop();
    assert_eq!(
        standings(&broken, &[TieBreak::Buchholz]),
        Err(SwissError::Inconsistent)
    );
    assert_eq!(sonneborn_berger(&broken, 1), Err(SwissError::Inconsistent));
}
