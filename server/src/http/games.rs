//! `GET /api/games/{id}`: the record of a game, finished or live, of any game; `GET /api/games/{id}/export`: the
//! same game in its game's usual text (an Othello move list `f5d6c3…`, a draughts PDN, Gomoku's moves).
//!
//! `{id}` is the game's public id (random, unguessable), which is how links name games. A private game's record
//! is served only by it: its public id reaches only the players and those in its room (who had the invite
//! link). The integer id still finds a public game, so old links keep working; it never finds a private one.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use games::{AnyAction, AnyGame, Game as _};
use protocol::{GameDetail, GameSpec, RulesSpec, TimeControl};
use rules::{Action, Color, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use store::{GameId, GameRecord, PlayerRef, SeatsAtEnd};

use super::ApiError;
use crate::room::stored_time_control;
use crate::stored::RecordError;
use crate::AppState;

/// Longer ids are not looked up (the server makes 16 characters; backfilled ones have 20).
const MAX_PUBLIC_ID: usize = 64;

/// The games route.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/export", get(export))
        .route("/api/import/psq", post(import_psq))
}

/// The `format` of an export.
#[derive(Deserialize)]
struct ExportQuery {
    /// `psq`, `renlib` or `text`; none for the game's usual text.
    format: Option<String>,
}

/// The values of the export's `format` (the OpenAPI document lists these).
pub const EXPORT_FORMATS: [&str; 3] = ["psq", "renlib", "text"];

fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError {
        status: StatusCode::BAD_REQUEST,
        code,
        message: message.into(),
    }
}

/// A Gomoku game's stones in order, the board's side and the time each stone took (by its ply).
fn stones_of(record: &GameRecord) -> Option<(u8, Vec<Point>, Vec<u64>)> {
    let Some(AnyGame::Gomoku(g)) = crate::stored::replay_any(record) else {
        return None;
    };
    let game = g.rules_game();
    let moves = game.moves().to_vec();
    let times = crate::export::stone_times(record.game.started_at, &record.actions, moves.len());
    Some((game.rules().size(), moves, times))
}

/// The readable record's headers: event, date, players and ratings, rules, opening, time control, result.
fn headers_of(record: &GameRecord, spec: &GameSpec) -> crate::export::Headers {
    let replay = crate::stored::replay_any(record);
    let seats = replay
        .as_ref()
        .map_or(SeatsAtEnd::AsStarted, crate::stored::seats_at_end);
    let (black, white) = seats.arrange(&record.game.black, &record.game.white);
    let rating = |p: &PlayerRef| {
        record
            .rating_changes
            .as_ref()
            .and_then(|c| c.iter().find(|c| Some(c.user_id) == p.user_id))
            .map(|c| format!("{:.0}", c.before.rating))
    };
    let mut tags = vec![
        (
            "Event",
            if record.game.rated {
                "rated game"
            } else {
                "casual game"
            }
            .to_owned(),
        ),
        ("Game", record.game.kind.clone()),
        ("Id", record.game.public_id.clone()),
        ("Started", crate::export::date_of(record.game.started_at)),
        ("Black", black.name.clone()),
        ("White", white.name.clone()),
    ];
    if let Some(r) = rating(black) {
        tags.push(("BlackRating", r));
    }
    if let Some(r) = rating(white) {
        tags.push(("WhiteRating", r));
    }
    match spec.rules() {
        Some(rules) => {
            tags.push((
                "Rules",
                format!(
                    "{:?}, {}x{}, forbidden moves: {:?}",
                    rules.rule_set, rules.size, rules.size, rules.forbidden_policy
                )
                .to_lowercase(),
            ));
            tags.push(("Opening", format!("{:?}", rules.opening).to_lowercase()));
        }
        // The game and its stored configuration, as the store keeps it (`othello, scoring=japanese`).
        None => tags.push((
            "Rules",
            format!("{}, {}", record.game.kind, record.game.config),
        )),
    }
    tags.push((
        "TimeControl",
        crate::export::time_control_text(&stored_time_control(&record.game.time_control)),
    ));
    let result = match &record.end {
        None => "in progress".to_owned(),
        Some(e) if e.aborted => format!("aborted ({})", e.reason),
        Some(e) => match e.winner.map(crate::stored::colour) {
            Some(Color::Black) => format!("black wins ({})", e.reason),
            Some(Color::White) => format!("white wins ({})", e.reason),
            None => format!("draw ({})", e.reason),
        },
    };
    tags.push(("Result", result));
    if let Some(e) = &record.end {
        tags.push(("Ended", crate::export::date_of(e.ended_at)));
    }
    crate::export::Headers { tags }
}

/// A player of a game record.
#[derive(Serialize, JsonSchema)]
struct PlayerView {
    name: String,
    guest: bool,
    /// The computer's level, when the player is the computer (its accounts are `computer-N`).
    #[serde(skip_serializing_if = "Option::is_none")]
    computer: Option<u8>,
    /// An external engine's name, when the player is one (`engine-NAME` accounts).
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<String>,
}

/// One stored action.
#[derive(Serialize, JsonSchema)]
struct ActionView {
    seq: u32,
    /// The Gomoku action as JSON (Gomoku games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<protocol::schema::ActionDef>")]
    action: Option<Action>,
    /// The action's notation, as the game records it (`h8`, `swap`, `f5`, `pass`, `32-28`, `28x19x10`).
    notation: String,
    /// The name of the player who made it (under an opening rule, who placed the opening stones, who swapped or
    /// kept, who declared and offered).
    by: String,
    used_ms: i64,
    remaining_ms: Option<[i64; 2]>,
    at: i64,
}

/// How the game ended.
#[derive(Serialize, JsonSchema)]
struct EndView {
    #[schemars(with = "Option<protocol::schema::ColorDef>")]
    winner: Option<Color>,
    /// The winner's name (the player who held the winning colour at the end).
    winner_name: Option<String>,
    /// A five's stones, when a five decided the game.
    #[schemars(with = "Option<Vec<protocol::schema::PointDef>>")]
    line: Option<Vec<Point>>,
    aborted: bool,
    reason: String,
    ended_at: i64,
    /// What the rules add when they decided the game, for games other than Gomoku (the discs and score of
    /// Othello, the deciding rule of draughts), as in the protocol's `GameResult::detail`.
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<GameDetail>,
}

/// A rating change.
#[derive(Serialize, JsonSchema)]
struct RatingView {
    name: String,
    before: f64,
    after: f64,
}

/// A game record as JSON.
#[derive(Serialize, JsonSchema)]
pub(super) struct GameView {
    id: GameId,
    public_id: String,
    /// The room, for a public game only: a private room's id is its invite link, and a record may be shared
    /// further than the room.
    room: Option<String>,
    /// Gomoku's rules (Gomoku games; other games give `game`).
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<RulesSpec>,
    /// The game and its configuration (games other than Gomoku).
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<GameSpec>,
    time_control: TimeControl,
    rated: bool,
    /// The player who held black at the end (after any swap), as the room and profiles name them.
    black: PlayerView,
    /// The player who held white at the end.
    white: PlayerView,
    started_at: i64,
    /// Every action in order.
    actions: Vec<ActionView>,
    /// The stones in order (black first, alternating), for Gomoku games.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<protocol::schema::PointDef>>")]
    moves: Option<Vec<Point>>,
    /// Every action's notation in order, in the game's notation (`f5`, `pass`, … in Othello; `32-28`,
    /// `28x19x10`, … in draughts; `h8`, `swap`, … in Gomoku). `GET /api/games/{id}/export` gives the game's
    /// usual text.
    notation: Vec<String>,
    /// Whether the players exchanged colours after move 3 (so `black` started with white).
    swapped: bool,
    result: Option<EndView>,
    ratings: Option<Vec<RatingView>>,
}

fn player(p: &PlayerRef) -> PlayerView {
    PlayerView {
        name: p.name.clone(),
        guest: p.user_id.is_none(),
        computer: crate::computer::account::level_of(&p.name, p.user_id),
        engine: crate::computer::account::engine_of(&p.name, p.user_id),
    }
}

/// Who made each of a stored game's actions, by name: the player to act before it, as the game replayed from its
/// start says (an opening's stones, swaps, declarations and offers included). Empty names past an action that
/// does not replay (which the room never stores).
fn actors(record: &GameRecord, actions: &[AnyAction]) -> Vec<String> {
    let Ok((config, _)) = crate::stored::decode_any(record) else {
        return vec![String::new(); actions.len()];
    };
    let mut game = AnyGame::new(config, crate::stored::first_seat(config));
    let mut replays = true;
    actions
        .iter()
        .map(|action| {
            let seat = game.to_act().filter(|_| replays).map(|c| game.seat_of(c));
            replays = replays && game.apply(action.clone()).is_ok();
            match seat {
                Some(games::Seat::Zero) => record.game.black.name.clone(),
                Some(games::Seat::One) => record.game.white.name.clone(),
                None => String::new(),
            }
        })
        .collect()
}

/// The stored game of a record, read back and replayed through the seam (`None` when it does not replay, which
/// the room never stores).
fn replayed(
    record: &GameRecord,
) -> Result<(GameSpec, Vec<AnyAction>, Option<AnyGame>), RecordError> {
    let (config, actions) = crate::stored::decode_any(record)?;
    Ok((
        GameSpec::from(config),
        actions,
        crate::stored::replay_any(record),
    ))
}

fn view(record: GameRecord) -> Result<GameView, RecordError> {
    let (spec, actions, replay) = replayed(&record)?;
    let names = [&record.game.black, &record.game.white];
    let ratings = record.rating_changes.as_ref().map(|changes| {
        changes
            .iter()
            .map(|c| RatingView {
                name: names
                    .iter()
                    .find(|p| p.user_id == Some(c.user_id))
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                before: c.before.rating,
                after: c.after.rating,
            })
            .collect()
    });
    // One rule everywhere (the room, profiles, records): the players as they held the colours at the end, as the
    // game says (`stored::seats_at_end`). The store keeps the seats at the start; a swap in the opening exchanged
    // them.
    let seats = replay
        .as_ref()
        .map_or(SeatsAtEnd::AsStarted, crate::stored::seats_at_end);
    let swapped = seats == SeatsAtEnd::Exchanged;
    let (black, white) = seats.arrange(&record.game.black, &record.game.white);
    let outcome = replay.as_ref().and_then(|g| g.status().outcome().cloned());
    let (line, _, detail) = protocol::GameResult::marks(outcome.as_ref().map(|o| &o.detail));
    let winner_name = |c: Color| match c {
        Color::Black => black.name.clone(),
        Color::White => white.name.clone(),
    };
    let stones = match &replay {
        Some(AnyGame::Gomoku(g)) => Some(g.rules_game().moves().to_vec()),
        Some(_) => None,
        None => spec.rules().map(|_| Vec::new()),
    };
    let gomoku = spec.rules().is_some();
    let by = actors(&record, &actions);
    Ok(GameView {
        id: record.id,
        public_id: record.game.public_id.clone(),
        room: record.game.public.then(|| record.game.room.clone()),
        rules: spec.rules(),
        game: (!gomoku).then_some(spec),
        time_control: stored_time_control(&record.game.time_control),
        rated: record.game.rated,
        black: player(black),
        white: player(white),
        started_at: record.game.started_at,
        moves: stones,
        notation: actions.iter().map(AnyAction::notation).collect(),
        swapped,
        actions: record
            .actions
            .iter()
            .zip(actions)
            .zip(by)
            .map(|((a, action), by)| ActionView {
                seq: a.seq,
                notation: action.notation(),
                by,
                action: match action {
                    AnyAction::Gomoku(action) => Some(action),
                    _ => None,
                },
                used_ms: a.used_ms,
                remaining_ms: a.remaining_ms,
                at: a.at,
            })
            .collect(),
        result: record.end.map(|e| {
            // The rules' marks only when the rules decided it (a resignation on a five-less board has none).
            let by_rules = outcome.as_ref().is_some_and(|o| o.reason == e.reason);
            EndView {
                winner: e.winner.map(crate::stored::colour),
                winner_name: e.winner.map(crate::stored::colour).map(winner_name),
                line: line.filter(|_| by_rules),
                aborted: e.aborted,
                reason: e.reason,
                ended_at: e.ended_at,
                detail: detail.filter(|_| by_rules),
            }
        }),
        ratings,
    })
}

/// A game's record in its game's usual text, as the game writes it (`games::Listed::record`: Othello's move
/// list, draughts' PDN, Gomoku's moves by their notation) with the players by colour and the result as the room
/// recorded it.
fn export_text(record: &GameRecord, site: &str) -> Result<String, RecordError> {
    let (_, actions, replay) = replayed(record)?;
    let seats = replay
        .as_ref()
        .map_or(SeatsAtEnd::AsStarted, crate::stored::seats_at_end);
    let (black, white) = seats.arrange(&record.game.black, &record.game.white);
    let result = match &record.end {
        None => None,
        Some(e) if e.aborted => None,
        Some(e) => Some(e.winner.map(crate::stored::colour)),
    };
    let date = crate::export::pgn_date_of(record.game.started_at);
    let time_control =
        crate::export::time_control_text(&stored_time_control(&record.game.time_control));
    let header = games::RecordHeader {
        black: &black.name,
        white: &white.name,
        result,
        event: if record.game.rated {
            "Rated game"
        } else {
            "Casual game"
        },
        site,
        date: &date,
        time_control: &time_control,
    };
    Ok(match &replay {
        Some(game) => game.record(&header),
        // A stored game that does not replay (which the room never stores) still gives its moves.
        None => {
            let moves: Vec<String> = actions.iter().map(AnyAction::notation).collect();
            format!("{}\n", moves.join(" "))
        }
    })
}

/// Where a record says it was played (its `Site` tag): the host the request named, when it is a host name or
/// address with an optional port (anything else, or none, is PGN's `?`).
fn site_of(headers: &HeaderMap) -> String {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
        .unwrap_or("?")
        .to_owned()
}

/// The record a path names: a public id, or the integer id of a public game.
pub(super) async fn record_of(state: &AppState, id: &str) -> Result<GameRecord, ApiError> {
    let not_found = || ApiError::not_found("unknown_game", "no such game");
    match id.parse::<GameId>() {
        // Sequential ids can be walked: they reach public games only, and a private one is as unknown.
        Ok(number) => state
            .store
            .game(number)
            .await
            .map_err(ApiError::internal)?
            .filter(|r| r.game.public),
        Err(_) if id.len() <= MAX_PUBLIC_ID => state
            .store
            .game_by_public_id(id)
            .await
            .map_err(ApiError::internal)?,
        Err(_) => None,
    }
    .ok_or_else(not_found)
}

/// `GET /api/games/{id}/export`: the game as text in its game's usual form (`text/plain`; see [`export_text`]).
/// With `?format=psq` a Gomoku game as Piskvork's `.psq`, `?format=renlib` its moves as RenLib's text import
/// reads them, `?format=text` any game as a readable record with headers; another format is `400 unknown_format` (a query that does not parse `400 invalid_query`),
/// and `psq` or `renlib` of a game that is not Gomoku `400 unsupported_format`.
async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ExportQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    // A query that does not parse (`format` twice, say) is JSON `invalid_query` as on the other routes.
    let Query(query) = query.map_err(|e| bad_request("invalid_query", e.body_text()))?;
    let record = record_of(&state, &id).await?;
    let kind = record.game.kind.clone();
    let site = site_of(&headers);
    let not_gomoku = || {
        bad_request(
            "unsupported_format",
            "psq and renlib records are for Gomoku games",
        )
    };
    let (text, extension) = match query.format.as_deref() {
        None => {
            let mut text = export_text(&record, &site).map_err(ApiError::internal)?;
            // A PDN record (draughts') carries its computer analysis as comments (issue #33); the other games'
            // formats have no place for one.
            let pdn = kind
                .parse::<games::GameKind>()
                .is_ok_and(|k| k.record_format().extension == "pdn");
            if pdn {
                if let Some(analysis) = state
                    .analyses
                    .stored(record.id)
                    .await
                    .map_err(ApiError::internal)?
                {
                    text = crate::analysis::annotate_pdn(&text, &analysis);
                }
            }
            (
                text,
                kind.parse::<games::GameKind>()
                    .map_or("txt", |k| k.record_format().extension),
            )
        }
        Some("psq") => {
            let (size, moves, times) = stones_of(&record).ok_or_else(not_gomoku)?;
            let (black, white) = (&record.game.black.name, &record.game.white.name);
            (
                crate::export::to_psq(size, &moves, &times, black, white),
                "psq",
            )
        }
        Some("renlib") => {
            let (_, moves, _) = stones_of(&record).ok_or_else(not_gomoku)?;
            (crate::export::to_renlib(&moves), "renlib.txt")
        }
        Some("text") => {
            let (spec, actions, _) = replayed(&record).map_err(ApiError::internal)?;
            let headers = headers_of(&record, &spec);
            let moves: Vec<(String, i64)> = actions
                .iter()
                .zip(&record.actions)
                .map(|(a, s)| (a.notation(), s.used_ms))
                .collect();
            (crate::export::to_readable(&headers, &moves), "record.txt")
        }
        Some(_) => {
            return Err(bad_request(
                "unknown_format",
                format!("format is one of {}", EXPORT_FORMATS.join(", ")),
            ))
        }
    };
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "inline; filename=\"{kind}-{}.{extension}\"",
                    record.game.public_id
                ),
            ),
        ],
        text,
    ))
}

async fn game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let record = record_of(&state, &id).await?;
    Ok(Json(
        serde_json::to_value(view(record).map_err(ApiError::internal)?)
            .map_err(ApiError::internal)?,
    ))
}

/// What a `.psq` file holds, read back.
#[derive(Serialize, JsonSchema)]
pub(super) struct ImportedPsq {
    /// The board's side.
    size: u8,
    /// The stones in order (black first), in the board's notation.
    #[schemars(with = "Vec<protocol::schema::PointDef>")]
    moves: Vec<Point>,
    /// Milliseconds each stone took, as the file says.
    times_ms: Vec<u64>,
    /// The position after them, row by row from the top: `x` black, `o` white, `.` empty.
    board: Vec<String>,
}

/// `POST /api/import/psq`: a `.psq` file (the body, as text) read into its moves and final position; a file that
/// is not one is `400` with the reason's code (`bad_psq_header`, `unsupported_board_size`, `off_board`,
/// `occupied`, `bad_encoding`), one over 64 KiB `413 too_large`.
async fn import_psq(body: Bytes) -> Result<Json<serde_json::Value>, ApiError> {
    if body.len() > crate::export::MAX_PSQ_BYTES {
        return Err(ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            code: "too_large",
            message: crate::export::PsqError::TooLarge.to_string(),
        });
    }
    let text = std::str::from_utf8(&body)
        .map_err(|_| bad_request("bad_encoding", "a .psq file is text (UTF-8)"))?;
    let psq = crate::export::parse_psq(text).map_err(|e| bad_request(e.code(), e.to_string()))?;
    let size = psq.size;
    let mut board = vec![vec!['.'; size as usize]; size as usize];
    for (i, p) in psq.moves.iter().enumerate() {
        let row = (size - 1 - p.y()) as usize;
        board[row][p.x() as usize] = if i % 2 == 0 { 'x' } else { 'o' };
    }
    let view = ImportedPsq {
        size,
        moves: psq.moves,
        times_ms: psq.times_ms,
        board: board.into_iter().map(|r| r.into_iter().collect()).collect(),
    };
    Ok(Json(
        serde_json::to_value(view).map_err(ApiError::internal)?,
    ))
}
