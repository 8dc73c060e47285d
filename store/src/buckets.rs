//! Token buckets in the database, shared by the nodes of a cluster (issue #22): the login limits hold for the
//! whole cluster instead of per node. A Postgres row per key holds the tokens left, when they were counted and
//! the bucket's shape; every use is one statement (`INSERT … ON CONFLICT DO UPDATE … WHERE`), so the row lock
//! orders concurrent uses from any node and none is lost. Times are the database's clock, so the nodes' clocks
//! need not agree.
//!
//! The rules are those of the server's in-process buckets: a bucket starts full with `burst` tokens, regains
//! `per_ms` every millisecond up to `burst`, and a use takes `cost` tokens (never below zero or above the
//! burst) only when at least `need` are there; a refused use changes nothing.

/// The shape of a shared bucket: how many tokens it holds at most and how fast it refills.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BucketShape {
    /// Tokens in a full bucket (a new key's bucket is full).
    pub burst: f64,
    /// Tokens regained per millisecond.
    pub per_ms: f64,
}

/// One use of a shared bucket: what must be there, and what is taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BucketUse {
    /// Tokens that must be in the bucket (after its refill) for the use to go ahead; any negative number lets
    /// every use through (a charge after the fact, a refund).
    pub need: f64,
    /// Tokens taken; a negative cost gives tokens back.
    pub cost: f64,
}

/// How a use of a shared bucket went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BucketAnswer {
    /// The tokens were there and the cost is taken.
    Taken,
    /// Too few tokens: nothing changed. `tokens` is what the bucket holds now (to say how long to wait).
    Short {
        /// Tokens in the bucket now, after its refill.
        tokens: f64,
    },
}

/// Floating-point slack in the comparisons, as in the server's in-process buckets: a wait of exactly the
/// announced time always succeeds.
const SLACK: f64 = 1e-9;

/// One use of bucket `$1` (burst `$2`, refill `$3` per ms, need `$4`, cost `$5`); returns a row when taken. The
/// refill is counted from the row's last use to the proposed row's time (`EXCLUDED.last_ms`: the clock is read
/// once), never backwards.
pub(crate) fn use_sql() -> String {
    let now = crate::ownership::NOW_MS;
    let level = "LEAST($2, b.tokens + GREATEST(0, EXCLUDED.last_ms - b.last_ms) * $3)";
    format!(
        "INSERT INTO login_buckets AS b (key, tokens, last_ms, burst, per_ms) \
         SELECT $1, LEAST($2, GREATEST(0, $2 - $5)), {now}, $2, $3 WHERE $2 >= $4 - {SLACK} \
         ON CONFLICT (key) DO UPDATE SET tokens = LEAST($2, GREATEST(0, {level} - $5)), \
         last_ms = EXCLUDED.last_ms, burst = $2, per_ms = $3 \
         WHERE {level} >= $4 - {SLACK} \
         RETURNING 1"
    )
}

/// The tokens in bucket `$1` now (refill `$2` per ms, burst `$3`); no row means a full bucket.
pub(crate) fn level_sql() -> String {
    let now = crate::ownership::NOW_MS;
    format!(
        "SELECT LEAST($3, tokens + GREATEST(0, {now} - last_ms) * $2) FROM login_buckets WHERE key = $1"
    )
}

/// Deletes the buckets that have refilled: they say nothing a missing row does not.
pub(crate) fn sweep_sql() -> String {
    let now = crate::ownership::NOW_MS;
    format!(
        "DELETE FROM login_buckets WHERE tokens + GREATEST(0, {now} - last_ms) * per_ms >= burst - {SLACK}"
    )
}
