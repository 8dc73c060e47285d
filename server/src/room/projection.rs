//! The room as others see it: the snapshot a member gets (and its delivery: on joining, catching up, or when
//! behind), the seats by colour, and the entry the lobby lists.

use std::time::Instant;

use games::Game;
use protocol::{
    GameSpec, GameView, LobbyPlayer, LobbyRoom, OfferState, RoomSnapshot, RoomState, Seat, Seats,
    ServerMessage, TimeControl,
};
use rules::Color;

use super::live::Live;
use super::task::Room;
use crate::lobby::{Listing, Standing};
use crate::ws::outbox::ConnId;

impl Room {
    /// Waiting for players, playing, or over (the room's last game finished).
    pub(super) fn room_state(&self) -> RoomState {
        match &self.live {
            Some(l) if l.running() => RoomState::Playing,
            // A finished game is the room's last state: its seats are its two players' (for a rematch) even once
            // one has left, never a newcomer's; a new game with someone else is a new room.
            Some(_) => RoomState::Over,
            None => RoomState::Waiting,
        }
    }

    /// The room's game, running or finished (none before the first game).
    pub(super) fn current(&self) -> Option<&Live> {
        self.live.as_ref()
    }

    /// The colour a seat plays in the current game (or, before the first, in the next).
    pub(super) fn seat_colour(&self, seat: usize) -> Color {
        match self.current() {
            Some(l) => l.colour_of(seat),
            None if seat == 0 => self.next_first,
            None => self.next_first.opposite(),
        }
    }

    /// A seat as the wire shows it.
    pub(super) fn seat_info(&self, seat: usize, now: Instant) -> Option<Seat> {
        let h = self.seats[seat].as_ref()?;
        let computer = h.identity.computer_level();
        let machine = computer.is_some() || h.identity.engine_name().is_some();
        // The computer's games are unrated: its account's rating means nothing, so none is shown.
        let rating = h.rating.filter(|_| !machine);
        Some(Seat {
            id: h.identity.id.clone(),
            name: h.identity.name.clone(),
            guest: h.identity.is_guest(),
            computer,
            engine: h.identity.engine_name(),
            rating: rating.map(|r| r.rating.rating.round()),
            provisional: rating.map(|r| r.provisional()),
            tier: rating.map(|r| r.tier.name().to_owned()),
            connected: !h.conns.is_empty(),
            grace_ms: h
                .grace
                .map(|d| d.saturating_duration_since(now).as_millis() as u64),
        })
    }

    /// Both seats by colour.
    pub(super) fn seats_by_colour(&self, now: Instant) -> Seats {
        let mut seats = Seats::default();
        for s in 0..2 {
            let info = self.seat_info(s, now);
            match self.seat_colour(s) {
                Color::Black => seats.black = info,
                Color::White => seats.white = info,
            }
        }
        seats
    }

    /// The room as a member sees it: `you` is its seat, `with_spectators` whether it reads the spectators' chat.
    pub(super) fn snapshot(&self, you: Option<usize>, with_spectators: bool) -> RoomSnapshot {
        let now = self.env.clock.now();
        let live = self.current();
        // The position is the generic `view`, for every game (the fields of the first protocol version's Gomoku
        // form stay empty; `ws/v1.rs` fills them for connections that speak it).
        let view = live.map(|l| GameView::from_view(&l.game.view(!l.running()), &l.game.actions()));
        let game = GameSpec::from(self.config);
        RoomSnapshot {
            id: self.id.to_string(),
            version: self.fanout.version(),
            rules: game.rules(),
            game: Some(game),
            time_control: self.time_control,
            rated: self.rated,
            public: self.public,
            game_id: live.map(|l| l.id),
            record: live.map(|l| l.public_id.clone()),
            state: self.room_state(),
            seats: self.seats_by_colour(now),
            you: you.map(|s| self.seat_colour(s)),
            phase: Default::default(),
            to_act: live.and_then(Live::to_act),
            moves: Vec::new(),
            swapped: false,
            clocks: live.and_then(|l| l.clocks(now)),
            forbidden: Vec::new(),
            claimable: None,
            idle_claim_ms: self.idle_claim_ms(),
            claim_win_in_ms: self.claim_win_in(now),
            fifth_options: None,
            offers: self
                .offers
                .pending()
                .iter()
                .map(|&(kind, seat)| OfferState {
                    kind,
                    by: self.seat_colour(seat),
                })
                .collect(),
            spectators: self.spectators,
            result: live.and_then(|l| l.result.clone()),
            chat: self.chat_history.lines(with_spectators),
            view,
            match_id: self.matched.map(|m| m.id),
        }
    }

    /// The idle time after which a player of a game without a clock may claim the win, in milliseconds; `None`
    /// under a time control (the clock decides instead).
    fn idle_claim_ms(&self) -> Option<u64> {
        matches!(self.time_control, TimeControl::None)
            .then(|| self.env.limits.idle_claim.as_millis() as u64)
    }

    /// While a game without a clock is played: how long from `now` until the player not to act may claim the
    /// win (zero once they may), as `claim_win` judges it.
    fn claim_win_in(&self, now: Instant) -> Option<u64> {
        let live = self.live.as_ref().filter(|l| l.running())?;
        let idle = self.env.limits.idle_claim;
        (live.clock.is_none() && live.to_act().is_some()).then(|| {
            (live.last_action + idle)
                .saturating_duration_since(now)
                .as_millis() as u64
        })
    }

    /// The room as the lobby lists it.
    pub(super) fn lobby_entry(&self) -> LobbyRoom {
        LobbyRoom {
            id: self.id.to_string(),
            rules: GameSpec::from(self.config).rules(),
            game: Some(GameSpec::from(self.config)),
            time_control: self.time_control,
            rated: self.rated,
            state: self.room_state(),
            rating_range: self.rating_range,
            players: (0..2)
                .filter_map(|s| {
                    self.seats[s].as_ref().map(|h| {
                        let computer = h.identity.computer_level();
                        let machine = computer.is_some() || h.identity.engine_name().is_some();
                        let rating = h.rating.filter(|_| !machine);
                        LobbyPlayer {
                            id: h.identity.id.clone(),
                            name: h.identity.name.clone(),
                            colour: self.seat_colour(s),
                            rating: rating.map(|r| r.rating.rating.round()),
                            tier: rating.map(|r| r.tier.name().to_owned()),
                            provisional: rating.map(|r| r.provisional()),
                            computer,
                            engine: h.identity.engine_name(),
                        }
                    })
                })
                .collect(),
            spectators: self.spectators,
        }
    }

    /// What the lobby orders and caps the room by: its creator's address, and the best standing of its players
    /// (a guest's or a machine's is a guest's).
    pub(super) fn lobby_listing(&self) -> Listing {
        let standing = self
            .seats
            .iter()
            .flatten()
            .map(|h| match h.rating {
                Some(r)
                    if !h.identity.is_guest()
                        && h.identity.computer_level().is_none()
                        && h.identity.engine_name().is_none() =>
                {
                    r.standing()
                }
                _ => Standing::Guest,
            })
            .min()
            .unwrap_or_default();
        Listing {
            address: self.listed_ip,
            standing,
        }
    }

    /// Tells the lobby of the room's change (a public room with players: listed while waiting or playing).
    pub(super) fn publish_lobby(&self) {
        // A room without players is about to close (and be removed): no update for it.
        if !self.public || self.closed || self.seats.iter().all(Option::is_none) {
            return;
        }
        match self.room_state() {
            RoomState::Waiting | RoomState::Playing => {
                let entry = self.lobby_entry();
                let listing = self.lobby_listing();
                self.env.reach.routing.lobby_upsert(entry.clone(), listing);
                self.env.lobby.upsert(entry, listing);
            }
            RoomState::Over => {
                self.env.reach.routing.lobby_remove(&self.id);
                self.env.lobby.remove(&self.id);
            }
        }
    }

    /// The answer to a join: the missed events when the log has all of them, else a snapshot.
    pub(super) fn send_state(&mut self, conn: ConnId, since: Option<u64>, rid: Option<u64>) {
        if let Some(events) = since.and_then(|since| self.fanout.catch_up(since)) {
            let msg = ServerMessage::CatchUp {
                room: self.id.to_string(),
                events,
            };
            self.send_to(conn, &msg, rid);
            return;
        }
        self.send_snapshot(conn, rid);
    }

    /// Sends a member the room's snapshot as it sees it (its seat, and the spectators' chat if it reads it).
    pub(super) fn send_snapshot(&mut self, conn: ConnId, rid: Option<u64>) {
        let Some(m) = self.members.get(&conn) else {
            return;
        };
        let msg = ServerMessage::Room {
            room: self.snapshot(m.seat, m.show_spectators),
        };
        self.send_to(conn, &msg, rid);
    }

    /// Sends a whole snapshot to a member that fell behind, once its queue has room (with the request id of the
    /// member's request that caused it, if any).
    pub(super) fn resync(&mut self, conn: ConnId, rid: Option<u64>) {
        let Some(m) = self.members.get(&conn) else {
            return;
        };
        if !self.fanout.can_resync(conn) {
            return;
        }
        let msg = ServerMessage::Room {
            room: self.snapshot(m.seat, m.show_spectators),
        };
        self.fanout.resync(conn, &msg, rid);
    }
}
