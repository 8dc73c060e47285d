//! A validated game: rules, board, history and status that can only change through legal actions.

use std::fmt;

use crate::action::{Action, Event, Offers};
use crate::board::Direction;
use crate::canonical::{in_central_square, name_opening};
use crate::illegal::IllegalAction;
use crate::point::MAX_SIZE;
use crate::renju::{self, BlackMove, ForbiddenKind};
use crate::status::{Line, Phase, Status, WinReason};
use crate::symmetry::points_equivalent;
use crate::{Board, Color, ForbiddenPolicy, Opening, Point, Rules};

/// Where the next stone may go under the opening rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Area {
    /// Anywhere empty.
    Anywhere,
    /// The centre only.
    Centre,
    /// Touching this stone (swap after three, Soosõrv's move 2).
    Touching(Point),
    /// Soosõrv's move 3: inside the central 5x5, making one of the 26 canonical openings.
    Canonical,
    /// Taraguchi: inside the central square of this side.
    Square(u8),
}

/// What changes with every action, kept whole so that undo restores it exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    status: Status,
    swapped: bool,
    claim: Option<(Point, ForbiddenKind)>,
    /// Soosõrv: the number of fifth moves white declared.
    declared: Option<u8>,
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
                    phase: if rules.opening().first_player_places_three() {
                        Phase::PlaceOpening
                    } else {
                        Phase::Place
                    },
                },
                swapped: false,
                claim: None,
                declared: None,
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
            phase: Phase::Place | Phase::PlaceOpening,
            ..
        } = self.state.status
        else {
            return Vec::new();
        };
        let colour = self.stone_colour();
        let forbidden: Vec<Point> = if colour == Color::Black
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
        let area = self.area();
        self.board
            .points()
            .filter(|&p| {
                self.board.is_empty_at(p)
                    && self.area_allows(area, p).is_ok()
                    && !forbidden.contains(&p)
            })
            .collect()
    }

    /// Black's fifth-move offers as they stand: under [`Phase::ChooseOffer`], the points white chooses from.
    pub fn offers(&self) -> Option<Offers> {
        match self.state.status {
            Status::Ongoing {
                phase: Phase::ChooseOffer { offers },
                ..
            } => Some(offers),
            _ => None,
        }
    }

    /// Soosõrv: the number of fifth moves white declared, once declared.
    pub fn declared_offers(&self) -> Option<u8> {
        self.state.declared
    }

    /// The colour of the next stone: the stones alternate, black first, whoever places them.
    pub fn stone_colour(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
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
                    Phase::Place | Phase::PlaceOpening => {}
                    other => return Err(Self::pending(other)),
                }
                self.check_empty(point)?;
                self.area_allows(self.area(), point)?;
                let colour = self.stone_colour();
                self.place(colour, point, false)?
            }
            Action::DecideSwap { swap } => {
                if !matches!(
                    phase,
                    Phase::SwapDecision | Phase::Swap2Decision | Phase::TaraguchiChoice { .. }
                ) {
                    return Err(IllegalAction::NoSwapPending);
                }
                self.state.swapped ^= swap;
                self.state.status = self.after_swap_decision(phase);
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
                    _ => return Err(IllegalAction::NoFifthProposalExpected),
                }
                for p in points {
                    self.check_offer(p)?;
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
                let chosen = match phase {
                    Phase::ChooseFifth { options } => options.contains(&point),
                    Phase::ChooseOffer { offers } => offers.contains(point),
                    _ => return Err(IllegalAction::NoFifthChoicePending),
                };
                if !chosen {
                    return Err(IllegalAction::NotAFifthOption);
                }
                self.place(Color::Black, point, true)?
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
            Action::PlaceTwo { points: [w, b] } => {
                if phase != Phase::Swap2Decision {
                    return Err(IllegalAction::NoPlaceTwoExpected);
                }
                self.check_empty(w)?;
                self.check_empty(b)?;
                if w == b {
                    return Err(IllegalAction::Occupied);
                }
                let mid = self.state;
                self.place(Color::White, w, false)?;
                if let Err(e) = self.place(Color::Black, b, false) {
                    self.moves.pop();
                    self.board.remove(w);
                    self.state = mid;
                    return Err(e);
                }
                if !self.state.status.is_over() {
                    self.state.status = Status::Ongoing {
                        to_act: Color::Black,
                        phase: Phase::SwapDecision,
                    };
                }
                Event::TwoPlaced { points: [w, b] }
            }
            Action::DeclareOffers { count } => {
                let Phase::DeclareOffers { max } = phase else {
                    return Err(IllegalAction::NoDeclarationExpected);
                };
                if !(1..=max).contains(&count) {
                    return Err(IllegalAction::DeclarationOutOfRange);
                }
                self.state.declared = Some(count);
                self.state.status = Status::Ongoing {
                    to_act: Color::Black,
                    phase: Phase::SwapDecision,
                };
                Event::OffersDeclared { count }
            }
            Action::OfferFifths { offers } => {
                let (Phase::OfferFifths { count } | Phase::TaraguchiChoice { count }) = phase
                else {
                    return Err(IllegalAction::NoOffersExpected);
                };
                if offers.len() != usize::from(count) {
                    return Err(IllegalAction::WrongNumberOfOffers);
                }
                let points = offers.as_slice();
                for &p in points {
                    self.check_offer(p)?;
                }
                for (k, &a) in points.iter().enumerate() {
                    if points[k + 1..].contains(&a) {
                        return Err(IllegalAction::DuplicateOffer);
                    }
                }
                for (k, &a) in points.iter().enumerate() {
                    if points[k + 1..]
                        .iter()
                        .any(|&b| points_equivalent(&self.board, a, b))
                    {
                        return Err(IllegalAction::SymmetricOffer);
                    }
                }
                self.state.status = Status::Ongoing {
                    to_act: Color::White,
                    phase: Phase::ChooseOffer { offers },
                };
                Event::FifthsOffered { offers }
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
        let stones = match action {
            Action::Place { .. } | Action::ChooseFifth { .. } => 1,
            Action::PlaceTwo { .. } => 2,
            _ => 0,
        };
        for _ in 0..stones {
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

    /// What the side to act must do first when it tries to place a stone in `phase`.
    fn pending(phase: Phase) -> IllegalAction {
        match phase {
            Phase::Place | Phase::PlaceOpening => IllegalAction::GameOver,
            Phase::SwapDecision | Phase::Swap2Decision | Phase::TaraguchiChoice { .. } => {
                IllegalAction::SwapDecisionPending
            }
            Phase::ProposeFifth => IllegalAction::FifthProposalRequired,
            Phase::ChooseFifth { .. } | Phase::ChooseOffer { .. } => {
                IllegalAction::FifthChoicePending
            }
            Phase::DeclareOffers { .. } => IllegalAction::DeclarationPending,
            Phase::OfferFifths { .. } => IllegalAction::OffersRequired,
        }
    }

    /// A fifth-move offer's own checks: an empty point, not forbidden for black under the reject policy.
    fn check_offer(&self, p: Point) -> Result<(), IllegalAction> {
        self.check_empty(p)?;
        if self.rules.restricts_black() && self.rules.forbidden_policy() == ForbiddenPolicy::Reject
        {
            if let Some(kind) = renju::forbidden_at(&self.board, p) {
                return Err(IllegalAction::Forbidden(kind));
            }
        }
        Ok(())
    }

    /// Where the next placed stone may go under the opening rule.
    fn area(&self) -> Area {
        let ply = self.moves.len();
        match (self.rules.opening(), ply) {
            (
                Opening::SwapAfterThree
                | Opening::SwapAfterThreeFifthTwoOptions
                | Opening::Soosorv { .. },
                0,
            )
            | (Opening::Taraguchi { .. }, 0) => Area::Centre,
            (
                Opening::SwapAfterThree
                | Opening::SwapAfterThreeFifthTwoOptions
                | Opening::Soosorv { .. },
                1,
            ) => Area::Touching(self.moves[0]),
            (Opening::Soosorv { .. }, 2) => Area::Canonical,
            (Opening::Taraguchi { .. }, 1..=4) => Area::Square(2 * ply as u8 + 1),
            _ => Area::Anywhere,
        }
    }

    fn area_allows(&self, area: Area, point: Point) -> Result<(), IllegalAction> {
        let size = self.rules.size();
        let ok = match area {
            Area::Anywhere => return Ok(()),
            Area::Centre => {
                return if point == Point::centre(size) {
                    Ok(())
                } else {
                    Err(IllegalAction::MustPlayCentre)
                }
            }
            Area::Touching(first) => {
                return if first.touches(point) {
                    Ok(())
                } else {
                    Err(IllegalAction::MustTouchFirstStone)
                }
            }
            Area::Canonical => {
                let stones = [self.moves[0], self.moves[1], point];
                return if name_opening(&stones, size).is_some() {
                    Ok(())
                } else {
                    Err(IllegalAction::NotACanonicalOpening)
                };
            }
            Area::Square(side) => in_central_square(point, side, size),
        };
        if ok {
            Ok(())
        } else {
            Err(IllegalAction::OutsideCentralSquare)
        }
    }

    /// Who acts next, and how, once a swap decision was taken in `phase`: the colour of the next stone places
    /// it, except that Soosõrv's second swap is followed by black's offers.
    fn after_swap_decision(&self, phase: Phase) -> Status {
        if let (Phase::SwapDecision, Some(count)) = (phase, self.state.declared) {
            if self.moves.len() == 4 {
                return Status::Ongoing {
                    to_act: Color::Black,
                    phase: Phase::OfferFifths { count },
                };
            }
        }
        Status::Ongoing {
            to_act: self.stone_colour(),
            phase: Phase::Place,
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
    fn place(&mut self, color: Color, point: Point, chosen: bool) -> Result<Event, IllegalAction> {
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
                self.next_status(color, ply, chosen)
            }
        } else {
            self.next_status(color, ply, chosen)
        };
        Ok(Event::Placed {
            color,
            point,
            ply: ply as u16,
            claimable,
        })
    }

    /// Who acts next, and how, after a stone of `placed` made `ply` stones (`chosen`: it was one of black's
    /// offered fifth moves).
    fn next_status(&self, placed: Color, ply: usize, chosen: bool) -> Status {
        let ongoing = |to_act, phase| Status::Ongoing { to_act, phase };
        if self.board.is_full() {
            return Status::Drawn;
        }
        let normal = ongoing(placed.opposite(), Phase::Place);
        // Under `reject` black may not place on a forbidden point. On a nearly full renju board every empty point
        // can be forbidden: black then has no legal action, and the game is drawn as a full board is (the first
        // empty point checked is nearly always free, so this costs one forbidden-point test a white stone).
        if placed == Color::White
            && self.rules.restricts_black()
            && self.rules.forbidden_policy() == ForbiddenPolicy::Reject
            && !self
                .board
                .points()
                .any(|p| self.board.is_empty_at(p) && renju::forbidden_at(&self.board, p).is_none())
        {
            return Status::Drawn;
        }
        match self.rules.opening() {
            Opening::None => normal,
            Opening::SwapAfterThree | Opening::SwapAfterThreeFifthTwoOptions => match ply {
                3 => ongoing(Color::White, Phase::SwapDecision),
                4 if self.rules.opening().fifth_two_options() => {
                    ongoing(Color::Black, Phase::ProposeFifth)
                }
                _ => normal,
            },
            Opening::Swap1 | Opening::Swap2 | Opening::Soosorv { .. } if ply < 3 => {
                ongoing(Color::Black, Phase::PlaceOpening)
            }
            Opening::Swap1 if ply == 3 => ongoing(Color::White, Phase::SwapDecision),
            Opening::Swap2 if ply == 3 => ongoing(Color::White, Phase::Swap2Decision),
            Opening::Soosorv { n } => match ply {
                3 => ongoing(Color::White, Phase::SwapDecision),
                4 => ongoing(Color::White, Phase::DeclareOffers { max: n }),
                _ => normal,
            },
            Opening::Taraguchi { n } => match ply {
                1 | 3 => ongoing(Color::White, Phase::SwapDecision),
                2 => ongoing(Color::Black, Phase::SwapDecision),
                4 => ongoing(Color::Black, Phase::TaraguchiChoice { count: n }),
                5 if !chosen => ongoing(Color::White, Phase::SwapDecision),
                _ => normal,
            },
            Opening::Swap1 | Opening::Swap2 => normal,
        }
    }
}
