//! The `match` binary run as a user runs it: levels against levels, against our own brain over the Piskvork
//! protocol, and against brains that are broken in each way a brain can be.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_match"))
        .args(args)
        .output()
        .expect("the match binary runs")
}

/// The one JSON object a `--json` run prints, after checking that the run succeeded and that its counts agree.
fn report(args: &[&str]) -> Value {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let v: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("not one JSON object ({e}): {stdout}"));
    let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}"));
    assert_eq!(n("wins") + n("losses") + n("draws"), n("games"), "{v}");
    assert_eq!(n("moves_a") + n("moves_b"), n("moves"), "{v}");
    let score = v["score"].as_f64().unwrap();
    let expected = (n("wins") as f64 + n("draws") as f64 / 2.0) / n("games") as f64;
    assert!((score - expected).abs() < 1e-3, "{v}");
    let (elo, lo, hi) = (
        v["elo"].as_f64().unwrap(),
        v["elo_low"].as_f64().unwrap(),
        v["elo_high"].as_f64().unwrap(),
    );
    assert!(lo <= elo && elo <= hi, "{v}");
    assert!(v["moves_per_sec"].as_f64().unwrap() >= 0.0, "{v}");
    // Every game starts from an opening's three stones and ends on the board or by a failure after them.
    assert!(v["avg_plies"].as_f64().unwrap() >= 3.0, "{v}");
    v
}

fn n(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}"))
}

/// A `/bin/sh` script in a temporary folder of its own, removed when dropped.
struct Script {
    dir: PathBuf,
    /// The `cmd:` player that runs it (through `sh`, so that it needs no execute bit).
    player: String,
}

impl Script {
    fn new(name: &str, body: &str) -> Script {
        let dir = std::env::temp_dir().join(format!("match-harness-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.sh"));
        std::fs::write(&path, body).unwrap();
        let player = format!("cmd:sh {}", path.display());
        Script { dir, player }
    }
}

impl Drop for Script {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn one_renju_opening_between_two_levels_is_two_games_and_a_consistent_report() {
    let v = report(&[
        "--a", "2", "--b", "level:1", "--games", "1", "--ms", "20", "--rules", "renju", "--json",
    ]);
    assert_eq!(n(&v, "games"), 2);
    assert_eq!(n(&v, "openings"), 1);
    assert_eq!(
        (v["a"].as_str(), v["b"].as_str()),
        (Some("level:2"), Some("level:1"))
    );
    assert_eq!(v["rules"].as_str(), Some("renju"));
    assert_eq!(v["ms_a"].as_f64(), Some(20.0));
    for k in ["timeouts_a", "timeouts_b", "illegal_a", "illegal_b"] {
        assert_eq!(n(&v, k), 0, "{k}: {v}");
    }
    assert!(n(&v, "moves_a") > 0 && n(&v, "moves_b") > 0, "{v}");
}

#[test]
fn the_text_report_keeps_its_result_line() {
    let out = run(&[
        "--a",
        "2",
        "--b",
        "1",
        "--games",
        "1",
        "--ms",
        "20",
        "--threads",
        "2",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("level 2 vs level 1: +"), "{text}");
    assert!(first.contains("score") && first.contains("Elo"), "{text}");
    assert!(text.contains("2 games (freestyle rules)"), "{text}");
}

#[test]
fn our_own_brain_plays_as_an_external_player_without_failing() {
    let brain = format!("cmd:{} --level 1", env!("CARGO_BIN_EXE_pbrain-gomoku"));
    let v = report(&[
        "--a", "1", "--b", &brain, "--games", "1", "--ms", "50", "--rules", "renju", "--json",
    ]);
    assert_eq!(n(&v, "games"), 2);
    assert_eq!(v["b"].as_str(), Some(brain.as_str()));
    for k in ["timeouts_a", "timeouts_b", "illegal_a", "illegal_b"] {
        assert_eq!(n(&v, k), 0, "{k}: {v}");
    }
    assert!(n(&v, "moves_b") > 0, "the brain played: {v}");
}

#[test]
fn a_brain_answering_garbage_loses_every_game_counted_as_illegal() {
    let garbage = Script::new("garbage", "while true; do echo hello; done\n");
    let v = report(&[
        "--a",
        "1",
        "--b",
        &garbage.player,
        "--games",
        "1",
        "--ms",
        "50",
        "--json",
    ]);
    assert_eq!((n(&v, "games"), n(&v, "wins")), (2, 2), "{v}");
    assert_eq!((n(&v, "illegal_b"), n(&v, "timeouts_b")), (2, 0), "{v}");
    assert_eq!(n(&v, "moves_b"), 0, "{v}");
}

#[test]
fn a_brain_that_falls_silent_loses_every_game_counted_as_timeouts() {
    // It says OK to START, then reads and never answers.
    let silent = Script::new(
        "silent",
        "read start\necho OK\nwhile read line; do :; done\n",
    );
    let v = report(&[
        "--a",
        &silent.player,
        "--b",
        "1",
        "--games",
        "1",
        "--ms",
        "50",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!((n(&v, "games"), n(&v, "losses")), (2, 2), "{v}");
    assert_eq!((n(&v, "timeouts_a"), n(&v, "illegal_a")), (2, 0), "{v}");
    assert_eq!((n(&v, "timeouts_b"), n(&v, "illegal_b")), (0, 0), "{v}");
}

#[test]
fn a_brain_that_dies_or_plays_on_a_stone_loses_counted_as_illegal() {
    let dies = Script::new("dies", "exit 0\n");
    let occupied = Script::new(
        "occupied",
        "read start\necho OK\nwhile read line; do [ \"$line\" = DONE ] && echo 7,7; done\n",
    );
    for brain in [&dies.player, &occupied.player] {
        let v = report(&[
            "--a", "1", "--b", brain, "--games", "1", "--ms", "50", "--rules", "standard", "--json",
        ]);
        assert_eq!((n(&v, "games"), n(&v, "wins")), (2, 2), "{brain}: {v}");
        assert_eq!(
            (n(&v, "illegal_b"), n(&v, "timeouts_b")),
            (2, 0),
            "{brain}: {v}"
        );
    }
}

#[test]
fn a_brain_is_told_a_real_memory_limit() {
    // It logs every line it reads after START, and answers the first position with garbage (so it loses at once).
    let dir = std::env::temp_dir().join(format!("match-harness-{}-memory", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (flags, expected) in [
        (&[][..], "INFO max_memory 268435456"),
        (&["--memory", "64"][..], "INFO max_memory 67108864"),
    ] {
        let log = dir.join("lines.txt");
        let _ = std::fs::remove_file(&log);
        let logger = Script::new(
            "logger",
            &format!(
                "read start\necho OK\nwhile read line; do echo \"$line\" >> {}; [ \"$line\" = DONE ] && echo hello; done\n",
                log.display()
            ),
        );
        let mut args = vec![
            "--a",
            "1",
            "--b",
            &logger.player,
            "--games",
            "1",
            "--ms",
            "50",
            "--json",
        ];
        args.extend_from_slice(flags);
        let v = report(&args);
        assert_eq!(n(&v, "illegal_b"), 2, "{v}");
        let lines = std::fs::read_to_string(&log).unwrap();
        assert!(lines.lines().any(|l| l == expected), "{flags:?}: {lines}");
        assert!(!lines.contains("INFO max_memory 0"), "{lines}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_at_a_node_budget_between_search_switches_is_reproducible() {
    let args = [
        "--a",
        "8/base,+lmr",
        "--b",
        "level:8/base",
        "--nodes",
        "3000",
        "--games",
        "1",
        "--rules",
        "renju",
        "--json",
    ];
    let first = report(&args);
    let second = report(&args);
    assert_eq!(
        (first["a"].as_str(), first["b"].as_str()),
        (Some("level:8/base,+lmr"), Some("level:8/base"))
    );
    assert_eq!(n(&first, "nodes"), 3000);
    for k in ["wins", "losses", "draws", "moves_a", "moves_b", "avg_plies"] {
        assert_eq!(first[k], second[k], "{k}: {first} / {second}");
    }
    for k in ["timeouts_a", "timeouts_b", "illegal_a", "illegal_b"] {
        assert_eq!(n(&first, k), 0, "{k}: {first}");
    }
}

#[test]
fn bad_flags_exit_2_with_the_reason() {
    let cases: [(&[&str], &str); 8] = [
        (&["--a", "9"], "levels are 1 to 8"),
        (&["--b", "cmd:"], "needs a command line"),
        (&["--games", "zero"], "--games: bad value"),
        (&["--games", "0"], "--games must be at least 1"),
        (&["--rules", "go"], "unknown rules"),
        (&["--frobnicate", "1"], "unknown flag --frobnicate"),
        (&["--ms"], "--ms needs a value"),
        (
            &["--b", "cmd:pbrain", "--rules", "renju-swap"],
            "no swap decision",
        ),
    ];
    for (args, reason) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let missing = run(&[
        "--b",
        "cmd:/nonexistent/brain-that-is-not-there",
        "--games",
        "1",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot start"));
}
