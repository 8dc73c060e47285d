//! What a player can do, and what happened when they did it.

use crate::renju::ForbiddenKind;
use crate::{Color, Point};

/// An action in a game. Who may take it is told by [`crate::Game::to_act`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "action", rename_all = "snake_case")
)]
pub enum Action {
    /// Put a stone of the side to move on a point.
    Place {
        /// The point.
        point: Point,
    },
    /// After move 3 under swap-after-three: the player holding white swaps colours (`true`) or plays on.
    DecideSwap {
        /// Whether to exchange colours.
        swap: bool,
    },
    /// Move 5 under the two-options rule: black offers two points.
    ProposeFifth {
        /// The two points, not symmetric to each other with respect to the position.
        points: [Point; 2],
    },
    /// White picks which proposed fifth move stays.
    ChooseFifth {
        /// One of the proposed points.
        point: Point,
    },
    /// White claims black's forbidden move just played, under the claim policy.
    ClaimForbidden,
}

impl Action {
    /// Shorthand for [`Action::Place`].
    pub const fn place(point: Point) -> Action {
        Action::Place { point }
    }
}

/// What an accepted action did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A stone was placed; `ply` counts stones on the board after it (the first move is ply 1).
    Placed {
        /// The stone's colour.
        color: Color,
        /// Where.
        point: Point,
        /// Stones on the board after it.
        ply: u16,
        /// Under the claim policy, a forbidden move that stands and can be claimed by white's next action.
        claimable: Option<ForbiddenKind>,
    },
    /// The players exchanged colours; the stones stay.
    ColoursSwapped,
    /// The player holding white kept it.
    SwapDeclined,
    /// Black offered two fifth moves.
    FifthProposed {
        /// The two points.
        points: [Point; 2],
    },
    /// White claimed black's forbidden move and wins.
    ForbiddenClaimed {
        /// The forbidden stone.
        point: Point,
        /// Why it was forbidden.
        kind: ForbiddenKind,
    },
}
