//! The one planning path of the game writes ([`crate::Store::write_batch`]: create, take back, append, finish,
//! rate).
//!
//! Every decision is made here, once: the order of a batch (creations, then the takebacks, then the appends, then
//! the endings), the columns of a new game, the head a takeback leaves, what each appended action is (through
//! `append.rs`: new row, retry or refusal, with the heads the store keeps), the exactly-once gate of an ending,
//! whether a game is rated, the rating rows to create, lock order, read and write. A batch of a cluster node is
//! fenced as a whole before any of this runs (`ownership.rs`), takebacks included. A backend only runs
//! statements: it implements [`Statements`] over its driver's transaction — the sqlx stores (`common.rs`:
//! Postgres, SQLite in memory) and SQLite's writer thread (`sqlite_writer.rs`: rusqlite) — and begins and commits
//! the transaction around [`write_batch`].
//!
//! The store knows no game rules: the caller gives each game's kind, configuration text and pool at creation,
//! each action's text and move number, and at the end who held which colour ([`crate::SeatsAtEnd`]), the winning
//! [`Side`] and the rating step ([`crate::Rater`]).

use std::collections::{HashMap, VecDeque};

use ratings::established::{self, Standing};
use ratings::{glicko2, Ladder, Pool, Rating, Score, Tier};

use crate::append::{self, Head, HeadCache, Retry, Row};
use crate::{
    codec, Finish, Finished, GameId, Millis, NewGame, RatingChange, Side, StoreError, UserId,
    Write, Written,
};

/// A new game's row, every column as bound by [`crate::statements::INSERT_GAME`] (in its order).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GameColumns<'a> {
    pub room: &'a str,
    pub kind: &'a str,
    pub config: &'a str,
    pub pool: String,
    pub time_control: &'a str,
    pub public: bool,
    pub rated: bool,
    pub black_name: &'a str,
    pub black_user_id: Option<UserId>,
    pub white_name: &'a str,
    pub white_user_id: Option<UserId>,
    pub started_at: Millis,
    pub public_id: &'a str,
}

impl<'a> GameColumns<'a> {
    fn of(game: &'a NewGame) -> GameColumns<'a> {
        GameColumns {
            room: &game.room,
            kind: &game.kind,
            config: &game.config,
            pool: game.pool.name().into_owned(),
            time_control: &game.time_control,
            public: game.public,
            rated: game.rated,
            black_name: &game.black.name,
            black_user_id: game.black.user_id,
            white_name: &game.white.name,
            white_user_id: game.white.user_id,
            started_at: game.started_at,
            public_id: &game.public_id,
        }
    }
}

/// The columns an ending sets, as bound by [`crate::statements::END_GAME`] (in its order, then the game).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EndColumns<'a> {
    pub ended_at: Millis,
    pub winner: Option<&'static str>,
    pub aborted: bool,
    pub reason: &'a str,
    pub swapped: bool,
}

/// What an ending needs of the game row its `UPDATE` returns.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ended {
    pub rated: bool,
    pub black_user_id: Option<UserId>,
    pub white_user_id: Option<UserId>,
    pub pool: String,
}

/// A player's first rating row in a pool, as bound by [`crate::statements::ENSURE_RATING`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct NewRating<'a> {
    pub user: UserId,
    pub pool: &'a str,
    pub rating: Rating,
    pub tier: &'static str,
    pub at: Millis,
}

/// One player's rating row after a rated game, as bound by [`crate::statements::UPDATE_RATING`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RatingUpdate<'a> {
    pub user: UserId,
    pub pool: &'a str,
    pub after: Rating,
    pub tally: (i64, i64, i64),
    pub tier: &'static str,
    pub at: Millis,
    pub established: bool,
    pub established_opponents: i64,
}

/// A player's rating row before a rated game, as [`crate::statements::RATINGS_OF_TWO`] reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Rated {
    pub rating: Rating,
    pub standing: Standing,
}

/// One line of rating history, as bound by [`crate::statements::INSERT_RATING_CHANGE`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HistoryRow<'a> {
    pub game: GameId,
    pub user: UserId,
    pub pool: &'a str,
    pub before: Rating,
    pub after: Rating,
    pub tier: &'static str,
    pub at: Millis,
}

/// The statements of the game writes, run inside one open write transaction. Each method runs exactly what its
/// name says and decides nothing.
#[allow(async_fn_in_trait)] // crate-private, used by concrete backends only
pub(crate) trait Statements {
    /// Inserts a game and returns its id.
    async fn insert_game(&mut self, game: &GameColumns<'_>) -> Result<GameId, StoreError>;
    /// The stored heads of these games (ascending, each once); a game without a row is absent.
    async fn heads(&mut self, games: &[GameId]) -> Result<HashMap<GameId, Head>, StoreError>;
    /// The stored action text at each retried `(game, seq)` that has one.
    async fn stored_actions(
        &mut self,
        retries: &[Retry],
    ) -> Result<HashMap<(GameId, i64), String>, StoreError>;
    /// Inserts new action rows (in order).
    async fn insert_actions(&mut self, rows: Vec<Row>) -> Result<(), StoreError>;
    /// Deletes a game's actions with `seq >= keep` ([`crate::statements::DELETE_ACTIONS_FROM`]).
    async fn delete_actions(&mut self, game: GameId, keep: i64) -> Result<(), StoreError>;
    /// Sets the ending of a game that has not ended (`UPDATE … WHERE ended_at IS NULL RETURNING`); `None` when no
    /// row changed.
    async fn end_game(
        &mut self,
        game: GameId,
        end: &EndColumns<'_>,
    ) -> Result<Option<Ended>, StoreError>;
    /// Whether the game exists.
    async fn game_exists(&mut self, game: GameId) -> Result<bool, StoreError>;
    /// Creates a player's rating row in a pool if there is none.
    async fn ensure_rating(&mut self, row: &NewRating<'_>) -> Result<(), StoreError>;
    /// Two players' ratings in a pool, read (Postgres: and locked) in ascending user id (`users` ascending).
    async fn ratings_of(
        &mut self,
        pool: &str,
        users: [UserId; 2],
    ) -> Result<HashMap<UserId, Rated>, StoreError>;
    /// How many players are established in a pool, counting no further than `limit`
    /// ([`crate::statements::ESTABLISHED_IN_POOL`]).
    async fn established_in_pool(&mut self, pool: &str, limit: u32) -> Result<u32, StoreError>;
    /// Counts `opponent` among `user`'s established opponents in a pool; whether it was not counted before
    /// ([`crate::statements::ADD_ESTABLISHED_OPPONENT`]).
    async fn add_established_opponent(
        &mut self,
        user: UserId,
        pool: &str,
        opponent: UserId,
    ) -> Result<bool, StoreError>;
    /// Writes a player's rating after a game.
    async fn update_rating(&mut self, update: &RatingUpdate<'_>) -> Result<(), StoreError>;
    /// Adds a line of rating history.
    async fn insert_rating_change(&mut self, row: &HistoryRow<'_>) -> Result<(), StoreError>;
    /// Creates a player's ladder row in a game at 0 points if there is none
    /// ([`crate::statements::ENSURE_LADDER`]).
    async fn ensure_ladder(
        &mut self,
        user: UserId,
        game: &str,
        at: Millis,
    ) -> Result<(), StoreError>;
    /// Two players' ladder points in a game, read (Postgres: and locked) in ascending user id.
    async fn ladders_of(
        &mut self,
        game: &str,
        users: [UserId; 2],
    ) -> Result<HashMap<UserId, i64>, StoreError>;
    /// Writes a player's ladder points after a rated game ([`crate::statements::UPDATE_LADDER`]).
    async fn update_ladder(
        &mut self,
        user: UserId,
        game: &str,
        points: i64,
        at: Millis,
    ) -> Result<(), StoreError>;
}

/// Runs a batch of game writes in the backend's open transaction (the caller commits): creations first, then the
/// takebacks, then the appends, then the endings; answers in batch order, and the heads the batch leaves its
/// games (for `cache`, once committed: a game taken back gets the head its takeback left). `cache`, when the
/// backend keeps one, spares reading the heads of games it has written.
pub(crate) async fn write_batch<S: Statements>(
    s: &mut S,
    cache: Option<&HeadCache>,
    batch: &[Write],
) -> Result<(Vec<Written>, HashMap<GameId, Head>), StoreError> {
    let mut created = VecDeque::new();
    let mut takebacks = Vec::new();
    let mut appends = Vec::new();
    for w in batch {
        match w {
            Write::Create(game) => created.push_back(s.insert_game(&GameColumns::of(game)).await?),
            Write::Truncate(game, keep) => takebacks.push((*game, *keep)),
            Write::Append(game, action) => appends.push((*game, action.clone())),
            Write::Finish(..) => {}
        }
    }
    let mut taken_back = HashMap::new();
    for (game, keep) in takebacks {
        taken_back.insert(game, truncate(s, game, keep).await?);
    }
    let heads = if appends.is_empty() {
        taken_back
    } else {
        append(s, cache, taken_back, &appends).await?
    };
    let mut answers = Vec::with_capacity(batch.len());
    for w in batch {
        answers.push(match w {
            Write::Create(_) => {
                Written::Created(created.pop_front().ok_or_else(|| {
                    StoreError::Database("a created game went missing".to_owned())
                })?)
            }
            Write::Append(..) => Written::Appended,
            Write::Truncate(..) => Written::Truncated,
            Write::Finish(game, finish) => Written::Finished(self::finish(s, *game, finish).await?),
        });
    }
    Ok((answers, heads))
}

/// Takes back a game's actions from seq `keep` on (see [`crate::Store::truncate_actions`]) and returns the head
/// it leaves: one delete, then the game's head read inside the transaction (which also tells an unknown game:
/// its delete removed nothing, and the error rolls the batch back).
async fn truncate<S: Statements>(s: &mut S, game: GameId, keep: u32) -> Result<Head, StoreError> {
    s.delete_actions(game, i64::from(keep)).await?;
    s.heads(&[game])
        .await?
        .remove(&game)
        .ok_or(StoreError::NoSuchGame)
}

/// Appends actions (see [`crate::Store::append_actions`]): a fixed number of statements per batch (`append.rs`):
/// one read of the heads neither in `known` (the heads this batch's takebacks left, which stand over the cache's)
/// nor in `cache`, the checks in memory, one insert; a second read only for retries of committed actions.
/// Returns the heads the batch leaves its games (`known` included).
async fn append<S: Statements>(
    s: &mut S,
    cache: Option<&HeadCache>,
    known: HashMap<GameId, Head>,
    batch: &[(GameId, crate::StoredAction)],
) -> Result<HashMap<GameId, Head>, StoreError> {
    let (mut heads, mut unknown) = match cache {
        Some(cache) => cache.lookup(batch),
        None => {
            let mut games: Vec<GameId> = batch.iter().map(|(game, _)| *game).collect();
            games.sort_unstable();
            games.dedup();
            (HashMap::new(), games)
        }
    };
    unknown.retain(|game| !known.contains_key(game));
    heads.extend(known);
    if !unknown.is_empty() {
        heads.extend(s.heads(&unknown).await?);
    }
    let append::Plan { rows, retries } = append::plan(batch, &heads)?;
    if !retries.is_empty() {
        let stored = s.stored_actions(&retries).await?;
        append::check_retries(&retries, &stored)?;
    }
    append::advance(&mut heads, &rows);
    s.insert_actions(rows).await?;
    Ok(heads)
}

/// Ends a game exactly once and rates it when due (see [`crate::Store::finish_game`]). The conditional update is
/// the gate: of two racing endings only one sees `ended_at IS NULL` (Postgres re-checks it after waiting for the
/// other's row lock; SQLite runs one writer at a time). A casual game costs that one statement.
async fn finish<S: Statements>(
    s: &mut S,
    game: GameId,
    finish: &Finish,
) -> Result<Option<Finished>, StoreError> {
    let end = &finish.end;
    let columns = EndColumns {
        ended_at: end.ended_at,
        winner: if end.aborted {
            None
        } else {
            end.winner.map(Side::as_str)
        },
        aborted: end.aborted,
        reason: &end.reason,
        swapped: finish.seats == crate::SeatsAtEnd::Exchanged,
    };
    let Some(ended) = s.end_game(game, &columns).await? else {
        return if s.game_exists(game).await? {
            Ok(None)
        } else {
            Err(StoreError::NoSuchGame)
        };
    };
    let (black, white) = finish
        .seats
        .arrange(ended.black_user_id, ended.white_user_id);
    let rating_changes = match (black, white) {
        (Some(black), Some(white)) if ended.rated && !end.aborted && black != white => {
            let pool = codec::pool_parse(&ended.pool)?;
            let players = Players {
                black,
                white,
                score_black: score_black(end.winner),
            };
            Some(rate(s, game, pool, players, end.ended_at, finish.rater).await?)
        }
        _ => None,
    };
    Ok(Some(Finished { rating_changes }))
}

/// The two users of a rated game as seated at the end, and black's score.
struct Players {
    black: UserId,
    white: UserId,
    score_black: f64,
}

/// Rates a finished game inside the transaction that ended it with the caller's rating step, under the rules of
/// [`ratings::established`]: an established player's rating moves only against an established opponent, and each
/// player's standing (games, established opponents, established) advances.
async fn rate<S: Statements>(
    s: &mut S,
    game: GameId,
    pool: Pool,
    players: Players,
    at: Millis,
    rater: crate::Rater,
) -> Result<[RatingChange; 2], StoreError> {
    let Players {
        black,
        white,
        score_black,
    } = players;
    let name = pool.name().into_owned();
    let default = Rating::default();
    // Both rows exist before they are read, so both can be locked; in ascending user order, so two games of the
    // same players lock in the same order and cannot deadlock.
    let (low, high) = if black < white {
        (black, white)
    } else {
        (white, black)
    };
    let tier = Tier::of(&default).code();
    for user in [low, high] {
        let row = NewRating {
            user,
            pool: &name,
            rating: default,
            tier,
            at,
        };
        s.ensure_rating(&row).await?;
    }
    let current = s.ratings_of(&name, [low, high]).await?;
    let black_before = current.get(&black).copied().unwrap_or_default();
    let white_before = current.get(&white).copied().unwrap_or_default();
    let seeding = s
        .established_in_pool(&name, established::SEED_PLAYERS)
        .await?
        < established::SEED_PLAYERS;
    let (black_rated, white_rated) =
        (rater.0)(black_before.rating, white_before.rating, score_black);
    let sides = [
        (
            black,
            black_before,
            white,
            white_before,
            black_rated,
            score_black,
        ),
        (
            white,
            white_before,
            black,
            black_before,
            white_rated,
            1.0 - score_black,
        ),
    ];
    let mut changes = Vec::with_capacity(2);
    for (user, before, opponent, theirs, rated, score) in sides {
        let opponent_established = theirs.standing.established;
        let after = if established::moves(before.standing.established, opponent_established) {
            rated
        } else {
            before.rating
        };
        let new_opponent =
            opponent_established && s.add_established_opponent(user, &name, opponent).await?;
        let standing = before.standing.after_game(new_opponent, seeding);
        let tier = Tier::of(&after).code();
        s.update_rating(&RatingUpdate {
            user,
            pool: &name,
            after,
            tally: tally(score),
            tier,
            at,
            established: standing.established,
            established_opponents: i64::from(standing.established_opponents),
        })
        .await?;
        s.insert_rating_change(&HistoryRow {
            game,
            user,
            pool: &name,
            before: before.rating,
            after,
            tier,
            at,
        })
        .await?;
        changes.push(RatingChange {
            user_id: user,
            pool: pool.clone(),
            before: before.rating,
            after,
        });
    }
    climb(s, &pool, [low, high], (black, white, score_black), at).await?;
    let [b, w]: [RatingChange; 2] = changes
        .try_into()
        .map_err(|_| StoreError::Database("two rating changes".to_owned()))?;
    Ok([b, w])
}

/// Moves both players' points on their game's ladder ([`ratings::ladder`]) after a rated game, in the transaction
/// that rates it: rows created first and read in ascending user order, as the ratings are.
async fn climb<S: Statements>(
    s: &mut S,
    pool: &Pool,
    [low, high]: [UserId; 2],
    (black, white, score_black): (UserId, UserId, f64),
    at: Millis,
) -> Result<(), StoreError> {
    let game = pool.game();
    for user in [low, high] {
        s.ensure_ladder(user, game, at).await?;
    }
    let points = s.ladders_of(game, [low, high]).await?;
    let score = match tally(score_black) {
        (1, _, _) => Score::Win,
        (_, 1, _) => Score::Loss,
        _ => Score::Draw,
    };
    let before = |user| points.get(&user).copied().unwrap_or(0);
    let (black_after, white_after) =
        Ladder::of_game(game).step(before(black), before(white), score);
    s.update_ladder(black, game, black_after, at).await?;
    s.update_ladder(white, game, white_after, at).await?;
    Ok(())
}

/// Black's score (1, 0.5 or 0) when `winner` won (`None`: a draw).
fn score_black(winner: Option<Side>) -> f64 {
    match winner {
        Some(Side::Black) => glicko2::WIN,
        Some(Side::White) => glicko2::LOSS,
        None => glicko2::DRAW,
    }
}

/// The (wins, losses, draws) a score adds to a player's row.
fn tally(score: f64) -> (i64, i64, i64) {
    if score > 0.75 {
        (1, 0, 0)
    } else if score < 0.25 {
        (0, 1, 0)
    } else {
        (0, 0, 1)
    }
}

/// Runs a future that never waits to its end: the writer thread's [`Statements`] are synchronous (rusqlite), so
/// [`write_batch`] over them is ready at its first poll.
pub(crate) fn run_ready<T>(
    future: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(result) => result,
        std::task::Poll::Pending => Err(StoreError::Database(
            "a synchronous write waited".to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_tally_as_one_win_loss_or_draw() {
        assert_eq!(tally(score_black(Some(Side::Black))), (1, 0, 0));
        assert_eq!(tally(1.0 - score_black(Some(Side::Black))), (0, 1, 0));
        assert_eq!(tally(score_black(None)), (0, 0, 1));
        assert_eq!(tally(score_black(Some(Side::White))), (0, 1, 0));
    }

    #[test]
    fn a_future_that_waits_is_an_error_not_a_hang() {
        let pending = async {
            std::future::pending::<()>().await;
            Ok(())
        };
        assert!(run_ready(pending).is_err());
        assert_eq!(run_ready(async { Ok(7) }), Ok(7));
    }
}
