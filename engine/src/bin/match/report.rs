//! The match's result: per-game outcomes summed in game order, the score's Elo difference with its 95%
//! interval, and the report as a text line or one flat JSON object.

use std::fmt::Write as _;
use std::time::Duration;

use crate::args::Args;

/// One game as it ended, with `a` as index 0 and `b` as index 1 throughout.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, if any.
    pub winner: Option<usize>,
    /// Stones on the board at the end, the opening's three included.
    pub plies: usize,
    /// Actions each player chose (stones, swap decisions).
    pub moves: [u64; 2],
    /// Each player's losses by not answering in time.
    pub timeouts: [u32; 2],
    /// Each player's losses by an illegal move, a garbage answer or a dead process.
    pub illegal: [u32; 2],
}

/// The sums over the match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Games played.
    pub games: u32,
    /// Games `a` won.
    pub wins: u32,
    /// Games `a` lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
    /// `a`'s score per game (1, ½, 0), in game order.
    pub scores: Vec<f64>,
    /// Actions the players chose, per player.
    pub moves: [u64; 2],
    /// Plies over all games.
    pub plies: u64,
    /// Timeouts per player.
    pub timeouts: [u32; 2],
    /// Illegal moves (garbage and dead processes included) per player.
    pub illegal: [u32; 2],
}

impl Totals {
    /// Sums `results`, which are in game order.
    pub fn sum(results: &[GameResult]) -> Totals {
        let mut t = Totals::default();
        for r in results {
            t.games += 1;
            let s = match r.winner {
                Some(0) => {
                    t.wins += 1;
                    1.0
                }
                Some(_) => {
                    t.losses += 1;
                    0.0
                }
                None => {
                    t.draws += 1;
                    0.5
                }
            };
            t.scores.push(s);
            t.plies += r.plies as u64;
            for k in 0..2 {
                t.moves[k] += r.moves[k];
                t.timeouts[k] += r.timeouts[k];
                t.illegal[k] += r.illegal[k];
            }
        }
        t
    }

    /// `a`'s mean score, 0 to 1.
    pub fn score(&self) -> f64 {
        if self.scores.is_empty() {
            return 0.5;
        }
        self.scores.iter().sum::<f64>() / self.scores.len() as f64
    }

    /// The Elo difference the score means, and its 95% interval from the games' spread (normal approximation).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.scores.len().max(1) as f64;
        let mean = self.score();
        let var = self.scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        (elo(mean), elo(mean - 1.96 * se), elo(mean + 1.96 * se))
    }

    /// Average plies per game.
    pub fn average_plies(&self) -> f64 {
        self.plies as f64 / f64::from(self.games.max(1))
    }
}

/// The Elo difference of a mean score, the score clamped to 0.1%–99.9% (about ±1200) so that a clean sweep stays finite.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    // Adding zero turns an even score's -0 into 0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

fn moves_per_sec(t: &Totals, wall: Duration) -> f64 {
    let secs = wall.as_secs_f64();
    if secs > 0.0 {
        (t.moves[0] + t.moves[1]) as f64 / secs
    } else {
        0.0
    }
}

/// The text report: the result line (as the tables of `docs/engine.md` quote it), then the counts.
pub fn text(args: &Args, t: &Totals, wall: Duration) -> String {
    let (e, lo, hi) = t.elo();
    format!(
        "{} vs {}: +{} -{} ={}  score {:.1}%  Elo {e:+.0} [{lo:+.0}, {hi:+.0}]\n\
         {} games ({} rules), {:.1} plies a game, {} moves at {:.1} moves/s; timeouts {}/{}, illegal {}/{} (a/b)",
        args.a.label(),
        args.b.label(),
        t.wins,
        t.losses,
        t.draws,
        t.score() * 100.0,
        t.games,
        args.rules_name,
        t.average_plies(),
        t.moves[0] + t.moves[1],
        moves_per_sec(t, wall),
        t.timeouts[0],
        t.timeouts[1],
        t.illegal[0],
        t.illegal[1],
    )
}

/// A JSON string literal.
fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number for a finite float (`null` otherwise, which does not happen here but keeps the output JSON).
fn number(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "null".into()
    }
}

/// The report as one flat JSON object on one line.
pub fn json(args: &Args, t: &Totals, wall: Duration) -> String {
    let (e, lo, hi) = t.elo();
    let ms = |d: Duration| number(d.as_secs_f64() * 1000.0, 1);
    let fields: Vec<(&str, String)> = vec![
        ("a", string(&args.a.spec())),
        ("b", string(&args.b.spec())),
        ("rules", string(&args.rules_name)),
        ("ms", args.ms.to_string()),
        ("scale", args.scale.map_or("null".into(), |f| number(f, 4))),
        ("nodes", args.nodes.map_or("null".into(), |n| n.to_string())),
        ("ms_a", ms(args.move_time(&args.a))),
        ("ms_b", ms(args.move_time(&args.b))),
        ("seed", args.seed.to_string()),
        ("threads", args.threads.to_string()),
        ("openings", args.games.to_string()),
        ("games", t.games.to_string()),
        ("wins", t.wins.to_string()),
        ("losses", t.losses.to_string()),
        ("draws", t.draws.to_string()),
        ("score", number(t.score(), 4)),
        ("elo", number(e, 1)),
        ("elo_low", number(lo, 1)),
        ("elo_high", number(hi, 1)),
        ("moves", (t.moves[0] + t.moves[1]).to_string()),
        ("moves_a", t.moves[0].to_string()),
        ("moves_b", t.moves[1].to_string()),
        ("seconds", number(wall.as_secs_f64(), 3)),
        ("moves_per_sec", number(moves_per_sec(t, wall), 2)),
        ("timeouts_a", t.timeouts[0].to_string()),
        ("timeouts_b", t.timeouts[1].to_string()),
        ("illegal_a", t.illegal[0].to_string()),
        ("illegal_b", t.illegal[1].to_string()),
        ("avg_plies", number(t.average_plies(), 2)),
    ];
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", string(k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(winner: Option<usize>) -> GameResult {
        GameResult {
            winner,
            plies: 20,
            moves: [9, 8],
            ..GameResult::default()
        }
    }

    #[test]
    fn totals_count_each_game_once_from_as_side() {
        let mut lost = result(Some(1));
        lost.illegal[0] = 1;
        let t = Totals::sum(&[result(Some(0)), lost, result(None), result(Some(0))]);
        assert_eq!((t.games, t.wins, t.losses, t.draws), (4, 2, 1, 1));
        assert_eq!(t.scores, vec![1.0, 0.0, 0.5, 1.0]);
        assert_eq!((t.moves, t.plies, t.illegal), ([36, 32], 80, [1, 0]));
        assert!((t.score() - 0.625).abs() < 1e-12);
        assert!((t.average_plies() - 20.0).abs() < 1e-12);
    }

    #[test]
    fn elo_is_zero_at_half_symmetric_about_it_and_finite_at_a_sweep() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) + elo(0.25)).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert!((elo(1.0) - 1199.8).abs() < 0.1 && (elo(0.0) + 1199.8).abs() < 0.1);
        let sweep = Totals::sum(&[result(Some(0)), result(Some(0))]);
        let (e, lo, hi) = sweep.elo();
        assert!(e.is_finite() && lo <= e && e <= hi);
        let even = Totals::sum(&[result(Some(0)), result(Some(1))]);
        let (e, lo, hi) = even.elo();
        assert!(e.abs() < 1e-9 && lo < 0.0 && hi > 0.0 && (lo + hi).abs() < 1e-9);
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(string("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
        assert_eq!(number(f64::NAN, 2), "null");
        assert_eq!(number(1.0 / 3.0, 2), "0.33");
    }
}
