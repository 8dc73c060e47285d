//! The contract every store keeps, run against SQLite always (a fresh file per test, whose game writes go
//! through the store's writer thread, and a fresh in-memory database, whose game writes go through sqlx) and
//! against Postgres when `TEST_DATABASE_URL` is set (a fresh schema per test inside that database, dropped
//! afterwards).

use crate::events::an_event_its_entrants_pairings_and_results_are_stored;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use ratings::established::{ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS, SEED_PLAYERS};
use ratings::{Pool, Rating, Tier};
use store::{
    BatchWriter, BoardRule, Finish, GameEnd, GameId, Guest, NewGame, PlayerRef, Rater, SeatsAtEnd,
    SessionOwner, Side, Store, StoreError, StoredAction, User, Write, Written,
};

/// The pools the server rates Gomoku in (the store is told a game's pool; it derives none).
const FREESTYLE: Pool = Pool::new("gomoku", "freestyle");
const STANDARD: Pool = Pool::new("gomoku", "standard");
const RENJU: Pool = Pool::new("gomoku", "renju");
const POOLS: [Pool; 3] = [FREESTYLE, STANDARD, RENJU];

/// A game's configuration as the caller stores it (the text the server's game writes) and the pool the caller
/// rates it in: the store is given both, reads nothing into the text and derives no pool.
#[derive(Clone, Copy, Debug)]
struct Config {
    text: &'static str,
    pool: &'static Pool,
}

const FREESTYLE_GAME: Config = Config {
    text: "size=15,rule_set=freestyle,forbidden_policy=reject,opening=none",
    pool: &FREESTYLE,
};
const STANDARD_GAME: Config = Config {
    text: "size=15,rule_set=standard,forbidden_policy=reject,opening=none",
    pool: &STANDARD,
};
const RENJU_GAME: Config = Config {
    text: "size=15,rule_set=renju,forbidden_policy=reject,opening=none",
    pool: &RENJU,
};
const RENJU_LOSE: Config = Config {
    text: "size=15,rule_set=renju,forbidden_policy=lose,opening=none",
    pool: &RENJU,
};
const RENJU_SWAP: Config = Config {
    text: "size=15,rule_set=renju,forbidden_policy=reject,opening=swap_after_three",
    pool: &RENJU,
};
const RENJU_FIFTH: Config = Config {
    text:
        "size=15,rule_set=renju,forbidden_policy=claim,opening=swap_after_three_fifth_two_options",
    pool: &RENJU,
};

mod support {
    use std::sync::Arc;

    use store::Store;
    use testkit::postgres::FreshSchema;

    /// A store for one test, and what to clean up after it.
    pub struct TestDb {
        pub store: Arc<dyn Store>,
        _dir: Option<tempfile::TempDir>,
        schema: Option<FreshSchema>,
    }

    impl TestDb {
        /// Drops the Postgres schema (the SQLite file goes with its temporary folder).
        pub async fn finish(self) {
            if let Some(schema) = self.schema {
                drop(self.store);
                schema.drop().await;
            }
        }
    }

    /// A fresh SQLite database in a new temporary folder (the folder inside it does not exist yet, so opening
    /// also proves the folder is created).
    pub async fn sqlite() -> Option<TestDb> {
        let dir = tempfile::tempdir().expect("temporary folder");
        let url = format!("sqlite://{}/data/test.db", dir.path().display());
        let store = store::open(&url).await.expect("open sqlite store");
        Some(TestDb {
            store,
            _dir: Some(dir),
            schema: None,
        })
    }

    /// A fresh in-memory SQLite database.
    pub async fn sqlite_memory() -> Option<TestDb> {
        let store = store::open("sqlite::memory:")
            .await
            .expect("open in-memory sqlite store");
        Some(TestDb {
            store,
            _dir: None,
            schema: None,
        })
    }

    /// A fresh schema in the database `TEST_DATABASE_URL` names, or `None` when it is not set.
    pub async fn postgres() -> Option<TestDb> {
        let schema = FreshSchema::of_test_database("contract").await?;
        let store = store::open(&schema.url).await.expect("open postgres store");
        Some(TestDb {
            store,
            _dir: None,
            schema: Some(schema),
        })
    }
}

/// Writes each contract test in module `$db`, on a store from `support::$db()` (`None`: that database is not
/// configured here, and the test says so and passes).
macro_rules! contract_on {
    ($db:ident: $($name:ident),*) => {
        mod $db {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(db) = super::support::$db().await else {
                        eprintln!("TEST_DATABASE_URL is not set: {}::{} was not run", stringify!($db), stringify!($name));
                        return;
                    };
                    super::$name(db.store.clone()).await;
                    db.finish().await;
                }
            )*
        }
    };
}

/// Writes each contract test three times: `sqlite::NAME`, `sqlite_memory::NAME` and `postgres::NAME`.
macro_rules! contract {
    ($($name:ident),* $(,)?) => {
        contract_on!(sqlite: $($name),*);
        contract_on!(sqlite_memory: $($name),*);
        contract_on!(postgres: $($name),*);
    };
}

contract!(
    games_are_created_appended_and_read_back_in_order,
    appending_the_same_action_again_changes_nothing,
    a_gap_or_a_different_action_is_refused_as_out_of_order,
    truncating_removes_the_taken_back_actions,
    only_unfinished_games_are_listed_for_resumption,
    a_game_finishes_exactly_once,
    a_rated_game_updates_both_players_and_their_history,
    ratings_follow_the_players_after_they_swap_colours,
    aborted_casual_and_guest_games_are_not_rated,
    usernames_are_unique_ignoring_case,
    usernames_that_look_alike_are_refused,
    look_alikes_of_a_taken_name_by_letter_pairs_digits_or_separators_are_refused,
    concurrent_look_alike_registrations_admit_exactly_one,
    a_password_hash_can_be_replaced,
    a_challenge_setting_defaults_to_all_and_can_be_changed,
    sessions_expire_and_can_be_revoked,
    all_sessions_of_one_user_are_revoked_at_once,
    a_password_change_keeps_only_the_asking_session,
    a_password_change_without_a_kept_session_ends_them_all,
    a_reset_code_is_spent_once_only_by_its_user_before_it_expires,
    a_new_reset_code_or_a_password_change_voids_the_old_code,
    concurrent_uses_of_one_reset_code_admit_exactly_one,
    a_live_guest_name_is_held_by_one_session_and_an_expired_one_is_taken_over,
    an_extended_session_lives_longer_and_never_shorter,
    the_leaderboard_ranks_settled_players_by_rating,
    games_alone_establish_players_only_while_a_pool_is_seeding,
    a_newcomer_moves_no_established_rating_until_established_by_established_opponents,
    history_and_games_of_page_newest_first,
    two_hundred_concurrent_rated_games_are_each_rated_exactly_once,
    the_batch_writer_commits_many_rooms_and_answers_each,
    a_batch_larger_than_one_insert_statement_is_written_whole,
    games_are_created_moved_and_ended_in_one_batch,
    a_batch_with_one_bad_write_commits_nothing,
    a_takeback_is_a_batched_write_and_leaves_the_head_it_made,
    a_game_is_found_by_its_public_id_and_only_by_the_whole_of_it,
    public_games_of_leaves_out_private_games,
    a_players_games_filter_by_pool_rated_and_their_own_result,
    rated_games_move_each_games_ladder_and_casual_ones_do_not,
    a_match_is_stored_and_reads_its_rooms_games_and_winners,
    concurrent_analysis_requests_at_the_daily_limit_admit_exactly_the_requests_left,
    an_event_its_entrants_pairings_and_results_are_stored,
);

// ---------------------------------------------------------------------------------------------------- helpers

/// A stone placed at `point` as the action `seq` (the caller's notation), the move numbered `seq + 1`.
fn place(seq: u32, point: &str) -> StoredAction {
    StoredAction {
        seq,
        text: point.to_owned(),
        ply: Some(seq + 1),
        used_ms: 1000 + i64::from(seq),
        remaining_ms: Some([60_000 - i64::from(seq), 59_000 - i64::from(seq)]),
        at: 1_000_000 + i64::from(seq),
    }
}

/// An action `seq` that is no move (a decision, a claim), by its text.
fn stored(seq: u32, text: &str) -> StoredAction {
    StoredAction {
        seq,
        text: text.to_owned(),
        ply: None,
        used_ms: 500,
        remaining_ms: None,
        at: 2_000_000 + i64::from(seq),
    }
}

fn guest(name: &str) -> PlayerRef {
    PlayerRef {
        name: name.to_owned(),
        user_id: None,
    }
}

fn seat(user: &User) -> PlayerRef {
    PlayerRef {
        name: user.name.clone(),
        user_id: Some(user.id),
    }
}

fn new_game(config: Config, rated: bool, black: PlayerRef, white: PlayerRef) -> NewGame {
    NewGame {
        public_id: store::new_public_id(),
        room: "r-test".to_owned(),
        kind: "gomoku".to_owned(),
        config: config.text.to_owned(),
        pool: config.pool.clone(),
        time_control: r#"{"kind":"fischer","base_ms":300000,"increment_ms":2000}"#.to_owned(),
        public: !rated,
        rated,
        black,
        white,
        started_at: 1_000,
    }
}

/// The same game again under a fresh public id (public ids are unique).
fn again(game: &NewGame) -> NewGame {
    NewGame {
        public_id: store::new_public_id(),
        ..game.clone()
    }
}

fn end(winner: Option<Side>, at: i64) -> Finish {
    finish(GameEnd {
        winner,
        aborted: false,
        reason: if winner.is_some() {
            "five"
        } else {
            "draw_agreed"
        }
        .to_owned(),
        ended_at: at,
    })
}

/// An ending with the seats as they started, rated with Glicko-2 as the server rates.
fn finish(end: GameEnd) -> Finish {
    Finish {
        end,
        seats: SeatsAtEnd::AsStarted,
        rater: Rater(ratings::glicko2::rate_game),
    }
}

/// The same ending after the players exchanged colours (the caller's game says so; here, an accepted swap).
fn exchanged(finish: Finish) -> Finish {
    Finish {
        seats: SeatsAtEnd::Exchanged,
        ..finish
    }
}

async fn user(store: &Arc<dyn Store>, name: &str) -> User {
    store
        .create_user(name, "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", 10)
        .await
        .expect("create user")
}

async fn rated_game(store: &Arc<dyn Store>, config: Config, black: &User, white: &User) -> GameId {
    store
        .create_game(&new_game(config, true, seat(black), seat(white)))
        .await
        .expect("create game")
}

/// Plays one rated game to a result.
async fn play(
    store: &Arc<dyn Store>,
    black: &User,
    white: &User,
    winner: Option<Side>,
    at: i64,
) -> GameId {
    let id = rated_game(store, RENJU_GAME, black, white).await;
    store
        .finish_game(id, &end(winner, at))
        .await
        .expect("finish")
        .expect("first finish");
    id
}

async fn standing(store: &Arc<dyn Store>, user: &User, pool: Pool) -> Option<store::PoolStanding> {
    store
        .standings(user.id)
        .await
        .expect("standings")
        .into_iter()
        .find(|s| s.pool == pool)
}

// ------------------------------------------------------------------------------------------------------ tests

async fn games_are_created_appended_and_read_back_in_order(store: Arc<dyn Store>) {
    let game = new_game(RENJU_FIFTH, false, guest("guest-a"), guest("guest-b"));
    let id = store.create_game(&game).await.unwrap();
    let other = store.create_game(&again(&game)).await.unwrap();
    assert_ne!(id, other);

    let actions = vec![
        place(0, "h8"),
        place(1, "h9"),
        place(2, "j10"),
        stored(3, "swap"),
        place(4, "g7"),
        stored(5, "propose:k11,f5"),
        StoredAction {
            ply: Some(5),
            ..stored(6, "choose:k11")
        },
    ];
    store
        .append_actions(&[
            (id, actions[0].clone()),
            (other, place(0, "a1")),
            (id, actions[1].clone()),
        ])
        .await
        .unwrap();
    let rest: Vec<_> = actions[2..].iter().map(|a| (id, a.clone())).collect();
    store.append_actions(&rest).await.unwrap();

    let record = store.game(id).await.unwrap().expect("the game exists");
    assert_eq!(record.id, id);
    assert_eq!(record.actions, actions);
    assert_eq!(record.game.kind, "gomoku");
    assert_eq!(record.game.config, RENJU_FIFTH.text);
    assert_eq!(record.game.pool, RENJU);
    assert_eq!(record.game.black, guest("guest-a"));
    assert_eq!(record.game.white, guest("guest-b"));
    assert_eq!(record.game.time_control, game.time_control);
    assert_eq!(record.game.public, game.public);
    assert_eq!(record.game.started_at, 1_000);
    assert!(!record.game.rated);
    assert_eq!(record.end, None);
    assert_eq!(record.rating_changes, None);
    assert_eq!(
        store.game(other).await.unwrap().unwrap().actions,
        vec![place(0, "a1")]
    );
    assert!(store.game(other + 1000).await.unwrap().is_none());
}

async fn appending_the_same_action_again_changes_nothing(store: Arc<dyn Store>) {
    let id = store
        .create_game(&new_game(
            FREESTYLE_GAME,
            false,
            guest("guest-a"),
            guest("guest-b"),
        ))
        .await
        .unwrap();
    store
        .append_actions(&[(id, place(0, "h8")), (id, place(1, "h9"))])
        .await
        .unwrap();
    store.append_actions(&[(id, place(1, "h9"))]).await.unwrap();
    // A retried batch that overlaps what is stored and goes on.
    store
        .append_actions(&[
            (id, place(0, "h8")),
            (id, place(1, "h9")),
            (id, place(2, "h10")),
        ])
        .await
        .unwrap();
    let actions = store.game(id).await.unwrap().unwrap().actions;
    assert_eq!(
        actions,
        vec![place(0, "h8"), place(1, "h9"), place(2, "h10")]
    );
}

async fn a_gap_or_a_different_action_is_refused_as_out_of_order(store: Arc<dyn Store>) {
    let id = store
        .create_game(&new_game(
            STANDARD_GAME,
            false,
            guest("guest-a"),
            guest("guest-b"),
        ))
        .await
        .unwrap();
    store.append_actions(&[(id, place(0, "h8"))]).await.unwrap();
    assert_eq!(
        store.append_actions(&[(id, place(2, "h10"))]).await,
        Err(StoreError::OutOfOrder)
    );
    assert_eq!(
        store.append_actions(&[(id, place(0, "a1"))]).await,
        Err(StoreError::OutOfOrder)
    );
    // A refused batch is refused whole: its good first action is not kept either.
    assert_eq!(
        store
            .append_actions(&[(id, place(1, "h9")), (id, place(3, "h11"))])
            .await,
        Err(StoreError::OutOfOrder)
    );
    assert_eq!(
        store.append_actions(&[(id + 99, place(0, "h8"))]).await,
        Err(StoreError::NoSuchGame)
    );
    assert_eq!(
        store.game(id).await.unwrap().unwrap().actions,
        vec![place(0, "h8")]
    );
    assert_eq!(StoreError::OutOfOrder.code(), "out_of_order");
}

async fn truncating_removes_the_taken_back_actions(store: Arc<dyn Store>) {
    let id = store
        .create_game(&new_game(
            FREESTYLE_GAME,
            false,
            guest("guest-a"),
            guest("guest-b"),
        ))
        .await
        .unwrap();
    let moves = ["h8", "h9", "j9", "j10"];
    let batch: Vec<_> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| (id, place(i as u32, m)))
        .collect();
    store.append_actions(&batch).await.unwrap();
    store.truncate_actions(id, 2).await.unwrap();
    assert_eq!(
        store.game(id).await.unwrap().unwrap().actions,
        vec![place(0, "h8"), place(1, "h9")]
    );
    // The game goes on from the kept actions, with a different move at the freed seq.
    store.append_actions(&[(id, place(2, "g7"))]).await.unwrap();
    assert_eq!(store.game(id).await.unwrap().unwrap().actions.len(), 3);
    assert_eq!(
        store.truncate_actions(id + 99, 0).await,
        Err(StoreError::NoSuchGame)
    );
}

async fn only_unfinished_games_are_listed_for_resumption(store: Arc<dyn Store>) {
    let game = new_game(FREESTYLE_GAME, false, guest("guest-a"), guest("guest-b"));
    let live = store.create_game(&game).await.unwrap();
    let done = store.create_game(&again(&game)).await.unwrap();
    store
        .append_actions(&[(live, place(0, "h8")), (done, place(0, "h8"))])
        .await
        .unwrap();
    store
        .finish_game(done, &end(Some(Side::Black), 5_000))
        .await
        .unwrap();
    let unfinished = store.unfinished_games().await.unwrap();
    assert_eq!(
        unfinished.iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![live]
    );
    assert_eq!(unfinished[0].actions, vec![place(0, "h8")]);
    assert_eq!(
        unfinished[0].actions[0].remaining_ms,
        Some([60_000, 59_000])
    );
}

async fn a_game_finishes_exactly_once(store: Arc<dyn Store>) {
    let id = store
        .create_game(&new_game(
            FREESTYLE_GAME,
            false,
            guest("guest-a"),
            guest("guest-b"),
        ))
        .await
        .unwrap();
    let first = finish(GameEnd {
        winner: Some(Side::White),
        aborted: false,
        reason: "resign".to_owned(),
        ended_at: 9_000,
    });
    assert_eq!(
        store
            .finish_game(id, &first)
            .await
            .unwrap()
            .map(|f| f.rating_changes),
        Some(None)
    );
    assert_eq!(
        store
            .finish_game(id, &end(Some(Side::Black), 9_001))
            .await
            .unwrap(),
        None
    );
    assert_eq!(store.game(id).await.unwrap().unwrap().end, Some(first.end));
    assert_eq!(
        store.finish_game(id + 99, &end(None, 1)).await,
        Err(StoreError::NoSuchGame)
    );
}

async fn a_rated_game_updates_both_players_and_their_history(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    let id = rated_game(&store, STANDARD_GAME, &ann, &bob).await;
    let finished = store
        .finish_game(id, &end(Some(Side::Black), 7_000))
        .await
        .unwrap()
        .unwrap();
    let [black, white] = finished.rating_changes.expect("a rated game is rated");
    let (expect_ann, expect_bob) =
        ratings::glicko2::rate_game(Rating::default(), Rating::default(), 1.0);
    assert_eq!(
        (black.user_id, black.pool.clone(), black.before),
        (ann.id, STANDARD, Rating::default())
    );
    assert_eq!((black.after, white.after), (expect_ann, expect_bob));
    assert_eq!(white.user_id, bob.id);

    let ann_standing = standing(&store, &ann, STANDARD).await.unwrap();
    assert_eq!(
        (
            ann_standing.games,
            ann_standing.wins,
            ann_standing.losses,
            ann_standing.draws
        ),
        (1, 1, 0, 0)
    );
    assert_eq!(ann_standing.rating, expect_ann);
    assert_eq!(ann_standing.name, "ann");
    let bob_standing = standing(&store, &bob, STANDARD).await.unwrap();
    assert_eq!(
        (bob_standing.games, bob_standing.wins, bob_standing.losses),
        (1, 0, 1)
    );
    assert!(
        standing(&store, &ann, RENJU).await.is_none(),
        "an unplayed pool is absent"
    );

    let record = store.game(id).await.unwrap().unwrap();
    assert_eq!(record.rating_changes, Some([black.clone(), white.clone()]));
    let history = store.rating_history(ann.id).await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].game_id, history[0].pool.clone(), history[0].at),
        (id, STANDARD, 7_000)
    );
    assert_eq!(
        (history[0].rating, history[0].deviation),
        (expect_ann.rating, expect_ann.deviation)
    );

    // A draw next: counted as a draw for both, and the second game starts from the first one's result.
    let id2 = rated_game(&store, STANDARD_GAME, &bob, &ann).await;
    let [b2, w2] = store
        .finish_game(id2, &end(None, 8_000))
        .await
        .unwrap()
        .unwrap()
        .rating_changes
        .unwrap();
    assert_eq!((b2.user_id, b2.before), (bob.id, expect_bob));
    assert_eq!((w2.user_id, w2.before), (ann.id, expect_ann));
    let ann_standing = standing(&store, &ann, STANDARD).await.unwrap();
    assert_eq!(
        (ann_standing.games, ann_standing.wins, ann_standing.draws),
        (2, 1, 1)
    );
    assert_eq!(store.rating_history(ann.id).await.unwrap().len(), 2);
}

async fn ratings_follow_the_players_after_they_swap_colours(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    let rules = RENJU_SWAP;
    // Ann starts black; after the swap Bob holds black. Black (Bob) wins.
    let id = rated_game(&store, rules, &ann, &bob).await;
    let actions = [
        place(0, "h8"),
        place(1, "h9"),
        place(2, "j10"),
        stored(3, "swap"),
        place(4, "g7"),
    ];
    let batch: Vec<_> = actions.iter().map(|a| (id, a.clone())).collect();
    store.append_actions(&batch).await.unwrap();
    let [black, white] = store
        .finish_game(id, &exchanged(end(Some(Side::Black), 3_000)))
        .await
        .unwrap()
        .unwrap()
        .rating_changes
        .unwrap();
    assert_eq!((black.user_id, white.user_id), (bob.id, ann.id));
    assert!(black.after.rating > 1500.0 && white.after.rating < 1500.0);
    assert_eq!(standing(&store, &bob, RENJU).await.unwrap().wins, 1);
    assert_eq!(standing(&store, &ann, RENJU).await.unwrap().losses, 1);
    let record = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        record.rating_changes.map(|[b, w]| (b.user_id, w.user_id)),
        Some((bob.id, ann.id))
    );
    assert_eq!(
        record.game.black.user_id,
        Some(ann.id),
        "seats are stored as they were at the start"
    );

    // A declined swap changes nothing: the starting black player is black at the end.
    let id = rated_game(&store, rules, &ann, &bob).await;
    store
        .append_actions(&[
            (id, place(0, "h8")),
            (id, place(1, "h9")),
            (id, place(2, "j10")),
            (id, stored(3, "keep")),
        ])
        .await
        .unwrap();
    let [black, _] = store
        .finish_game(id, &end(Some(Side::Black), 4_000))
        .await
        .unwrap()
        .unwrap()
        .rating_changes
        .unwrap();
    assert_eq!(black.user_id, ann.id);
}

async fn aborted_casual_and_guest_games_are_not_rated(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    let aborted = rated_game(&store, FREESTYLE_GAME, &ann, &bob).await;
    let abort = finish(GameEnd {
        winner: None,
        aborted: true,
        reason: "abandoned".to_owned(),
        ended_at: 2_000,
    });
    assert_eq!(
        store
            .finish_game(aborted, &abort)
            .await
            .unwrap()
            .unwrap()
            .rating_changes,
        None
    );
    let casual = store
        .create_game(&new_game(FREESTYLE_GAME, false, seat(&ann), seat(&bob)))
        .await
        .unwrap();
    assert_eq!(
        store
            .finish_game(casual, &end(Some(Side::Black), 3_000))
            .await
            .unwrap()
            .unwrap()
            .rating_changes,
        None
    );
    let with_guest = store
        .create_game(&new_game(
            FREESTYLE_GAME,
            true,
            seat(&ann),
            guest("guest-x"),
        ))
        .await
        .unwrap();
    assert_eq!(
        store
            .finish_game(with_guest, &end(Some(Side::Black), 4_000))
            .await
            .unwrap()
            .unwrap()
            .rating_changes,
        None
    );
    let against_self = store
        .create_game(&new_game(FREESTYLE_GAME, true, seat(&ann), seat(&ann)))
        .await
        .unwrap();
    assert_eq!(
        store
            .finish_game(against_self, &end(Some(Side::Black), 5_000))
            .await
            .unwrap()
            .unwrap()
            .rating_changes,
        None
    );
    assert!(store.standings(ann.id).await.unwrap().is_empty());
    assert!(store.rating_history(ann.id).await.unwrap().is_empty());
    let record = store.game(aborted).await.unwrap().unwrap();
    assert_eq!(record.end, Some(abort.end));
    assert_eq!(record.rating_changes, None);
}

async fn usernames_are_unique_ignoring_case(store: Arc<dyn Store>) {
    let ann = user(&store, "Ann_1").await;
    assert_eq!(ann.name, "Ann_1");
    let taken = store.create_user("aNN_1", "hash", 20).await;
    assert_eq!(taken, Err(StoreError::UsernameTaken));
    assert_eq!(StoreError::UsernameTaken.code(), "username_taken");
    assert_eq!(
        store.user_by_name("ANN_1").await.unwrap(),
        Some(ann.clone())
    );
    assert_eq!(store.user_by_id(ann.id).await.unwrap(), Some(ann.clone()));
    assert_eq!(store.user_by_name("bob").await.unwrap(), None);
    let bob = user(&store, "bob").await;
    assert_ne!(bob.id, ann.id);
}

async fn usernames_that_look_alike_are_refused(store: Arc<dyn Store>) {
    let alice = user(&store, "Alice").await;

    let look_alike = store.create_user("AIice", "$argon2id$x", 11).await;
    let same_name = store.create_user("ALICE", "$argon2id$x", 11).await;

    assert_eq!(look_alike, Err(StoreError::UsernameConfusable));
    assert_eq!(same_name, Err(StoreError::UsernameTaken));
    assert_eq!(
        store.user_by_skeleton("A1ice").await.unwrap(),
        Some(alice.clone())
    );
    assert_eq!(store.user_by_skeleton("Alicia").await.unwrap(), None);
    assert_eq!(store.user_by_name("AIice").await.unwrap(), None);
    user(&store, "Alicia").await;
}

async fn look_alikes_of_a_taken_name_by_letter_pairs_digits_or_separators_are_refused(
    store: Arc<dyn Store>,
) {
    for taken in ["will", "down", "Alice", "admin", "李雷"] {
        user(&store, taken).await;
    }

    let mut answers = Vec::new();
    for look_alike in [
        "vvill", "clown", "Alice_", "_alice", "adm1n", "ADMlN", "李雷_",
    ] {
        answers.push((
            look_alike,
            store
                .create_user(look_alike, "$argon2id$x", 11)
                .await
                .map(|u| u.name),
        ));
    }

    for (name, answer) in answers {
        assert_eq!(answer, Err(StoreError::UsernameConfusable), "{name}");
    }
    assert_eq!(
        store
            .user_by_skeleton("VViII")
            .await
            .unwrap()
            .map(|u| u.name),
        Some("will".to_owned())
    );
    assert_eq!(user(&store, "dawn").await.name, "dawn");
    assert_eq!(user(&store, "李雪").await.name, "李雪");
}

async fn a_password_hash_can_be_replaced(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;

    store
        .set_password_hash(ann.id, "$argon2id$new")
        .await
        .unwrap();

    let ann = store.user_by_id(ann.id).await.unwrap().unwrap();
    assert_eq!(ann.password_hash, "$argon2id$new");
    assert_eq!(store.user_by_name("bob").await.unwrap(), Some(bob));
}

async fn a_challenge_setting_defaults_to_all_and_can_be_changed(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    assert_eq!(store.challenge_policy(ann.id).await.unwrap(), "all");

    store.set_challenge_policy(ann.id, "none").await.unwrap();

    assert_eq!(store.challenge_policy(ann.id).await.unwrap(), "none");
    assert_eq!(store.challenge_policy(bob.id).await.unwrap(), "all");
}

async fn concurrent_look_alike_registrations_admit_exactly_one(store: Arc<dyn Store>) {
    let names = ["j0hn", "john", "JOHN", "jOhn", "j0HN", "john"];

    let results = futures_join(names.into_iter().map(|name| {
        let store = store.clone();
        async move { store.create_user(name, "$argon2id$x", 1).await }
    }))
    .await;

    assert_eq!(
        results.iter().filter(|r| r.is_ok()).count(),
        1,
        "{results:?}"
    );
    assert!(results.iter().all(|r| matches!(
        r,
        Ok(_) | Err(StoreError::UsernameTaken) | Err(StoreError::UsernameConfusable)
    )));
}

/// Runs futures concurrently on the test's runtime and collects their results in order.
async fn futures_join<F>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::new();
    for handle in handles {
        out.push(handle.await.expect("task"));
    }
    out
}

async fn sessions_expire_and_can_be_revoked(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let token_a = [1u8; 32];
    let token_g = [2u8; 32];
    store
        .create_session(&token_a, &SessionOwner::User(ann.clone()), 1_000)
        .await
        .unwrap();
    store
        .create_session(
            &token_g,
            &SessionOwner::Guest(guest_session("guest-7f3a")),
            2_000,
        )
        .await
        .unwrap();
    assert_eq!(
        store.session(&token_a, 999).await.unwrap(),
        Some(SessionOwner::User(ann.clone()))
    );
    assert_eq!(
        store.session(&token_g, 999).await.unwrap(),
        Some(SessionOwner::Guest(guest_session("guest-7f3a")))
    );
    assert_eq!(
        store.session(&token_a, 1_000).await.unwrap(),
        None,
        "expired at its expiry time"
    );
    assert_eq!(store.session(&[3u8; 32], 0).await.unwrap(), None);
    store.delete_session(&token_g).await.unwrap();
    assert_eq!(store.session(&token_g, 999).await.unwrap(), None, "revoked");
    store
        .create_session(&[4u8; 32], &SessionOwner::User(ann), 5_000)
        .await
        .unwrap();
    assert_eq!(store.delete_expired_sessions(1_500).await.unwrap(), 1);
    assert!(store.session(&[4u8; 32], 4_999).await.unwrap().is_some());
}

async fn all_sessions_of_one_user_are_revoked_at_once(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    for (hash, owner) in [
        ([1u8; 32], SessionOwner::User(ann.clone())),
        ([2u8; 32], SessionOwner::User(ann.clone())),
        ([3u8; 32], SessionOwner::User(bob.clone())),
        ([4u8; 32], SessionOwner::Guest(guest_session("guest-7f3a"))),
    ] {
        store.create_session(&hash, &owner, 1_000).await.unwrap();
    }

    let mut revoked = store.delete_user_sessions(ann.id).await.unwrap();
    revoked.sort();

    assert_eq!(revoked, vec![vec![1u8; 32], vec![2u8; 32]]);
    assert_eq!(store.session(&[1u8; 32], 0).await.unwrap(), None);
    assert_eq!(store.session(&[2u8; 32], 0).await.unwrap(), None);
    assert_eq!(
        store.session(&[3u8; 32], 0).await.unwrap(),
        Some(SessionOwner::User(bob))
    );
    assert!(store.session(&[4u8; 32], 0).await.unwrap().is_some());
    assert_eq!(
        store.delete_user_sessions(ann.id).await.unwrap(),
        Vec::<Vec<u8>>::new(),
        "nothing left to revoke"
    );
}

async fn a_password_change_keeps_only_the_asking_session(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    for (hash, owner) in [
        ([1u8; 32], SessionOwner::User(ann.clone())),
        ([2u8; 32], SessionOwner::User(ann.clone())),
        ([3u8; 32], SessionOwner::User(bob.clone())),
    ] {
        store.create_session(&hash, &owner, 1_000).await.unwrap();
    }

    let revoked = store
        .change_password(ann.id, "$argon2id$changed", Some(&[1u8; 32]))
        .await
        .unwrap();

    assert_eq!(revoked, vec![vec![2u8; 32]]);
    let kept = store.session(&[1u8; 32], 0).await.unwrap();
    assert!(
        matches!(&kept, Some(SessionOwner::User(u)) if u.password_hash == "$argon2id$changed"),
        "{kept:?}"
    );
    assert_eq!(store.session(&[2u8; 32], 0).await.unwrap(), None);
    assert_eq!(
        store.session(&[3u8; 32], 0).await.unwrap(),
        Some(SessionOwner::User(bob.clone())),
        "another user's session stays"
    );
    assert_eq!(
        store
            .user_by_id(bob.id)
            .await
            .unwrap()
            .unwrap()
            .password_hash,
        bob.password_hash
    );
}

async fn a_password_change_without_a_kept_session_ends_them_all(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    for hash in [[1u8; 32], [2u8; 32]] {
        store
            .create_session(&hash, &SessionOwner::User(ann.clone()), 1_000)
            .await
            .unwrap();
    }

    let mut revoked = store
        .change_password(ann.id, "$argon2id$reset", None)
        .await
        .unwrap();
    revoked.sort();

    assert_eq!(revoked, vec![vec![1u8; 32], vec![2u8; 32]]);
    assert_eq!(
        store
            .user_by_id(ann.id)
            .await
            .unwrap()
            .unwrap()
            .password_hash,
        "$argon2id$reset"
    );
}

async fn a_reset_code_is_spent_once_only_by_its_user_before_it_expires(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    store
        .create_password_reset(ann.id, &[7u8; 32], 1_000)
        .await
        .unwrap();

    assert!(
        !store
            .take_password_reset(ann.id, &[8u8; 32], 0)
            .await
            .unwrap(),
        "another code"
    );
    assert!(
        !store
            .take_password_reset(bob.id, &[7u8; 32], 0)
            .await
            .unwrap(),
        "another user"
    );
    assert!(
        !store
            .take_password_reset(ann.id, &[7u8; 32], 1_000)
            .await
            .unwrap(),
        "expired at its expiry time"
    );
    assert!(store
        .take_password_reset(ann.id, &[7u8; 32], 999)
        .await
        .unwrap());
    assert!(
        !store
            .take_password_reset(ann.id, &[7u8; 32], 999)
            .await
            .unwrap(),
        "spent"
    );
}

async fn a_new_reset_code_or_a_password_change_voids_the_old_code(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    store
        .create_password_reset(ann.id, &[1u8; 32], 1_000)
        .await
        .unwrap();
    store
        .create_password_reset(ann.id, &[2u8; 32], 2_000)
        .await
        .unwrap();

    assert!(
        !store
            .take_password_reset(ann.id, &[1u8; 32], 0)
            .await
            .unwrap(),
        "replaced"
    );
    store
        .change_password(ann.id, "$argon2id$changed", None)
        .await
        .unwrap();
    assert!(
        !store
            .take_password_reset(ann.id, &[2u8; 32], 0)
            .await
            .unwrap(),
        "a changed password ends pending codes"
    );
}

async fn concurrent_uses_of_one_reset_code_admit_exactly_one(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    store
        .create_password_reset(ann.id, &[5u8; 32], 1_000)
        .await
        .unwrap();

    let results = futures_join((0..6).map(|_| {
        let store = store.clone();
        async move { store.take_password_reset(ann.id, &[5u8; 32], 0).await }
    }))
    .await;

    assert_eq!(
        results.into_iter().filter(|r| *r.as_ref().unwrap()).count(),
        1
    );
}

fn guest_session(name: &str) -> Guest {
    Guest {
        id: format!("{:0>20}", name.trim_start_matches("guest-")),
        name: name.to_owned(),
    }
}

async fn a_live_guest_name_is_held_by_one_session_and_an_expired_one_is_taken_over(
    store: Arc<dyn Store>,
) {
    let first = guest_session("guest-aaaaaa");
    let rival = Guest {
        id: "b".repeat(20),
        ..first.clone()
    };
    assert!(store
        .create_guest_session(&[1u8; 32], &first, 1_000, 0)
        .await
        .unwrap());
    assert!(
        !store
            .create_guest_session(&[2u8; 32], &rival, 5_000, 999)
            .await
            .unwrap(),
        "the name is held until 1000"
    );
    assert_eq!(
        store.session(&[2u8; 32], 999).await.unwrap(),
        None,
        "a refused session is not stored"
    );
    assert_eq!(
        store.live_guest("guest-aaaaaa", 999).await.unwrap(),
        Some(first.clone())
    );
    assert!(
        store
            .create_guest_session(&[2u8; 32], &rival, 5_000, 1_000)
            .await
            .unwrap(),
        "an expired holder gives the name up"
    );
    assert_eq!(
        store.session(&[2u8; 32], 1_000).await.unwrap(),
        Some(SessionOwner::Guest(rival.clone()))
    );
    assert_eq!(
        store.session(&[1u8; 32], 0).await.unwrap(),
        None,
        "the expired holder's token is gone"
    );
    assert_eq!(
        store.live_guest("guest-aaaaaa", 1_000).await.unwrap(),
        Some(rival)
    );
    assert_eq!(store.live_guest("guest-aaaaaa", 5_000).await.unwrap(), None);
}

async fn an_extended_session_lives_longer_and_never_shorter(store: Arc<dyn Store>) {
    let guest = guest_session("guest-cccccc");
    assert!(store
        .create_guest_session(&[1u8; 32], &guest, 1_000, 0)
        .await
        .unwrap());
    assert!(store.extend_session(&[1u8; 32], 9_000, 999).await.unwrap());
    assert!(store.session(&[1u8; 32], 8_999).await.unwrap().is_some());
    assert!(
        store
            .extend_session(&[1u8; 32], 2_000, 1_000)
            .await
            .unwrap(),
        "found, but not shortened"
    );
    assert!(store.session(&[1u8; 32], 8_999).await.unwrap().is_some());
    assert!(
        !store
            .extend_session(&[1u8; 32], 20_000, 9_000)
            .await
            .unwrap(),
        "an expired session is not brought back"
    );
    assert_eq!(store.session(&[1u8; 32], 9_000).await.unwrap(), None);
    assert!(!store.extend_session(&[7u8; 32], 9_000, 0).await.unwrap());
}

/// A board rule that lists every established player with `min_games` games (no other condition).
fn any_established(min_games: u32) -> BoardRule {
    BoardRule {
        min_games,
        min_opponents: 0,
        max_deviation: f64::INFINITY,
        active_since: 0,
    }
}

async fn the_leaderboard_ranks_settled_players_by_rating(store: Arc<dyn Store>) {
    let mut players = Vec::new();
    for name in ["ann", "bob", "cat", "dan"] {
        players.push(user(&store, name).await);
    }
    // Round robin, 12 rounds. The stronger player (lower index) wins two games in three and loses the third:
    // ann > bob > cat > dan. Each plays 36 games: established after 10 (the pool is seeding), and then each meets
    // the other three established.
    const ROUNDS: u32 = 12;
    let mut at = 10_000;
    for round in 0..ROUNDS {
        for i in 0..4 {
            for j in (i + 1)..4 {
                at += 1;
                let stronger_wins = round % 3 != 2;
                // Alternate colours.
                let (black, white, stronger) = if round % 2 == 0 {
                    (&players[i], &players[j], Side::Black)
                } else {
                    (&players[j], &players[i], Side::White)
                };
                let winner = if stronger_wins {
                    stronger
                } else {
                    stronger.opposite()
                };
                play(&store, black, white, Some(winner), at).await;
            }
        }
    }
    // Two players with few games: not established, never on the board whatever the rule's numbers.
    let eve = user(&store, "eve").await;
    let fay = user(&store, "fay").await;
    for k in 0..3 {
        at += 1;
        play(
            &store,
            &eve,
            &fay,
            Some(if k % 2 == 0 { Side::Black } else { Side::White }),
            at,
        )
        .await;
    }

    let rule = BoardRule::at(at);
    let board = store.leaderboard(RENJU, &rule, 50, 0).await.unwrap();
    let names: Vec<_> = board.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["ann", "bob", "cat", "dan"]);
    assert!(board
        .windows(2)
        .all(|w| w[0].rating.rating > w[1].rating.rating));
    assert!(board.iter().all(|s| s.established
        && s.established_opponents == 3
        && s.games == 3 * ROUNDS
        && s.last_game_at >= at - 6));
    assert!(board.iter().all(|s| Tier::of(&s.rating) != Tier::UNRANKED));
    assert_eq!(
        (board[0].wins, board[0].losses, board[0].draws),
        (24, 12, 0)
    );
    // eve has played, but only 3 games.
    let eve_now = standing(&store, &eve, RENJU).await.unwrap();
    assert!(!eve_now.established && eve_now.games == 3);
    assert!(store
        .leaderboard(RENJU, &any_established(0), 50, 0)
        .await
        .unwrap()
        .iter()
        .all(|s| s.name != "eve"));

    let page: Vec<_> = store
        .leaderboard(RENJU, &rule, 2, 1)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(page, ["bob", "cat"]);
    let at_minimum = store
        .leaderboard(RENJU, &any_established(3 * ROUNDS), 50, 0)
        .await
        .unwrap();
    assert_eq!(at_minimum.len(), 4);
    let above_minimum = store
        .leaderboard(RENJU, &any_established(3 * ROUNDS + 1), 50, 0)
        .await
        .unwrap();
    assert!(above_minimum.is_empty());
    // Each condition of the rule at its boundary.
    let count = |rule: BoardRule| {
        let store = store.clone();
        async move { store.leaderboard(RENJU, &rule, 50, 0).await.unwrap().len() }
    };
    assert_eq!(
        count(BoardRule {
            min_opponents: 3,
            ..any_established(0)
        })
        .await,
        4
    );
    assert_eq!(
        count(BoardRule {
            min_opponents: 4,
            ..any_established(0)
        })
        .await,
        0
    );
    let deviations: Vec<f64> = board.iter().map(|s| s.rating.deviation).collect();
    let lowest = deviations.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(
        count(BoardRule {
            max_deviation: lowest,
            ..any_established(0)
        })
        .await,
        1
    );
    let last = board.iter().map(|s| s.last_game_at).min().unwrap();
    assert_eq!(
        count(BoardRule {
            active_since: last,
            ..any_established(0)
        })
        .await,
        4
    );
    assert_eq!(
        count(BoardRule {
            active_since: at + 2,
            ..any_established(0)
        })
        .await,
        0
    );
    assert!(store
        .leaderboard(FREESTYLE, &any_established(0), 50, 0)
        .await
        .unwrap()
        .is_empty());
}

/// Makes `n` players established in the renju pool while it is still seeding: rounds in which each player meets
/// the one `1 + round` places on and the one as far back (two games each), until each has played
/// [`ESTABLISHED_GAMES`]. Returns them and the last game's time.
async fn seed_renju(store: &Arc<dyn Store>, n: usize, mut at: i64) -> (Vec<User>, i64) {
    let mut seeds = Vec::new();
    for i in 0..n {
        seeds.push(user(store, &format!("seed{i}")).await);
    }
    for round in 0..ESTABLISHED_GAMES.div_ceil(2) as usize {
        for i in 0..n {
            let j = (i + 1 + round) % n;
            at += 1;
            let winner = if (i + round) % 2 == 0 {
                Side::Black
            } else {
                Side::White
            };
            play(store, &seeds[i], &seeds[j], Some(winner), at).await;
        }
    }
    for seed in &seeds {
        assert!(
            standing(store, seed, RENJU).await.unwrap().established,
            "{}",
            seed.name
        );
    }
    (seeds, at)
}

async fn games_alone_establish_players_only_while_a_pool_is_seeding(store: Arc<dyn Store>) {
    let (seeds, mut at) = seed_renju(&store, SEED_PLAYERS as usize, 1_000).await;
    assert_eq!(seeds.len() as u32, SEED_PLAYERS);
    // The pool has its seeds: two newcomers playing each other are never established, however many games.
    let a = user(&store, "ring_a").await;
    let b = user(&store, "ring_b").await;
    for k in 0..(2 * ESTABLISHED_GAMES) {
        at += 1;
        let winner = if k % 2 == 0 { Side::Black } else { Side::White };
        play(&store, &a, &b, Some(winner), at).await;
    }
    let ring = standing(&store, &a, RENJU).await.unwrap();
    assert_eq!(ring.games, 2 * ESTABLISHED_GAMES);
    assert!(!ring.established);
    assert_eq!(ring.established_opponents, 0);
    assert!(
        ring.rating.deviation < 110.0,
        "ring games still rate both: {:?}",
        ring.rating
    );
    // Another pool seeds by itself.
    let mut freestyle = Vec::new();
    for k in 0..ESTABLISHED_GAMES {
        at += 1;
        let id = rated_game(&store, FREESTYLE_GAME, &a, &b).await;
        let winner = if k % 2 == 0 { Side::Black } else { Side::White };
        store.finish_game(id, &end(Some(winner), at)).await.unwrap();
        freestyle.push(id);
    }
    assert!(standing(&store, &a, FREESTYLE).await.unwrap().established);
}

async fn a_newcomer_moves_no_established_rating_until_established_by_established_opponents(
    store: Arc<dyn Store>,
) {
    let (seeds, mut at) = seed_renju(&store, SEED_PLAYERS as usize, 1_000).await;
    let new = user(&store, "newcomer").await;
    let mut met = HashSet::new();
    for k in 0..ESTABLISHED_GAMES {
        // Always the same three seeds, then the first again: three different established opponents.
        let seed = &seeds[(k % ESTABLISHED_OPPONENTS) as usize];
        let before = standing(&store, seed, RENJU).await.unwrap();
        at += 1;
        let id = play(&store, &new, seed, Some(Side::Black), at).await;
        met.insert(seed.id);
        let record = store.game(id).await.unwrap().unwrap();
        let changes = record.rating_changes.expect("rated");
        let after = standing(&store, seed, RENJU).await.unwrap();
        assert_eq!(
            after.rating, before.rating,
            "a newcomer moves no established rating"
        );
        assert_eq!(changes[1].before, changes[1].after);
        assert_eq!(
            (after.games, after.losses),
            (before.games + 1, before.losses + 1),
            "the game counts"
        );
        assert!(
            changes[0].after.rating > changes[0].before.rating,
            "the newcomer's rating moves"
        );
        let mine = standing(&store, &new, RENJU).await.unwrap();
        assert_eq!(mine.established_opponents as usize, met.len());
        assert_eq!(
            mine.established,
            k + 1 == ESTABLISHED_GAMES,
            "after {} games",
            k + 1
        );
    }
    // Established now: its games against established players move both.
    let seed = &seeds[5];
    let before = standing(&store, seed, RENJU).await.unwrap();
    at += 1;
    play(&store, seed, &new, Some(Side::White), at).await;
    let after = standing(&store, seed, RENJU).await.unwrap();
    assert!(after.rating.rating < before.rating.rating);
    assert_eq!(
        standing(&store, &new, RENJU)
            .await
            .unwrap()
            .established_opponents,
        4
    );
    // And a fresh newcomer no longer moves its rating either.
    let fresh = user(&store, "fresh").await;
    let before = standing(&store, &new, RENJU).await.unwrap();
    at += 1;
    play(&store, &fresh, &new, Some(Side::White), at).await;
    let after = standing(&store, &new, RENJU).await.unwrap();
    assert_eq!(after.rating, before.rating);
    assert_eq!(
        after.established_opponents, before.established_opponents,
        "a newcomer does not count"
    );
}

async fn history_and_games_of_page_newest_first(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    let cat = user(&store, "cat").await;
    let mut anns = Vec::new();
    for k in 0..5 {
        anns.push(play(&store, &ann, &bob, Some(Side::Black), 100 + k).await);
    }
    play(&store, &bob, &cat, Some(Side::Black), 200).await;
    let unfinished = rated_game(&store, FREESTYLE_GAME, &cat, &ann).await;
    anns.push(unfinished);

    let first: Vec<_> = store
        .games_of(ann.id, None, 4)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(first, [anns[5], anns[4], anns[3], anns[2]]);
    let next: Vec<_> = store
        .games_of(ann.id, Some(anns[2]), 4)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(next, [anns[1], anns[0]]);
    assert!(store
        .games_of(ann.id, Some(anns[0]), 4)
        .await
        .unwrap()
        .is_empty());

    let history = store.rating_history(ann.id).await.unwrap();
    assert_eq!(
        history.iter().map(|h| h.game_id).collect::<Vec<_>>(),
        anns[..5]
    );
    assert!(history
        .windows(2)
        .all(|w| w[0].at < w[1].at && w[0].rating < w[1].rating));
    assert_eq!(store.rating_history(cat.id).await.unwrap().len(), 1);
}

async fn two_hundred_concurrent_rated_games_are_each_rated_exactly_once(store: Arc<dyn Store>) {
    const GAMES: usize = 200;
    let mut players = Vec::new();
    for k in 0..6 {
        players.push(user(&store, &format!("player{k}")).await);
    }
    let mut games = Vec::new();
    for g in 0..GAMES {
        let black = &players[g % 6];
        let white = &players[(g + 1 + g / 6) % 6];
        let white = if white.id == black.id {
            &players[(g + 2) % 6]
        } else {
            white
        };
        let pool_rules = if g % 3 == 0 {
            FREESTYLE_GAME
        } else {
            RENJU_LOSE
        };
        let id = rated_game(&store, pool_rules, black, white).await;
        if g % 4 == 0 {
            // Some games have a swap, so the seats at the end differ from the seats at the start.
            store
                .append_actions(&[
                    (id, place(0, "h8")),
                    (id, place(1, "h9")),
                    (id, place(2, "j10")),
                    (id, stored(3, "swap")),
                ])
                .await
                .unwrap();
        }
        games.push(id);
    }

    // Every game is ended twice at once (say a resign racing a flag fall); only one ending may count.
    let mut tasks = Vec::new();
    for (g, &id) in games.iter().enumerate() {
        for attempt in 0..2 {
            let store = store.clone();
            let winner = match (g + attempt) % 3 {
                0 => Some(Side::Black),
                1 => Some(Side::White),
                _ => None,
            };
            let ending = end(winner, 50_000 + g as i64);
            let ending = if g % 4 == 0 {
                exchanged(ending)
            } else {
                ending
            };
            tasks.push(tokio::spawn(
                async move { store.finish_game(id, &ending).await },
            ));
        }
    }
    let mut firsts = HashMap::new();
    for (k, task) in tasks.into_iter().enumerate() {
        let result = task
            .await
            .expect("task")
            .expect("finish_game succeeds under contention");
        if let Some(finished) = result {
            assert!(
                firsts.insert(games[k / 2], finished).is_none(),
                "a game finished twice"
            );
        }
    }
    assert_eq!(firsts.len(), GAMES, "every game finished once");

    let mut expected_games: HashMap<(i64, Pool), u32> = HashMap::new();
    let mut changes_by_player: HashMap<(i64, Pool), Vec<store::RatingChange>> = HashMap::new();
    for &id in &games {
        let record = store.game(id).await.unwrap().unwrap();
        let changes = record.rating_changes.expect("rated exactly once");
        assert_eq!(Some(&changes), firsts[&id].rating_changes.as_ref());
        let ended = record.end.expect("ended");
        for change in changes {
            *expected_games
                .entry((change.user_id, change.pool.clone()))
                .or_default() += 1;
            changes_by_player
                .entry((change.user_id, change.pool.clone()))
                .or_default()
                .push(change);
        }
        // The winner recorded is the one of the ending that counted.
        let [b, w] = firsts[&id].rating_changes.clone().unwrap();
        match ended.winner {
            Some(Side::Black) => {
                assert!(b.after.rating > b.before.rating || w.after.rating < w.before.rating)
            }
            Some(Side::White) => {
                assert!(w.after.rating > w.before.rating || b.after.rating < b.before.rating)
            }
            None => {}
        }
    }
    let mut total = 0;
    for player in &players {
        for s in store.standings(player.id).await.unwrap() {
            let expected = expected_games[&(player.id, s.pool.clone())];
            assert_eq!(s.games, expected, "{} in {}", player.name, s.pool);
            assert_eq!(s.wins + s.losses + s.draws, s.games);
            total += s.games;
            // No lost update: the player's changes form one unbroken chain from the default rating to the
            // current one, each game starting from the previous game's result. (A game against a player who is not
            // established leaves an established rating as it was: those links are taken first where they fit.)
            let mut chain = changes_by_player
                .remove(&(player.id, s.pool.clone()))
                .unwrap();
            let mut current = Rating::default();
            while !chain.is_empty() {
                let next = chain
                    .iter()
                    .position(|c| c.before == current && c.after == current)
                    .or_else(|| chain.iter().position(|c| c.before == current))
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: a game did not start from the previous result",
                            player.name
                        )
                    });
                current = chain.swap_remove(next).after;
            }
            assert_eq!(current, s.rating);
        }
        assert_eq!(
            store.rating_history(player.id).await.unwrap().len() as u32,
            {
                let mut n = 0;
                for pool in POOLS {
                    n += expected_games.get(&(player.id, pool)).copied().unwrap_or(0);
                }
                n
            }
        );
    }
    assert_eq!(total as usize, 2 * GAMES);
    assert!(changes_by_player.is_empty());
}

async fn the_batch_writer_commits_many_rooms_and_answers_each(store: Arc<dyn Store>) {
    // On its own thread, as the server runs it.
    let (writer, task) = BatchWriter::spawn_on_own_thread(store.clone());
    let game = new_game(FREESTYLE_GAME, false, guest("guest-a"), guest("guest-b"));
    let mut rooms = Vec::new();
    for _ in 0..20 {
        rooms.push(store.create_game(&again(&game)).await.unwrap());
    }
    let points: Vec<String> = (0..10)
        .map(|k| format!("{}{}", (b'a' + k) as char, k + 1))
        .collect();
    let mut tasks = Vec::new();
    for &room in &rooms {
        let writer = writer.clone();
        let points = points.clone();
        tasks.push(tokio::spawn(async move {
            for (seq, point) in points.iter().enumerate() {
                writer.append(room, place(seq as u32, point)).await?;
            }
            Ok::<_, StoreError>(())
        }));
    }
    // A room with a bug sends a gap, at the same time: it alone gets the error.
    let bad_room = rooms[0];
    let bad = {
        let writer = writer.clone();
        tokio::spawn(async move { writer.append(bad_room, place(50, "o15")).await })
    };
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    assert_eq!(bad.await.unwrap(), Err(StoreError::OutOfOrder));
    writer.flush().await.unwrap();
    for &room in &rooms {
        let actions = store.game(room).await.unwrap().unwrap().actions;
        let seqs: Vec<u32> = actions.iter().map(|a| a.seq).collect();
        assert_eq!(seqs, (0..10).collect::<Vec<_>>());
    }
    // Retrying an acknowledged action is harmless; unknown games are refused.
    writer.append(rooms[1], place(9, &points[9])).await.unwrap();
    assert_eq!(
        writer.append(-5, place(0, "h8")).await,
        Err(StoreError::NoSuchGame)
    );

    // Sent, then every handle dropped: the task still writes it before ending.
    let last = writer.clone();
    let room = rooms[2];
    let pending = tokio::spawn(async move { last.append(room, place(10, "o1")).await });
    drop(writer);
    pending.await.unwrap().unwrap();
    task.await
        .expect("the writer task ends once every handle is gone");
    assert_eq!(
        store.game(rooms[2]).await.unwrap().unwrap().actions.len(),
        11
    );
    let unique: HashSet<_> = rooms.iter().collect();
    assert_eq!(unique.len(), rooms.len());
}

async fn a_batch_larger_than_one_insert_statement_is_written_whole(store: Arc<dyn Store>) {
    // 4,000 rows is more than one multi-row INSERT takes (36,000 bind parameters would pass both databases'
    // limits), interleaved over 40 games as a busy batch would be.
    let game = new_game(FREESTYLE_GAME, false, guest("guest-a"), guest("guest-b"));
    let mut games = Vec::new();
    for _ in 0..40 {
        games.push(store.create_game(&again(&game)).await.unwrap());
    }
    let swap = |seq| stored(seq, if seq % 2 == 0 { "swap" } else { "keep" });
    let batch: Vec<_> = (0..100)
        .flat_map(|seq| games.iter().map(move |&g| (g, seq)))
        .map(|(g, seq)| (g, swap(seq)))
        .collect();
    store.append_actions(&batch).await.unwrap();
    // A retry of the whole batch plus one more action each is accepted and adds only the new ones.
    let mut again = batch.clone();
    again.extend(games.iter().map(|&g| (g, swap(100))));
    store.append_actions(&again).await.unwrap();
    for &g in &games {
        let actions = store.game(g).await.unwrap().unwrap().actions;
        assert_eq!(actions, (0..=100).map(swap).collect::<Vec<_>>());
    }
}

async fn games_are_created_moved_and_ended_in_one_batch(store: Arc<dyn Store>) {
    let ana = user(&store, "ana").await;
    let bo = user(&store, "bo").await;
    let rated = rated_game(&store, FREESTYLE_GAME, &ana, &bo).await;
    store
        .append_actions(&[(rated, place(0, "h8")), (rated, place(1, "h9"))])
        .await
        .unwrap();
    let casual = store
        .create_game(&new_game(FREESTYLE_GAME, false, guest("g1"), guest("g2")))
        .await
        .unwrap();
    let batch = [
        Write::Append(casual, place(0, "a1")),
        Write::Create(new_game(FREESTYLE_GAME, false, guest("g3"), guest("g4"))),
        Write::Finish(rated, end(Some(Side::Black), 50)),
        Write::Append(casual, place(1, "b2")),
        Write::Finish(rated, end(Some(Side::White), 60)),
    ];
    let answers = store.write_batch(&batch).await.unwrap();
    assert_eq!(answers.len(), 5);
    assert_eq!(answers[0], Written::Appended);
    let Written::Created(fresh) = answers[1] else {
        panic!("a creation answers with the new id: {:?}", answers[1]);
    };
    assert!(fresh != casual && fresh != rated);
    match &answers[2] {
        Written::Finished(Some(finished)) => {
            let [black, white] = finished.rating_changes.clone().expect("rated");
            assert_eq!((black.user_id, white.user_id), (ana.id, bo.id));
            assert!(black.after.rating > black.before.rating);
        }
        other => panic!("the first ending rates the game: {other:?}"),
    }
    assert_eq!(answers[3], Written::Appended);
    assert_eq!(
        answers[4],
        Written::Finished(None),
        "the second ending of one game in the same batch changes nothing"
    );
    let record = store.game(casual).await.unwrap().unwrap();
    assert_eq!(record.actions.len(), 2);
    let ended = store.game(rated).await.unwrap().unwrap();
    assert_eq!(ended.end.map(|e| e.winner), Some(Some(Side::Black)));
    let fresh = store.game(fresh).await.unwrap().unwrap();
    assert_eq!(fresh.game.black.name, "g3");
    assert!(fresh.end.is_none());
    assert!(store.write_batch(&[]).await.unwrap().is_empty());
}

async fn a_batch_with_one_bad_write_commits_nothing(store: Arc<dyn Store>) {
    let game = new_game(FREESTYLE_GAME, false, guest("g1"), guest("g2"));
    let id = store.create_game(&game).await.unwrap();
    let before = store.unfinished_games().await.unwrap().len();
    let batch = [
        Write::Create(again(&game)),
        Write::Append(id, place(0, "h8")),
        Write::Finish(id, end(None, 5)),
        Write::Append(-7, place(0, "h8")),
    ];
    assert_eq!(
        store.write_batch(&batch).await.unwrap_err(),
        StoreError::NoSuchGame
    );
    let record = store.game(id).await.unwrap().unwrap();
    assert!(record.actions.is_empty(), "the move was rolled back");
    assert!(record.end.is_none(), "the ending was rolled back");
    assert_eq!(
        store.unfinished_games().await.unwrap().len(),
        before,
        "the creation was rolled back"
    );
}

async fn a_takeback_is_a_batched_write_and_leaves_the_head_it_made(store: Arc<dyn Store>) {
    let game = new_game(FREESTYLE_GAME, false, guest("g1"), guest("g2"));
    let taken = store.create_game(&game).await.unwrap();
    let other = store.create_game(&again(&game)).await.unwrap();
    let moves = ["h8", "h9", "j9", "j10"];
    let mut first: Vec<Write> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| Write::Append(taken, place(i as u32, m)))
        .collect();
    first.push(Write::Append(other, place(0, "a1")));
    store.write_batch(&first).await.unwrap();

    // A takeback shares a batch with other rooms' moves, and is answered in its place.
    let batch = [
        Write::Append(other, place(1, "b2")),
        Write::Truncate(taken, 2),
        Write::Append(other, place(2, "c3")),
    ];
    assert_eq!(
        store.write_batch(&batch).await.unwrap(),
        [Written::Appended, Written::Truncated, Written::Appended]
    );
    assert_eq!(
        store.game(taken).await.unwrap().unwrap().actions,
        [place(0, "h8"), place(1, "h9")]
    );
    assert_eq!(store.game(other).await.unwrap().unwrap().actions.len(), 3);
    // The game's head is where the takeback left it, not where it was: the old next seq is a gap now.
    assert_eq!(
        store.append_actions(&[(taken, place(4, "k11"))]).await,
        Err(StoreError::OutOfOrder)
    );
    store
        .append_actions(&[(taken, place(2, "g7"))])
        .await
        .unwrap();

    // Within one batch the takebacks come before the appends.
    let batch = [
        Write::Append(taken, place(2, "f6")),
        Write::Truncate(taken, 2),
    ];
    store.write_batch(&batch).await.unwrap();
    assert_eq!(
        store.game(taken).await.unwrap().unwrap().actions,
        [place(0, "h8"), place(1, "h9"), place(2, "f6")]
    );

    // Keeping more actions than there are removes nothing, and the game goes on from its last one.
    store.truncate_actions(taken, 10).await.unwrap();
    store
        .append_actions(&[(taken, place(3, "e5"))])
        .await
        .unwrap();

    // A takeback of an unknown game refuses its batch, which commits nothing.
    let batch = [Write::Append(other, place(3, "d4")), Write::Truncate(-7, 0)];
    assert_eq!(
        store.write_batch(&batch).await.unwrap_err(),
        StoreError::NoSuchGame
    );
    assert_eq!(store.game(other).await.unwrap().unwrap().actions.len(), 3);

    // Through the batch writer, as the rooms send it.
    let writer = BatchWriter::spawn(store.clone());
    writer.truncate_actions(taken, 1).await.unwrap();
    writer.append(taken, place(1, "a2")).await.unwrap();
    assert_eq!(
        store.game(taken).await.unwrap().unwrap().actions,
        [place(0, "h8"), place(1, "a2")]
    );
    assert_eq!(
        writer.truncate_actions(-7, 0).await,
        Err(StoreError::NoSuchGame)
    );
}

async fn a_game_is_found_by_its_public_id_and_only_by_the_whole_of_it(store: Arc<dyn Store>) {
    let game = new_game(FREESTYLE_GAME, false, guest("guest-a"), guest("guest-b"));
    let id = store.create_game(&game).await.unwrap();
    assert_eq!(game.public_id.len(), store::PUBLIC_ID_LEN);

    let found = store
        .game_by_public_id(&game.public_id)
        .await
        .unwrap()
        .expect("found by its public id");
    assert_eq!(found.id, id);
    assert_eq!(found.game.public_id, game.public_id);
    assert_eq!(
        store.game(id).await.unwrap().unwrap().game.public_id,
        game.public_id
    );
    let prefix = &game.public_id[..store::PUBLIC_ID_LEN - 1];
    assert!(store.game_by_public_id(prefix).await.unwrap().is_none());
    assert!(store
        .game_by_public_id(&id.to_string())
        .await
        .unwrap()
        .is_none());
    let other = new_game(FREESTYLE_GAME, false, guest("guest-a"), guest("guest-b"));
    assert_ne!(other.public_id, game.public_id, "fresh ids differ");
}

async fn public_games_of_leaves_out_private_games(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    let mut ids = Vec::new();
    for public in [true, false, true, false] {
        let game = NewGame {
            public,
            ..new_game(FREESTYLE_GAME, false, seat(&ann), seat(&bob))
        };
        ids.push(store.create_game(&game).await.unwrap());
    }
    let listed = |games: Vec<store::GameRecord>| games.iter().map(|g| g.id).collect::<Vec<_>>();

    assert_eq!(
        listed(store.games_of(ann.id, None, 10).await.unwrap()),
        [ids[3], ids[2], ids[1], ids[0]]
    );
    assert_eq!(
        listed(store.public_games_of(ann.id, None, 10).await.unwrap()),
        [ids[2], ids[0]]
    );
    assert_eq!(
        listed(
            store
                .public_games_of(bob.id, Some(ids[2]), 1)
                .await
                .unwrap()
        ),
        [ids[0]]
    );
}

async fn a_players_games_filter_by_pool_rated_and_their_own_result(store: Arc<dyn Store>) {
    use store::{GameFilter, Outcome};
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    // Renju, rated (private): Ann wins as black, loses as white, draws.
    let g0 = play(&store, &ann, &bob, Some(Side::Black), 2_000).await;
    let g1 = play(&store, &bob, &ann, Some(Side::Black), 3_000).await;
    let g2 = play(&store, &ann, &bob, None, 4_000).await;
    // Freestyle, casual (public): one still being played, one Ann wins as white.
    let g3 = store
        .create_game(&new_game(FREESTYLE_GAME, false, seat(&ann), seat(&bob)))
        .await
        .unwrap();
    let g4 = store
        .create_game(&new_game(FREESTYLE_GAME, false, seat(&bob), seat(&ann)))
        .await
        .unwrap();
    store
        .finish_game(g4, &end(Some(Side::White), 5_000))
        .await
        .unwrap();
    let list = |user: store::UserId,
                before: Option<GameId>,
                limit: u32,
                private: bool,
                filter: GameFilter| {
        let store = store.clone();
        async move {
            store
                .games_filtered(user, before, limit, private, &filter)
                .await
                .unwrap()
                .iter()
                .map(|g| g.id)
                .collect::<Vec<_>>()
        }
    };
    let by = |outcome| GameFilter {
        outcome: Some(outcome),
        ..GameFilter::default()
    };
    assert_eq!(
        list(ann.id, None, 10, true, GameFilter::default()).await,
        [g4, g3, g2, g1, g0]
    );
    let renju = GameFilter {
        pool: Some(RENJU.clone()),
        ..GameFilter::default()
    };
    assert_eq!(
        list(ann.id, None, 10, true, renju.clone()).await,
        [g2, g1, g0]
    );
    let freestyle = GameFilter {
        pool: Some(FREESTYLE.clone()),
        ..GameFilter::default()
    };
    assert_eq!(list(ann.id, None, 10, true, freestyle).await, [g4, g3]);
    let rated = |rated| GameFilter {
        rated: Some(rated),
        ..GameFilter::default()
    };
    assert_eq!(
        list(ann.id, None, 10, true, rated(true)).await,
        [g2, g1, g0]
    );
    assert_eq!(list(ann.id, None, 10, true, rated(false)).await, [g4, g3]);
    // The result is the player's own, whichever colour they held; an unfinished game is none of them.
    assert_eq!(
        list(ann.id, None, 10, true, by(Outcome::Win)).await,
        [g4, g0]
    );
    assert_eq!(list(ann.id, None, 10, true, by(Outcome::Loss)).await, [g1]);
    assert_eq!(list(ann.id, None, 10, true, by(Outcome::Draw)).await, [g2]);
    assert_eq!(list(bob.id, None, 10, true, by(Outcome::Win)).await, [g1]);
    assert_eq!(
        list(bob.id, None, 10, true, by(Outcome::Loss)).await,
        [g4, g0]
    );
    // Filters combine, page with `before`, and leave private games to their player.
    let renju_wins = GameFilter {
        outcome: Some(Outcome::Win),
        ..renju
    };
    assert_eq!(list(ann.id, None, 10, true, renju_wins).await, [g0]);
    assert_eq!(list(ann.id, None, 1, true, by(Outcome::Win)).await, [g4]);
    assert_eq!(
        list(ann.id, Some(g4), 1, true, by(Outcome::Win)).await,
        [g0]
    );
    assert_eq!(list(ann.id, None, 10, false, by(Outcome::Win)).await, [g4]);
    // Issue #36: the games being played (a profile's "playing now") apart from the finished ones (its archive).
    let finished = |finished| GameFilter {
        finished: Some(finished),
        ..GameFilter::default()
    };
    assert_eq!(list(ann.id, None, 10, true, finished(false)).await, [g3]);
    assert_eq!(list(bob.id, None, 10, false, finished(false)).await, [g3]);
    assert_eq!(
        list(ann.id, None, 10, true, finished(true)).await,
        [g4, g2, g1, g0]
    );
    assert_eq!(list(ann.id, None, 10, false, finished(true)).await, [g4]);
}

const OTHELLO: Pool = Pool::new("othello", "standard");
const OTHELLO_GAME: Config = Config {
    text: "scoring=japanese",
    pool: &OTHELLO,
};

/// Plays one rated game of `config` to a result, the seats as started.
async fn play_in(
    store: &Arc<dyn Store>,
    config: Config,
    (black, white): (&User, &User),
    winner: Option<Side>,
    at: i64,
) {
    let id = rated_game(store, config, black, white).await;
    store
        .finish_game(id, &end(winner, at))
        .await
        .expect("finish")
        .expect("first finish");
}

async fn rated_games_move_each_games_ladder_and_casual_ones_do_not(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let bob = user(&store, "bob").await;
    // Othello climbs the points ladder: +2 a win, -2 a loss, 0 a draw.
    play_in(&store, OTHELLO_GAME, (&ann, &bob), Some(Side::Black), 1_000).await;
    play_in(&store, OTHELLO_GAME, (&bob, &ann), Some(Side::White), 2_000).await;
    play_in(&store, OTHELLO_GAME, (&ann, &bob), None, 3_000).await;
    let points = |s: Option<store::PoolStanding>| s.expect("a standing").ladder_points;
    assert_eq!(points(standing(&store, &ann, OTHELLO).await), 4);
    assert_eq!(points(standing(&store, &bob, OTHELLO).await), -4);

    // A casual game moves nothing.
    let casual = store
        .create_game(&new_game(OTHELLO_GAME, false, seat(&ann), seat(&bob)))
        .await
        .unwrap();
    store
        .finish_game(casual, &end(Some(Side::White), 4_000))
        .await
        .unwrap();
    assert_eq!(points(standing(&store, &ann, OTHELLO).await), 4);

    // Gomoku climbs 段位, one ladder for every rule set: 10 a game between equals, the loser never below 0.
    play_in(&store, RENJU_GAME, (&ann, &bob), Some(Side::Black), 5_000).await;
    assert_eq!(points(standing(&store, &ann, RENJU).await), 10);
    assert_eq!(points(standing(&store, &bob, RENJU).await), 0);
    play_in(
        &store,
        FREESTYLE_GAME,
        (&bob, &ann),
        Some(Side::Black),
        6_000,
    )
    .await;
    assert_eq!(points(standing(&store, &bob, FREESTYLE).await), 10);
    assert_eq!(
        points(standing(&store, &bob, RENJU).await),
        10,
        "one Gomoku ladder"
    );
    assert_eq!(points(standing(&store, &ann, RENJU).await), 0);
    // The Othello ladder is untouched by Gomoku games.
    assert_eq!(points(standing(&store, &ann, OTHELLO).await), 4);

    // The leaderboard carries the same points: seven drawn games more make both established (10 games while the
    // pool seeds) without moving the ladder.
    for i in 0..7 {
        play_in(&store, OTHELLO_GAME, (&ann, &bob), None, 7_000 + i).await;
    }
    let board = store
        .leaderboard(OTHELLO, &any_established(0), 50, 0)
        .await
        .unwrap();
    let listed: Vec<_> = board.iter().map(|s| (s.user_id, s.ladder_points)).collect();
    assert_eq!(listed.len(), 2);
    assert!(listed.contains(&(ann.id, 4)) && listed.contains(&(bob.id, -4)));
}

async fn a_match_is_stored_and_reads_its_rooms_games_and_winners(store: Arc<dyn Store>) {
    let ann = user(&store, "ann").await;
    let new = store::NewMatch {
        room: "r-match".to_owned(),
        game: "othello".to_owned(),
        games: 2,
        rated: false,
        first: seat(&ann),
        second: guest("guest-b"),
        created_at: 1_000,
    };
    let id = store.create_match(&new).await.unwrap();
    let found = store.match_by_id(id).await.unwrap().expect("stored");
    assert_eq!((found.id, &found.new), (id, &new));
    assert_eq!(store.match_of_room("r-match").await.unwrap(), Some(found));
    assert_eq!(store.match_of_room("r-other").await.unwrap(), None);
    assert_eq!(store.match_by_id(id + 1000).await.unwrap(), None);

    // The room's games in order: the first won by black (ann), the second won by black after an exchange of
    // colours (so by the player who started as white: ann again), a third still played.
    let mut game = new_game(RENJU_SWAP, false, seat(&ann), guest("guest-b"));
    game.room = "r-match".to_owned();
    let first = store.create_game(&game).await.unwrap();
    store
        .finish_game(first, &end(Some(Side::Black), 2_000))
        .await
        .unwrap();
    let mut second_game = again(&game);
    (second_game.black, second_game.white) = (guest("guest-b"), seat(&ann));
    let second = store.create_game(&second_game).await.unwrap();
    store
        .finish_game(second, &exchanged(end(Some(Side::Black), 3_000)))
        .await
        .unwrap();
    let third = store.create_game(&again(&game)).await.unwrap();
    let mut elsewhere = again(&game);
    elsewhere.room = "r-other".to_owned();
    store.create_game(&elsewhere).await.unwrap();

    let games = store.match_games("r-match").await.unwrap();
    assert_eq!(
        games.iter().map(|g| g.id).collect::<Vec<_>>(),
        [first, second, third]
    );
    assert_eq!(games[0].winner().map(|p| p.name.as_str()), Some("ann"));
    assert!(games[1].swapped);
    assert_eq!(games[1].winner().map(|p| p.name.as_str()), Some("ann"));
    assert_eq!((games[2].end.clone(), games[2].winner()), (None, None));
    assert_eq!(games[0].public_id, game.public_id);
}

/// The daily analysis limit (issue #33) holds under concurrent requests: with one request left, of twenty at
/// once exactly one is taken; at the limit none is; another player and an expired window are unaffected.
async fn concurrent_analysis_requests_at_the_daily_limit_admit_exactly_the_requests_left(
    store: Arc<dyn Store>,
) {
    const LIMIT: u32 = 3;
    let game = store
        .create_game(&new_game(FREESTYLE_GAME, false, guest("ann"), guest("bob")))
        .await
        .unwrap();
    // A request outside the window counts for nothing; two inside it leave one.
    assert!(store
        .take_analysis_request("user:1", game, 1_000, 0, LIMIT)
        .await
        .unwrap());
    for now in [100_000, 100_001] {
        assert!(store
            .take_analysis_request("user:1", game, now, 50_000, LIMIT)
            .await
            .unwrap());
    }

    let race = |now: i64| {
        let store = store.clone();
        futures_join((0..20).map(move |_| {
            let store = store.clone();
            async move {
                store
                    .take_analysis_request("user:1", game, now, 50_000, LIMIT)
                    .await
            }
        }))
    };
    let first = race(100_002).await;
    let second = race(100_003).await;

    let taken = |results: &[Result<bool, StoreError>]| {
        results
            .iter()
            .map(|r| r.as_ref().copied().map_err(|e| e.to_string()))
            .collect::<Result<Vec<bool>, _>>()
            .unwrap()
            .into_iter()
            .filter(|&t| t)
            .count()
    };
    assert_eq!(taken(&first), 1, "one request was left: {first:?}");
    assert_eq!(taken(&second), 0, "none was left: {second:?}");
    // Another player's limit is their own.
    assert!(store
        .take_analysis_request("user:2", game, 100_004, 50_000, LIMIT)
        .await
        .unwrap());
}
