//! The JSON shapes of the accounts API (documented with examples in docs/accounts.md).

use ratings::{Rating, Tier};
use rules::Color;
use serde::Serialize;
use store::{GameRecord, HistoryPoint, PlayerRef, PoolStanding, UserId};

/// A rating with what clients show next to it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingView {
    /// Rating.
    pub rating: f64,
    /// Rating deviation.
    pub deviation: f64,
    /// Whether the rating is provisional (deviation above 110): the number is shown with `?` and the tier marked
    /// provisional.
    pub provisional: bool,
    /// Tier display name ("Club Player"), from the rating at once, provisional or not.
    pub tier: &'static str,
    /// Tier code ("club_player").
    pub tier_code: &'static str,
}

impl From<&Rating> for RatingView {
    fn from(r: &Rating) -> RatingView {
        let tier = Tier::of(r);
        RatingView {
            rating: r.rating,
            deviation: r.deviation,
            provisional: r.is_provisional(),
            tier: tier.name(),
            tier_code: tier.code(),
        }
    }
}

/// A player's standing in one pool.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingView {
    /// The pool.
    pub pool: String,
    /// Rating and tier.
    #[serde(flatten)]
    pub rating: RatingView,
    /// Rated games in the pool.
    pub games: u32,
    /// Rated wins.
    pub wins: u32,
    /// Rated losses.
    pub losses: u32,
    /// Rated draws.
    pub draws: u32,
    /// Where the player stands against the leaderboard's rule.
    pub leaderboard: LeaderboardProgress,
    /// The player's place on the pool's game's ladder (every Gomoku pool shares one).
    pub ladder: LadderView,
}

/// A player's points on a game's cumulative ladder and the title they earn ([`ratings::ladder`],
/// docs/ratings.md "Ladders").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderView {
    /// Which ladder: `points` (the draughts source's +2/0/−2) or `dan` (Gomoku's 段位).
    pub kind: &'static str,
    /// Points.
    pub points: i64,
    /// The title's stable code (`junior_player`, `dan_3`).
    pub title_code: &'static str,
    /// The title in English.
    pub title: &'static str,
    /// The title in Chinese, the source's.
    pub title_zh: &'static str,
}

impl LadderView {
    /// The ladder of `game` at `points`.
    pub fn of(game: &str, points: i64) -> LadderView {
        let ladder = ratings::Ladder::of_game(game);
        let title = ladder.title(points);
        LadderView {
            kind: ladder.code(),
            points,
            title_code: title.code,
            title: title.en,
            title_zh: title.zh,
        }
    }
}

impl StandingView {
    /// The view of a standing at `now_ms` (whether the player is listed depends on when they last played).
    pub fn at(s: &PoolStanding, now_ms: i64) -> StandingView {
        StandingView {
            pool: s.pool.name().into_owned(),
            rating: RatingView::from(&s.rating),
            games: s.games,
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            leaderboard: LeaderboardProgress::of(s, now_ms),
            ladder: LadderView::of(s.pool.game(), s.ladder_points),
        }
    }
}

/// The leaderboard's rule for one pool ([`ratings::established`], docs/ratings.md), and how far a player is along
/// it: listed once **established** (`min_games` rated games, `min_opponents` of them against different
/// established opponents), with at least `min_opponents` different established opponents, a deviation of at most
/// `max_deviation`, and a rated game in the pool within the last `active_days` days.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeaderboardProgress {
    /// Whether every part of the rule holds, so the player is listed.
    pub listed: bool,
    /// Whether the player is established in the pool: their games move established players' ratings.
    pub established: bool,
    /// Rated games the rule asks for.
    pub min_games: u32,
    /// Different opponents the player met in rated games while those were established.
    pub established_opponents: u32,
    /// Different established opponents the rule asks for.
    pub min_opponents: u32,
    /// The highest rating deviation the rule allows.
    pub max_deviation: f64,
    /// Days since the last rated game in the pool within which a player stays listed.
    pub active_days: u32,
    /// Whether the player's last rated game in the pool is within `active_days`.
    pub active: bool,
}

impl LeaderboardProgress {
    /// Where a standing is along the rule at `now_ms`.
    pub fn of(s: &PoolStanding, now_ms: i64) -> LeaderboardProgress {
        use ratings::established as rule;
        let standing = rule::Standing {
            games: s.games,
            established: s.established,
            established_opponents: s.established_opponents,
        };
        LeaderboardProgress {
            listed: rule::listed(&standing, &s.rating, s.last_game_at, now_ms),
            established: s.established,
            min_games: rule::BOARD_GAMES,
            established_opponents: s.established_opponents,
            min_opponents: rule::BOARD_OPPONENTS,
            max_deviation: rule::BOARD_DEVIATION,
            active_days: rule::BOARD_ACTIVE_DAYS,
            active: s.last_game_at >= rule::active_since(now_ms),
        }
    }
}

/// One point of a rating history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryView {
    /// The game that changed the rating.
    pub game_id: i64,
    /// When (milliseconds since the Unix epoch).
    pub time: i64,
    /// Rating after the game.
    pub rating: f64,
    /// Deviation after the game.
    pub deviation: f64,
}

impl From<&HistoryPoint> for HistoryView {
    fn from(h: &HistoryPoint) -> HistoryView {
        HistoryView {
            game_id: h.game_id,
            time: h.at,
            rating: h.rating,
            deviation: h.deviation,
        }
    }
}

/// A seated player of a game summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// Name.
    pub name: String,
    /// Whether a guest.
    pub guest: bool,
    /// The computer's level (1–8) when this player is the computer; absent for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<u8>,
    /// The external engine's name when this player is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

impl From<&PlayerRef> for PlayerView {
    fn from(p: &PlayerRef) -> PlayerView {
        PlayerView {
            name: p.name.clone(),
            guest: p.user_id.is_none(),
            computer: crate::computer::account::level_of(&p.name, p.user_id),
            engine: crate::computer::account::engine_of(&p.name, p.user_id),
        }
    }
}

/// One player's rating change in a game summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingChangeView {
    /// The player.
    pub name: String,
    /// Rating before the game.
    pub before: f64,
    /// Rating after the game.
    pub after: f64,
    /// Deviation after the game.
    pub deviation: f64,
    /// Whether the rating after the game is provisional (its number and tier shown so).
    pub provisional: bool,
    /// Tier name after the game.
    pub tier: &'static str,
    /// Tier code after the game.
    pub tier_code: &'static str,
}

/// A game in a player's list. `black` and `white` are the players holding those colours at the end (after a
/// swap after three), which is how `winner` names its colour.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSummary {
    /// The game's internal id (pages go `?before=` this id).
    pub id: i64,
    /// The game's public id: its record is `GET /api/games/{public_id}`.
    pub public_id: String,
    /// The room it was played in.
    pub room: String,
    /// The rating pool of its rules.
    pub pool: String,
    /// The rules, for a Gomoku game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<protocol::RulesSpec>,
    /// The game and its configuration, for a game other than Gomoku (`{"game":"othello","scoring":…}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<protocol::GameSpec>,
    /// Whether it was rated.
    pub rated: bool,
    /// Who held black at the end.
    pub black: PlayerView,
    /// Who held white at the end.
    pub white: PlayerView,
    /// Whether the players exchanged colours after move three.
    pub swapped: bool,
    /// When it started.
    pub started_at: i64,
    /// When it ended; `null` while it is being played.
    pub ended_at: Option<i64>,
    /// `playing`, `over` or `aborted`.
    pub state: &'static str,
    /// The winning colour; `null` for a draw, an aborted or an unfinished game.
    pub winner: Option<Color>,
    /// The winner's name.
    pub winner_name: Option<String>,
    /// Why it ended (`five`, `resign`, `timeout`, …).
    pub reason: Option<String>,
    /// Both players' rating changes (black's first), for a finished rated game.
    pub ratings: Option<Vec<RatingChangeView>>,
    /// The profile owner's rating before the game, when rated.
    pub rating_before: Option<f64>,
    /// The profile owner's rating after the game, when rated.
    pub rating_after: Option<f64>,
}

impl GameSummary {
    /// The summary of `record` as seen from the profile of `viewer`; an error when the stored game does not read
    /// back (`stored::decode_any`).
    pub fn of(
        record: &GameRecord,
        viewer: UserId,
    ) -> Result<GameSummary, crate::stored::RecordError> {
        let game = &record.game;
        let (config, _) = crate::stored::decode_any(record)?;
        let spec = protocol::GameSpec::from(config);
        let seats = crate::stored::seats_of(record);
        let swapped = seats == store::SeatsAtEnd::Exchanged;
        let (black, white) = seats.arrange(&game.black, &game.white);
        let end = record.end.as_ref();
        let winner = end.and_then(|e| e.winner).map(crate::stored::colour);
        let name_of = |user: UserId| {
            if black.user_id == Some(user) {
                black.name.clone()
            } else {
                white.name.clone()
            }
        };
        let ratings = record.rating_changes.as_ref().map(|changes| {
            changes
                .iter()
                .map(|c| {
                    let tier = Tier::of(&c.after);
                    RatingChangeView {
                        name: name_of(c.user_id),
                        before: c.before.rating,
                        after: c.after.rating,
                        deviation: c.after.deviation,
                        provisional: c.after.is_provisional(),
                        tier: tier.name(),
                        tier_code: tier.code(),
                    }
                })
                .collect()
        });
        let own = record
            .rating_changes
            .as_ref()
            .and_then(|changes| changes.iter().find(|c| c.user_id == viewer));
        Ok(GameSummary {
            id: record.id,
            public_id: game.public_id.clone(),
            room: game.room.clone(),
            pool: game.pool.name().into_owned(),
            rules: spec.rules(),
            game: spec.rules().is_none().then_some(spec),
            rated: game.rated,
            black: PlayerView::from(black),
            white: PlayerView::from(white),
            swapped,
            started_at: game.started_at,
            ended_at: end.map(|e| e.ended_at),
            state: match end {
                None => "playing",
                Some(e) if e.aborted => "aborted",
                Some(_) => "over",
            },
            winner,
            winner_name: winner.map(|c| match c {
                Color::Black => black.name.clone(),
                Color::White => white.name.clone(),
            }),
            reason: end.map(|e| e.reason.clone()),
            ratings,
            rating_before: own.map(|c| c.before.rating),
            rating_after: own.map(|c| c.after.rating),
        })
    }
}
