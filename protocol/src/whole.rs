//! A whole number written as JSON allows one: `5` or `5.0`. JSON Schema's integers include a number with a zero
//! fraction, so the schema of a field such as a clock's `base_ms` cannot refuse `600000.0`, and the decoder takes
//! it. Anything else (a fraction, a number out of the field's range) is a decoding error.

use serde::de::Error;
use serde::{Deserialize, Deserializer};

/// For `#[serde(deserialize_with = "crate::whole::number")]` on an integer field (the server's HTTP bodies use it
/// too).
pub fn number<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i128>,
{
    let n = serde_json::Number::deserialize(d)?;
    let wide = match (n.as_i64(), n.as_u64(), n.as_f64()) {
        (Some(i), _, _) => Some(i128::from(i)),
        (_, Some(u), _) => Some(i128::from(u)),
        // Within ±2^63 a whole f64 converts exactly.
        (_, _, Some(f)) if f.fract() == 0.0 && f.abs() <= 9.2e18 => Some(f as i128),
        _ => None,
    };
    wide.and_then(|w| T::try_from(w).ok())
        .ok_or_else(|| D::Error::custom(format!("{n} is not a whole number in range")))
}

#[cfg(test)]
mod tests {
    use crate::TimeControl;

    fn tc(text: &str) -> Result<TimeControl, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn a_clock_s_numbers_may_be_written_with_a_zero_fraction() {
        assert_eq!(
            tc(r#"{"kind":"fischer","base_ms":600000.0,"increment_ms":5000}"#),
            Ok(TimeControl::Fischer {
                base_ms: 600_000,
                increment_ms: 5000
            })
        );
        assert_eq!(
            tc(r#"{"kind":"byo_yomi","base_ms":0,"periods":5.0,"period_ms":30000}"#),
            Ok(TimeControl::ByoYomi {
                base_ms: 0,
                periods: 5,
                period_ms: 30_000
            })
        );
        assert!(tc(r#"{"kind":"fischer","base_ms":1.5,"increment_ms":0}"#).is_err());
        assert!(tc(r#"{"kind":"fischer","base_ms":-1,"increment_ms":0}"#).is_err());
        assert!(
            tc(r#"{"kind":"byo_yomi","base_ms":0,"periods":4294967296,"period_ms":1}"#).is_err()
        );
        assert!(tc(r#"{"kind":"fischer","base_ms":"5","increment_ms":0}"#).is_err());
    }
}
