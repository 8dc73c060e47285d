//! The room's current (or last) game: the game itself (any game, through the seam), its clock, who took each
//! action, and its result.

use std::time::Instant;

use games::{AnyAction, AnyConfig, AnyGame, Game, Seat};
use protocol::{Clocks, GameResult};
use rules::Color;
use store::{GameId, SeatsAtEnd};

use super::{GameClock, Pairing, RatedPlay};

/// The current (or last) game of the room.
pub(super) struct Live {
    pub(super) id: GameId,
    /// The game's public id (links to its record).
    pub(super) public_id: String,
    /// The game. Every question about it (who acts, who holds which colour, what was played) is asked of it.
    pub(super) game: AnyGame,
    /// The seat that held the first colour when the game began: the store names the players by the colours
    /// they started with, and [`Live::seats_at_end`] compares the game's answer now with it.
    pub(super) start: Seat,
    pub(super) clock: Option<GameClock>,
    /// The seat that took each action.
    pub(super) actors: Vec<usize>,
    pub(super) result: Option<GameResult>,
    /// Whether the result may change ratings (stored with the game).
    pub(super) rated: bool,
    /// In a rated room, why this game will not change ratings.
    pub(super) unrated: Option<&'static str>,
    /// Its place in the repeated-pairing count, given back when it is aborted.
    pub(super) pairing: Option<Pairing>,
    /// A rated game's players counted as playing one while it runs (dropped when it ends).
    pub(super) rated_play: Option<RatedPlay>,
    /// When the last action was taken (or the game started): how long the side to act has been idle.
    pub(super) last_action: Instant,
}

/// A room's seat (0 or 1) as the seam names it.
pub(super) fn seat(index: usize) -> Seat {
    if index == 0 {
        Seat::Zero
    } else {
        Seat::One
    }
}

/// A new game under `config` in which seat 0 starts with `seat0`: the game says which colour moves first, so
/// the seat that holds it follows from its answer.
pub(super) fn new_game(config: AnyConfig, seat0: Color) -> AnyGame {
    let game = AnyGame::new(config, Seat::Zero);
    if game.colour_of(Seat::Zero) == seat0 {
        game
    } else {
        AnyGame::new(config, Seat::One)
    }
}

impl Live {
    /// The colour a seat holds now (the game's answer: it follows every swap).
    pub(super) fn colour_of(&self, seat: usize) -> Color {
        self.game.colour_of(self::seat(seat))
    }

    /// The seat that holds a colour now.
    pub(super) fn seat_of(&self, colour: Color) -> usize {
        self.game.seat_of(colour).index()
    }

    /// Who holds which colour now, relative to the colours the players started with (what the store records
    /// with the result).
    pub(super) fn seats_at_end(&self) -> SeatsAtEnd {
        if self.game.first_seat() == self.start {
            SeatsAtEnd::AsStarted
        } else {
            SeatsAtEnd::Exchanged
        }
    }

    pub(super) fn running(&self) -> bool {
        self.result.is_none()
    }

    pub(super) fn to_act(&self) -> Option<Color> {
        self.running().then(|| self.game.to_act()).flatten()
    }

    pub(super) fn clocks(&self, now: Instant) -> Option<Clocks> {
        self.clock.as_ref().map(|c| Clocks {
            black: c.view(self.seat_of(Color::Black), now),
            white: c.view(self.seat_of(Color::White), now),
            running: c.running().map(|s| self.colour_of(s)),
        })
    }

    /// Moves made as the game counts them (stones placed in Gomoku): the `ply` of the wire and of offers.
    pub(super) fn ply(&self) -> u32 {
        self.game.ply()
    }

    /// The action that made move number `index` (zero-based; see [`Game::is_move`]), with its actor.
    pub(super) fn move_action(&self, index: usize) -> Option<(AnyAction, usize)> {
        self.game
            .actions()
            .into_iter()
            .zip(self.actors.iter().copied())
            .filter(|(a, _)| AnyGame::is_move(a))
            .nth(index)
    }

    /// The action accepted at `index` (zero-based, among all actions), with its actor.
    pub(super) fn action_at(&self, index: usize) -> Option<(AnyAction, usize)> {
        let actor = *self.actors.get(index)?;
        self.game
            .actions()
            .into_iter()
            .nth(index)
            .map(|a| (a, actor))
    }
}
