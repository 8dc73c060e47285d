//! The trait every game implements, and the plain types it speaks in: seats, status, outcome, pool keys.

use std::fmt;

use rules::Color;

use crate::notation::NotationError;
use crate::GameKind;

/// One of the two seats of a table. Seats do not change during a game; colours may (a swap), which is why the
/// room asks the game which seat holds which colour ([`Game::first_seat`]) instead of keeping it itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// Seat 0.
    Zero,
    /// Seat 1.
    One,
}

impl Seat {
    /// Both seats, seat 0 first.
    pub const BOTH: [Seat; 2] = [Seat::Zero, Seat::One];

    /// The seat's index, 0 or 1 (as the room numbers its seats).
    pub const fn index(self) -> usize {
        match self {
            Seat::Zero => 0,
            Seat::One => 1,
        }
    }

    /// The seat of an index; `None` for anything but 0 and 1.
    pub const fn from_index(index: usize) -> Option<Seat> {
        match index {
            0 => Some(Seat::Zero),
            1 => Some(Seat::One),
            _ => None,
        }
    }

    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::Zero => Seat::One,
            Seat::One => Seat::Zero,
        }
    }
}

/// Anything with a stable snake_case code: refusals, phases, outcome reasons. Codes go on the wire and into the
/// database as they are, so they never change.
pub trait Coded {
    /// The stable code.
    fn code(&self) -> &'static str;
}

/// How a game ended, as far as its rules decide it (resignation, time, agreement and abandonment are the room's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<D> {
    /// The winning colour; `None` for a draw.
    pub winner: Option<Color>,
    /// A stable code (`five`, `forbidden_move`, `board_full`, …) as stored and sent as the result's reason.
    pub reason: &'static str,
    /// What a client shows with the result (the five's line, the forbidden stone, the disc count…).
    pub detail: D,
}

/// Where a game stands by its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status<P, D> {
    /// Someone must act.
    Ongoing {
        /// The colour that must act.
        to_act: Color,
        /// What it must do.
        phase: P,
    },
    /// The rules ended the game.
    Over(Outcome<D>),
}

impl<P, D> Status<P, D> {
    /// The colour that must act, or `None` once over.
    pub fn to_act(&self) -> Option<Color> {
        match self {
            Status::Ongoing { to_act, .. } => Some(*to_act),
            Status::Over(_) => None,
        }
    }

    /// What the side to act must do, or `None` once over.
    pub fn phase(&self) -> Option<&P> {
        match self {
            Status::Ongoing { phase, .. } => Some(phase),
            Status::Over(_) => None,
        }
    }

    /// The outcome, once over.
    pub fn outcome(&self) -> Option<&Outcome<D>> {
        match self {
            Status::Ongoing { .. } => None,
            Status::Over(outcome) => Some(outcome),
        }
    }

    /// Whether the rules ended the game.
    pub fn is_over(&self) -> bool {
        matches!(self, Status::Over(_))
    }
}

/// The rating pool a game is rated in, as plain strings, so that the `ratings` crate keys its pools without
/// knowing any game: `("gomoku", "renju")`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PoolKey {
    /// The game (`gomoku`).
    pub game: &'static str,
    /// The variant within it (`freestyle`, `standard`, `renju`).
    pub variant: &'static str,
}

/// A list of actions that does not make a legal game: the action at `index` (zero-based) is refused for `reason`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError<E> {
    /// Zero-based index of the first action that could not be replayed.
    pub index: usize,
    /// Why.
    pub reason: E,
}

impl<E: fmt::Display> fmt::Display for ReplayError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "action {} cannot be replayed: {}",
            self.index + 1,
            self.reason
        )
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ReplayError<E> {}

/// A validated configuration of a game (what a room chooses). Built only by its game's constructor, so every
/// value is playable; stored and read back as explicit text.
pub trait GameConfig: Sized + Clone + fmt::Debug + PartialEq + Send + 'static {
    /// The game this configures.
    fn kind(&self) -> GameKind;
    /// The rating pool of games under this configuration.
    fn pool(&self) -> PoolKey;
    /// The stored text (one text per configuration; see `docs/architecture.md`, "The game seam").
    fn encode(&self) -> String;
}

/// A two-player game whose state changes only through checked actions: what the room, the protocol and the
/// store need of any game, and nothing they do not.
///
/// Everything is by value and synchronous; no I/O, no clocks, no randomness. The side to act is a colour; the
/// room maps colours to seats with [`Game::first_seat`] (and the provided [`Game::seat_of`] and
/// [`Game::colour_of`]), the one place that knows who holds which colour after opening decisions.
pub trait Game: Sized + Clone + fmt::Debug + Send + 'static {
    /// The validated configuration.
    type Config: GameConfig;
    /// What a player can do.
    type Action: Clone + fmt::Debug + PartialEq + Eq + Send;
    /// Why an action was refused; every reason has a stable code.
    type Illegal: Clone + fmt::Debug + fmt::Display + PartialEq + Coded + Send;
    /// What the side to act must do (place, decide a swap, pass…); coded for the wire.
    type Phase: Clone + fmt::Debug + PartialEq + Coded;
    /// What an outcome carries beside its winner and reason.
    type Detail: Clone + fmt::Debug + PartialEq;
    /// The public position for snapshots: plain data.
    type View: Clone + fmt::Debug + PartialEq;
    /// What one accepted action changed, with the new status: the body of the event that announces it.
    type Delta: Clone + fmt::Debug + PartialEq;
    /// The legal actions now, in a form a client can use.
    type Legal: Clone + fmt::Debug + PartialEq;

    /// A new game; `first_seat` holds the first colour (the colour that moves first) at the start.
    fn new(config: Self::Config, first_seat: Seat) -> Self;

    /// The configuration (a small value: sizes and rule choices).
    fn config(&self) -> Self::Config;

    /// Where the game stands by its rules.
    fn status(&self) -> Status<Self::Phase, Self::Detail>;

    /// The colour that moves first in this game (black in Gomoku and Othello, white in draughts).
    fn first_colour(&self) -> Color;

    /// Which seat plays the first colour now. The only answer to "who holds which colour": it follows every
    /// opening decision (a swap, a colour choice) the game has seen.
    fn first_seat(&self) -> Seat;

    /// Applies an action for whoever must act now.
    fn apply(&mut self, action: Self::Action) -> Result<Self::Delta, Self::Illegal>;

    /// Applies an action for a seat: refused (not your turn) when the other seat must act.
    fn apply_as(&mut self, seat: Seat, action: Self::Action) -> Result<Self::Delta, Self::Illegal>;

    /// Takes back the last action and returns it; `None` at the start. The game is then exactly as before it.
    fn undo(&mut self) -> Option<Self::Action>;

    /// How many actions were accepted.
    fn action_count(&self) -> usize;

    /// The accepted actions, in order.
    fn actions(&self) -> Vec<Self::Action>;

    /// Moves made as the game counts them (stones placed in Gomoku): the `ply` of the wire and of offers.
    fn ply(&self) -> u32;

    /// Whether an action counts as a move ([`Game::ply`] grows by it; pending offers lapse with it).
    fn is_move(action: &Self::Action) -> bool;

    /// Whether an action is an opening decision a takeback must never undo (it would give colours back silently).
    fn is_opening_decision(action: &Self::Action) -> bool;

    /// Whether a game takes this action at most once from a seat (a decision, a claim), so that a repeat of it from
    /// the seat that already made it is a retry the room may acknowledge without applying anything.
    fn at_most_once(action: &Self::Action) -> bool;

    /// The legal actions now (empty once over).
    fn legal(&self) -> Self::Legal;

    /// The actions the side to act may take now, as actions (empty once over): what a computer player, a
    /// load generator or a fuzz harness picks from. Every listed action is accepted by [`Game::apply`].
    ///
    /// The list is every legal action, except where a game's action space is combinatorial; there it is a
    /// bounded, representative sample, and the game's own doc says which phases those are (Gomoku: Swap2's
    /// two extra stones, the two fifth-move options, Soosõrv's and Taraguchi's offers). [`Game::legal`] stays
    /// the complete description for clients.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// The action the side to act must take because it has no other (Othello's pass when no disc can go
    /// anywhere), which the room takes for it at once: a forced action costs no clock time and waits for nobody.
    /// `None` whenever the side to act has a choice, and once over.
    fn forced(&self) -> Option<Self::Action> {
        None
    }

    /// The public view. `room_result`: the room holds a result for this game (resignation, time, agreement, or
    /// the rules' own end once recorded), so the view shows nobody to act and none of what the side to act would
    /// need (forbidden points, claims, options), even while the rules alone would let the game go on.
    fn view(&self, room_result: bool) -> Self::View;

    /// The action's notation: its one text, as stored and displayed.
    fn notation(action: &Self::Action) -> String;

    /// An action back from its notation; every text that [`Game::notation`] does not write is refused.
    fn parse_action(&self, text: &str) -> Result<Self::Action, NotationError>;

    /// The seat that holds a colour now.
    fn seat_of(&self, colour: Color) -> Seat {
        if colour == self.first_colour() {
            self.first_seat()
        } else {
            self.first_seat().other()
        }
    }

    /// The colour a seat holds now.
    fn colour_of(&self, seat: Seat) -> Color {
        if seat == self.first_seat() {
            self.first_colour()
        } else {
            self.first_colour().opposite()
        }
    }

    /// The colour that must act now, or `None` once over.
    fn to_act(&self) -> Option<Color> {
        self.status().to_act()
    }

    /// Replays a list of actions (from the store or a record) into a game, refusing at the first illegal one.
    fn from_actions(
        config: Self::Config,
        first_seat: Seat,
        actions: &[Self::Action],
    ) -> Result<Self, ReplayError<Self::Illegal>> {
        let mut game = Self::new(config, first_seat);
        for (index, action) in actions.iter().enumerate() {
            game.apply(action.clone())
                .map_err(|reason| ReplayError { index, reason })?;
        }
        Ok(game)
    }
}

/// A finished or running game's facts a record export writes beside the moves: the players by colour and the
/// result as the room recorded it (which may differ from the rules' own, after a resignation or a flag fall).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordHeader<'a> {
    /// The name of whoever played black (Gomoku's and Othello's first colour, draughts' second).
    pub black: &'a str,
    /// The name of whoever played white.
    pub white: &'a str,
    /// `None` while the game runs or when it was aborted; `Some(None)` a draw; `Some(Some(colour))` a win.
    pub result: Option<Option<Color>>,
    /// The event: `Rated game`, `Casual game` (PGN's and PDN's `Event`).
    pub event: &'a str,
    /// Where it was played: the site's address, `?` when unknown (`Site`).
    pub site: &'a str,
    /// The day it started, `YYYY.MM.DD` as PGN and PDN write it (`Date`).
    pub date: &'a str,
    /// The time control as people write it (`5+3`, `10 min + 3 x 30 s`, `none`).
    pub time_control: &'a str,
}

impl RecordHeader<'_> {
    /// The tag pairs of a PGN-like header, one a line (`[Event "Rated game"]`), values escaped: the seven of the
    /// PGN and PDN roster first (`Event`, `Site`, `Date`, `Round`, then `first`'s and `second`'s player tags
    /// with their names, then `Result` with `result`), then `extra` in its order, then `TimeControl`.
    pub(crate) fn tags(
        &self,
        players: [(&str, &str); 2],
        result: &str,
        extra: &[(&str, String)],
    ) -> String {
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
        };
        tag("Event", self.event);
        tag("Site", self.site);
        tag("Date", self.date);
        // Games here are not played in rounds yet (PGN's "-": not applicable).
        tag("Round", "-");
        for (name, player) in players {
            tag(name, player);
        }
        tag("Result", result);
        for (name, value) in extra {
            tag(name, value);
        }
        tag("TimeControl", self.time_control);
        out
    }
}

/// A tag value of a PGN-like record (PDN, insect chess's export): quotes and backslashes escaped (names are
/// letters, digits, `_` and `-`, but guests' and future names need not be).
pub(crate) fn tag_value(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// How a game's record is exported in its field's usual text (`GET /api/games/{id}/export`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordFormat {
    /// The file name's extension (`txt`, `pdn`).
    pub extension: &'static str,
    /// The MIME type it is served as (`text/plain; charset=utf-8`).
    pub mime: &'static str,
}

/// A quick-pairing clock: the time controls a game's players usually meet on (kept in plain minutes and
/// seconds here; the server turns them into its time controls).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuickClock {
    /// `minutes` each, `increment_s` seconds added after every move (`3+2`).
    Fischer {
        /// Minutes each at the start.
        minutes: u32,
        /// Seconds added after every move.
        increment_s: u32,
    },
    /// `minutes` each, then `periods` periods of `period_s` seconds (`10m + 3×30s`).
    ByoYomi {
        /// Minutes each before the periods.
        minutes: u32,
        /// Periods.
        periods: u32,
        /// Seconds per period.
        period_s: u32,
    },
}

/// One of a game's quick-pairing presets, as its own file lists them: the lobby shows one tile per preset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuickPreset<C> {
    /// Its id on the wire, unique across every game (`renju-5+3`, `othello-3+2`).
    pub id: &'static str,
    /// The game's configuration under it.
    pub config: C,
    /// Its clock.
    pub clock: QuickClock,
}

/// A Fischer [`QuickClock`] of `minutes` + `increment_s` (the games' lists are short).
pub(crate) const fn fischer(minutes: u32, increment_s: u32) -> QuickClock {
    QuickClock::Fischer {
        minutes,
        increment_s,
    }
}

/// A game of the list (`crate::games!`): what is asked of a game's type rather than of one of its values — its
/// name, its rating pools, its default configuration, its stored texts and its record export. [`crate::AnyGame`]
/// and [`GameKind`] answer these for any game by asking the member.
pub trait Listed: Game {
    /// The game's kind (its tag in every `Any…` enum).
    const KIND: GameKind;
    /// How its record is exported.
    const RECORD: RecordFormat;

    /// Every rating pool of the game, in display order; [`GameConfig::pool`] is always one of them.
    fn pools() -> &'static [PoolKey];

    /// The configuration a room of this game has when it names no other (and the first one a client offers).
    fn default_config() -> Self::Config;

    /// The game's quick-pairing presets, in the order the lobby shows them (ids unique across every game, so the
    /// game's name or rule set leads each id).
    fn quick_presets() -> Vec<QuickPreset<Self::Config>>;

    /// An action from its notation, exactly as [`Game::notation`] writes it.
    fn read_notation(text: &str) -> Result<Self::Action, NotationError>;

    /// A configuration from its stored text, exactly as [`GameConfig::encode`] writes it.
    fn decode_config(text: &str) -> Result<Self::Config, crate::ConfigError>;

    /// An action from its stored text: its notation, unless the game stored another form once.
    fn decode_action(text: &str) -> Result<Self::Action, crate::DecodeError> {
        Ok(Self::read_notation(text)?)
    }

    /// The record in the game's usual text ([`Listed::RECORD`]), with the players and the result as given.
    fn record(&self, header: &RecordHeader<'_>) -> String;
}
