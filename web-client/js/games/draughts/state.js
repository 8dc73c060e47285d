// International draughts' part of the client-side room: the view a snapshot carries (`view`: the 50 squares,
// the side to act, the legal moves as paths, the draw counters, the ply) and the changes of `action` events folded
// into it; and the path input model: a tap on a piece, then on squares along its path, one step at a time for a
// capture of several, until the squares chosen are one listed move. Pure.

import { START_BOARD } from './board.js';

/** The view of a game not yet started or just started (White to move, the 9 opening moves listed). */
export function startView() {
  const opening = [[31, 26], [31, 27], [32, 27], [32, 28], [33, 28], [33, 29], [34, 29], [34, 30], [35, 30]];
  const legal = opening.map(([a, b]) => ({ move: `${a}-${b}`, path: [a, b], captured: [], crowned: false }));
  return { game: 'draughts', board: START_BOARD, to_act: 'white', legal, counters: { king_plies: 0, endgame: null, repetitions: 1 }, ply: 0, actions: [] };
}

/** A room fresh from a snapshot: its view (a fresh one while waiting), with the side to act from it. */
export function snapshot(room) {
  room.view = room.view?.game === 'draughts' ? { ...startView(), ...room.view } : startView();
  if (room.to_act == null) room.to_act = room.state === 'playing' ? room.view.to_act : null;
  // The snapshot's own `phase` is `none` in these rooms; a draughts game has the one phase.
  room.phase = room.state === 'playing' ? 'move' : room.phase ?? null;
  return room;
}

/** How many plies the game has had: the `at` of the next action. */
export function ply(room) {
  return room.view?.ply ?? room.view?.actions?.length ?? 0;
}

/** The board after a move: the piece goes from the path's first square to its last, the captured go, a man may crown. */
export function applyMove(board, path, captured = [], crowned = false) {
  const cells = board.split('');
  const from = path[0] - 1;
  const to = path[path.length - 1] - 1;
  let piece = cells[from];
  cells[from] = '.';
  for (const c of captured) cells[c - 1] = '.';
  if (crowned) piece = piece.toUpperCase();
  cells[to] = piece;
  return cells.join('');
}

/** Folds draughts' part of an event into `room` (a copy of `prev`). */
export function reduce(room, prev, event) {
  switch (event.kind) {
    case 'action': {
      const ch = event.change;
      if (ch?.game !== 'draughts') break;
      const v = prev.view;
      room.view = {
        ...v,
        board: applyMove(v.board, ch.path, ch.captured, ch.crowned),
        legal: ch.legal || [],
        counters: ch.counters ?? v.counters,
        ply: ch.ply ?? v.ply + 1,
        to_act: event.to_act ?? null,
        last: ch.path,
        actions: [...(v.actions || []), event.action],
      };
      break;
    }
    case 'game_started':
      room.view = event.view?.game === 'draughts' ? { ...startView(), ...event.view } : startView();
      room.phase = 'move';
      break;
    case 'actions_taken_back':
      room.view = event.view?.game === 'draughts' ? { ...startView(), ...event.view, last: null } : prev.view;
      break;
    case 'game_over':
      room.view = { ...prev.view, to_act: null, legal: [] };
      break;
    default:
      break;
  }
}

/**
 * Whether a takeback asked for by `colour` now would undo a move of its own: White moves first, so White has
 * moved once one action was made, Black once two were.
 */
export function canTakeBack(room, colour) {
  return ply(room) > (colour === 'white' ? 0 : 1);
}

/** Draughts' flag for the local player: `input`, whether a move may be chosen on the board now. */
export function controls(room, you) {
  const myTurn = room.state === 'playing' && you && room.to_act === you;
  return { input: Boolean(myTurn && (room.view?.legal || []).length) };
}

/**
 * One step of the path input. `path` holds the squares chosen so far; `square` is tapped; `legal` the listed
 * moves. Returns {path, move}: `move` the listed move (its notation in `move.move`) once the squares chosen are
 * exactly one listed path, or once `square` ends exactly one candidate (the unambiguous short form); else null,
 * with the path grown by a step some candidate takes, or restarted on another piece that may move, or emptied.
 */
export function step(path, square, legal) {
  const starts = new Set(legal.map((m) => m.path[0]));
  if (!path.length) return { path: starts.has(square) ? [square] : [], move: null };
  const prefix = (m, p) => p.every((s, i) => m.path[i] === s);
  const candidates = legal.filter((m) => prefix(m, path));
  const next = [...path, square];
  const along = candidates.filter((m) => prefix(m, next));
  if (along.length) {
    const done = along.filter((m) => m.path.length === next.length);
    if (done.length === 1 && along.length === 1) return { path: [], move: done[0] };
    return { path: next, move: null };
  }
  const ending = candidates.filter((m) => m.path[m.path.length - 1] === square);
  if (ending.length === 1) return { path: [], move: ending[0] };
  if (ending.length > 1) return { path, move: null, ambiguous: ending };
  if (square === path[0]) return { path: [], move: null };
  return { path: starts.has(square) ? [square] : [], move: null };
}

/** The listed moves that go through the squares chosen so far, in order. */
export function candidates(path, legal) {
  return legal.filter((m) => path.every((s, i) => m.path[i] === s));
}

/**
 * What the board highlights for a path being chosen: the pieces that may move (nothing chosen yet), else the
 * next squares of the path (`targets`), the squares the piece can end on (`ends`) and, when they are captures,
 * the routes to draw (`routes`: the candidate moves themselves, so a click on one is that move).
 */
export function highlights(path, legal) {
  if (!path.length) return { movable: [...new Set(legal.map((m) => m.path[0]))], targets: [], ends: [], routes: [] };
  const c = candidates(path, legal);
  return {
    movable: [],
    targets: [...new Set(c.map((m) => m.path[path.length]).filter((s) => s != null))],
    ends: [...new Set(c.map((m) => m.path[m.path.length - 1]))],
    routes: c.filter((m) => m.captured.length > 0),
  };
}

/**
 * The move a click on a drawn route means: the listed move of that notation among those the chosen squares
 * still allow, or null (a stale drawing).
 */
export function routeChoice(path, legal, notation) {
  return candidates(path, legal).find((m) => m.move === notation) || null;
}

/** The intention of a chosen move: `{t: 'act', room, action, at}` with the listed notation. */
export function intention(room, move) {
  return { t: 'act', room: room.id, action: move.move, at: ply(room) };
}

/**
 * The move list: numbered per move pair as draughts scores it ("1. 32-28 19-23"), White first, Black's reply
 * beside it with no number of its own.
 */
export function moveEntries(x) {
  const actions = x.view?.actions || x.moves || [];
  return actions.map((a, i) => ({ n: Math.floor(i / 2) + 1, ply: i + 1, label: i % 2 ? '' : `${Math.floor(i / 2) + 1}.`, point: a, colour: i % 2 ? 'black' : 'white' }));
}

/** The record's counter in draughts' own count: the move pair and whose half of it ("Move 4, Black — 20 moves"). */
export function counterText(ply, total, t) {
  const moves = Math.ceil(total / 2);
  if (ply === 0) return t('draughts.counter_start', { total: moves });
  return t('draughts.counter', { n: Math.ceil(ply / 2), side: t(ply % 2 ? 'colour.white' : 'colour.black'), total: moves });
}
