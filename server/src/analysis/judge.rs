//! Judging each move of an analysed game from the engine's scores of the positions before and after it, with
//! the thresholds its game's brain gives ([`Judging`]; the table is in `docs/engine.md`, "Computer analysis"):
//! a proved win missed or allowed (in Gomoku, a VCF) is a blunder in every game; a drop of the exact score
//! (Othello's solver near the end) counts discs; a drop of the estimate counts the game's units, where they mean
//! something to a player (Gomoku is judged by its threats alone).

use engine::brain::{Judging, Score};
use games::{AnyAction, GameKind};
use rules::Color;

use super::report::{Judgment, Reason};

/// A position's score as one side sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// A forced (or finished) win.
    Win,
    /// A forced (or finished) loss.
    Loss,
    /// An estimate in hundredths of the game's unit.
    Units(i32),
    /// Othello's exact disc difference (also a finished game's).
    Exact(i32),
}

impl Seen {
    /// The engine's score for the side to act, as `side` sees it.
    pub fn of(score: Score, to_act: Color, side: Color) -> Seen {
        let score = if to_act == side {
            score
        } else {
            score.flipped()
        };
        match score {
            Score::Win => Seen::Win,
            Score::Loss => Seen::Loss,
            Score::Units(u) => Seen::Units(u),
            Score::Exact(d) => Seen::Exact(d),
        }
    }

    /// In hundredths of the game's unit (an exact disc difference as hundredths of a disc); `None` for a win
    /// or a loss.
    fn units(self) -> Option<i32> {
        match self {
            Seen::Units(u) => Some(u),
            Seen::Exact(d) => Some(d * 100),
            Seen::Win | Seen::Loss => None,
        }
    }
}

/// The judging of a game's analysis: its first brain's ([`engine::brain::BrainInfo::judging`]).
pub fn judging(kind: GameKind) -> Judging {
    engine::brain::brains(kind)
        .first()
        .map_or(Judging::THREATS_ONLY, |info| info.judging)
}

/// The reason a drop of a game's units is called.
fn drop_reason(name: &str) -> Reason {
    match name {
        "material_loss" => Reason::MaterialLoss,
        _ => Reason::EvalDrop,
    }
}

/// What one move is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// How bad.
    pub judgment: Judgment,
    /// Why.
    pub reason: Reason,
    /// What it lost in the reason's unit (none for a win or a VCF).
    pub loss: Option<i32>,
}

/// The move from a position to the next, as the engine saw both.
pub struct MoveSeen<'a> {
    /// The game.
    pub kind: GameKind,
    /// What was played.
    pub played: &'a AnyAction,
    /// The engine's best action before it.
    pub best: Option<&'a AnyAction>,
    /// The position before, as the mover sees it.
    pub before: Seen,
    /// The position after, as the mover sees it.
    pub after: Seen,
    /// Gomoku: the mover had a VCF before the move.
    pub had_vcf: bool,
    /// Gomoku: the opponent, to act after the move, has a VCF.
    pub allows_vcf: bool,
}

/// The verdict on one move, or `None` for a good one (the engine's own choice is never judged).
pub fn judge(m: &MoveSeen<'_>) -> Option<Verdict> {
    if m.best == Some(m.played) {
        return None;
    }
    let judging = judging(m.kind);
    // Both positions solved (Othello near the end, and its finished board): the discs lost, exactly.
    if let (Seen::Exact(before), Seen::Exact(after)) = (m.before, m.after) {
        return drop_by(Reason::DiscLoss, judging.exact, before - after);
    }
    // Beside a proved win or loss, a solved position is one too (or a draw).
    let proved = |s: Seen| match s {
        Seen::Exact(d) if d > 0 => Seen::Win,
        Seen::Exact(d) if d < 0 => Seen::Loss,
        other => other,
    };
    let (before, after) = match (m.before, m.after) {
        (b @ (Seen::Win | Seen::Loss), a) | (b, a @ (Seen::Win | Seen::Loss)) => {
            (proved(b), proved(a))
        }
        pair => pair,
    };
    let blunder = |reason| {
        Some(Verdict {
            judgment: Judgment::Blunder,
            reason,
            loss: None,
        })
    };
    if before == Seen::Win && after != Seen::Win {
        return blunder(if m.had_vcf {
            Reason::MissedVcf
        } else {
            Reason::MissedWin
        });
    }
    if before != Seen::Loss && after == Seen::Loss {
        return blunder(if m.allows_vcf {
            Reason::AllowedVcf
        } else {
            Reason::AllowedWin
        });
    }
    let (name, at_least) = judging.drop?;
    let (before, after) = (before.units()?, after.units()?);
    drop_by(drop_reason(name), at_least, before - after)
}

/// The judgment a drop of `drop` earns against the thresholds `at_least` (inaccuracy, mistake, blunder).
fn drop_by(reason: Reason, at_least: [i32; 3], drop: i32) -> Option<Verdict> {
    let level = at_least.iter().rposition(|&x| drop >= x)?;
    Some(Verdict {
        judgment: [Judgment::Inaccuracy, Judgment::Mistake, Judgment::Blunder][level],
        reason,
        loss: Some(drop),
    })
}

/// The advantage of the first colour in -1…1, from the score it sees: what the graph draws. A win is ±1; an
/// estimate `x` (in the game's units) is `x / (|x| + s)` with the game's scale `s`, so that `s` is a half.
pub fn advantage(kind: GameKind, seen: Seen) -> f64 {
    let scale = judging(kind).scale;
    match seen {
        Seen::Win => 1.0,
        Seen::Loss => -1.0,
        other => {
            let x = f64::from(other.units().unwrap_or(0));
            x / (x.abs() + scale)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn othello(text: &str) -> AnyAction {
        GameKind::Othello.parse_action(text).unwrap()
    }

    fn seen(kind: GameKind, before: Seen, after: Seen) -> Option<Verdict> {
        let (played, best) = (othello("f5"), othello("d3"));
        judge(&MoveSeen {
            kind,
            played: &played,
            best: Some(&best),
            before,
            after,
            had_vcf: false,
            allows_vcf: false,
        })
    }

    #[test]
    fn each_threshold_starts_a_judgment_at_its_value() {
        let (_, at_least) = judging(GameKind::Draughts).drop.unwrap();
        for (k, &x) in at_least.iter().enumerate() {
            let judged = seen(GameKind::Draughts, Seen::Units(x), Seen::Units(0)).unwrap();
            assert_eq!(judged.judgment as usize, k);
            let below = seen(GameKind::Draughts, Seen::Units(x - 1), Seen::Units(0));
            assert_eq!(below.map(|v| v.judgment as usize + 1).unwrap_or(0), k);
        }
    }

    #[test]
    fn othello_counts_discs_when_both_positions_are_solved() {
        let v = seen(GameKind::Othello, Seen::Exact(6), Seen::Exact(2)).unwrap();
        assert_eq!(
            (v.judgment, v.reason, v.loss),
            (Judgment::Mistake, Reason::DiscLoss, Some(4))
        );
        assert_eq!(
            seen(GameKind::Othello, Seen::Exact(6), Seen::Exact(5)),
            None
        );
    }

    #[test]
    fn a_solved_win_beside_a_proved_one_is_no_missed_win_and_a_solved_loss_is_no_allowed_win() {
        // The midgame search saw the win; the solver then counts it: still a win.
        assert_eq!(seen(GameKind::Othello, Seen::Win, Seen::Exact(6)), None);
        // A lost position played out to its solved loss allowed nothing.
        assert_eq!(seen(GameKind::Othello, Seen::Exact(-4), Seen::Loss), None);
        let v = seen(GameKind::Othello, Seen::Win, Seen::Exact(-2)).unwrap();
        assert_eq!(
            (v.judgment, v.reason),
            (Judgment::Blunder, Reason::MissedWin)
        );
    }

    #[test]
    fn a_lost_win_is_a_blunder_and_the_engine_move_is_never_judged() {
        let v = seen(GameKind::Insect, Seen::Win, Seen::Units(0)).unwrap();
        assert_eq!(
            (v.judgment, v.reason),
            (Judgment::Blunder, Reason::MissedWin)
        );
        let played = othello("f5");
        let same = judge(&MoveSeen {
            kind: GameKind::Othello,
            played: &played,
            best: Some(&played),
            before: Seen::Win,
            after: Seen::Loss,
            had_vcf: false,
            allows_vcf: false,
        });
        assert_eq!(same, None);
    }

    #[test]
    fn the_advantage_is_a_half_at_the_scale_and_one_at_a_win() {
        assert_eq!(advantage(GameKind::Draughts, Seen::Units(200)), 0.5);
        assert_eq!(advantage(GameKind::Gomoku, Seen::Loss), -1.0);
    }
}
