//! What a brain says of a position when asked to analyse it rather than to play: a score for the side to act,
//! the best action and the line it expects ([`super::Brain::analyse`]). The server's game analysis and the
//! analysis board's engine read it.

use games::{AnyAction, AnyGame, Game};

/// A score for the side to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The search's estimate in hundredths of the game's unit (a disc, a man, the evaluation's points for
    /// Gomoku and insect chess): positive is good for the side to act.
    Units(i32),
    /// Othello's exact final disc difference under perfect play (the solver's answer).
    Exact(i32),
    /// A forced win for the side to act, proved by the search (a VCF, a mate, a solved ending).
    Win,
    /// A forced loss for the side to act.
    Loss,
}

impl Score {
    /// The same score seen by the other side.
    pub fn flipped(self) -> Score {
        match self {
            Score::Units(u) => Score::Units(-u),
            Score::Exact(d) => Score::Exact(-d),
            Score::Win => Score::Loss,
            Score::Loss => Score::Win,
        }
    }
}

/// How a game's analysis judges a move by its score's drop (`docs/engine.md`, "Computer analysis"): given by the
/// game's brain, which knows its units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judging {
    /// What a drop of [`Score::Units`] is called (`eval_drop`, `material_loss`) and the drops, in hundredths of
    /// the game's unit, from which a move is an inaccuracy, a mistake and a blunder; `None` when the units mean
    /// nothing to a player (Gomoku: judged by its threats alone).
    pub drop: Option<(&'static str, [i32; 3])>,
    /// The same for [`Score::Exact`] drops (Othello's discs against the solver), called `disc_loss`.
    pub exact: [i32; 3],
    /// The score (in hundredths of the unit) the evaluation graph draws at half its height.
    pub scale: f64,
}

impl Judging {
    /// Judged by proved wins and losses only.
    pub const THREATS_ONLY: Judging = Judging {
        drop: None,
        exact: [2, 4, 8],
        scale: 2_000.0,
    };
}

/// A brain's analysis of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score for the side to act.
    pub score: Score,
    /// The action the brain would take (always one the game accepts now).
    pub best: AnyAction,
    /// The expected line, `best` first; every action of it plays in turn (cut where one would not).
    pub pv: Vec<AnyAction>,
    /// How deep the search went (plies; the empty squares when Othello's solver answered).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Gomoku: the side to act has a victory by continuous fours (a VCF), found by the threat search.
    pub vcf: bool,
}

/// The longest prefix of `line` that plays from `game`, one action after the other.
pub fn legal_line(game: &AnyGame, line: impl IntoIterator<Item = AnyAction>) -> Vec<AnyAction> {
    let mut position = game.clone();
    let mut kept = Vec::new();
    for action in line {
        if position.apply(action.clone()).is_err() {
            break;
        }
        kept.push(action);
    }
    kept
}

/// The longest line a brain reports.
pub const MAX_LINE: usize = 12;

/// A position with exactly one legal action (Othello's pass, a forced draughts capture) is analysed after it: a
/// search answers such positions at once and scores them 0. `analyse` is the brain's own analysis; this plays
/// the forced actions (at most `MAX_FORCED` in a row) and turns the answer back to the side to act here.
pub(super) fn through_forced(
    game: &AnyGame,
    analyse: impl FnMut(&AnyGame) -> Option<Evaluation>,
) -> Option<Evaluation> {
    through_forced_to(game, |_, _| None, analyse)
}

/// [`through_forced`], with the score of a game the forced actions finish for a side (`final_score`, as
/// [`super::Brain::final_score`] gives it; its `None` leaves the result: a win, a loss, a draw).
pub(super) fn through_forced_to(
    game: &AnyGame,
    final_score: impl Fn(&AnyGame, rules::Color) -> Option<Score>,
    mut analyse: impl FnMut(&AnyGame) -> Option<Evaluation>,
) -> Option<Evaluation> {
    const MAX_FORCED: usize = 16;
    let mut position = game.clone();
    let mut forced = Vec::new();
    let me = game.to_act()?;
    while forced.len() < MAX_FORCED {
        let legal = position.legal_actions();
        if legal.len() != 1 {
            break;
        }
        let action = legal.into_iter().next()?;
        position.apply(action.clone()).ok()?;
        forced.push(action);
        if position.status().is_over() {
            break;
        }
    }
    let Some(first) = forced.first().cloned() else {
        return analyse(game);
    };
    let (score, pv_rest, depth, nodes, vcf) = match position.to_act() {
        None if final_score(&position, me).is_some() => {
            let score = final_score(&position, me)?;
            (score, Vec::new(), 0, 0, false)
        }
        None => {
            let winner = position.status().outcome().and_then(|o| o.winner);
            let score = match winner {
                Some(w) if w == me => Score::Win,
                Some(_) => Score::Loss,
                None => Score::Units(0),
            };
            (score, Vec::new(), 0, 0, false)
        }
        Some(side) => {
            let inner = analyse(&position)?;
            let score = if side == me {
                inner.score
            } else {
                inner.score.flipped()
            };
            (score, inner.pv, inner.depth, inner.nodes, false)
        }
    };
    let mut pv = forced;
    pv.extend(pv_rest);
    pv.truncate(MAX_LINE);
    Some(Evaluation {
        score,
        best: first,
        pv: legal_line(game, pv),
        depth,
        nodes,
        vcf,
    })
}
