//! What a player can do, and what happened when they did it.

use crate::renju::ForbiddenKind;
use crate::ruleset::MAX_OFFERS;
use crate::{Color, Point};

/// Up to [`MAX_OFFERS`] points, in the order given: black's fifth-move offers under Soosõrv and Taraguchi. A
/// small `Copy` value so that actions stay `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Offers {
    len: u8,
    points: [Point; MAX_OFFERS as usize],
}

impl Offers {
    /// The offers of a list of points; `None` for an empty list or more than [`MAX_OFFERS`].
    pub fn new(points: &[Point]) -> Option<Offers> {
        if points.is_empty() || points.len() > usize::from(MAX_OFFERS) {
            return None;
        }
        let mut all = [points[0]; MAX_OFFERS as usize];
        all[..points.len()].copy_from_slice(points);
        Some(Offers {
            len: points.len() as u8,
            points: all,
        })
    }

    /// The points, in the order given.
    pub fn as_slice(&self) -> &[Point] {
        &self.points[..usize::from(self.len)]
    }

    /// How many.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Never true (an offer holds at least one point); for clippy's sake.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `p` is one of them.
    pub fn contains(&self, p: Point) -> bool {
        self.as_slice().contains(&p)
    }
}

impl std::fmt::Debug for Offers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Offers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(self.as_slice(), s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Offers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Offers, D::Error> {
        let points = Vec::<Point>::deserialize(d)?;
        Offers::new(&points).ok_or_else(|| {
            serde::de::Error::custom(format!("1 to {MAX_OFFERS} points are offered"))
        })
    }
}

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
    /// Swap2's third answer: the second player places two more stones, white's (move 4) then black's (move 5),
    /// and leaves the choice of colour to the first player.
    PlaceTwo {
        /// White's stone, then black's.
        points: [Point; 2],
    },
    /// Soosõrv: after move 4 white declares how many fifth moves black will offer (1 to N).
    DeclareOffers {
        /// How many.
        count: u8,
    },
    /// Soosõrv and Taraguchi (second choice): black offers as many fifth moves as asked, no two symmetric; white
    /// then chooses one with [`Action::ChooseFifth`].
    OfferFifths {
        /// The points, in the order given.
        offers: Offers,
    },
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
    /// Swap2: white's fourth and black's fifth stone were placed together.
    TwoPlaced {
        /// White's stone, then black's.
        points: [Point; 2],
    },
    /// Soosõrv: white declared how many fifth moves black offers.
    OffersDeclared {
        /// How many.
        count: u8,
    },
    /// Black offered fifth moves.
    FifthsOffered {
        /// The points.
        offers: Offers,
    },
    /// White claimed black's forbidden move and wins.
    ForbiddenClaimed {
        /// The forbidden stone.
        point: Point,
        /// Why it was forbidden.
        kind: ForbiddenKind,
    },
}
