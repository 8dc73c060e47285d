//! Play: a player's actions in the game, the start of each game, offers (draw, takeback, rematch) and claims.

use std::sync::atomic::Ordering;
use std::time::Instant;

use games::{AnyAction, AnyGame, Game, GameConfig};
use protocol::{code, GamePhase, GameView, OfferKind, RoomEvent, RoomState};
use rules::Color;
use store::{NewGame, StoredAction};

use super::fanout::Actor;
use super::finish::{Ending, UNRATED_REPEATED};
use super::live::{self, Live};
use super::seats::other;
use super::task::Room;
use super::{Act, GameClock, RoomError};
use crate::stored;
use crate::time::unix_ms;
use crate::ws::outbox::ConnId;

impl Room {
    /// What a member asks for: chat and its setting for anyone, the rest for players only.
    pub(super) async fn act(
        &mut self,
        conn: ConnId,
        rid: Option<u64>,
        act: Act,
    ) -> Result<(), RoomError> {
        if !self.members.contains_key(&conn) {
            return Err(RoomError::new(code::NOT_IN_ROOM, "join the room first"));
        }
        match act {
            Act::Chat(text, line) => return self.chat(conn, rid, &text, line),
            Act::ShowSpectatorChat(show) => {
                if let Some(m) = self.members.get_mut(&conn) {
                    // Spectators see their own chat whatever they ask.
                    m.show_spectators = show || m.seat.is_none();
                }
                if show {
                    // The answer brings what the spectators said before (the snapshot's `chat`).
                    self.send_snapshot(conn, rid);
                } else {
                    self.ack(conn, rid);
                }
                return Ok(());
            }
            _ => {}
        }
        let Some(member) = self.members.get(&conn) else {
            return Err(RoomError::new(code::NOT_IN_ROOM, "join the room first"));
        };
        let Some(seat) = member.seat else {
            return Err(RoomError::new(
                code::NOT_A_PLAYER,
                "spectators cannot act in the game",
            ));
        };
        // A node cut off from NATS or Postgres takes no game actions (the fence would refuse their writes once
        // the lease is gone; until then, players elsewhere could not see them).
        if let Err(reason) = self.env.reach.ownership.writable() {
            return Err(RoomError::new(code::PARTITIONED, reason));
        }
        let actor = Some((conn, rid));
        match act {
            Act::Ply { action, ply } => self.place(seat, actor, action, ply).await,
            Act::Unnumbered(action) => {
                if self.already_made(seat, &action) {
                    // A retry of a decision or claim that already stands (its answer was lost on the way): the
                    // same action is made at most once a game, so answering `ack` is safe, as for a `place`
                    // played before.
                    self.ack_actor(actor);
                    return Ok(());
                }
                self.play(seat, actor, action).await
            }
            Act::Game { action, at } => self.act_at(seat, actor, action, at).await,
            Act::Notation { text, at } => {
                let action = self
                    .config
                    .kind()
                    .parse_action(&text)
                    .map_err(|e| RoomError::new(code::BAD_NOTATION, e.to_string()))?;
                self.act_at(seat, actor, action, at).await
            }
            Act::Resign => {
                self.running_live()?;
                self.finish(Ending::won(other(seat), "resign"), actor).await
            }
            Act::OfferDraw => {
                self.running_live()?;
                if self.offers.is_pending(OfferKind::Draw, other(seat)) {
                    // Both want a draw. The offer stands if the draw cannot be stored.
                    let recorded = self.record(Ending::no_winner("draw_agreed", false)).await?;
                    self.offers.take(OfferKind::Draw, other(seat));
                    self.announce(recorded, actor);
                    return Ok(());
                }
                self.offer(seat, OfferKind::Draw, actor)
            }
            Act::AnswerDraw(accept) => {
                self.running_live()?;
                if !(accept && self.offers.is_pending(OfferKind::Draw, other(seat))) {
                    return self.answer(seat, OfferKind::Draw, accept, actor);
                }
                // Stored before the answer is announced: a draw that cannot be stored leaves the offer standing.
                let recorded = self.record(Ending::no_winner("draw_agreed", false)).await?;
                let answered = self.answer(seat, OfferKind::Draw, accept, actor);
                self.announce(recorded, None);
                answered
            }
            Act::RequestTakeback => {
                self.running_live()?;
                self.takeback_count(seat)?;
                self.offer(seat, OfferKind::Takeback, actor)
            }
            Act::AnswerTakeback(accept) => {
                self.running_live()?;
                if accept {
                    // Check before answering, so a failed takeback leaves the request standing.
                    self.takeback_count(other(seat))?;
                }
                self.answer(seat, OfferKind::Takeback, accept, actor)?;
                if accept {
                    self.take_back(other(seat)).await?;
                }
                Ok(())
            }
            Act::OfferRematch => {
                self.rematch_possible()?;
                if self.offers.is_pending(OfferKind::Rematch, other(seat)) {
                    self.offers.take(OfferKind::Rematch, other(seat));
                    return self.start_rematch(actor).await;
                }
                self.offer(seat, OfferKind::Rematch, actor)
            }
            Act::AnswerRematch(accept) => {
                self.rematch_possible()?;
                self.answer(seat, OfferKind::Rematch, accept, actor)?;
                if accept {
                    self.start_rematch(None).await?;
                }
                Ok(())
            }
            Act::ClaimWin => self.claim_win(seat, actor).await,
            Act::Chat(..) | Act::ShowSpectatorChat(_) => unreachable!("handled above"),
        }
    }

    /// Whether the game takes actions now (`result_pending`, `game_over` or `game_not_started` otherwise).
    /// The answer to an action whose write failed: `partitioned` when the node lost contact or the room's lease
    /// (the store's fence refused it), else `internal`.
    fn write_failed(&self, e: &store::StoreError) -> RoomError {
        let ownership = &self.env.reach.ownership;
        let partition = match ownership.writable() {
            Err(reason) => Some(reason),
            Ok(()) if matches!(e, store::StoreError::Fenced(_)) => Some(ownership.fenced()),
            Ok(()) => None,
        };
        match partition {
            Some(reason) => RoomError::new(code::PARTITIONED, reason),
            None => RoomError::internal(),
        }
    }

    pub(super) fn running_live(&self) -> Result<(), RoomError> {
        if self.pending.is_some() {
            return Err(RoomError::result_pending());
        }
        match (&self.live, self.room_state()) {
            (Some(l), _) if l.running() => Ok(()),
            (Some(_), RoomState::Over) => Err(RoomError::new(code::GAME_OVER, "the game is over")),
            _ => Err(RoomError::new(
                code::GAME_NOT_STARTED,
                "the game has not started",
            )),
        }
    }

    /// Records a new game in the store and makes it the room's game (both seats are filled).
    pub(super) async fn create_live(&mut self) -> Result<(), RoomError> {
        self.store_match().await?;
        let player = |s: usize| {
            self.seats[s]
                .as_ref()
                .expect("both seats filled")
                .identity
                .player_ref()
        };
        let now = self.env.clock.now();
        let game = live::new_game(self.config, self.next_first);
        let start = game.first_seat();
        let (black_seat, white_seat) = (game.seat_of(Color::Black), game.seat_of(Color::White));
        let users = (player(0).user_id, player(1).user_id);
        let (mut pairing, mut unrated) = (None, None);
        if let (true, Some(a), Some(b)) = (self.rated, users.0, users.1) {
            let limits = &self.env.limits;
            pairing = self.env.rooms.reserve_rated(
                a,
                b,
                now,
                limits.rated_repeat_limit,
                limits.rated_repeat_window,
            );
            if pairing.is_none() {
                unrated = Some(UNRATED_REPEATED);
            }
        }
        let new_game = NewGame {
            public_id: store::new_public_id(),
            room: self.id.to_string(),
            kind: self.config.kind().as_str().to_owned(),
            config: self.config.encode(),
            pool: stored::pool(&self.config),
            time_control: serde_json::to_string(&self.time_control)
                .expect("a time control serialises"),
            public: self.public,
            rated: self.rated && unrated.is_none(),
            black: player(black_seat.index()),
            white: player(white_seat.index()),
            started_at: unix_ms(),
        };
        let (rated, public_id) = (new_game.rated, new_game.public_id.clone());
        let rated_play = rated.then(|| {
            let key = |s: usize| {
                self.seats[s]
                    .as_ref()
                    .expect("both seats filled")
                    .identity
                    .key()
            };
            self.env.rooms.rated_play([key(0), key(1)])
        });
        let id = match self.env.writer.create_game(new_game).await {
            Ok(id) => id,
            Err(e) => {
                tracing::error!(room = %self.id, error = %e, "could not store a new game");
                if let Some(p) = pairing {
                    self.env.rooms.release_rated(p);
                }
                return Err(RoomError::internal());
            }
        };
        let first_move_ms = self.env.limits.first_move.as_millis() as u64;
        let mut clock = GameClock::with_first_move(self.time_control, first_move_ms);
        if let (Some(c), Some(to_act)) = (&mut clock, game.to_act()) {
            c.start(game.seat_of(to_act).index(), now);
        }
        self.live = Some(Live {
            id,
            public_id,
            game,
            start,
            clock,
            actors: Vec::new(),
            result: None,
            rated,
            unrated,
            pairing,
            rated_play,
            last_action: now,
        });
        self.offers.clear();
        self.waiting_until = None;
        if let Some(ip) = self.waiting_ip.take() {
            self.env.rooms.stopped_waiting(ip);
        }
        self.env
            .metrics
            .games_started
            .fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Announces the game that just started.
    pub(super) fn emit_started(&mut self, skip: Option<ConnId>, actor: Actor) {
        let now = self.env.clock.now();
        let live = self.live.as_ref().expect("a game started");
        let seats = self.seats_by_colour(now);
        let view = live.game.view(!live.running());
        let event = RoomEvent::GameStarted {
            game_id: live.id,
            record: Some(live.public_id.clone()),
            black: seats.black.expect("black seated"),
            white: seats.white.expect("white seated"),
            clocks: live.clocks(now),
            // The position is in `view`, for every game.
            forbidden: Vec::new(),
            to_act: live.to_act(),
            phase: Default::default(),
            unrated: live.unrated.map(str::to_owned),
            view: Some(GameView::from_view(&view, &live.game.actions())),
        };
        self.emit(event, actor, skip);
    }

    /// Whether `seat` already made this action in the current (or just finished) game when the game takes it at
    /// most once a seat (an opening decision, a claim): the same one again is then a retry.
    pub(super) fn already_made(&self, seat: usize, action: &AnyAction) -> bool {
        if !AnyGame::at_most_once(action) {
            return false;
        }
        self.live.as_ref().is_some_and(|live| {
            // A decision the game takes now is a new one, not a retry (one seat may keep or swap more than once
            // under Soosõrv and Taraguchi).
            let takes_it_now = live
                .game
                .clone()
                .apply_as(live::seat(seat), action.clone())
                .is_ok();
            !takes_it_now
                && live
                    .game
                    .actions()
                    .iter()
                    .zip(&live.actors)
                    .any(|(a, &s)| a == action && s == seat)
        })
    }

    /// Plays a move for the ply it is meant to be (the number of moves after it): the next ply plays, the same
    /// move by the same seat again is acknowledged, any other ply is `stale_ply`.
    pub(super) async fn place(
        &mut self,
        seat: usize,
        actor: Actor,
        action: AnyAction,
        ply: u32,
    ) -> Result<(), RoomError> {
        self.play_numbered(seat, actor, action, Numbered::Ply(ply))
            .await
    }

    /// Plays any game's action for the number of actions accepted before it (`at`): at the count it plays; below
    /// it, this seat's same action at `at` is a retry whose answer was lost, and is acknowledged; anything else
    /// is `stale_ply`.
    pub(super) async fn act_at(
        &mut self,
        seat: usize,
        actor: Actor,
        action: AnyAction,
        at: u32,
    ) -> Result<(), RoomError> {
        self.play_numbered(seat, actor, action, Numbered::At(at))
            .await
    }

    /// [`Room::place`] and [`Room::act_at`]: an action numbered by the count it expects, played when that count is
    /// the next one, acknowledged again when it is an earlier count where this seat played this same action (a
    /// retry whose answer was lost), `stale_ply` otherwise.
    async fn play_numbered(
        &mut self,
        seat: usize,
        actor: Actor,
        action: AnyAction,
        numbered: Numbered,
    ) -> Result<(), RoomError> {
        if self.pending.is_some() {
            return Err(RoomError::result_pending());
        }
        let Some(live) = self.current() else {
            return self.running_live();
        };
        let (given, next, earlier) = match numbered {
            Numbered::Ply(ply) => (
                ply as usize,
                live.ply() as usize + 1,
                ply.checked_sub(1)
                    .and_then(|i| live.move_action(i as usize)),
            ),
            Numbered::At(at) => (
                at as usize,
                live.game.action_count(),
                live.action_at(at as usize),
            ),
        };
        if given != next {
            let same = given < next && earlier.is_some_and(|(a, s)| a == action && s == seat);
            if same {
                self.ack_actor(actor);
                return Ok(());
            }
            return Err(RoomError::new(
                code::STALE_PLY,
                match numbered {
                    Numbered::Ply(ply) => format!("ply {ply} is not the next ply ({next})"),
                    Numbered::At(at) => format!("action {at} is not the next action ({next})"),
                },
            ));
        }
        self.play(seat, actor, action).await
    }

    /// Applies a game's action for a seat: judge, charge the clock, store durably, then announce.
    pub(super) async fn play(
        &mut self,
        seat: usize,
        actor: Actor,
        action: AnyAction,
    ) -> Result<(), RoomError> {
        self.running_live()?;
        let now = self.env.clock.now();
        let flagged = self
            .live
            .as_ref()
            .and_then(|l| l.clock.as_ref())
            .and_then(|c| c.flagged(now));
        if let Some(flagged) = flagged {
            self.finish(Ending::won(other(flagged), "timeout"), None)
                .await?;
            return Err(RoomError::new(code::GAME_OVER, "time ran out"));
        }
        let credit = super::clock::lag_credit_ms(self.rtt_ms);
        let live = self.live.as_mut().expect("running");
        let is_move = AnyGame::is_move(&action);
        // A forced action (Othello's pass) is taken by the room the moment it is due: it costs no time and earns
        // no increment.
        let forced = live.game.forced().as_ref() == Some(&action);
        // The stored text, written before the game takes the action.
        let text = action.encode();
        let clock_before = live.clock.clone();
        let last_before = live.last_action;
        let by = live.colour_of(seat);
        let delta = live.game.apply_as(live::seat(seat), action)?;
        let next = live.game.to_act().map(|c| live.seat_of(c));
        let mut used = 0;
        if let Some(c) = &mut live.clock {
            if forced {
                c.freeze(now);
            } else {
                used = c.stop_credited(now, credit);
            }
            if let Some(next) = next {
                c.start(next, now);
            }
        }
        let remaining = live.clock.as_ref().map(|c| {
            let t = c.totals(now);
            [t[live.seat_of(Color::Black)], t[live.seat_of(Color::White)]]
        });
        let stored = StoredAction {
            seq: (live.game.action_count() - 1) as u32,
            text,
            ply: is_move.then(|| live.ply()),
            used_ms: used as i64,
            remaining_ms: remaining,
            at: unix_ms(),
        };
        let started = Instant::now();
        if let Err(e) = self.env.writer.append(live.id, stored).await {
            tracing::error!(game = live.id, error = %e, "could not store an action");
            live.game.undo();
            live.clock = clock_before;
            return Err(self.write_failed(&e));
        }
        self.env
            .metrics
            .store_write_seconds
            .observe(started.elapsed());
        self.env.metrics.moves.fetch_add(1, Ordering::Relaxed);
        live.actors.push(seat);
        live.last_action = now;
        let clocks = live.clocks(now);
        // Announced under the action as the game recorded it (a draughts move under its listed path).
        let at = live.game.action_count() - 1;
        let recorded = live.game.actions().pop().expect("the action just applied");
        let event = RoomEvent::action(at as u32, by, &recorded, &delta, &live.game, clocks);
        if is_move {
            self.offers.stone_played();
        }
        self.emit(event, actor, None);
        // An action that is no move yet ends the game is a claim: its result is its answer, and a result that
        // cannot be stored takes the claim back.
        let ending = self.decided_ending();
        let claimed = ending.as_ref().is_some_and(|e| e.claimed);
        let decided = match ending {
            Some(ending) => {
                self.finish(ending, if claimed { actor } else { None })
                    .await
            }
            None => Ok(()),
        };
        match decided {
            Err(e) if claimed && e.code == code::INTERNAL => {
                self.withdraw_claim(clock_before, last_before, actor).await
            }
            Err(e) if claimed => Err(e),
            // A decided move was stored and announced (its reply); its result follows once stored.
            Err(_) => Ok(()),
            Ok(()) => {
                self.play_forced().await;
                Ok(())
            }
        }
    }

    /// Takes, for the side to act, the action it is forced to take (Othello's pass when no disc can go
    /// anywhere), at once and at no cost on its clock, and so on while one is due; each is stored and announced
    /// like any action. One that cannot be stored is left for the player to take (`pass` is a legal `act`) and
    /// is tried again after the next action.
    pub(super) async fn play_forced(&mut self) {
        if self.pending.is_some() {
            return;
        }
        let Some(live) = self.live.as_ref().filter(|l| l.running()) else {
            return;
        };
        let (Some(action), Some(colour)) = (live.game.forced(), live.game.to_act()) else {
            return;
        };
        let seat = live.seat_of(colour);
        // `play` takes the next forced action itself once this one is in.
        if let Err(e) = Box::pin(self.play(seat, None, action)).await {
            tracing::warn!(room = %self.id, code = %e.code, "a forced action was not taken");
        }
    }

    /// A claim whose result could not be stored is taken back, so the game goes on as if it had not been made
    /// (the claim may be made again). If even that cannot be stored, the claim stands and its result is stored
    /// like any decided result.
    pub(super) async fn withdraw_claim(
        &mut self,
        clock_before: Option<GameClock>,
        last_before: Instant,
        actor: Actor,
    ) -> Result<(), RoomError> {
        let live = self.live.as_mut().expect("running");
        let keep = (live.game.action_count() - 1) as u32;
        match self.env.writer.truncate_actions(live.id, keep).await {
            Ok(()) => {
                live.game.undo();
                live.actors.pop();
                live.clock = clock_before;
                live.last_action = last_before;
                Err(RoomError::internal())
            }
            Err(e) => {
                tracing::error!(game = live.id, error = %e, "could not withdraw a claim");
                match self.decided_ending() {
                    Some(ending) => self.settle(ending, actor).await,
                    None => Err(RoomError::internal()),
                }
            }
        }
    }

    /// `claim_win`: in a game without a clock, the player not to act wins once the opponent has been idle for the
    /// configured time (a rated game could otherwise be stalled for ever by the losing side).
    pub(super) async fn claim_win(&mut self, seat: usize, actor: Actor) -> Result<(), RoomError> {
        self.running_live()?;
        let live = self.live.as_ref().expect("running");
        if live.clock.is_some() || live.to_act() == Some(live.colour_of(seat)) {
            return Err(RoomError::new(
                code::NO_CLAIM,
                "a win can be claimed only in a game without a clock, while the opponent is to act",
            ));
        }
        let idle = self
            .env
            .clock
            .now()
            .saturating_duration_since(live.last_action);
        let needed = self.env.limits.idle_claim;
        if idle < needed {
            let left = (needed - idle).as_secs_f64().ceil() as u64;
            return Err(RoomError::new(
                code::CLAIM_TOO_SOON,
                format!("the opponent still has {left} s to act"),
            ));
        }
        self.finish(Ending::won(seat, "idle"), actor).await
    }

    /// Makes an offer (draw, takeback, rematch) for a seat, if the offer rules allow it now.
    pub(super) fn offer(
        &mut self,
        seat: usize,
        kind: OfferKind,
        actor: Actor,
    ) -> Result<(), RoomError> {
        let ply = self.live.as_ref().map_or(0, Live::ply);
        self.offers
            .check(kind, seat, ply)
            .map_err(|code| RoomError::new(code, "this offer cannot be made now"))?;
        self.offers.add(kind, seat);
        let by = self.seat_colour(seat);
        self.emit(RoomEvent::Offered { offer: kind, by }, actor, None);
        Ok(())
    }

    /// Answers the opponent's offer.
    pub(super) fn answer(
        &mut self,
        seat: usize,
        kind: OfferKind,
        accept: bool,
        actor: Actor,
    ) -> Result<(), RoomError> {
        let ply = self.live.as_ref().map_or(0, Live::ply);
        if !self.offers.is_pending(kind, other(seat)) {
            return Err(RoomError::new(
                code::NO_OFFER,
                "there is no such offer to answer",
            ));
        }
        if accept {
            self.offers.take(kind, other(seat));
        } else {
            self.offers.decline(kind, other(seat), ply);
        }
        let by = self.seat_colour(seat);
        self.emit(
            RoomEvent::OfferAnswered {
                offer: kind,
                by,
                accept,
            },
            actor,
            None,
        );
        Ok(())
    }

    /// How many actions a takeback for `seat` undoes: its last action of its own choosing and any reply after it
    /// (actions the room took because they were forced, such as Othello's passes, go with them and are not
    /// counted as either).
    pub(super) fn takeback_count(&self, seat: usize) -> Result<usize, RoomError> {
        let live = self.live.as_ref().expect("checked running");
        let nothing =
            || RoomError::new(code::NOTHING_TO_TAKE_BACK, "you have no move to take back");
        let mut game = live.game.clone();
        let (mut count, mut replies, mut found) = (0, 0, false);
        for &actor in live.actors.iter().rev() {
            let action = game.undo().ok_or_else(nothing)?;
            count += 1;
            if game.forced().as_ref() == Some(&action) {
                continue;
            }
            if actor == seat {
                found = true;
                break;
            }
            replies += 1;
            if replies > 1 {
                break;
            }
        }
        if !found {
            return Err(nothing());
        }
        // Takebacks stop at an opening decision: undoing a swap would give the colours back silently.
        let actions = live.game.actions();
        let undone = &actions[actions.len().saturating_sub(count)..];
        if undone.iter().any(AnyGame::is_opening_decision) {
            return Err(RoomError::new(
                code::OPENING_DECIDED,
                "an opening decision cannot be taken back",
            ));
        }
        Ok(count)
    }

    /// Undoes `seat`'s last action (and any reply after it) in the store and the game, then announces it.
    pub(super) async fn take_back(&mut self, seat: usize) -> Result<(), RoomError> {
        let count = self.takeback_count(seat)?;
        let live = self.live.as_mut().expect("checked running");
        let keep = (live.actors.len() - count) as u32;
        // A game write like a move: batched, and in a cluster fenced (a stale owner's takeback is `partitioned`).
        if let Err(e) = self.env.writer.truncate_actions(live.id, keep).await {
            tracing::error!(game = live.id, error = %e, "could not take back");
            return Err(self.write_failed(&e));
        }
        for _ in 0..count {
            live.game.undo();
            live.actors.pop();
        }
        let now = self.env.clock.now();
        live.last_action = now;
        let next = live.game.to_act().map(|c| live.seat_of(c));
        if let (Some(c), Some(next)) = (&mut live.clock, next) {
            c.freeze(now);
            c.start(next, now);
        }
        let to_act = live.to_act();
        let event = RoomEvent::ActionsTakenBack {
            at: live.game.action_count() as u32,
            ply: live.game.ply(),
            view: GameView::from_view(&live.game.view(!live.running()), &live.game.actions()),
            to_act,
            // Nobody acts once the room holds a result.
            phase: live
                .game
                .status()
                .phase()
                .filter(|_| to_act.is_some())
                .map(GamePhase::of),
            clocks: live.clocks(now),
        };
        self.offers.stone_played();
        self.emit(event, None, None);
        self.play_forced().await;
        Ok(())
    }

    /// A rematch needs a finished game and both of its players still seated.
    pub(super) fn rematch_possible(&self) -> Result<(), RoomError> {
        if self.room_state() != RoomState::Over {
            return Err(RoomError::new(
                code::GAME_NOT_OVER,
                "a rematch follows a finished game",
            ));
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(RoomError::new(
                code::OPPONENT_LEFT,
                "your opponent left this room; open a new room for another game",
            ));
        }
        Ok(())
    }

    /// Both players want another game: it starts with the colours exchanged.
    pub(super) async fn start_rematch(&mut self, actor: Actor) -> Result<(), RoomError> {
        self.create_live().await?;
        self.emit_started(None, actor);
        self.publish_lobby();
        Ok(())
    }
}

/// What number an action comes with: `place`'s `ply` (the moves after it) or `act`'s `at` (the actions before it).
#[derive(Clone, Copy, Debug)]
enum Numbered {
    Ply(u32),
    At(u32),
}
