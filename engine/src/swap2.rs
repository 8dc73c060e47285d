//! Swap2 from either chair, as the Gomocup managers ask it (`SWAP2BOARD`): the opener's three stones, the
//! second player's answer to them (take black, keep white and play move 4, or place two more stones), and the
//! opener's choice of colour after five. Every decision comes from the engine's own search.
//!
//! [`crate::Engine::think`] answers Swap2 inside a room's game (a swap or a keep; it never places two more),
//! where the rules track who holds which colour; [`crate::Engine::swap2`] answers from the stones alone, as
//! the brain protocol gives them, and may place two. The server could call it for its rooms too.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rules::{Action, Color, Game, Opening, Point};

use crate::position::{point, Position};
use crate::search::Budget;
use crate::{Engine, TimeBudget};

/// A Swap2 answer, for the stage given by the number of stones on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// No stones yet: the opener's three, black, white, black.
    Three([Point; 3]),
    /// Take black: after three stones the second player swaps; after five the opener keeps black. The other
    /// player, now white, plays the next stone.
    Swap,
    /// Take white and play this stone (move 4 after three stones, move 6 after five).
    Play(Point),
    /// After three stones: white's fourth and black's fifth stone, leaving the colour to the opener.
    PlaceTwo([Point; 2]),
}

/// Why there is no Swap2 answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Error {
    /// Swap2 asks only with 0, 3 or 5 stones on the board.
    Stage(usize),
    /// The stones already decide the game.
    GameOver,
}

impl fmt::Display for Swap2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Swap2Error::Stage(n) => write!(f, "swap2 asks with 0, 3 or 5 stones, not {n}"),
            Swap2Error::GameOver => f.write_str("the stones already decide the game"),
        }
    }
}

impl std::error::Error for Swap2Error {}

/// After three stones, white's prospects (its search score with white to move) beyond this margin either way
/// decide the colour at once; within it the position is close enough to even that placing two more stones,
/// and leaving the choice to the opener, costs nothing. In the engine's evaluation units, chosen by trying
/// positions: clearly better sides (two touching stones against a lone far one) score beyond it at level 8.
pub const BALANCE: i32 = 60;

impl Engine {
    /// The Swap2 answer in `game`, whose stones alternate black and white from the first (0, 3 or 5 of them,
    /// under the game's rule set and no opening rule), within `time` and the engine's limits, stopping early
    /// when `cancel` is set. Whatever it answers is legal: the stones are empty points the rules accept.
    pub fn swap2(
        &mut self,
        game: &Game,
        time: &TimeBudget,
        cancel: &AtomicBool,
    ) -> Result<Swap2Answer, Swap2Error> {
        let start = Instant::now();
        if game.status().is_over() {
            return Err(Swap2Error::GameOver);
        }
        self.use_rules(game.rules());
        let (allot, nodes) = self.allowance(time);
        let mut budget = Budget::new(nodes, Some(start + allot), cancel);
        match game.ply() {
            0 => Ok(self.three(game, &mut budget, start, allot)),
            3 => Ok(self.answer_three(game, &mut budget, start, allot)),
            5 => Ok(self.choose_colour(game, &mut budget, start, allot)),
            n => Err(Swap2Error::Stage(n)),
        }
    }

    /// The opener's stones: the centre, a touching white stone, and the black stone that leaves the position
    /// closest to even.
    fn three(
        &mut self,
        game: &Game,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Swap2Answer {
        let mut g = game.clone();
        let mut stones = [Point::centre(game.rules().size()); 3];
        for (k, stone) in stones.iter_mut().enumerate() {
            let decision = if k < 2 {
                let colour = g.stone_colour();
                self.opening_stone(&g, colour)
            } else {
                self.balanced_stone(&g, budget, start, allot)
            };
            let p = match decision.action {
                Action::Place { point } if g.check(decision.action).is_ok() => point,
                _ => first_legal(&g),
            };
            g.apply(Action::place(p)).expect("a legal stone");
            *stone = p;
        }
        Swap2Answer::Three(stones)
    }

    /// The second player's answer to three stones, judged by a search of the position with white to move.
    fn answer_three(
        &mut self,
        game: &Game,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Swap2Answer {
        let pos = Position::from_board(game.rules(), game.board());
        // A third of the time judges the position; the rest is for two balanced stones if it comes to that.
        let judge = allot / 3;
        let saved = budget.narrow(2, start + judge);
        let white = self.analyse(pos, Color::White, budget, start, judge, false);
        budget.widen(saved);
        if white.score < -BALANCE {
            return Swap2Answer::Swap;
        }
        if white.score > BALANCE {
            return Swap2Answer::Play(self.legal_best(game, white.best));
        }
        let mut g = game.clone();
        let mut two = [Point::centre(game.rules().size()); 2];
        for stone in &mut two {
            let d = self.balanced_stone(&g, budget, start, allot);
            let p = match d.action {
                Action::Place { point } if g.check(d.action).is_ok() => point,
                _ => first_legal(&g),
            };
            g.apply(Action::place(p)).expect("a legal stone");
            *stone = p;
        }
        // The rules have the last word on the two stones (a forbidden black fifth under Renju, a five).
        let mut swap2 = Game::new(game.rules().with_opening(Opening::Swap2));
        let legal = game
            .moves()
            .iter()
            .all(|&p| swap2.apply(Action::place(p)).is_ok())
            && swap2.check(Action::PlaceTwo { points: two }).is_ok()
            && !g.status().is_over();
        if legal {
            Swap2Answer::PlaceTwo(two)
        } else if white.score < 0 {
            Swap2Answer::Swap
        } else {
            Swap2Answer::Play(self.legal_best(game, white.best))
        }
    }

    /// The opener's choice after five stones: white (and move 6) when white, to move, stands at least even by
    /// the search; black otherwise.
    fn choose_colour(
        &mut self,
        game: &Game,
        budget: &mut Budget,
        start: Instant,
        allot: Duration,
    ) -> Swap2Answer {
        let pos = Position::from_board(game.rules(), game.board());
        let white = self.analyse(pos, Color::White, budget, start, allot, false);
        if white.score < 0 {
            Swap2Answer::Swap
        } else {
            Swap2Answer::Play(self.legal_best(game, white.best))
        }
    }

    /// The search's best cell as a point the rules accept in `game`, or the first legal point.
    fn legal_best(&self, game: &Game, best: Option<usize>) -> Point {
        best.map(point)
            .filter(|&p| game.check(Action::place(p)).is_ok())
            .unwrap_or_else(|| first_legal(game))
    }
}

fn first_legal(game: &Game) -> Point {
    let centre = Point::centre(game.rules().size());
    game.legal_places()
        .into_iter()
        .min_by_key(|p| centre.x().abs_diff(p.x()).max(centre.y().abs_diff(p.y())))
        .unwrap_or(centre)
}
