//! Durable storage: games and their actions, accounts, sessions and ratings.
//!
//! One [`Store`] trait with two implementations, SQLite (the embedded default) and Postgres, each with its own
//! migrations folder under `migrations/`. Ids are integers, times are integer milliseconds since the Unix epoch.

#![warn(missing_docs)]

mod append;
mod batch;
mod buckets;
mod codec;
mod common;
pub mod community;
pub mod events;
pub mod fairplay;
mod ownership;
mod postgres;
pub mod refund;
mod skeleton;
mod sqlite;
mod sqlite_writer;
mod statements;
mod write;

use std::sync::Arc;

use async_trait::async_trait;

pub use batch::{BatchWriter, RatedEnd};
pub use buckets::{BucketAnswer, BucketShape, BucketUse};
pub use community::CommunityStore;
pub use events::EventStore;
pub use fairplay::FairPlayStore;
pub use ownership::{Fence, RoomOpening};
pub use postgres::PostgresStore;
pub use skeleton::name_skeleton;
pub use sqlite::SqliteStore;

/// A stored game's id.
pub type GameId = i64;
/// A registered user's id.
pub type UserId = i64;
/// Milliseconds since the Unix epoch.
pub type Millis = i64;

/// Who sits in a seat: a registered user or a guest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRef {
    /// Display name (`guest-…` for guests; a live guest's name is unique, see [`Store::live_guest`]).
    pub name: String,
    /// Set for registered users.
    pub user_id: Option<UserId>,
}

/// A game about to start.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game's public id ([`new_public_id`]): what links and the API name it by, unguessable so that a
    /// private game is found only by those who were given it. The integer id stays internal.
    pub public_id: String,
    /// The room's public id.
    pub room: String,
    /// Which game it is (`gomoku`), stored as given.
    pub kind: String,
    /// The game's configuration as the caller's game writes it (`games::storage`:
    /// `size=15,rule_set=renju,forbidden_policy=reject,opening=none`), stored and returned as given. The store
    /// reads nothing into it.
    pub config: String,
    /// The rating pool the game is rated in, when it is rated: the caller's choice, stored with the game (the
    /// store knows no rules to derive it from).
    pub pool: ratings::Pool,
    /// The time control, as JSON the store keeps as it is.
    pub time_control: String,
    /// Whether the room is listed in the lobby (a private room is reached only by its id).
    pub public: bool,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// The player who starts in the black seat ([`Side::Black`]).
    pub black: PlayerRef,
    /// The player who starts in the white seat ([`Side::White`]).
    pub white: PlayerRef,
    /// When it started.
    pub started_at: Millis,
}

/// One accepted action of a game, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// Zero-based index in the game's action list.
    pub seq: u32,
    /// The action's stored text, in the caller's notation (`h8`, `swap`, `f5`, `32-28`), stored and returned as
    /// given. Rows written before the notation hold the JSON of that time (`{"action":"place","point":"h8"}`),
    /// returned as stored too; the caller's game reads both (`games::storage`).
    pub text: String,
    /// The game's move number after this action, when the caller's game counts the action as a move (a stone
    /// placed, a disc, a draughts move); `None` for other actions (a swap decision, a pass, a claim). The
    /// caller says; the store keeps it (rows written before hold the stones on the board, the same number for
    /// Gomoku).
    pub ply: Option<u32>,
    /// Milliseconds the actor's clock ran for this action.
    pub used_ms: i64,
    /// Remaining clock of the black and the white seat after the action (`None` without a time control).
    pub remaining_ms: Option<[i64; 2]>,
    /// When it was accepted.
    pub at: Millis,
}

/// One of a game's two seats by the colour the store files it under (the `black_*` and `white_*` columns,
/// `winner`): the caller's game says which of its players that is (see [`SeatsAtEnd`]). The store knows no
/// game: for it these are two names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The black seat (`black`).
    Black,
    /// The white seat (`white`).
    White,
}

impl Side {
    /// The stored text (`black`, `white`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }
    /// The other side.
    pub const fn opposite(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The winning side (as seated at the end, after any exchange of colours); `None` for a draw or an aborted
    /// game.
    pub winner: Option<Side>,
    /// `true` when the game was aborted without result (never rated).
    pub aborted: bool,
    /// Stable reason code (`five`, `resign`, `timeout`, `abandoned`, `draw_agreed`, `forbidden_move`, …).
    pub reason: String,
    /// When it ended.
    pub ended_at: Millis,
}

/// Who holds which colour at the end of a game, as the caller's game says (an opening may exchange the seats
/// the game started with; the store knows no rules to tell).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SeatsAtEnd {
    /// The player who started black holds black.
    #[default]
    AsStarted,
    /// The players exchanged colours: the player who started black holds white.
    Exchanged,
}

impl SeatsAtEnd {
    /// The (black, white) pair at the end, given the pair at the start.
    pub fn arrange<T>(self, black_at_start: T, white_at_start: T) -> (T, T) {
        match self {
            SeatsAtEnd::AsStarted => (black_at_start, white_at_start),
            SeatsAtEnd::Exchanged => (white_at_start, black_at_start),
        }
    }
}

/// The rating step of a rated game, supplied by the caller (the server gives [`ratings::glicko2::rate_game`]):
/// from black's and white's ratings before the game (as seated at the end) and black's score (1, 0.5 or 0), both
/// ratings after it. The store reads the two ratings, runs this and writes the results, in one transaction.
#[derive(Clone, Copy)]
pub struct Rater(
    pub fn(ratings::Rating, ratings::Rating, f64) -> (ratings::Rating, ratings::Rating),
);

impl std::fmt::Debug for Rater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Rater(..)")
    }
}

/// The write that ends a game ([`Store::finish_game`], [`Write::Finish`]): how it ended, who held which colour
/// then, and how to rate it.
#[derive(Clone, Debug)]
pub struct Finish {
    /// How it ended.
    pub end: GameEnd,
    /// Who holds which colour at the end.
    pub seats: SeatsAtEnd,
    /// The rating step, used when the game is rated.
    pub rater: Rater,
}

/// One player's rating change from one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The user.
    pub user_id: UserId,
    /// The rating pool.
    pub pool: ratings::Pool,
    /// Before the game.
    pub before: ratings::Rating,
    /// After the game.
    pub after: ratings::Rating,
}

/// What [`Store::finish_game`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The rating changes of both players (black's first, as seated at the end), when the game was rated.
    pub rating_changes: Option<[RatingChange; 2]>,
}

/// One game write that the [`BatchWriter`] commits together with others in one transaction
/// ([`Store::write_batch`]).
#[derive(Clone, Debug)]
pub enum Write {
    /// [`Store::create_game`].
    Create(NewGame),
    /// One action of [`Store::append_actions`].
    Append(GameId, StoredAction),
    /// [`Store::finish_game`].
    Finish(GameId, Finish),
    /// [`Store::truncate_actions`]: a takeback keeps the game's actions before seq `keep` and removes the rest.
    Truncate(GameId, u32),
}

/// What one [`Write`] did, in the same position of [`Store::write_batch`]'s answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Written {
    /// The new game's id.
    Created(GameId),
    /// The action is stored (or was already, identically).
    Appended,
    /// As [`Store::finish_game`] answers.
    Finished(Option<Finished>),
    /// The actions from `keep` on are removed (there may have been none).
    Truncated,
}

/// Which of a player's games a list shows (a profile's filters); the default shows all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only games of this rating pool (its rules: `renju`, `freestyle`, `othello/standard`, …).
    pub pool: Option<ratings::Pool>,
    /// Only rated (`true`) or only casual (`false`) games.
    pub rated: Option<bool>,
    /// Only the games the player won, lost or drew (finished games; an aborted game is none of them).
    pub outcome: Option<Outcome>,
    /// Only finished games (`true`: over or aborted, the archive) or only games still being played (`false`).
    pub finished: Option<bool>,
}

/// A finished game's result for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
    /// Neither won.
    Draw,
}

/// A stored game with its actions.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Id.
    pub id: GameId,
    /// The game as it started.
    pub game: NewGame,
    /// Its actions in order.
    pub actions: Vec<StoredAction>,
    /// How it ended; `None` while it is unfinished.
    pub end: Option<GameEnd>,
    /// Rating changes, when rated and finished.
    pub rating_changes: Option<[RatingChange; 2]>,
}

/// A match's id.
pub type MatchId = i64;

/// A new match (issue #34): two players and how many games they play in one room. `first` is the challenger,
/// who sits in the room's seat 0 when it opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    /// The room its games are played in.
    pub room: String,
    /// The game's kind (`gomoku`, `othello`, …).
    pub game: String,
    /// How many games.
    pub games: u32,
    /// Whether its games are rated.
    pub rated: bool,
    /// The challenger.
    pub first: PlayerRef,
    /// The challenged player.
    pub second: PlayerRef,
    /// When it was made.
    pub created_at: Millis,
}

/// A stored match: [`NewMatch`] with its id. Its games are its room's ([`Store::match_games`]); the score and
/// the result are read from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    /// Id.
    pub id: MatchId,
    /// The match as made.
    pub new: NewMatch,
}

/// One game of a match as the match reads it: who held black and white at the start, whether they exchanged
/// colours (a swap opening), and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchGame {
    /// The game's id.
    pub id: GameId,
    /// The game's public id (its record's address).
    pub public_id: String,
    /// Black at the start.
    pub black: PlayerRef,
    /// White at the start.
    pub white: PlayerRef,
    /// Whether the players exchanged colours during the game (known once it ended).
    pub swapped: bool,
    /// How it ended; `None` while it is played.
    pub end: Option<GameEnd>,
    /// When it started.
    pub started_at: Millis,
}

impl MatchGame {
    /// The player who won (`None`: a draw, an aborted or an unfinished game).
    pub fn winner(&self) -> Option<&PlayerRef> {
        let end = self.end.as_ref().filter(|e| !e.aborted)?;
        let seats = if self.swapped {
            SeatsAtEnd::Exchanged
        } else {
            SeatsAtEnd::AsStarted
        };
        let (black, white) = seats.arrange(&self.black, &self.white);
        Some(match end.winner? {
            Side::Black => black,
            Side::White => white,
        })
    }
}

/// A registered user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// Id.
    pub id: UserId,
    /// Name as registered (unique ignoring case).
    pub name: String,
    /// argon2id PHC string.
    pub password_hash: String,
    /// When registered.
    pub created_at: Millis,
}

/// A guest as its session stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guest {
    /// The guest's own id (random, 20 lower-case hex digits): what rooms tell guests apart by, since a name is
    /// only unique among live guests and is reused once its holder expires.
    pub id: String,
    /// Display name (`guest-…`), unique among unexpired guest sessions.
    pub name: String,
}

/// Whom a session token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionOwner {
    /// A registered user.
    User(User),
    /// A guest.
    Guest(Guest),
}

/// A player's standing in one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolStanding {
    /// The user.
    pub user_id: UserId,
    /// Their name.
    pub name: String,
    /// The pool.
    pub pool: ratings::Pool,
    /// Current rating.
    pub rating: ratings::Rating,
    /// Rated games, wins, losses, draws in this pool.
    pub games: u32,
    /// Rated wins.
    pub wins: u32,
    /// Rated losses.
    pub losses: u32,
    /// Rated draws.
    pub draws: u32,
    /// Whether the player is established in the pool ([`ratings::established`]).
    pub established: bool,
    /// Different opponents met in rated games of the pool while they were established.
    pub established_opponents: u32,
    /// When the player's last rated game in the pool ended.
    pub last_game_at: Millis,
    /// The player's points on the pool's game's ladder ([`ratings::ladder`]; every Gomoku pool shares one).
    pub ladder_points: i64,
}

/// Whom a leaderboard lists: established players with at least `min_games` rated games in the pool, at least
/// `min_opponents` different established opponents, a deviation of at most `max_deviation` and a rated game there
/// since `active_since` ([`ratings::established::listed`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardRule {
    /// Rated games in the pool.
    pub min_games: u32,
    /// Different established opponents.
    pub min_opponents: u32,
    /// Highest rating deviation.
    pub max_deviation: f64,
    /// The earliest last rated game (milliseconds since the Unix epoch).
    pub active_since: Millis,
}

impl BoardRule {
    /// The leaderboard's rule ([`ratings::established`]) at `now`.
    pub fn at(now: Millis) -> BoardRule {
        use ratings::established as e;
        BoardRule {
            min_games: e::BOARD_GAMES,
            min_opponents: e::BOARD_OPPONENTS,
            max_deviation: e::BOARD_DEVIATION,
            active_since: e::active_since(now),
        }
    }
}

/// One point of a rating history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// The game that changed it.
    pub game_id: GameId,
    /// The pool.
    pub pool: ratings::Pool,
    /// When.
    pub at: Millis,
    /// Rating after the game.
    pub rating: f64,
    /// Deviation after the game.
    pub deviation: f64,
}

/// Storage errors.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// A username is already taken (ignoring case).
    #[error("username taken")]
    UsernameTaken,
    /// A username looks like one that is taken (they share a [`name_skeleton`]).
    #[error("username looks like a taken one")]
    UsernameConfusable,
    /// No such game.
    #[error("no such game")]
    NoSuchGame,
    /// An action was appended out of order (its `seq` is not the next one).
    #[error("action out of order")]
    OutOfOrder,
    /// The database failed.
    #[error("database error: {0}")]
    Database(String),
    /// A game write of a room this node no longer owns (under the epoch it claimed, within its lease): another
    /// node may have taken the room over, so this one must never write it again (issue #22).
    #[error("room {0} is not owned by this node any more")]
    Fenced(String),
    /// Cluster state (room ownership, the open rooms of players on all nodes, shared login limits) asked of a
    /// store that keeps none (SQLite serves a single node).
    #[error("this store keeps no cluster state (cluster mode needs Postgres)")]
    NoOwnership,
}

impl StoreError {
    /// Stable snake_case code (for logs and error frames; the database detail stays in the log).
    pub const fn code(&self) -> &'static str {
        match self {
            StoreError::UsernameTaken => "username_taken",
            StoreError::UsernameConfusable => "username_confusable",
            StoreError::NoSuchGame => "no_such_game",
            StoreError::OutOfOrder => "out_of_order",
            StoreError::Database(_) => "database_error",
            StoreError::Fenced(_) => "fenced",
            StoreError::NoOwnership => "no_ownership",
        }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::Database(format!("migration failed: {e}"))
    }
}

/// Characters of a public id: lower-case letters and digits without the look-alikes (`l`, `o`, `0`, `1`).
const PUBLIC_ID_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
/// Characters in a public id: 16 of 32 symbols, 80 random bits.
pub const PUBLIC_ID_LEN: usize = 16;

/// A fresh random public id for a game ([`NewGame::public_id`]), from the operating system's generator.
pub fn new_public_id() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..PUBLIC_ID_LEN)
        .map(|_| PUBLIC_ID_ALPHABET[rng.random_range(0..PUBLIC_ID_ALPHABET.len())] as char)
        .collect()
}

/// The database the server uses when none is configured: a SQLite file under `./data/`.
pub fn default_url() -> String {
    "sqlite://data/gomoku.db".to_owned()
}

/// Opens the store a URL names and runs its migrations: `postgres://…` (or `postgresql://…`) for Postgres,
/// `sqlite://…`, `sqlite:…` or a plain file path for SQLite (the file and its folder are created when missing).
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(PostgresStore::open(url).await?))
    } else {
        Ok(Arc::new(SqliteStore::open(url).await?))
    }
}

/// Durable storage. Every method commits before it returns.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Records a game that starts now and returns its id.
    async fn create_game(&self, game: &NewGame) -> Result<GameId, StoreError>;
    /// Appends actions to games, all in one transaction (the server batches the actions of many rooms). Each
    /// action's `seq` must be the next for its game; appending an action whose `seq` is already stored with the
    /// same text is a no-op (retries are safe).
    async fn append_actions(&self, batch: &[(GameId, StoredAction)]) -> Result<(), StoreError>;
    /// Commits several game writes in one transaction, so the rooms of a busy server share one commit (and one
    /// fsync) instead of taking one each. Within the batch, creations come first, then the takebacks, then the
    /// appends in batch order, then the endings: a room waits for each of its writes, so a batch never holds two
    /// writes of one game that depend on each other. Answers each write in its position; on any error nothing is
    /// committed (the [`BatchWriter`] then writes each alone, so the error reaches only the room it concerns).
    async fn write_batch(&self, batch: &[Write]) -> Result<Vec<Written>, StoreError>;
    /// Removes the actions with `seq >= keep` (a takeback): a game write like the others ([`Write::Truncate`] in
    /// a batch of one), so in cluster mode it is fenced as they are ([`StoreError::Fenced`] unless this node
    /// still owns the game's room); [`StoreError::NoSuchGame`] for an unknown game.
    async fn truncate_actions(&self, game: GameId, keep: u32) -> Result<(), StoreError>;
    /// Ends a game and, when it is rated and not aborted, updates both players' ratings in the same transaction
    /// with `finish.rater`, in the pool given at creation. Returns `None` when the game had already ended (so a
    /// game is rated exactly once, whatever races). `finish.end.winner` is a colour as seated at the end, and
    /// `finish.seats` says who held which colour then (see `docs/storage.md`). A game is rated only when it is
    /// `rated`, not aborted, and both seats are two different registered users.
    async fn finish_game(
        &self,
        game: GameId,
        finish: &Finish,
    ) -> Result<Option<Finished>, StoreError>;
    /// A game with its actions, finished or not.
    async fn game(&self, id: GameId) -> Result<Option<GameRecord>, StoreError>;
    /// A game by its public id ([`NewGame::public_id`]), finished or not.
    async fn game_by_public_id(&self, public_id: &str) -> Result<Option<GameRecord>, StoreError>;
    /// Every unfinished game, to load back into rooms at start-up.
    async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError>;

    /// Registers a user; [`StoreError::UsernameTaken`] when the name exists ignoring case,
    /// [`StoreError::UsernameConfusable`] when a name that looks like it exists (the same [`name_skeleton`]).
    async fn create_user(
        &self,
        name: &str,
        password_hash: &str,
        now: Millis,
    ) -> Result<User, StoreError>;
    /// A user by name, ignoring case.
    async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError>;
    /// Replaces a user's password hash (a hash made under older rules, upgraded at a successful login).
    async fn set_password_hash(&self, user: UserId, password_hash: &str) -> Result<(), StoreError>;
    /// A user whose name looks like `name` (the same [`name_skeleton`]), if any.
    async fn user_by_skeleton(&self, name: &str) -> Result<Option<User>, StoreError>;
    /// A user by id (game records and rating changes name users by id).
    async fn user_by_id(&self, id: UserId) -> Result<Option<User>, StoreError>;
    /// Who may challenge the user: `all`, `accounts` or `none` (issue #18). A store that keeps no such setting
    /// (a test double) answers `all`.
    async fn challenge_policy(&self, user: UserId) -> Result<String, StoreError> {
        let _ = user;
        Ok("all".to_owned())
    }
    /// Sets who may challenge the user (the caller validates the value). A store that keeps no such setting
    /// refuses it.
    async fn set_challenge_policy(&self, user: UserId, policy: &str) -> Result<(), StoreError> {
        let _ = (user, policy);
        Err(StoreError::Database(
            "this store keeps no challenge setting".to_owned(),
        ))
    }
    /// Stores a session (token hash only) for a user or a guest. A guest's name or id that another session holds,
    /// even an expired one, is a [`StoreError::Database`]; new guests go through
    /// [`Store::create_guest_session`].
    async fn create_session(
        &self,
        token_hash: &[u8],
        owner: &SessionOwner,
        expires_at: Millis,
    ) -> Result<(), StoreError>;
    /// Whom an unexpired session stands for.
    async fn session(
        &self,
        token_hash: &[u8],
        now: Millis,
    ) -> Result<Option<SessionOwner>, StoreError>;
    /// Stores a new guest's session unless an unexpired session at `now` holds the guest's name; an expired one
    /// holding it is replaced. Answers whether it was stored (`false`: draw another name). Names are unique among
    /// guest sessions (a unique index), so two guests racing for one name cannot both get it.
    async fn create_guest_session(
        &self,
        token_hash: &[u8],
        guest: &Guest,
        expires_at: Millis,
        now: Millis,
    ) -> Result<bool, StoreError>;
    /// Moves an unexpired session's expiry out to `expires_at` (never earlier); answers whether the session was
    /// unexpired at `now`. A guest's first session is short; it is kept for longer once the guest plays.
    async fn extend_session(
        &self,
        token_hash: &[u8],
        expires_at: Millis,
        now: Millis,
    ) -> Result<bool, StoreError>;
    /// The guest whose unexpired session holds `name`, if any: a restarted server finds out from it which guest a
    /// stored game's seat belongs to (games store a guest by name).
    async fn live_guest(&self, name: &str, now: Millis) -> Result<Option<Guest>, StoreError>;
    /// Revokes a session.
    async fn delete_session(&self, token_hash: &[u8]) -> Result<(), StoreError>;
    /// Revokes every session of a user ("log out everywhere") and returns the token hashes it deleted, so the
    /// caller can also close what those sessions have open.
    async fn delete_user_sessions(&self, user: UserId) -> Result<Vec<Vec<u8>>, StoreError>;
    /// Deletes every session expired at `now` and says how many (housekeeping; expired ones are ignored anyway).
    async fn delete_expired_sessions(&self, now: Millis) -> Result<u64, StoreError>;
    /// Changes a user's password (issue #35): replaces the hash, deletes any pending reset code, and revokes every
    /// session of the user except `keep` (the one that asked, on a change; none on a reset), all in one
    /// transaction. Returns the token hashes it deleted, so the caller can close what those sessions have open.
    async fn change_password(
        &self,
        user: UserId,
        password_hash: &str,
        keep: Option<&[u8]>,
    ) -> Result<Vec<Vec<u8>>, StoreError>;
    /// Stores a one-time password reset code for a user (only its hash), valid until `expires_at`; it replaces
    /// any code the user had.
    async fn create_password_reset(
        &self,
        user: UserId,
        code_hash: &[u8],
        expires_at: Millis,
    ) -> Result<(), StoreError>;
    /// Spends a reset code: deletes it when it is the user's and unexpired at `now`, and answers whether it was.
    /// One statement, so two requests racing with the same code cannot both spend it.
    async fn take_password_reset(
        &self,
        user: UserId,
        code_hash: &[u8],
        now: Millis,
    ) -> Result<bool, StoreError>;

    /// A user's standing in every pool they have played (a pool never played is absent).
    async fn standings(&self, user: UserId) -> Result<Vec<PoolStanding>, StoreError>;
    /// The players of a pool that `rule` lists, best first (ties by user id).
    async fn leaderboard(
        &self,
        pool: ratings::Pool,
        rule: &BoardRule,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<PoolStanding>, StoreError>;
    /// A user's rating history in every pool, oldest first.
    async fn rating_history(&self, user: UserId) -> Result<Vec<HistoryPoint>, StoreError>;
    /// A user's games, newest first, with ids below `before` when given.
    async fn games_of(
        &self,
        user: UserId,
        before: Option<GameId>,
        limit: u32,
    ) -> Result<Vec<GameRecord>, StoreError>;
    /// A user's games as anyone else may see them: [`Store::games_of`] without the private ones.
    async fn public_games_of(
        &self,
        user: UserId,
        before: Option<GameId>,
        limit: u32,
    ) -> Result<Vec<GameRecord>, StoreError>;
    /// A user's games that pass `filter`, newest first, with ids below `before` when given; private ones only
    /// when `private` (the user looks at their own list).
    async fn games_filtered(
        &self,
        user: UserId,
        before: Option<GameId>,
        limit: u32,
        private: bool,
        filter: &GameFilter,
    ) -> Result<Vec<GameRecord>, StoreError>;

    /// Stores a new match before its first game starts; returns its id.
    async fn create_match(&self, new: &NewMatch) -> Result<MatchId, StoreError>;
    /// A match by id.
    async fn match_by_id(&self, id: MatchId) -> Result<Option<MatchRecord>, StoreError>;
    /// The match played in a room (the latest, should a room id ever come back), if any.
    async fn match_of_room(&self, room: &str) -> Result<Option<MatchRecord>, StoreError>;
    /// A room's games in the order they started: a match's games.
    async fn match_games(&self, room: &str) -> Result<Vec<MatchGame>, StoreError>;

    /// How many [`BatchWriter`] batches may be in their transactions at once. More than one helps only a store
    /// whose transactions can overlap (Postgres: several pooled connections, each batch mostly waiting on the
    /// network and the commit); SQLite has one writer connection, so its batches go one after the other.
    /// Per-game order does not depend on it: a room waits for its action's commit before it sends the next one,
    /// so no two batches ever hold actions of the same game.
    fn batches_in_flight(&self) -> usize {
        1
    }

    /// Claims room `room` for `node` (cluster mode, issue #22): when it has no owner, its owner's lease has expired
    /// or `node` already owns it, the claim's [`Fence`] (the epoch one above the last, so the earlier claim's
    /// writes are refused); `None` while another node's lease holds; [`StoreError::Fenced`] when this node's own
    /// lease has run out. Leases are per node: this store's first claim, opening or renewal registers its process
    /// as the next incarnation of `node` with a lease of `lease_ms` (ending the lease of the node id's earlier
    /// process). From then on, every game write of this store is fenced: refused with [`StoreError::Fenced`]
    /// unless this node still owns the game's room under the claim it made, within its lease.
    async fn claim_room(
        &self,
        _room: &str,
        _node: &str,
        _lease_ms: i64,
    ) -> Result<Option<Fence>, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Renews this node's lease by `lease_ms` (one row, however many rooms it holds); answers the rooms it had
    /// claimed and lost: all of them when the lease had run out (after which the node registers anew, and may
    /// claim rooms again).
    async fn renew_rooms(&self, _node: &str, _lease_ms: i64) -> Result<Vec<String>, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Gives up a room (it closed): its row goes, if the claim is still the one in force.
    async fn release_room(&self, _fence: &Fence) -> Result<(), StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Rooms whose owner's lease has expired (the node stopped renewing: it crashed, or shut down), at most
    /// `limit` of them, for a live node to take over.
    async fn expired_rooms(&self, _limit: u32) -> Result<Vec<String>, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Deletes a room's row if its lease has still expired (a room left with no unfinished game to take over).
    async fn forget_expired_room(&self, _room: &str) -> Result<(), StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Ends the lease of `node` now (a node that drains, after its last write): its rooms are expired for
    /// the other nodes to claim at once, and this node's own writes are refused from here on.
    async fn hand_over_rooms(&self, _node: &str) -> Result<u64, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Opens new room `room` on `node` for `player` (cluster mode, issue #22): unless the player already has
    /// `limit` open rooms on any node, claims it as [`Store::claim_room`] does (the answer holds the claim) with
    /// the player named in its ownership row, which counts as one of their open rooms until the row goes (the room
    /// closes and is released, or a live node forgets it after its node stopped). The count and the claim are one
    /// step for all nodes: two nodes opening rooms for one player at once cannot both pass the limit.
    async fn open_room(
        &self,
        _room: &str,
        _node: &str,
        _player: &str,
        _lease_ms: i64,
        _limit: u32,
    ) -> Result<RoomOpening, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Uses the shared token bucket of `key` (cluster mode's login limits; see [`BucketUse`]): one atomic step
    /// for all nodes, on the database's clock.
    async fn use_bucket(
        &self,
        _key: &str,
        _shape: BucketShape,
        _use: BucketUse,
    ) -> Result<BucketAnswer, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// The tokens in the shared bucket of `key` now, after its refill (a key never used has a full bucket).
    async fn bucket_tokens(&self, _key: &str, _shape: BucketShape) -> Result<f64, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Deletes the shared buckets that have refilled (housekeeping: a full bucket and none are the same); says
    /// how many.
    async fn sweep_buckets(&self) -> Result<u64, StoreError> {
        Err(StoreError::NoOwnership)
    }

    /// Stores a game's computer analysis (issue #33), replacing any earlier one: `engine` names what analysed
    /// it, `body` is the server's JSON, kept as given.
    async fn save_analysis(
        &self,
        _game: GameId,
        _engine: &str,
        _body: &str,
        _at: Millis,
    ) -> Result<(), StoreError> {
        Err(StoreError::Database(
            "this store keeps no analyses".to_owned(),
        ))
    }

    /// A game's stored analysis, if it has one.
    async fn analysis(&self, _game: GameId) -> Result<Option<StoredAnalysis>, StoreError> {
        Ok(None)
    }

    /// Takes one of `player`'s analysis requests for `game` if fewer than `limit` were taken since `since`
    /// (the daily limit), in one write; says whether it was taken.
    async fn take_analysis_request(
        &self,
        _player: &str,
        _game: GameId,
        _now: Millis,
        _since: Millis,
        _limit: u32,
    ) -> Result<bool, StoreError> {
        Err(StoreError::Database(
            "this store keeps no analyses".to_owned(),
        ))
    }

    /// Closes the connections, waiting for those in use (at shutdown, after the last write). Calls made after it
    /// fail with [`StoreError::Database`].
    async fn close(&self);

    /// The community's tables (issue #38): roles, follows, blocks, reports, sanctions, the audit log. `None` for
    /// a store without them (test doubles).
    fn community(&self) -> Option<&dyn CommunityStore> {
        None
    }

    /// Fair play's table (issue #38 item 5): each rated game's agreement with the engine, per player. `None` for
    /// a store without it (test doubles).
    fn fair_play(&self) -> Option<&dyn FairPlayStore> {
        None
    }

    /// The events' tables (issue #34): arenas, Swiss tournaments, round robins. `None` for a store without them
    /// (test doubles).
    fn events(&self) -> Option<&dyn EventStore> {
        None
    }
}

/// A game's computer analysis as stored ([`Store::save_analysis`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// The game.
    pub game: GameId,
    /// What analysed it (the server's words: the brain, its level, the time per position).
    pub engine: String,
    /// The evaluations, as the server's JSON.
    pub body: String,
    /// When it was stored.
    pub created_at: Millis,
}
