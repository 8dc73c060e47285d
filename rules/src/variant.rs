//! The seam for more games: what a server needs from any two-player board game it hosts.
//!
//! Gomoku and Renju ([`crate::Game`]) are the only implementation today; Othello and international draughts will
//! implement the same trait, so that a room can own "a game" without knowing which.

use crate::Color;

/// A two-player, alternating board game whose state changes only through checked actions.
pub trait TwoPlayerGame: Clone + Send + 'static {
    /// What a player can do.
    type Action: Copy + std::fmt::Debug + Send;
    /// What an accepted action did.
    type Event: std::fmt::Debug;
    /// Why an action was refused (with a stable code).
    type Illegal: Copy + std::fmt::Display + Send;

    /// The side that must act now, or `None` once the game is over.
    fn to_act(&self) -> Option<Color>;
    /// Applies an action for the side to act.
    fn apply(&mut self, action: Self::Action) -> Result<Self::Event, Self::Illegal>;
    /// Takes back the last action.
    fn undo(&mut self) -> Option<Self::Action>;
    /// The actions accepted so far.
    fn actions(&self) -> &[Self::Action];
    /// The stable code of a refusal, as sent on the wire.
    fn illegal_code(reason: Self::Illegal) -> &'static str;
}

impl TwoPlayerGame for crate::Game {
    type Action = crate::Action;
    type Event = crate::Event;
    type Illegal = crate::IllegalAction;

    fn to_act(&self) -> Option<Color> {
        crate::Game::to_act(self)
    }

    fn apply(&mut self, action: crate::Action) -> Result<crate::Event, crate::IllegalAction> {
        crate::Game::apply(self, action)
    }

    fn undo(&mut self) -> Option<crate::Action> {
        crate::Game::undo(self)
    }

    fn actions(&self) -> &[crate::Action] {
        crate::Game::actions(self)
    }

    fn illegal_code(reason: crate::IllegalAction) -> &'static str {
        reason.code()
    }
}
