//! Fair play (issue #38 item 5; the statistic and its threshold are in `docs/fairplay.md`): after every rated
//! game, each player's moves against the engine's choices, and a flag for the moderators when a player's
//! agreement over their last games is too unlikely for their rating.
//!
//! The batch writer tells the job of every rated game it ends ([`store::BatchWriter::on_rated`]: the one place
//! the server learns of a rated ending outside the room). The job is bounded: at most `--fair-play-max-queued`
//! games wait, and one is judged at a time, on a thread of its own at the lowest scheduling priority, never on
//! the computer opponent's search threads nor on the runtime's ([`judge`]); the game's analysis brain thinks
//! `--fair-play-ms-per-position` about each position. Each player's tally is stored with the game
//! ([`store::FairPlayStore::save_agreement`]); then the player's last games in the pool are assessed
//! ([`statistic`]) and a flag is filed as a report made by the reserved account `computer-fairplay`, reason
//! `fair_play`, with the evidence: the moderators' queue shows it, no public page does. A player is flagged
//! again only by a window of games all newer than the last flag.
//!
//! Games waiting when the server stops are not judged (the queue is in memory): fair play is a screen, not a
//! ledger.

pub mod judge;
pub mod statistic;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use games::GameConfig;
use serde_json::{json, Value};
use store::community::NewReport;
use store::fairplay::{Agreement, FAIR_PLAY_REASON};
use store::{GameId, RatedEnd, Store, StoreError, UserId};
use tokio::sync::{mpsc, watch};

use statistic::{Assessment, Thresholds};

/// The reserved account fair-play flags are made by (people cannot register a `computer-` name).
pub const REPORTER: &str = "computer-fairplay";

/// The stored password of [`REPORTER`]: not a PHC string, so no password ever verifies against it.
const NO_PASSWORD: &str = "!fairplay";

/// The job's limits and the statistic's thresholds, from the configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The engine's time per position.
    pub ms_per_position: u64,
    /// Rated games that may wait to be judged; news of one more is dropped with a warning.
    pub max_queued: usize,
    /// The judge's level (0: its brain's top level, as the analyses).
    pub level: u8,
    /// The statistic's thresholds.
    pub thresholds: Thresholds,
}

impl Settings {
    /// The configured settings.
    pub fn from_config(config: &crate::Config) -> Settings {
        Settings {
            ms_per_position: config.fair_play_ms_per_position.max(1),
            max_queued: config.fair_play_max_queued.max(1),
            level: config.fair_play_level,
            thresholds: Thresholds {
                window: config.fair_play_window.max(1),
                min_moves: config.fair_play_min_moves,
                alpha: config.fair_play_alpha,
            },
        }
    }
}

/// The fair-play job of this server: where rated endings are sent, and how many it has finished. Cheap to clone.
#[derive(Clone)]
pub struct FairPlay {
    sender: mpsc::Sender<RatedEnd>,
    done: watch::Receiver<u64>,
}

impl FairPlay {
    /// Starts the job over `store` on the current runtime.
    pub fn start(store: Arc<dyn Store>, settings: Settings) -> FairPlay {
        let (sender, receiver) = mpsc::channel(settings.max_queued);
        let (count, done) = watch::channel(0);
        tokio::spawn(run(store, settings, receiver, count));
        FairPlay { sender, done }
    }

    /// Where the batch writer sends rated endings ([`store::BatchWriter::on_rated`]).
    pub fn sender(&self) -> mpsc::Sender<RatedEnd> {
        self.sender.clone()
    }

    /// Rated games the job has finished with (judged, or passed over when they could not be): tests wait on it.
    pub fn finished(&self) -> watch::Receiver<u64> {
        self.done.clone()
    }
}

async fn run(
    store: Arc<dyn Store>,
    settings: Settings,
    mut receiver: mpsc::Receiver<RatedEnd>,
    count: watch::Sender<u64>,
) {
    while let Some((game, changes)) = receiver.recv().await {
        if let Err(e) = judge_one(&store, &settings, game, &changes).await {
            tracing::error!(game, error = %e, "fair play could not judge a rated game");
        }
        count.send_modify(|n| *n += 1);
    }
}

/// Judges one rated game, stores each player's tally, and flags whom the statistic flags.
async fn judge_one(
    store: &Arc<dyn Store>,
    settings: &Settings,
    game: GameId,
    changes: &[store::RatingChange; 2],
) -> Result<(), StoreError> {
    let Some(tables) = store.fair_play() else {
        return Ok(());
    };
    let Some(record) = store.game(game).await? else {
        return Ok(());
    };
    let Ok((config, actions)) = crate::stored::decode_any(&record) else {
        tracing::warn!(game, "fair play: a rated game does not read back");
        return Ok(());
    };
    let kind = config.kind();
    let Some(mut brain) = judge_brain(kind, settings.level) else {
        return Ok(());
    };
    // Computers' and engines' seats are not judged: they are the engine.
    let people = [&record.game.black, &record.game.white].map(|p| {
        crate::computer::account::level_of(&p.name, p.user_id).is_none()
            && crate::computer::account::engine_of(&p.name, p.user_id).is_none()
    });
    if !people.contains(&true) {
        return Ok(());
    }
    let budget = Duration::from_millis(settings.ms_per_position);
    let (tx, rx) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name(format!("fair-play-{game}"))
        .spawn(move || {
            crate::analysis::runner::lowest_priority();
            let cancel = AtomicBool::new(false);
            let tallies = judge::judge_game(config, &actions, brain.as_mut(), budget, &cancel);
            let _ = tx.send(tallies);
        });
    if let Err(e) = spawned {
        tracing::error!(game, error = %e, "no thread for fair play");
        return Ok(());
    }
    let Some(tallies) = rx.await.ok().flatten() else {
        return Ok(());
    };
    let now = crate::time::unix_ms();
    for (seat, change) in changes.iter().enumerate() {
        if !people[seat] {
            continue;
        }
        let tally = tallies[seat];
        let pool = change.pool.name().into_owned();
        tables
            .save_agreement(&Agreement {
                game,
                user_id: change.user_id,
                pool: pool.clone(),
                rating: change.before.rating.round() as i64,
                judged: i64::from(tally.judged),
                top1: i64::from(tally.top1),
                top3: i64::from(tally.top3),
                loss_sum: tally.loss_sum,
                loss_moves: i64::from(tally.loss_moves),
                created_at: now,
            })
            .await?;
        let window = tables
            .agreements(change.user_id, &pool, settings.thresholds.window)
            .await?;
        let assessment = assess_rows(kind, &window, &settings.thresholds);
        if !assessment.flagged {
            continue;
        }
        let oldest = window.iter().map(|r| r.created_at).min().unwrap_or(now);
        if tables
            .latest_flag_at(change.user_id)
            .await?
            .is_some_and(|at| at >= oldest)
        {
            continue;
        }
        flag(
            store,
            change.user_id,
            &record.game.public_id,
            &pool,
            &assessment,
            &settings.thresholds,
            &window,
            now,
        )
        .await?;
        tracing::info!(
            game,
            user = change.user_id,
            p = assessment.p_value,
            "fair play flagged a player"
        );
    }
    Ok(())
}

/// The judge of a game: its analysis brain (`analysis::runner::brain_for`'s: the list's first, never the random
/// one) at `level`, 0 meaning its top level; `None` for a game without an engine.
pub fn judge_brain(kind: games::GameKind, level: u8) -> Option<Box<dyn engine::brain::Brain>> {
    let info = engine::brain::brains(kind).first()?;
    if info.name == engine::brain::RandomBrain::NAME {
        return None;
    }
    let level = if level == 0 {
        *info.levels.end()
    } else {
        level.clamp(*info.levels.start(), *info.levels.end())
    };
    Some((info.make)(level, 0x5eed_fa1e))
}

/// The statistic over stored rows.
pub fn assess_rows(
    kind: games::GameKind,
    rows: &[Agreement],
    thresholds: &Thresholds,
) -> Assessment {
    let games: Vec<(u64, u64, f64)> = rows
        .iter()
        .map(|r| {
            (
                r.judged.max(0) as u64,
                r.top1.max(0) as u64,
                r.rating as f64,
            )
        })
        .collect();
    statistic::assess(kind, &games, thresholds)
}

/// The reserved reporter's id, made on first use.
async fn reporter(store: &Arc<dyn Store>, now: i64) -> Result<UserId, StoreError> {
    if let Some(user) = store.user_by_name(REPORTER).await? {
        return Ok(user.id);
    }
    match store.create_user(REPORTER, NO_PASSWORD, now).await {
        Ok(user) => Ok(user.id),
        // Another node on the same database made it meanwhile.
        Err(StoreError::UsernameTaken) => store
            .user_by_name(REPORTER)
            .await?
            .map(|u| u.id)
            .ok_or(StoreError::UsernameTaken),
        Err(e) => Err(e),
    }
}

/// Files the flag: a report with the summary first in its evidence, then each game of the window.
#[allow(clippy::too_many_arguments)]
async fn flag(
    store: &Arc<dyn Store>,
    target: UserId,
    game: &str,
    pool: &str,
    a: &Assessment,
    thresholds: &Thresholds,
    window: &[Agreement],
    now: i64,
) -> Result<(), StoreError> {
    let Some(community) = store.community() else {
        return Ok(());
    };
    let mut evidence = vec![json!({
        "kind": "fair_play",
        "pool": pool,
        "games": a.games,
        "judged": a.judged,
        "top1": a.top1,
        "rate": a.top1 as f64 / a.judged.max(1) as f64,
        "expected": a.expected,
        "rating": a.rating.round(),
        "p_value": a.p_value,
        "alpha": thresholds.alpha,
    })];
    for row in window {
        let public = store.game(row.game).await?.map(|r| r.game.public_id);
        evidence.push(json!({
            "kind": "fair_play_game",
            "game": public,
            "judged": row.judged,
            "top1": row.top1,
            "top3": row.top3,
            "average_loss": (row.average_loss() * 10.0).round() / 10.0,
        }));
    }
    let reporter = reporter(store, now).await?;
    community
        .create_report(&NewReport {
            reporter,
            target,
            reason: FAIR_PLAY_REASON.to_owned(),
            details: String::new(),
            room: None,
            game: Some(game.to_owned()),
            evidence: Value::Array(evidence).to_string(),
            at: now,
        })
        .await?;
    Ok(())
}
