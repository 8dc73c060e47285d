//! The seeded randomness of randomised tests: each test names its default seed, `TEST_SEED` replaces it (to
//! replay a failure, or to explore with another), and the seed used is printed, so a failing run's output says
//! how to replay it.

use rand::rngs::StdRng;
use rand::SeedableRng;

/// The seed of a seeded test: `TEST_SEED` (decimal or `0x` hex) when set, else `default`. Printed either way
/// (cargo shows a test's output when it fails). An unreadable `TEST_SEED` is a test failure, not a silent default.
pub fn seed(default: u64) -> u64 {
    let seed = match std::env::var("TEST_SEED") {
        Ok(text) => parse(&text).unwrap_or_else(|| panic!("TEST_SEED={text:?} is not a number")),
        Err(_) => default,
    };
    eprintln!("seed {seed:#x} (replay with TEST_SEED={seed:#x})");
    seed
}

/// A generator seeded by [`seed`].
pub fn rng(default: u64) -> StdRng {
    StdRng::seed_from_u64(seed(default))
}

fn parse(text: &str) -> Option<u64> {
    let text = text.trim();
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(&hex.replace('_', ""), 16).ok(),
        None => text.replace('_', "").parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn seeds_read_in_decimal_and_hex() {
        assert_eq!(parse("42"), Some(42));
        assert_eq!(parse("0x5eed_0031"), Some(0x5eed_0031));
        assert_eq!(parse(" 0XFF "), Some(255));
        assert_eq!(parse("seed"), None);
        assert_eq!(parse("0x"), None);
    }
}
