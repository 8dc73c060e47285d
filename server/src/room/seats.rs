//! Seats and members: who holds each seat, which connections are in the room, joining, leaving, disconnecting
//! and the grace period of a player with no connection left.

use std::time::Instant;

use protocol::{code, JoinRole, RoomEvent, RoomState};

use super::finish::Ending;
use super::live::Live;
use super::task::Room;
use super::RoomError;
use crate::accounts::seat::{rating_in, SeatRating};
use crate::identity::Identity;
use crate::limits::TokenBucket;
use crate::stored;
use crate::ws::outbox::{ConnId, Outbox};

/// A seated player: who, their rating, their connections and, while none is left, their grace deadline.
pub(super) struct SeatHolder {
    /// Who.
    pub(super) identity: Identity,
    /// A registered player's rating in the room's pool (guests have none).
    pub(super) rating: Option<SeatRating>,
    /// Connections joined as this player (several tabs are fine).
    pub(super) conns: Vec<ConnId>,
    /// While no connection is left: when the seat is forfeited.
    pub(super) grace: Option<Instant>,
}

/// One connection in the room, as a player of a seat or a spectator (its delivery is the fan-out's).
pub(super) struct Member {
    /// Who.
    pub(super) identity: Identity,
    /// The seat it plays, or none for a spectator.
    pub(super) seat: Option<usize>,
    /// This member's chat allowance.
    pub(super) chat: TokenBucket,
    /// Whether spectators' chat reaches this member (always for spectators; players choose).
    pub(super) show_spectators: bool,
}

/// The other seat.
pub(super) fn other(seat: usize) -> usize {
    1 - seat
}

impl Room {
    /// The seat this identity holds, if any.
    pub(super) fn seat_of_identity(&self, identity: &Identity) -> Option<usize> {
        let key = identity.key();
        (0..2).find(|&s| {
            self.seats[s]
                .as_ref()
                .is_some_and(|h| h.identity.key() == key)
        })
    }

    /// A registered player's rating in this room's pool (a store failure only hides it).
    pub(super) async fn rating_of(&self, identity: &Identity) -> Option<SeatRating> {
        let user = identity.user_id?;
        let pool = stored::pool(&self.config);
        match rating_in(self.env.store.as_ref(), user, pool).await {
            Ok(r) => Some(r),
            Err(e) => {
                tracing::warn!(error = %e, "could not read a rating");
                None
            }
        }
    }

    /// Makes a connection a member of the room (its frames go through the fan-out from now on).
    pub(super) fn admit(&mut self, outbox: Outbox, identity: Identity, seat: Option<usize>) {
        let limits = &self.env.limits;
        let member = Member {
            identity,
            seat,
            chat: TokenBucket::new(
                limits.chat_per_minute / 60.0,
                limits.chat_burst,
                self.env.clock.now(),
            ),
            show_spectators: seat.is_none(),
        };
        self.members.insert(outbox.id, member);
        self.fanout.attach(outbox);
    }

    /// A connection is no longer a member of the room.
    fn dismiss(&mut self, conn: ConnId) -> Option<Member> {
        self.fanout.detach(conn);
        self.members.remove(&conn)
    }

    /// Joins a connection as a player (its own seat, or a free one while the room waits) or a spectator, or
    /// seats a spectator; answers with the missed events or a snapshot.
    pub(super) async fn join(
        &mut self,
        identity: Identity,
        outbox: Outbox,
        role: JoinRole,
        since: Option<u64>,
        rid: Option<u64>,
    ) -> Result<(), RoomError> {
        let conn = outbox.id;
        if let Some(member) = self.members.get(&conn) {
            // A spectator may sit down: in its own seat, or in a free seat of a waiting room.
            let own = self.seat_of_identity(&identity).is_some();
            let free =
                self.room_state() == RoomState::Waiting && self.seats.iter().any(Option::is_none);
            let wants_seat = role == JoinRole::Player && member.seat.is_none();
            if wants_seat && !own && !free {
                return Err(RoomError::new(
                    code::ROOM_FULL,
                    "both seats are taken; you keep watching",
                ));
            }
            if !wants_seat {
                self.send_state(conn, since, rid);
                return Ok(());
            }
            if !own && self.rated && identity.is_guest() {
                return Err(RoomError::new(
                    code::ACCOUNT_REQUIRED,
                    "rated games need an account",
                ));
            }
            self.dismiss(conn);
            self.spectator_gone(Some(conn));
        }
        let now = self.env.clock.now();
        let own_seat = self.seat_of_identity(&identity);
        match (role, own_seat) {
            (JoinRole::Spectator, _) => {
                self.admit(outbox, identity, None);
                self.spectators += 1;
                self.emit(
                    RoomEvent::Spectators {
                        count: self.spectators,
                    },
                    None,
                    Some(conn),
                );
            }
            (JoinRole::Player, Some(seat)) => {
                let holder = self.seats[seat].as_mut().expect("own seat");
                let was_away = holder.conns.is_empty();
                holder.conns.push(conn);
                holder.grace = None;
                let name = holder.identity.name.clone();
                self.admit(outbox, identity, Some(seat));
                if was_away {
                    let colour = self.seat_colour(seat);
                    self.emit(
                        RoomEvent::PlayerReconnected { colour, name },
                        None,
                        Some(conn),
                    );
                }
            }
            (JoinRole::Player, None) => {
                let free = (0..2).find(|&s| self.seats[s].is_none());
                let Some(seat) = free.filter(|_| self.room_state() == RoomState::Waiting) else {
                    return Err(RoomError::new(
                        code::ROOM_FULL,
                        "both seats are taken; join as a spectator to watch",
                    ));
                };
                if self.rated && identity.is_guest() {
                    return Err(RoomError::new(
                        code::ACCOUNT_REQUIRED,
                        "rated games need an account",
                    ));
                }
                let rating = self.rating_of(&identity).await;
                // The seeker's own seat is not held to its range.
                let seeker = self.creator.as_deref() == Some(identity.key().as_str());
                if let Some(range) = self.rating_range.filter(|_| !seeker) {
                    // A guest, or a player new to the pool, counts as a new player's rating.
                    let r = rating.unwrap_or_else(SeatRating::new_player).rating.rating;
                    if !range.admits(r) {
                        return Err(RoomError::new(
                            code::OUTSIDE_RATING_RANGE,
                            format!(
                                "this seek admits ratings {}-{}; yours here is {}",
                                range.min,
                                range.max,
                                r.round()
                            ),
                        ));
                    }
                }
                self.seats[seat] = Some(SeatHolder {
                    identity: identity.clone(),
                    rating,
                    conns: vec![conn],
                    grace: None,
                });
                let starts = self.seats.iter().all(Option::is_some);
                if starts {
                    if let Err(e) = self.create_live().await {
                        self.seats[seat] = None;
                        return Err(e);
                    }
                }
                self.admit(outbox, identity, Some(seat));
                let player = self.seat_info(seat, now).expect("just seated");
                let colour = self.seat_colour(seat);
                self.emit(RoomEvent::PlayerJoined { colour, player }, None, Some(conn));
                if starts {
                    self.emit_started(Some(conn), None);
                }
            }
        }
        self.send_state(conn, since, rid);
        self.publish_lobby();
        Ok(())
    }

    /// One spectator fewer (gone, or now seated): tells the members the new count (but `skip`).
    pub(super) fn spectator_gone(&mut self, skip: Option<ConnId>) {
        self.spectators = self.spectators.saturating_sub(1);
        self.emit(
            RoomEvent::Spectators {
                count: self.spectators,
            },
            None,
            skip,
        );
    }

    /// A member leaves: a spectator goes; a player resigns a running game and gives up the seat.
    pub(super) async fn leave(&mut self, conn: ConnId, rid: Option<u64>) -> Result<(), RoomError> {
        let Some(member) = self.members.get(&conn) else {
            return Err(RoomError::new(
                code::NOT_IN_ROOM,
                "you are not in this room",
            ));
        };
        // The leaver stays in the fan-out until its `ack` is queued, and hears none of the events its leaving
        // causes (they skip it).
        match member.seat {
            None => {
                self.members.remove(&conn);
                self.spectator_gone(Some(conn));
            }
            Some(seat) => {
                if self.live.as_ref().is_some_and(Live::running) && self.pending.is_none() {
                    // A resignation that cannot be stored keeps the player seated (they may leave again).
                    self.finish(Ending::won(other(seat), "resign"), None)
                        .await?;
                }
                self.members.remove(&conn);
                if let Some(h) = self.seats[seat].as_mut() {
                    h.conns.retain(|&c| c != conn);
                }
                self.free_seat(seat, Some(conn));
            }
        }
        self.ack(conn, rid);
        self.fanout.detach(conn);
        self.publish_lobby();
        Ok(())
    }

    /// A member's connection is gone: a player left without connections starts a grace period.
    pub(super) fn disconnected(&mut self, conn: ConnId) {
        let Some(member) = self.dismiss(conn) else {
            return;
        };
        if self.env.shutting_down() {
            // The server is stopping: nobody is charged for it.
            return;
        }
        match member.seat {
            None => {
                self.spectator_gone(None);
                self.publish_lobby();
            }
            Some(seat) => {
                let grace = self.env.limits.grace;
                let now = self.env.clock.now();
                let colour = self.seat_colour(seat);
                let Some(h) = self.seats[seat].as_mut() else {
                    return;
                };
                h.conns.retain(|&c| c != conn);
                if h.conns.is_empty() {
                    h.grace = Some(now + grace);
                    let name = h.identity.name.clone();
                    self.emit(
                        RoomEvent::PlayerDisconnected {
                            colour,
                            name,
                            grace_ms: grace.as_millis() as u64,
                        },
                        None,
                        None,
                    );
                }
            }
        }
    }

    /// Empties a seat (its player left or did not come back in time); every member but `skip` hears of it.
    pub(super) fn free_seat(&mut self, seat: usize, skip: Option<ConnId>) {
        let Some(holder) = self.seats[seat].take() else {
            return;
        };
        let colour = self.seat_colour(seat);
        for conn in &holder.conns {
            if let Some(m) = self.members.get_mut(conn) {
                // Another tab of the same player stays as a spectator (and reads the spectators' chat as one).
                m.seat = None;
                m.show_spectators = true;
                self.spectators += 1;
            }
        }
        self.offers.clear();
        if self.live.is_none() {
            // Back to waiting for a player, for at most the waiting time again (a room that had a game never
            // waits again: it ends when its last player leaves).
            self.waiting_until = Some(self.env.clock.now() + self.env.limits.waiting_room);
        }
        self.emit(
            RoomEvent::PlayerLeft {
                colour,
                name: holder.identity.name,
            },
            None,
            skip,
        );
    }
}
