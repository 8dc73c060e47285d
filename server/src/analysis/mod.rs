//! Computer analysis of finished games (issue #33, lichess's "Request a computer analysis"), and the analysis
//! board's engine.
//!
//! A request (`POST /api/games/{id}/analysis`, `http/analysis.rs`) takes one of the player's daily requests
//! (`--analysis-per-day`, counted in the store so that a restart forgets nothing) and queues a job. At most
//! `--analysis-jobs` jobs run at once (one by default), each on a thread of its own at the lowest scheduling
//! priority, never on the computer opponent's search threads nor on the runtime's; the others wait in turn,
//! first come first served, at most `--analysis-max-queued` of them. A job evaluates every position of the
//! game with its game's strongest brain for `--analysis-ms-per-position` (`runner.rs`), judges every move
//! (`judge.rs`) and stores the result with the game (`Store::save_analysis`), so a second look is instant. A
//! job is cancelled by its requester (`DELETE`): its cancel flag stops the engine within milliseconds.
//!
//! The job table is bookkeeping beside the store (who asked, how far along), not game state: a small map
//! behind a mutex held for a few instructions at a time.

pub mod judge;
pub mod report;
pub mod runner;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use games::{AnyAction, AnyConfig, AnyGame, Game, GameConfig, GameKind};
use store::{GameId, Store};
use tokio::sync::Semaphore;

use crate::accounts::rate_limit::{Limit, RateLimiter};

use report::{Analysis, AnalysisStatus, AnalysisView};
use runner::Task;

/// The limits an [`Analyses`] keeps, from the configuration.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Jobs run at once.
    pub jobs: usize,
    /// Jobs that may wait.
    pub max_queued: usize,
    /// Requests per player in 24 hours.
    pub per_day: u32,
    /// The engine's time per position.
    pub ms_per_position: u64,
    /// The analysis board's time cap per position.
    pub evaluate_ms: u64,
    /// The analysis board's positions per address and minute.
    pub evaluates_per_minute: u32,
}

impl Settings {
    /// The configured limits.
    pub fn from_config(config: &crate::Config) -> Settings {
        Settings {
            jobs: config.analysis_jobs.max(1),
            max_queued: config.analysis_max_queued,
            per_day: config.analysis_per_day,
            ms_per_position: config.analysis_ms_per_position,
            evaluate_ms: config.analysis_evaluate_ms.max(1),
            evaluates_per_minute: config.analysis_evaluates_per_minute,
        }
    }
}

/// One job of the table.
struct Job {
    requester: String,
    ticket: u64,
    running: bool,
    total: u32,
    done: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
}

/// Why a request was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The player's requests of the last 24 hours are used up.
    DailyLimit(u32),
    /// Every place in the queue is taken.
    Busy,
    /// The game has no engine to analyse it.
    NoEngine,
    /// The game is not over.
    NotFinished,
}

/// The analyses of this server: the queue, the running jobs, the store they write to. Cheap to clone.
#[derive(Clone)]
pub struct Analyses {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn Store>,
    clock: crate::time::Clock,
    /// The clock's instant and the wall time in milliseconds when this was made: wall time follows the clock.
    epoch: (Instant, i64),
    settings: Settings,
    turns: Arc<Semaphore>,
    /// Turns at the analysis board's engine: as many as jobs, taken without waiting.
    board_turns: Arc<Semaphore>,
    jobs: Mutex<HashMap<GameId, Job>>,
    tickets: AtomicU64,
    /// The analysis board's positions per address.
    board_limit: RateLimiter,
}

impl Analyses {
    /// An empty queue over `store`.
    pub fn new(store: Arc<dyn Store>, settings: Settings, clock: crate::time::Clock) -> Analyses {
        let unix_ms = crate::time::unix_ms();
        Analyses {
            inner: Arc::new(Inner {
                epoch: (clock.now(), unix_ms),
                clock,
                store,
                settings,
                turns: Arc::new(Semaphore::new(settings.jobs)),
                board_turns: Arc::new(Semaphore::new(settings.jobs)),
                jobs: Mutex::new(HashMap::new()),
                tickets: AtomicU64::new(0),
                board_limit: RateLimiter::new(Limit {
                    burst: settings.evaluates_per_minute.max(1),
                    per_minute: f64::from(settings.evaluates_per_minute.max(1)),
                }),
            }),
        }
    }

    /// The limits.
    pub fn settings(&self) -> Settings {
        self.inner.settings
    }

    /// Wall time in milliseconds as the server's clock (a hand-driven one in tests) sees it: what the daily
    /// limit counts in.
    pub fn now_ms(&self) -> i64 {
        let (at, ms) = self.inner.epoch;
        let elapsed = self.inner.clock.now().saturating_duration_since(at);
        ms + i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX / 2)
    }

    /// The instant of the server's clock (for the analysis board's rate limit).
    pub fn now(&self) -> Instant {
        self.inner.clock.now()
    }

    /// The player a session token stands for, as a key of the daily limit (`user:7`, `guest:guest-ab12`).
    pub async fn player_of(&self, token: &str) -> Result<Option<String>, store::StoreError> {
        let owner = self
            .inner
            .store
            .session(&crate::accounts::token::hash(token), self.now_ms())
            .await?;
        Ok(owner.map(|owner| match owner {
            store::SessionOwner::User(user) => format!("user:{}", user.id),
            store::SessionOwner::Guest(guest) => format!("guest:{}", guest.name),
        }))
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Job>> {
        // A panic while holding it leaves nothing half-done: every change is one insert or remove.
        self.inner
            .jobs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Where the analysis of `game` stands: stored, under way, or none.
    pub async fn view(&self, game: GameId, total: u32) -> Result<AnalysisView, store::StoreError> {
        if let Some(view) = self.job_view(game) {
            return Ok(view);
        }
        Ok(match self.stored(game).await? {
            Some(result) => done_view(result),
            None => AnalysisView {
                status: AnalysisStatus::None,
                done: 0,
                total,
                ahead: None,
                result: None,
            },
        })
    }

    /// A game's stored analysis, if it has one that reads back.
    pub async fn stored(&self, game: GameId) -> Result<Option<Analysis>, store::StoreError> {
        let Some(row) = self.inner.store.analysis(game).await? else {
            return Ok(None);
        };
        match serde_json::from_str(&row.body) {
            Ok(analysis) => Ok(Some(analysis)),
            Err(e) => {
                // An unreadable row is as good as none: a new request writes it again.
                tracing::warn!(game, error = %e, "a stored analysis does not read back");
                Ok(None)
            }
        }
    }

    fn job_view(&self, game: GameId) -> Option<AnalysisView> {
        let jobs = self.jobs();
        let job = jobs.get(&game)?;
        let ahead = (!job.running).then(|| {
            jobs.values()
                .filter(|j| !j.running && j.ticket < job.ticket)
                .count() as u32
        });
        Some(AnalysisView {
            status: if job.running {
                AnalysisStatus::Running
            } else {
                AnalysisStatus::Queued
            },
            done: job.done.load(Ordering::Relaxed),
            total: job.total,
            ahead,
            result: None,
        })
    }

    /// Asks for the analysis of a finished game for `requester` (a player's key): the stored one at once, the
    /// job under way, or a new job when the player has a request left today (`now_ms` on the server's
    /// clock).
    pub async fn request(
        &self,
        game: GameId,
        record: &store::GameRecord,
        requester: &str,
        now_ms: i64,
    ) -> Result<Result<AnalysisView, Refusal>, store::StoreError> {
        if let Some(view) = self.job_view(game) {
            return Ok(Ok(view));
        }
        if let Some(result) = self.stored(game).await? {
            return Ok(Ok(done_view(result)));
        }
        if record.end.is_none() {
            return Ok(Err(Refusal::NotFinished));
        }
        let Ok((config, actions)) = crate::stored::decode_any(record) else {
            return Ok(Err(Refusal::NoEngine));
        };
        let kind = config.kind();
        if runner::brain_for(kind).is_none() {
            return Ok(Err(Refusal::NoEngine));
        }
        let queued = self.jobs().values().filter(|j| !j.running).count();
        if queued >= self.inner.settings.max_queued {
            return Ok(Err(Refusal::Busy));
        }
        let per_day = self.inner.settings.per_day;
        let since = now_ms - 24 * 3_600_000;
        if !self
            .inner
            .store
            .take_analysis_request(requester, game, now_ms, since, per_day)
            .await?
        {
            return Ok(Err(Refusal::DailyLimit(per_day)));
        }
        let total = actions.len() as u32 + 1;
        let done = Arc::new(AtomicU32::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        {
            let mut jobs = self.jobs();
            if jobs.contains_key(&game) {
                // Another request queued it meanwhile.
                drop(jobs);
                return Ok(Ok(self
                    .job_view(game)
                    .unwrap_or_else(|| queued_view(total))));
            }
            jobs.insert(
                game,
                Job {
                    requester: requester.to_owned(),
                    ticket: self.inner.tickets.fetch_add(1, Ordering::Relaxed),
                    running: false,
                    total,
                    done: done.clone(),
                    cancel: cancel.clone(),
                },
            );
        }
        let view = self.job_view(game).unwrap_or_else(|| queued_view(total));
        let task = Task {
            kind,
            config,
            actions,
        };
        tokio::spawn(self.clone().work(game, task, done, cancel, now_ms));
        Ok(Ok(view))
    }

    /// Waits for a turn, runs the job on its own thread, stores the result.
    async fn work(
        self,
        game: GameId,
        task: Task,
        done: Arc<AtomicU32>,
        cancel: Arc<AtomicBool>,
        requested_ms: i64,
    ) {
        let Ok(_turn) = self.inner.turns.clone().acquire_owned().await else {
            return;
        };
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        if let Some(job) = self.jobs().get_mut(&game) {
            job.running = true;
        }
        let ms = self.inner.settings.ms_per_position;
        let (tx, rx) = tokio::sync::oneshot::channel();
        let flag = cancel.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("analysis-{game}"))
            .spawn(move || {
                runner::lowest_priority();
                let result = runner::run(&task, ms, &flag, &done, requested_ms);
                let _ = tx.send(result);
            });
        let result = match spawned {
            Ok(_) => rx.await.ok().flatten(),
            Err(e) => {
                tracing::error!(game, error = %e, "no thread for an analysis");
                None
            }
        };
        if let Some(analysis) = result.filter(|_| !cancel.load(Ordering::Relaxed)) {
            match serde_json::to_string(&analysis) {
                Ok(body) => {
                    if let Err(e) = self
                        .inner
                        .store
                        .save_analysis(game, &analysis.engine, &body, analysis.created_at)
                        .await
                    {
                        tracing::error!(game, error = %e, "an analysis was not stored");
                    }
                }
                Err(e) => tracing::error!(game, error = %e, "an analysis did not serialise"),
            }
        }
        self.jobs().remove(&game);
    }

    /// Cancels the job of `game` if `requester` asked for it: `Some(true)` cancelled, `Some(false)` someone
    /// else's, `None` no job.
    pub fn cancel(&self, game: GameId, requester: &str) -> Option<bool> {
        let mut jobs = self.jobs();
        let job = jobs.get(&game)?;
        if job.requester != requester {
            return Some(false);
        }
        job.cancel.store(true, Ordering::Relaxed);
        // A running job removes itself when its thread stops; a queued one never starts.
        jobs.remove(&game);
        Some(true)
    }

    /// Takes one of an address's evaluations by the analysis board's engine, or says how long to wait.
    pub fn take_board_turn(&self, address: std::net::IpAddr, now: Instant) -> Result<(), Duration> {
        self.inner.board_limit.take(&address.to_string(), now)
    }

    /// The analysis board's engine: `game`'s position evaluated for at most `ms` (capped by
    /// `--analysis-evaluate-ms`), on a blocking thread; `Err(())` when every turn is taken.
    pub async fn evaluate(
        &self,
        game: AnyGame,
        ms: Option<u64>,
    ) -> Result<Option<engine::brain::Evaluation>, ()> {
        let turn = self
            .inner
            .board_turns
            .clone()
            .try_acquire_owned()
            .map_err(|_| ())?;
        let cap = self.inner.settings.evaluate_ms;
        let ms = ms.unwrap_or(cap).clamp(1, cap);
        let kind = game.kind();
        let answer = tokio::task::spawn_blocking(move || {
            let _turn = turn;
            let (mut brain, _) = runner::brain_for(kind)?;
            brain.analyse(&game, Duration::from_millis(ms), &AtomicBool::new(false))
        })
        .await;
        Ok(answer.unwrap_or(None))
    }
}

/// A game's position from its start: the configuration and the actions in notation; a typed reason when one
/// does not read or play.
pub fn position_of(
    kind: GameKind,
    config: Option<&str>,
    actions: &[String],
) -> Result<AnyGame, (&'static str, String)> {
    let config = match config {
        Some(text) => {
            AnyConfig::decode(kind.as_str(), text).map_err(|e| ("invalid_config", e.to_string()))?
        }
        None => kind.default_config(),
    };
    let mut game = AnyGame::new(config, crate::stored::first_seat(config));
    for (i, text) in actions.iter().enumerate() {
        let action: AnyAction = game
            .parse_action(text)
            .map_err(|e| ("invalid_action", format!("action {i} ({text}): {e}")))?;
        game.apply(action)
            .map_err(|e| ("illegal_action", format!("action {i} ({text}): {e}")))?;
    }
    Ok(game)
}

fn done_view(result: Analysis) -> AnalysisView {
    let total = result.positions.len() as u32;
    AnalysisView {
        status: AnalysisStatus::Done,
        done: total,
        total,
        ahead: None,
        result: Some(result),
    }
}

fn queued_view(total: u32) -> AnalysisView {
    AnalysisView {
        status: AnalysisStatus::Queued,
        done: 0,
        total,
        ahead: Some(0),
        result: None,
    }
}

/// A PDN record (tags, then the movetext) with the analysis as comments: the engine first, then after each
/// judged move its judgment, why, what it lost and the engine's best move (`{?? blunder: material_loss 250;
/// best 32-28}`). Move numbers and the result are kept as they are; the k-th move token is the k-th action.
pub fn annotate_pdn(record: &str, analysis: &Analysis) -> String {
    let (tags, movetext): (Vec<&str>, Vec<&str>) = record
        .lines()
        .partition(|l| l.trim_start().starts_with('['));
    let mut out = String::new();
    for tag in tags {
        out.push_str(tag);
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&format!(
        "{{Computer analysis: {}, {} ms a position}}",
        analysis.engine, analysis.ms_per_position
    ));
    let mut k = 0;
    for token in movetext.iter().flat_map(|l| l.split_whitespace()) {
        out.push(' ');
        out.push_str(token);
        let is_number = token.ends_with('.');
        let is_result = ["2-0", "0-2", "1-1", "*"].contains(&token);
        if is_number || is_result {
            continue;
        }
        if let Some(m) = analysis.moves.get(k) {
            if let (Some(judgment), Some(reason)) = (m.judgment, m.reason) {
                fn words(v: impl serde::Serialize) -> String {
                    serde_json::to_value(v)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default()
                }
                let symbol = match judgment {
                    report::Judgment::Inaccuracy => "?!",
                    report::Judgment::Mistake => "?",
                    report::Judgment::Blunder => "??",
                };
                out.push_str(&format!(
                    " {{{symbol} {}: {}",
                    words(judgment),
                    words(reason)
                ));
                if let Some(loss) = m.loss {
                    out.push_str(&format!(" {loss}"));
                }
                if let Some(best) = &m.best {
                    out.push_str(&format!("; best {best}"));
                }
                out.push('}');
            }
        }
        k += 1;
    }
    out.push('\n');
    out
}
