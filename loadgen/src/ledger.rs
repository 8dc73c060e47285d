//! What the clients saw acknowledged: per stored game, its room and every action any client was told was played.
//! The durability check compares this with the database afterwards.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

/// One game as the clients saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeenGame {
    /// The room it was played in.
    pub room: String,
    /// Its public id, which names its record over HTTP (empty when no client was told it).
    #[serde(default)]
    pub record: String,
    /// Every action's notation by its `at` (forced ones included), in every game; `None` for one no client saw
    /// (a reconnect skipped it).
    #[serde(default)]
    pub actions: Vec<Option<String>>,
    /// The result reason, once a client saw `game_over`.
    pub result: Option<String>,
    /// The player tokens of the room, so a checker can rejoin the game as its players.
    pub tokens: Vec<String>,
}

/// Observations of all clients of one process.
#[derive(Debug, Default)]
pub struct Ledger {
    games: Mutex<HashMap<i64, SeenGame>>,
    conflicts: Mutex<Vec<String>>,
}

impl Ledger {
    /// A client learned that `game` (public id `record`, when told) is played in `room`.
    pub fn game(&self, game: i64, room: &str, record: Option<&str>) {
        let mut games = self.games.lock().expect("ledger lock");
        let g = games.entry(game).or_default();
        if let (true, Some(record)) = (g.record.is_empty(), record) {
            g.record = record.to_owned();
        }
        if g.room.is_empty() {
            g.room = room.to_owned();
        } else if g.room != room {
            let msg = format!("game {game} seen in rooms {} and {room}", g.room);
            self.conflicts.lock().expect("ledger lock").push(msg);
        }
    }

    /// A player's token, so the game can be rejoined as that player.
    pub fn token(&self, game: i64, token: &str) {
        let mut games = self.games.lock().expect("ledger lock");
        let g = games.entry(game).or_default();
        if !g.tokens.iter().any(|t| t == token) {
            g.tokens.push(token.to_owned());
        }
    }

    /// Action `at` of `game` was announced as `text`. Two clients seeing different actions at one index is
    /// recorded as a conflict: the server told them different histories.
    pub fn action(&self, game: i64, at: u32, text: &str) {
        let mut games = self.games.lock().expect("ledger lock");
        let g = games.entry(game).or_default();
        let i = at as usize;
        if g.actions.len() <= i {
            g.actions.resize(i + 1, None);
        }
        match &g.actions[i] {
            None => g.actions[i] = Some(text.to_owned()),
            Some(t) if t == text => {}
            Some(t) => {
                let msg = format!("game {game} action {at}: seen {t} and {text}");
                self.conflicts.lock().expect("ledger lock").push(msg);
            }
        }
    }

    /// A snapshot's actions of `game`, in order.
    pub fn actions(&self, game: i64, texts: &[String]) {
        for (i, t) in texts.iter().enumerate() {
            self.action(game, i as u32, t);
        }
    }

    /// A client saw the game end.
    pub fn result(&self, game: i64, reason: &str) {
        let mut games = self.games.lock().expect("ledger lock");
        games.entry(game).or_default().result = Some(reason.to_owned());
    }

    /// Everything seen, by game id.
    pub fn games(&self) -> BTreeMap<i64, SeenGame> {
        self.games
            .lock()
            .expect("ledger lock")
            .iter()
            .map(|(k, v)| (*k, v.clone()))
            .collect()
    }

    /// Contradictions between clients' observations.
    pub fn conflicts(&self) -> Vec<String> {
        self.conflicts.lock().expect("ledger lock").clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observations_from_several_clients_merge_by_index() {
        let l = Ledger::default();
        l.game(1, "r1", None);
        l.action(1, 1, "h9");
        l.actions(1, &["h8".to_owned(), "h9".to_owned()]);
        l.action(1, 2, "j9");
        let g = &l.games()[&1];
        assert_eq!(
            g.actions,
            vec![Some("h8".into()), Some("h9".into()), Some("j9".into())]
        );
        assert!(l.conflicts().is_empty());
    }

    #[test]
    fn different_actions_at_one_index_are_a_conflict() {
        let l = Ledger::default();
        l.action(1, 0, "h8");
        l.action(1, 0, "a1");
        l.game(2, "r1", None);
        l.game(2, "r2", None);
        assert_eq!(l.conflicts().len(), 2);
    }
}
