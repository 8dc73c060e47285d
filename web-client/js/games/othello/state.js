// Othello's part of the client-side room: the view a snapshot carries (`view`: board, counts, legal squares, the
// last action, every action so far) and the changes of `action` events folded into it, and the input model (a
// tap on a legal square, or the pass when the rules call for it, becomes an `act` intention). Pure.

import { START_BOARD, indexOf, counts } from './board.js';
import { t } from '../../i18n.js';

/** The view of a game not yet started or just started. */
export function startView() {
  return { game: 'othello', board: START_BOARD, black: 2, white: 2, to_act: 'black', phase: 'place', legal: ['d3', 'c4', 'f5', 'e6'], last: null, actions: [] };
}

/** A room fresh from a snapshot: its view (a fresh one while waiting), with the side to act and phase from it. */
export function snapshot(room) {
  room.view = room.view?.game === 'othello' ? { ...startView(), ...room.view } : startView();
  // The snapshot's own `phase` is `none` in these rooms: the view's is the one to read (docs/protocol.md).
  if (room.to_act == null) room.to_act = room.state === 'playing' ? room.view.to_act : null;
  room.phase = room.state === 'playing' ? room.view.phase ?? null : room.phase ?? null;
  return room;
}

/** How many actions (moves and passes) the game has had: the `at` of the next one. */
export function ply(room) {
  return room.view?.actions?.length ?? 0;
}

/** The board after one change: the placed disc and the flipped ones take the mover's colour. */
export function applyChange(view, by, action, change, toAct) {
  const cells = view.board.split('');
  const mark = by === 'white' ? 'w' : 'b';
  for (const sq of [change.placed, ...(change.flipped || [])]) {
    const i = indexOf(sq);
    if (i >= 0) cells[i] = mark;
  }
  const board = cells.join('');
  const n = counts(board);
  return {
    ...view,
    board,
    black: change.black ?? n.black,
    white: change.white ?? n.white,
    legal: change.legal || [],
    last: change.placed ?? 'pass',
    // What the last action turned over, so the board animates those discs (and only those).
    flipped: change.flipped || [],
    to_act: toAct ?? null,
    actions: [...(view.actions || []), action],
  };
}

/** Folds Othello's part of an event into `room` (a copy of `prev`). */
export function reduce(room, prev, event) {
  switch (event.kind) {
    case 'action':
      if (event.change?.game === 'othello') room.view = { ...applyChange(prev.view, event.by, event.action, event.change, event.to_act), phase: event.phase ?? null };
      break;
    case 'game_started':
      room.view = event.view?.game === 'othello' ? { ...startView(), ...event.view } : startView();
      room.phase = room.view.phase;
      break;
    case 'actions_taken_back':
      // The position after the takeback, with its actions: nothing is animated.
      room.view = event.view?.game === 'othello' ? { ...startView(), ...event.view, flipped: [] } : prev.view;
      break;
    case 'game_over':
      room.view = { ...prev.view, to_act: null, legal: [] };
      break;
    default:
      break;
  }
}

/** Othello's flags for the local player: `place` (a legal square to tap), `pass` (no move: the pass is due). */
export function controls(room, you) {
  const myTurn = room.state === 'playing' && you && room.to_act === you;
  const place = Boolean(myTurn && room.phase === 'place');
  return { place, pass: Boolean(myTurn && room.phase === 'pass'), input: place };
}

/**
 * The input model: the intention a choice of `square` makes in `room` — `{t: 'act', room, action, at}` with the
 * square's notation when it is legal now, else null (a tap on any other square does nothing). `'pass'` is the
 * pass, only while the phase asks for it.
 */
export function intention(room, square) {
  const v = room.view;
  if (!v) return null;
  const ok = square === 'pass' ? room.phase === 'pass' : room.phase === 'place' && (v.legal || []).includes(square);
  return ok ? { t: 'act', room: room.id, action: square, at: ply(room) } : null;
}

/**
 * Whose turn the actions alternate by: a pass is an action of the side that had no move, so action `i` is always
 * black's for even `i` and white's for odd `i`.
 */
export function actorOf(i) {
  return i % 2 ? 'white' : 'black';
}

/**
 * Whether a takeback asked for by `colour` now would undo something of its own: the room goes back to the
 * requester's last disc (passes are the room's, never a choice), so `colour` must have placed one.
 */
export function canTakeBack(room, colour) {
  const actions = room.view?.actions || [];
  return actions.some((a, i) => a !== 'pass' && actorOf(i) === colour);
}

/**
 * The pass notice: when the last action was a pass, who passed and who plays again ({passer, next}); null
 * otherwise. The room takes a forced pass itself at once, so this is how a player learns of it.
 */
export function passNotice(room) {
  const actions = room.view?.actions || [];
  if (!actions.length || actions[actions.length - 1] !== 'pass') return null;
  const passer = actorOf(actions.length - 1);
  return { passer, next: passer === 'black' ? 'white' : 'black' };
}

/** The game as a transcript in the usual Othello form: the squares alone, passes left out (`f5d6c3…`). */
export function transcript(actions) {
  return (actions || []).filter((a) => a !== 'pass').join('');
}

/** The move list: every action numbered, alternating from black (a pass is an action too). */
export function moveEntries(x) {
  const actions = x.view?.actions || x.moves || [];
  return actions.map((a, i) => ({ n: i + 1, point: a === 'pass' ? t('othello.pass_entry') : a, colour: actorOf(i) }));
}
