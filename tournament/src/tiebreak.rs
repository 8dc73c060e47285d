//! Tie-breaks and standings: Buchholz, Buchholz cut 1, Sonneborn–Berger, direct encounter.
//!
//! # Unplayed games (our choice, after FIDE C.02 13.15 / the 2009 Congress rule)
//!
//! - A player's own unplayed round (a bye of any kind, a forfeit won or lost, an absence) counts, for Buchholz
//!   and Sonneborn–Berger, as a game against a **virtual opponent** whose score is
//!   `S_before + (1 − S_round) + ½ × (n − R)`: the player's score before round `R`, plus the opposite of what
//!   the player got in that round, plus a draw for every later round (`n` rounds completed). For
//!   Sonneborn–Berger the virtual opponent's score is multiplied by the points the player got in that round.
//! - An opponent's score, as it enters a player's Buchholz or Sonneborn–Berger, counts the opponent's own
//!   unplayed rounds as draws (½ each), so that a bye or a forfeit elsewhere does not move anyone else's
//!   tie-break.
//! - Buchholz cut 1 drops the lowest single contribution (a virtual opponent's included).
//! - Direct encounter: among players equal on score (and on every earlier tie-break), the points each scored
//!   in the games played between them; it separates only if every pair of them has played (otherwise all get 0).
//!
//! Values are points as `f64`: every value is a multiple of ¼, exact in binary floating point.

use crate::score::Outcome;
use crate::swiss::{GameKind, PlayerId, RoundEntry, Swiss, SwissError};
use std::cmp::Ordering;

/// One tie-break.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Sum of the opponents' scores.
    Buchholz,
    /// Buchholz without the lowest contribution.
    BuchholzCut1,
    /// Sum of the scores of the opponents beaten, plus half the scores of those drawn.
    SonnebornBerger,
    /// Points scored against the others of a tie group.
    DirectEncounter,
}

fn points(halves: u32) -> f64 {
    f64::from(halves) / 2.0
}

/// Whether an entry is a game played over the board.
fn played(e: &RoundEntry) -> Option<(PlayerId, Outcome)> {
    match *e {
        RoundEntry::Game {
            opponent,
            outcome,
            kind,
            ..
        } if kind != GameKind::Forfeit => Some((opponent, outcome)),
        _ => None,
    }
}

/// A player's score for the others' tie-breaks: its unplayed rounds count as draws.
fn adjusted_score(swiss: &Swiss, id: PlayerId) -> f64 {
    let p = &swiss.players[id as usize - 1];
    p.history
        .iter()
        .map(|e| {
            if played(e).is_some() {
                points(swiss.entry_halves(e))
            } else {
                0.5
            }
        })
        .sum()
}

/// Each round's contribution to a player's Buchholz and its result there (1, ½, 0).
fn contributions(swiss: &Swiss, id: PlayerId) -> Vec<(f64, f64)> {
    let p = &swiss.players[id as usize - 1];
    let n = p.history.len();
    let mut before = 0.0;
    let mut out = Vec::with_capacity(n);
    for (r, e) in p.history.iter().enumerate() {
        let got = points(swiss.entry_halves(e));
        let opp = match played(e) {
            Some((o, _)) => adjusted_score(swiss, o),
            None => before + (1.0 - got) + 0.5 * (n - (r + 1)) as f64,
        };
        out.push((opp, got));
        before += got;
    }
    out
}

/// Checks the tournament and the players named before reading their histories.
fn check(swiss: &Swiss, ids: &[PlayerId]) -> Result<(), SwissError> {
    swiss.validate()?;
    for &id in ids {
        swiss.player(id)?;
    }
    Ok(())
}

/// Buchholz of a player.
pub fn buchholz(swiss: &Swiss, id: PlayerId) -> Result<f64, SwissError> {
    check(swiss, &[id])?;
    Ok(buchholz_of(swiss, id))
}

fn buchholz_of(swiss: &Swiss, id: PlayerId) -> f64 {
    contributions(swiss, id).iter().map(|c| c.0).sum()
}

/// Buchholz cut 1 of a player.
pub fn buchholz_cut1(swiss: &Swiss, id: PlayerId) -> Result<f64, SwissError> {
    check(swiss, &[id])?;
    Ok(buchholz_cut1_of(swiss, id))
}

fn buchholz_cut1_of(swiss: &Swiss, id: PlayerId) -> f64 {
    let c = contributions(swiss, id);
    let lowest = c.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    if c.is_empty() {
        0.0
    } else {
        c.iter().map(|c| c.0).sum::<f64>() - lowest
    }
}

/// Sonneborn–Berger of a player.
pub fn sonneborn_berger(swiss: &Swiss, id: PlayerId) -> Result<f64, SwissError> {
    check(swiss, &[id])?;
    Ok(sonneborn_berger_of(swiss, id))
}

fn sonneborn_berger_of(swiss: &Swiss, id: PlayerId) -> f64 {
    contributions(swiss, id)
        .iter()
        .map(|(s, got)| s * got)
        .sum()
}

/// Points each of `group` scored in games played among them; all zeros unless every pair of them has played.
pub fn direct_encounter(swiss: &Swiss, group: &[PlayerId]) -> Result<Vec<f64>, SwissError> {
    check(swiss, group)?;
    Ok(direct_encounter_of(swiss, group))
}

fn direct_encounter_of(swiss: &Swiss, group: &[PlayerId]) -> Vec<f64> {
    let mut pts = vec![0.0; group.len()];
    for (i, &id) in group.iter().enumerate() {
        for e in &swiss.players[id as usize - 1].history {
            if let Some((o, outcome)) = played(e) {
                if group.contains(&o) && o != id {
                    pts[i] += match outcome {
                        Outcome::Win => 1.0,
                        Outcome::Draw => 0.5,
                        Outcome::Loss => 0.0,
                    };
                }
            }
        }
    }
    if !all_met(swiss, group) {
        return vec![0.0; group.len()];
    }
    pts
}

fn all_met(swiss: &Swiss, group: &[PlayerId]) -> bool {
    group.iter().enumerate().all(|(i, &a)| {
        group[i + 1..].iter().all(|&b| {
            swiss.players[a as usize - 1]
                .history
                .iter()
                .any(|e| played(e).is_some_and(|(o, _)| o == b))
        })
    })
}

/// One line of the standings.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1-based place; equal players (on score and every tie-break) share it.
    pub place: u32,
    /// The player.
    pub id: PlayerId,
    /// Points.
    pub score: f64,
    /// The tie-break values, in the order asked.
    pub tie_breaks: Vec<f64>,
}

/// The standings: by score, then by each tie-break in order, then by starting rank.
pub fn standings(swiss: &Swiss, order: &[TieBreak]) -> Result<Vec<Standing>, SwissError> {
    swiss.validate()?;
    Ok(standings_of(swiss, order))
}

/// The standings of a tournament already validated.
pub(crate) fn standings_of(swiss: &Swiss, order: &[TieBreak]) -> Vec<Standing> {
    let mut rows: Vec<Standing> = swiss
        .players
        .iter()
        .map(|p| Standing {
            place: 0,
            id: p.id,
            score: points(swiss.score_halves(p.id)),
            tie_breaks: Vec::new(),
        })
        .collect();
    for (k, tb) in order.iter().enumerate() {
        match tb {
            TieBreak::DirectEncounter => {
                // Groups equal so far get their mutual points.
                let mut done = vec![false; rows.len()];
                for i in 0..rows.len() {
                    if done[i] {
                        continue;
                    }
                    let group: Vec<usize> = (i..rows.len())
                        .filter(|&j| {
                            rows[j].score == rows[i].score
                                && rows[j].tie_breaks[..k] == rows[i].tie_breaks[..k]
                        })
                        .collect();
                    let ids: Vec<PlayerId> = group.iter().map(|&j| rows[j].id).collect();
                    let de = if ids.len() > 1 {
                        direct_encounter_of(swiss, &ids)
                    } else {
                        vec![0.0]
                    };
                    for (g, v) in group.iter().zip(de) {
                        rows[*g].tie_breaks.push(v);
                        done[*g] = true;
                    }
                }
            }
            _ => {
                for r in rows.iter_mut() {
                    let v = match tb {
                        TieBreak::Buchholz => buchholz_of(swiss, r.id),
                        TieBreak::BuchholzCut1 => buchholz_cut1_of(swiss, r.id),
                        _ => sonneborn_berger_of(swiss, r.id),
                    };
                    r.tie_breaks.push(v);
                }
            }
        }
    }
    let key = |a: &Standing, b: &Standing| -> Ordering {
        b.score.total_cmp(&a.score).then_with(|| {
            a.tie_breaks
                .iter()
                .zip(&b.tie_breaks)
                .map(|(x, y)| y.total_cmp(x))
                .find(|o| *o != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        })
    };
    rows.sort_by(|a, b| key(a, b).then(a.id.cmp(&b.id)));
    for i in 0..rows.len() {
        rows[i].place = if i > 0 && key(&rows[i - 1], &rows[i]) == Ordering::Equal {
            rows[i - 1].place
        } else {
            i as u32 + 1
        };
    }
    rows
}
