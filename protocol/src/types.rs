//! Plain data carried inside messages: rules, time controls, clocks, seats, snapshots, lobby entries, results.

use rules::{Color, ForbiddenKind, ForbiddenPolicy, Opening, Point, RuleSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::GameSpec;
use crate::{GameDetail, GameView};

pub(crate) fn default_size() -> u8 {
    15
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// The rules a room plays, as described on the wire (checked by `rules::Rules::new` on the server).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RulesSpec {
    /// Board side, 15 (default) or 19 (not for renju).
    #[serde(default = "default_size", deserialize_with = "crate::whole::number")]
    pub size: u8,
    /// `freestyle`, `standard` or `renju`.
    #[schemars(with = "crate::schema::RuleSetDef")]
    pub rule_set: RuleSet,
    /// `lose`, `reject` (default) or `claim`; meaningful under renju only.
    #[serde(default)]
    #[schemars(with = "crate::schema::ForbiddenPolicyDef")]
    pub forbidden_policy: ForbiddenPolicy,
    /// `none` (default), `swap_after_three`, `swap_after_three_fifth_two_options`, `swap1`, `swap2`,
    /// `soosorv` / `soosorv_N` (N 1 to 10, default 8) or `taraguchi` / `taraguchi_N` (default 10). A bad N is
    /// refused with `bad_opening_count`.
    #[serde(default)]
    #[schemars(with = "crate::schema::OpeningDef")]
    pub opening: Opening,
}

impl RulesSpec {
    /// The validated rules, or the rules crate's reason why they are not playable.
    pub fn to_rules(self) -> Result<rules::Rules, rules::RulesError> {
        rules::Rules::new(
            self.size,
            self.rule_set,
            self.forbidden_policy,
            self.opening,
        )
    }
}

impl From<rules::Rules> for RulesSpec {
    fn from(r: rules::Rules) -> RulesSpec {
        RulesSpec {
            size: r.size(),
            rule_set: r.rule_set(),
            forbidden_policy: r.forbidden_policy(),
            opening: r.opening(),
        }
    }
}

/// A time control. Times are in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clocks.
    #[default]
    None,
    /// Fischer: a base time, and an increment added after each of the player's moves.
    Fischer {
        /// Starting time of each side (1 s to 3 h).
        #[serde(deserialize_with = "crate::whole::number")]
        #[schemars(range(min = 1_000, max = 10_800_000))]
        base_ms: u64,
        /// Added after each move (up to 10 min).
        #[serde(deserialize_with = "crate::whole::number")]
        #[schemars(range(max = 600_000))]
        increment_ms: u64,
    },
    /// Byo-yomi: a main time, then `periods` periods of `period_ms` each. A move made within a period keeps it;
    /// a period that runs out is lost; losing the last one loses the game.
    ByoYomi {
        /// Main time of each side (up to 3 h).
        #[serde(deserialize_with = "crate::whole::number")]
        #[schemars(range(max = 10_800_000))]
        base_ms: u64,
        /// Number of periods (1 to 30).
        #[serde(deserialize_with = "crate::whole::number")]
        #[schemars(range(min = 1, max = 30))]
        periods: u32,
        /// Length of one period (1 s to 10 min).
        #[serde(deserialize_with = "crate::whole::number")]
        #[schemars(range(min = 1_000, max = 600_000))]
        period_ms: u64,
    },
}

/// The ratings a seek admits (issue #18): only a player whose rating in the room's pool (1500 for a guest or a
/// player new to it) lies in `min..=max` may take the free seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RatingRange {
    /// The lowest rating admitted.
    pub min: u16,
    /// The highest rating admitted.
    pub max: u16,
}

impl RatingRange {
    /// The highest bound a range may name.
    pub const CEILING: u16 = 4000;

    /// Whether the bounds are in order and within 0–[`RatingRange::CEILING`].
    pub fn is_valid(&self) -> bool {
        self.min <= self.max && self.max <= RatingRange::CEILING
    }

    /// Whether `rating` lies inside (rounded to the nearest point).
    pub fn admits(&self, rating: f64) -> bool {
        let r = rating.round();
        r >= f64::from(self.min) && r <= f64::from(self.max)
    }
}

/// Which colour the room's creator takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ColourChoice {
    /// Black (the default).
    #[default]
    Black,
    /// White.
    White,
    /// Drawn by the server when the room is created.
    Random,
}

/// How a connection joins a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum JoinRole {
    /// Take the free seat (or resume one's own seat).
    #[default]
    Player,
    /// Watch.
    Spectator,
}

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SideClock {
    /// Main time left; under byo-yomi once the main time is spent (`byo_yomi` true), the time left in the
    /// current period.
    pub remaining_ms: u64,
    /// Byo-yomi only: periods left (the current one included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periods: Option<u32>,
    /// Byo-yomi only: whether the main time is spent.
    #[serde(default, skip_serializing_if = "is_default")]
    pub byo_yomi: bool,
    /// The side's first action of the game only: its allowance left (`FIRST_MOVE_SECS`, docs/rules.md), during
    /// which `remaining_ms` does not run. Absent once the side has acted or the allowance is spent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<u64>,
}

/// Both clocks as of the moment the message was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Clocks {
    /// Black's clock.
    pub black: SideClock,
    /// White's clock.
    pub white: SideClock,
    /// Whose clock runs, if any.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub running: Option<Color>,
}

/// A forbidden point for black and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ForbiddenPoint {
    /// The point.
    #[schemars(with = "crate::schema::PointDef")]
    pub point: Point,
    /// `double_three`, `double_four` or `overline`.
    #[schemars(with = "crate::schema::ForbiddenKindDef")]
    pub kind: ForbiddenKind,
}

/// A seated player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Seat {
    /// The player's unique id (as in [`You::id`]): a client finds its own seat by it, not by the name. Empty
    /// only from a server that predates it.
    #[serde(default)]
    pub id: String,
    /// Display name (`guest-…` for guests).
    pub name: String,
    /// Whether this is a guest identity.
    pub guest: bool,
    /// The computer's level (1–8) when this seat is the computer ("Computer · level 5"); absent for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<u8>,
    /// The external engine's name when this seat is one (`--engine NAME=PATH`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Rating in the room's pool, when known (accounts fill it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// Whether that rating is provisional (shown with `?`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisional: Option<bool>,
    /// Rank tier name, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    /// Whether the player has a live connection.
    pub connected: bool,
    /// While disconnected in a game: milliseconds left before the seat is forfeited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_ms: Option<u64>,
}

/// The players by their current colour.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Seats {
    /// Whoever holds black now.
    pub black: Option<Seat>,
    /// Whoever holds white now.
    pub white: Option<Seat>,
}

/// Where a room stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoomState {
    /// Waiting for a second player.
    Waiting,
    /// A game is being played.
    Playing,
    /// The game ended; a rematch may follow.
    Over,
}

/// What the side to act must do now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoomPhase {
    /// No game is running (waiting, or over).
    #[default]
    None,
    /// Place a stone (white may also claim a forbidden move when `claimable` is set).
    Place,
    /// The player holding white decides whether to swap colours.
    SwapDecision,
    /// Black proposes two fifth moves.
    ProposeFifth,
    /// White chooses one of `fifth_options`.
    ChooseFifth,
    /// Swap1, Swap2, Soosõrv: the first player places the next of the first three stones (black, white,
    /// black), whatever colour it holds.
    PlaceOpening,
    /// Swap2: the second player swaps, keeps white or places two more stones (`add:`).
    Swap2Decision,
    /// Soosõrv: white declares how many fifth moves black offers (`declare:N`).
    DeclareOffers,
    /// Black offers fifth moves (`offer:…`).
    OfferFifths,
    /// Taraguchi after move 4: black swaps or keeps (then plays move 5 within 9x9), or offers N fifth moves.
    TaraguchiChoice,
    /// White chooses one of black's offered fifth moves (`choose:`).
    ChooseOffer,
}

impl From<rules::Phase> for RoomPhase {
    fn from(p: rules::Phase) -> RoomPhase {
        match p {
            rules::Phase::Place => RoomPhase::Place,
            rules::Phase::SwapDecision => RoomPhase::SwapDecision,
            rules::Phase::ProposeFifth => RoomPhase::ProposeFifth,
            rules::Phase::ChooseFifth { .. } => RoomPhase::ChooseFifth,
            rules::Phase::PlaceOpening => RoomPhase::PlaceOpening,
            rules::Phase::Swap2Decision => RoomPhase::Swap2Decision,
            rules::Phase::DeclareOffers { .. } => RoomPhase::DeclareOffers,
            rules::Phase::OfferFifths { .. } => RoomPhase::OfferFifths,
            rules::Phase::TaraguchiChoice { .. } => RoomPhase::TaraguchiChoice,
            rules::Phase::ChooseOffer { .. } => RoomPhase::ChooseOffer,
        }
    }
}

/// The kinds of offer that need the opponent's consent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// End the game drawn.
    Draw,
    /// Undo the requester's last move (and the opponent's reply after it).
    Takeback,
    /// Play again with colours exchanged.
    Rematch,
}

/// A pending offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OfferState {
    /// What is offered.
    pub kind: OfferKind,
    /// The colour of the player who offered it (as seated now).
    #[schemars(with = "crate::schema::ColorDef")]
    pub by: Color,
}

/// One player's rating change from a rated game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RatingDelta {
    /// The player.
    pub name: String,
    /// Rating before.
    pub before: f64,
    /// Rating after.
    pub after: f64,
    /// Tier after, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    /// Whether the rating after is still provisional (shown with `?`), when known: with `after` and `tier` it is
    /// everything a seat card shows, so a client updates its seats from the result without a new snapshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisional: Option<bool>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameResult {
    /// The winning colour (as seated at the end); `null` for a draw or an aborted game.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub winner: Option<Color>,
    /// The winner's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner_name: Option<String>,
    /// `five`, `forbidden_move`, `forbidden_claimed`, `resign`, `timeout`, `abandoned`, `idle` (won by
    /// `claim_win`), `draw_agreed`, `board_full`, `no_legal_point` (renju, `reject`: every empty point is forbidden
    /// to black, who is to place) or `aborted`.
    pub reason: String,
    /// The winning line's points, for `five`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<crate::schema::PointDef>>")]
    pub line: Option<Vec<Point>>,
    /// The forbidden stone, for `forbidden_move` and `forbidden_claimed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbidden: Option<ForbiddenPoint>,
    /// Both players' rating changes (black's first), for rated games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Vec<RatingDelta>>,
    /// Why a game of a rated room left the ratings alone: `too_few_moves` (it ended before both sides moved; it
    /// is aborted) or `repeated_pairing` (the same two accounts already played as many rated games as count in
    /// the window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<String>,
    /// What the game's rules add to the result, for games other than Gomoku (the discs, the deciding rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<GameDetail>,
}

/// The whole state of a room, sent on join, on resync and when a reconnect cannot be served with events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RoomSnapshot {
    /// The room's id.
    pub id: String,
    /// The room's version: the version of the last event applied to this state.
    pub version: u64,
    /// Gomoku's rules (Gomoku rooms; other rooms send `game`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesSpec>,
    /// The game and its configuration (rooms of games other than Gomoku).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameSpec>,
    /// Time control.
    pub time_control: TimeControl,
    /// Whether games here are rated.
    pub rated: bool,
    /// Whether the room is listed in the lobby.
    pub public: bool,
    /// The stored game's id, once a game has started (internal: a private game's record is not served by it).
    pub game_id: Option<i64>,
    /// The game's public id, once a game has started: its record is `GET /api/games/{record}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// Waiting, playing or over.
    pub state: RoomState,
    /// The players by colour.
    pub seats: Seats,
    /// The receiver's colour when seated.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub you: Option<Color>,
    /// What the side to act must do.
    pub phase: RoomPhase,
    /// Which colour must act.
    #[schemars(with = "Option<crate::schema::ColorDef>")]
    pub to_act: Option<Color>,
    /// Stones in order (black first, alternating).
    #[schemars(with = "Vec<crate::schema::PointDef>")]
    pub moves: Vec<Point>,
    /// Whether the players exchanged colours after move 3.
    pub swapped: bool,
    /// Clocks, under a time control once the game started.
    pub clocks: Option<Clocks>,
    /// Black's forbidden points, under renju when black is to place.
    pub forbidden: Vec<ForbiddenPoint>,
    /// Under the claim policy: black's forbidden stone white may claim now.
    pub claimable: Option<ForbiddenPoint>,
    /// In a room without a clock: the server's idle time in milliseconds (`--idle-claim-secs`). Once the side to
    /// act has not acted for that long, the other player may `claim_win`; every action starts it again, so a
    /// client following events counts it afresh from each action's event. Absent under a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_claim_ms: Option<u64>,
    /// While a game without a clock is played: milliseconds from this snapshot until the player not to act may
    /// `claim_win` (0: now; earlier the claim is refused with `claim_too_soon`). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_win_in_ms: Option<u64>,
    /// The two proposed fifth moves while white chooses.
    #[schemars(with = "Option<[crate::schema::PointDef; 2]>")]
    pub fifth_options: Option<[Point; 2]>,
    /// Pending offers.
    pub offers: Vec<OfferState>,
    /// How many spectators watch.
    pub spectators: u32,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// The room's chat as the receiver may read it, oldest first: the players' chat for everyone, merged with the
    /// spectators' chat (in the order the lines were said) for spectators and for players who show it. The room
    /// keeps the last lines of each chat (the server's `CHAT_HISTORY_LINES` and `CHAT_HISTORY_BYTES`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatLine>,
    /// The game's position, with every action that led to it (rooms of games other than Gomoku; Gomoku rooms
    /// carry it in `moves`, `phase`, `forbidden` and the fields beside them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<GameView>,
    /// The room's match (issue #34: `GET /api/matches/{id}`), when its games are one: the room starts each next
    /// game itself until all are played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<i64>,
}

/// One line of a room's chat history (in a [`RoomSnapshot`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChatLine {
    /// Who said it (a display name).
    pub from: String,
    /// What, as cleaned by the server.
    pub text: String,
    /// Whether it is the spectators' chat (`false`: the players' chat).
    pub spectator: bool,
    /// The line's id as the server keeps it (what `chat_removed` names); absent for a line it did not keep.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
}

/// One player in a lobby entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LobbyPlayer {
    /// The player's unique id (as in [`You::id`]). Empty only from a server that predates it.
    #[serde(default)]
    pub id: String,
    /// Name.
    pub name: String,
    /// Colour.
    #[schemars(with = "crate::schema::ColorDef")]
    pub colour: Color,
    /// Rating, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// Tier, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    /// Whether the rating is provisional (shown with `?`, as on the room's seat), with `rating`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisional: Option<bool>,
    /// The computer's level (1–8) when this player is the computer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<u8>,
    /// The external engine's name when this player is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

/// A public room as listed in the lobby (and by `GET /api/rooms`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LobbyRoom {
    /// The room's id.
    pub id: String,
    /// Gomoku's rules (Gomoku rooms; other rooms send `game`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesSpec>,
    /// The game and its configuration (rooms of games other than Gomoku).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameSpec>,
    /// Time control.
    pub time_control: TimeControl,
    /// Whether rated.
    pub rated: bool,
    /// `waiting` (joinable) or `playing` (watchable).
    pub state: RoomState,
    /// The seated players.
    pub players: Vec<LobbyPlayer>,
    /// How many spectators watch.
    pub spectators: u32,
    /// The ratings the seek admits to its free seat, when it limits them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
}

/// Who the server knows the client as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct You {
    /// The client's unique id: `u` and the user id for accounts, `g` and a random id for guests. Seats and lobby
    /// players carry the same id; names are for display only (a guest name is reused once its holder expired).
    /// Empty only from a server that predates it.
    #[serde(default)]
    pub id: String,
    /// Display name.
    pub name: String,
    /// Whether a guest.
    pub guest: bool,
}

/// A challenge of one player by another (issue #18).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChallengeView {
    /// The challenge's id (for `answer_challenge` and `cancel_challenge`).
    pub id: u64,
    /// The challenger's name.
    pub from: String,
    /// Whether the challenger is a guest.
    pub from_guest: bool,
    /// The challenged player's name.
    pub to: String,
    /// Gomoku's rules (Gomoku challenges; others send `game`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesSpec>,
    /// The game and its configuration (games other than Gomoku).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<crate::GameSpec>,
    /// The time control.
    pub time_control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The challenger's colour.
    pub colour: ColourChoice,
    /// A match of this many games (absent: one game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u32>,
    /// Milliseconds until it expires.
    pub expires_in_ms: u64,
}

/// How many players wait in one quick-pairing preset and how many of its games are being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct QuickCount {
    /// The preset's id (`renju-5+3`, …, `custom` for every custom pool together).
    pub preset: String,
    /// Players waiting to be paired.
    pub waiting: u32,
    /// Games it paired that are still being played.
    pub playing: u32,
}

impl GameResult {
    /// What a result shows beside its winner and reason, from the rules' outcome detail (`None`: the room ended
    /// the game): the winning `line` and the `forbidden` stone a Gomoku result carries, or another game's
    /// `detail`.
    pub fn marks(
        detail: Option<&games::AnyDetail>,
    ) -> (
        Option<Vec<Point>>,
        Option<ForbiddenPoint>,
        Option<GameDetail>,
    ) {
        use games::{AnyDetail, GomokuDetail};
        match detail {
            Some(AnyDetail::Gomoku(GomokuDetail::Five { line })) => {
                (Some(line.clone()), None, None)
            }
            Some(AnyDetail::Gomoku(GomokuDetail::Forbidden { point, kind })) => (
                None,
                Some(ForbiddenPoint {
                    point: *point,
                    kind: *kind,
                }),
                None,
            ),
            Some(detail) => (None, None, GameDetail::of(detail)),
            None => (None, None, None),
        }
    }
}
