//! A room's settings: what `create_room` asked for, validated once by [`Settings::new`].

use games::AnyConfig;
use protocol::{code, ColourChoice, GameSpec, RatingRange, TimeControl};

use super::RoomError;

/// The longest base (main) time a clock may start with: 3 hours.
const MAX_BASE_MS: u64 = 3 * 3600 * 1000;
/// The shortest Fischer base time, and the shortest byo-yomi period: 1 second.
const MIN_SLICE_MS: u64 = 1_000;
/// The longest Fischer increment, and the longest byo-yomi period: 10 minutes.
const MAX_SLICE_MS: u64 = 10 * 60 * 1000;
/// How many byo-yomi periods a clock may have.
const PERIODS: std::ops::RangeInclusive<u32> = 1..=30;

/// What `create_room` asked for, checked.
///
/// A room built from a request gets its settings from [`Settings::new`]; a room restored from the store builds
/// them from the stored game, which was checked when it was created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game and its configuration (a Gomoku one from the rules a `create_room` gives).
    pub config: AnyConfig,
    /// The time control.
    pub time_control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// Listed in the lobby.
    pub public: bool,
    /// The creator's colour.
    pub colour: ColourChoice,
    /// The ratings admitted to the free seat (a seek's range, issue #18); `None` admits anyone.
    pub rating_range: Option<RatingRange>,
}

impl Settings {
    /// The settings of a room a client asks for (any game: Gomoku's `rules` convert into a [`GameSpec`]), or why
    /// they cannot be played: the game's own reason (`rules::RulesError`'s code for Gomoku; Othello's scorings
    /// and draughts' variant are all playable), then `invalid_time_control` for a time control outside the
    /// ranges of `docs/protocol.md`.
    pub fn new(
        game: impl Into<GameSpec>,
        time_control: TimeControl,
        rated: bool,
        public: bool,
        colour: ColourChoice,
    ) -> Result<Settings, RoomError> {
        let config = game.into().to_config().map_err(|e| RoomError {
            code: e.code().into(),
            message: e.to_string(),
            retry_after: None,
        })?;
        check_time_control(&time_control)?;
        Ok(Settings {
            config,
            time_control,
            rated,
            public,
            colour,
            rating_range: None,
        })
    }

    /// These settings admitting only players rated inside `range` to the free seat, or `bad_rating_range`.
    pub fn with_rating_range(self, range: Option<RatingRange>) -> Result<Settings, RoomError> {
        match range {
            Some(r) if !r.is_valid() => Err(RoomError::new(
                code::BAD_RATING_RANGE,
                format!(
                    "a rating range runs from min to max, both within 0..={}",
                    RatingRange::CEILING
                ),
            )),
            _ => Ok(Settings {
                rating_range: range,
                ..self
            }),
        }
    }
}

/// Time controls a room may use: up to 3 hours of base time, 10 minutes of increment, 30 periods of 10 minutes.
fn check_time_control(tc: &TimeControl) -> Result<(), RoomError> {
    let ok = match *tc {
        TimeControl::None => true,
        TimeControl::Fischer {
            base_ms,
            increment_ms,
        } => (MIN_SLICE_MS..=MAX_BASE_MS).contains(&base_ms) && increment_ms <= MAX_SLICE_MS,
        TimeControl::ByoYomi {
            base_ms,
            periods,
            period_ms,
        } => {
            base_ms <= MAX_BASE_MS
                && PERIODS.contains(&periods)
                && (MIN_SLICE_MS..=MAX_SLICE_MS).contains(&period_ms)
        }
    };
    if ok {
        Ok(())
    } else {
        Err(RoomError::new(
            code::INVALID_TIME_CONTROL,
            "base time 1 s to 3 h, increment up to 10 min; byo-yomi 1 to 30 periods of 1 s to 10 min",
        ))
    }
}

#[cfg(test)]
mod tests {
    use protocol::RulesSpec;
    use rules::{ForbiddenPolicy, Opening, RuleSet};

    use super::*;

    const HOURS_3: u64 = 3 * 3600 * 1000;
    const MIN_10: u64 = 10 * 60 * 1000;

    fn renju() -> RulesSpec {
        RulesSpec {
            size: 15,
            rule_set: RuleSet::Renju,
            forbidden_policy: ForbiddenPolicy::Reject,
            opening: Opening::None,
        }
    }

    fn with(time_control: TimeControl) -> Result<Settings, RoomError> {
        Settings::new(renju(), time_control, false, true, ColourChoice::Random)
    }

    fn fischer(base_ms: u64, increment_ms: u64) -> Result<Settings, RoomError> {
        with(TimeControl::Fischer {
            base_ms,
            increment_ms,
        })
    }

    fn byo_yomi(base_ms: u64, periods: u32, period_ms: u64) -> Result<Settings, RoomError> {
        with(TimeControl::ByoYomi {
            base_ms,
            periods,
            period_ms,
        })
    }

    #[track_caller]
    fn refused(r: Result<Settings, RoomError>) {
        match r {
            Err(e) => assert_eq!(e.code, code::INVALID_TIME_CONTROL),
            Ok(s) => panic!("accepted {s:?}"),
        }
    }

    #[test]
    fn valid_settings_keep_what_was_asked_for() {
        let tc = TimeControl::Fischer {
            base_ms: 300_000,
            increment_ms: 5_000,
        };
        let s = Settings::new(renju(), tc, true, false, ColourChoice::White).unwrap();
        assert_eq!(
            s.config,
            AnyConfig::Gomoku(renju().to_rules().unwrap().into())
        );
        assert_eq!(
            (s.time_control, s.rated, s.public, s.colour),
            (tc, true, false, ColourChoice::White)
        );
    }

    #[test]
    fn no_clock_is_a_valid_time_control() {
        assert!(with(TimeControl::None).is_ok());
    }

    #[test]
    fn unplayable_rules_are_refused_with_the_rules_code_before_the_time_control_is_looked_at() {
        let spec = RulesSpec {
            size: 19,
            ..renju()
        };
        let expected = spec.to_rules().unwrap_err();
        let e = Settings::new(
            spec,
            TimeControl::Fischer {
                base_ms: 0,
                increment_ms: 0,
            },
            false,
            true,
            ColourChoice::Random,
        )
        .unwrap_err();
        assert_eq!(e.code, expected.code());
        assert_eq!(e.message, expected.to_string());
    }

    #[test]
    fn fischer_base_time_runs_from_1_s_to_3_h() {
        refused(fischer(0, 0));
        refused(fischer(999, 0));
        assert!(fischer(1_000, 0).is_ok());
        assert!(fischer(HOURS_3, 0).is_ok());
        refused(fischer(HOURS_3 + 1, 0));
        refused(fischer(u64::MAX, 0));
    }

    #[test]
    fn fischer_increment_runs_up_to_10_min() {
        assert!(fischer(60_000, 0).is_ok());
        assert!(fischer(60_000, MIN_10).is_ok());
        refused(fischer(60_000, MIN_10 + 1));
        refused(fischer(60_000, u64::MAX));
    }

    #[test]
    fn byo_yomi_base_time_runs_from_0_to_3_h() {
        assert!(byo_yomi(0, 5, 30_000).is_ok());
        assert!(byo_yomi(HOURS_3, 5, 30_000).is_ok());
        refused(byo_yomi(HOURS_3 + 1, 5, 30_000));
    }

    #[test]
    fn byo_yomi_has_1_to_30_periods() {
        refused(byo_yomi(60_000, 0, 30_000));
        assert!(byo_yomi(60_000, 1, 30_000).is_ok());
        assert!(byo_yomi(60_000, 30, 30_000).is_ok());
        refused(byo_yomi(60_000, 31, 30_000));
        refused(byo_yomi(60_000, u32::MAX, 30_000));
    }

    #[test]
    fn byo_yomi_periods_last_1_s_to_10_min() {
        refused(byo_yomi(60_000, 5, 0));
        refused(byo_yomi(60_000, 5, 999));
        assert!(byo_yomi(60_000, 5, 1_000).is_ok());
        assert!(byo_yomi(60_000, 5, MIN_10).is_ok());
        refused(byo_yomi(60_000, 5, MIN_10 + 1));
    }
}
