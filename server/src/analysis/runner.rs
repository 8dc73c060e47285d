//! One analysis: every position of a stored game evaluated by its game's strongest brain, then every move
//! judged. Runs on a thread of its own (`Analyses` starts it) at the lowest scheduling priority, so that
//! the rooms and the computer opponent's search threads go first.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use engine::brain::{self, Evaluation};
use games::{AnyAction, AnyConfig, AnyGame, Game, GameKind};
use rules::Color;

use super::judge::{self, MoveSeen, Seen};
use super::report::{Analysis, MoveJudgment, PositionEval, ScoreView};

/// What the job needs of a game: its configuration and actions, read from the record.
pub struct Task {
    /// The game's kind.
    pub kind: GameKind,
    /// Its configuration.
    pub config: AnyConfig,
    /// Its actions in order.
    pub actions: Vec<AnyAction>,
}

/// The brain an analysis uses for a game: its list's first (the strongest), at its top level; `None` when the
/// game has only the random one.
pub fn brain_for(kind: GameKind) -> Option<(Box<dyn brain::Brain>, String)> {
    let info = brain::brains(kind).first()?;
    if info.name == brain::RandomBrain::NAME {
        return None;
    }
    let level = *info.levels.end();
    let made = (info.make)(level, 0x5eed_a11a);
    Some((made, format!("{} {level}", info.name)))
}

/// Lowers the calling thread's scheduling priority as far as it goes (Linux: a thread's own nice value).
pub fn lowest_priority() {
    // SAFETY: setpriority only reads its arguments; `0` names the calling thread on Linux.
    #[cfg(target_os = "linux")]
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// The positions of a game from its start, each with who acts there; `None` when an action does not replay.
fn positions(task: &Task) -> Option<Vec<AnyGame>> {
    let mut game = AnyGame::new(task.config, crate::stored::first_seat(task.config));
    let mut all = vec![game.clone()];
    for action in &task.actions {
        game.apply(action.clone()).ok()?;
        all.push(game.clone());
    }
    Some(all)
}

/// A finished position's score for `side`: the brain's own count where it has one (Othello's exact disc
/// difference), else the result (a win, a loss, or a draw as an even score).
fn final_seen(brain: &dyn brain::Brain, game: &AnyGame, side: Color) -> Seen {
    if let Some(score) = brain.final_score(game, side) {
        return Seen::of(score, side, side);
    }
    let Some(outcome) = game.status().outcome().cloned() else {
        return Seen::Units(0);
    };
    match outcome.winner {
        Some(w) if w == side => Seen::Win,
        Some(_) => Seen::Loss,
        None => Seen::Units(0),
    }
}

/// Runs the analysis of `task`: `None` when cancelled or when the game does not replay. `done` counts the
/// positions evaluated.
pub fn run(
    task: &Task,
    ms_per_position: u64,
    cancel: &AtomicBool,
    done: &AtomicU32,
    now_ms: i64,
) -> Option<Analysis> {
    let (mut brain, engine) = brain_for(task.kind)?;
    let games = positions(task)?;
    let budget = Duration::from_millis(ms_per_position.max(1));
    let mut evals: Vec<Option<Evaluation>> = Vec::with_capacity(games.len());
    for game in &games {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        evals.push(brain.analyse(game, budget, cancel));
        done.fetch_add(1, Ordering::Relaxed);
    }
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let first = games[0].first_colour();
    // The score of position `i` as `side` sees it.
    let seen = |i: usize, side: Color| -> Seen {
        match (&evals[i], games[i].to_act()) {
            (Some(e), Some(to_act)) => Seen::of(e.score, to_act, side),
            _ => final_seen(&*brain, &games[i], side),
        }
    };
    let positions = games
        .iter()
        .zip(&evals)
        .enumerate()
        .map(|(i, (game, eval))| PositionEval {
            ply: game.ply(),
            to_act: game.to_act().map(|c| c.as_str().to_owned()),
            first_to_act: game.to_act() == Some(first),
            score: match (eval, game.to_act()) {
                (Some(e), Some(_)) => ScoreView::from(e.score),
                _ => ScoreView::Over,
            },
            advantage: judge::advantage(task.kind, seen(i, first)),
            best: eval.as_ref().map(|e| e.best.notation()),
            line: eval
                .as_ref()
                .map(|e| e.pv.iter().map(AnyAction::notation).collect())
                .unwrap_or_default(),
            vcf: eval.as_ref().is_some_and(|e| e.vcf),
            depth: eval.as_ref().map_or(0, |e| e.depth),
        })
        .collect();
    let moves = task
        .actions
        .iter()
        .enumerate()
        .map(|(i, action)| {
            let mover = games[i].to_act();
            let best = evals[i].as_ref().map(|e| &e.best);
            let verdict = mover.filter(|_| AnyGame::is_move(action)).and_then(|me| {
                let next_to_act = games[i + 1].to_act();
                judge::judge(&MoveSeen {
                    kind: task.kind,
                    played: action,
                    best,
                    before: seen(i, me),
                    after: seen(i + 1, me),
                    had_vcf: evals[i].as_ref().is_some_and(|e| e.vcf),
                    allows_vcf: next_to_act.is_some_and(|c| c != me)
                        && evals[i + 1].as_ref().is_some_and(|e| e.vcf),
                })
            });
            MoveJudgment {
                notation: action.notation(),
                mover: mover.map(|c| c.as_str().to_owned()),
                judgment: verdict.map(|v| v.judgment),
                reason: verdict.map(|v| v.reason),
                loss: verdict.and_then(|v| v.loss),
                best: best.filter(|&b| b != action).map(AnyAction::notation),
            }
        })
        .collect();
    Some(Analysis {
        game: task.kind.as_str().to_owned(),
        engine,
        ms_per_position,
        positions,
        moves,
        created_at: now_ms,
    })
}
