//! The Piskvork protocol (Gomocup's brain protocol) as a pure state machine: [`Brain::handle`] takes one line
//! from the manager and returns the lines to answer; the `pbrain-gomoku` binary only moves lines between it and
//! stdin/stdout.
//!
//! Supported: `START n`, `RECTSTART w,h` (square boards only), `RESTART`, `BEGIN`, `TURN x,y`, `BOARD` …
//! `DONE` (fields 1 own, 2 opponent), `INFO key value` (`timeout_turn`, `timeout_match`, `time_left`,
//! `max_memory`, `rule` with 1 exact five and 4 renju; other keys are accepted and ignored), `TAKEBACK x,y`,
//! `ABOUT` and `END`. Coordinates are zero-based `x,y` and map straight onto the engine's points (the game is
//! symmetric, so which way rows count does not matter). Boards are 15x15 or 19x19, Renju 15x15 only.
//!
//! A malformed or impossible command gets `ERROR <reason>` and the brain stays up; a command it does not know
//! gets `UNKNOWN <command>`, as the protocol asks.
//!
//! The manager's side of the same protocol is here too, as small pure functions shared by everything that drives
//! a brain (the server's external engines, the `match` harness): [`rule_code`] for `INFO rule`,
//! [`board_command`] for a position, [`is_chatter`] and [`parse_move`] for reading the answer.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rules::{Action, Color, ForbiddenPolicy, Game, Point, RuleSet, Rules};

use crate::{Engine, Limits, TimeBudget};

/// What the brain answers to one line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Reply {
    /// Lines to write, in order.
    pub lines: Vec<String>,
    /// Whether the manager said `END`: the brain should exit.
    pub quit: bool,
}

impl Reply {
    fn line(s: impl Into<String>) -> Reply {
        Reply {
            lines: vec![s.into()],
            quit: false,
        }
    }

    fn none() -> Reply {
        Reply::default()
    }
}

/// What picks the brain's moves: our engine ([`Brain::new`]), or any other player that fits the protocol, such as
/// the load generator's greedy picker (`loadgen greedy-brain`), so that every brain shares one protocol reader.
pub trait Mover: Send {
    /// The move for the side to move in `game` (not over), within `time`; `Err` with a reason when there is none.
    /// It must be legal in `game`: the brain checks it and answers `ERROR` otherwise.
    fn choose(
        &mut self,
        game: &Game,
        time: &TimeBudget,
        cancel: &AtomicBool,
    ) -> Result<Point, String>;

    /// A new game starts (`START`, `RESTART`): forget what belonged to the last one.
    fn clear(&mut self) {}

    /// The `name` `ABOUT` reports.
    fn name(&self) -> &str;
}

/// Our engine as a [`Mover`].
struct EngineMover(Engine);

impl Mover for EngineMover {
    fn choose(
        &mut self,
        game: &Game,
        time: &TimeBudget,
        cancel: &AtomicBool,
    ) -> Result<Point, String> {
        let decision = self
            .0
            .think(game, time, cancel)
            .map_err(|e| e.to_string())?;
        match decision.action {
            Action::Place { point } => Ok(point),
            _ => game
                .legal_places()
                .first()
                .copied()
                .ok_or_else(|| "no legal move".to_string()),
        }
    }

    fn clear(&mut self) {
        self.0.clear();
    }

    fn name(&self) -> &str {
        "gomoku-engine"
    }
}

/// One brain: the game as the manager told it, what picks its moves and the time settings.
pub struct Brain {
    mover: Box<dyn Mover>,
    size: Option<u8>,
    rule: u32,
    game: Option<Game>,
    /// Stones read since `BOARD`: the point and whether it is the brain's own.
    board: Option<Vec<(Point, bool)>>,
    timeout_turn: Option<u64>,
    timeout_match: Option<u64>,
    time_left: Option<u64>,
    cancel: AtomicBool,
}

impl std::fmt::Debug for Brain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Brain")
            .field("size", &self.size)
            .field("rule", &self.rule)
            .finish_non_exhaustive()
    }
}

impl Brain {
    /// A brain playing at `level` (1–8), its choices fixed by `seed`.
    pub fn new(level: u8, seed: u64) -> Brain {
        Brain::with_mover(Box::new(EngineMover(Engine::new(
            Limits::level(level),
            seed,
        ))))
    }

    /// A brain whose moves `mover` picks.
    pub fn with_mover(mover: Box<dyn Mover>) -> Brain {
        Brain {
            mover,
            size: None,
            rule: 0,
            game: None,
            board: None,
            timeout_turn: None,
            timeout_match: None,
            time_left: None,
            cancel: AtomicBool::new(false),
        }
    }

    /// Answers one line from the manager.
    pub fn handle(&mut self, line: &str) -> Reply {
        let line = line.trim();
        if line.is_empty() {
            return Reply::none();
        }
        if self.board.is_some() {
            return self.board_line(line);
        }
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match command.to_ascii_uppercase().as_str() {
            "START" => match rest.parse::<u8>() {
                Ok(n) => self.start(n),
                Err(_) => Reply::line(format!("ERROR START needs a board size, got {rest:?}")),
            },
            "RECTSTART" => match parse_pair(rest) {
                Some((w, h)) if w == h => match u8::try_from(w) {
                    Ok(n) => self.start(n),
                    Err(_) => Reply::line(format!("ERROR a {w}x{h} board is not offered")),
                },
                Some(_) => Reply::line("ERROR only square boards are supported"),
                None => Reply::line(format!("ERROR RECTSTART needs width,height, got {rest:?}")),
            },
            "RESTART" => match self.size {
                Some(n) => self.start(n),
                None => Reply::line("ERROR RESTART before START"),
            },
            "BEGIN" => match &self.game {
                Some(g) if g.ply() == 0 => self.reply_move(),
                Some(_) => Reply::line("ERROR BEGIN on a board that is not empty"),
                None => Reply::line("ERROR BEGIN before START"),
            },
            "TURN" => self.turn(rest),
            "BOARD" => {
                if self.size.is_none() {
                    return Reply::line("ERROR BOARD before START");
                }
                self.board = Some(Vec::new());
                Reply::none()
            }
            "INFO" => self.info(rest),
            "TAKEBACK" => self.takeback(rest),
            "ABOUT" => Reply::line(format!(
                "name=\"{}\", version=\"{}\", author=\"board-game server\", country=\"\"",
                self.mover.name(),
                env!("CARGO_PKG_VERSION")
            )),
            "END" => Reply {
                lines: Vec::new(),
                quit: true,
            },
            _ => Reply::line(format!("UNKNOWN {command}")),
        }
    }

    fn rules_for(&self, size: u8) -> Result<Rules, String> {
        let set = if self.rule & 4 != 0 {
            rules::RuleSet::Renju
        } else if self.rule & 1 != 0 {
            rules::RuleSet::Standard
        } else {
            rules::RuleSet::Freestyle
        };
        Rules::new(size, set, ForbiddenPolicy::Reject, rules::Opening::None)
            .map_err(|e| e.to_string())
    }

    fn start(&mut self, n: u8) -> Reply {
        match self.rules_for(n) {
            Ok(rules) => {
                self.size = Some(n);
                self.game = Some(Game::new(rules));
                self.mover.clear();
                Reply::line("OK")
            }
            Err(e) => Reply::line(format!("ERROR {e}")),
        }
    }

    fn point(&self, text: &str) -> Result<Point, String> {
        let size = self.size.ok_or("no board yet: START first")?;
        let (x, y) = parse_pair(text).ok_or_else(|| format!("expected x,y, got {text:?}"))?;
        if x >= u32::from(size) || y >= u32::from(size) {
            return Err(format!("{x},{y} is off the {size}x{size} board"));
        }
        Point::new(x as u8, y as u8).ok_or_else(|| "off the board".to_string())
    }

    fn turn(&mut self, rest: &str) -> Reply {
        let p = match self.point(rest) {
            Ok(p) => p,
            Err(e) => return Reply::line(format!("ERROR {e}")),
        };
        let Some(game) = self.game.as_mut() else {
            return Reply::line("ERROR TURN before START");
        };
        if let Err(e) = game.apply(Action::place(p)) {
            return Reply::line(format!("ERROR {rest}: {e}"));
        }
        self.reply_move()
    }

    fn board_line(&mut self, line: &str) -> Reply {
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.board.take().unwrap_or_default();
            return self.set_board(&stones);
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match fields.as_slice() {
            [x, y, f] => self.point(&format!("{x},{y}")).and_then(|p| match *f {
                "1" => Ok((p, true)),
                "2" => Ok((p, false)),
                "3" => Err("continuous-game stones (field 3) are not supported".to_string()),
                _ => Err(format!("unknown field {f:?}")),
            }),
            _ => Err(format!("expected x,y,field or DONE, got {line:?}")),
        };
        match parsed {
            Ok(stone) => {
                if let Some(b) = self.board.as_mut() {
                    b.push(stone);
                }
                Reply::none()
            }
            Err(e) => Reply::line(format!("ERROR {e}")),
        }
    }

    /// The stones of `BOARD`, own and opponent's in the order given; the brain is to move, so it is black when
    /// both have as many stones.
    fn set_board(&mut self, stones: &[(Point, bool)]) -> Reply {
        let Some(size) = self.size else {
            return Reply::line("ERROR BOARD before START");
        };
        let own: Vec<Point> = stones.iter().filter(|s| s.1).map(|s| s.0).collect();
        let opp: Vec<Point> = stones.iter().filter(|s| !s.1).map(|s| s.0).collect();
        let (black, white) = if own.len() == opp.len() {
            (own, opp)
        } else if opp.len() == own.len() + 1 {
            (opp, own)
        } else {
            return Reply::line("ERROR the stone counts do not leave the brain to move");
        };
        let mut actions = Vec::new();
        for (k, &b) in black.iter().enumerate() {
            actions.push(Action::place(b));
            if let Some(&w) = white.get(k) {
                actions.push(Action::place(w));
            }
        }
        let rules = match self.rules_for(size) {
            Ok(r) => r,
            Err(e) => return Reply::line(format!("ERROR {e}")),
        };
        match Game::from_actions(rules, &actions) {
            Ok(game) if !game.status().is_over() => {
                self.game = Some(game);
                self.reply_move()
            }
            Ok(_) => Reply::line("ERROR the position is already decided"),
            Err(e) => Reply::line(format!("ERROR the board is not a legal game: {e}")),
        }
    }

    fn info(&mut self, rest: &str) -> Reply {
        let (key, value) = match rest.split_once(char::is_whitespace) {
            Some((k, v)) => (k.to_ascii_lowercase(), v.trim()),
            None => {
                return Reply::line(format!("ERROR INFO needs a key and a value, got {rest:?}"))
            }
        };
        let number = || {
            value
                .parse::<i64>()
                .map_err(|_| format!("ERROR INFO {key}: {value:?} is not a number"))
        };
        match key.as_str() {
            "timeout_turn" | "timeout_match" | "time_left" | "max_memory" | "rule" => {
                let n = match number() {
                    Ok(n) => n.max(0) as u64,
                    Err(e) => return Reply::line(e),
                };
                match key.as_str() {
                    "timeout_turn" => self.timeout_turn = Some(n),
                    "timeout_match" => self.timeout_match = Some(n),
                    "time_left" => self.time_left = Some(n),
                    "rule" => return self.set_rule(n as u32),
                    _ => {}
                }
                Reply::none()
            }
            _ => Reply::none(),
        }
    }

    fn set_rule(&mut self, rule: u32) -> Reply {
        let old = self.rule;
        self.rule = rule;
        let Some(size) = self.size else {
            return Reply::none();
        };
        let rules = match self.rules_for(size) {
            Ok(r) => r,
            Err(e) => {
                self.rule = old;
                return Reply::line(format!("ERROR {e}"));
            }
        };
        let actions = self
            .game
            .as_ref()
            .map(|g| g.actions().to_vec())
            .unwrap_or_default();
        match Game::from_actions(rules, &actions) {
            Ok(game) => {
                self.game = Some(game);
                Reply::none()
            }
            Err(e) => {
                self.rule = old;
                Reply::line(format!(
                    "ERROR the stones are not legal under rule {rule}: {e}"
                ))
            }
        }
    }

    fn takeback(&mut self, rest: &str) -> Reply {
        let p = match self.point(rest) {
            Ok(p) => p,
            Err(e) => return Reply::line(format!("ERROR {e}")),
        };
        let Some(game) = self.game.as_mut() else {
            return Reply::line("ERROR TAKEBACK before START");
        };
        if game.moves().last() != Some(&p) {
            return Reply::line(format!("ERROR {rest} is not the last stone"));
        }
        game.undo();
        Reply::line("OK")
    }

    fn time(&self) -> TimeBudget {
        let mut per_move: Option<u64> = self.timeout_turn.filter(|&t| t > 0);
        if self.timeout_match.is_some_and(|m| m > 0) {
            if let Some(left) = self.time_left {
                let share = left / 15;
                per_move = Some(per_move.map_or(share, |t| t.min(share)));
            }
        }
        match per_move {
            Some(ms) => TimeBudget::PerMove(Duration::from_millis(ms)),
            None => TimeBudget::Unlimited,
        }
    }

    fn reply_move(&mut self) -> Reply {
        let time = self.time();
        let Some(game) = self.game.as_mut() else {
            return Reply::line("ERROR no game");
        };
        let point = match self.mover.choose(game, &time, &self.cancel) {
            Ok(p) => p,
            Err(e) => return Reply::line(format!("ERROR {e}")),
        };
        if let Err(e) = game.apply(Action::place(point)) {
            return Reply::line(format!("ERROR the move {point:?} is not legal: {e}"));
        }
        Reply::line(format!("{},{}", point.x(), point.y()))
    }
}

/// Serves `brain` over a manager's lines: reads `input` line by line, writes each answer to `output` and flushes
/// after every command (a manager waits for the answer), until `END` or the end of `input`. The binaries
/// (`pbrain-gomoku`, `loadgen greedy-brain`) pass stdin and stdout.
pub fn serve(
    brain: &mut Brain,
    input: impl std::io::BufRead,
    mut output: impl std::io::Write,
) -> std::io::Result<()> {
    for line in input.lines() {
        let reply = brain.handle(&line?);
        for l in &reply.lines {
            writeln!(output, "{l}")?;
        }
        output.flush()?;
        if reply.quit {
            break;
        }
    }
    Ok(())
}

/// Gomocup's `INFO rule` value for a rule set: 0 five or more (freestyle), 1 exactly five (standard), 4 renju.
pub fn rule_code(rule_set: RuleSet) -> u32 {
    match rule_set {
        RuleSet::Freestyle => 0,
        RuleSet::Standard => 1,
        RuleSet::Renju => 4,
    }
}

/// The `BOARD` command that asks the brain holding `own` for its move in `game`: `BOARD`, one `x,y,field` line per
/// stone in the order played (field 1 the brain's own stone, 2 the opponent's), then `DONE`. The lines are joined
/// by `\n`, with no newline after `DONE`.
///
/// Stones alternate black, white from the first ([`Game::moves`]), so this fits games without an opening rule,
/// which are the only ones the protocol can describe.
pub fn board_command(game: &Game, own: Color) -> String {
    let mut out = String::from("BOARD\n");
    for (i, p) in game.moves().iter().enumerate() {
        let colour = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let field = if colour == own { 1 } else { 2 };
        out.push_str(&format!("{},{},{field}\n", p.x(), p.y()));
    }
    out.push_str("DONE");
    out
}

/// Whether a line from a brain is one the manager reads past while waiting for an answer: an empty line, or one
/// starting with `MESSAGE` or `DEBUG` (free text for the log, as the protocol says). `ERROR` and `UNKNOWN` are
/// not chatter: where a move was asked for they are a wrong answer.
pub fn is_chatter(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word.is_empty() || word.eq_ignore_ascii_case("MESSAGE") || word.eq_ignore_ascii_case("DEBUG")
}

/// A brain's move, `x,y` in zero-based coordinates (spaces around either number allowed), as a point; `None` for
/// anything else. Whether the point lies on the game's board and may be played there is for the rules to say.
pub fn parse_move(line: &str) -> Option<Point> {
    let (x, y) = line.trim().split_once(',')?;
    Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?)
}

fn parse_pair(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rules: Rules, moves: &[&str]) -> Game {
        let actions: Vec<Action> = moves
            .iter()
            .map(|m| Action::place(m.parse().unwrap()))
            .collect();
        Game::from_actions(rules, &actions).unwrap()
    }

    #[test]
    fn the_rule_codes_are_gomocups() {
        assert_eq!(rule_code(RuleSet::Freestyle), 0);
        assert_eq!(rule_code(RuleSet::Standard), 1);
        assert_eq!(rule_code(RuleSet::Renju), 4);
    }

    #[test]
    fn a_board_command_lists_the_stones_in_order_as_own_and_opponents() {
        let g = game(Rules::standard(), &["h8", "h9", "j10"]);
        assert_eq!(
            board_command(&g, Color::White),
            "BOARD\n7,7,2\n7,8,1\n9,9,2\nDONE"
        );
        assert_eq!(
            board_command(&g, Color::Black),
            "BOARD\n7,7,1\n7,8,2\n9,9,1\nDONE"
        );
        assert_eq!(
            board_command(&Game::new(Rules::standard()), Color::Black),
            "BOARD\nDONE"
        );
    }

    #[test]
    fn our_own_brain_reads_a_board_command_as_the_position_and_answers_a_legal_move() {
        let g = game(
            Rules::renju(ForbiddenPolicy::Reject),
            &["h8", "h9", "j10", "g7"],
        );
        let mut brain = Brain::new(1, 3);
        assert_eq!(brain.handle("INFO rule 4").lines, Vec::<String>::new());
        assert_eq!(brain.handle("START 15").lines, vec!["OK".to_string()]);
        let mut last = Reply::default();
        for line in board_command(&g, Color::Black).lines() {
            last = brain.handle(line);
        }
        let [answer] = last.lines.as_slice() else {
            panic!("one answer: {last:?}")
        };
        let point = parse_move(answer).expect("a move");
        assert!(g.check(Action::place(point)).is_ok(), "{answer}");
    }

    #[test]
    fn chatter_is_empty_message_or_debug_lines_only() {
        for line in [
            "",
            "   ",
            "MESSAGE thinking",
            "message hi",
            "DEBUG depth 3",
            "DEBUG",
        ] {
            assert!(is_chatter(line), "{line:?}");
        }
        for line in [
            "7,7",
            "ERROR no",
            "UNKNOWN BOARD",
            "OK",
            "MESSAGES",
            "hello",
        ] {
            assert!(!is_chatter(line), "{line:?}");
        }
    }

    #[test]
    fn a_move_is_two_numbers_separated_by_a_comma() {
        assert_eq!(parse_move("7,7"), Point::new(7, 7));
        assert_eq!(parse_move(" 3 , 4 \r"), Point::new(3, 4));
        assert_eq!(parse_move("0,18"), Point::new(0, 18));
        for bad in [
            "7", "a,b", "7,7,1", "-1,3", "19,0", "300,2", "", ",", "7;7", "hello",
        ] {
            assert_eq!(parse_move(bad), None, "{bad:?}");
        }
    }
}
