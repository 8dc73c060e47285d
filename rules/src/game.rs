//! A validated game: rules, board, history and status that can only change through legal actions.

use std::fmt;

use crate::action::{Action, Event};
use crate::board::Direction;
use crate::illegal::IllegalAction;
use crate::point::MAX_SIZE;
use crate::renju::{self, BlackMove, ForbiddenKind};
use crate::status::{Line, Phase, Status, WinReason};
use crate::symmetry::points_equivalent;
use crate::{Board, Color, ForbiddenPolicy, Point, Rules};

/// What changes with every action, kept whole so that undo restores it exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    status: Status,
    swapped: bool,
    claim: Option<(Point, ForbiddenKind)>,
}

/// A game of Gomoku or Renju. Every value is a legal game: it is built empty or from a list of actions that are
/// checked one by one, and it changes only through [`Game::apply`] and [`Game::undo`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    board: Board,
    actions: Vec<Action>,
    moves: Vec<Point>,
    state: State,
    history: Vec<State>,
}

/// A list of actions that does not make a legal game: the action at `index` is illegal for `reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Zero-based index of the first illegal action.
    pub index: usize,
    /// Why it is illegal.
    pub reason: IllegalAction,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "action {} is illegal: {}", self.index + 1, self.reason)
    }
}

impl std::error::Error for ReplayError {}

impl Game {
    /// A new game: black to place the first stone.
    pub fn new(rules: Rules) -> Game {
        Game {
            rules,
            board: Board::new(rules.size()),
            actions: Vec::new(),
            moves: Vec::new(),
            state: State {
                status: Status::Ongoing {
                    to_act: Color::Black,
                    phase: Phase::Place,
                },
                swapped: false,
                claim: None,
            },
            history: Vec::new(),
        }
    }

    /// Replays a list of actions (from the wire or the database) into a game, refusing the first illegal one.
    pub fn from_actions(rules: Rules, actions: &[Action]) -> Result<Game, ReplayError> {
        let mut game = Game::new(rules);
        for (index, &action) in actions.iter().enumerate() {
            game.apply(action)
                .map_err(|reason| ReplayError { index, reason })?;
        }
        Ok(game)
    }

    /// The rules of this game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.state.status
    }

    /// The colour that must act now, or `None` once the game is over.
    pub fn to_act(&self) -> Option<Color> {
        match self.state.status {
            Status::Ongoing { to_act, .. } => Some(to_act),
            _ => None,
        }
    }

    /// Whether the players exchanged colours in the swap decision: the player who started with black now holds
    /// white.
    pub fn colours_swapped(&self) -> bool {
        self.state.swapped
    }

    /// Every accepted action, in order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The stones in the order they were placed; the first is black's and colours alternate.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// Stones on the board.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Under the claim policy: black's forbidden stone that white may claim now, with its kind.
    pub fn claimable(&self) -> Option<(Point, ForbiddenKind)> {
        self.state.claim
    }

    /// Black's forbidden points in the current position with their kinds, in board order. Empty unless the rule
    /// set restricts black. It does not depend on whose turn it is.
    pub fn forbidden_points(&self) -> Vec<(Point, ForbiddenKind)> {
        if self.rules.restricts_black() {
            renju::forbidden_points(&self.board)
        } else {
            Vec::new()
        }
    }

    /// Empty points where `color` would complete a winning line under these rules.
    pub fn five_points(&self, color: Color) -> Vec<Point> {
        // A winning line through an empty point has a stone of `color` right next to it, so only the empty
        // neighbours of that colour's stones need the (four-direction) test.
        let size = self.rules.size();
        let index = |p: Point| usize::from(p.y()) * usize::from(MAX_SIZE) + usize::from(p.x());
        let mut near = [false; MAX_SIZE as usize * MAX_SIZE as usize];
        for stone in self
            .board
            .points()
            .filter(|&p| self.board.get(p) == Some(color))
        {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(q) = stone.offset(dx, dy, size) {
                        near[index(q)] = true;
                    }
                }
            }
        }
        self.board
            .points()
            .filter(|&p| {
                near[index(p)] && self.board.is_empty_at(p) && self.winning_line(color, p).is_some()
            })
            .collect()
    }

    /// Every point where a [`Action::Place`] is legal now (empty when the side to act must do something else).
    /// Computed from the whole-board forbidden set, independently of [`Game::apply`]'s own checks.
    pub fn legal_places(&self) -> Vec<Point> {
        let Status::Ongoing {
            to_act,
            phase: Phase::Place,
        } = self.state.status
        else {
            return Vec::new();
        };
        let swap = self.rules.opening().swaps_after_three();
        match (swap, self.moves.as_slice()) {
            (true, []) => return vec![Point::centre(self.rules.size())],
            (true, [first]) => {
                return self
                    .board
                    .points()
                    .filter(|&p| first.touches(p) && self.board.is_empty_at(p))
                    .collect()
            }
            _ => {}
        }
        let forbidden: Vec<Point> = if to_act == Color::Black
            && self.rules.restricts_black()
            && self.rules.forbidden_policy() == ForbiddenPolicy::Reject
        {
            renju::forbidden_points(&self.board)
                .into_iter()
                .map(|(p, _)| p)
                .collect()
        } else {
            Vec::new()
        };
        self.board
            .points()
            .filter(|&p| self.board.is_empty_at(p) && !forbidden.contains(&p))
            .collect()
    }

    /// Whether an action is legal now, without applying it.
    pub fn check(&self, action: Action) -> Result<(), IllegalAction> {
        self.clone().apply(action).map(|_| ())
    }

    /// Applies an action for whoever must act now (see [`Game::to_act`]).
    pub fn apply(&mut self, action: Action) -> Result<Event, IllegalAction> {
        let Status::Ongoing { to_act, phase } = self.state.status else {
            return Err(IllegalAction::GameOver);
        };
        let before = self.state;
        let event = match action {
            Action::Place { point } => {
                match phase {
                    Phase::Place => {}
                    Phase::SwapDecision => return Err(IllegalAction::SwapDecisionPending),
                    Phase::ProposeFifth => return Err(IllegalAction::FifthProposalRequired),
                    Phase::ChooseFifth { .. } => return Err(IllegalAction::FifthChoicePending),
                }
                self.check_empty(point)?;
                self.check_opening(point)?;
                self.place(to_act, point)?
            }
            Action::DecideSwap { swap } => {
                if phase != Phase::SwapDecision {
                    return Err(IllegalAction::NoSwapPending);
                }
                self.state.swapped ^= swap;
                self.state.status = Status::Ongoing {
                    to_act: Color::White,
                    phase: Phase::Place,
                };
                if swap {
                    Event::ColoursSwapped
                } else {
                    Event::SwapDeclined
                }
            }
            Action::ProposeFifth { points } => {
                match phase {
                    Phase::ProposeFifth => {}
                    Phase::SwapDecision => return Err(IllegalAction::SwapDecisionPending),
                    Phase::ChooseFifth { .. } => return Err(IllegalAction::FifthChoicePending),
                    Phase::Place => return Err(IllegalAction::NoFifthProposalExpected),
                }
                for p in points {
                    self.check_empty(p)?;
                    if self.rules.restricts_black()
                        && self.rules.forbidden_policy() == ForbiddenPolicy::Reject
                    {
                        if let Some(kind) = renju::forbidden_at(&self.board, p) {
                            return Err(IllegalAction::Forbidden(kind));
                        }
                    }
                }
                if points[0] == points[1] {
                    return Err(IllegalAction::FifthOptionsIdentical);
                }
                if points_equivalent(&self.board, points[0], points[1]) {
                    return Err(IllegalAction::FifthOptionsSymmetric);
                }
                self.state.status = Status::Ongoing {
                    to_act: Color::White,
                    phase: Phase::ChooseFifth { options: points },
                };
                Event::FifthProposed { points }
            }
            Action::ChooseFifth { point } => {
                let Phase::ChooseFifth { options } = phase else {
                    return Err(IllegalAction::NoFifthChoicePending);
                };
                if !options.contains(&point) {
                    return Err(IllegalAction::NotAFifthOption);
                }
                self.place(Color::Black, point)?
            }
            Action::ClaimForbidden => {
                let Some((point, kind)) = self.state.claim.filter(|_| to_act == Color::White)
                else {
                    return Err(IllegalAction::NothingToClaim);
                };
                self.state.status = Status::Won {
                    winner: Color::White,
                    reason: WinReason::ForbiddenClaimed { point, kind },
                };
                Event::ForbiddenClaimed { point, kind }
            }
        };
        // White's first action after a standing forbidden stone ends the right to claim it.
        if to_act == Color::White && !matches!(action, Action::ClaimForbidden) {
            self.state.claim = None;
        }
        self.history.push(before);
        self.actions.push(action);
        Ok(event)
    }

    /// [`Game::apply`] for a given colour: refuses with [`IllegalAction::NotYourTurn`] when another must act.
    pub fn apply_as(&mut self, color: Color, action: Action) -> Result<Event, IllegalAction> {
        match self.to_act() {
            None => Err(IllegalAction::GameOver),
            Some(c) if c != color => Err(IllegalAction::NotYourTurn),
            Some(_) => self.apply(action),
        }
    }

    /// Takes back the last action and returns it; `None` at the start. The game is exactly as it was before.
    pub fn undo(&mut self) -> Option<Action> {
        let action = self.actions.pop()?;
        self.state = self.history.pop().expect("one state per action");
        if matches!(action, Action::Place { .. } | Action::ChooseFifth { .. }) {
            let p = self.moves.pop().expect("a placing action placed a stone");
            self.board.remove(p);
        }
        Some(action)
    }

    fn check_empty(&self, point: Point) -> Result<(), IllegalAction> {
        if !self.board.contains(point) {
            Err(IllegalAction::OffBoard)
        } else if self.board.get(point).is_some() {
            Err(IllegalAction::Occupied)
        } else {
            Ok(())
        }
    }

    fn check_opening(&self, point: Point) -> Result<(), IllegalAction> {
        if !self.rules.opening().swaps_after_three() {
            return Ok(());
        }
        match self.moves.as_slice() {
            [] if point != Point::centre(self.rules.size()) => Err(IllegalAction::MustPlayCentre),
            [first] if !first.touches(point) => Err(IllegalAction::MustTouchFirstStone),
            _ => Ok(()),
        }
    }

    /// The winning line `color` would make with a stone on the empty point `p`.
    #[inline]
    fn winning_line(&self, color: Color, p: Point) -> Option<Line> {
        for d in Direction::ALL {
            let (before, after) = self.board.run_ends(p, d, color);
            let len = 1 + before + after;
            if len >= 5 && self.rules.is_winning_run(color, len) {
                let (dx, dy) = d.step();
                let back = before as i32;
                let start = p
                    .offset(-back * dx, -back * dy, self.rules.size())
                    .expect("a run stays on the board");
                return Some(Line {
                    start,
                    direction: d,
                    len: len as u8,
                });
            }
        }
        None
    }

    /// Puts a stone of `color` on an empty point after the rule checks, and moves the game on.
    fn place(&mut self, color: Color, point: Point) -> Result<Event, IllegalAction> {
        let mut forbidden = None;
        // Under Renju black wins only with exactly five, which the judgement of the point already tells: the
        // winning line is looked for only then.
        let mut may_win = true;
        if color == Color::Black && self.rules.restricts_black() {
            match renju::judge_black(&mut self.board, point) {
                BlackMove::Forbidden(kind) => {
                    if self.rules.forbidden_policy() == ForbiddenPolicy::Reject {
                        return Err(IllegalAction::Forbidden(kind));
                    }
                    forbidden = Some(kind);
                    may_win = false;
                }
                BlackMove::Free => may_win = false,
                BlackMove::Five => {}
            }
        }
        let win = if may_win {
            self.winning_line(color, point)
        } else {
            None
        };
        self.board.place(point, color);
        self.moves.push(point);
        let ply = self.moves.len();
        let mut claimable = None;
        self.state.status = if let Some(line) = win {
            Status::Won {
                winner: color,
                reason: WinReason::Five { line },
            }
        } else if let Some(kind) = forbidden {
            if self.rules.forbidden_policy() == ForbiddenPolicy::Lose {
                Status::Won {
                    winner: Color::White,
                    reason: WinReason::ForbiddenMove { point, kind },
                }
            } else {
                self.state.claim = Some((point, kind));
                claimable = Some(kind);
                self.next_status(color, ply)
            }
        } else {
            self.next_status(color, ply)
        };
        Ok(Event::Placed {
            color,
            point,
            ply: ply as u16,
            claimable,
        })
    }

    fn next_status(&self, placed: Color, ply: usize) -> Status {
        let opening = self.rules.opening();
        if self.board.is_full() {
            Status::Drawn
        } else if opening.swaps_after_three() && ply == 3 {
            Status::Ongoing {
                to_act: Color::White,
                phase: Phase::SwapDecision,
            }
        } else if opening.fifth_two_options() && ply == 4 {
            Status::Ongoing {
                to_act: Color::Black,
                phase: Phase::ProposeFifth,
            }
        } else {
            Status::Ongoing {
                to_act: placed.opposite(),
                phase: Phase::Place,
            }
        }
    }
}
