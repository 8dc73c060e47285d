//! Glicko-2 ratings, rating pools and rank tiers (to be written).

/// A rating pool: one rating per player per pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pool {
    /// Freestyle games.
    Freestyle,
    /// Standard games.
    Standard,
    /// Renju games, every opening rule and forbidden policy together.
    Renju,
}

/// A Glicko-2 rating on the familiar scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Rating (starts at 1500).
    pub rating: f64,
    /// Rating deviation (starts at 350).
    pub deviation: f64,
    /// Volatility (starts at 0.06).
    pub volatility: f64,
}
