//! The computer player: iterative deepening over the midgame search, then, with few enough empty squares, the
//! exact solver; noise at the low levels; always a legal move.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rules::othello::{Move, Position, Square};

use super::board::{moves, squares};
use super::endgame::Solver;
use super::eval::WEIGHTS;
use super::level::Level;
use super::search::{RootMove, Searcher, INFINITY};
use super::table::Table;

/// What the engine thinks of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The midgame search's score for the side to move, in hundredths of a disc. Beyond ±15,000 the search saw
    /// the game's end: 20,000 plus a hundred times the disc difference is a forced win, its negative a loss.
    Heuristic(i32),
    /// The exact final disc difference for the side to move under perfect play (empty squares to the winner).
    Exact(i32),
}

/// The engine's answer: the move, and what the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The chosen move (a pass when the side to move has none).
    pub best: Move,
    /// The score of the position for the side to move, as the search saw it.
    pub evaluation: Evaluation,
    /// The last completed midgame iteration (plies), or the empty squares when solved exactly.
    pub depth: u32,
    /// Positions visited (midgame and solver).
    pub nodes: u64,
    /// The expected line from the position, the chosen move first (as far as the tables hold it).
    pub pv: Vec<Move>,
    /// The time spent.
    pub elapsed: Duration,
}

/// An exact solution (see [`Engine::solve`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final disc difference for the side to move under perfect play (empty squares to the winner).
    pub score: i32,
    /// A best move (a pass when there is none to play; `None` when the game is over).
    pub best: Option<Move>,
    /// The expected line.
    pub pv: Vec<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// An Othello computer: its transposition tables (kept between moves of a game) and its random numbers.
pub struct Engine {
    mid: Table,
    end: Table,
    table_bits: u32,
    rng: u64,
}

impl Engine {
    /// An engine whose random choices (the low levels' noise) follow `seed`.
    pub fn new(seed: u64) -> Engine {
        Engine {
            mid: Table::new(2),
            end: Table::new(2),
            table_bits: 0,
            rng: seed,
        }
    }

    fn tables(&mut self, bits: u32) {
        if self.table_bits != bits {
            self.mid = Table::new(bits);
            self.end = Table::new(bits + 1);
            self.table_bits = bits;
        }
    }

    fn random(&mut self) -> u64 {
        // SplitMix64.
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The move `level` plays in `position` within `budget` (and the level's own time cap), or `None` when
    /// the game is over. Stops early, with the best move found so far, when `cancel` is set.
    pub fn choose(
        &mut self,
        position: &Position,
        level: Level,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Move> {
        self.think(position, level, budget, cancel).map(|r| r.best)
    }

    /// Like [`Engine::choose`], with the search's findings. The move is always legal: a pass exactly when the
    /// side to move has no move.
    pub fn think(
        &mut self,
        position: &Position,
        level: Level,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Report> {
        let start = Instant::now();
        let settings = level.settings();
        let time = budget.min(settings.time);
        let deadline = start + time;
        let (player, opponent) = position.sides();
        let mine = moves(player, opponent);
        if mine == 0 {
            if moves(opponent, player) == 0 {
                return None;
            }
            return Some(Report {
                best: Move::Pass,
                evaluation: Evaluation::Heuristic(0),
                depth: 0,
                nodes: 0,
                pv: vec![Move::Pass],
                elapsed: start.elapsed(),
            });
        }
        self.tables(settings.table_bits);
        let empties = (!(player | opponent)).count_ones();
        // Solving takes about a second of one core at 20 empty squares, and each more square multiplies it by
        // two to three: with less time, solve from fewer squares rather than fail and lose the midgame's time.
        let affordable = (time.as_secs_f64() / 0.25).log2().floor().max(-30.0) as i64 + 18;
        let solve = i64::from(empties) <= i64::from(settings.solve).min(affordable);

        // The midgame search: the whole answer, or the fallback (and a quick look) before solving.
        let (mid_deadline, max_depth) = if solve {
            (start + time / 5, settings.depth.min(8))
        } else {
            (deadline, settings.depth)
        };
        let max_depth = max_depth.min(empties).max(1);
        let noise = settings.noise;
        let mut list = Searcher::root_moves(player, opponent);
        let mut searcher = Searcher::new(&mut self.mid, &WEIGHTS, None, cancel);
        let mut completed = 0;
        let mut partial: Option<RootMove> = None;
        for depth in 1..=max_depth {
            if depth > 1 {
                if start.elapsed() * 2 > mid_deadline.saturating_duration_since(start) {
                    break;
                }
                // Depth 1 always completes; from then on the clock and the cancel flag stop the search.
                searcher.deadline = Some(mid_deadline);
            }
            if searcher.root(player, opponent, depth, &mut list, noise > 0) {
                completed = depth;
                if list[0].score.abs() > super::eval::MAX_EVAL && noise == 0 {
                    // The end of the game is in sight along the best line: deeper will not change it.
                    if list[0].score > 0 {
                        break;
                    }
                }
            } else {
                // A stopped iteration: its first move is the last best; any completed move that beat it counts.
                if list[0].depth == depth {
                    partial = list
                        .iter()
                        .filter(|m| m.depth == depth)
                        .max_by_key(|m| m.score)
                        .copied();
                }
                break;
            }
        }
        let mut nodes = searcher.nodes;
        let mut chosen = match partial {
            Some(m) if noise == 0 => m,
            _ => list[0],
        };
        let mut score = if completed > 0 || partial.is_some() {
            chosen.score
        } else {
            0
        };
        if noise > 0 && completed > 0 {
            let mut best = -INFINITY * 2;
            for m in list.clone() {
                let blurred = m.last + (self.random() % (2 * noise as u64 + 1)) as i32 - noise;
                if blurred > best {
                    best = blurred;
                    chosen = m;
                }
            }
            score = chosen.last;
        }
        let mut evaluation = Evaluation::Heuristic(score);
        let mut depth = completed;
        let searcher = Searcher::new(&mut self.mid, &WEIGHTS, None, cancel);
        let mut pv: Vec<Move> = std::iter::once(Some(chosen.square))
            .chain({
                let flipped = super::board::flips(player, opponent, chosen.square);
                let (p, o) = (player | flipped | (1 << chosen.square), opponent & !flipped);
                searcher.principal_variation(o, p, completed.saturating_sub(1))
            })
            .map(to_move)
            .collect();

        if solve && !cancel.load(Ordering::Relaxed) && Instant::now() < deadline {
            let mut solver = Solver::new(&mut self.end, Some(deadline), cancel);
            let solved = solver.solve_exact(player, opponent, Some(chosen.square));
            nodes += solver.nodes;
            if let Some((exact, Some(square))) = solved {
                chosen.square = square;
                evaluation = Evaluation::Exact(exact);
                depth = empties;
                pv = solver
                    .principal_variation(player, opponent)
                    .into_iter()
                    .map(to_move)
                    .collect();
            }
        }

        let mut best = to_move(Some(chosen.square));
        if position.play(best).is_err() {
            // Never expected; but the caller must get a legal move whatever happened above.
            best = to_move(squares(mine).next());
        }
        if pv.first() != Some(&best) {
            pv = vec![best];
        }
        Some(Report {
            best,
            evaluation,
            depth,
            nodes,
            pv,
            elapsed: start.elapsed(),
        })
    }

    /// The exact solution of `position` (its final disc difference under perfect play, and a best move),
    /// within `budget` if given; `None` if the budget ran out or `cancel` was set first. Each empty square
    /// roughly doubles the work: about 20 empty squares take a second.
    pub fn solve(
        &mut self,
        position: &Position,
        budget: Option<Duration>,
        cancel: &AtomicBool,
    ) -> Option<Solution> {
        let start = Instant::now();
        self.tables(Level::MAX.settings().table_bits);
        let (player, opponent) = position.sides();
        let mut solver = Solver::new(&mut self.end, budget.map(|b| start + b), cancel);
        let (score, best) = solver.solve_exact(player, opponent, None)?;
        let game_over = moves(player, opponent) == 0 && moves(opponent, player) == 0;
        let pv: Vec<Move> = solver
            .principal_variation(player, opponent)
            .into_iter()
            .map(to_move)
            .collect();
        Some(Solution {
            score,
            best: if game_over { None } else { Some(to_move(best)) },
            pv,
            nodes: solver.nodes,
        })
    }
}

/// A square index as a move; `None` is a pass.
fn to_move(square: Option<u8>) -> Move {
    square.and_then(Square::new).map_or(Move::Pass, Move::Place)
}
