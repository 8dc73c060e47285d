//! The command line: the two players, the rules, the pace and the match's size.

use std::time::Duration;

use engine::search::SearchOptions;
use rules::{ForbiddenPolicy, Opening, Rules};

/// One side of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// One of our levels, 1–8, thinking in this process through `Engine::think`.
    Level(u8),
    /// One of our levels with some main-search techniques switched (`K/base,+lmr`): the options and the text
    /// after the slash, for measuring what each technique buys.
    Tuned(u8, SearchOptions, String),
    /// An external Piskvork brain: the program and its arguments, split at white space (no shell quoting).
    Command(Vec<String>),
}

impl Player {
    /// Reads `K`, `level:K` or `cmd:COMMAND LINE`.
    pub fn parse(spec: &str) -> Result<Player, String> {
        if let Some(line) = spec.strip_prefix("cmd:") {
            let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
            if words.is_empty() {
                return Err(format!("{spec:?}: `cmd:` needs a command line"));
            }
            return Ok(Player::Command(words));
        }
        let number = spec.strip_prefix("level:").unwrap_or(spec);
        if let Some((number, switches)) = number.split_once('/') {
            let Player::Level(k) = Player::parse(number)? else {
                return Err(format!("{spec:?}: a slash follows a level"));
            };
            return Ok(Player::Tuned(k, options(switches)?, switches.to_owned()));
        }
        match number.parse::<u8>() {
            Ok(k) if (1..=8).contains(&k) => Ok(Player::Level(k)),
            Ok(_) => Err(format!("{spec:?}: levels are 1 to 8")),
            Err(_) => Err(format!(
                "{spec:?} is not a player: K or level:K (1 to 8), or cmd:COMMAND LINE"
            )),
        }
    }

    /// The spec in its long form (`level:3`, `cmd:pbrain-gomoku --level 3`), as the JSON report names it.
    pub fn spec(&self) -> String {
        match self {
            Player::Level(k) => format!("level:{k}"),
            Player::Tuned(k, _, switches) => format!("level:{k}/{switches}"),
            Player::Command(words) => format!("cmd:{}", words.join(" ")),
        }
    }

    /// How the text report names it.
    pub fn label(&self) -> String {
        match self {
            Player::Level(k) => format!("level {k}"),
            Player::Tuned(k, _, switches) => format!("level {k}/{switches}"),
            Player::Command(words) => format!("`{}`", words.join(" ")),
        }
    }
}

/// Reads the switches after a level's slash: comma-separated `base` (every technique off), `all` (every one
/// on), `+NAME` or `NAME` (on), `-NAME` (off), applied in order from the engine's default.
fn options(switches: &str) -> Result<SearchOptions, String> {
    let mut o = SearchOptions::DEFAULT;
    for word in switches.split(',') {
        match word {
            "base" => o = SearchOptions::BASELINE,
            "all" => o = SearchOptions::ALL,
            "default" => o = SearchOptions::DEFAULT,
            _ => {
                let (name, on) = match word.strip_prefix('-') {
                    Some(name) => (name, false),
                    None => (word.strip_prefix('+').unwrap_or(word), true),
                };
                if !o.set(name, on) {
                    return Err(format!(
                        "{word:?} is no search switch: base, all, default, or +/- one of {}",
                        SearchOptions::NAMES.join(", ")
                    ));
                }
            }
        }
    }
    Ok(o)
}

/// Everything the command line sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    /// The player whose wins, losses and score are reported.
    pub a: Player,
    /// Its opponent.
    pub b: Player,
    /// Openings: each is played twice, so the match has twice as many games.
    pub games: u32,
    /// The per-move cap in milliseconds: a level's own cap applies when shorter; an external brain gets it as
    /// `INFO timeout_turn`.
    pub ms: u64,
    /// Each level gets this fraction of its own time cap instead of `ms` (external brains still get `ms`).
    pub scale: Option<f64>,
    /// The rules.
    pub rules: Rules,
    /// The `--rules` name.
    pub rules_name: String,
    /// Fixes the openings' orientations and the engines' random choices.
    pub seed: u64,
    /// One JSON object instead of the text report.
    pub json: bool,
    /// Games played at once.
    pub threads: usize,
    /// A node budget per move for our levels (their time cap is then lifted to a minute, so that the budget
    /// binds and the match does not depend on the machine's load); external brains keep `ms`.
    pub nodes: Option<u64>,
    /// Memory an external brain may use, in bytes, sent as `INFO max_memory`.
    pub memory: u64,
}

/// The memory an external brain is told it may use unless `--memory` says otherwise: 256 MiB.
pub const DEFAULT_MEMORY_MB: u64 = 256;

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// Play the match.
    Play(Args),
    /// Print the usage and stop.
    Help,
}

/// The usage text.
pub const USAGE: &str = "usage: match [--a SPEC] [--b SPEC] [--games N] [--ms T | --scale F] [--rules R] [--seed S] \
[--threads N] [--nodes N] [--memory MB] [--json]
  SPEC   K or level:K (our engine, 1-8), or cmd:COMMAND LINE (a Piskvork brain); defaults --a 2 --b 1;
         K/SWITCHES switches main-search techniques from the default (all but counter and fourext):
         comma-separated base (all off), all, default, +NAME, -NAME (aspiration, lmr, futility,
         buckets, counter, fourext), e.g. 8/base,+lmr
  --games N    openings, each played with the colours both ways (2N games); default 10
  --ms T       per-move cap in ms (a level's own cap applies when shorter); default 100
  --scale F    each level gets F times its own cap instead (external brains keep --ms)
  --rules R    freestyle (default), standard, renju, standard-swap, renju-swap (no cmd: players)
  --seed S     openings' orientation and the engines' choices; default 1
  --threads N  games played at once; default 1
  --nodes N    node budget per move for our levels, their time cap lifted to 60 s (reproducible matches)
  --memory MB  INFO max_memory for external brains, in MiB; default 256
  --json       one JSON object instead of the text report";

/// Reads the arguments after the program's name.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut out = Args {
        a: Player::Level(2),
        b: Player::Level(1),
        games: 10,
        ms: 100,
        scale: None,
        rules: Rules::freestyle(),
        rules_name: "freestyle".to_owned(),
        seed: 1,
        json: false,
        threads: 1,
        nodes: None,
        memory: DEFAULT_MEMORY_MB << 20,
    };
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--json" => {
                out.json = true;
                continue;
            }
            "--help" | "-h" => return Ok(Command::Help),
            _ => {}
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = || format!("{flag}: bad value {value:?}");
        match flag.as_str() {
            "--a" => out.a = Player::parse(&value)?,
            "--b" => out.b = Player::parse(&value)?,
            "--games" => out.games = value.parse().map_err(|_| bad())?,
            "--ms" => out.ms = value.parse().map_err(|_| bad())?,
            "--seed" => out.seed = value.parse().map_err(|_| bad())?,
            "--threads" => out.threads = value.parse().map_err(|_| bad())?,
            "--nodes" => match value.parse::<u64>() {
                Ok(n) if n > 0 => out.nodes = Some(n),
                _ => {
                    return Err(format!(
                        "{flag}: {value:?} is not a node count of at least 1"
                    ))
                }
            },
            "--memory" => match value.parse::<u64>() {
                Ok(mb) if (1..=1 << 20).contains(&mb) => out.memory = mb << 20,
                _ => return Err(format!("{flag}: {value:?} is not 1 to 1048576 MiB")),
            },
            "--scale" => {
                let f: f64 = value.parse().map_err(|_| bad())?;
                if !(f.is_finite() && f > 0.0 && f <= 100.0) {
                    return Err(format!("{flag}: {value} is not in (0, 100]"));
                }
                out.scale = Some(f);
            }
            "--rules" => {
                out.rules = rules_named(&value).ok_or(format!(
                    "unknown rules {value:?}: freestyle, standard, renju, standard-swap or renju-swap"
                ))?;
                out.rules_name = value;
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if out.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if out.ms == 0 {
        return Err("--ms must be at least 1".into());
    }
    if !(1..=64).contains(&out.threads) {
        return Err("--threads must be 1 to 64".into());
    }
    if out.rules.opening() != Opening::None {
        let external = [&out.a, &out.b]
            .into_iter()
            .find(|p| matches!(p, Player::Command(_)));
        if let Some(p) = external {
            return Err(format!(
                "{} cannot play {}: the Piskvork protocol has no swap decision (use freestyle, standard or renju)",
                p.label(),
                out.rules_name
            ));
        }
    }
    Ok(Command::Play(out))
}

fn rules_named(name: &str) -> Option<Rules> {
    Some(match name {
        "freestyle" => Rules::freestyle(),
        "standard" => Rules::standard(),
        "renju" => Rules::renju(ForbiddenPolicy::Reject),
        "renju-swap" => Rules::renju(ForbiddenPolicy::Reject).with_opening(Opening::SwapAfterThree),
        "standard-swap" => Rules::standard().with_opening(Opening::SwapAfterThree),
        _ => return None,
    })
}

/// A level's time cap in a match at a node budget: long enough that the budget binds on a loaded machine.
pub const NODE_MATCH_CAP: Duration = Duration::from_secs(60);

impl Args {
    /// The per-move cap `player` gets.
    pub fn move_time(&self, player: &Player) -> Duration {
        match player {
            Player::Level(k) | Player::Tuned(k, ..) => {
                if self.nodes.is_some() {
                    return NODE_MATCH_CAP;
                }
                let cap = engine::Level::new(*k).time_cap;
                match self.scale {
                    Some(f) => cap.mul_f64(f),
                    None => Duration::from_millis(self.ms).min(cap),
                }
            }
            Player::Command(_) => Duration::from_millis(self.ms),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(line: &str) -> Result<Args, String> {
        match parse(line.split_whitespace().map(str::to_owned))? {
            Command::Play(a) => Ok(a),
            Command::Help => Err("help".into()),
        }
    }

    #[test]
    fn a_player_is_a_level_or_a_command_line() {
        assert_eq!(Player::parse("5"), Ok(Player::Level(5)));
        assert_eq!(Player::parse("level:8"), Ok(Player::Level(8)));
        assert_eq!(
            Player::parse("cmd:pbrain --level  3"),
            Ok(Player::Command(vec![
                "pbrain".into(),
                "--level".into(),
                "3".into()
            ]))
        );
        assert_eq!(
            Player::parse("cmd:pbrain --level  3").unwrap().spec(),
            "cmd:pbrain --level 3"
        );
        for bad in [
            "0", "9", "level:", "level:x", "cmd:", "cmd:   ", "pbrain", "",
        ] {
            assert!(Player::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_old_form_and_the_defaults_still_read() {
        let a = play("--a 5 --b 4 --games 20 --ms 50 --rules renju-swap --seed 17").unwrap();
        assert_eq!((a.a, a.b), (Player::Level(5), Player::Level(4)));
        assert_eq!((a.games, a.ms, a.seed), (20, 50, 17));
        assert_eq!(a.rules.opening(), Opening::SwapAfterThree);
        assert!(!a.json);
        let d = play("").unwrap();
        assert_eq!(
            (d.a, d.b, d.games, d.threads),
            (Player::Level(2), Player::Level(1), 10, 1)
        );
        assert_eq!(d.rules_name, "freestyle");
    }

    #[test]
    fn a_level_may_switch_search_techniques() {
        let Ok(Player::Tuned(8, o, text)) = Player::parse("level:8/base,+lmr") else {
            panic!("not tuned")
        };
        assert_eq!(text, "base,+lmr");
        assert!(o.lmr && !o.futility && !o.aspiration && !o.buckets);
        let Ok(Player::Tuned(5, o, _)) = Player::parse("5/+counter,-lmr") else {
            panic!("not tuned")
        };
        assert!(o.counter_moves && !o.lmr && o.futility && !o.four_extension);
        let Ok(Player::Tuned(8, o, _)) = Player::parse("8/default") else {
            panic!("not tuned")
        };
        assert_eq!(o, SearchOptions::DEFAULT);
        assert_eq!(
            Player::parse("8/all,-counter").unwrap().spec(),
            "level:8/all,-counter"
        );
        for bad in ["8/", "8/nmp", "9/base", "8/+", "x/base", "level:/base"] {
            assert!(Player::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_node_budget_lifts_the_levels_time_caps_and_memory_is_sent_in_bytes() {
        let a = play("--nodes 20000 --ms 150 --a 8/base").unwrap();
        assert_eq!(a.nodes, Some(20_000));
        assert_eq!(a.move_time(&a.a), NODE_MATCH_CAP);
        assert_eq!(
            a.move_time(&Player::Command(vec!["x".into()])),
            Duration::from_millis(150)
        );
        assert_eq!(a.memory, DEFAULT_MEMORY_MB << 20);
        assert_eq!(play("--memory 1").unwrap().memory, 1 << 20);
        assert_eq!(play("--memory 1048576").unwrap().memory, 1 << 40);
        for bad in ["--nodes 0", "--nodes x", "--memory 0", "--memory 1048577"] {
            assert!(play(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn json_takes_no_value() {
        let a = play("--json --threads 2 --a level:3").unwrap();
        assert!(a.json);
        assert_eq!((a.threads, a.a), (2, Player::Level(3)));
    }

    #[test]
    fn bad_flags_are_refused_with_a_reason() {
        for bad in [
            "--games",
            "--games x",
            "--games 0",
            "--ms 0",
            "--threads 0",
            "--threads 65",
            "--scale -1",
            "--scale nan",
            "--rules go",
            "--frobnicate 1",
            "--a 9",
            "--b cmd:x --rules renju-swap",
            "--a cmd:x --rules standard-swap",
        ] {
            assert!(play(bad).is_err(), "{bad}");
        }
        assert!(play("--b cmd:x --rules renju").is_ok());
    }

    #[test]
    fn a_level_gets_the_shorter_of_ms_and_its_cap_or_a_scaled_cap() {
        let a = play("--ms 150").unwrap();
        assert_eq!(a.move_time(&Player::Level(1)), Duration::from_millis(100));
        assert_eq!(a.move_time(&Player::Level(5)), Duration::from_millis(150));
        let s = play("--ms 150 --scale 0.05").unwrap();
        assert_eq!(s.move_time(&Player::Level(8)), Duration::from_millis(400));
        assert_eq!(
            s.move_time(&Player::Command(vec!["x".into()])),
            Duration::from_millis(150)
        );
    }
}
