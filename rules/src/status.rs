//! Where a game stands: who acts next and in which phase, or how it ended.

use crate::action::Offers;
use crate::board::Direction;
use crate::renju::ForbiddenKind;
use crate::{Color, Point};

/// What the side to act must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Place a stone (or, for white under the claim policy, possibly claim black's forbidden move).
    Place,
    /// Swap after three: the player holding white decides whether to swap colours.
    SwapDecision,
    /// Fifth move, two options: black proposes two points.
    ProposeFifth,
    /// White chooses one of black's two proposed fifth moves.
    ChooseFifth {
        /// The two proposed points.
        options: [Point; 2],
    },
    /// Swap1, Swap2, Soosõrv: the first player (holding black for now) places the next of the first three
    /// stones; its colour is the one after the last stone's (black, white, black).
    PlaceOpening,
    /// Swap2, after the first three stones: the second player (holding white for now) swaps (takes black),
    /// keeps white (and plays move 4) or places two more stones ([`crate::Action::PlaceTwo`]).
    Swap2Decision,
    /// Soosõrv: white, having played move 4, declares how many fifth moves black offers: 1 to `max`.
    DeclareOffers {
        /// The most white may declare (N).
        max: u8,
    },
    /// Black offers exactly `count` fifth moves, no two symmetric.
    OfferFifths {
        /// How many.
        count: u8,
    },
    /// Taraguchi after move 4: black either decides a swap (first choice: then plays move 5 within the 9x9
    /// square) or offers `count` fifth moves anywhere (second choice).
    TaraguchiChoice {
        /// How many fifth moves the second choice offers (N).
        count: u8,
    },
    /// White chooses one of black's offered fifth moves.
    ChooseOffer {
        /// The offers.
        offers: Offers,
    },
}

impl Phase {
    /// Stable snake_case name.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Phase::Place => "place",
            Phase::SwapDecision => "swap_decision",
            Phase::ProposeFifth => "propose_fifth",
            Phase::ChooseFifth { .. } => "choose_fifth",
            Phase::PlaceOpening => "place_opening",
            Phase::Swap2Decision => "swap2_decision",
            Phase::DeclareOffers { .. } => "declare_offers",
            Phase::OfferFifths { .. } => "offer_fifths",
            Phase::TaraguchiChoice { .. } => "taraguchi_choice",
            Phase::ChooseOffer { .. } => "choose_offer",
        }
    }
}

/// A straight run of stones, such as a winning five.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// First point of the run in the direction's order.
    pub start: Point,
    /// The direction the run goes from `start`.
    pub direction: Direction,
    /// How many stones.
    pub len: u8,
}

impl Line {
    /// The points of the run, from `start`.
    pub fn points(&self) -> Vec<Point> {
        let (dx, dy) = self.direction.step();
        (0..self.len as i32)
            .map(|k| {
                Point::new(
                    (self.start.x() as i32 + k * dx) as u8,
                    (self.start.y() as i32 + k * dy) as u8,
                )
                .expect("a line stays on the board")
            })
            .collect()
    }
}

/// Why a game was won, as far as the rules decide it. (Resignation, time and abandonment are decided by the
/// room, not by the rules.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// The winner completed a winning line.
    Five {
        /// The winning line (exactly five, or more where the rules let that colour win with an overline).
        line: Line,
    },
    /// Black played a forbidden point under the lose policy.
    ForbiddenMove {
        /// The forbidden stone.
        point: Point,
        /// Why it was forbidden.
        kind: ForbiddenKind,
    },
    /// White claimed black's forbidden move under the claim policy.
    ForbiddenClaimed {
        /// The forbidden stone.
        point: Point,
        /// Why it was forbidden.
        kind: ForbiddenKind,
    },
}

impl WinReason {
    /// Stable snake_case name: `five`, `forbidden_move`, `forbidden_claimed`.
    pub const fn code(&self) -> &'static str {
        match self {
            WinReason::Five { .. } => "five",
            WinReason::ForbiddenMove { .. } => "forbidden_move",
            WinReason::ForbiddenClaimed { .. } => "forbidden_claimed",
        }
    }
}

/// The state of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Still being played.
    Ongoing {
        /// The colour that must act now.
        to_act: Color,
        /// What it must do.
        phase: Phase,
    },
    /// Won by a colour.
    Won {
        /// The winning colour.
        winner: Color,
        /// How.
        reason: WinReason,
    },
    /// Nobody won and nobody can place: the board is full, or (renju under the `reject` policy) every empty
    /// point is forbidden to black, who is to place.
    Drawn,
}

impl Status {
    /// Whether the game has ended.
    pub const fn is_over(&self) -> bool {
        !matches!(self, Status::Ongoing { .. })
    }
}
