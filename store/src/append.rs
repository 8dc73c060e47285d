//! The checks of [`crate::Store::append_actions`], done in memory so a batch costs a fixed number of statements.
//!
//! A batch used to cost two statements per action (read the game's next seq, then insert), each a round trip to
//! the database. Now the store reads the head of every game of the batch with one `SELECT`, [`plan`] decides
//! here what each action is (new, an identical retry, or refused), and the new rows go out in one `INSERT`
//! (SQLite: multi-row `VALUES`, one statement per [`MAX_ROWS`]; Postgres: `UNNEST` of one array per column).
//! Only a retry of an action committed by an earlier transaction needs the stored
//! text: those are read with one more `SELECT` for the whole batch, which a normal batch never sends.

use std::collections::HashMap;

use crate::{codec, GameId, StoreError, StoredAction};

/// Bind parameters one statement may use: SQLite's limit is 32,766 since 3.32 (sqlx bundles a newer one),
/// Postgres's 65,535. Kept well below both.
const MAX_BINDS: usize = 30_000;

/// Columns bound per inserted action row.
pub(crate) const ROW_BINDS: usize = 8;

/// Rows of one multi-row `INSERT` (3,750: the batch writer's largest batch, 512, always fits in one).
pub(crate) const MAX_ROWS: usize = MAX_BINDS / ROW_BINDS;

/// Games whose heads one `SELECT` reads, and retried actions one `SELECT` checks (two binds each).
pub(crate) const MAX_KEYS: usize = MAX_BINDS / 2;

/// SQLite's `SELECT` of games' heads, up to the test of `g.id` (`IN (…)`, or `= ?1` for one game); Postgres
/// reads the same column driven by an array of ids (`postgres.rs`).
pub(crate) const HEADS_SELECT: &str = "SELECT g.id AS id, \
    (SELECT COALESCE(MAX(a.seq) + 1, 0) FROM actions a WHERE a.game_id = g.id) AS next \
    FROM games g WHERE g.id ";

/// The columns of `actions`, in the order [`Row`] binds them. The `point` column of rows written before the
/// notation is no longer written: the text says it.
pub(crate) const INSERT_COLUMNS: &str = "INSERT INTO actions (game_id, seq, action, ply, used_ms, \
    remaining_black_ms, remaining_white_ms, at) ";

/// What is stored of a game when a batch starts: its next seq.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Head {
    /// One past the highest stored seq (0 for a game without actions).
    pub next: i64,
}

/// One new row of `actions`, with every column as bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub game: GameId,
    pub seq: i64,
    pub action: String,
    pub ply: Option<i64>,
    pub used_ms: i64,
    pub remaining_black_ms: Option<i64>,
    pub remaining_white_ms: Option<i64>,
    pub at: i64,
}

/// An action of the batch at a seq committed before the batch: a retry, accepted only if the stored action at
/// that seq has the same text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Retry {
    pub game: GameId,
    pub seq: i64,
    pub text: String,
}

/// What a batch writes and what it must still check against the stored rows.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    /// New rows, in batch order (so per game in seq order).
    pub rows: Vec<Row>,
    /// Retries to compare with the stored actions.
    pub retries: Vec<Retry>,
}

/// Decides what each action of `batch` is, given the heads of its games as stored (a game missing from `heads`
/// does not exist). Errors exactly as the old one-action-at-a-time loop did, in batch order: the first action
/// of an unknown game is [`StoreError::NoSuchGame`], a gap or a different action at a seq this same batch
/// already holds is [`StoreError::OutOfOrder`].
pub(crate) fn plan(
    batch: &[(GameId, StoredAction)],
    heads: &HashMap<GameId, Head>,
) -> Result<Plan, StoreError> {
    let mut current: HashMap<GameId, Head> = HashMap::with_capacity(heads.len());
    // Index into `plan.rows` of each (game, seq) this batch inserts, for a repeat inside the same batch.
    let mut inserted: HashMap<(GameId, i64), usize> = HashMap::new();
    let mut plan = Plan {
        rows: Vec::with_capacity(batch.len()),
        retries: Vec::new(),
    };
    for (game, stored) in batch {
        let stored_head = *heads.get(game).ok_or(StoreError::NoSuchGame)?;
        let head = current.entry(*game).or_insert(stored_head);
        let seq = i64::from(stored.seq);
        if seq < head.next {
            if seq >= stored_head.next {
                // Repeated within this batch: compare with the row the batch already holds.
                let row = &plan.rows[inserted[&(*game, seq)]];
                if row.action != stored.text {
                    return Err(StoreError::OutOfOrder);
                }
            } else {
                plan.retries.push(Retry {
                    game: *game,
                    seq,
                    text: stored.text.clone(),
                });
            }
            continue;
        }
        if seq > head.next {
            return Err(StoreError::OutOfOrder);
        }
        head.next += 1;
        let [remaining_black_ms, remaining_white_ms] = match stored.remaining_ms {
            Some([b, w]) => [Some(b), Some(w)],
            None => [None, None],
        };
        inserted.insert((*game, seq), plan.rows.len());
        plan.rows.push(Row {
            game: *game,
            seq,
            action: stored.text.clone(),
            ply: codec::ply_column(stored.ply),
            used_ms: stored.used_ms,
            remaining_black_ms,
            remaining_white_ms,
            at: stored.at,
        });
    }
    Ok(plan)
}

/// Checks the retries against the stored `(game, seq, action text)` rows read for them: each must find the
/// same text, or the batch is [`StoreError::OutOfOrder`].
pub(crate) fn check_retries(
    retries: &[Retry],
    stored: &HashMap<(GameId, i64), String>,
) -> Result<(), StoreError> {
    for retry in retries {
        let text = stored
            .get(&(retry.game, retry.seq))
            .ok_or(StoreError::OutOfOrder)?;
        if *text != retry.text {
            return Err(StoreError::OutOfOrder);
        }
    }
    Ok(())
}

/// The committed heads of the live games a store has written, so that a batch reads from the database only the
/// heads of games it has not seen. A store keeps one when every write of its games' actions goes through it
/// (appends and takebacks, both batch writes): it updates the cache only after a commit ([`HeadCache::committed`]:
/// a takeback's game gets the head the takeback left), and forgets a whole batch that failed, whose commit may or
/// may not have happened.
#[derive(Debug, Default)]
pub(crate) struct HeadCache(std::sync::Mutex<HashMap<GameId, Head>>);

impl HeadCache {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Head>> {
        // The map holds plain values and no invariant spans two of them: a panic elsewhere cannot leave it
        // half-updated, so a poisoned lock is still good.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The cached heads of the batch's games, and the games (once each, ascending) to read from the database.
    pub(crate) fn lookup(
        &self,
        batch: &[(GameId, StoredAction)],
    ) -> (HashMap<GameId, Head>, Vec<GameId>) {
        let mut heads = HashMap::with_capacity(batch.len());
        let mut unknown = Vec::new();
        let cache = self.map();
        for (game, _) in batch {
            match cache.get(game) {
                Some(head) => {
                    heads.insert(*game, *head);
                }
                None => unknown.push(*game),
            }
        }
        drop(cache);
        unknown.sort_unstable();
        unknown.dedup();
        (heads, unknown)
    }

    /// Records a committed batch: `heads` as it left its games' heads, its new games (from `answers`) with no
    /// actions yet, and its ended games dropped (no more appends; the cache stays as small as the live games).
    pub(crate) fn committed(
        &self,
        heads: HashMap<GameId, Head>,
        batch: &[crate::Write],
        answers: &[crate::Written],
    ) {
        let mut cache = self.map();
        cache.extend(heads);
        for answer in answers {
            if let crate::Written::Created(game) = answer {
                cache.insert(*game, Head { next: 0 });
            }
        }
        for w in batch {
            if let crate::Write::Finish(game, _) = w {
                cache.remove(game);
            }
        }
    }

    /// Forgets every game of a batch that failed.
    pub(crate) fn forget_batch(&self, batch: &[crate::Write]) {
        let mut cache = self.map();
        for w in batch {
            if let crate::Write::Append(game, _)
            | crate::Write::Finish(game, _)
            | crate::Write::Truncate(game, _) = w
            {
                cache.remove(game);
            }
        }
    }

    /// Games cached (for tests).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map().len()
    }
}

/// Moves `heads` past the rows a batch inserts (in seq order per game): the heads the batch leaves.
pub(crate) fn advance(heads: &mut HashMap<GameId, Head>, rows: &[Row]) {
    for row in rows {
        if let Some(head) = heads.get_mut(&row.game) {
            head.next = row.seq + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(seq: u32, point: &str, ply: u32) -> StoredAction {
        StoredAction {
            seq,
            text: point.to_owned(),
            ply: Some(ply),
            used_ms: 5,
            remaining_ms: Some([100, 200]),
            at: 7,
        }
    }

    fn swap(seq: u32) -> StoredAction {
        StoredAction {
            seq,
            text: "swap".to_owned(),
            ply: None,
            used_ms: 0,
            remaining_ms: None,
            at: 8,
        }
    }

    fn heads(entries: &[(GameId, i64)]) -> HashMap<GameId, Head> {
        entries
            .iter()
            .map(|&(g, next)| (g, Head { next }))
            .collect()
    }

    #[test]
    fn new_actions_of_several_games_become_rows_with_the_texts_and_plies_the_caller_gave() {
        let batch = [
            (1, place(3, "h8", 4)),
            (2, place(0, "a1", 1)),
            (1, swap(4)),
            (1, place(5, "h9", 5)),
        ];
        let plan = plan(&batch, &heads(&[(1, 3), (2, 0)])).unwrap();
        assert!(plan.retries.is_empty());
        let cols: Vec<_> = plan
            .rows
            .iter()
            .map(|r| (r.game, r.seq, r.action.as_str(), r.ply))
            .collect();
        assert_eq!(
            cols,
            [
                (1, 3, "h8", Some(4)),
                (2, 0, "a1", Some(1)),
                (1, 4, "swap", None),
                (1, 5, "h9", Some(5)),
            ]
        );
        assert_eq!(
            (
                plan.rows[0].remaining_black_ms,
                plan.rows[2].remaining_white_ms
            ),
            (Some(100), None)
        );
    }

    #[test]
    fn a_seq_already_stored_is_a_retry_to_check_and_a_repeat_inside_the_batch_is_compared_at_once()
    {
        let batch = [
            (1, place(0, "h8", 1)),
            (1, place(1, "h9", 2)),
            (1, place(1, "h9", 2)),
        ];
        let plan = plan(&batch, &heads(&[(1, 1)])).unwrap();
        assert_eq!(plan.rows.len(), 1);
        assert_eq!(
            plan.retries,
            [Retry {
                game: 1,
                seq: 0,
                text: "h8".to_owned(),
            }]
        );
        let differing = [(1, place(1, "h9", 2)), (1, place(1, "j9", 2))];
        assert_eq!(
            super::plan(&differing, &heads(&[(1, 1)])),
            Err(StoreError::OutOfOrder)
        );
    }

    #[test]
    fn a_gap_or_an_unknown_game_refuses_the_batch_in_batch_order() {
        let h = heads(&[(1, 2)]);
        assert_eq!(
            plan(&[(1, place(3, "h8", 3))], &h),
            Err(StoreError::OutOfOrder)
        );
        assert_eq!(
            plan(&[(9, place(0, "h8", 1)), (1, place(3, "h8", 3))], &h),
            Err(StoreError::NoSuchGame)
        );
        assert_eq!(
            plan(&[(1, place(3, "h8", 3)), (9, place(0, "h8", 1))], &h),
            Err(StoreError::OutOfOrder)
        );
    }

    #[test]
    fn retries_pass_only_against_the_same_stored_text() {
        let retry = Retry {
            game: 1,
            seq: 0,
            text: "h8".to_owned(),
        };
        let same = HashMap::from([((1, 0), "h8".to_owned())]);
        let other = HashMap::from([((1, 0), "a1".to_owned())]);
        assert_eq!(check_retries(std::slice::from_ref(&retry), &same), Ok(()));
        assert_eq!(
            check_retries(std::slice::from_ref(&retry), &other),
            Err(StoreError::OutOfOrder)
        );
        assert_eq!(
            check_retries(&[retry], &HashMap::new()),
            Err(StoreError::OutOfOrder)
        );
    }

    fn write_append(game: GameId, seq: u32) -> crate::Write {
        crate::Write::Append(game, place(seq, "h8", seq + 1))
    }

    #[test]
    fn head_cache_remembers_committed_heads_and_forgets_ended_and_failed_games() {
        let cache = HeadCache::default();
        let batch = vec![
            (1, place(0, "h8", 1)),
            (2, place(5, "h9", 4)),
            (1, place(1, "h10", 2)),
        ];
        let (found, unknown) = cache.lookup(&batch);
        assert!(found.is_empty());
        assert_eq!(unknown, vec![1, 2]);

        // A committed batch: game 1 moved on to seq 2, game 2 to seq 6, game 9 created, game 3 ended.
        let writes = vec![
            write_append(1, 1),
            crate::Write::Finish(
                3,
                crate::Finish {
                    end: crate::GameEnd {
                        winner: None,
                        reason: "draw".to_owned(),
                        aborted: false,
                        ended_at: 1,
                    },
                    seats: crate::SeatsAtEnd::AsStarted,
                    rater: crate::Rater(ratings::glicko2::rate_game),
                },
            ),
        ];
        let answers = vec![crate::Written::Appended, crate::Written::Created(9)];
        cache.committed(heads(&[(1, 2), (2, 6), (3, 10)]), &writes, &answers);
        assert_eq!(cache.len(), 3);
        let (found, unknown) = cache.lookup(&[
            (1, place(2, "a1", 3)),
            (9, place(0, "a2", 1)),
            (4, place(0, "a3", 1)),
        ]);
        assert_eq!(found, heads(&[(1, 2), (9, 0)]));
        assert_eq!(unknown, vec![4]);

        // The games of a failed batch are read again next time, a failed takeback's too.
        cache.forget_batch(&[write_append(1, 2), crate::Write::Truncate(2, 3)]);
        let (found, unknown) = cache.lookup(&[
            (1, place(2, "a1", 3)),
            (2, place(6, "a2", 5)),
            (9, place(0, "a3", 1)),
        ]);
        assert_eq!(found, heads(&[(9, 0)]));
        assert_eq!(unknown, vec![1, 2]);
    }

    #[test]
    fn advance_moves_heads_past_inserted_rows() {
        let batch = vec![(1, place(3, "h8", 4)), (1, swap(4)), (2, place(0, "a1", 1))];
        let plan = plan(&batch, &heads(&[(1, 3), (2, 0)])).unwrap();
        let mut after = heads(&[(1, 3), (2, 0)]);
        advance(&mut after, &plan.rows);
        assert_eq!(after, heads(&[(1, 5), (2, 1)]));
    }
}
