//! The HTTP API as an OpenAPI 3.1 document (built with utoipa), and the body schemas in it (generated with
//! schemars, as the protocol's are, so the two documents share one set of schemas: `LobbyRoom`, `RulesSpec`, …).
//!
//! The games route's types derive their schemas where they are defined (`games.rs`). The accounts module's JSON
//! shapes are described here by types of the same fields (`accounts::view`, `auth`, `leaderboard`, `players`):
//! `server/tests/web/schemas.rs` validates real answers of every route against this document, so a shape that drifts
//! from its description fails there.

use schemars::JsonSchema;
use serde_json::{json, Value};
use utoipa::openapi::path::{
    HttpMethod, Operation, OperationBuilder, ParameterBuilder, ParameterIn,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{
    ContentBuilder, InfoBuilder, OpenApiBuilder, PathItem, PathsBuilder, Ref, Required,
    ResponseBuilder,
};

use super::computer::ComputerView;
use super::games::{GameView, ImportedPsq};
use crate::accounts::{leaderboard, password, players, username};

/// `GET /api/health`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Health {
    /// Always `ok`.
    status: String,
}

/// The JSON body of every HTTP error.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct ErrorBody {
    /// Stable snake_case code (`unknown_game`, `not_authenticated`, `rate_limited`, …; docs/accounts.md).
    code: String,
    /// A human-readable explanation.
    message: String,
    /// With `rate_limited`: seconds to wait (also the `Retry-After` header).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retry_after: Option<u64>,
}

/// A username's schema from the bounds `accounts::username::validate` checks: its length and characters. The rest of
/// the rule (scripts may not mix, a combining mark follows a letter, 3 characters unless all are Chinese, Japanese or
/// Korean, no reserved or confusable names) is the server's to judge: `invalid_username`, `reserved_username`.
fn username_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "string",
        "minLength": username::MIN_LEN_CJK,
        "maxLength": username::MAX_LEN,
        "pattern": "^[\\p{L}\\p{Nd}\\p{M}_-]+$",
        "description": format!(
            "{}–{} characters: letters or digits of one script, combining marks after them, `_` or `-`; {} are enough \
             when all are Chinese, Japanese or Korean characters. Not a guest's, the computer's or a staff name.",
            username::MIN_LEN, username::MAX_LEN, username::MIN_LEN_CJK
        ),
    })
}

/// A password's schema from the bounds `accounts::password::validate` checks: at least [`password::MIN_LEN`]
/// characters, no control characters. The limit of [`password::MAX_BYTES`] is in bytes, which JSON Schema cannot
/// count: `maxLength` is that many characters, and a longer text in bytes is `password_too_long`.
fn password_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "string",
        "minLength": password::MIN_LEN,
        "maxLength": password::MAX_BYTES,
        "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F]*$",
        "description": format!(
            "At least {} characters (invisible ones do not count), at most {} bytes of UTF-8, no control characters, \
             not only spaces, not one of the most common passwords.",
            password::MIN_LEN, password::MAX_BYTES
        ),
    })
}

/// The body of `POST /api/register` and `POST /api/login`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Credentials {
    /// 3–20 letters, digits, `_` or `-` (2 are enough for a name of Chinese, Japanese or Korean characters).
    #[schemars(schema_with = "username_schema")]
    username: String,
    /// The password (on registration, the rules of `new_password` in `PasswordChange`).
    #[schemars(schema_with = "password_schema")]
    password: String,
    /// Whether the answer should carry the session token in its body (for clients that are not browsers).
    #[serde(default)]
    issue_token: bool,
}

/// A registered user as the API shows them to themselves.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct UserView {
    /// Name as registered.
    name: String,
    /// Always `false` here.
    guest: bool,
    /// When registered (ms since the Unix epoch).
    created_at: i64,
}

/// The answer to a successful register or login (the token is also set as the session cookie).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct SessionView {
    /// The session token, only when asked for with `issue_token`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    /// The signed-in user.
    user: UserView,
    /// When the session expires (ms since the Unix epoch).
    expires_at: i64,
}

/// The answer to `POST /api/logout/everywhere`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct EverywhereView {
    /// How many sessions were revoked (this one included).
    revoked: u64,
}

/// The body of `POST /api/password`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct PasswordChange {
    /// The password now in force.
    old_password: String,
    /// The new password: the registration rules apply.
    #[schemars(schema_with = "password_schema")]
    new_password: String,
}

/// The body of `POST /api/password/reset`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct PasswordReset {
    /// The account's name (any case).
    username: String,
    /// The one-time code an operator issued (`server reset-password NAME`); case, dashes and spaces are ignored.
    code: String,
    /// The new password: the registration rules apply.
    #[schemars(schema_with = "password_schema")]
    new_password: String,
}

/// The answer to a password change or reset.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct ChangedView {
    /// How many sessions ended: on a change, the account's other sessions; on a reset, all of them.
    revoked: u64,
}

/// A rating with what clients show next to it.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct RatingView {
    rating: f64,
    deviation: f64,
    provisional: bool,
    /// Tier display name.
    tier: String,
    /// Tier code.
    tier_code: String,
}

/// The leaderboard's rule for a pool and how far the player is along it (docs/ratings.md).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct LeaderboardProgress {
    /// Whether every part of the rule holds.
    listed: bool,
    /// Whether the player is established in the pool.
    established: bool,
    min_games: u32,
    /// Different opponents met while they were established.
    established_opponents: u32,
    min_opponents: u32,
    max_deviation: f64,
    active_days: u32,
    /// Whether the last rated game in the pool is within `active_days`.
    active: bool,
}

/// A player's standing in one pool.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct StandingView {
    /// The rating pool.
    #[schemars(with = "PoolName")]
    pool: String,
    #[serde(flatten)]
    rating: RatingView,
    games: u32,
    wins: u32,
    losses: u32,
    draws: u32,
    leaderboard: LeaderboardProgress,
    ladder: LadderView,
}

/// A player's points on the pool's game's cumulative ladder and its title (docs/ratings.md, "Ladders").
#[derive(JsonSchema)]
#[allow(dead_code)]
struct LadderView {
    /// `points` (the draughts source's +2/0/−2 ladder) or `dan` (Gomoku's 段位).
    kind: String,
    points: i64,
    /// The title's stable code (`junior_player`, `dan_3`).
    title_code: String,
    /// The title in English.
    title: String,
    /// The title in Chinese.
    title_zh: String,
}

/// `GET /api/me`: a registered user with their standings, or a guest.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum MeView {
    /// A registered user.
    User {
        #[serde(flatten)]
        user: UserView,
        ratings: Vec<StandingView>,
    },
    /// A guest (a `welcome` token sent as a bearer token).
    Guest { name: String, guest: bool },
}

/// One leaderboard line.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Entry {
    rank: u32,
    name: String,
    #[serde(flatten)]
    standing: StandingView,
}

/// A leaderboard page.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct LeaderboardView {
    pool: String,
    min_games: u32,
    min_opponents: u32,
    max_deviation: f64,
    active_days: u32,
    limit: u32,
    offset: u32,
    entries: Vec<Entry>,
}

/// One row of the tier table.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct TierView {
    code: String,
    name: String,
    min_rating: Option<f64>,
}

/// The tier table.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct TiersView {
    provisional_deviation: f64,
    tiers: Vec<TierView>,
}

/// One point of a rating history.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct HistoryView {
    game_id: i64,
    time: i64,
    rating: f64,
    deviation: f64,
}

/// A pool's standing with its rating history.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct PoolView {
    #[serde(flatten)]
    standing: StandingView,
    history: Vec<HistoryView>,
}

/// A player of a game summary.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct SummaryPlayer {
    name: String,
    guest: bool,
    /// The computer's level (1–8) when this player is the computer; absent for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    computer: Option<u8>,
    /// The external engine's name when this player is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<String>,
}

/// One player's rating change in a game summary.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct RatingChangeView {
    name: String,
    before: f64,
    after: f64,
    deviation: f64,
    /// Whether the rating after the game is provisional.
    provisional: bool,
    tier: String,
    tier_code: String,
}

/// A game in a player's list.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct GameSummary {
    id: i64,
    public_id: String,
    room: String,
    /// The rating pool.
    #[schemars(with = "PoolName")]
    pool: String,
    /// Gomoku's rules (Gomoku games only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rules: Option<protocol::RulesSpec>,
    /// The game and its configuration (games other than Gomoku only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game: Option<protocol::GameSpec>,
    rated: bool,
    black: SummaryPlayer,
    white: SummaryPlayer,
    swapped: bool,
    started_at: i64,
    ended_at: Option<i64>,
    /// `playing`, `over` or `aborted`.
    state: String,
    #[schemars(with = "Option<protocol::schema::ColorDef>")]
    winner: Option<rules::Color>,
    winner_name: Option<String>,
    reason: Option<String>,
    ratings: Option<Vec<RatingChangeView>>,
    rating_before: Option<f64>,
    rating_after: Option<f64>,
}

/// A player's profile.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct ProfileView {
    name: String,
    created_at: i64,
    ratings: Vec<PoolView>,
    /// The games the player is playing now (not finished), newest first, at most 10; `room` is where to watch.
    /// Private ones only to the player.
    playing: Vec<GameSummary>,
    /// The latest games (any state), newest first, at most 20.
    games: Vec<GameSummary>,
    next_before: Option<i64>,
    /// Issue #38: when a moderator marked the account a cheater; absent when none did.
    marked_cheater_at: Option<i64>,
}

/// A page of a player's games.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct GamesPage {
    games: Vec<GameSummary>,
    next_before: Option<i64>,
}

/// A response with a JSON body of the named component schema.
fn json_response(description: &str, schema: Option<&str>) -> utoipa::openapi::Response {
    let mut r = ResponseBuilder::new().description(description);
    if let Some(name) = schema {
        r = r.content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name(name)))
                .build(),
        );
    }
    r.build()
}

fn text_response(description: &str) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "text/plain",
            ContentBuilder::new()
                .schema(Some(ObjectBuilder::new().schema_type(Type::String).build()))
                .build(),
        )
        .build()
}

/// Every rating pool's name, in display order, each in backticks.
fn pool_names() -> Vec<String> {
    crate::stored::POOLS
        .iter()
        .map(|p| format!("`{}`", p.name()))
        .collect()
}

/// A rating pool's name in the schema: one of every game's pools (`crate::stored::POOLS`).
struct PoolName;

impl JsonSchema for PoolName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PoolName".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<String> = crate::stored::POOLS
            .iter()
            .map(|p| p.name().into_owned())
            .collect();
        schemars::json_schema!({
            "description": "A rating pool: a Gomoku rule set's name, or `game/variant` for the other games.",
            "type": "string",
            "enum": names,
        })
    }
}

fn error(description: &str) -> utoipa::openapi::Response {
    json_response(description, Some("ErrorBody"))
}

fn param(name: &str, place: ParameterIn, ty: Type, description: &str) -> ParameterBuilder {
    let schema = match ty {
        Type::Integer => json!({"type": "integer"}),
        Type::Boolean => json!({"type": "boolean"}),
        _ => json!({"type": "string"}),
    };
    param_with(name, place, schema, description)
}

/// A parameter with its whole schema (bounds, enums, defaults: the values the handler accepts). Path parameters
/// are required, the others optional unless [`required`] says so.
fn param_with(
    name: &str,
    place: ParameterIn,
    schema: Value,
    description: &str,
) -> ParameterBuilder {
    let required = if matches!(place, ParameterIn::Path) {
        Required::True
    } else {
        Required::False
    };
    let schema: utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> =
        serde_json::from_value(schema).expect("a parameter's schema is an OpenAPI schema");
    ParameterBuilder::new()
        .name(name)
        .parameter_in(place)
        .required(required)
        .description(Some(description))
        .schema(Some(schema))
}

/// A required query parameter.
fn required(p: ParameterBuilder) -> ParameterBuilder {
    p.required(Required::True)
}

/// An integer query parameter's schema: `min..=max` and its default.
fn bounded(min: u32, max: u32, default: u32) -> Value {
    json!({"type": "integer", "minimum": min, "maximum": max, "default": default})
}

/// A string parameter that takes one of `values`.
fn one_of(values: &[&str]) -> Value {
    json!({"type": "string", "enum": values})
}

/// A reference to a component schema, as a parameter's schema.
fn component(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// The `{id}` of a game's routes.
fn game_id() -> ParameterBuilder {
    param(
        "id",
        ParameterIn::Path,
        Type::String,
        "The game's public id (or, for a public game, its integer id).",
    )
}

fn op(id: &str, summary: &str, tag: &str) -> OperationBuilder {
    OperationBuilder::new()
        .operation_id(Some(id))
        .summary(Some(summary))
        .tag(tag)
}

fn credentials_body() -> utoipa::openapi::request_body::RequestBody {
    json_body("Credentials")
}

/// The body of `POST /api/import/psq`: a `.psq` file as text, whose first line names a board side the importer
/// reads (from the same bounds as `crate::export::parse_psq`).
fn psq_body() -> utoipa::openapi::request_body::RequestBody {
    let sides: Vec<String> = (rules::MIN_SIZE..=rules::MAX_SIZE)
        .map(|n| format!("{n}x{n}"))
        .collect();
    let schema: utoipa::openapi::schema::Schema = serde_json::from_value(json!({
        "type": "string",
        "description": "A Piskvork `.psq` file: the line `Piskvorky WxH, …` (a square board), then one `x,y,ms` line per stone (1-based, from the top left).",
        "maxLength": crate::export::MAX_PSQ_BYTES,
        "pattern": format!("^Piskvorky ({})[ \\t]*(,|\\r?\\n|$)", sides.join("|")),
    }))
    .expect("the .psq body's schema is an OpenAPI schema");
    RequestBodyBuilder::new()
        .required(Some(Required::True))
        .content(
            "text/plain",
            ContentBuilder::new().schema(Some(schema)).build(),
        )
        .build()
}

fn json_body(schema: &str) -> utoipa::openapi::request_body::RequestBody {
    RequestBodyBuilder::new()
        .required(Some(Required::True))
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name(schema)))
                .build(),
        )
        .build()
}

/// Every `/api/*` route the router serves, with its operation.
fn operations() -> Vec<(&'static str, HttpMethod, Operation)> {
    use HttpMethod::{Delete, Get, Post, Put};
    let internal = || error("Something failed inside the server (details are logged).");
    let mut ops = vec![
        (
            "/api/health",
            Get,
            op("health", "The process is up and serving.", "server")
                .response("200", json_response("Up.", Some("Health")))
                .build(),
        ),
        (
            "/api/computer",
            Get,
            op("computer", "The computer's levels and whether it takes new games now.", "computer")
                .response("200", json_response("The levels.", Some("ComputerView")))
                .build(),
        ),
        (
            "/api/quick",
            Get,
            op("quick", "The quick-pairing presets of every game (the lobby's tiles), in the order of `quick_counts`.", "rooms")
                .response("200", json_response("The presets.", Some("QuickPresets")))
                .build(),
        ),
        (
            "/api/rooms",
            Get,
            op("rooms", "The lobby's public rooms (the `rooms` of a `lobby` message).", "rooms")
                .response("200", json_response("The rooms, newest first.", Some("LobbyRooms")))
                .build(),
        ),
        (
            "/api/games/{id}",
            Get,
            op("game", "The record of a game, finished or live.", "games")
                .parameter(param(
                    "id",
                    ParameterIn::Path,
                    Type::String,
                    "The game's public id (or, for a public game, its integer id).",
                ))
                .response("200", json_response("The record.", Some("GameView")))
                .response("404", error("`unknown_game`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/matches/{id}",
            Get,
            op(
                "match",
                "A match (issue #34): its players, every game with its record's id, the running score and the result.",
                "games",
            )
            .parameter(param(
                "id",
                ParameterIn::Path,
                Type::Integer,
                "The match's id (a room's snapshot names it: `match_id`).",
            ))
            .response("200", json_response("The match.", Some("MatchView")))
            .response("404", error("`no_such_match`."))
            .response("500", internal())
            .build(),
        ),
        (
            "/api/games/{id}/export",
            Get,
            op(
                "game_export",
                "A game in its game's usual text, as the game writes its records (a move list, PDN, the moves by notation).",
                "games",
            )
            .parameter(param(
                "id",
                ParameterIn::Path,
                Type::String,
                "The game's public id (or, for a public game, its integer id).",
            ))
            .parameter(param_with(
                "format",
                ParameterIn::Query,
                one_of(&super::games::EXPORT_FORMATS),
                "`psq` (Piskvork, Gomoku only), `renlib` (RenLib's move text, Gomoku only) or `text` (a readable record with headers, any game); none for the game's usual text.",
            ))
            .response("200", text_response("The game as text (`text/plain; charset=utf-8`)."))
            .response("400", error("`unknown_format`, `unsupported_format`, `invalid_query`."))
            .response("404", error("`unknown_game`."))
            .response("500", internal())
            .build(),
        ),
        (
            "/api/games/{id}/analysis",
            Get,
            op(
                "game_analysis",
                "Where a game's computer analysis stands (none, queued, running, done), with the analysis once done.",
                "analysis",
            )
            .parameter(game_id())
            .response("200", json_response("The analysis or its progress.", Some("AnalysisView")))
            .response("404", error("`unknown_game`."))
            .response("500", internal())
            .build(),
        ),
        (
            "/api/games/{id}/analysis",
            Post,
            op(
                "request_analysis",
                "Asks for a finished game's computer analysis (a session's player, within the daily limit). A stored one answers at once; a repeated request answers the job under way and costs nothing.",
                "analysis",
            )
            .parameter(game_id())
            .response("200", json_response("Done: the stored analysis.", Some("AnalysisView")))
            .response("202", json_response("Queued or running.", Some("AnalysisView")))
            .response("401", error("`not_authenticated`."))
            .response("404", error("`unknown_game`."))
            .response("409", error("`game_not_finished`."))
            .response("422", error("`no_engine`."))
            .response("429", error("`analysis_limit` (with `limit`: the requests a player has in 24 hours)."))
            .response("503", error("`analysis_busy` (with `Retry-After`)."))
            .response("500", internal())
            .build(),
        ),
        (
            "/api/games/{id}/analysis",
            Delete,
            op("cancel_analysis", "Cancels the caller's queued or running analysis of a game.", "analysis")
                .parameter(game_id())
                .response("200", json_response("Cancelled (`status`: `cancelled`).", Some("AnalysisView")))
                .response("401", error("`not_authenticated`."))
                .response("403", error("`not_requester`."))
                .response("404", error("`unknown_game`, `no_analysis_job`."))
                .build(),
        ),
        (
            "/api/analysis/evaluate",
            Post,
            op(
                "evaluate_position",
                "The analysis board's engine: the best action and line of a posted position, thinking at most `--analysis-evaluate-ms`.",
                "analysis",
            )
            .request_body(Some(json_body("EvaluateRequest")))
            .response("200", json_response("The engine's view.", Some("EvaluateAnswer")))
            .response(
                "400",
                error("`invalid_body`, `unknown_game`, `invalid_config`, `invalid_action`, `illegal_action`, `too_many_actions`."),
            )
            .response("429", error("`rate_limited` (with `Retry-After`)."))
            .response("503", error("`analysis_busy`."))
            .build(),
        ),
        (
            "/api/import/psq",
            Post,
            op(
                "import_psq",
                "Reads a Piskvork `.psq` file (the request body, as text, at most 64 KiB) into its moves and final position.",
                "games",
            )
            .request_body(Some(psq_body()))
            .response("200", json_response("The moves and the position.", Some("ImportedPsq")))
            .response(
                "400",
                error("`bad_psq_header`, `unsupported_board_size`, `off_board`, `occupied`, `bad_encoding`."),
            )
            .response("413", error("`too_large`."))
            .build(),
        ),
        (
            "/api/protocol.schema.json",
            Get,
            op("protocol_schema", "The WebSocket protocol as JSON Schema (draft 2020-12).", "schemas")
                .response("200", json_response("The schema.", Some("JsonDocument")))
                .build(),
        ),
        (
            "/api/openapi.json",
            Get,
            op("openapi", "This document.", "schemas")
                .response("200", json_response("The OpenAPI document.", Some("JsonDocument")))
                .build(),
        ),
        (
            "/api/register",
            Post,
            op("register", "Registers an account and signs in (sets the session cookie).", "accounts")
                .request_body(Some(credentials_body()))
                .response("201", json_response("Registered and signed in.", Some("SessionView")))
                .response(
                    "400",
                    error("`invalid_username`, `reserved_username`, `weak_password`, `password_too_long`, `invalid_password`, `common_password`, `invalid_body`."),
                )
                .response("409", error("`username_taken`, `username_confusable`."))
                .response(
                    "429",
                    error("`rate_limited` (the login limits, or an address's password hashes in flight) or `too_many_registrations` (the accounts an address or its range may register a day), with `retry_after`."),
                )
                .response("503", error("`server_busy`: every password-hashing place and queue is taken; with `retry_after`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/login",
            Post,
            op("login", "Signs in (sets the session cookie).", "accounts")
                .request_body(Some(credentials_body()))
                .response("200", json_response("Signed in.", Some("SessionView")))
                .response("400", error("`invalid_body`."))
                .response("401", error("`invalid_credentials`."))
                .response("429", error("`rate_limited`, with `retry_after` (the login limits, or an address's password hashes in flight)."))
                .response("503", error("`server_busy`: every password-hashing place and queue is taken; with `retry_after`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/logout",
            Post,
            op("logout", "Signs the request's session out (its token or cookie).", "accounts")
                .response("204", json_response("Signed out (or there was nothing to sign out).", None))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/logout/everywhere",
            Post,
            op("logout_everywhere", "Revokes every session of the request's user.", "accounts")
                .response("200", json_response("Revoked.", Some("EverywhereView")))
                .response("401", error("`not_authenticated`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/password",
            Post,
            op("change_password", "Changes the signed-in account's password, given the old one; ends every other session.", "accounts")
                .request_body(Some(json_body("PasswordChange")))
                .response("200", json_response("Changed; the other sessions ended.", Some("ChangedView")))
                .response(
                    "400",
                    error("`weak_password`, `password_too_long`, `invalid_password`, `common_password`, `invalid_body`."),
                )
                .response("401", error("`not_authenticated` (guests too: they have no password)."))
                .response("403", error("`wrong_password`: the old password is wrong (counts as a failed login)."))
                .response("429", error("`rate_limited`, with `retry_after` (the login limits, or an address's password hashes in flight)."))
                .response("503", error("`server_busy`: every password-hashing place and queue is taken; with `retry_after`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/password/reset",
            Post,
            op("reset_password", "Sets a new password with a one-time code an operator issued; ends every session of the account.", "accounts")
                .request_body(Some(json_body("PasswordReset")))
                .response("200", json_response("Reset; every session of the account ended.", Some("ChangedView")))
                .response(
                    "400",
                    error("`invalid_reset_code` (unknown name, wrong, used or expired code), `weak_password`, `password_too_long`, `invalid_password`, `common_password`, `invalid_body`."),
                )
                .response("429", error("`rate_limited`, with `retry_after` (the login limits, or an address's password hashes in flight)."))
                .response("503", error("`server_busy`: every password-hashing place and queue is taken; with `retry_after`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/me",
            Get,
            op("me", "Who the request's session stands for.", "accounts")
                .response("200", json_response("A user with standings, or a guest.", Some("MeView")))
                .response("401", error("`not_authenticated`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/me/challenges",
            Get,
            op("challenge_setting", "Who may challenge the signed-in player: `all`, `accounts` (no guests) or `none`.", "accounts")
                .response("200", json_response("The setting.", Some("ChallengeSetting")))
                .response("401", error("`not_authenticated` (guests too: the setting is an account's)."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/me/challenges",
            Put,
            op("set_challenge_setting", "Sets who may challenge the signed-in player.", "accounts")
                .request_body(Some(
                    RequestBodyBuilder::new()
                        .required(Some(Required::True))
                        .content(
                            "application/json",
                            ContentBuilder::new()
                                .schema(Some(Ref::from_schema_name("ChallengeSetting")))
                                .build(),
                        )
                        .build(),
                ))
                .response("200", json_response("The setting as stored.", Some("ChallengeSetting")))
                .response("400", error("`invalid_body` (`accept` is not `all`, `accounts` or `none`)."))
                .response("401", error("`not_authenticated`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/leaderboard",
            Get,
            op("leaderboard", "The best listed players of a rating pool.", "ratings")
                .parameter(required(param_with("pool", ParameterIn::Query, component("PoolName"), &format!("The pool: {} (required: a client opens the pool its player plays).", pool_names().join(", ")))))
                .parameter(param_with("limit", ParameterIn::Query, bounded(1, leaderboard::MAX_LIMIT, leaderboard::DEFAULT_LIMIT), &format!("Entries, 1–{} (default {}).", leaderboard::MAX_LIMIT, leaderboard::DEFAULT_LIMIT)))
                .parameter(param_with("offset", ParameterIn::Query, bounded(0, leaderboard::MAX_OFFSET, 0), &format!("Entries to skip, 0–{} (default 0).", leaderboard::MAX_OFFSET)))
                .response("200", json_response("A page, best first.", Some("LeaderboardView")))
                .response("400", error("`unknown_pool`, `invalid_query`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/tiers",
            Get,
            op("tiers", "The rank tiers and their thresholds.", "ratings")
                .response("200", json_response("The tier table.", Some("TiersView")))
                .build(),
        ),
        (
            "/api/players/{name}",
            Get,
            op("profile", "A registered player's profile: ratings, the games being played now (to watch) and the latest games.", "players")
                .parameter(param("name", ParameterIn::Path, Type::String, "The username."))
                .response("200", json_response("The profile.", Some("ProfileView")))
                .response("404", error("`not_found`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/players/{name}/games",
            Get,
            op("player_games", "A page of a player's games, newest first.", "players")
                .parameter(param("name", ParameterIn::Path, Type::String, "The username."))
                .parameter(param_with("before", ParameterIn::Query, json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}), "Only games with a smaller id (`next_before` of the previous page)."))
                .parameter(param_with("limit", ParameterIn::Query, bounded(1, players::MAX_PAGE, players::DEFAULT_PAGE), &format!("Games per page, 1–{} (default {}).", players::MAX_PAGE, players::DEFAULT_PAGE)))
                .parameter(param_with("pool", ParameterIn::Query, component("PoolName"), "Only games of this rating pool (as the leaderboard's `pool`)."))
                .parameter(param("rated", ParameterIn::Query, Type::Boolean, "Only rated (`true`) or casual (`false`) games."))
                .parameter(param_with("result", ParameterIn::Query, one_of(&players::RESULTS), "Only the games the player won (`win`), lost (`loss`) or drew (`draw`)."))
                .parameter(param("finished", ParameterIn::Query, Type::Boolean, "Only finished games (`true`: over or aborted, the archive) or only games being played (`false`)."))
                .response("200", json_response("A page.", Some("GamesPage")))
                .response("400", error("`invalid_query`; `unknown_pool`."))
                .response("404", error("`not_found`."))
                .response("500", internal())
                .build(),
        ),
    ];
    ops.extend(community_operations());
    ops.extend(events_operations());
    ops
}

/// The community's routes (issue #38, `http/community.rs`).
fn community_operations() -> Vec<(&'static str, HttpMethod, Operation)> {
    use super::community as c;
    use HttpMethod::{Delete, Get, Post, Put};
    let internal = || error("Something failed inside the server (details are logged).");
    let unauthenticated =
        || error("`not_authenticated` (no session, or a guest's: this is an account's).");
    let forbidden = || error("`forbidden`: the signed-in account is not a moderator.");
    let name = || {
        required(param(
            "name",
            ParameterIn::Path,
            Type::String,
            "The other player's username.",
        ))
    };
    let on_player = |id: &str, summary: &str| {
        op(id, summary, "community")
            .parameter(name())
            .response(
                "204",
                json_response("Done (doing it again changes nothing).", None),
            )
            .response("400", error("`self_target`: not oneself."))
            .response("401", unauthenticated())
            .response("404", error("`not_found`: no such open account."))
            .response("500", internal())
            .build()
    };
    vec![
        (
            "/api/me/community",
            Get,
            op("community", "The signed-in player's role, privacy setting, follows, blocks (private to them) and the moderators' notices.", "community")
                .response("200", json_response("The player's community settings.", Some("CommunityView")))
                .response("401", unauthenticated())
                .response("500", internal())
                .build(),
        ),
        ("/api/me/follows/{name}", Put, on_player("follow", "Follows a player.")),
        ("/api/me/follows/{name}", Delete, on_player("unfollow", "Stops following a player.")),
        ("/api/me/blocks/{name}", Put, on_player("block", "Blocks a player: they cannot challenge the blocker, chat or watch in the rooms the blocker sits in, or be paired with them; also ends a follow of them. Nobody else learns of it.")),
        ("/api/me/blocks/{name}", Delete, on_player("unblock", "Lifts a block.")),
        (
            "/api/me/privacy",
            Put,
            op("set_privacy", "Whether followers see the games the player is playing.", "community")
                .request_body(Some(json_body("Privacy")))
                .response("200", json_response("The setting as stored.", Some("Privacy")))
                .response("400", error("`invalid_body`."))
                .response("401", unauthenticated())
                .response("500", internal())
                .build(),
        ),
        (
            "/api/me/friends",
            Get,
            op("friends", "The players the signed-in player follows: whether each is online and the games they are playing (when they share them).", "community")
                .response("200", json_response("The followed players, by name.", Some("FriendViews")))
                .response("401", unauthenticated())
                .response("500", internal())
                .build(),
        ),
        (
            "/api/reports",
            Post,
            op("report", &format!("Reports a player; from a room, the player's last {} chat lines there are attached. At most {} reports a day.", c::EVIDENCE_LINES, c::REPORTS_PER_DAY), "community")
                .request_body(Some(json_body("NewReportBody")))
                .response("201", json_response("The report as stored (`open`).", Some("ReportView")))
                .response("400", error("`invalid_body` (an unknown reason, details over 1000 characters), `self_target`."))
                .response("401", unauthenticated())
                .response("404", error("`not_found`: no such player or game."))
                .response("429", error("`rate_limited`, with `retry_after`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/me/reports",
            Get,
            op("my_reports", "The reports the signed-in player made, newest first, with their status.", "community")
                .response("200", json_response("The reports.", Some("ReportViews")))
                .response("401", unauthenticated())
                .response("500", internal())
                .build(),
        ),
        (
            "/api/mod/reports",
            Get,
            op("report_queue", "The moderators' report queue, oldest first, with the evidence.", "moderation")
                .parameter(param_with("status", ParameterIn::Query, one_of(&["open", "resolved", "dismissed", "all"]), "Which reports (default `open`)."))
                .response("200", json_response("The reports.", Some("ReportViews")))
                .response("400", error("`invalid_body`: an unknown status."))
                .response("401", unauthenticated())
                .response("403", forbidden())
                .response("500", internal())
                .build(),
        ),
        (
            "/api/mod/actions",
            Post,
            op("moderate", "A moderator's action (warn, mute, unmute, remove a chat line, ban a guests' address range, close an account, rename, dismiss a report; administrators also grant and revoke the moderator role), kept in the audit log.", "moderation")
                .request_body(Some(json_body("ActionBody")))
                .response("200", json_response("What was done, as logged.", Some("ActionDone")))
                .response("400", error("`invalid_body`: an unknown action, no reason, no target, minutes out of 1–43200."))
                .response("401", unauthenticated())
                .response("403", forbidden())
                .response("404", error("`not_found`: no such player, line or report."))
                .response("409", error("`bad_name`: a rename to an invalid, reserved, taken or confusable name."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/mod/log",
            Get,
            op("moderation_log", "The audit log: who did what to whom, when and why; newest first.", "moderation")
                .response("200", json_response("The entries.", Some("LogViews")))
                .response("401", unauthenticated())
                .response("403", forbidden())
                .response("500", internal())
                .build(),
        ),
        (
            "/api/me/export",
            Get,
            op("export_my_data", "Everything stored about the signed-in player as one JSON file: profile, ratings and their history, games, chat lines, reports made, follows, blocks, notices.", "community")
                .response("200", json_response("The player's data (an attachment, `my-data.json`).", Some("JsonDocument")))
                .response("401", unauthenticated())
                .response("500", internal())
                .build(),
        ),
        (
            "/api/me/close",
            Post,
            op("close_account", "Closes the signed-in account (docs/security.md: games stay, as \"deleted player\"; opponents' ratings untouched).", "community")
                .request_body(Some(json_body("CloseBody")))
                .response("204", json_response("Closed; every session ended.", None))
                .response("400", error("`invalid_body`: `confirm` is not the account's name."))
                .response("401", unauthenticated())
                .response("500", internal())
                .build(),
        ),
    ]
}

/// The body schemas, by component name, generated from their types (with the protocol's types they contain).
fn component_schemas() -> serde_json::Map<String, Value> {
    let mut generator = protocol::schema::settings("/components/schemas").into_generator();
    generator.subschema_for::<Health>();
    generator.subschema_for::<ErrorBody>();
    generator.subschema_for::<GameView>();
    generator.subschema_for::<crate::matches::MatchView>();
    generator.subschema_for::<ImportedPsq>();
    generator.subschema_for::<crate::analysis::report::AnalysisView>();
    generator.subschema_for::<super::analysis::EvaluateRequest>();
    generator.subschema_for::<super::analysis::EvaluateAnswer>();
    generator.subschema_for::<ComputerView>();
    generator.subschema_for::<super::quick::QuickPresets>();
    generator.subschema_for::<Credentials>();
    generator.subschema_for::<SessionView>();
    generator.subschema_for::<EverywhereView>();
    generator.subschema_for::<PasswordChange>();
    generator.subschema_for::<PasswordReset>();
    generator.subschema_for::<ChangedView>();
    generator.subschema_for::<MeView>();
    generator.subschema_for::<crate::accounts::challenge_setting::ChallengeSetting>();
    generator.subschema_for::<LeaderboardView>();
    generator.subschema_for::<TiersView>();
    generator.subschema_for::<ProfileView>();
    generator.subschema_for::<GamesPage>();
    generator.subschema_for::<super::community::CommunityView>();
    generator.subschema_for::<super::community::Privacy>();
    generator.subschema_for::<super::community::NewReportBody>();
    generator.subschema_for::<super::community::ReportView>();
    generator.subschema_for::<super::community::ActionBody>();
    generator.subschema_for::<super::community::ActionDone>();
    generator.subschema_for::<super::community::CloseBody>();
    // events: the events' routes (issue #34).
    generator.subschema_for::<crate::events::http::NewEventBody>();
    generator.subschema_for::<crate::events::http::JoinBody>();
    generator.subschema_for::<crate::events::http::CreatedEvent>();
    generator.subschema_for::<crate::events::http::Joined>();
    generator.subschema_for::<crate::events::http::EventList>();
    generator.subschema_for::<crate::events::http::EventView>();
    let friends = generator.subschema_for::<Vec<super::community::FriendView>>();
    let reports = generator.subschema_for::<Vec<super::community::ReportView>>();
    let log = generator.subschema_for::<Vec<super::community::LogView>>();
    let rooms = generator.subschema_for::<Vec<protocol::LobbyRoom>>();
    let mut schemas: serde_json::Map<String, Value> =
        generator.take_definitions(true).into_iter().collect();
    schemas.insert("LobbyRooms".to_owned(), Value::from(rooms));
    schemas.insert("FriendViews".to_owned(), Value::from(friends));
    schemas.insert("ReportViews".to_owned(), Value::from(reports));
    schemas.insert("LogViews".to_owned(), Value::from(log));
    schemas.insert(
        "JsonDocument".to_owned(),
        json!({"type": "object", "description": "A JSON document (a schema)."}),
    );
    schemas
}

/// The OpenAPI document of the HTTP API, as served at `GET /api/openapi.json`.
pub fn document() -> Value {
    let mut paths = PathsBuilder::new();
    let mut by_path: Vec<(&str, PathItem)> = Vec::new();
    for (path, method, operation) in operations() {
        match by_path.iter_mut().find(|(p, _)| *p == path) {
            Some((_, item)) => item.merge_operations(PathItem::new(method, operation)),
            None => by_path.push((path, PathItem::new(method, operation))),
        }
    }
    for (path, item) in by_path {
        paths = paths.path(path, item);
    }
    let info = InfoBuilder::new()
        .title("Gomoku / Renju server HTTP API")
        .version(env!("CARGO_PKG_VERSION"))
        .description(Some(
            "The HTTP routes beside the WebSocket protocol (GET /ws; its messages: /api/protocol.schema.json). \
             docs/protocol.md and docs/accounts.md are the reference.",
        ))
        .build();
    let openapi = OpenApiBuilder::new()
        .info(info)
        .paths(paths.build())
        .build();
    let mut doc = serde_json::to_value(openapi).expect("an OpenAPI document serialises");
    doc["components"] = json!({ "schemas": component_schemas() });
    doc
}

/// events: the events' routes (issue #34, `crate::events`).
fn events_operations() -> Vec<(&'static str, HttpMethod, Operation)> {
    use HttpMethod::{Get, Post};
    let internal = || error("Something failed inside the server (details are logged).");
    let unauthenticated = || error("`not_authenticated`: no session.");
    let id = || {
        param(
            "id",
            ParameterIn::Path,
            Type::String,
            "The event's id (an integer; anything else is `no_such_event`).",
        )
    };
    let missing = || error("`no_such_event`.");
    let closed = || {
        error("`event_finished` (over), `already_entered`, `entries_closed` (a running round robin, or a Swiss whose last round is paired), `event_full` (256 entrants).")
    };
    vec![
        (
            "/api/events",
            Get,
            op("events", "The events: upcoming (soonest first), running and finished (latest first), 50 of each.", "events")
                .response("200", json_response("The lists.", Some("EventList")))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/events",
            Post,
            op("create_event", "Makes an event (an account's): an arena, a Swiss or a round robin of one game, clock and rating choice, starting at a time (now when absent), private with a password.", "events")
                .request_body(Some(json_body("NewEventBody")))
                .response("201", json_response("Made.", Some("CreatedEvent")))
                .response("400", error("`invalid_body`, `invalid_name` (1 to 60 characters), `invalid_kind`, `invalid_rounds` (a Swiss: 1 to 15), `invalid_duration` (an arena: 1 to 720 minutes), `invalid_start` (now to 30 days ahead), `invalid_password` (1 to 64 characters), or the game's or the clock's own code.")
                )
                .response("401", error("`not_authenticated`: no session, or a guest's."))
                .response("429", error("`too_many_events`: 5 upcoming or running events a maker, 500 on the server."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/events/{id}",
            Get,
            op("event", "An event: entrants, standings (with tie-breaks), every pairing with its room and result, the crosstable of a Swiss or round robin, the podium once finished.", "events")
                .parameter(id())
                .response("200", json_response("The event.", Some("EventView")))
                .response("404", missing())
                .response("500", internal())
                .build(),
        ),
        (
            "/api/events/{id}/join",
            Post,
            op("join_event", "Enters the request's player (a guest only in an unrated event); a withdrawn entrant comes back.", "events")
                .parameter(id())
                .request_body(Some(json_body("JoinBody")))
                .response("200", json_response("Entered.", Some("Joined")))
                .response("400", error("`invalid_body`: a body that is not a `JoinBody` (no body at all is a join without a password)."))
                .response("401", unauthenticated())
                .response("403", error("`wrong_password` (a private event), `account_required` (a rated event)."))
                .response("404", missing())
                .response("409", closed())
                .response("500", internal())
                .build(),
        ),
        (
            "/api/events/{id}/leave",
            Post,
            op("leave_event", "Leaves an event: before its start the entry goes; after it the entrant is withdrawn (an arena's paused).", "events")
                .parameter(id())
                .response("204", json_response("Left.", None))
                .response("401", unauthenticated())
                .response("404", error("`no_such_event`, `not_entered`."))
                .response("409", error("`event_finished`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/events/{id}/withdraw",
            Post,
            op("withdraw_from_event", "Withdraws from an event (as leaving): a withdrawn Swiss entrant is not paired in later rounds, a round robin's later games are forfeited.", "events")
                .parameter(id())
                .response("204", json_response("Withdrawn.", None))
                .response("401", unauthenticated())
                .response("404", error("`no_such_event`, `not_entered`."))
                .response("409", error("`event_finished`."))
                .response("500", internal())
                .build(),
        ),
        (
            "/api/events/{id}/trf",
            Get,
            op("event_trf", "A Swiss as a FIDE TRF-16 file (with the TRF(x) rounds line), its completed rounds, for an outside pairing program to check.", "events")
                .parameter(id())
                .response("200", text_response("The TRF file."))
                .response("404", error("`no_such_event`, `not_a_swiss`."))
                .response("500", internal())
                .build(),
        ),
    ]
}
