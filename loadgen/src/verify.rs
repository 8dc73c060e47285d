//! The durability check: every stone a client saw acknowledged must be stored, in order, and every game a client
//! saw end must have its result stored. Reads the server's `GET /api/games/{id}` or the database itself.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures_util::{stream, StreamExt};
use serde::{Deserialize, Serialize};

use crate::ledger::SeenGame;

/// Where the stored games are read.
#[derive(Clone)]
pub enum Source {
    /// The server's HTTP API at this base URL (`http://127.0.0.1:8080`).
    Http(String),
    /// The database, opened with the store crate.
    Db(Arc<dyn store::Store>),
}

/// A game as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredGame {
    /// Its room.
    pub room: String,
    /// Every action's notation in order (the record's `notation`), in every game.
    pub actions: Vec<String>,
    /// Whether a result is stored.
    pub finished: bool,
}

/// What the durability check found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verification {
    /// Games checked.
    pub games: u64,
    /// Acknowledged actions checked (stones, in Gomoku without an opening; the field keeps its name).
    pub stones: u64,
    /// Games the clients saw that are not stored at all.
    pub games_missing: u64,
    /// Acknowledged actions that are not stored.
    pub stones_missing: u64,
    /// Acknowledged actions stored differently (another action at that index).
    pub stones_mismatched: u64,
    /// Games a client saw end whose result is not stored.
    pub results_missing: u64,
    /// Games stored in another room than the clients saw.
    pub rooms_mismatched: u64,
    /// Games that could not be read (HTTP or database errors).
    pub read_errors: u64,
    /// The first few failures, in words.
    pub failures: Vec<String>,
}

impl Verification {
    /// Whether everything acknowledged is stored.
    pub fn ok(&self) -> bool {
        self.games_missing == 0
            && self.stones_missing == 0
            && self.stones_mismatched == 0
            && self.results_missing == 0
            && self.rooms_mismatched == 0
            && self.read_errors == 0
    }

    /// Adds another worker's findings.
    pub fn merge(&mut self, o: &Verification) {
        self.games += o.games;
        self.stones += o.stones;
        self.games_missing += o.games_missing;
        self.stones_missing += o.stones_missing;
        self.stones_mismatched += o.stones_mismatched;
        self.results_missing += o.results_missing;
        self.rooms_mismatched += o.rooms_mismatched;
        self.read_errors += o.read_errors;
        for f in &o.failures {
            self.fail(f.clone());
        }
    }

    fn fail(&mut self, what: String) {
        if self.failures.len() < 20 {
            self.failures.push(what);
        }
    }

    /// Compares one game as seen with the game as stored (`None`: not stored).
    pub fn check(&mut self, id: i64, seen: &SeenGame, stored: Option<&StoredGame>) {
        self.games += 1;
        let acked = seen.actions.iter().flatten().count() as u64;
        self.stones += acked;
        let Some(stored) = stored else {
            self.games_missing += 1;
            self.stones_missing += acked;
            self.fail(format!("game {id} ({acked} actions seen) is not stored"));
            return;
        };
        if !seen.room.is_empty() && !stored.room.is_empty() && seen.room != stored.room {
            self.rooms_mismatched += 1;
            self.fail(format!(
                "game {id} seen in room {} but stored in room {}",
                seen.room, stored.room
            ));
        }
        for (i, a) in seen.actions.iter().enumerate() {
            let Some(a) = a else { continue };
            match stored.actions.get(i) {
                Some(b) if b == a => {}
                Some(b) => {
                    self.stones_mismatched += 1;
                    self.fail(format!("game {id} action {i}: seen {a}, stored {b}"));
                }
                None => {
                    self.stones_missing += 1;
                    self.fail(format!("game {id} action {i}: seen {a}, not stored"));
                }
            }
        }
        if seen.result.is_some() && !stored.finished {
            self.results_missing += 1;
            self.fail(format!(
                "game {id} ended for the clients but has no stored result"
            ));
        }
    }
}

impl Source {
    /// Reads one stored game: over HTTP by its public id `record` (a private game's record is served only by
    /// it; the integer id when no client was told it), from the database by `id`.
    pub async fn game(&self, id: i64, record: &str) -> anyhow::Result<Option<StoredGame>> {
        match self {
            Source::Http(base) => {
                let name = if record.is_empty() {
                    id.to_string()
                } else {
                    record.to_owned()
                };
                let resp = reqwest::get(format!("{base}/api/games/{name}")).await?;
                if resp.status() == reqwest::StatusCode::NOT_FOUND {
                    return Ok(None);
                }
                let v: serde_json::Value = resp.error_for_status()?.json().await?;
                Ok(Some(from_json(&v)?))
            }
            Source::Db(store) => {
                let Some(rec) = store.game(id).await? else {
                    return Ok(None);
                };
                let actions = stored_actions(&rec)?;
                Ok(Some(StoredGame {
                    room: rec.game.room.clone(),
                    actions: actions.iter().map(games::AnyAction::notation).collect(),
                    finished: rec.end.is_some(),
                }))
            }
        }
    }
}

/// A stored game's actions, read back from their stored texts as the server reads them (`games::storage`:
/// notation, or the JSON of the first release).
fn stored_actions(rec: &store::GameRecord) -> anyhow::Result<Vec<games::AnyAction>> {
    let kind: games::GameKind = rec
        .game
        .kind
        .parse()
        .map_err(|e| anyhow::anyhow!("game {}: {e}", rec.id))?;
    rec.actions
        .iter()
        .map(|a| match games::AnyAction::decode(kind, &a.text) {
            Ok(action) => Ok(action),
            Err(e) => anyhow::bail!("game {}: action {} does not read back: {e}", rec.id, a.seq),
        })
        .collect()
}

/// Reads the `GET /api/games/{id}` body: its `notation`, every action's text in order, in every game.
fn from_json(v: &serde_json::Value) -> anyhow::Result<StoredGame> {
    let notation = v
        .get("notation")
        .and_then(|n| n.as_array())
        .ok_or_else(|| anyhow::anyhow!("a record without notation"))?;
    Ok(StoredGame {
        room: v
            .get("room")
            .and_then(|r| r.as_str())
            .unwrap_or_default()
            .to_owned(),
        actions: notation
            .iter()
            .map(|t| t.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or_else(|| anyhow::anyhow!("a notation entry that is not text"))?,
        finished: v.get("result").is_some_and(|r| !r.is_null()),
    })
}

/// Checks every game seen against the store, a few reads at a time.
pub async fn verify(seen: &BTreeMap<i64, SeenGame>, source: &Source) -> Verification {
    let owned: Vec<(i64, SeenGame)> = seen.iter().map(|(k, v)| (*k, v.clone())).collect();
    let reads = stream::iter(owned)
        .map(|(id, g)| {
            let source = source.clone();
            async move {
                let stored = source.game(id, &g.record).await;
                (id, g, stored)
            }
        })
        .buffer_unordered(16)
        .collect::<Vec<_>>()
        .await;
    let mut v = Verification::default();
    for (id, g, stored) in reads {
        match stored {
            Ok(stored) => v.check(id, &g, stored.as_ref()),
            Err(e) => {
                v.games += 1;
                v.read_errors += 1;
                v.fail(format!("game {id}: {e:#}"));
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(actions: &[Option<&str>], result: bool) -> SeenGame {
        SeenGame {
            room: "r1".into(),
            record: String::new(),
            actions: actions.iter().map(|a| a.map(str::to_owned)).collect(),
            result: result.then(|| "five".to_owned()),
            tokens: vec![],
        }
    }

    fn stored(room: &str, actions: &[&str]) -> StoredGame {
        StoredGame {
            room: room.into(),
            actions: actions.iter().map(|a| (*a).to_owned()).collect(),
            finished: false,
        }
    }

    #[test]
    fn a_stored_prefix_extension_passes() {
        let stored = stored("r1", &["h8", "h9", "j9"]);
        let mut v = Verification::default();
        v.check(1, &seen(&[Some("h8"), None], false), Some(&stored));
        assert!(v.ok(), "{v:?}");
        assert_eq!((v.games, v.stones), (1, 1));
    }

    #[test]
    fn lost_and_changed_actions_and_results_fail() {
        let stored = stored("r2", &["h8", "a1"]);
        let mut v = Verification::default();
        v.check(
            1,
            &seen(&[Some("h8"), Some("h9"), Some("j9")], true),
            Some(&stored),
        );
        assert_eq!(v.stones_mismatched, 1);
        assert_eq!(v.stones_missing, 1);
        assert_eq!(v.results_missing, 1);
        assert_eq!(v.rooms_mismatched, 1);
        v.check(2, &seen(&[Some("h8")], false), None);
        assert_eq!(v.games_missing, 1);
        assert!(!v.ok());
    }

    #[test]
    fn the_http_record_is_read_by_its_notation_in_every_game() {
        let body = serde_json::json!({
            "id": 3, "room": "r7", "rules": {"size": 15}, "notation": ["h8", "h9", "j10", "keep", "g9"],
            "actions": [{"seq": 0, "action": {"action": "place", "point": "h8"}}],
            "result": {"winner": "black", "reason": "five"}
        });
        let g = from_json(&body).unwrap();
        assert_eq!(g.actions, ["h8", "h9", "j10", "keep", "g9"]);
        assert!(g.finished);
        assert_eq!(g.room, "r7");
        let none = serde_json::json!({"room": "r7", "moves": ["h8"], "result": null});
        assert!(
            from_json(&none).is_err(),
            "a record without notation is an error, not an empty game"
        );
        let bad = serde_json::json!({"room": "r7", "notation": ["h8", 3], "result": null});
        assert!(from_json(&bad).is_err());
    }

    #[test]
    fn another_games_actions_are_checked_against_its_records_notation() {
        let body = serde_json::json!({
            "room": "r9", "game": {"game": "othello", "scoring": "japanese"},
            "notation": ["f5", "d6", "pass"], "actions": [], "result": null
        });
        let stored = from_json(&body).unwrap();
        assert_eq!(stored.actions, ["f5", "d6", "pass"]);
        let mut seen = seen(&[], false);
        seen.room = "r9".into();
        seen.actions = vec![Some("f5".into()), None, Some("pass".into())];
        let mut v = Verification::default();
        v.check(1, &seen, Some(&stored));
        assert!(v.ok(), "{v:?}");
        assert_eq!(v.stones, 2);
        seen.actions.push(Some("c3".into()));
        seen.actions[0] = Some("e6".into());
        let mut v = Verification::default();
        v.check(1, &seen, Some(&stored));
        assert_eq!((v.stones_mismatched, v.stones_missing), (1, 1));
        assert!(!v.ok());
    }
}
