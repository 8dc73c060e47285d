//! The community's HTTP routes (issue #38): follows and blocks, the privacy setting, reports, the moderators'
//! console (report queue, actions, audit log), and a player's own data (export, closing the account).
//!
//! Every route needs a signed-in account (`401 not_authenticated`); `/api/mod/*` also needs the moderator or
//! administrator role (`403 forbidden`). Errors are [`CommunityError`]'s JSON bodies.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use store::community::{NewLogEntry, NewReport, NewSanction, Report};
use store::{CommunityStore, SessionOwner, User};

use crate::community::{tables, CommunityError, Role};
use crate::AppState;

/// Reports one player may make in [`REPORT_WINDOW_MS`].
pub const REPORTS_PER_DAY: u32 = 10;
/// The window of [`REPORTS_PER_DAY`]: a day.
pub const REPORT_WINDOW_MS: i64 = 24 * 3600 * 1000;
/// The reasons a report may give.
pub const REASONS: &[&str] = &["cheating", "chat_abuse", "sandbagging", "bad_name"];
/// The longest report text and moderator's reason, in characters.
pub const MAX_TEXT: usize = 1000;
/// Chat lines of the reported player attached from the room.
pub const EVIDENCE_LINES: u32 = 20;
/// The longest mute, in minutes (30 days).
pub const MAX_MUTE_MINUTES: u32 = 30 * 24 * 60;
/// The moderator actions.
pub const ACTIONS: &[&str] = &[
    "warn",
    "mute",
    "unmute",
    "remove_chat",
    "ban_guests",
    "close_account",
    "rename",
    "mark_cheater",
    "dismiss",
    "grant_moderator",
    "revoke_moderator",
];

/// The community routes: `/api/me/community`, `/api/me/follows/{name}`, `/api/me/blocks/{name}`,
/// `/api/me/privacy`, `/api/me/friends`, `/api/reports`, `/api/me/reports`, `/api/mod/reports`,
/// `/api/mod/actions`, `/api/mod/log`, `/api/me/export`, `/api/me/close`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/me/community", get(mine))
        .route("/api/me/follows/{name}", put(follow).delete(unfollow))
        .route("/api/me/blocks/{name}", put(block).delete(unblock))
        .route("/api/me/privacy", put(privacy))
        .route("/api/me/friends", get(friends))
        .route("/api/reports", post(report))
        .route("/api/me/reports", get(my_reports))
        .route("/api/mod/reports", get(queue))
        .route("/api/mod/actions", post(act))
        .route("/api/mod/log", get(log))
        .route("/api/me/export", get(export))
        .route("/api/me/close", post(close))
}

fn now() -> i64 {
    crate::time::unix_ms()
}

/// The signed-in account of a request.
async fn me(state: &AppState, headers: &HeaderMap) -> Result<User, CommunityError> {
    let token =
        crate::accounts::token::from_headers(headers).ok_or(CommunityError::NotAuthenticated)?;
    match state
        .store
        .session(&crate::accounts::token::hash(&token), now())
        .await?
    {
        Some(SessionOwner::User(user)) => Ok(user),
        _ => Err(CommunityError::NotAuthenticated),
    }
}

/// The signed-in moderator of a request (`403 forbidden` for anyone else).
async fn moderator(state: &AppState, headers: &HeaderMap) -> Result<(User, Role), CommunityError> {
    let user = me(state, headers).await?;
    let role = Role::parse(&tables(state.store.as_ref())?.role(user.id).await?);
    if !role.moderates() {
        return Err(CommunityError::Forbidden);
    }
    Ok((user, role))
}

/// Another open account by name (`404`), never oneself (`400 self_target`).
async fn other(state: &AppState, me: &User, name: &str) -> Result<User, CommunityError> {
    let user = state
        .store
        .user_by_name(name)
        .await?
        .ok_or(CommunityError::NotFound)?;
    if tables(state.store.as_ref())?
        .closed_at(user.id)
        .await?
        .is_some()
    {
        return Err(CommunityError::NotFound);
    }
    if user.id == me.id {
        return Err(CommunityError::SelfTarget);
    }
    Ok(user)
}

fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, CommunityError> {
    body.map(|Json(b)| b)
        .map_err(|e| CommunityError::InvalidBody(e.body_text()))
}

fn names(rows: Vec<(store::UserId, String)>) -> Vec<String> {
    rows.into_iter().map(|(_, n)| n).collect()
}

/// `GET /api/me/community`: the signed-in player's role, privacy setting, follows, blocks and notices.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CommunityView {
    /// `player`, `moderator` or `administrator`.
    pub role: String,
    /// Whether followers are told when this player starts a game.
    pub share_games: bool,
    /// Whom the player follows.
    pub following: Vec<String>,
    /// Whom the player blocks (only the player sees this list).
    pub blocked: Vec<String>,
    /// Warnings from the moderators, newest first.
    pub notices: Vec<NoticeView>,
}

/// A notice from the moderators.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NoticeView {
    /// `warning`.
    pub kind: String,
    /// The moderators' words.
    pub text: String,
    /// When (ms since the epoch).
    pub at: i64,
}

async fn mine(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<CommunityView>, CommunityError> {
    let user = me(&state, &headers).await?;
    let t = tables(state.store.as_ref())?;
    Ok(Json(CommunityView {
        role: t.role(user.id).await?,
        share_games: t.share_games(user.id).await?,
        following: names(t.following(user.id).await?),
        blocked: names(t.blocked_by(user.id).await?),
        notices: t
            .notices(user.id)
            .await?
            .into_iter()
            .map(|n| NoticeView {
                kind: n.kind,
                text: n.text,
                at: n.created_at,
            })
            .collect(),
    }))
}

async fn follow(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<StatusCode, CommunityError> {
    let user = me(&state, &headers).await?;
    let target = other(&state, &user, &name).await?;
    tables(state.store.as_ref())?
        .follow(user.id, target.id, now())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn unfollow(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<StatusCode, CommunityError> {
    let user = me(&state, &headers).await?;
    let target = other(&state, &user, &name).await?;
    tables(state.store.as_ref())?
        .unfollow(user.id, target.id)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn block(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<StatusCode, CommunityError> {
    let user = me(&state, &headers).await?;
    let target = other(&state, &user, &name).await?;
    let t = tables(state.store.as_ref())?;
    t.block(user.id, target.id, now()).await?;
    // One does not follow whom one blocks.
    t.unfollow(user.id, target.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn unblock(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<StatusCode, CommunityError> {
    let user = me(&state, &headers).await?;
    let target = other(&state, &user, &name).await?;
    tables(state.store.as_ref())?
        .unblock(user.id, target.id)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of `PUT /api/me/privacy`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Privacy {
    /// Whether followers are told when this player starts a game.
    pub share_games: bool,
}

async fn privacy(
    State(state): State<AppState>,
    headers: HeaderMap,
    b: Result<Json<Privacy>, JsonRejection>,
) -> Result<Json<Privacy>, CommunityError> {
    let user = me(&state, &headers).await?;
    let b = body(b)?;
    tables(state.store.as_ref())?
        .set_share_games(user.id, b.share_games)
        .await?;
    Ok(Json(b))
}

/// One followed player in `GET /api/me/friends`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FriendView {
    /// The name.
    pub name: String,
    /// Whether they have a connection open on this node (any number of tabs), or play a public game now on any
    /// node.
    pub online: bool,
    /// The public ids of the games they are playing now (when they share their games).
    pub playing: Vec<String>,
    /// The public rooms where they play now, on any node of a cluster, to watch with one click (when they share
    /// their games and do not block the asker).
    pub rooms: Vec<FriendRoom>,
}

/// A followed player's public game in progress.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FriendRoom {
    /// The room to watch.
    pub room: String,
    /// The other player's name (empty when the other seat is free).
    pub opponent: String,
}

async fn friends(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Vec<FriendView>>, CommunityError> {
    let user = me(&state, &headers).await?;
    let t = tables(state.store.as_ref())?;
    let following = t.following(user.id).await?;
    // The public rooms of every followed player, from the lobby (which lists every node's public rooms).
    let keys: Vec<String> = following.iter().map(|(id, _)| format!("u{id}")).collect();
    let live = state.lobby.rooms_of(keys).await;
    let mut out = Vec::new();
    for (id, name) in following {
        let key = format!("u{id}");
        let shares = t.share_games(id).await? && !t.blocks(id, user.id).await?;
        let mut rooms: Vec<FriendRoom> = live
            .iter()
            .filter(|r| shares && r.state == protocol::RoomState::Playing)
            .filter(|r| r.players.iter().any(|p| p.id == key))
            .map(|r| FriendRoom {
                room: r.id.clone(),
                opponent: r
                    .players
                    .iter()
                    .find(|p| p.id != key)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
            })
            .collect();
        rooms.sort_by(|a, b| a.room.cmp(&b.room));
        let online = state.presence.connections(id) > 0 || !rooms.is_empty();
        let playing = if shares {
            let filter = store::GameFilter {
                finished: Some(false),
                ..store::GameFilter::default()
            };
            state
                .store
                .games_filtered(id, None, 5, false, &filter)
                .await?
                .into_iter()
                .map(|g| g.game.public_id)
                .collect()
        } else {
            Vec::new()
        };
        out.push(FriendView {
            name,
            online,
            playing,
            rooms,
        });
    }
    Ok(Json(out))
}

/// The body of `POST /api/reports`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewReportBody {
    /// The reported player's name.
    pub target: String,
    /// `cheating`, `chat_abuse`, `sandbagging` or `bad_name`.
    #[schemars(regex(pattern = r"^(cheating|chat_abuse|sandbagging|bad_name)$"))]
    pub reason: String,
    /// The reporter's words (at most 1000 characters).
    #[serde(default)]
    pub details: String,
    /// The room the report is made from: the reported player's last chat lines there are attached.
    #[serde(default)]
    pub room: Option<String>,
    /// The game's public id (from a room or a record).
    #[serde(default)]
    pub game: Option<String>,
}

/// A report as its reporter and the moderators see it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReportView {
    /// Its id.
    pub id: i64,
    /// Who reported.
    pub reporter: String,
    /// Whom.
    pub target: String,
    /// The reason code.
    pub reason: String,
    /// The reporter's words.
    pub details: String,
    /// The room.
    pub room: Option<String>,
    /// The game's public id.
    pub game: Option<String>,
    /// The attached chat lines: `{id, name, text, at, removed}`.
    pub evidence: Vec<Value>,
    /// `open`, `resolved` or `dismissed`.
    pub status: String,
    /// When it was made.
    pub created_at: i64,
}

impl From<Report> for ReportView {
    fn from(r: Report) -> ReportView {
        ReportView {
            id: r.id,
            reporter: r.reporter,
            target: r.target,
            reason: r.reason,
            details: r.details,
            room: r.room,
            game: r.game,
            evidence: serde_json::from_str(&r.evidence).unwrap_or_default(),
            status: r.status,
            created_at: r.created_at,
        }
    }
}

fn check_text(what: &str, text: &str) -> Result<(), CommunityError> {
    if text.chars().count() > MAX_TEXT {
        return Err(CommunityError::InvalidBody(format!(
            "{what} has at most {MAX_TEXT} characters"
        )));
    }
    Ok(())
}

async fn report(
    State(state): State<AppState>,
    headers: HeaderMap,
    b: Result<Json<NewReportBody>, JsonRejection>,
) -> Result<(StatusCode, Json<ReportView>), CommunityError> {
    let user = me(&state, &headers).await?;
    let b = body(b)?;
    if !REASONS.contains(&b.reason.as_str()) {
        return Err(CommunityError::InvalidBody(format!(
            "reason is one of {}",
            REASONS.join(", ")
        )));
    }
    check_text("details", &b.details)?;
    let target = other(&state, &user, &b.target).await?;
    let t = tables(state.store.as_ref())?;
    let at = now();
    if t.reports_since(user.id, at - REPORT_WINDOW_MS).await? >= REPORTS_PER_DAY {
        return Err(CommunityError::RateLimited(std::time::Duration::from_secs(
            3600,
        )));
    }
    let evidence: Vec<Value> = match &b.room {
        Some(room) => t
            .chat_lines_in(room, target.id, EVIDENCE_LINES)
            .await?
            .into_iter()
            .map(|l| json!({"id": l.id, "name": l.name, "text": l.text, "at": l.said_at, "removed": l.removed_at.is_some()}))
            .collect(),
        None => Vec::new(),
    };
    let game = match &b.game {
        Some(id) => Some(
            state
                .store
                .game_by_public_id(id)
                .await?
                .ok_or(CommunityError::NotFound)?
                .game
                .public_id,
        ),
        None => None,
    };
    let id = t
        .create_report(&NewReport {
            reporter: user.id,
            target: target.id,
            reason: b.reason,
            details: b.details,
            room: b.room,
            game,
            evidence: Value::from(evidence).to_string(),
            at,
        })
        .await?;
    let stored = t.report(id).await?.ok_or(CommunityError::NotFound)?;
    Ok((StatusCode::CREATED, Json(stored.into())))
}

async fn my_reports(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Vec<ReportView>>, CommunityError> {
    let user = me(&state, &headers).await?;
    let reports = tables(state.store.as_ref())?.reports_by(user.id).await?;
    Ok(Json(reports.into_iter().map(ReportView::from).collect()))
}

/// The query of `GET /api/mod/reports`.
#[derive(Debug, Deserialize)]
pub struct QueueQuery {
    /// `open` (the default), `resolved`, `dismissed` or `all`.
    pub status: Option<String>,
}

async fn queue(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<QueueQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Vec<ReportView>>, CommunityError> {
    moderator(&state, &headers).await?;
    // A query that does not parse (`status` twice, say) is JSON `invalid_query` as on the other routes.
    let Query(q) = query.map_err(|e| CommunityError::InvalidQuery(e.body_text()))?;
    let status = q.status.unwrap_or_else(|| "open".to_owned());
    let status = match status.as_str() {
        "all" => None,
        "open" | "resolved" | "dismissed" => Some(status.as_str()),
        _ => {
            return Err(CommunityError::InvalidBody(
                "status is open, resolved, dismissed or all".to_owned(),
            ))
        }
    };
    let reports = tables(state.store.as_ref())?.reports(status, 200).await?;
    Ok(Json(reports.into_iter().map(ReportView::from).collect()))
}

/// An entry of the audit log.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LogView {
    /// Its id.
    pub id: i64,
    /// Who acted.
    pub moderator: String,
    /// What was done.
    pub action: String,
    /// To whom.
    pub target: String,
    /// Why.
    pub reason: String,
    /// What exactly.
    pub detail: String,
    /// When.
    pub at: i64,
}

async fn log(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Vec<LogView>>, CommunityError> {
    moderator(&state, &headers).await?;
    let entries = tables(state.store.as_ref())?.moderation_log(200).await?;
    Ok(Json(
        entries
            .into_iter()
            .map(|e| LogView {
                id: e.id,
                moderator: e.moderator,
                action: e.action,
                target: e.target,
                reason: e.reason,
                detail: e.detail,
                at: e.at,
            })
            .collect(),
    ))
}

/// The body of `POST /api/mod/actions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionBody {
    /// `warn`, `mute`, `unmute`, `remove_chat`, `ban_guests`, `close_account`, `rename`, `mark_cheater`,
    /// `dismiss`, `grant_moderator`, `revoke_moderator` (the last two: administrators only).
    pub action: String,
    /// Why (1 to 1000 characters): kept in the audit log.
    pub reason: String,
    /// The account acted on (by name); or give `line` or `report`.
    #[serde(default)]
    pub target: Option<String>,
    /// A stored chat line: its author is the target (a guest's address range for `mute` and `ban_guests`);
    /// `remove_chat` removes it.
    #[serde(default)]
    pub line: Option<i64>,
    /// The report acted on: its reported player is the target, and the report is closed (`dismiss`: dismissed,
    /// anything else: resolved).
    #[serde(default)]
    pub report: Option<i64>,
    /// `mute` and `ban_guests`: minutes, 1 to 43200 (30 days).
    #[serde(default)]
    pub minutes: Option<u32>,
    /// `rename`: the new name.
    #[serde(default)]
    pub new_name: Option<String>,
}

/// What an action did, as the audit log keeps it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ActionDone {
    /// The audit log entry's id.
    pub log_id: i64,
    /// The action.
    pub action: String,
    /// Whom it was about.
    pub target: String,
    /// What exactly.
    pub detail: String,
    /// `mark_cheater`: every rating the recomputation changed (the cheater's and those of the players whose games
    /// it replayed); absent for other actions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restored: Vec<RestoredView>,
}

/// One rating that marking a cheater changed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RestoredView {
    /// The pool.
    pub pool: String,
    /// The player.
    pub player: String,
    /// The rating before.
    pub before: f64,
    /// The rating after.
    pub after: f64,
}

/// Whom an action is about: an account, or guests of an address range.
enum Target {
    Account(User),
    Range(String, String),
}

async fn act(
    State(state): State<AppState>,
    headers: HeaderMap,
    b: Result<Json<ActionBody>, JsonRejection>,
) -> Result<Json<ActionDone>, CommunityError> {
    let (moderator, role) = moderator(&state, &headers).await?;
    let b = body(b)?;
    if !ACTIONS.contains(&b.action.as_str()) {
        return Err(CommunityError::InvalidBody(format!(
            "action is one of {}",
            ACTIONS.join(", ")
        )));
    }
    if b.reason.trim().is_empty() {
        return Err(CommunityError::InvalidBody(
            "a reason is required".to_owned(),
        ));
    }
    check_text("reason", &b.reason)?;
    let t = tables(state.store.as_ref())?;
    let at = now();
    let report = match b.report {
        Some(id) => Some(t.report(id).await?.ok_or(CommunityError::NotFound)?),
        None => None,
    };
    let line = match b.line {
        Some(id) => Some(t.chat_line(id).await?.ok_or(CommunityError::NotFound)?),
        None => None,
    };
    let target = if let Some(name) = &b.target {
        Target::Account(
            state
                .store
                .user_by_name(name)
                .await?
                .ok_or(CommunityError::NotFound)?,
        )
    } else if let Some(r) = &report {
        Target::Account(
            state
                .store
                .user_by_id(r.target_id)
                .await?
                .ok_or(CommunityError::NotFound)?,
        )
    } else if let Some(l) = &line {
        match (l.user_id, &l.address_range) {
            (Some(id), _) => Target::Account(
                state
                    .store
                    .user_by_id(id)
                    .await?
                    .ok_or(CommunityError::NotFound)?,
            ),
            (None, Some(range)) => Target::Range(l.name.clone(), range.clone()),
            (None, None) => return Err(CommunityError::NotFound),
        }
    } else {
        return Err(CommunityError::InvalidBody(
            "name a target, a line or a report".to_owned(),
        ));
    };
    let minutes = || -> Result<u32, CommunityError> {
        match b.minutes {
            Some(m) if (1..=MAX_MUTE_MINUTES).contains(&m) => Ok(m),
            _ => Err(CommunityError::InvalidBody(format!(
                "minutes is 1 to {MAX_MUTE_MINUTES}"
            ))),
        }
    };
    let (target_id, target_name) = match &target {
        Target::Account(u) => (Some(u.id), u.name.clone()),
        Target::Range(name, range) => (None, format!("{name} ({range})")),
    };
    let account = || match &target {
        Target::Account(u) => Ok(u.clone()),
        Target::Range(..) => Err(CommunityError::InvalidBody(
            "this action is for accounts; guests are muted or banned by address range".to_owned(),
        )),
    };
    let mut restored = Vec::new();
    let detail = match b.action.as_str() {
        "warn" => {
            let u = account()?;
            t.add_notice(u.id, "warning", &b.reason, at).await?;
            String::new()
        }
        "mute" | "ban_guests" => {
            let m = minutes()?;
            let kind = if b.action == "mute" { "mute" } else { "ban" };
            let (user_id, address_range) = match &target {
                Target::Account(u) if kind == "mute" => (Some(u.id), None),
                Target::Range(_, range) => (None, Some(range.clone())),
                Target::Account(_) => {
                    return Err(CommunityError::InvalidBody(
                        "ban_guests names a guest's chat line; an account is closed instead"
                            .to_owned(),
                    ))
                }
            };
            t.add_sanction(&NewSanction {
                kind: kind.to_owned(),
                user_id,
                address_range,
                until: Some(at + i64::from(m) * 60_000),
                at,
                by: moderator.id,
            })
            .await?;
            format!("{m} minutes")
        }
        "unmute" => {
            let u = account()?;
            t.lift_sanctions("mute", u.id).await?;
            String::new()
        }
        "remove_chat" => {
            let l = line.ok_or_else(|| {
                CommunityError::InvalidBody("remove_chat needs a line".to_owned())
            })?;
            t.remove_chat_line(l.id, at).await?;
            // Live: the room (on this node or, through its relay, on another) drops it from its history and
            // every open view drops it. A room that has closed has no view left to tell.
            if let Some(room) = state.rooms.route(&l.room) {
                if let Err(e) = room.remove_chat(l.id).await {
                    tracing::debug!(room = %l.room, error = %e.message, "no room to remove the line from");
                }
            }
            format!("line {} in {}: {}", l.id, l.room, l.text)
        }
        "close_account" => {
            let u = account()?;
            close_and_disconnect(&state, t, u.id, at).await?;
            String::new()
        }
        "rename" => {
            let u = account()?;
            let new_name =
                crate::accounts::username::validate_new(b.new_name.as_deref().unwrap_or_default())
                    .map_err(|e| CommunityError::BadName(e.to_string()))?;
            t.rename_user(u.id, &new_name).await?;
            format!("{} → {new_name}", u.name)
        }
        "mark_cheater" => {
            let u = account()?;
            for r in t.mark_cheater(u.id, at, crate::stored::RATER).await? {
                let player = match state.store.user_by_id(r.user).await? {
                    Some(p) => p.name,
                    None => format!("#{}", r.user),
                };
                restored.push(RestoredView {
                    pool: r.pool,
                    player,
                    before: r.before,
                    after: r.after,
                });
            }
            let changes: Vec<String> = restored
                .iter()
                .map(|r| format!("{} {}: {:.0} → {:.0}", r.pool, r.player, r.before, r.after))
                .collect();
            if changes.is_empty() {
                "no rated games".to_owned()
            } else {
                changes.join("; ")
            }
        }
        "dismiss" => {
            if report.is_none() {
                return Err(CommunityError::InvalidBody(
                    "dismiss needs a report".to_owned(),
                ));
            }
            String::new()
        }
        "grant_moderator" | "revoke_moderator" => {
            if role != Role::Administrator {
                return Err(CommunityError::Forbidden);
            }
            let u = account()?;
            let new = if b.action == "grant_moderator" {
                Role::Moderator
            } else {
                Role::Player
            };
            t.set_role(u.id, new.as_str()).await?;
            String::new()
        }
        _ => unreachable!("checked against ACTIONS"),
    };
    if let Some(r) = &report {
        let status = if b.action == "dismiss" {
            "dismissed"
        } else {
            "resolved"
        };
        t.close_report(r.id, status, moderator.id, at).await?;
    }
    let log_id = t
        .log_action(&NewLogEntry {
            moderator_id: moderator.id,
            moderator: moderator.name.clone(),
            action: b.action.clone(),
            target_id,
            target: target_name.clone(),
            reason: b.reason.clone(),
            detail: detail.clone(),
            at,
        })
        .await?;
    tracing::info!(moderator = %moderator.name, action = %b.action, target = %target_name, "moderator action");
    Ok(Json(ActionDone {
        log_id,
        action: b.action,
        target: target_name,
        detail,
        restored,
    }))
}

/// Closes an account and closes the sockets of its sessions.
async fn close_and_disconnect(
    state: &AppState,
    t: &dyn CommunityStore,
    user: store::UserId,
    at: i64,
) -> Result<(), CommunityError> {
    for hash in t.close_account(user, at).await? {
        state.live_sessions.revoke(&hash);
    }
    Ok(())
}

async fn export(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<([(axum::http::HeaderName, &'static str); 1], Json<Value>), CommunityError> {
    let user = me(&state, &headers).await?;
    let t = tables(state.store.as_ref())?;
    let standings: Vec<Value> = state
        .store
        .standings(user.id)
        .await?
        .iter()
        .map(|s| {
            json!({"pool": s.pool.name(), "rating": s.rating.rating,
                   "deviation": s.rating.deviation, "games": s.games, "wins": s.wins, "losses": s.losses,
                   "draws": s.draws})
        })
        .collect();
    let history: Vec<Value> = state
        .store
        .rating_history(user.id)
        .await?
        .iter()
        .map(|h| json!({"pool": h.pool.name(), "at": h.at, "rating": h.rating, "deviation": h.deviation}))
        .collect();
    let mut games = Vec::new();
    let mut before = None;
    loop {
        let page = state.store.games_of(user.id, before, 200).await?;
        let Some(last) = page.last() else { break };
        before = Some(last.id);
        for g in &page {
            games.push(json!({
                "id": g.game.public_id, "game": g.game.kind, "config": g.game.config, "rated": g.game.rated,
                "black": g.game.black.name, "white": g.game.white.name, "started_at": g.game.started_at,
                "ended_at": g.end.as_ref().map(|e| e.ended_at),
                "winner": g.end.as_ref().and_then(|e| e.winner).map(|w| w.as_str()),
                "reason": g.end.as_ref().map(|e| e.reason.clone()),
                "actions": g.actions.iter().map(|a| a.text.clone()).collect::<Vec<_>>(),
            }));
        }
    }
    let chat: Vec<Value> = t
        .chat_lines_of(user.id)
        .await?
        .into_iter()
        .map(|l| json!({"room": l.room, "text": l.text, "at": l.said_at, "removed": l.removed_at.is_some()}))
        .collect();
    let reports: Vec<ReportView> = t
        .reports_by(user.id)
        .await?
        .into_iter()
        .map(ReportView::from)
        .collect();
    let document = json!({
        "profile": {"name": user.name, "created_at": user.created_at, "role": t.role(user.id).await?,
                    "share_games": t.share_games(user.id).await?,
                    "challenges": state.store.challenge_policy(user.id).await?},
        "ratings": standings,
        "rating_history": history,
        "games": games,
        "chat_lines": chat,
        "reports_made": reports,
        "following": names(t.following(user.id).await?),
        "blocked": names(t.blocked_by(user.id).await?),
        "notices": t.notices(user.id).await?.into_iter().map(|n| json!({"kind": n.kind, "text": n.text, "at": n.created_at})).collect::<Vec<_>>(),
        "exported_at": now(),
    });
    Ok((
        [(
            axum::http::header::CONTENT_DISPOSITION,
            "attachment; filename=\"my-data.json\"",
        )],
        Json(document),
    ))
}

/// The body of `POST /api/me/close`: the account's name, typed again, so a stray click closes nothing.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseBody {
    /// The account's name, exactly as it is.
    pub confirm: String,
}

async fn close(
    State(state): State<AppState>,
    headers: HeaderMap,
    b: Result<Json<CloseBody>, JsonRejection>,
) -> Result<StatusCode, CommunityError> {
    let user = me(&state, &headers).await?;
    let b = body(b)?;
    if b.confirm != user.name {
        return Err(CommunityError::InvalidBody(
            "confirm with the account's name".to_owned(),
        ));
    }
    let t = tables(state.store.as_ref())?;
    close_and_disconnect(&state, t, user.id, now()).await?;
    Ok(StatusCode::NO_CONTENT)
}
