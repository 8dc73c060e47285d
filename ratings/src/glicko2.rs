//! Glicko-2, exactly as in Mark Glickman's "Example of the Glicko-2 system" (system constant 0.5, Illinois
//! algorithm for the volatility, convergence tolerance 0.000001).
//!
//! A finished game is rated as a rating period of its own for each player, as lichess does: the deviation of an
//! active player therefore shrinks game by game, and both players are updated from the ratings they had before
//! the game.

use crate::Rating;

/// The system constant τ, which bounds how fast the volatility may change.
pub const TAU: f64 = 0.5;
/// Convergence tolerance of the volatility iteration.
pub const EPSILON: f64 = 0.000_001;
/// Factor between the Glicko scale and the Glicko-2 scale.
pub const SCALE: f64 = 173.7178;
/// The centre of the Glicko scale.
pub const CENTRE: f64 = 1500.0;
/// Deviation never grows beyond a new player's.
pub const MAX_DEVIATION: f64 = 350.0;
/// Deviation never falls below this, so a very active player's rating can still move (lichess uses 45 too).
pub const MIN_DEVIATION: f64 = 45.0;
/// Volatility cap (as lichess): keeps one freak result from making a rating swing wildly for ever after.
pub const MAX_VOLATILITY: f64 = 0.1;

/// Upper bound on iterations of the volatility search; Illinois converges in a handful, this only guards against
/// pathological input (a loop must end even if the numbers are absurd).
const MAX_ITERATIONS: u32 = 1000;

/// Score of a win.
pub const WIN: f64 = 1.0;
/// Score of a draw.
pub const DRAW: f64 = 0.5;
/// Score of a loss.
pub const LOSS: f64 = 0.0;

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The player's rating after a rating period with these results (`(opponent's rating before, score)`, the score
/// being [`WIN`], [`DRAW`] or [`LOSS`] from the player's point of view). With no results only the deviation grows
/// (step 6 of the paper). The deviation of the result lies within [`MIN_DEVIATION`]..=[`MAX_DEVIATION`] and the
/// volatility within 0..=[`MAX_VOLATILITY`]. Non-finite input gives the player's rating back unchanged.
pub fn update(player: Rating, results: &[(Rating, f64)]) -> Rating {
    let finite =
        |r: &Rating| r.rating.is_finite() && r.deviation.is_finite() && r.volatility.is_finite();
    if !finite(&player) || results.iter().any(|(o, s)| !finite(o) || !s.is_finite()) {
        return player;
    }
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - CENTRE) / SCALE;
    // Inputs are used as they are (the paper's example has an opponent below our floor); only results are bounded.
    let phi = player.deviation.abs() / SCALE;
    let sigma = player.volatility.abs();

    if results.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return finish(mu, phi_star, sigma);
    }

    // Steps 3 and 4: estimated variance and improvement.
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for (opponent, score) in results {
        let mu_j = (opponent.rating - CENTRE) / SCALE;
        let phi_j = opponent.deviation.abs() / SCALE;
        let e = expected(mu, mu_j, phi_j);
        let g_j = g(phi_j);
        v_inv += g_j * g_j * e * (1.0 - e);
        delta_sum += g_j * (score.clamp(0.0, 1.0) - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;

    // Step 5: new volatility.
    let sigma_new = volatility(delta, phi, v, sigma);

    // Steps 6 and 7: new deviation and rating.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    finish(mu_new, phi_new, sigma_new)
}

/// Step 8: back to the Glicko scale, within the deviation and volatility bounds.
fn finish(mu: f64, phi: f64, sigma: f64) -> Rating {
    Rating {
        rating: SCALE * mu + CENTRE,
        deviation: (SCALE * phi).clamp(MIN_DEVIATION, MAX_DEVIATION),
        volatility: sigma.min(MAX_VOLATILITY),
    }
}

/// Step 5 of the paper: the new volatility by the Illinois algorithm.
fn volatility(delta: f64, phi: f64, v: f64, sigma: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 && k < f64::from(MAX_ITERATIONS) {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut iterations = 0;
    while (big_b - big_a).abs() > EPSILON && iterations < MAX_ITERATIONS {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
        iterations += 1;
    }
    let result = (big_a / 2.0).exp();
    if result.is_finite() {
        result
    } else {
        sigma
    }
}

/// Rates one game as a one-game rating period for both players: `score_a` is [`WIN`], [`DRAW`] or [`LOSS`] for
/// player `a`. Both are computed from the ratings before the game, so the order of the players does not matter.
pub fn rate_game(a: Rating, b: Rating, score_a: f64) -> (Rating, Rating) {
    (update(a, &[(b, score_a)]), update(b, &[(a, 1.0 - score_a)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(x: f64, places: i32) -> f64 {
        let f = 10f64.powi(places);
        (x * f).round() / f
    }

    #[test]
    fn reproduces_the_worked_example_of_glickmans_paper() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        let results = [
            (Rating::new(1400.0, 30.0, 0.06), WIN),
            (Rating::new(1550.0, 100.0, 0.06), LOSS),
            (Rating::new(1700.0, 300.0, 0.06), LOSS),
        ];
        let after = update(player, &results);
        // The paper prints its Glicko-2-scale results to four places (mu' = -0.2069, phi' = 0.8722) and converts
        // those rounded numbers back, which is why it prints 1464.06 where exact arithmetic gives 1464.0507. So:
        // equal to four places on the Glicko-2 scale, and within one unit of the last printed digit on the
        // familiar scale (the printed volatility 0.05999 is the exact 0.0599960 cut short).
        assert_eq!(round((after.rating - CENTRE) / SCALE, 4), -0.2069);
        assert_eq!(round(after.deviation / SCALE, 4), 0.8722);
        assert!((after.rating - 1464.06).abs() < 0.01, "{}", after.rating);
        assert!(
            (after.deviation - 151.52).abs() < 0.01,
            "{}",
            after.deviation
        );
        assert!(
            (after.volatility - 0.05999).abs() < 0.00001,
            "{}",
            after.volatility
        );
    }

    #[test]
    fn the_paper_intermediate_quantities_match() {
        // Paper: v = 1.7785, delta = -0.4834 for the example.
        let mu = 0.0;
        let opponents = [
            (-0.5756, 0.1727, 1.0),
            (0.2878, 0.5756, 0.0),
            (1.1513, 1.7269, 0.0),
        ];
        let mut v_inv = 0.0;
        let mut d = 0.0;
        for (mu_j, phi_j, s) in opponents {
            let e = expected(mu, mu_j, phi_j);
            v_inv += g(phi_j).powi(2) * e * (1.0 - e);
            d += g(phi_j) * (s - e);
        }
        // The paper computes these from g and E rounded to four places; exact arithmetic lands within 0.001.
        assert!((1.0 / v_inv - 1.7785).abs() < 0.001, "{}", 1.0 / v_inv);
        assert!((d / v_inv - -0.4834).abs() < 0.001, "{}", d / v_inv);
    }

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser_symmetrically_between_equals() {
        let (a, b) = rate_game(Rating::default(), Rating::default(), WIN);
        assert!(a.rating > 1500.0 && b.rating < 1500.0);
        assert!((a.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(a.deviation < 350.0 && b.deviation < 350.0);
    }

    #[test]
    fn rating_a_game_does_not_depend_on_the_order_of_the_players() {
        let a = Rating::new(1720.0, 80.0, 0.059);
        let b = Rating::new(1480.0, 190.0, 0.061);
        for score in [WIN, DRAW, LOSS] {
            let (a1, b1) = rate_game(a, b, score);
            let (b2, a2) = rate_game(b, a, 1.0 - score);
            assert_eq!((a1, b1), (a2, b2));
        }
    }

    #[test]
    fn an_upset_moves_ratings_more_than_an_expected_result() {
        let strong = Rating::new(1900.0, 60.0, 0.06);
        let weak = Rating::new(1300.0, 60.0, 0.06);
        let (expected_gain, _) = rate_game(strong, weak, WIN);
        let (_, upset_gain) = rate_game(strong, weak, LOSS);
        assert!(upset_gain.rating - weak.rating > expected_gain.rating - strong.rating);
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating() {
        let (a, b) = rate_game(Rating::default(), Rating::default(), DRAW);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn an_idle_period_grows_the_deviation_but_not_beyond_the_cap() {
        let r = update(Rating::new(1800.0, 100.0, 0.06), &[]);
        assert!(r.deviation > 100.0 && r.rating == 1800.0);
        assert_eq!(
            update(Rating::new(1800.0, 349.99, 0.06), &[]).deviation,
            MAX_DEVIATION
        );
    }

    #[test]
    fn many_games_never_push_the_deviation_below_the_floor() {
        let mut a = Rating::default();
        let mut b = Rating::default();
        for i in 0..500 {
            (a, b) = rate_game(a, b, if i % 2 == 0 { WIN } else { LOSS });
        }
        assert!(a.deviation >= MIN_DEVIATION && b.deviation >= MIN_DEVIATION);
        assert!(a.volatility <= MAX_VOLATILITY && a.volatility > 0.0);
    }

    #[test]
    fn absurd_input_comes_back_unchanged_instead_of_poisoning_the_rating() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        assert_eq!(
            update(player, &[(Rating::new(f64::NAN, 1.0, 0.06), WIN)]),
            player
        );
        let huge = update(player, &[(Rating::new(1.0e6, 45.0, 0.06), WIN)]);
        assert!(
            huge.rating.is_finite() && huge.deviation.is_finite() && huge.volatility.is_finite()
        );
    }
}
