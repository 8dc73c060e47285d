//! Matches (issue #34 item 1): two players, N games in one room, one running score and one result.
//!
//! A challenge proposes a match with its `games` count ([`check_games`]). The room it opens stores the match
//! ([`store::Store::create_match`]) before its first game starts; each game is an ordinary game of the room
//! (rated as any game when the match is rated), and when one ends the room starts the next itself through the
//! rematch machinery, colours exchanged as after any rematch (Gomoku's opening rule, where it has one, still
//! decides who ends up with which colour). The score and the result are never stored twice: they are read from
//! the room's game rows ([`Tally::of`]), so a server restart resumes a match with the room's unfinished game and
//! loses nothing. `GET /api/matches/{id}` serves the match page.
//!
//! Scoring: a win is 1 point, a draw ½ each (kept in half points), an aborted game counts as played and scores
//! nothing. All N games are played; the player with more points wins the match, equal points draw it.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use games::GameKind;
use protocol::code;
use schemars::JsonSchema;
use serde::Serialize;
use store::{MatchGame, MatchId, MatchRecord, PlayerRef};

use crate::http::ApiError;
use crate::room::RoomError;
use crate::AppState;

/// The most games a match may have.
pub const MAX_GAMES: u32 = 20;

/// Whether a challenge may propose `games` games of `kind`: 1 to [`MAX_GAMES`], and an even number for every
/// game but Gomoku, so each player has each colour as often (the Othello source's "an even number of games").
/// Gomoku takes any number: its opening rules decide colours in many of its games. Refused with `invalid_field`.
pub fn check_games(kind: GameKind, games: u32) -> Result<(), RoomError> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(RoomError::new(
            code::INVALID_FIELD,
            format!("a match has 1 to {MAX_GAMES} games"),
        ));
    }
    if games > 1 && games % 2 == 1 && kind != GameKind::Gomoku {
        return Err(RoomError::new(
            code::INVALID_FIELD,
            "a match of this game has an even number of games, so each player has each colour as often",
        ));
    }
    Ok(())
}

/// Whether two references name the same player: by account when both have one, else by name.
fn same(a: &PlayerRef, b: &PlayerRef) -> bool {
    match (a.user_id, b.user_id) {
        (Some(x), Some(y)) => x == y,
        _ => a.name == b.name,
    }
}

/// A match's running score as its games' rows tell it: the games played (finished) and each player's points in
/// half points (first, second).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Finished games (aborted ones included).
    pub played: u32,
    /// Half points of the first player (the challenger) and of the second.
    pub half_points: [u32; 2],
}

impl Tally {
    /// The tally of `games` for the match `m`.
    pub fn of(m: &MatchRecord, games: &[MatchGame]) -> Tally {
        let mut t = Tally::default();
        for g in games.iter().filter(|g| g.end.is_some()) {
            let aborted = g.end.as_ref().is_some_and(|e| e.aborted);
            t.add(match g.winner() {
                Some(w) if same(w, &m.new.first) => Some(Some(0)),
                Some(_) => Some(Some(1)),
                None if aborted => None,
                None => Some(None),
            });
        }
        t
    }

    /// Counts one finished game: `None` aborted, `Some(None)` drawn, `Some(Some(p))` won by player `p` (0 the
    /// first, 1 the second).
    pub fn add(&mut self, result: Option<Option<usize>>) {
        self.played += 1;
        match result {
            Some(Some(p)) => self.half_points[p] += 2,
            Some(None) => {
                self.half_points[0] += 1;
                self.half_points[1] += 1;
            }
            None => {}
        }
    }

    /// The match's result once `games` games are played: `first`, `second` or `draw`; `None` before.
    pub fn result(&self, games: u32) -> Option<&'static str> {
        if self.played < games {
            return None;
        }
        let [a, b] = self.half_points;
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => "first",
            std::cmp::Ordering::Less => "second",
            std::cmp::Ordering::Equal => "draw",
        })
    }
}

/// What a match room keeps of its match: which seat its first player holds, and the tally so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchState {
    /// The match's id.
    pub id: MatchId,
    /// How many games.
    pub games: u32,
    /// The room seat (0 or 1) of the match's first player.
    pub first_seat: usize,
    /// The score so far.
    pub tally: Tally,
}

impl MatchState {
    /// A room's match read back from the store: `seat0` is who holds the room's seat 0 now.
    pub fn resumed(m: &MatchRecord, games: &[MatchGame], seat0: &PlayerRef) -> MatchState {
        MatchState {
            id: m.id,
            games: m.new.games,
            first_seat: if same(seat0, &m.new.first) { 0 } else { 1 },
            tally: Tally::of(m, games),
        }
    }

    /// Counts a finished game: the winning room seat (`None`: a draw), or aborted.
    pub fn game_over(&mut self, winner_seat: Option<usize>, aborted: bool) {
        let result = if aborted {
            None
        } else {
            Some(winner_seat.map(|s| usize::from(s != self.first_seat)))
        };
        self.tally.add(result);
    }

    /// Whether every game has been played.
    pub fn over(&self) -> bool {
        self.tally.played >= self.games
    }
}

/// The matches route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/matches/{id}", get(get_match))
}

/// A match player.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PlayerView {
    /// Name.
    pub name: String,
    /// Whether the player is a guest.
    pub guest: bool,
    /// Points so far (a draw is 0.5).
    pub points: f64,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct MatchGameView {
    /// 1 for the first game.
    pub number: u32,
    /// The game's public id (`/api/games/{id}`, the record's page).
    pub id: String,
    /// Who held black (the first colour: black in Gomoku and Othello, white in draughts, red in insect chess)
    /// at the start.
    pub black: String,
    /// Who held white at the start.
    pub white: String,
    /// `playing`, `won`, `drawn` or `aborted`.
    pub state: &'static str,
    /// The winner's name, when won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Why it ended (the game's reason code), once over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The match score (first, second) after this game, in points; absent while it is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_after: Option<[f64; 2]>,
}

/// `GET /api/matches/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct MatchView {
    /// Id.
    pub id: MatchId,
    /// The room its games are played in (`#/room/{room}`).
    pub room: String,
    /// The game (`gomoku`, `othello`, `draughts`, `insect`).
    pub game: String,
    /// How many games.
    pub games: u32,
    /// Whether its games are rated.
    pub rated: bool,
    /// The challenger, then the challenged player.
    pub players: [PlayerView; 2],
    /// Games finished so far.
    pub played: u32,
    /// `playing` until every game is played, then `first`, `second` or `draw`.
    pub result: &'static str,
    /// The winner's name once the match is won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Its games in order.
    pub game_list: Vec<MatchGameView>,
    /// When it was made (milliseconds since the Unix epoch).
    pub created_at: i64,
}

fn points(half: u32) -> f64 {
    f64::from(half) / 2.0
}

impl MatchView {
    /// The view of a match and its room's games.
    pub fn of(m: &MatchRecord, games: &[MatchGame]) -> MatchView {
        let mut running = Tally::default();
        let mut list = Vec::with_capacity(games.len());
        for (i, g) in games.iter().enumerate() {
            let one = Tally::of(m, std::slice::from_ref(g));
            let state = match &g.end {
                None => "playing",
                Some(e) if e.aborted => "aborted",
                Some(_) if g.winner().is_some() => "won",
                Some(_) => "drawn",
            };
            if g.end.is_some() {
                running.played += 1;
                running.half_points[0] += one.half_points[0];
                running.half_points[1] += one.half_points[1];
            }
            list.push(MatchGameView {
                number: u32::try_from(i + 1).unwrap_or(u32::MAX),
                id: g.public_id.clone(),
                black: g.black.name.clone(),
                white: g.white.name.clone(),
                state,
                winner: g.winner().map(|w| w.name.clone()),
                reason: g.end.as_ref().map(|e| e.reason.clone()),
                score_after: g.end.as_ref().map(|_| running.half_points.map(points)),
            });
        }
        let tally = Tally::of(m, games);
        let result = tally.result(m.new.games);
        let player = |p: &PlayerRef, half: u32| PlayerView {
            name: p.name.clone(),
            guest: p.user_id.is_none(),
            points: points(half),
        };
        MatchView {
            id: m.id,
            room: m.new.room.clone(),
            game: m.new.game.clone(),
            games: m.new.games,
            rated: m.new.rated,
            players: [
                player(&m.new.first, tally.half_points[0]),
                player(&m.new.second, tally.half_points[1]),
            ],
            played: tally.played,
            result: result.unwrap_or("playing"),
            winner: match result {
                Some("first") => Some(m.new.first.name.clone()),
                Some("second") => Some(m.new.second.name.clone()),
                _ => None,
            },
            game_list: list,
            created_at: m.new.created_at,
        }
    }
}

/// `GET /api/matches/{id}`: the match with its games and running score; `404 no_such_match` for an unknown id
/// (or one that is not a number).
async fn get_match(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<MatchView>, ApiError> {
    let missing = || ApiError::not_found("no_such_match", "no such match");
    let id: MatchId = id.parse().map_err(|_| missing())?;
    let m = state
        .store
        .match_by_id(id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(missing)?;
    let games = state
        .store
        .match_games(&m.new.room)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(MatchView::of(&m, &games)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_has_one_to_twenty_games_and_an_even_number_but_in_gomoku() {
        assert!(check_games(GameKind::Othello, 0).is_err());
        assert!(check_games(GameKind::Othello, 1).is_ok());
        assert!(check_games(GameKind::Othello, 2).is_ok());
        assert!(check_games(GameKind::Othello, 3).is_err());
        assert!(check_games(GameKind::Draughts, 3).is_err());
        assert!(check_games(GameKind::Gomoku, 3).is_ok());
        assert!(check_games(GameKind::Othello, MAX_GAMES).is_ok());
        assert!(check_games(GameKind::Gomoku, MAX_GAMES + 1).is_err());
    }

    #[test]
    fn the_score_adds_wins_draws_and_nothing_for_aborted_games() {
        let mut m = MatchState {
            id: 1,
            games: 4,
            first_seat: 1,
            tally: Tally::default(),
        };
        m.game_over(Some(1), false); // the first player (seat 1) wins
        m.game_over(None, false); // a draw
        m.game_over(Some(0), true); // aborted
        assert!(!m.over());
        assert_eq!(m.tally.half_points, [3, 1]);
        assert_eq!(m.tally.result(4), None);
        m.game_over(Some(0), false);
        assert!(m.over());
        assert_eq!(m.tally.half_points, [3, 3]);
        assert_eq!(m.tally.result(4), Some("draw"));
    }
}
