//! The fair-play statistic (`docs/fairplay.md`): over a player's last games in a pool, the number of judged moves
//! `n` and of moves that were the engine's first choice `k`, against the rate `p` expected for the player's
//! rating. Under honest play `k` is taken to be binomial (`n`, `p`); the player is flagged when the chance of
//! `k` or more matches, `P(X ≥ k)`, is at most `alpha`, and only once `n` reaches the minimum: a few games say
//! nothing.

use games::GameKind;

/// The thresholds of the statistic (from the configuration; defaults in `docs/fairplay.md`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// The player's last games of a pool that count.
    pub window: u32,
    /// Judged moves the window must hold before anything is concluded.
    pub min_moves: u32,
    /// The largest `P(X ≥ k)` that flags.
    pub alpha: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            window: 20,
            min_moves: 150,
            alpha: 1e-4,
        }
    }
}

/// The rating bands' lower bounds: a rating below the second is in band 0, at or above the last in band 4.
pub const BANDS: [f64; 5] = [0.0, 1300.0, 1600.0, 1900.0, 2200.0];

/// The top-1 match rate expected of an honest player of each band, per game. Othello's from the calibration in
/// `docs/benchmarks.md` ("Fair play calibration"): above what the noisy engine levels reach against the judge,
/// below what the judge's own engine reaches; the other games' are provisional (`docs/fairplay.md`).
pub fn expected_rates(kind: GameKind) -> [f64; 5] {
    match kind {
        GameKind::Gomoku => [0.45, 0.50, 0.55, 0.60, 0.65],
        GameKind::Othello => [0.55, 0.65, 0.67, 0.69, 0.71],
        GameKind::Draughts => [0.55, 0.60, 0.65, 0.70, 0.75],
        GameKind::Insect => [0.45, 0.50, 0.55, 0.60, 0.65],
    }
}

/// The top-1 match rate expected of an honest player of `rating` in a game of `kind`.
pub fn expected_rate(kind: GameKind, rating: f64) -> f64 {
    let band = BANDS.iter().rposition(|&low| rating >= low).unwrap_or(0);
    expected_rates(kind)[band]
}

/// `P(X ≥ k)` for `X` binomial with `n` trials of probability `p`: exact, summed in logarithms so that it
/// holds for thousands of moves.
pub fn upper_tail(n: u64, k: u64, p: f64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n || p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    // ln P(X = k) = ln C(n, k) + k ln p + (n - k) ln(1 - p)
    let ln_choose: f64 = (1..=k)
        .map(|i| ((n - k + i) as f64).ln() - (i as f64).ln())
        .sum();
    let ln_first = ln_choose + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln();
    // The terms after it, relative to it: P(X = j + 1) / P(X = j) = (n - j) / (j + 1) · p / (1 - p).
    let odds = p / (1.0 - p);
    let (mut term, mut sum) = (1.0_f64, 1.0_f64);
    for j in k..n {
        term *= (n - j) as f64 / (j + 1) as f64 * odds;
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    (ln_first + sum.ln()).exp().min(1.0)
}

/// What the statistic says of a window of games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assessment {
    /// Games in the window.
    pub games: u32,
    /// Judged moves `n`.
    pub judged: u64,
    /// Top-1 matches `k`.
    pub top1: u64,
    /// The rating the expectation is read at (the window's mean rating).
    pub rating: f64,
    /// The expected top-1 rate `p`.
    pub expected: f64,
    /// `P(X ≥ k)`; 1 when the window is too small to say.
    pub p_value: f64,
    /// Whether the window holds enough judged moves.
    pub enough: bool,
    /// Whether the player is flagged.
    pub flagged: bool,
}

/// The statistic over a window: `(judged, top1, rating)` of each game.
pub fn assess(kind: GameKind, games: &[(u64, u64, f64)], thresholds: &Thresholds) -> Assessment {
    let judged: u64 = games.iter().map(|g| g.0).sum();
    let top1: u64 = games.iter().map(|g| g.1).sum();
    let rating = if games.is_empty() {
        1500.0
    } else {
        games.iter().map(|g| g.2).sum::<f64>() / games.len() as f64
    };
    let expected = expected_rate(kind, rating);
    let enough = judged >= u64::from(thresholds.min_moves);
    let p_value = if enough {
        upper_tail(judged, top1, expected)
    } else {
        1.0
    };
    Assessment {
        games: games.len() as u32,
        judged,
        top1,
        rating,
        expected,
        p_value,
        enough,
        flagged: enough && p_value <= thresholds.alpha,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_matches_small_cases_worked_by_hand() {
        // n = 4, p = 1/2: P(X ≥ 3) = (4 + 1) / 16.
        assert!((upper_tail(4, 3, 0.5) - 5.0 / 16.0).abs() < 1e-12);
        assert!((upper_tail(4, 4, 0.5) - 1.0 / 16.0).abs() < 1e-12);
        assert_eq!(upper_tail(4, 0, 0.5), 1.0);
        assert_eq!(upper_tail(4, 5, 0.5), 0.0);
        // n = 10, p = 0.3: P(X ≥ 6) = 0.047349… (the binomial table's value).
        assert!((upper_tail(10, 6, 0.3) - 0.047_348_987_6).abs() < 1e-9);
    }

    #[test]
    fn the_tail_holds_for_thousands_of_moves() {
        let p = upper_tail(5_000, 3_000, 0.5);
        assert!(p > 0.0 && p < 1e-40, "{p}");
        assert!((upper_tail(5_000, 2_500, 0.5) - 0.5).abs() < 0.02);
    }

    #[test]
    fn the_tail_crosses_the_default_alpha_where_the_exact_sum_does() {
        // Worked with exact integers: P(X >= 113 | 150, 0.6) = 5.683e-5, P(X >= 112) = 1.163e-4.
        assert!((upper_tail(150, 113, 0.6) / 5.683_114_955_8e-5 - 1.0).abs() < 1e-6);
        assert!((upper_tail(150, 112, 0.6) / 1.162_787_060_5e-4 - 1.0).abs() < 1e-6);
    }

    /// One game of `judged` moves and `top1` matches at rating 1500.
    fn window(judged: u64, top1: u64) -> Vec<(u64, u64, f64)> {
        vec![(judged, top1, 1500.0)]
    }

    #[test]
    fn a_window_is_flagged_from_the_first_count_whose_tail_is_at_most_alpha() {
        let t = Thresholds::default();
        let n = u64::from(t.min_moves);
        let p = expected_rate(GameKind::Othello, 1500.0);
        let k = (0..=n).find(|&k| upper_tail(n, k, p) <= t.alpha).unwrap();
        let at = assess(GameKind::Othello, &window(n, k), &t);
        assert!(at.enough && at.flagged && at.p_value <= t.alpha, "{at:?}");
        let below = assess(GameKind::Othello, &window(n, k - 1), &t);
        assert!(
            below.enough && !below.flagged && below.p_value > t.alpha,
            "{below:?}"
        );
    }

    #[test]
    fn a_window_one_move_short_of_the_minimum_is_never_flagged() {
        let t = Thresholds::default();
        let n = u64::from(t.min_moves) - 1;
        let all = assess(GameKind::Othello, &window(n, n), &t);
        assert!(!all.enough && !all.flagged && all.p_value == 1.0, "{all:?}");
        // Split over several games, the moves add up to the minimum: enough.
        let split = [(n, n, 1500.0), (1, 1, 1500.0)];
        assert!(assess(GameKind::Othello, &split, &t).flagged);
    }

    #[test]
    fn the_expectation_is_read_at_the_windows_mean_rating() {
        let t = Thresholds::default();
        let games = [(100, 50, 1250.0), (100, 50, 1450.0)];
        let a = assess(GameKind::Gomoku, &games, &t);
        assert_eq!(a.rating, 1350.0);
        assert_eq!(a.expected, expected_rate(GameKind::Gomoku, 1350.0));
    }

    #[test]
    fn each_band_starts_at_its_bound() {
        let rates = expected_rates(GameKind::Othello);
        for (band, &low) in BANDS.iter().enumerate().skip(1) {
            assert_eq!(expected_rate(GameKind::Othello, low), rates[band]);
            assert_eq!(expected_rate(GameKind::Othello, low - 0.5), rates[band - 1]);
        }
    }
}
