//! Restore: a room around an unfinished game read back from the store at start-up.

use games::{Game, ReplayError};
use protocol::{ColourChoice, TimeControl};
use rules::Color;
use store::GameRecord;

use super::env::RoomEnv;
use super::live::{self, Live};
use super::seats::SeatHolder;
use super::task::Room;
use super::{GameClock, Settings};
use crate::identity::Identity;
use crate::stored;
use crate::time::unix_ms;

/// Reads the time control stored with a game (`{"kind":"none"}` when unreadable).
pub(crate) fn stored_time_control(json: &str) -> TimeControl {
    serde_json::from_str(json).unwrap_or(TimeControl::None)
}

impl Room {
    /// A room around an unfinished stored game: both players away with a fresh grace period, clocks as stored
    /// (the downtime is charged to nobody), versions above any the room had before the restart.
    pub(crate) fn restore(
        record: GameRecord,
        players: [Identity; 2],
        env: RoomEnv,
    ) -> Result<Room, String> {
        let (config, actions) = stored::decode_any(&record).map_err(|e| e.to_string())?;
        let (time_control, public) = (
            stored_time_control(&record.game.time_control),
            record.game.public,
        );
        // The stored players are the colours' holders at the start: black's is seat 0.
        let mut game = live::new_game(config, Color::Black);
        let start = game.first_seat();
        let mut actors = Vec::with_capacity(actions.len());
        for (index, action) in actions.into_iter().enumerate() {
            let actor = game.to_act().map(|c| game.seat_of(c).index());
            game.apply(action).map_err(|reason| {
                let e = ReplayError { index, reason };
                format!("game {} does not replay: {e}", record.id)
            })?;
            // An action the game took had a side to act.
            actors.extend(actor);
        }
        let now = env.clock.now();
        let mut live = Live {
            id: record.id,
            public_id: record.game.public_id.clone(),
            game,
            start,
            clock: None,
            actors,
            result: None,
            rated: record.game.rated,
            unrated: None,
            pairing: None,
            rated_play: record
                .game
                .rated
                .then(|| env.rooms.rated_play([players[0].key(), players[1].key()])),
            last_action: now,
        };
        let stored_remaining = record.actions.last().and_then(|a| a.remaining_ms);
        live.clock = match stored_remaining {
            Some([black, white]) => {
                let mut by_seat = [0; 2];
                by_seat[live.seat_of(Color::Black)] = black;
                by_seat[live.seat_of(Color::White)] = white;
                GameClock::from_totals(time_control, by_seat)
            }
            None => GameClock::new(time_control),
        };
        // A seat that had not acted when the game stopped still has its first-action allowance.
        if let Some(clock) = &mut live.clock {
            let first_move_ms = env.limits.first_move.as_millis() as u64;
            for seat in 0..2 {
                if !live.actors.contains(&seat) {
                    clock.set_first_move(seat, first_move_ms);
                }
            }
        }
        let to_act = live.game.to_act().map(|c| live.seat_of(c));
        if let (Some(clock), Some(seat)) = (&mut live.clock, to_act) {
            clock.start(seat, now);
        }
        let grace = Some(now + env.limits.grace);
        let seat = |identity: Identity| {
            Some(SeatHolder {
                identity,
                rating: None,
                conns: Vec::new(),
                grace,
            })
        };
        let [black, white] = players;
        let seats = [seat(black), seat(white)];
        let mut room = Room::new(
            record.game.room.as_str().into(),
            Settings {
                config,
                time_control,
                rated: record.game.rated,
                public,
                colour: ColourChoice::Black,
                // A seek's range is for taking the free seat: a restored game has both seats taken.
                rating_range: None,
            },
            None,
            None,
            env,
        );
        room.seats = seats;
        room.live = Some(live);
        room.waiting_until = None;
        room.fanout.restart_at(unix_ms().max(0) as u64);
        Ok(room)
    }
}
