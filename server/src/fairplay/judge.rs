//! One game's moves against the engine's choices, per colour (`docs/fairplay.md`): every position from the end
//! of the book on is analysed by the game's analysis brain (`crate::analysis::runner::brain_for`, its
//! `Brain::analyse`), and every move that was a choice is counted: a top-1 match when it is the engine's best,
//! a top-3 match when it is that or loses no more than the near margin, and its evaluation loss.
//!
//! A move counts (is *judged*) when it is a move (no opening decision, no pass), past the book, not forced (the
//! position had more than one legal action), and played in a position the engine did not already see decided (a
//! proved win or loss: there the moves are obvious, or do not matter).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use engine::brain::{Brain, Evaluation, Judging, Score};
use games::{AnyAction, AnyConfig, AnyGame, Game, GameConfig, GameKind};
use rules::Color;

/// How one colour's moves of one game agreed with the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Moves that counted.
    pub judged: u32,
    /// Of those, the engine's best.
    pub top1: u32,
    /// Of those, the engine's best or within the near margin of it.
    pub top3: u32,
    /// Evaluation loss summed over `loss_moves` moves (hundredths of the game's unit, each capped at
    /// [`loss_cap`]; a move into a proved loss loses the cap, one into a proved win nothing).
    pub loss_sum: i64,
    /// Judged moves whose loss is summed (all of them).
    pub loss_moves: u32,
}

/// The plies of each game's book: moves before it are never judged (openings are learnt by heart).
pub fn book_plies(kind: GameKind) -> u32 {
    match kind {
        GameKind::Gomoku => 6,
        GameKind::Othello => 8,
        GameKind::Draughts => 8,
        GameKind::Insect => 6,
    }
}

/// The largest loss, in hundredths of the game's unit, a move may lose and still be a top-3 match (the brain
/// answers one line, not three: a move as good as the best within a tenth of the game's graph scale stands
/// for the next choices; against Othello's exact solver, a move that keeps the exact score).
pub fn near_margin(judging: &Judging, exact: bool) -> i64 {
    if exact {
        0
    } else {
        (judging.scale / 10.0) as i64
    }
}

/// The most a single move adds to the loss sum (a blunder counts, but does not drown the average).
pub fn loss_cap(judging: &Judging) -> i64 {
    (judging.scale * 2.0) as i64
}

/// A score as `side` sees it, in hundredths of a unit, or a decided game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Won,
    Lost,
    Units { value: i64, exact: bool },
}

fn seen(score: Score, to_act: Color, side: Color) -> Seen {
    let score = if to_act == side {
        score
    } else {
        score.flipped()
    };
    match score {
        Score::Win => Seen::Won,
        Score::Loss => Seen::Lost,
        Score::Units(u) => Seen::Units {
            value: i64::from(u),
            exact: false,
        },
        Score::Exact(d) => Seen::Units {
            value: i64::from(d) * 100,
            exact: true,
        },
    }
}

/// The positions of a game from its start; `None` when an action does not replay.
pub fn positions(config: AnyConfig, actions: &[AnyAction]) -> Option<Vec<AnyGame>> {
    let mut game = AnyGame::new(config, crate::stored::first_seat(config));
    let mut all = Vec::with_capacity(actions.len() + 1);
    all.push(game.clone());
    for action in actions {
        game.apply(action.clone()).ok()?;
        all.push(game.clone());
    }
    Some(all)
}

/// Judges a game's moves with `brain` at `budget` a position: the tallies of black and of white (indexed by
/// `Color::Black as usize`… through [`index`]); `None` when cancelled or when the game does not replay.
pub fn judge_game(
    config: AnyConfig,
    actions: &[AnyAction],
    brain: &mut dyn Brain,
    budget: Duration,
    cancel: &AtomicBool,
) -> Option<[Tally; 2]> {
    let kind = config.kind();
    let judging = crate::analysis::judge::judging(kind);
    let games = positions(config, actions)?;
    let book = book_plies(kind);
    // Positions from the book on are analysed once each: position `i + 1` is the "after" of move `i`.
    let mut evals: Vec<Option<Evaluation>> = Vec::with_capacity(games.len());
    for game in &games {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let wanted = game.ply() + 1 >= book && !game.status().is_over();
        evals.push(if wanted {
            brain.analyse(game, budget, cancel)
        } else {
            None
        });
    }
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let mut tallies = [Tally::default(); 2];
    for (i, action) in actions.iter().enumerate() {
        let (before, after) = (&games[i], &games[i + 1]);
        let Some(me) = before.to_act() else { continue };
        if !AnyGame::is_move(action) || before.ply() < book || before.legal_actions().len() <= 1 {
            continue;
        }
        let Some(eval) = &evals[i] else { continue };
        let Seen::Units {
            value: was,
            exact: was_exact,
        } = seen(eval.score, me, me)
        else {
            // Decided already: the moves are obvious, or do not matter.
            continue;
        };
        let tally = &mut tallies[index(me)];
        tally.judged += 1;
        let top1 = &eval.best == action;
        tally.top1 += u32::from(top1);
        // The position after, as the mover sees it: the engine's score, or the result once over.
        let now = match (&evals[i + 1], after.to_act()) {
            (Some(e), Some(to_act)) => seen(e.score, to_act, me),
            _ => match after.status().outcome().map(|o| o.winner) {
                Some(Some(w)) if w == me => Seen::Won,
                Some(Some(_)) => Seen::Lost,
                _ => Seen::Units {
                    value: 0,
                    exact: was_exact,
                },
            },
        };
        let loss = match now {
            Seen::Units { value, .. } => (was - value).clamp(0, loss_cap(&judging)),
            Seen::Won => 0,
            Seen::Lost => loss_cap(&judging),
        };
        tally.loss_sum += loss;
        tally.loss_moves += 1;
        let near = loss <= near_margin(&judging, was_exact);
        tally.top3 += u32::from(top1 || near);
    }
    Some(tallies)
}

/// The index of a colour's tally: black's 0 (as the store lists rating changes), white's 1.
pub fn index(colour: Color) -> usize {
    match colour {
        Color::Black => 0,
        Color::White => 1,
    }
}
