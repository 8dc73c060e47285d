//! The computer player: iterative deepening over the search, noise at the low levels, always a legal move.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rules::draughts::{Game, Move, Position};

use super::board::{bit_of, Board, Mv};
use super::level::Level;
use super::search::{Counters, RootMove, Searcher, Table, INFINITY, WON};

/// The engine's answer: the move, and what the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The chosen move.
    pub best: Move,
    /// The score for the side to move in hundredths of a man; beyond ±29,000 a forced win (positive) or loss
    /// found by the search, 30,000 less the plies to the end.
    pub score: i32,
    /// The last completed iteration (plies; 0 when the move was the only one and nothing was searched).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line, the chosen move first (as far as the table holds it).
    pub pv: Vec<Move>,
    /// The time spent.
    pub elapsed: Duration,
}

/// A draughts computer: its transposition table (kept between the moves of a game) and its random numbers.
pub struct Engine {
    table: Table,
    table_bits: u32,
    rng: u64,
}

impl Engine {
    /// An engine whose random choices (the low levels' noise) follow `seed`.
    pub fn new(seed: u64) -> Engine {
        Engine {
            table: Table::new(2),
            table_bits: 2,
            rng: seed,
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

    /// The move `level` plays in `game` within `budget` (and the level's own time cap), or `None` when the game
    /// is over. Stops early, with the best move found so far, when `cancel` is set.
    pub fn choose(
        &mut self,
        game: &Game,
        level: Level,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Move> {
        self.think(game, level, budget, cancel).map(|r| r.best)
    }

    /// Like [`Engine::choose`], with the search's findings. The game's history counts: a line that repeats one
    /// of its positions, or reaches the 25-move rule or an endgame limit, is scored as the draw it is.
    pub fn think(
        &mut self,
        game: &Game,
        level: Level,
        budget: Duration,
        cancel: &AtomicBool,
    ) -> Option<Report> {
        if game.status().is_over() {
            return None;
        }
        let start = Instant::now();
        let settings = level.settings();
        let time = budget.min(settings.time);
        let position = game.position();
        let legal = position.legal_moves();
        let board = Board::from_position(position);
        let mut list = Searcher::root_moves(&board);
        if list.len() <= 1 || legal.len() <= 1 {
            // One move (a forced capture, most often): nothing to think about.
            let best = legal.into_iter().next()?;
            return Some(Report {
                pv: vec![best.clone()],
                best,
                score: 0,
                depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
            });
        }
        if self.table_bits != settings.table_bits {
            self.table = Table::new(settings.table_bits);
            self.table_bits = settings.table_bits;
        }
        if let Some(k) = self.table.best(board.hash) {
            if k < list.len() {
                list.swap(0, k);
            }
        }
        let counters = Counters::of(game.counters());
        let history = history(game, counters.king_plies as usize);
        let noise = settings.noise;
        let mut searcher = Searcher::new(&mut self.table, history, cancel);
        let mut completed = 0;
        let mut last: Vec<RootMove> = Vec::new();
        let mut partial: Option<RootMove> = None;
        for depth in 1..=settings.depth {
            if depth > 1 {
                if start.elapsed() * 2 > time {
                    break;
                }
                // Depth 1 always completes (unless cancelled); from then on the clock stops the search too.
                searcher.deadline = Some(start + time);
            }
            if searcher.root(&board, counters, depth, &mut list, noise > 0) {
                completed = depth;
                last = list.clone();
                if noise == 0 && list[0].score > WON {
                    // A forced win along the best line: deeper will not change it.
                    break;
                }
            } else {
                // A stopped iteration: its first move is the last best; any finished move that beat it counts.
                partial = list
                    .iter()
                    .filter(|m| m.depth == depth)
                    .max_by_key(|m| m.score)
                    .copied()
                    .filter(|m| {
                        last.first()
                            .is_none_or(|b| m.score >= b.score || m.mv == b.mv)
                    });
                break;
            }
        }
        let nodes = searcher.nodes;
        let mut chosen = match (partial, last.first()) {
            (Some(m), _) if noise == 0 => m,
            (_, Some(&m)) => m,
            _ => list[0],
        };
        if noise > 0 && !last.is_empty() {
            let mut best = -2 * INFINITY;
            for m in last {
                let blurred = m.score + (self.random() % (2 * noise as u64 + 1)) as i32 - noise;
                if blurred > best {
                    best = blurred;
                    chosen = m;
                }
            }
        }
        let score = if completed > 0 || partial.is_some() {
            chosen.score
        } else {
            0
        };
        let best = find(&legal, chosen.mv).unwrap_or_else(|| legal[0].clone());
        let pv = self.line(position, &board, &best, chosen.mv);
        Some(Report {
            best,
            score,
            depth: completed,
            nodes,
            pv,
            elapsed: start.elapsed(),
        })
    }

    /// The expected line from the table, the chosen move first.
    fn line(&self, position: &Position, board: &Board, best: &Move, mv: Mv) -> Vec<Move> {
        let mut pv = vec![best.clone()];
        let (Ok(mut p), mut b) = (position.play(best), board.play(mv)) else {
            return pv;
        };
        let mut moves = Vec::new();
        while pv.len() < 16 {
            let Some(k) = self.table.best(b.hash) else {
                break;
            };
            b.generate(&mut moves);
            let Some(&next) = moves.get(k) else {
                break;
            };
            let Some(m) = find(&p.legal_moves(), next) else {
                break;
            };
            let Ok(after) = p.play(&m) else {
                break;
            };
            pv.push(m);
            p = after;
            b = b.play(next);
        }
        pv
    }
}

/// The listed move that an engine move is.
fn find(legal: &[Move], mv: Mv) -> Option<Move> {
    legal
        .iter()
        .find(|m| {
            bit_of(m.from()) == mv.from
                && bit_of(m.to()) == mv.to
                && m.captured()
                    .iter()
                    .fold(0u64, |acc, s| acc | 1 << bit_of(s))
                    == mv.captured
        })
        .cloned()
}

/// The keys of the game's last `plies` positions before the current one, oldest first: those a line from here
/// can repeat (only positions since the last man move or capture can).
fn history(game: &Game, plies: usize) -> Vec<u64> {
    let moves = game.moves();
    let from = moves.len().saturating_sub(plies);
    let mut position = *game.start();
    let mut keys = Vec::with_capacity(plies);
    for (i, mv) in moves.iter().enumerate() {
        if i >= from {
            keys.push(Board::from_position(&position).hash);
        }
        match position.play(mv) {
            Ok(next) => position = next,
            Err(_) => break,
        }
    }
    keys
}
