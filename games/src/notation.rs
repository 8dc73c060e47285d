//! Notation: every action's one text, as stored and displayed, and the typed refusal of any other text.
//!
//! Gomoku and Renju (hand-written, no serde):
//!
//! | action | text |
//! | --- | --- |
//! | place a stone | the point, `h8` |
//! | swap after three: swap / keep colours | `swap` / `keep` |
//! | propose two fifth moves | `propose:i9,j10` (in the order given) |
//! | choose one of them | `choose:i9` |
//! | claim black's forbidden move | `claim` |
//! | Swap2: place two more stones, white's then black's | `add:i9,j10` |
//! | Soosõrv: declare the number of fifth moves | `declare:5` |
//! | Soosõrv, Taraguchi: offer fifth moves (in the order given) | `offer:i9,j10,k11` |
//! | choose one of the offered fifth moves | `choose:i9` (as for two options) |
//!
//! Every swap decision of every opening rule (Swap1, Swap2's "take black" / "take white", Soosõrv's and
//! Taraguchi's swaps, the first player's colour choice after Swap2's two extra stones) is `swap` or `keep`.
//!
//! Parsing is exact: a text parses only if formatting its action gives the same text back (`H8`, `h08`,
//! `propose:i9, j10` are refused), so an action and its text are one to one.

use std::fmt;

use rules::{Action, Offers, ParsePointError, Point};

/// Why a text is not an action's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text has none of the game's action forms.
    Malformed,
    /// A point in it is not a point (`h0`, `z99`).
    Point(ParsePointError),
    /// It reads as an action, but that action's text is another (`H8` for `h8`).
    NotCanonical {
        /// The action's own text.
        canonical: String,
    },
    /// The game kind named with the text is not one of ours.
    UnknownGame,
}

impl NotationError {
    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            NotationError::Malformed => "malformed_action",
            NotationError::Point(e) => e.code(),
            NotationError::NotCanonical { .. } => "non_canonical_notation",
            NotationError::UnknownGame => "unknown_game",
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Malformed => f.write_str("not an action of this game"),
            NotationError::Point(e) => e.fmt(f),
            NotationError::NotCanonical { canonical } => {
                write!(f, "the action is written {canonical}")
            }
            NotationError::UnknownGame => f.write_str("no such game"),
        }
    }
}

impl std::error::Error for NotationError {}

const SWAP: &str = "swap";
const KEEP: &str = "keep";
const CLAIM: &str = "claim";
const PROPOSE: &str = "propose:";
const CHOOSE: &str = "choose:";
const ADD: &str = "add:";
const DECLARE: &str = "declare:";
const OFFER: &str = "offer:";

/// A Gomoku action's text.
pub fn gomoku_text(action: &Action) -> String {
    match action {
        Action::Place { point } => point.to_string(),
        Action::DecideSwap { swap: true } => SWAP.to_owned(),
        Action::DecideSwap { swap: false } => KEEP.to_owned(),
        Action::ProposeFifth { points: [a, b] } => format!("{PROPOSE}{a},{b}"),
        Action::ChooseFifth { point } => format!("{CHOOSE}{point}"),
        Action::ClaimForbidden => CLAIM.to_owned(),
        Action::PlaceTwo { points: [a, b] } => format!("{ADD}{a},{b}"),
        Action::DeclareOffers { count } => format!("{DECLARE}{count}"),
        Action::OfferFifths { offers } => {
            let list: Vec<String> = offers.as_slice().iter().map(Point::to_string).collect();
            format!("{OFFER}{}", list.join(","))
        }
    }
}

/// A Gomoku action from its text (exactly as [`gomoku_text`] writes it).
pub fn parse_gomoku(text: &str) -> Result<Action, NotationError> {
    let point = |s: &str| s.parse::<Point>().map_err(NotationError::Point);
    let action = match text {
        SWAP => Action::DecideSwap { swap: true },
        KEEP => Action::DecideSwap { swap: false },
        CLAIM => Action::ClaimForbidden,
        _ => {
            if let Some(rest) = text.strip_prefix(PROPOSE) {
                let (a, b) = rest.split_once(',').ok_or(NotationError::Malformed)?;
                Action::ProposeFifth {
                    points: [point(a)?, point(b)?],
                }
            } else if let Some(rest) = text.strip_prefix(ADD) {
                let (a, b) = rest.split_once(',').ok_or(NotationError::Malformed)?;
                Action::PlaceTwo {
                    points: [point(a)?, point(b)?],
                }
            } else if let Some(rest) = text.strip_prefix(DECLARE) {
                if rest.is_empty() || rest.len() > 3 || !rest.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(NotationError::Malformed);
                }
                Action::DeclareOffers {
                    count: rest.parse().map_err(|_| NotationError::Malformed)?,
                }
            } else if let Some(rest) = text.strip_prefix(OFFER) {
                let points = rest.split(',').map(point).collect::<Result<Vec<_>, _>>()?;
                Action::OfferFifths {
                    offers: Offers::new(&points).ok_or(NotationError::Malformed)?,
                }
            } else if let Some(rest) = text.strip_prefix(CHOOSE) {
                Action::ChooseFifth {
                    point: point(rest)?,
                }
            } else if text.starts_with(|c: char| c.is_ascii_alphabetic())
                && text.len() <= 3
                && text[1..].bytes().all(|b| b.is_ascii_digit())
            {
                Action::place(point(text)?)
            } else {
                return Err(NotationError::Malformed);
            }
        }
    };
    let canonical = gomoku_text(&action);
    if canonical == text {
        Ok(action)
    } else {
        Err(NotationError::NotCanonical { canonical })
    }
}
