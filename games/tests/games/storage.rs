//! Golden tests of the stored texts: every configuration and every action form is pinned, today's stored forms
//! (the columns and the action JSON the rules crate's serde derives wrote) still read, and a change to a `rules`
//! type that would alter a stored text fails here.

use games::storage::{legacy_gomoku_action, opening_text, policy_text, rule_set_text};
use games::{
    AnyAction, AnyConfig, ConfigError, DecodeError, GameConfig, GameKind, GomokuConfig,
    NotationError, StoredConfig,
};
use rules::{Action, ForbiddenPolicy, Opening, Point, RuleSet, RulesError};

const RULE_SETS: [RuleSet; 3] = [RuleSet::Freestyle, RuleSet::Standard, RuleSet::Renju];
const POLICIES: [ForbiddenPolicy; 3] = [
    ForbiddenPolicy::Lose,
    ForbiddenPolicy::Reject,
    ForbiddenPolicy::Claim,
];
const OPENINGS: [Opening; 3] = [
    Opening::None,
    Opening::SwapAfterThree,
    Opening::SwapAfterThreeFifthTwoOptions,
];

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

/// Every configuration the rules accept.
fn every_config() -> Vec<GomokuConfig> {
    let mut all = Vec::new();
    for size in [15, 19] {
        for rule_set in RULE_SETS {
            for policy in POLICIES {
                for opening in OPENINGS {
                    if let Ok(c) = GomokuConfig::new(size, rule_set, policy, opening) {
                        all.push(c);
                    }
                }
            }
        }
    }
    all
}

/// The serde name the rules crate gives a unit variant: what the old columns hold.
fn serde_name<T: serde::Serialize>(value: T) -> String {
    serde_json::to_value(value)
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn a_configuration_is_stored_as_its_game_and_its_field_list() {
    let config = AnyConfig::Gomoku(
        GomokuConfig::new(
            15,
            RuleSet::Renju,
            ForbiddenPolicy::Claim,
            Opening::SwapAfterThreeFifthTwoOptions,
        )
        .unwrap(),
    );
    assert_eq!(
        config.stored(),
        StoredConfig {
            game: "gomoku",
            text: "size=15,rule_set=renju,forbidden_policy=claim,opening=swap_after_three_fifth_two_options"
                .to_owned(),
        }
    );
    let freestyle19 = AnyConfig::Gomoku(
        GomokuConfig::new(
            19,
            RuleSet::Freestyle,
            ForbiddenPolicy::Reject,
            Opening::None,
        )
        .unwrap(),
    );
    assert_eq!(
        freestyle19.encode(),
        "size=19,rule_set=freestyle,forbidden_policy=reject,opening=none"
    );
    let standard = AnyConfig::Gomoku(
        GomokuConfig::new(
            15,
            RuleSet::Standard,
            ForbiddenPolicy::Lose,
            Opening::SwapAfterThree,
        )
        .unwrap(),
    );
    assert_eq!(
        standard.encode(),
        "size=15,rule_set=standard,forbidden_policy=lose,opening=swap_after_three"
    );
}

#[test]
fn every_configuration_reads_back_from_its_text_and_from_the_old_columns() {
    let all = every_config();
    assert_eq!(all.len(), 2 * 27 - 9, "renju is 15x15 only");
    for config in all {
        let any = AnyConfig::Gomoku(config);
        let stored = any.stored();
        assert_eq!(AnyConfig::decode(stored.game, &stored.text), Ok(any));
        let rules = config.rules();
        // The old columns hold the serde names of the rules crate's enums: the new text uses the same words.
        let columns = (
            serde_name(rules.rule_set()),
            serde_name(rules.forbidden_policy()),
            serde_name(rules.opening()),
        );
        assert_eq!(
            (
                rule_set_text(rules.rule_set()),
                policy_text(rules.forbidden_policy()),
                opening_text(rules.opening()).as_str()
            ),
            (columns.0.as_str(), columns.1.as_str(), columns.2.as_str())
        );
        assert_eq!(
            GomokuConfig::from_columns(i64::from(rules.size()), &columns.0, &columns.1, &columns.2),
            Ok(config)
        );
    }
}

#[test]
fn a_stored_configuration_that_is_not_one_gets_a_typed_error() {
    let ok = "size=15,rule_set=renju,forbidden_policy=reject,opening=none";
    assert!(AnyConfig::decode("gomoku", ok).is_ok());
    assert_eq!(
        AnyConfig::decode("chess", ok),
        Err(ConfigError::UnknownGame)
    );
    assert_eq!(
        AnyConfig::decode("Gomoku", ok),
        Err(ConfigError::UnknownGame)
    );
    for malformed in [
        "",
        "size=15",
        "rule_set=renju,size=15,forbidden_policy=reject,opening=none",
        "size=15,rule_set=renju,forbidden_policy=reject,opening=none,",
        "size=15,rule_set=renju,forbidden_policy=reject,opening=none,x=1",
        "size=15;rule_set=renju;forbidden_policy=reject;opening=none",
        "size 15,rule_set=renju,forbidden_policy=reject,opening=none",
    ] {
        assert_eq!(
            AnyConfig::decode("gomoku", malformed),
            Err(ConfigError::Malformed),
            "{malformed}"
        );
    }
    for (text, field) in [
        (
            "size=015,rule_set=renju,forbidden_policy=reject,opening=none",
            "size",
        ),
        (
            "size=+15,rule_set=renju,forbidden_policy=reject,opening=none",
            "size",
        ),
        (
            "size=,rule_set=renju,forbidden_policy=reject,opening=none",
            "size",
        ),
        (
            "size=1500,rule_set=renju,forbidden_policy=reject,opening=none",
            "size",
        ),
        (
            "size=256,rule_set=renju,forbidden_policy=reject,opening=none",
            "size",
        ),
        (
            "size=15,rule_set=Renju,forbidden_policy=reject,opening=none",
            "rule_set",
        ),
        (
            "size=15,rule_set=renju,forbidden_policy=forbid,opening=none",
            "forbidden_policy",
        ),
        (
            "size=15,rule_set=renju,forbidden_policy=reject,opening=swap3",
            "opening",
        ),
        (
            "size=15,rule_set=renju,forbidden_policy=reject,opening=soosorv",
            "opening",
        ),
        (
            "size=15,rule_set=renju,forbidden_policy=reject,opening=taraguchi_08",
            "opening",
        ),
    ] {
        assert_eq!(
            AnyConfig::decode("gomoku", text),
            Err(ConfigError::UnknownValue { field }),
            "{text}"
        );
    }
    // The sizes at the edges of what the rules offer: 15, 19 and 20 play, their other neighbours do not.
    for (size, result) in [
        (14, Err(RulesError::UnsupportedSize(14))),
        (16, Err(RulesError::UnsupportedSize(16))),
        (18, Err(RulesError::UnsupportedSize(18))),
        (20, Ok(())),
        (21, Err(RulesError::UnsupportedSize(21))),
    ] {
        let text = format!("size={size},rule_set=freestyle,forbidden_policy=reject,opening=none");
        assert_eq!(
            AnyConfig::decode("gomoku", &text).map(|_| ()),
            result.map_err(ConfigError::Rules)
        );
    }
    assert_eq!(
        AnyConfig::decode(
            "gomoku",
            "size=19,rule_set=renju,forbidden_policy=reject,opening=none"
        ),
        Err(ConfigError::Rules(RulesError::RenjuNeeds15x15))
    );
    assert_eq!(
        GomokuConfig::from_columns(-1, "renju", "reject", "none"),
        Err(ConfigError::UnknownValue { field: "size" })
    );
    assert_eq!(
        ConfigError::Rules(RulesError::RenjuNeeds15x15).code(),
        "renju_requires_15x15"
    );
    assert_eq!(ConfigError::Malformed.code(), "malformed_config");
}

/// Every form of a Gomoku action with its notation and the JSON stored for it before the notation.
fn golden() -> Vec<(Action, &'static str, &'static str)> {
    vec![
        (
            Action::place(p("h8")),
            "h8",
            r#"{"action":"place","point":"h8"}"#,
        ),
        (
            Action::place(p("s19")),
            "s19",
            r#"{"action":"place","point":"s19"}"#,
        ),
        (
            Action::DecideSwap { swap: true },
            "swap",
            r#"{"action":"decide_swap","swap":true}"#,
        ),
        (
            Action::DecideSwap { swap: false },
            "keep",
            r#"{"action":"decide_swap","swap":false}"#,
        ),
        (
            Action::ProposeFifth {
                points: [p("i9"), p("j10")],
            },
            "propose:i9,j10",
            r#"{"action":"propose_fifth","points":["i9","j10"]}"#,
        ),
        (
            Action::ChooseFifth { point: p("i9") },
            "choose:i9",
            r#"{"action":"choose_fifth","point":"i9"}"#,
        ),
        (
            Action::ClaimForbidden,
            "claim",
            r#"{"action":"claim_forbidden"}"#,
        ),
    ]
}

#[test]
fn every_action_form_has_its_pinned_stored_text() {
    for (action, text, _) in golden() {
        let any = AnyAction::Gomoku(action);
        assert_eq!(any.encode(), text);
        assert_eq!(AnyAction::decode(GameKind::Gomoku, text), Ok(any));
    }
}

#[test]
fn todays_stored_action_json_is_exactly_what_the_rules_derives_write_and_still_decodes() {
    for (action, _, json) in golden() {
        // Pins the form in the databases today: a rename in `rules` breaks this before it breaks a database.
        assert_eq!(serde_json::to_string(&action).unwrap(), json);
        assert_eq!(
            AnyAction::decode(GameKind::Gomoku, json),
            Ok(AnyAction::Gomoku(action))
        );
        assert_eq!(legacy_gomoku_action(json), Ok(action));
    }
}

#[test]
fn old_json_reads_as_the_rules_derives_read_it() {
    // The derives ignored unknown keys, took keys in any order and points in either case.
    for (json, action) in [
        (
            r#"{"point":"H8","action":"place","extra":1}"#,
            Action::place(p("h8")),
        ),
        (
            r#" { "action" : "decide_swap" , "swap" : true } "#,
            Action::DecideSwap { swap: true },
        ),
    ] {
        let derived: Action = serde_json::from_str(json).unwrap();
        assert_eq!(derived, action);
        assert_eq!(legacy_gomoku_action(json), Ok(action));
    }
    for bad in [
        "{",
        "{}",
        r#"{"action":"pass"}"#,
        r#"{"action":"place"}"#,
        r#"{"action":"place","point":"h0"}"#,
        r#"{"action":"place","point":8}"#,
        r#"{"action":"decide_swap","swap":"yes"}"#,
        r#"{"action":"propose_fifth","points":["i9"]}"#,
        r#"{"action":"propose_fifth","points":["i9","j10","k11"]}"#,
        r#"{"action":1}"#,
    ] {
        assert!(
            serde_json::from_str::<Action>(bad).is_err(),
            "the derive refused it too: {bad}"
        );
        let err = AnyAction::decode(GameKind::Gomoku, bad).unwrap_err();
        assert!(matches!(err, DecodeError::Json(_)), "{bad}: {err:?}");
        assert_eq!(err.code(), "malformed_stored_action");
    }
    // The derive also read a sequence (`["place","h8"]`), a form it never wrote, so no row holds it: refused.
    let sequence = r#"["place","h8"]"#;
    assert!(serde_json::from_str::<Action>(sequence).is_ok());
    assert_eq!(
        AnyAction::decode(GameKind::Gomoku, sequence),
        Err(DecodeError::Notation(NotationError::Malformed))
    );
}

#[test]
fn a_text_that_is_no_action_gets_a_typed_error() {
    for (text, err) in [
        ("", NotationError::Malformed),
        ("pass", NotationError::Malformed),
        ("swap ", NotationError::Malformed),
        ("propose:i9", NotationError::Malformed),
        ("h8 ", NotationError::Malformed),
        (
            "h0",
            NotationError::Point(rules::ParsePointError::Malformed),
        ),
        (
            "h08",
            NotationError::Point(rules::ParsePointError::Malformed),
        ),
        (
            "z9",
            NotationError::Point(rules::ParsePointError::OutOfRange),
        ),
        (
            "choose:",
            NotationError::Point(rules::ParsePointError::Malformed),
        ),
        (
            "H8",
            NotationError::NotCanonical {
                canonical: "h8".to_owned(),
            },
        ),
        (
            "propose:I9,j10",
            NotationError::NotCanonical {
                canonical: "propose:i9,j10".to_owned(),
            },
        ),
    ] {
        assert_eq!(
            AnyAction::decode(GameKind::Gomoku, text),
            Err(DecodeError::Notation(err.clone())),
            "{text:?}"
        );
    }
    assert_eq!(
        NotationError::NotCanonical {
            canonical: String::new()
        }
        .code(),
        "non_canonical_notation"
    );
    assert_eq!(
        "reversi".parse::<GameKind>(),
        Err(NotationError::UnknownGame)
    );
    assert_eq!("gomoku".parse::<GameKind>(), Ok(GameKind::Gomoku));
    assert_eq!("othello".parse::<GameKind>(), Ok(GameKind::Othello));
}

#[test]
fn each_rule_set_is_rated_in_its_own_gomoku_pool() {
    for (rule_set, variant) in [
        (RuleSet::Freestyle, "freestyle"),
        (RuleSet::Standard, "standard"),
        (RuleSet::Renju, "renju"),
    ] {
        for config in every_config()
            .into_iter()
            .filter(|c| c.rules().rule_set() == rule_set)
        {
            let pool = AnyConfig::Gomoku(config).pool();
            assert_eq!((pool.game, pool.variant), ("gomoku", variant));
        }
    }
}

/// The opening rules of issue #19: their stored configuration texts and action texts, pinned.
#[test]
fn the_modern_openings_and_their_actions_have_pinned_stored_texts() {
    for (opening, text) in [
        (Opening::Swap1, "opening=swap1"),
        (Opening::Swap2, "opening=swap2"),
        (Opening::SOOSORV_8, "opening=soosorv_8"),
        (Opening::Soosorv { n: 1 }, "opening=soosorv_1"),
        (Opening::TARAGUCHI_10, "opening=taraguchi_10"),
    ] {
        let config =
            GomokuConfig::new(15, RuleSet::Renju, ForbiddenPolicy::Reject, opening).unwrap();
        let any = AnyConfig::Gomoku(config);
        let stored = any.stored();
        assert_eq!(
            stored.text,
            format!("size=15,rule_set=renju,forbidden_policy=reject,{text}")
        );
        assert_eq!(AnyConfig::decode(stored.game, &stored.text), Ok(any));
    }
    let bad = "size=15,rule_set=renju,forbidden_policy=reject,opening=soosorv_11";
    assert_eq!(
        AnyConfig::decode("gomoku", bad).map_err(|e| e.code()),
        Err("bad_opening_count")
    );
    let offers = rules::Offers::new(&[p("i9"), p("j10"), p("a15")]).unwrap();
    for (action, text) in [
        (
            Action::PlaceTwo {
                points: [p("i9"), p("j10")],
            },
            "add:i9,j10",
        ),
        (Action::DeclareOffers { count: 5 }, "declare:5"),
        (Action::OfferFifths { offers }, "offer:i9,j10,a15"),
    ] {
        let any = AnyAction::Gomoku(action);
        assert_eq!(any.encode(), text);
        assert_eq!(AnyAction::decode(GameKind::Gomoku, text), Ok(any));
    }
    for bad in [
        "declare:",
        "declare:05",
        "declare:x",
        "offer:",
        "offer:i9,,j10",
        "offer:a1,a2,a3,a4,a5,a6,a7,a8,a9,a10,a11",
        "add:i9",
        "add:i9,j10,k11",
    ] {
        assert!(AnyAction::decode(GameKind::Gomoku, bad).is_err(), "{bad}");
    }
}
