// The room as the client knows it: a protocol RoomSnapshot folded with the room events that follow it.
// Pure functions (no DOM, no socket, time passed in) so the unit tests can replay transcripts. What every game
// shares (seats, clocks, offers, chat, the room's life) is folded here; each game's own part (its board, its
// phases, its own event kinds) by its member in games/ (`reduce`, `controls`, `canTakeBack`).

import { memberOf } from './games/index.js';

/** A fresh client-side room from a snapshot; `me` is our player id (`welcome.you.id`), `now` a millisecond clock. */
export function fromSnapshot(snapshot, me, now) {
  const room = {
    ...structuredClone(snapshot),
    me,
    clocksAt: now,
    chat: splitChat(snapshot.chat).players,
    notices: [],
    graceUntil: {},
    needsResync: false,
    // Issue #36: when (on `now`'s clock) the player not to act may claim the win in a game without a clock.
    claimAt: typeof snapshot.claim_win_in_ms === 'number' ? now + snapshot.claim_win_in_ms : null,
  };
  memberOf(room).snapshot(room);
  for (const colour of ['black', 'white']) {
    const seat = room.seats[colour];
    if (seat && !seat.connected && seat.grace_ms) room.graceUntil[colour] = now + seat.grace_ms;
  }
  return room;
}

/**
 * A snapshot's chat (`[{from, text, spectator}]`, oldest first; absent when empty) split into the players' lines,
 * which everyone reads, and the spectators' lines, which the server includes only for those who see them.
 */
export function splitChat(lines) {
  const players = [];
  const spectators = [];
  for (const m of Array.isArray(lines) ? lines : []) {
    const line = { from: String(m.from ?? ''), text: String(m.text ?? ''), spectator: Boolean(m.spectator), line: Number.isInteger(m.line) ? m.line : null };
    (line.spectator ? spectators : players).push(line);
  }
  return { players: players.slice(-CHAT_KEPT), spectators: spectators.slice(-CHAT_KEPT) };
}

/** How many chat lines of each kind the page keeps. */
export const CHAT_KEPT = 200;

/**
 * Our colour as seated now. The seats' ids decide, because a swap or a rematch moves players between colours, and
 * never the names: two guests may show the same name (a guest name is reused once its holder expired). Without an
 * id (none given, or a seat from a server that predates ids) nothing is ours.
 */
export function seatOf(room, id = room.me) {
  if (!id) return null;
  if (room.seats.black?.id === id) return 'black';
  if (room.seats.white?.id === id) return 'white';
  return null;
}

/** The other colour. */
export function other(colour) {
  return colour === 'black' ? 'white' : 'black';
}

/**
 * The events that carry an action of the game (or start it): each starts the idle time again, after which the player
 * not to act may claim the win in a game without a clock (the server's `last_action`).
 */
const ACTED = new Set(['game_started', 'action', 'actions_taken_back']);

/**
 * Applies one versioned event; returns a new room. An event already seen (version not above ours) is
 * ignored, so a replayed catch-up cannot apply a move twice; a gap sets `needsResync` and the caller rejoins.
 */
export function applyEvent(prev, version, event, now) {
  if (version <= prev.version) return prev;
  if (version > prev.version + 1) return { ...prev, needsResync: true };
  const room = { ...prev, version, seats: { ...prev.seats }, notices: [] };
  if (ACTED.has(event.kind)) room.claimAt = typeof prev.idle_claim_ms === 'number' ? now + prev.idle_claim_ms : null;
  const member = memberOf(prev);
  const withClocks = (clocks) => {
    if (clocks !== undefined) {
      room.clocks = clocks;
      room.clocksAt = now;
    }
  };
  switch (event.kind) {
    case 'player_joined':
      room.seats[event.colour] = event.player;
      break;
    case 'player_left':
      room.seats[event.colour] = null;
      break;
    case 'game_started':
      Object.assign(room, {
        game_id: event.game_id,
        record: event.record,
        state: 'playing',
        phase: member.startPhase,
        to_act: member.colours[0],
        offers: [],
        result: null,
        graceUntil: {},
      });
      room.seats = { black: event.black, white: event.white };
      withClocks(event.clocks);
      break;
    case 'action':
      // An action beyond the next index means one was missed: the board cannot be trusted, ask for a snapshot.
      if (typeof event.at === 'number' && event.at > member.ply(prev)) return { ...prev, version, needsResync: true };
      // Every game but Gomoku announces its actions in one form; the member folds the change into its view. An
      // action at an index we already hold (a resend after reconnect) changes nothing of the board.
      if (event.at === member.ply(prev)) member.reduce(room, prev, event, withClocks);
      room.to_act = event.to_act ?? null;
      room.phase = event.phase ?? null;
      room.offers = prev.offers.filter((o) => o.kind === 'rematch');
      withClocks(event.clocks);
      break;
    case 'actions_taken_back':
      // The generic rooms' takeback: the member replaces its view with the event's; who acts and the clocks here.
      room.to_act = event.to_act ?? null;
      room.phase = event.phase ?? null;
      withClocks(event.clocks);
      break;
    case 'offered':
      room.offers = [...prev.offers.filter((o) => !(o.kind === event.offer && o.by === event.by)), { kind: event.offer, by: event.by }];
      break;
    case 'offer_answered':
      room.offers = prev.offers.filter((o) => o.kind !== event.offer);
      room.lastAnswer = { offer: event.offer, by: event.by, accept: event.accept };
      break;
    case 'player_disconnected': {
      const seat = prev.seats[event.colour];
      if (seat) room.seats[event.colour] = { ...seat, connected: false, grace_ms: event.grace_ms };
      room.graceUntil = { ...prev.graceUntil };
      if (event.grace_ms > 0) room.graceUntil[event.colour] = now + event.grace_ms;
      break;
    }
    case 'player_reconnected': {
      const seat = prev.seats[event.colour];
      if (seat) room.seats[event.colour] = { ...seat, connected: true, grace_ms: undefined };
      room.graceUntil = { ...prev.graceUntil };
      delete room.graceUntil[event.colour];
      break;
    }
    case 'spectators':
      room.spectators = event.count;
      break;
    case 'chat':
      room.chat = [...prev.chat, { from: event.from, spectator: Boolean(event.spectator), text: event.text, line: Number.isInteger(event.line) ? event.line : null }].slice(-CHAT_KEPT);
      break;
    case 'chat_removed':
      // Issue #38: a moderator removed the line for everyone.
      room.chat = prev.chat.filter((l) => l.line !== event.line);
      break;
    case 'room_closed':
      // Nobody came in time: the room is gone and takes no more requests.
      Object.assign(room, { state: 'closed', closed: event.reason, phase: 'none', to_act: null, offers: [] });
      room.seats = { black: null, white: null };
      break;
    case 'game_over':
      room.seats = ratedSeats(prev.seats, event.result?.ratings);
      Object.assign(room, {
        state: 'over',
        phase: 'none',
        to_act: null,
        result: event.result,
        offers: [],
        graceUntil: {},
      });
      withClocks(event.clocks);
      break;
    default:
      break;
  }
  // The game's own kinds and its part of the shared ones (a newer server may send kinds nobody knows; the
  // version still advances). The generic `action` was folded above.
  if (event.kind !== 'action') member.reduce(room, prev, event, withClocks);
  room.you = seatOf(room);
  return room;
}

/**
 * The seats with a rated result's figures (matched by name): the cards then show the rating, tier and `?` the game
 * left, as a snapshot taken after it would, for spectators and players alike.
 */
function ratedSeats(seats, ratings) {
  if (!ratings?.length) return seats;
  const out = { ...seats };
  for (const colour of ['black', 'white']) {
    const seat = seats[colour];
    const delta = seat && ratings.find((d) => d.name === seat.name);
    if (!delta) continue;
    out[colour] = {
      ...seat,
      rating: Math.round(delta.after),
      tier: delta.tier ?? seat.tier,
      provisional: delta.provisional ?? seat.provisional,
    };
  }
  return out;
}

/** Folds a catch-up list (oldest first) into the room. */
export function applyCatchUp(room, events, now) {
  return events.reduce((r, e) => applyEvent(r, e.version, e.event, now), room);
}

/**
 * What the local player may do now; spectators and players out of turn get nothing. The game adds its own flags
 * (Gomoku's `place`, `swap`, …; every game's `input`: whether the board takes a move now).
 */
export function controls(room) {
  const you = seatOf(room);
  const playing = room.state === 'playing';
  const myTurn = playing && you && room.to_act === you;
  const theirs = (kind) => room.offers.some((o) => o.kind === kind && o.by !== you);
  const mine = (kind) => room.offers.some((o) => o.kind === kind && o.by === you);
  const own = memberOf(room).controls(room, you);
  return {
    seated: Boolean(you),
    myTurn: Boolean(myTurn),
    ...own,
    resign: Boolean(playing && you),
    offerDraw: Boolean(playing && you && !mine('draw')),
    takeback: Boolean(playing && you && !mine('takeback') && canTakeBack(room, you)),
    answerDraw: Boolean(playing && you && theirs('draw')),
    answerTakeback: Boolean(playing && you && theirs('takeback')),
    rematch: Boolean(room.state === 'over' && you && !mine('rematch')),
    answerRematch: Boolean(room.state === 'over' && you && theirs('rematch')),
  };
}

/**
 * Issue #36: the "claim the win" of a game without a clock as the local player sees it at `now`: `null` when there is
 * nothing to claim (a spectator, a clock, a game not being played, our own turn), else `{ ready, leftMs }`: ready once
 * the opponent has been idle for the server's idle time, and until then the time left. A server that does not say
 * when (no `idle_claim_ms`) leaves the claim to its answer: ready at once.
 */
export function claimWin(room, now) {
  const you = seatOf(room);
  if (!you || room.state !== 'playing' || room.time_control?.kind !== 'none' || !room.to_act || room.to_act === you) return null;
  if (typeof room.claimAt !== 'number') return { ready: true, leftMs: 0 };
  const leftMs = Math.max(0, Math.ceil(room.claimAt - now));
  return { ready: leftMs === 0, leftMs };
}

/** Whether a takeback asked for now would undo something of `colour`'s, by the game's rule. */
export function canTakeBack(room, colour) {
  return memberOf(room).canTakeBack(room, colour);
}

/** Remaining ms each side's clock shows at `now`, extrapolating the running side from the last figures. */
export function clockFigures(room, now) {
  if (!room.clocks) return null;
  const elapsed = Math.max(0, now - room.clocksAt);
  const out = {};
  for (const c of ['black', 'white']) {
    out[c] = { ...room.clocks[c], elapsed: room.clocks.running === c && room.state === 'playing' ? elapsed : 0 };
  }
  out.running = room.state === 'playing' ? room.clocks.running : null;
  return out;
}
