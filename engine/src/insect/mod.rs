//! The insect chess (昆虫棋) computer: a searcher over [`rules::insect`], judged only by it.
//!
//! - `board.rs` keeps the engine's own position (two 128-bit boards, each insect's square, a Zobrist key)
//!   mirroring the rules' move rules, so that the search allocates nothing per node; a test holds its moves and
//!   keys to the rules' through random games, and every root move is checked against `Game::legal_moves`.
//! - The search is iterative deepening negamax with alpha-beta (PVS), a transposition table, move ordering
//!   (hash move, captures by victim, killers, history, approach to the enemy's food), a food-threat extension
//!   and a capture search. Repetition and the 100-ply rule are draws inside the tree, so the engine avoids them
//!   when ahead and steers into them when behind.
//! - The evaluation weighs material by kind with the strength cycle in mind, distance to the enemy's food, the
//!   guard around one's own food, pieces stranded in the enemy's mud, and mobility.
//! - [`Level`] 1–4 mixes depth, nodes, evaluation, capture search and noise. Every level takes a food it can
//!   reach at once and stops an enemy one step from its own food when it can.
//!
//! Deterministic for a seed when limited by nodes; the time budget and the cancel flag only cut a search short.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::Duration;
//! use engine::insect::{Engine, Level};
//! use rules::insect::Game;
//! let game = Game::new();
//! let mut engine = Engine::new(7);
//! let mv = engine
//!     .choose(&game, Level::new(2), Duration::from_millis(200), &AtomicBool::new(false))
//!     .unwrap();
//! assert!(game.legal_moves().contains(&mv));
//! let report = engine.last_report().unwrap();
//! assert_eq!(report.best, mv);
//! ```

mod board;
mod eval;
mod level;
mod search;
mod table;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rules::insect::{Game, Move};

use board::{splitmix, Board, MoveList, Mv};
pub use eval::Evaluation;
pub use level::Level;
use search::{Limits, RootResult, Searcher};
pub use search::{DRAW, MATE, MATE_BOUND};
use table::Table;

/// What the engine found for its last move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The move chosen.
    pub best: Move,
    /// The deepest iteration completed, in plies: 1 for a food taken by the root check, 0 when the search was
    /// cancelled before its first iteration finished (the move is then the first in the search's order).
    pub depth: i32,
    /// Nodes searched (main and capture search).
    pub nodes: u64,
    /// The chosen move's score from the mover's point of view, before noise, in the evaluation's units (a tiger
    /// beetle is worth 380, a scorpion 1,000); [`MATE`]` - n` is a win `n` plies away (a food win, the last
    /// piece taken, no move left), its negation a loss, [`DRAW`] a draw.
    pub score: i32,
    /// The principal variation, the chosen move first when it is the search's best.
    pub pv: Vec<Move>,
    /// How long it thought.
    pub elapsed: Duration,
}

impl Report {
    /// The number of plies to a win (positive) or a loss (negative) the score promises, if it is one.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score > MATE_BOUND {
            Some(MATE - self.score)
        } else if self.score < -MATE_BOUND {
            Some(-(MATE + self.score))
        } else {
            None
        }
    }
}

/// An insect chess player: its transposition table, history and noise generator, kept from move to move.
pub struct Engine {
    table: Table,
    history: Box<[[[i32; 77]; 6]; 2]>,
    rng: u64,
    report: Option<Report>,
}

impl Engine {
    /// A new engine; `seed` drives the lower levels' noise (and nothing else).
    pub fn new(seed: u64) -> Engine {
        Engine {
            table: Table::new(18),
            history: Box::new([[[0; 77]; 6]; 2]),
            rng: seed,
            report: None,
        }
    }

    /// Forgets what earlier searches learned (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        *self.history = [[[0; 77]; 6]; 2];
        self.report = None;
    }

    /// The report of the last [`Engine::choose`] or [`Engine::think`] that returned a move.
    pub fn last_report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    /// Chooses a move for the side to move, thinking at most about `budget` (and stopping as soon as `cancel` is
    /// set); `None` once the game is over. The move is always one of `game.legal_moves()`.
    ///
    /// A food the mover can step onto is taken at once. Otherwise the search deepens until the level's depth or
    /// node budget, the time budget or the cancel flag stops it; the first two iterations always finish unless
    /// cancelled (they are small), so even a tiny budget sees a threat on its own food.
    pub fn choose(
        &mut self,
        game: &Game,
        level: Level,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Move> {
        self.think(game, level, budget, cancel).map(|r| r.best)
    }

    /// As [`Engine::choose`], returning the whole [`Report`].
    pub fn think(
        &mut self,
        game: &Game,
        level: Level,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Report> {
        let started = Instant::now();
        if game.status().is_over() {
            return None;
        }
        let board = Board::from_position(game.position());
        let mut root = MoveList::new();
        board.moves(&mut root);
        let legal = game.legal_moves();
        // The rules are the judge: keep only moves they list (always all of them, as the tests check).
        let mut moves: Vec<Mv> = root
            .as_slice()
            .iter()
            .copied()
            .filter(|m| legal.contains(&m.to_move()))
            .collect();
        if moves.is_empty() {
            let best = *legal.first()?;
            return Some(self.finish(best, 0, 0, 0, vec![best], started));
        }
        if let Some(win) = board.food_win() {
            let best = win.to_move();
            return Some(self.finish(best, 1, 1, MATE - 1, vec![best], started));
        }

        let quiet = game.no_capture_plies();
        let stack = history_keys(game);
        let limits = Limits {
            nodes: level.nodes,
            deadline: started + budget,
            cancel,
        };
        let mut searcher = Searcher::new(level, &mut self.table, &mut self.history, stack, limits);
        searcher.order_root(&board, &mut moves);
        let margin = 2 * level.noise;
        // The last iteration that counts, with its depth.
        let mut last: Option<(RootResult, i32)> = None;
        for depth in 1..=level.depth {
            searcher.limits_armed = depth > 2;
            let result = searcher.root(&board, &moves, depth, quiet, margin);
            if searcher.stopped {
                // A cut iteration still counts if it finished the previous best move and found a better one.
                if let (Some((done, _)), Some(&(mv, score))) = (&last, result.scored.first()) {
                    let (previous, previous_score) = done.scored[0];
                    if previous != mv && score > previous_score && result.scored.len() > 1 {
                        last = Some((result, depth - 1));
                    }
                }
                break;
            }
            moves = result.scored.iter().map(|&(m, _)| m).collect();
            let decided = result.scored[0].1.abs() > MATE_BOUND;
            last = Some((result, depth));
            if decided && depth >= 3 {
                break;
            }
        }
        let nodes = searcher.nodes;
        let Some((RootResult { scored, pv }, depth)) = last else {
            let best = moves[0].to_move();
            return Some(self.finish(best, 0, nodes, 0, vec![best], started));
        };
        let (best, score) = self.pick(&scored, level.noise);
        let pv = if pv.first() == Some(&best) {
            pv.iter().map(|m| m.to_move()).collect()
        } else {
            vec![best.to_move()]
        };
        Some(self.finish(best.to_move(), depth, nodes, score, pv, started))
    }

    /// The best root move after noise: each score not a win or a loss gets uniform noise in `-noise..=noise`.
    fn pick(&mut self, scored: &[(Mv, i32)], noise: i32) -> (Mv, i32) {
        let (mut best, mut best_key, mut best_score) = (scored[0].0, i32::MIN, scored[0].1);
        for &(mv, score) in scored {
            let jitter = if noise > 0 && score.abs() <= MATE_BOUND {
                (splitmix(&mut self.rng) % (2 * noise as u64 + 1)) as i32 - noise
            } else {
                0
            };
            if score + jitter > best_key {
                (best, best_key, best_score) = (mv, score + jitter, score);
            }
        }
        (best, best_score)
    }

    fn finish(
        &mut self,
        best: Move,
        depth: i32,
        nodes: u64,
        score: i32,
        pv: Vec<Move>,
        started: Instant,
    ) -> Report {
        let report = Report {
            best,
            depth,
            nodes,
            score,
            pv,
            elapsed: started.elapsed(),
        };
        self.report = Some(report.clone());
        report
    }
}

/// The keys of the game's positions since its last capture, the current one last (for repetition in the tree).
fn history_keys(game: &Game) -> Vec<u64> {
    let mut board = Board::from_position(game.start());
    let mut keys = vec![board.hash];
    for &mv in game.moves() {
        let m = board.find(mv).expect("a game's moves are legal");
        board = board.play(m);
        keys.push(board.hash);
    }
    let keep = game.no_capture_plies() as usize + 1;
    keys.split_off(keys.len() - keep.min(keys.len()))
}
