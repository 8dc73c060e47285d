//! The events' HTTP routes: the list, creation, an event's page (standings, pairings, crosstable, podium),
//! joining, leaving and withdrawing, and a Swiss's TRF-16 file.

use std::collections::HashMap;
use std::net::IpAddr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{ColourChoice, GameSpec, TimeControl};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use store::events::{Entrant, EventId, EventRecord, NewEntrant, NewEvent, PairingRecord};
use store::{SessionOwner, Store};

use super::standings::{self, result, Kind};
use super::{
    refused, settings_of, tables, EventSpec, ARENA_MINUTES, MAX_NAME_CHARS, MAX_PASSWORD_CHARS,
    MAX_ROUNDS, MAX_START_AHEAD_MS, START_SLACK_MS,
};
use crate::accounts::ClientIp;
use crate::http::ApiError;
use crate::identity::Identity;
use crate::room::Settings;
use crate::time::unix_ms;
use crate::AppState;

/// The events' routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/events", get(list).post(create))
        .route("/api/events/{id}", get(show))
        .route("/api/events/{id}/join", post(join))
        .route("/api/events/{id}/leave", post(leave))
        .route("/api/events/{id}/withdraw", post(leave))
        .route("/api/events/{id}/trf", get(trf))
}

/// How many events of each status the list shows.
pub const LIST_LIMIT: u32 = 50;

/// `POST /api/events`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEventBody {
    /// 1 to 60 characters (after trimming; no control characters).
    #[schemars(length(min = 1, max = 60))]
    pub name: String,
    /// `arena`, `swiss` or `round_robin`.
    #[schemars(schema_with = "event_kinds")]
    pub kind: String,
    /// The game and its rules.
    pub game: GameSpec,
    /// The clock of every game.
    #[serde(default)]
    pub time_control: TimeControl,
    /// A Swiss's rounds (1 to 15; required in a Swiss); ignored by the other kinds.
    #[serde(default, deserialize_with = "crate::http::whole")]
    #[schemars(range(min = 1, max = 15))]
    pub rounds: Option<u32>,
    /// An arena's length in minutes (1 to 720; required in an arena); ignored by the other kinds.
    #[serde(default, deserialize_with = "crate::http::whole")]
    #[schemars(range(min = 1, max = 720))]
    pub duration_minutes: Option<u32>,
    /// Whether its games are rated (then entrants need an account).
    #[serde(default)]
    pub rated: bool,
    /// When it starts (milliseconds since the Unix epoch; at most 30 days ahead); now when absent.
    #[serde(default, deserialize_with = "crate::http::whole")]
    pub starts_at: Option<i64>,
    /// A private event's password (1 to 64 characters): entrants give it to join.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub password: Option<String>,
}

/// The kinds of event, as the schema lists them.
fn event_kinds(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "enum": ["arena", "swiss", "round_robin"]})
}

/// `POST /api/events/{id}/join`.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    /// A private event's password.
    #[serde(default)]
    pub password: Option<String>,
}

/// A new event's id.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CreatedEvent {
    /// Its id (`GET /api/events/{id}`).
    pub id: EventId,
}

/// The entrant number a join gave.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Joined {
    /// The entrant's number in the event.
    pub number: u32,
}

/// An event in the list.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct EventSummary {
    /// Id.
    pub id: EventId,
    /// Name.
    pub name: String,
    /// `arena`, `swiss` or `round_robin`.
    pub kind: String,
    /// The game and its rules.
    pub game: serde_json::Value,
    /// The clock.
    pub time_control: serde_json::Value,
    /// Rounds (a Swiss's; a round robin's once it starts; 0 for an arena).
    pub rounds: u32,
    /// An arena's length in minutes (0 otherwise).
    pub duration_minutes: u32,
    /// Rated.
    pub rated: bool,
    /// Whether it takes a password.
    pub private: bool,
    /// `upcoming`, `running` or `finished`.
    pub status: String,
    /// When it starts (or started), ms since the Unix epoch.
    pub starts_at: i64,
    /// When it started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<i64>,
    /// An arena's end while it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<i64>,
    /// When it finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<i64>,
    /// Who made it.
    pub creator: String,
}

impl EventSummary {
    fn of(e: &EventRecord) -> EventSummary {
        let json = |s: &str| serde_json::from_str(s).unwrap_or(serde_json::Value::Null);
        let arena = e.new.kind == Kind::Arena.as_str();
        EventSummary {
            id: e.id,
            name: e.new.name.clone(),
            kind: e.new.kind.clone(),
            game: json(&e.new.game),
            time_control: json(&e.new.time_control),
            rounds: e.new.rounds,
            duration_minutes: (e.new.duration_ms / 60_000) as u32,
            rated: e.new.rated,
            private: e.new.password_hash.is_some(),
            status: e.status.clone(),
            starts_at: e.new.starts_at,
            started_at: e.started_at,
            ends_at: e
                .started_at
                .filter(|_| arena && e.status == "running")
                .map(|s| s + e.new.duration_ms),
            finished_at: e.finished_at,
            creator: e.new.creator_name.clone(),
        }
    }
}

/// `GET /api/events`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct EventList {
    /// Soonest first.
    pub upcoming: Vec<EventSummary>,
    /// Latest first.
    pub running: Vec<EventSummary>,
    /// Latest first.
    pub finished: Vec<EventSummary>,
    /// The server's time (ms since the Unix epoch), for countdowns.
    pub now: i64,
}

/// An entrant on the event page.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct EntrantView {
    /// Its number.
    pub number: u32,
    /// Name.
    pub name: String,
    /// Rating when it joined.
    pub rating: i64,
    /// Withdrawn (an arena's: paused).
    pub withdrawn: bool,
}

/// A line of the standings.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct StandingView {
    /// Place (equal players share it).
    pub place: u32,
    /// The entrant's number.
    pub number: u32,
    /// Name.
    pub name: String,
    /// Points.
    pub score: f64,
    /// Swiss: Buchholz cut 1, Buchholz, Sonneborn–Berger, direct encounter; round robin: Sonneborn–Berger,
    /// direct encounter; arena: none.
    pub tie_breaks: Vec<f64>,
    /// Arena: the last two results were wins, so a win now scores double.
    pub on_fire: bool,
    /// Games played.
    pub games: u32,
}

/// A pairing on the event page.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PairingView {
    /// The round (0 in an arena).
    pub round: u32,
    /// The board.
    pub board: u32,
    /// The entrant who moves first.
    pub first: u32,
    /// The other (absent for a bye or a round off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<u32>,
    /// The room (`#/room/{room}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    /// `first`, `second`, `draw`, `first_forfeit`, `second_forfeit`, `double_forfeit`, `bye`, `rest`, `void`;
    /// absent while played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// One cell of a crosstable row: a round's game or its absence.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CrossCell {
    /// The opponent's entrant number (absent: no game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponent: Option<u32>,
    /// Whether the player moved first.
    pub first: bool,
    /// Points scored this round (a bye's included); absent while played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
    /// The pairing's result code (absent while played or when there was no pairing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// A crosstable row: one entrant, a cell per round.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CrossRow {
    /// The entrant's number.
    pub number: u32,
    /// A cell per round paired so far.
    pub rounds: Vec<CrossCell>,
}

/// `GET /api/events/{id}`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct EventView {
    /// The event.
    pub event: EventSummary,
    /// Entrants by number.
    pub entrants: Vec<EntrantView>,
    /// The standings.
    pub standings: Vec<StandingView>,
    /// Every pairing in the order made.
    pub pairings: Vec<PairingView>,
    /// Swiss and round robin: a row per entrant (arena: empty).
    pub crosstable: Vec<CrossRow>,
    /// The first three once finished (names), else empty.
    pub podium: Vec<String>,
    /// The rounds paired so far.
    pub round: u32,
    /// The server's time (ms since the Unix epoch), for countdowns.
    pub now: i64,
}

fn not_found() -> ApiError {
    ApiError::not_found("no_such_event", "no such event")
}

fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
    refused(StatusCode::BAD_REQUEST, code, message)
}

fn event_id(id: &str) -> Result<EventId, ApiError> {
    id.parse::<EventId>()
        .ok()
        .filter(|&i| i > 0)
        .ok_or_else(not_found)
}

/// Who the request's session stands for (an account's or a guest's); `401 not_authenticated` without one.
async fn requester(state: &AppState, headers: &HeaderMap) -> Result<Identity, ApiError> {
    let unauthenticated = || {
        refused(
            StatusCode::UNAUTHORIZED,
            "not_authenticated",
            "sign in (or play as a guest) first",
        )
    };
    let token = crate::accounts::token::from_headers(headers).ok_or_else(unauthenticated)?;
    let owner = state
        .store
        .session(&crate::accounts::token::hash(&token), unix_ms())
        .await
        .map_err(ApiError::internal)?;
    match owner {
        Some(SessionOwner::User(u)) => Ok(Identity::user(u.id, u.name)),
        Some(SessionOwner::Guest(g)) => Ok(Identity::guest(&g)),
        None => Err(unauthenticated()),
    }
}

async fn list(State(state): State<AppState>) -> Result<Json<EventList>, ApiError> {
    let t = tables(&state.store)?;
    let mut lists = Vec::with_capacity(3);
    for status in ["upcoming", "running", "finished"] {
        let rows = t
            .events_with_status(status, LIST_LIMIT)
            .await
            .map_err(ApiError::internal)?;
        lists.push(rows.iter().map(EventSummary::of).collect::<Vec<_>>());
    }
    let finished = lists.pop().unwrap_or_default();
    let running = lists.pop().unwrap_or_default();
    let upcoming = lists.pop().unwrap_or_default();
    Ok(Json(EventList {
        upcoming,
        running,
        finished,
        now: unix_ms(),
    }))
}

/// Checks a creation's fields, in the order of the body's.
fn validate(body: &NewEventBody, now: i64) -> Result<(Kind, Settings, u32, i64, i64), ApiError> {
    let name = body.name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(bad(
            "invalid_name",
            format!("an event's name is 1 to {MAX_NAME_CHARS} characters"),
        ));
    }
    let kind = Kind::parse(&body.kind).ok_or_else(|| {
        bad(
            "invalid_kind",
            "an event is an `arena`, a `swiss` or a `round_robin`",
        )
    })?;
    let settings = Settings::new(
        body.game,
        body.time_control,
        body.rated,
        true,
        ColourChoice::Black,
    )
    .map_err(|e| bad(super::static_code(e.code), e.message))?;
    let rounds = match kind {
        Kind::Swiss => {
            let r = body.rounds.unwrap_or(0);
            if !(1..=MAX_ROUNDS).contains(&r) {
                return Err(bad(
                    "invalid_rounds",
                    format!("a Swiss has 1 to {MAX_ROUNDS} rounds"),
                ));
            }
            r
        }
        _ => 0,
    };
    let duration_ms = match kind {
        Kind::Arena => {
            let m = body.duration_minutes.unwrap_or(0);
            if !ARENA_MINUTES.contains(&m) {
                return Err(bad(
                    "invalid_duration",
                    format!(
                        "an arena lasts {} to {} minutes",
                        ARENA_MINUTES.start(),
                        ARENA_MINUTES.end()
                    ),
                ));
            }
            i64::from(m) * 60_000
        }
        _ => 0,
    };
    let starts_at = body.starts_at.unwrap_or(now);
    if starts_at < now.saturating_sub(START_SLACK_MS)
        || starts_at > now.saturating_add(MAX_START_AHEAD_MS)
    {
        return Err(bad(
            "invalid_start",
            "an event starts between now and 30 days from now",
        ));
    }
    if let Some(p) = &body.password {
        let n = p.chars().count();
        if n == 0 || n > MAX_PASSWORD_CHARS {
            return Err(bad(
                "invalid_password",
                format!("a password is 1 to {MAX_PASSWORD_CHARS} characters"),
            ));
        }
    }
    Ok((kind, settings, rounds, duration_ms, starts_at.max(now)))
}

async fn hash_password(state: &AppState, ip: IpAddr, password: &str) -> Result<String, ApiError> {
    let settings = crate::accounts::Settings::from_config(&state.config);
    let hasher =
        crate::accounts::password::Hasher::new(settings.hash_cost, state.password_hashing.clone());
    hasher
        .hash(ip, password)
        .await
        .map_err(|e| ApiError::internal(format!("{e:?}")))
}

async fn create(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Json<NewEventBody>, JsonRejection>,
) -> Result<Response, ApiError> {
    let creator = requester(&state, &headers).await?;
    if creator.is_guest() {
        return Err(refused(
            StatusCode::UNAUTHORIZED,
            "not_authenticated",
            "making an event needs an account",
        ));
    }
    let Json(body) = body.map_err(|e| bad("invalid_body", e.body_text()))?;
    let now = unix_ms();
    let (kind, settings, rounds, duration_ms, starts_at) = validate(&body, now)?;
    let password_hash = match &body.password {
        Some(p) => Some(hash_password(&state, ip, p).await?),
        None => None,
    };
    let game =
        serde_json::to_string(&GameSpec::from(settings.config)).map_err(ApiError::internal)?;
    let new = NewEvent {
        name: body.name.trim().to_owned(),
        kind: kind.as_str().to_owned(),
        game,
        time_control: serde_json::to_string(&settings.time_control).map_err(ApiError::internal)?,
        rounds,
        duration_ms,
        rated: settings.rated,
        starts_at,
        password_hash,
        creator_name: creator.name.clone(),
        creator_user_id: creator.user_id,
        created_at: now,
    };
    let id = state.events.create(EventSpec { new, creator }).await?;
    Ok((StatusCode::CREATED, Json(CreatedEvent { id })).into_response())
}

async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<EventView>, ApiError> {
    let id = event_id(&id)?;
    let t = tables(&state.store)?;
    let event = t
        .event(id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(not_found)?;
    let entrants = t.entrants(id).await.map_err(ApiError::internal)?;
    let pairings = t.pairings(id).await.map_err(ApiError::internal)?;
    Ok(Json(view(&event, &entrants, &pairings)?))
}

/// The page of an event from its rows.
pub fn view(
    event: &EventRecord,
    entrants: &[Entrant],
    pairings: &[PairingRecord],
) -> Result<EventView, ApiError> {
    let names: HashMap<u32, &str> = entrants
        .iter()
        .map(|e| (e.number, e.new.name.as_str()))
        .collect();
    let name = |n: u32| names.get(&n).copied().unwrap_or_default().to_owned();
    let lines = standings::standings(event, entrants, pairings).map_err(ApiError::internal)?;
    let standings: Vec<StandingView> = lines
        .into_iter()
        .map(|l| StandingView {
            place: l.place,
            number: l.number,
            name: name(l.number),
            score: l.score,
            tie_breaks: l.tie_breaks,
            on_fire: l.on_fire,
            games: l.games,
        })
        .collect();
    let round = pairings.iter().map(|p| p.new.round).max().unwrap_or(0);
    let crosstable = if event.new.kind == Kind::Arena.as_str() {
        Vec::new()
    } else {
        crosstable(entrants, pairings, round)
    };
    let podium = if event.status == "finished" {
        standings.iter().take(3).map(|s| s.name.clone()).collect()
    } else {
        Vec::new()
    };
    Ok(EventView {
        event: EventSummary::of(event),
        entrants: entrants
            .iter()
            .map(|e| EntrantView {
                number: e.number,
                name: e.new.name.clone(),
                rating: e.new.rating,
                withdrawn: e.withdrawn,
            })
            .collect(),
        standings,
        pairings: pairings
            .iter()
            .map(|p| PairingView {
                round: p.new.round,
                board: p.new.board,
                first: p.new.first,
                second: p.new.second,
                room: p.room.clone(),
                result: p.new.result.clone(),
            })
            .collect(),
        crosstable,
        podium,
        round,
        now: unix_ms(),
    })
}

/// Points of a result for the first player and the second (a Swiss's 1/½/0).
fn points(r: &str) -> (f64, f64) {
    match r {
        result::FIRST | result::FIRST_FORFEIT => (1.0, 0.0),
        result::SECOND | result::SECOND_FORFEIT => (0.0, 1.0),
        result::DRAW => (0.5, 0.5),
        result::BYE => (1.0, 0.0),
        _ => (0.0, 0.0),
    }
}

fn crosstable(entrants: &[Entrant], pairings: &[PairingRecord], rounds: u32) -> Vec<CrossRow> {
    entrants
        .iter()
        .map(|e| CrossRow {
            number: e.number,
            rounds: (1..=rounds)
                .map(|r| {
                    let p = pairings.iter().find(|p| {
                        p.new.round == r
                            && (p.new.first == e.number || p.new.second == Some(e.number))
                    });
                    match p {
                        None => CrossCell {
                            opponent: None,
                            first: false,
                            points: Some(0.0),
                            result: None,
                        },
                        Some(p) => {
                            let first = p.new.first == e.number;
                            let opponent = if first {
                                p.new.second
                            } else {
                                Some(p.new.first)
                            };
                            let pts = p.new.result.as_deref().map(|r| {
                                let (a, b) = points(r);
                                if first {
                                    a
                                } else {
                                    b
                                }
                            });
                            CrossCell {
                                opponent,
                                first,
                                points: pts,
                                result: p.new.result.clone(),
                            }
                        }
                    }
                })
                .collect(),
        })
        .collect()
}

/// The rating a player enters with: its rating in the event's pool (a guest's, or a new player's, 1500).
async fn rating_in(
    store: &std::sync::Arc<dyn Store>,
    identity: &Identity,
    event: &NewEvent,
) -> i64 {
    let (Some(user), Ok(settings)) = (identity.user_id, settings_of(event)) else {
        return 1500;
    };
    let pool = crate::stored::pool(&settings.config);
    store
        .standings(user)
        .await
        .ok()
        .and_then(|s| s.into_iter().find(|s| s.pool == pool))
        .map_or(1500, |s| s.rating.rating.round() as i64)
}

async fn join(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<JoinBody>, JsonRejection>,
) -> Result<Json<Joined>, ApiError> {
    // No body (no JSON content type) is a join without a password; a body that is not a `JoinBody` is refused.
    let body = match body {
        Ok(b) => Some(b),
        Err(JsonRejection::MissingJsonContentType(_)) => None,
        Err(e) => return Err(bad("invalid_body", e.body_text())),
    };
    let id = event_id(&id)?;
    let who = requester(&state, &headers).await?;
    let event = tables(&state.store)?
        .event(id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(not_found)?;
    if let Some(phc) = &event.new.password_hash {
        let given = body.and_then(|b| b.0.password).unwrap_or_default();
        let settings = crate::accounts::Settings::from_config(&state.config);
        let hasher = crate::accounts::password::Hasher::new(
            settings.hash_cost,
            state.password_hashing.clone(),
        );
        let ok = hasher
            .verify(ip, &given, phc)
            .await
            .map_err(|e| ApiError::internal(format!("{e:?}")))?;
        if !ok {
            return Err(refused(
                StatusCode::FORBIDDEN,
                "wrong_password",
                "this private event needs its password",
            ));
        }
    }
    let rating = rating_in(&state.store, &who, &event.new).await;
    let entrant = NewEntrant {
        name: who.name.clone(),
        user_id: who.user_id,
        player_key: who.key(),
        rating,
        joined_round: 0,
        joined_at: 0,
    };
    let number = state.events.join(id, entrant, who.is_guest()).await?;
    Ok(Json(Joined { number }))
}

async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let id = event_id(&id)?;
    let who = requester(&state, &headers).await?;
    tables(&state.store)?
        .event(id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(not_found)?;
    state.events.leave(id, who.key()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn trf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let id = event_id(&id)?;
    let t = tables(&state.store)?;
    let event = t
        .event(id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(not_found)?;
    if event.new.kind != Kind::Swiss.as_str() {
        return Err(ApiError::not_found(
            "not_a_swiss",
            "only a Swiss has a TRF file",
        ));
    }
    let entrants = t.entrants(id).await.map_err(ApiError::internal)?;
    let pairings = t.pairings(id).await.map_err(ApiError::internal)?;
    let replayed = standings::replay(&event, &entrants, &pairings).map_err(ApiError::internal)?;
    let text = tournament::trf::export(&replayed.swiss);
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

#[cfg(test)]
mod tests {
    use super::NewEventBody;

    fn body(extra: &str) -> Result<NewEventBody, String> {
        serde_json::from_str::<NewEventBody>(&format!(
            r#"{{"name":"x","kind":"swiss","game":{{"game":"othello"}}{extra}}}"#
        ))
        .map_err(|e| e.to_string())
    }

    #[test]
    fn whole_numbers_may_be_written_with_a_zero_fraction() {
        let b = body(r#","rounds":3.0,"duration_minutes":10,"starts_at":1765000000000.0"#).unwrap();
        assert_eq!(
            (b.rounds, b.duration_minutes, b.starts_at),
            (Some(3), Some(10), Some(1_765_000_000_000))
        );
        assert!(body(r#","rounds":3.5"#).is_err());
        assert!(body(r#","rounds":-1"#).is_err(), "out of u32");
        assert!(body(r#","rounds":4294967296"#).is_err(), "one past u32");
        assert_eq!(
            body(r#","rounds":4294967295"#).unwrap().rounds,
            Some(u32::MAX)
        );
        assert_eq!(body(r#","starts_at":-5"#).unwrap().starts_at, Some(-5));
        assert_eq!(body(r#","starts_at":null"#).unwrap().starts_at, None);
    }
}
