//! Threat-space search: VCF (victory by continuous fours) and VCT (by fours and threes), for either colour.
//!
//! The attacker plays only forcing moves; the defender answers a four on its one completing point and a three on
//! the points where the attacker would make a four, or with a four of its own (which this search counts as a
//! successful defence: it never claims a win it has not proved). Under Renju a black four whose completing
//! point is forbidden is no threat, black never plays a forbidden point, and a white four whose completing point
//! is forbidden to black cannot be stopped.

use std::collections::HashMap;

use rules::Color;

use crate::position::{class, Position, WIDTH};
use crate::search::Budget;

/// Directions' steps in cells, for walking a line through a point.
const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Threat searches over one position, with a table of positions already proved not to be wins.
pub struct Threats {
    failed: HashMap<(u64, Color), u8>,
    /// The most failures remembered: the table is emptied when it is full, so that its memory stays bounded
    /// within a search as well as between searches.
    cap: usize,
}

/// The default number of failures [`Threats`] remembers.
pub const DEFAULT_CAP: usize = 1 << 20;

/// An estimate of the memory one remembered failure takes in the worst case: the hash table's bucket (key,
/// depth and control byte, about 25 bytes), at most 2.3 buckets per entry at its lowest load, and the old
/// buckets alive while it grows.
pub const ENTRY_BYTES: u64 = 96;

impl Default for Threats {
    fn default() -> Self {
        Threats::new()
    }
}

impl Threats {
    /// An empty table.
    pub fn new() -> Threats {
        Threats::with_cap(DEFAULT_CAP)
    }

    /// An empty table that remembers at most `cap` failures (at least one).
    pub fn with_cap(cap: usize) -> Threats {
        Threats {
            failed: HashMap::new(),
            cap: cap.max(1),
        }
    }

    /// The most failures remembered.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Forgets every proved failure (the table is only valid for one rule choice).
    pub fn clear(&mut self) {
        self.failed.clear();
    }

    fn remember(&mut self, key: (u64, Color), depth: u32) {
        if self.failed.len() >= self.cap {
            self.failed.clear();
        }
        self.failed.insert(key, depth.min(255) as u8);
    }

    /// Positions remembered as failures.
    pub fn len(&self) -> usize {
        self.failed.len()
    }

    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.failed.is_empty()
    }

    /// A VCF for `attacker` (to move, whoever would be to move by stone count) of at most `depth` fours: the
    /// attacker's moves in order (each defender answer is forced), ending with a five or with a four that cannot
    /// be stopped. `None` if none was found within the budget.
    pub fn vcf(
        &mut self,
        pos: &mut Position,
        attacker: Color,
        depth: u32,
        budget: &mut Budget,
    ) -> Option<Vec<usize>> {
        let mut line = Vec::new();
        self.vcf_at(pos, attacker, depth, budget, &mut line)
            .then_some(line)
    }

    fn vcf_at(
        &mut self,
        pos: &mut Position,
        a: Color,
        depth: u32,
        budget: &mut Budget,
        line: &mut Vec<usize>,
    ) -> bool {
        let d = a.opposite();
        if let Some(&five) = pos.five_cells(a).first() {
            line.push(five);
            return true;
        }
        if depth == 0 || pos.count(d, class::FIVE) > 0 || budget.tick() {
            return false;
        }
        let key = (pos.hash(), a);
        if self.failed.get(&key).is_some_and(|&k| k as u32 >= depth) {
            return false;
        }
        let mut fours: Vec<(i32, usize)> = pos
            .candidates()
            .filter(|&i| pos.class(a, i) >= class::B4 && pos.playable(a, i))
            .map(|i| (-(pos.class(a, i) as i32 * 1000 + pos.value(a, i)), i))
            .collect();
        fours.sort_unstable();
        for (_, m) in fours {
            pos.place(m, a);
            let replies = new_fives(pos, a, m);
            let won = match replies.as_slice() {
                [] => false,
                [reply] if pos.playable(d, *reply) => {
                    pos.place(*reply, d);
                    line.push(m);
                    let won = self.vcf_at(pos, a, depth - 1, budget, line);
                    if !won {
                        line.pop();
                    }
                    pos.remove(*reply);
                    won
                }
                // Two completing points, or one the defender may not take: the four cannot be stopped.
                _ => {
                    line.push(m);
                    true
                }
            };
            pos.remove(m);
            if won {
                return true;
            }
            if budget.stopped {
                return false;
            }
        }
        if !budget.stopped {
            self.remember(key, depth);
        }
        false
    }

    /// A VCT for `attacker` of at most `depth` threats (each level also tries a VCF of `vcf_depth` fours):
    /// returns the attacker's first move.
    pub fn vct(
        &mut self,
        pos: &mut Position,
        attacker: Color,
        depth: u32,
        vcf_depth: u32,
        budget: &mut Budget,
    ) -> Option<usize> {
        let mut first = None;
        self.vct_at(pos, attacker, depth, vcf_depth, budget, &mut first)
            .then_some(first)
            .flatten()
    }

    fn vct_at(
        &mut self,
        pos: &mut Position,
        a: Color,
        depth: u32,
        vcf_depth: u32,
        budget: &mut Budget,
        first: &mut Option<usize>,
    ) -> bool {
        let d = a.opposite();
        if let Some(line) = self.vcf(pos, a, vcf_depth, budget) {
            *first = line.first().copied();
            return true;
        }
        if depth == 0 || pos.count(d, class::FIVE) > 0 || budget.tick() {
            return false;
        }
        // Threes only: the fours were tried by the VCF.
        let mut threes: Vec<(i32, usize)> = pos
            .candidates()
            .filter(|&i| {
                matches!(pos.class(a, i), class::F3 | class::F3F3 | class::B4F3)
                    && pos.playable(a, i)
            })
            .map(|i| (-pos.value(a, i), i))
            .collect();
        threes.sort_unstable();
        threes.truncate(12);
        for (_, m) in threes {
            pos.place(m, a);
            // The defences: the attacker's four points, and the defender's own fours.
            let defences: Vec<usize> = pos
                .candidates()
                .filter(|&i| pos.class(a, i) >= class::B4 || pos.class(d, i) >= class::B4)
                .collect();
            let mut refuted = false;
            for &r in &defences {
                if !pos.playable(d, r) {
                    continue;
                }
                if pos.class(d, r) >= class::B4 {
                    // A counter-four: this search does not follow it and counts it as a defence.
                    refuted = true;
                    break;
                }
                pos.place(r, d);
                let won = self.vct_at(pos, a, depth - 1, vcf_depth, budget, &mut None);
                pos.remove(r);
                if !won {
                    refuted = true;
                    break;
                }
            }
            pos.remove(m);
            if budget.stopped {
                return false;
            }
            if !refuted {
                *first = Some(m);
                return true;
            }
        }
        false
    }
}

/// The cells where `a` completes a five along the lines through `m` (a stone of `a` just placed).
pub fn new_fives(pos: &Position, a: Color, m: usize) -> Vec<usize> {
    let size = pos.size() as i32;
    let (x, y) = ((m % WIDTH) as i32, (m / WIDTH) as i32);
    let mut out = Vec::new();
    for (dx, dy) in STEPS {
        for k in -4..=4 {
            let (qx, qy) = (x + k * dx, y + k * dy);
            if k == 0 || qx < 0 || qy < 0 || qx >= size || qy >= size {
                continue;
            }
            let q = qy as usize * WIDTH + qx as usize;
            if pos.get(q).is_none() && pos.class(a, q) == class::FIVE && !out.contains(&q) {
                out.push(q);
            }
        }
    }
    out
}
