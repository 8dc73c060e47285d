//! The Hub protocol (version 2, Scan's: the protocol text that comes with Scan 3) for the draughts engine, both
//! sides of it: the engine's (the `hub-draughts` binary serves [`HubBrain`] over stdin and stdout) and what a
//! manager needs to drive any Hub engine (the `draughts-match` harness): the line syntax, the position and move
//! texts.
//!
//! Every line is `command arg=value arg="quoted value" flag …`; unknown commands and arguments are ignored by
//! both sides. A position is 51 characters: the side to move (`W`, `B`), then squares 1–50 (`w`, `b` men, `W`,
//! `B` kings, `e` empty). A quiet move is `32-28`; a capture is `from x to x captured x captured …` (`28x19x23`),
//! the captured squares in any order. `docs/engine.md`, "Hub protocol", has the dialogue.
//!
//! Pure like the rest of the crate: the streams are the caller's; a reading thread (in
//! [`serve_threaded`]) lets `stop`, `ping` and `quit` reach a search in progress.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rules::draughts::{Game, Move, Position, Role, Square};
use rules::Color;

use crate::draughts::{Engine, Level};

/// One protocol line read: its command and its arguments in order (a flag's value is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The first word.
    pub command: String,
    /// `name=value` pairs and flags.
    pub args: Vec<(String, String)>,
}

impl Line {
    /// The value of argument `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `name` is given (a flag, or an argument with a value).
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// Reads a line: words separated by white space, `name=value` or a flag, a value in double quotes may hold
/// spaces and `=`. `None` for an empty line or an unclosed quote.
pub fn parse_line(text: &str) -> Option<Line> {
    let mut words: Vec<(String, Option<String>)> = Vec::new();
    let mut chars = text.trim().chars().peekable();
    while chars.peek().is_some() {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' {
                break;
            }
            name.push(c);
            chars.next();
        }
        let mut value = None;
        if chars.peek() == Some(&'=') {
            chars.next();
            let mut v = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    v.push(c);
                }
                if !closed {
                    return None;
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    v.push(c);
                    chars.next();
                }
            }
            value = Some(v);
        }
        words.push((name, value));
    }
    let mut words = words.into_iter();
    let (command, _) = words.next()?;
    Some(Line {
        command,
        args: words.map(|(k, v)| (k, v.unwrap_or_default())).collect(),
    })
}

/// A value as a line writes it: quoted when empty or holding a space, a quote or `=`.
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '\t', '=', '"']) {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_owned()
    }
}

/// The 51-character position text of `position`.
pub fn position_text(position: &Position) -> String {
    let mut text = String::with_capacity(51);
    text.push(if position.turn() == Color::White {
        'W'
    } else {
        'B'
    });
    for square in Square::all() {
        text.push(match position.piece_at(square) {
            None => 'e',
            Some(p) => match (p.colour, p.role) {
                (Color::White, Role::Man) => 'w',
                (Color::Black, Role::Man) => 'b',
                (Color::White, Role::King) => 'W',
                (Color::Black, Role::King) => 'B',
            },
        });
    }
    text
}

/// Reads a 51-character position text; the reason when it is not one (through the rules' own checks: no man on
/// its crowning row).
pub fn parse_position(text: &str) -> Result<Position, String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 51 {
        return Err(format!("a position has 51 characters, not {}", chars.len()));
    }
    let turn = match chars[0] {
        'W' => "W",
        'B' => "B",
        c => return Err(format!("the side to move is W or B, not {c:?}")),
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, &c) in chars[1..].iter().enumerate() {
        let n = i + 1;
        match c {
            'w' => white.push(n.to_string()),
            'W' => white.push(format!("K{n}")),
            'b' => black.push(n.to_string()),
            'B' => black.push(format!("K{n}")),
            'e' => {}
            c => return Err(format!("square {n}: {c:?} is not one of w b W B e")),
        }
    }
    let fen = format!("{turn}:W{}:B{}", white.join(","), black.join(","));
    Position::from_fen(&fen).map_err(|e| e.to_string())
}

/// A move as Hub writes it: `32-28`, or `from x to x captured …` (the captured squares in increasing order).
pub fn move_text(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut text = format!("{}x{}", mv.from(), mv.to());
    for s in mv.captured().iter() {
        text.push_str(&format!("x{s}"));
    }
    text
}

/// The legal move of `position` a Hub move text names: a quiet move, or a capture by its start, its end and the
/// pieces it takes (in any order). A capture written without its pieces (`28x19`) is read when only one legal
/// move fits. The reason when none (or more than one) does.
pub fn parse_move(position: &Position, text: &str) -> Result<Move, String> {
    let text = text.trim();
    let capture = text.contains('x');
    let squares = text
        .split(if capture { 'x' } else { '-' })
        .map(|s| s.parse::<Square>().map_err(|e| format!("{text:?}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 || (!capture && squares.len() != 2) {
        return Err(format!("{text:?} is not a move"));
    }
    let (from, to) = (squares[0], squares[1]);
    let mut taken: Vec<Square> = squares[2..].to_vec();
    taken.sort_unstable_by_key(|s| s.number());
    let fits: Vec<Move> = position
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_capture() == capture && m.from() == from && m.to() == to)
        .filter(|m| {
            !capture || taken.is_empty() || m.captured().iter().collect::<Vec<_>>() == taken
        })
        .collect();
    match fits.len() {
        1 => Ok(fits.into_iter().next().expect("one")),
        0 => Err(format!("{text:?} is not a legal move here")),
        _ => Err(format!("{text:?} fits more than one legal move")),
    }
}

/// How long a search may take, from a `level` line: `move-time`, or a share of the clock (`time`, with
/// `moves` to go and `inc`), or the level's own cap (`depth`, `infinite`, or nothing usable).
pub fn budget_of(line: &Line, cap: Duration) -> Duration {
    let secs = |name| {
        line.get(name)
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
    };
    let time = if let Some(t) = secs("move-time") {
        Some(t)
    } else if let Some(left) = secs("time") {
        let moves = secs("moves").filter(|&m| m >= 1.0).unwrap_or(30.0);
        let inc = secs("inc").unwrap_or(0.0);
        // The increment comes before each move: spend it, and a fair share of what is left, keeping a margin.
        Some((left / moves + inc).min(left * 0.8 + inc))
    } else {
        None
    };
    time.map_or(cap, |t| Duration::from_secs_f64(t.min(3_600.0)).min(cap))
}

/// The engine's side of the protocol: our draughts engine at a level.
pub struct HubBrain {
    engine: Engine,
    seed: u64,
    level: Level,
    game: Option<Game>,
    budget: Option<Duration>,
}

/// What handling one line gives: lines to write, and whether to stop.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// Lines to write, in order.
    pub lines: Vec<String>,
    /// `quit` was read.
    pub quit: bool,
}

impl HubBrain {
    /// Our engine at `level` (clamped into 1–8), its random choices following `seed`.
    pub fn new(level: u8, seed: u64) -> HubBrain {
        HubBrain {
            engine: Engine::new(seed),
            seed,
            level: Level::new(level.clamp(1, 8)).expect("clamped"),
            game: None,
            budget: None,
        }
    }

    /// The level it plays at.
    pub fn level(&self) -> u8 {
        self.level.number()
    }

    /// Handles one line (read in turn, not during a search); `cancel` stops a search `go` starts.
    pub fn handle(&mut self, text: &str, cancel: &AtomicBool) -> Reply {
        let Some(line) = parse_line(text) else {
            return Reply::default();
        };
        let lines = match line.command.as_str() {
            "hub" => vec![
                format!(
                    "id name=gomoku-server-draughts version={} author=\"the project\" country=\"\"",
                    env!("CARGO_PKG_VERSION")
                ),
                "param name=variant value=normal type=enum values=normal".to_owned(),
                format!(
                    "param name=level value={} type=int min=1 max=8",
                    self.level.number()
                ),
                "wait".to_owned(),
            ],
            "set-param" => self.set_param(&line),
            "init" => vec!["ready".to_owned()],
            "new-game" => {
                self.engine = Engine::new(self.seed);
                self.game = None;
                Vec::new()
            }
            "pos" => self.set_position(&line),
            "level" => {
                self.budget = Some(budget_of(&line, self.level.settings().time));
                Vec::new()
            }
            "go" => self.go(cancel),
            "ping" => vec!["pong".to_owned()],
            "quit" => {
                return Reply {
                    lines: Vec::new(),
                    quit: true,
                }
            }
            // `stop` and `ponder-hit` with no search running, and anything unknown: nothing to do.
            _ => Vec::new(),
        };
        Reply { lines, quit: false }
    }

    fn set_param(&mut self, line: &Line) -> Vec<String> {
        match (line.get("name"), line.get("value")) {
            (Some("level"), Some(v)) => match v.parse::<u8>().ok().and_then(Level::new) {
                Some(level) => {
                    self.level = level;
                    Vec::new()
                }
                None => vec![format!(
                    "error message={}",
                    quote(&format!("level {v} is not 1 to 8"))
                )],
            },
            (Some("variant"), Some(v)) if v != "normal" => vec![format!(
                "error message={}",
                quote(&format!("variant {v} is not played; only normal"))
            )],
            _ => Vec::new(),
        }
    }

    fn set_position(&mut self, line: &Line) -> Vec<String> {
        let error = |why: String| vec![format!("error message={}", quote(&why))];
        let Some(text) = line.get("pos") else {
            return error("pos needs pos=".into());
        };
        let start = match parse_position(text) {
            Ok(p) => p,
            Err(why) => {
                self.game = None;
                return error(why);
            }
        };
        let mut game = Game::from_position(start);
        for word in line.get("moves").unwrap_or("").split_whitespace() {
            match parse_move(game.position(), word)
                .and_then(|m| game.play(&m).map_err(|e| format!("{word:?}: {}", e.code())))
            {
                Ok(()) => {}
                Err(why) => {
                    self.game = None;
                    return error(why);
                }
            }
        }
        self.game = Some(game);
        Vec::new()
    }

    fn go(&mut self, cancel: &AtomicBool) -> Vec<String> {
        let Some(game) = &self.game else {
            return vec!["error message=\"go without a position\"".to_owned()];
        };
        let budget = self.budget.unwrap_or(self.level.settings().time);
        let start = Instant::now();
        let Some(report) = self.engine.think(game, self.level, budget, cancel) else {
            return vec!["error message=\"the game is over\"".to_owned()];
        };
        let secs = start.elapsed().as_secs_f64();
        let pv: Vec<String> = report.pv.iter().map(move_text).collect();
        let mut done = format!("done move={}", move_text(&report.best));
        if let Some(answer) = pv.get(1) {
            done.push_str(&format!(" ponder={answer}"));
        }
        vec![
            format!(
                "info depth={} score={:.2} nodes={} time={secs:.3} pv={}",
                report.depth,
                f64::from(report.score) / 100.0,
                report.nodes,
                quote(&pv.join(" "))
            ),
            done,
        ]
    }
}

/// Serves `brain` over `input` and `output` until `quit` or the end of the input. A reading thread answers
/// `ping` at once (also during a search), turns `stop` into the search's cancel flag and `quit` into the end;
/// every other line waits its turn, in order. The reading thread is left to end with the process.
pub fn serve_threaded(
    brain: &mut HubBrain,
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> std::io::Result<()> {
    let out: Arc<Mutex<Box<dyn Write + Send>>> = Arc::new(Mutex::new(Box::new(output)));
    let cancel = Arc::new(AtomicBool::new(false));
    let quit = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<String>();
    {
        let (out, cancel, quit) = (out.clone(), cancel.clone(), quit.clone());
        std::thread::spawn(move || {
            for line in input.lines() {
                let Ok(line) = line else { break };
                let command = parse_line(&line).map(|l| l.command);
                match command.as_deref() {
                    Some("ping") => {
                        let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                        let _ = writeln!(out, "pong").and_then(|()| out.flush());
                        continue;
                    }
                    Some("stop") => {
                        cancel.store(true, Ordering::SeqCst);
                        continue;
                    }
                    Some("quit") => {
                        quit.store(true, Ordering::SeqCst);
                        cancel.store(true, Ordering::SeqCst);
                    }
                    _ => {}
                }
                if tx.send(line).is_err() {
                    return;
                }
            }
            // The manager is gone: stop as directly as possible.
            quit.store(true, Ordering::SeqCst);
            cancel.store(true, Ordering::SeqCst);
        });
    }
    while let Ok(line) = rx.recv() {
        if quit.load(Ordering::SeqCst) {
            break;
        }
        if parse_line(&line).is_some_and(|l| l.command == "go") {
            // A stop read before this search belongs to no search.
            cancel.store(false, Ordering::SeqCst);
        }
        let reply = brain.handle(&line, &cancel);
        {
            let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
            for l in &reply.lines {
                writeln!(out, "{l}")?;
            }
            out.flush()?;
        }
        if reply.quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_flags_values_and_quoted_values() {
        let l = parse_line("  info depth=21 score=-0.01 pv=\"32-28 17-22\" flag  ").unwrap();
        assert_eq!(l.command, "info");
        assert_eq!(l.get("depth"), Some("21"));
        assert_eq!(l.get("pv"), Some("32-28 17-22"));
        assert!(l.has("flag") && l.get("flag") == Some(""));
        assert_eq!(parse_line("   "), None);
        assert_eq!(parse_line("pos moves=\"32-28"), None);
        assert_eq!(parse_line("go think").unwrap().args[0].0, "think");
        assert_eq!(parse_line("x v=\"\"").unwrap().get("v"), Some(""));
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote("normal"), "normal");
    }

    #[test]
    fn the_initial_position_reads_and_writes_as_the_protocol_shows_it() {
        let text = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
        let p = parse_position(text).unwrap();
        assert_eq!(p, Position::initial());
        assert_eq!(position_text(&p), text);
        for bad in [
            "W",
            "Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwx",
            // A white man on its crowning row.
            "Wwbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
        ] {
            assert!(parse_position(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn captures_are_named_by_their_pieces_in_any_order() {
        // White's two-for-one: 27-22 18x27 31x22x11 takes 27 and 17.
        let p = Position::from_fen("W:W27,28,31,36:B5,10,17,18").unwrap();
        let quiet = parse_move(&p, "27-22").unwrap();
        assert_eq!(move_text(&quiet), "27-22");
        let p = p.play(&quiet).unwrap();
        let taken = parse_move(&p, "18x27x22").unwrap();
        assert_eq!(move_text(&taken), "18x27x22");
        let p = p.play(&taken).unwrap();
        // 31 jumps 27 to 22, then 17 to 11.
        let double = parse_move(&p, "31x11x17x27").unwrap();
        assert_eq!(parse_move(&p, "31x11x27x17").unwrap(), double);
        assert_eq!(parse_move(&p, "31x11").unwrap(), double);
        assert_eq!(move_text(&double), "31x11x17x27");
        assert!(parse_move(&p, "31x11x18").is_err());
        assert!(parse_move(&p, "31-27").is_err(), "captures are forced");
        assert!(parse_move(&p, "hello").is_err());
    }

    #[test]
    fn the_budget_follows_the_level_line_within_the_cap() {
        let cap = Duration::from_secs(8);
        let b = |text: &str| budget_of(&parse_line(text).unwrap(), cap);
        assert_eq!(b("level move-time=0.5"), Duration::from_millis(500));
        assert_eq!(b("level move-time=100"), cap);
        assert_eq!(b("level depth=12"), cap);
        assert_eq!(b("level infinite"), cap);
        assert_eq!(b("level moves=10 time=20"), Duration::from_secs(2));
        assert_eq!(b("level time=60 inc=1"), Duration::from_secs(3));
        assert_eq!(b("level move-time=-1"), cap);
    }

    #[test]
    fn a_search_is_set_up_in_three_steps_and_answers_a_legal_move() {
        let mut brain = HubBrain::new(2, 1);
        let cancel = AtomicBool::new(false);
        let hello = brain.handle("hub", &cancel);
        assert_eq!(hello.lines.last().map(String::as_str), Some("wait"));
        assert!(hello.lines[0].starts_with("id name="));
        assert!(brain
            .handle("set-param name=level value=3", &cancel)
            .lines
            .is_empty());
        assert_eq!(brain.level(), 3);
        assert!(
            brain.handle("set-param name=level value=9", &cancel).lines[0].starts_with("error")
        );
        assert_eq!(brain.handle("init", &cancel).lines, vec!["ready"]);
        assert!(brain.handle("go think", &cancel).lines[0].starts_with("error"));
        brain.handle(
            "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"",
            &cancel,
        );
        brain.handle("level move-time=0.05", &cancel);
        let answer = brain.handle("go think", &cancel).lines;
        let done = parse_line(answer.last().unwrap()).unwrap();
        assert_eq!(done.command, "done");
        let mut game = Game::new();
        for m in ["32-28", "19-23"] {
            let mv = parse_move(game.position(), m).unwrap();
            game.play(&mv).unwrap();
        }
        // 28x19 is forced.
        assert_eq!(done.get("move"), Some("28x19x23"));
        assert!(parse_move(game.position(), done.get("move").unwrap()).is_ok());
        assert!(answer[0].starts_with("info depth="));
        assert_eq!(brain.handle("ping", &cancel).lines, vec!["pong"]);
        assert!(brain.handle("quit", &cancel).quit);
        assert!(brain.handle("pos pos=W moves=\"\"", &cancel).lines[0].starts_with("error"));
    }
}
