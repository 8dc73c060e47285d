//! The Piskvork protocol (Gomocup's brain protocol) as a state machine: [`Brain::handle`] takes one line from
//! the manager and returns the lines to answer. [`serve_threaded`] is how `pbrain-gomoku` runs it: a thread of
//! its own reads the manager's lines while the brain thinks, so that `END`, `STOP` and `INFO` act at once.
//!
//! Supported (`docs/engine.md`, "The Gomocup brain", says the same for managers):
//! - `START n` (15, 19 or 20; Renju 15 only), `RECTSTART w,h` (square boards only), `RESTART`, `BEGIN`, `TURN x,y`,
//!   `BOARD` … `DONE` (fields 1 own, 2 opponent's), `TAKEBACK x,y`, `ABOUT`, `END`.
//! - `INFO timeout_turn` (0: answer at once), `timeout_match`, `time_left` (2147483647: unlimited; negative:
//!   none left), `max_memory` (0: no limit; the tables shrink to fit and a `MESSAGE` says so; below
//!   [`crate::Engine::MIN_MEMORY`] `ERROR`), `rule` (bits 1 exact five and 4 renju; 2 continuous game and 8
//!   caro are refused with `ERROR`, and so is any other bit), and `game_type`, `evaluate`, `folder`, which are
//!   read and ignored.
//! - `SWAP2BOARD` … `DONE` with 0, 3 or 5 stones (Gomocup's Swap2 extension): three stones `x,y x,y x,y`; then
//!   `SWAP`, one stone `x,y` or two `x,y x,y`; then `SWAP` or one stone.
//! - `STOP` and `YXSTOP` (Yixin-board's): the search in progress ends and answers its best move so far.
//!
//! Time: a move aims to be written by 70% of the turn's limit and is cut off by the smaller of 80% and the limit
//! less [`MARGIN`] ([`Clock::plan`]); the first stone on an empty board and the answer to a lone first stone
//! are book moves and take no time.
//!
//! Coordinates are zero-based `x,y` and map straight onto the engine's points (the game is symmetric, so which
//! way rows count does not matter). A malformed, impossible or refused command gets `ERROR <reason>` and the
//! brain stays up; a command it does not know gets `UNKNOWN <command>`, as the protocol asks.
//!
//! The manager's side of the same protocol is here too, as small pure functions shared by everything that drives
//! a brain (the server's external engines, the `match` harness): [`rule_code`] for `INFO rule`,
//! [`board_command`] for a position, [`is_chatter`] and [`parse_move`] for reading the answer.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rules::{Action, Color, ForbiddenPolicy, Game, Point, RuleSet, Rules};

use crate::{Engine, Limits, Swap2Answer, TimeBudget};

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
    /// It must be legal in `game`: the brain checks it and answers `ERROR` otherwise. `cancel` is set when the
    /// answer is wanted now (`STOP`, a time limit, `END`): return the best move found so far.
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

    /// `INFO max_memory`: fit within `bytes` in all (`None`: no limit). `Ok(Some(note))` when that took
    /// smaller tables than usual (the brain writes the note as a `MESSAGE`), `Err(reason)` when it cannot be
    /// done (the brain answers `ERROR` and the earlier limit stays). A mover that holds no tables accepts any.
    fn limit_memory(&mut self, _bytes: Option<u64>) -> Result<Option<String>, String> {
        Ok(None)
    }

    /// The Swap2 answer for `game` (0, 3 or 5 stones alternating from black), as for
    /// [`Engine::swap2`]. A mover that does not play Swap2 refuses it.
    fn swap2(
        &mut self,
        _game: &Game,
        _time: &TimeBudget,
        _cancel: &AtomicBool,
    ) -> Result<Swap2Answer, String> {
        Err("this brain does not play Swap2".to_string())
    }
}

/// Our engine as a [`Mover`].
struct EngineMover {
    engine: Engine,
    /// The level's own table sizes, to tell a limit that shrank them.
    full: crate::Memory,
}

impl Mover for EngineMover {
    fn choose(
        &mut self,
        game: &Game,
        time: &TimeBudget,
        cancel: &AtomicBool,
    ) -> Result<Point, String> {
        let decision = self
            .engine
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
        self.engine.clear();
    }

    fn name(&self) -> &str {
        "gomoku-engine"
    }

    fn limit_memory(&mut self, bytes: Option<u64>) -> Result<Option<String>, String> {
        let limit = bytes.unwrap_or(0);
        let m = self.engine.limit_memory(bytes).map_err(|least| {
            format!(
                "max_memory {limit} bytes is below the {least} bytes ({:.1} MiB) this brain needs",
                least as f64 / MIB
            )
        })?;
        if m.table_entries < self.full.table_entries || m.threat_entries < self.full.threat_entries
        {
            Ok(Some(format!(
                "max_memory {limit} bytes: transposition table cut to {} entries ({:.1} MiB) and threat \
                 table to {} entries; estimated peak {:.1} MiB",
                m.table_entries,
                (m.table_entries as u64 * crate::search::Table::ENTRY_BYTES) as f64 / MIB,
                m.threat_entries,
                m.bytes as f64 / MIB
            )))
        } else {
            Ok(None)
        }
    }

    fn swap2(
        &mut self,
        game: &Game,
        time: &TimeBudget,
        cancel: &AtomicBool,
    ) -> Result<Swap2Answer, String> {
        self.engine
            .swap2(game, time, cancel)
            .map_err(|e| e.to_string())
    }
}

const MIB: f64 = (1u64 << 20) as f64;

/// Kept back from every turn's limit, whatever its length, for a loaded machine: the search's last poll of the
/// clock, the answer's way through the pipe and the manager's own reading of its clock.
pub const MARGIN: Duration = Duration::from_millis(150);

/// `time_left` is divided by this many moves still to come: a move never plans on more than its share of what
/// is left of the match.
pub const MOVES_AHEAD: u64 = 15;

/// The `time_left` a manager sends when the match has no time limit.
pub const UNLIMITED_LEFT: i64 = 2_147_483_647;

/// Limits shorter than this are answered as `timeout_turn 0`: at once.
const AT_ONCE_BELOW: Duration = Duration::from_millis(10);

/// The time settings `INFO` gave, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `timeout_turn`: the limit for one move; 0 asks for a move at once.
    pub timeout_turn: Option<u64>,
    /// `timeout_match`: the limit for the whole match; 0 is none.
    pub timeout_match: Option<u64>,
    /// `time_left`: what is left of the match's time (negative when it ran out).
    pub time_left: Option<i64>,
}

/// How long one answer may take, from [`Clock::plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// What the engine is told it has (`None`: only its level's own cap). `Some(0)` asks for a move at once.
    pub aim: Option<Duration>,
    /// When the brain stops the search whatever it is doing (`None`: the engine's own deadline only).
    pub hard: Option<Duration>,
}

impl Plan {
    /// The engine's view of the plan.
    pub fn budget(&self) -> TimeBudget {
        match self.aim {
            Some(t) => TimeBudget::PerMove(t),
            None => TimeBudget::Unlimited,
        }
    }
}

impl Clock {
    /// The time the current move may take at most, by the protocol: `timeout_turn`, and a share of
    /// `time_left` ([`MOVES_AHEAD`]) unless the match is untimed. `None` when neither limits it.
    pub fn limit(&self) -> Option<Duration> {
        let mut limit = match self.timeout_turn {
            Some(0) => return Some(Duration::ZERO),
            Some(t) => Some(t),
            None => None,
        };
        if let Some(left) = self.time_left.filter(|&l| l < UNLIMITED_LEFT) {
            if self.timeout_match != Some(0) {
                let share = left.max(0) as u64 / MOVES_AHEAD;
                limit = Some(limit.map_or(share, |t| t.min(share)));
            }
        }
        limit.map(Duration::from_millis)
    }

    /// The plan for one answer: aim at 70% of the limit, stop hard at the smaller of 80% and the limit less
    /// [`MARGIN`]; a limit that leaves less than 10 ms (and `timeout_turn 0`) means an answer at once.
    pub fn plan(&self) -> Plan {
        let Some(limit) = self.limit() else {
            return Plan {
                aim: None,
                hard: None,
            };
        };
        let hard = (limit * 4 / 5).min(limit.saturating_sub(MARGIN));
        if hard < AT_ONCE_BELOW {
            return Plan {
                aim: Some(Duration::ZERO),
                hard: None,
            };
        }
        Plan {
            aim: Some((limit * 7 / 10).min(hard)),
            hard: Some(hard),
        }
    }

    /// Sets one of the time keys (`timeout_turn`, `timeout_match`, `time_left`) from its text. `Ok(false)` when
    /// `key` is not one of them.
    fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let n = || {
            value
                .parse::<i64>()
                .map_err(|_| format!("INFO {key}: {value:?} is not a number"))
        };
        let non_negative =
            |n: i64| u64::try_from(n).map_err(|_| format!("INFO {key}: {n} is negative"));
        match key {
            "timeout_turn" => self.timeout_turn = Some(non_negative(n()?)?),
            "timeout_match" => self.timeout_match = Some(non_negative(n()?)?),
            "time_left" => self.time_left = Some(n()?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// What the reading thread, the thinking thread and the watchdog share.
#[derive(Default)]
struct Control {
    /// Set to end the search in progress.
    cancel: AtomicBool,
    state: Mutex<Shared>,
    /// Wakes the watchdog when a search starts or its deadline moves.
    wake: Condvar,
    /// The output under [`serve_threaded`]; its lock is also the gate that keeps any line from going out after
    /// `END`.
    out: Mutex<Option<Box<dyn Write + Send>>>,
}

#[derive(Default)]
struct Shared {
    clock: Clock,
    /// The number of the line being handled (counted from 1 by [`serve_threaded`]; 0 otherwise).
    line: u64,
    /// The search in progress.
    search: Option<Running>,
    /// The number of the last `STOP` line: searches for earlier lines end at once.
    stop: u64,
    /// `END` (or the end of input) came: nothing more is written.
    quit: bool,
}

#[derive(Clone, Copy)]
struct Running {
    /// The number of the line it answers.
    line: u64,
    started: Instant,
    /// When the watchdog stops it.
    deadline: Option<Instant>,
}

impl Control {
    fn state(&self) -> MutexGuard<'_, Shared> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn out(&self) -> MutexGuard<'_, Option<Box<dyn Write + Send>>> {
        self.out.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A search for the current line starts: its plan, the watchdog's deadline, and the cancel flag as `STOP`
    /// and `END` left it.
    fn begin(&self) -> Plan {
        let mut s = self.state();
        let plan = s.clock.plan();
        let now = Instant::now();
        s.search = Some(Running {
            line: s.line,
            started: now,
            deadline: plan.hard.map(|h| now + h),
        });
        let stopped = s.quit || s.stop > s.line;
        self.cancel.store(stopped, Ordering::SeqCst);
        self.wake.notify_all();
        plan
    }

    fn end_search(&self) {
        self.state().search = None;
        self.wake.notify_all();
    }

    /// An `INFO` time key: applied to the clock, and to the search in progress, whose deadline can only come
    /// closer (a shorter limit ends it sooner; a longer one does not extend what the engine was told).
    fn set_clock(&self, key: &str, value: &str) -> Result<bool, String> {
        let mut s = self.state();
        if !s.clock.set(key, value)? {
            return Ok(false);
        }
        let plan = s.clock.plan();
        if let Some(run) = s.search.as_mut() {
            let new = match (plan.aim, plan.hard) {
                (Some(a), None) if a.is_zero() => Some(run.started),
                (_, Some(h)) => Some(run.started + h),
                _ => None,
            };
            if let Some(new) = new {
                if run.deadline.is_none_or(|d| new < d) {
                    run.deadline = Some(new);
                    self.wake.notify_all();
                }
            }
        }
        Ok(true)
    }

    /// `STOP` on line `n`: the search for an earlier line ends now and answers.
    fn stop(&self, n: u64) {
        let mut s = self.state();
        s.stop = s.stop.max(n);
        if s.search.is_some_and(|r| r.line < n) {
            self.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// `END` or the end of input: stop the search, write nothing more, let everything return.
    fn quit(&self) {
        let _gate = self.out();
        let mut s = self.state();
        s.quit = true;
        self.cancel.store(true, Ordering::SeqCst);
        self.wake.notify_all();
    }

    fn quitting(&self) -> bool {
        self.state().quit
    }

    /// Writes `lines` and flushes, unless `END` came first; nothing happens outside [`serve_threaded`].
    fn write(&self, lines: &[String]) -> std::io::Result<()> {
        let mut out = self.out();
        let Some(w) = out.as_mut() else {
            return Ok(());
        };
        if self.state().quit || lines.is_empty() {
            return Ok(());
        }
        for l in lines {
            writeln!(w, "{l}")?;
        }
        w.flush()
    }

    /// Ends searches whose deadline has come, until `END`.
    fn watch(&self) {
        let mut s = self.state();
        loop {
            if s.quit {
                return;
            }
            let deadline = s.search.and_then(|r| r.deadline);
            s = match deadline {
                None => self.wake.wait(s).unwrap_or_else(|e| e.into_inner()),
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        self.cancel.store(true, Ordering::SeqCst);
                        if let Some(r) = s.search.as_mut() {
                            r.deadline = None;
                        }
                        s
                    } else {
                        self.wake
                            .wait_timeout(s, d - now)
                            .unwrap_or_else(|e| e.into_inner())
                            .0
                    }
                }
            };
        }
    }
}

/// Stones being listed after `BOARD` or `SWAP2BOARD`, until `DONE`.
enum Listing {
    /// `BOARD`: each stone and whether it is the brain's own.
    Board(Vec<(Point, bool)>),
    /// `SWAP2BOARD`: stones in the order played, black first.
    Swap2(Vec<Point>),
}

/// One brain: the game as the manager told it, what picks its moves and the time settings.
pub struct Brain {
    mover: Box<dyn Mover>,
    size: Option<u8>,
    rule: u32,
    game: Option<Game>,
    listing: Option<Listing>,
    control: Arc<Control>,
    debug: bool,
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
        let engine = Engine::new(Limits::level(level), seed);
        let full = engine.memory();
        Brain::with_mover(Box::new(EngineMover { engine, full }))
    }

    /// A brain whose moves `mover` picks.
    pub fn with_mover(mover: Box<dyn Mover>) -> Brain {
        Brain {
            mover,
            size: None,
            rule: 0,
            game: None,
            listing: None,
            control: Arc::default(),
            debug: false,
        }
    }

    /// With `debug`, the brain writes a `DEBUG` line as each search starts (its time plan), under
    /// [`serve_threaded`]: a manager, or a test, can tell that it is thinking.
    pub fn set_debug(&mut self, debug: bool) {
        self.debug = debug;
    }

    /// The time settings `INFO` gave so far.
    pub fn clock(&self) -> Clock {
        self.control.state().clock
    }

    /// Answers one line from the manager.
    pub fn handle(&mut self, line: &str) -> Reply {
        let line = line.trim();
        if line.is_empty() {
            return Reply::none();
        }
        if self.listing.is_some() {
            return self.listing_line(line);
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
            "BOARD" | "SWAP2BOARD" => {
                if self.size.is_none() {
                    return Reply::line(format!("ERROR {command} before START"));
                }
                self.listing = Some(if command.eq_ignore_ascii_case("BOARD") {
                    Listing::Board(Vec::new())
                } else {
                    Listing::Swap2(Vec::new())
                });
                Reply::none()
            }
            "INFO" => self.info(rest),
            "TAKEBACK" => self.takeback(rest),
            "ABOUT" => Reply::line(format!(
                "name=\"{}\", version=\"{}\", author=\"board-game server\", country=\"\"",
                self.mover.name(),
                env!("CARGO_PKG_VERSION")
            )),
            // Outside a search there is nothing to stop; under `serve_threaded` the reading thread stops one.
            "STOP" | "YXSTOP" => Reply::none(),
            "END" => Reply {
                lines: Vec::new(),
                quit: true,
            },
            _ => Reply::line(format!("UNKNOWN {command}")),
        }
    }

    fn rules_for(&self, size: u8) -> Result<Rules, String> {
        let set = rule_set(self.rule)?;
        Rules::new(size, set, ForbiddenPolicy::Reject, rules::Opening::None)
            .map_err(|e| e.to_string())
    }

    fn start(&mut self, n: u8) -> Reply {
        match self.rules_for(n) {
            Ok(rules) => {
                self.size = Some(n);
                self.game = Some(Game::new(rules));
                self.listing = None;
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

    fn listing_line(&mut self, line: &str) -> Reply {
        if line.eq_ignore_ascii_case("DONE") {
            return match self.listing.take() {
                Some(Listing::Board(stones)) => self.set_board(&stones),
                Some(Listing::Swap2(stones)) => self.swap2(&stones),
                None => Reply::none(),
            };
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let swap2 = matches!(self.listing, Some(Listing::Swap2(_)));
        let parsed = match (swap2, fields.as_slice()) {
            (false, [x, y, f]) => self.point(&format!("{x},{y}")).and_then(|p| match *f {
                "1" => Ok((p, true)),
                "2" => Ok((p, false)),
                "3" => Err(
                    "field 3 (a continuous game's stone) is not supported: neither is rule 2"
                        .to_string(),
                ),
                _ => Err(format!("unknown field {f:?}")),
            }),
            (true, [x, y]) => self.point(&format!("{x},{y}")).map(|p| (p, false)),
            (false, _) => Err(format!("expected x,y,field or DONE, got {line:?}")),
            (true, _) => Err(format!("expected x,y or DONE, got {line:?}")),
        };
        match (parsed, self.listing.as_mut()) {
            (Ok(stone), Some(Listing::Board(b))) => b.push(stone),
            (Ok((p, _)), Some(Listing::Swap2(s))) => s.push(p),
            (Err(e), _) => return Reply::line(format!("ERROR {e}")),
            (Ok(_), None) => {}
        }
        Reply::none()
    }

    /// The stones of `BOARD`, own and opponent's in the order given; the brain is to move, so it is black when
    /// both have as many stones.
    fn set_board(&mut self, stones: &[(Point, bool)]) -> Reply {
        let own: Vec<Point> = stones.iter().filter(|s| s.1).map(|s| s.0).collect();
        let opp: Vec<Point> = stones.iter().filter(|s| !s.1).map(|s| s.0).collect();
        let (black, white) = if own.len() == opp.len() {
            (own, opp)
        } else if opp.len() == own.len() + 1 {
            (opp, own)
        } else {
            return Reply::line("ERROR the stone counts do not leave the brain to move");
        };
        let mut order = Vec::new();
        for (k, &b) in black.iter().enumerate() {
            order.push(b);
            if let Some(&w) = white.get(k) {
                order.push(w);
            }
        }
        match self.game_of(&order) {
            Ok(game) if !game.status().is_over() => {
                self.game = Some(game);
                self.reply_move()
            }
            Ok(_) => Reply::line("ERROR the position is already decided"),
            Err(e) => Reply::line(format!("ERROR {e}")),
        }
    }

    /// A game of `stones` placed alternately from black, under the current rules.
    fn game_of(&self, stones: &[Point]) -> Result<Game, String> {
        let size = self.size.ok_or("no board yet: START first")?;
        let rules = self.rules_for(size)?;
        let actions: Vec<Action> = stones.iter().map(|&p| Action::place(p)).collect();
        Game::from_actions(rules, &actions)
            .map_err(|e| format!("the stones are not a legal game: {e}"))
    }

    /// `SWAP2BOARD` … `DONE`: the Swap2 answer for the stage the number of stones gives. The brain's game then
    /// holds the stones and whatever it placed, so that `TURN` goes on from there.
    fn swap2(&mut self, stones: &[Point]) -> Reply {
        if ![0, 3, 5].contains(&stones.len()) {
            return Reply::line(format!(
                "ERROR SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                stones.len()
            ));
        }
        let mut game = match self.game_of(stones) {
            Ok(g) if !g.status().is_over() => g,
            Ok(_) => return Reply::line("ERROR the position is already decided"),
            Err(e) => return Reply::line(format!("ERROR {e}")),
        };
        let answer = self.think(|mover, time, cancel| mover.swap2(&game, time, cancel));
        let answer = match answer {
            Ok(a) => a,
            Err(e) => return Reply::line(format!("ERROR {e}")),
        };
        let placed: Vec<Point> = match answer {
            Swap2Answer::Three(p) => p.to_vec(),
            Swap2Answer::Swap => Vec::new(),
            Swap2Answer::Play(p) => vec![p],
            Swap2Answer::PlaceTwo(p) => p.to_vec(),
        };
        for &p in &placed {
            if let Err(e) = game.apply(Action::place(p)) {
                return Reply::line(format!("ERROR the stone {p:?} is not legal: {e}"));
            }
        }
        self.game = Some(game);
        if placed.is_empty() {
            Reply::line("SWAP")
        } else {
            let text: Vec<String> = placed
                .iter()
                .map(|p| format!("{},{}", p.x(), p.y()))
                .collect();
            Reply::line(text.join(" "))
        }
    }

    fn info(&mut self, rest: &str) -> Reply {
        let (key, value) = match rest.split_once(char::is_whitespace) {
            Some((k, v)) => (k.to_ascii_lowercase(), v.trim()),
            None => {
                return Reply::line(format!("ERROR INFO needs a key and a value, got {rest:?}"))
            }
        };
        match self.control.set_clock(&key, value) {
            Ok(true) => return Reply::none(),
            Ok(false) => {}
            Err(e) => return Reply::line(format!("ERROR {e}")),
        }
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("ERROR INFO {key}: {value:?} is not a non-negative number"))
        };
        match key.as_str() {
            "max_memory" => match number() {
                Ok(bytes) => match self.mover.limit_memory((bytes > 0).then_some(bytes)) {
                    Ok(None) => Reply::none(),
                    Ok(Some(note)) => Reply::line(format!("MESSAGE {note}")),
                    Err(e) => Reply::line(format!("ERROR {e}")),
                },
                Err(e) => Reply::line(e),
            },
            "rule" => match number() {
                Ok(rule) => match u32::try_from(rule) {
                    Ok(r) => self.set_rule(r),
                    Err(_) => Reply::line(format!("ERROR INFO rule {rule} is not a rule")),
                },
                Err(e) => Reply::line(e),
            },
            // Read and ignored: who the opponent is, the mouse cursor, a folder for files.
            _ => Reply::none(),
        }
    }

    fn set_rule(&mut self, rule: u32) -> Reply {
        if let Err(e) = rule_set(rule) {
            return Reply::line(format!("ERROR {e}"));
        }
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

    /// Runs one search of the mover under the current time plan, with the cancel flag that `STOP`, `END`, a
    /// shortened `INFO` and the watchdog set.
    fn think<T>(
        &mut self,
        search: impl FnOnce(&mut dyn Mover, &TimeBudget, &AtomicBool) -> T,
    ) -> T {
        let plan = self.control.begin();
        if self.debug {
            let ms =
                |d: Option<Duration>| d.map_or("none".to_string(), |d| d.as_millis().to_string());
            let note = format!(
                "DEBUG thinking: aim {} ms, hard stop {} ms",
                ms(plan.aim),
                ms(plan.hard)
            );
            // A failed write shows up on the answer's own write.
            let _ = self.control.write(&[note]);
        }
        let result = search(self.mover.as_mut(), &plan.budget(), &self.control.cancel);
        self.control.end_search();
        result
    }

    fn reply_move(&mut self) -> Reply {
        let Some(game) = self.game.as_ref() else {
            return Reply::line("ERROR no game");
        };
        let point = match book(game) {
            Some(p) => p,
            None => {
                let game = game.clone();
                match self.think(|mover, time, cancel| mover.choose(&game, time, cancel)) {
                    Ok(p) => p,
                    Err(e) => return Reply::line(format!("ERROR {e}")),
                }
            }
        };
        let Some(game) = self.game.as_mut() else {
            return Reply::line("ERROR no game");
        };
        if let Err(e) = game.apply(Action::place(point)) {
            return Reply::line(format!("ERROR the move {point:?} is not legal: {e}"));
        }
        Reply::line(format!("{},{}", point.x(), point.y()))
    }
}

/// The rule set of an `INFO rule` value: bit 1 exactly five, bit 4 renju (exact five for black by its own
/// rules). Continuous games (bit 2), caro (bit 8) and bits the protocol does not define are refused.
pub fn rule_set(rule: u32) -> Result<RuleSet, String> {
    if rule & 2 != 0 {
        return Err(format!(
            "rule {rule}: continuous games (2) are not supported"
        ));
    }
    if rule & 8 != 0 {
        return Err(format!("rule {rule}: caro (8) is not supported"));
    }
    if rule & !0b1111 != 0 {
        return Err(format!("rule {rule}: unknown rule bits"));
    }
    Ok(if rule & 4 != 0 {
        RuleSet::Renju
    } else if rule & 1 != 0 {
        RuleSet::Standard
    } else {
        RuleSet::Freestyle
    })
}

/// A move that needs no thought: the centre on an empty board, and against a lone first stone the diagonal
/// neighbour on its side of the centre.
fn book(game: &Game) -> Option<Point> {
    let centre = Point::centre(game.rules().size());
    let p = match game.moves() {
        [] => centre,
        [first] => {
            let step = |from: u8, to: u8| if to < from { from - 1 } else { from + 1 };
            Point::new(step(first.x(), centre.x()), step(first.y(), centre.y()))?
        }
        _ => return None,
    };
    game.check(Action::place(p)).is_ok().then_some(p)
}

/// Serves `brain` over a manager's lines one at a time: reads a line from `input`, answers it on `output` and
/// flushes (a manager waits for the answer), until `END` or the end of `input`. Fit for brains that answer at
/// once (`loadgen greedy-brain`); a brain that thinks wants [`serve_threaded`], which reads while it thinks.
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

/// Serves `brain` over a manager's lines as `pbrain-gomoku` does: a thread of its own reads `input`, so that
/// while the brain thinks
/// - `END` (or the end of input) stops the search at once and nothing more is written: this returns as soon as
///   the search has noticed (a few milliseconds), and the process can exit;
/// - `INFO timeout_turn`, `timeout_match` and `time_left` apply at once, a shorter limit ending the search
///   sooner;
/// - `STOP` and `YXSTOP` end the search, which answers its best move so far;
///
/// and every other line waits its turn, in order. A watchdog thread ends each search at its hard deadline
/// ([`Clock::plan`]) whatever the engine is doing. The reading and watchdog threads are left to end with the
/// process.
pub fn serve_threaded(
    brain: &mut Brain,
    input: impl std::io::BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> std::io::Result<()> {
    *brain.control.out() = Some(Box::new(output));
    let (tx, rx) = mpsc::channel::<(u64, String)>();
    let reader = Arc::clone(&brain.control);
    std::thread::spawn(move || {
        for (k, line) in input.lines().enumerate() {
            let Ok(line) = line else { break };
            let n = k as u64 + 1;
            if !intercept(&reader, n, &line) && tx.send((n, line)).is_err() {
                return;
            }
            if reader.quitting() {
                return;
            }
        }
        reader.quit();
    });
    let watchdog = Arc::clone(&brain.control);
    std::thread::spawn(move || watchdog.watch());
    let result = loop {
        let Ok((n, line)) = rx.recv() else {
            break Ok(());
        };
        if brain.control.quitting() {
            break Ok(());
        }
        brain.control.state().line = n;
        let reply = brain.handle(&line);
        if let Err(e) = brain.control.write(&reply.lines) {
            break Err(e);
        }
        if reply.quit || brain.control.quitting() {
            break Ok(());
        }
    };
    brain.control.quit();
    result
}

/// What the reading thread does with line `n` itself; true when the line needs nothing more.
fn intercept(control: &Control, n: u64, line: &str) -> bool {
    let line = line.trim();
    let (command, rest) = match line.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (line, ""),
    };
    match command.to_ascii_uppercase().as_str() {
        "END" => {
            control.quit();
            true
        }
        "STOP" | "YXSTOP" => {
            control.stop(n);
            true
        }
        // A well-formed time key is applied here and now; anything else about INFO waits its turn (a malformed
        // value gets its ERROR in order).
        "INFO" => match rest.split_once(char::is_whitespace) {
            Some((key, value)) => {
                matches!(
                    control.set_clock(&key.to_ascii_lowercase(), value.trim()),
                    Ok(true)
                )
            }
            None => false,
        },
        _ => false,
    }
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

    fn clock(turn: Option<u64>, matched: Option<u64>, left: Option<i64>) -> Clock {
        Clock {
            timeout_turn: turn,
            timeout_match: matched,
            time_left: left,
        }
    }

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn a_turn_aims_at_seventy_percent_and_stops_at_eighty_or_the_margin() {
        let p = clock(Some(1_000), None, None).plan();
        assert_eq!((p.aim, p.hard), (Some(MS(700)), Some(MS(800))));
        // Short turns: the fixed margin binds before the 80%.
        let p = clock(Some(500), None, None).plan();
        assert_eq!((p.aim, p.hard), (Some(MS(350)), Some(MS(350))));
        let p = clock(Some(200), None, None).plan();
        assert_eq!((p.aim, p.hard), (Some(MS(50)), Some(MS(50))));
        assert_eq!(
            clock(None, None, None).plan().budget(),
            TimeBudget::Unlimited
        );
    }

    #[test]
    fn timeout_turn_zero_and_turns_too_short_to_think_are_answered_at_once() {
        for c in [
            clock(Some(0), None, None),
            clock(Some(0), Some(0), Some(UNLIMITED_LEFT)),
            clock(Some(150), None, None),
            clock(Some(30_000), Some(180_000), Some(-20)),
        ] {
            let p = c.plan();
            assert_eq!((p.aim, p.hard), (Some(Duration::ZERO), None), "{c:?}");
        }
    }

    #[test]
    fn time_left_limits_the_move_to_its_share_unless_the_match_is_untimed() {
        // A fifteenth of 15 s is one second.
        let p = clock(Some(30_000), Some(180_000), Some(15_000)).plan();
        assert_eq!(p.hard, Some(MS(800)));
        // The protocol's "unlimited", and an untimed match, leave the turn's own limit.
        let p = clock(Some(1_000), None, Some(UNLIMITED_LEFT)).plan();
        assert_eq!(p.hard, Some(MS(800)));
        let p = clock(Some(1_000), Some(0), Some(3_000)).plan();
        assert_eq!(p.hard, Some(MS(800)));
        // time_left alone limits too (the manager must send it when time is limited).
        let p = clock(None, None, Some(15_000)).plan();
        assert_eq!(p.hard, Some(MS(800)));
    }

    #[test]
    fn the_rule_bits_give_the_rule_set_or_a_refusal() {
        assert_eq!(rule_set(0), Ok(RuleSet::Freestyle));
        assert_eq!(rule_set(1), Ok(RuleSet::Standard));
        assert_eq!(rule_set(4), Ok(RuleSet::Renju));
        assert_eq!(rule_set(5), Ok(RuleSet::Renju));
        for refused in [2, 3, 6, 8, 9, 12, 16, 17, 1 << 31] {
            assert!(rule_set(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn a_refused_rule_leaves_the_rule_as_it_was() {
        let mut brain = Brain::new(1, 1);
        assert!(brain.handle("INFO rule 4").lines.is_empty());
        assert_eq!(brain.handle("START 15").lines, ["OK"]);
        assert!(brain.handle("INFO rule 2").lines[0].starts_with("ERROR"));
        // Still renju: 19x19 is refused for it.
        assert!(brain.handle("START 19").lines[0].starts_with("ERROR"));
    }

    #[test]
    fn max_memory_is_refused_below_the_minimum_and_fitted_above_it() {
        let mut brain = Brain::new(8, 1);
        let below = format!("INFO max_memory {}", Engine::MIN_MEMORY - 1);
        assert!(brain.handle(&below).lines[0].starts_with("ERROR"));
        let at = format!("INFO max_memory {}", Engine::MIN_MEMORY);
        assert!(brain.handle(&at).lines[0].starts_with("MESSAGE"));
        assert!(brain.handle("INFO max_memory 0").lines.is_empty());
        assert!(brain.handle("INFO max_memory 4000000000").lines.is_empty());
        assert!(brain.handle("INFO max_memory -1").lines[0].starts_with("ERROR"));
    }

    #[test]
    fn swap2board_answers_each_stage_in_the_extensions_format() {
        let mut brain = Brain::new(2, 5);
        assert_eq!(brain.handle("START 15").lines, ["OK"]);
        let mut answer = |stones: &[&str]| {
            assert!(brain.handle("SWAP2BOARD").lines.is_empty());
            for s in stones {
                assert!(brain.handle(s).lines.is_empty(), "{s}");
            }
            let reply = brain.handle("DONE");
            assert_eq!(reply.lines.len(), 1, "{reply:?}");
            reply.lines[0].clone()
        };
        let three = answer(&[]);
        let points: Vec<Point> = three.split(' ').filter_map(parse_move).collect();
        assert_eq!(points.len(), 3, "{three}");
        let stones: Vec<String> = points
            .iter()
            .map(|p| format!("{},{}", p.x(), p.y()))
            .collect();
        let refs: Vec<&str> = stones.iter().map(String::as_str).collect();
        let second = answer(&refs);
        let n = second
            .split(' ')
            .filter(|m| parse_move(m).is_some())
            .count();
        assert!(second == "SWAP" || n == 1 || n == 2, "{second}");
        let fifth = answer(&["7,7", "8,8", "6,6", "0,0", "9,9"]);
        assert!(fifth == "SWAP" || parse_move(&fifth).is_some(), "{fifth}");
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
        assert_eq!(
            parse_move("19,19"),
            Point::new(19, 19),
            "the far corner of 20x20"
        );
        for bad in [
            "7", "a,b", "7,7,1", "-1,3", "20,0", "300,2", "", ",", "7;7", "hello",
        ] {
            assert_eq!(parse_move(bad), None, "{bad:?}");
        }
    }
}
