//! A game from the start position: its moves, checked one by one, with undo.

use super::position::{IllegalMove, Move, Position, PositionStatus};
use super::square::Square;
use crate::Color;

/// What an accepted move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Who moved.
    pub colour: Color,
    /// The move.
    pub mv: Move,
    /// The discs it flipped, in index order (none for a pass).
    pub flipped: Vec<Square>,
}

/// A game of Othello from the start position. It changes only through [`Game::play`] and [`Game::undo`], so it
/// is always a legal game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    position: Position,
    moves: Vec<Move>,
    /// The position before each move, for undo.
    before: Vec<Position>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A new game: the start position, black to move.
    pub fn new() -> Game {
        Game {
            position: Position::start(),
            moves: Vec::new(),
            before: Vec::new(),
        }
    }

    /// A game replayed from its moves; the first illegal one is refused with its index (zero-based).
    pub fn from_moves(moves: &[Move]) -> Result<Game, (usize, IllegalMove)> {
        let mut game = Game::new();
        for (index, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|e| (index, e))?;
        }
        Ok(game)
    }

    /// The position now.
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// Where the game stands.
    pub fn status(&self) -> PositionStatus {
        self.position.status()
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        matches!(self.status(), PositionStatus::Over(_))
    }

    /// The colour to act, or `None` once over.
    pub fn to_act(&self) -> Option<Color> {
        (!self.is_over()).then(|| self.position.to_move())
    }

    /// The accepted moves, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Discs placed so far (passes do not count).
    pub fn discs_placed(&self) -> usize {
        self.moves
            .iter()
            .filter(|m| matches!(m, Move::Place(_)))
            .count()
    }

    /// Plays a move for the side to move.
    pub fn play(&mut self, mv: Move) -> Result<Played, IllegalMove> {
        let (after, flipped) = self.position.play(mv)?;
        let colour = self.position.to_move();
        self.before.push(self.position);
        self.moves.push(mv);
        self.position = after;
        Ok(Played {
            colour,
            mv,
            flipped: flipped.to_vec(),
        })
    }

    /// Plays a move for a colour: [`IllegalMove::NotYourTurn`] when the other colour is to move (and
    /// [`IllegalMove::GameOver`] once over, whoever asks).
    pub fn play_as(&mut self, colour: Color, mv: Move) -> Result<Played, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if colour != self.position.to_move() {
            return Err(IllegalMove::NotYourTurn);
        }
        self.play(mv)
    }

    /// Takes back the last move and returns it; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        if let Some(before) = self.before.pop() {
            self.position = before;
        }
        Some(mv)
    }
}
