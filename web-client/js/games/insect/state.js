// Insect chess's part of the client-side room: the view a snapshot carries (`view`: the 77-character board, the
// side to act, the legal moves `e2-e3`, the last move, the no-capture count, the repetitions, the ply, every action
// so far), the changes of `action` events folded into it, takebacks; and the input model: a tap on one of one's
// pieces that may move, then on one of its destinations, makes `{"t":"act","room","action":"e2-e3","at"}`. Only
// listed moves are ever sent. Pure.

import { START_BOARD, applyMove, parseMove, pieceOf, indexOf, KINDS } from './board.js';

/** The moves of the start (south to move): the wasp, the tiger beetle and the back row's steps. */
export const START_LEGAL = ['a1-a2', 'b1-b2', 'c2-b2', 'c2-c3', 'e2-e3', 'e2-f2', 'f1-f2', 'g1-g2'];

/** How many plies without a capture draw the game, and from when the room warns of it. */
export const NO_CAPTURE_LIMIT = 100;
export const NO_CAPTURE_WARN = 80;

/** The view of a game not yet started or just started. */
export function startView() {
  return { game: 'insect', board: START_BOARD, to_act: 'black', phase: 'move', legal: [...START_LEGAL], last: null, no_capture: 0, repetitions: 1, ply: 0, actions: [], captured: null };
}

/** A room fresh from a snapshot: its view (a fresh one while waiting), with the side to act and phase from it. */
export function snapshot(room) {
  room.view = room.view?.game === 'insect' ? { ...startView(), ...room.view } : startView();
  if (room.to_act == null) room.to_act = room.state === 'playing' ? room.view.to_act : null;
  // The snapshot's own `phase` is `none` in the generic rooms; an insect game has the one phase.
  room.phase = room.state === 'playing' ? room.view.phase ?? 'move' : room.phase ?? null;
  return room;
}

/** How many plies the game has had: the `at` of the next action. */
export function ply(room) {
  return room.view?.ply ?? room.view?.actions?.length ?? 0;
}

/** The view after an `action` event's change (`{from, to, piece, captured, ply, no_capture, legal}`). */
export function applyChange(view, action, change, toAct) {
  const from = change.from ?? parseMove(action)?.[0];
  const to = change.to ?? parseMove(action)?.[1];
  return {
    ...view,
    board: applyMove(view.board, from, to),
    legal: change.legal || [],
    last: `${from}-${to}`,
    // What the move took (a kind's name), for the room's words; null for a quiet move.
    captured: change.captured ?? null,
    moved: change.piece ?? null,
    no_capture: change.no_capture ?? (change.captured ? 0 : (view.no_capture ?? 0) + 1),
    // The event does not say how often the new position stood; the next snapshot does.
    repetitions: null,
    ply: change.ply ?? (view.ply ?? 0) + 1,
    to_act: toAct ?? null,
    actions: [...(view.actions || []), action],
  };
}

/** Folds insect chess's part of an event into `room` (a copy of `prev`). */
export function reduce(room, prev, event) {
  switch (event.kind) {
    case 'action':
      if (event.change?.game === 'insect') room.view = { ...applyChange(prev.view, event.action, event.change, event.to_act), phase: event.phase ?? null };
      break;
    case 'game_started':
      room.view = event.view?.game === 'insect' ? { ...startView(), ...event.view } : startView();
      room.phase = 'move';
      break;
    case 'actions_taken_back':
      // The position after the takeback, with its actions and counters.
      room.view = event.view?.game === 'insect' ? { ...startView(), ...event.view, captured: null, moved: null } : prev.view;
      break;
    case 'game_over':
      room.view = { ...prev.view, to_act: null, phase: null, legal: [] };
      break;
    default:
      break;
  }
}

/**
 * Whether a takeback asked for by `colour` now would undo a move of its own: south (`black`) moves first, so it
 * has moved once one action was made, north once two were.
 */
export function canTakeBack(room, colour) {
  return ply(room) > (colour === 'black' ? 0 : 1);
}

/** Insect chess's flag for the local player: `input`, whether a move may be chosen on the board now. */
export function controls(room, you) {
  const myTurn = room.state === 'playing' && you && room.to_act === you;
  return { input: Boolean(myTurn && (room.view?.legal || []).length) };
}

/** The squares whose pieces have a listed move. */
export function movable(legal) {
  return [...new Set((legal || []).map((m) => m.split('-')[0]))];
}

/** Where the piece on `from` may go by the listed moves (a wasp's flight over the pond among them). */
export function targetsOf(from, legal) {
  return (legal || []).filter((m) => m.split('-')[0] === from).map((m) => m.split('-')[1]);
}

/**
 * One step of the input. `selected` is the square of the piece chosen so far (or null), `square` the square
 * tapped, `legal` the listed moves. Returns {selected, move}: `move` ("e2-e3") when `square` is a destination of
 * the chosen piece; else the choice made by the tap — another piece that may move, the same piece again (which
 * lets it go), or anything else (nothing chosen).
 */
export function choose(selected, square, legal) {
  if (selected && targetsOf(selected, legal).includes(square)) return { selected: null, move: `${selected}-${square}` };
  if (square === selected) return { selected: null, move: null };
  if (movable(legal).includes(square)) return { selected: square, move: null };
  return { selected: null, move: null };
}

/** The intention of a chosen move: `{t: 'act', room, action, at}`, only for a listed move. */
export function intention(room, move) {
  if (!(room.view?.legal || []).includes(move)) return null;
  return { t: 'act', room: room.id, action: move, at: ply(room) };
}

/** The side (`south`/`north`) of the seam's colour. */
export function sideOf(colour) {
  return colour === 'black' ? 'south' : colour === 'white' ? 'north' : null;
}

/** The kind of piece standing on `square` of a board text, or null. */
export function kindAt(board, square) {
  return pieceOf(board?.[indexOf(square)])?.kind ?? null;
}

/** Whether a kind's name is one of the game's (the change's `piece` and `captured`). */
export const isKind = (k) => Object.values(KINDS).includes(k);

/** The move list: numbered per move pair ("1. e2-e3 e10-e9"), south first. */
export function moveEntries(x) {
  const actions = x.view?.actions || x.moves || [];
  return actions.map((a, i) => ({ n: Math.floor(i / 2) + 1, ply: i + 1, label: i % 2 ? '…' : `${Math.floor(i / 2) + 1}.`, point: a, colour: i % 2 ? 'white' : 'black' }));
}
