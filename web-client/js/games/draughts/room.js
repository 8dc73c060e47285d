// International draughts in the room page and the record page: the board (numbered dark squares, men and kings,
// the pieces that may move, the next squares of the path being chosen) with its path input, and the replay of a
// record.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { createGridView } from '../grid.js';
import { renderDraughts, geometry, squareAt, squareOnScreen, cellOf, START_BOARD } from './board.js';
import { controls, step, highlights, intention, applyMove, routeChoice } from './state.js';
import { seatOf } from '../../state.js';
import { recordTexts } from '../generic.js';

/** Whether the board is seen from Black's side: Black's player has its men at the bottom, as over a real board. */
const flipped = (room) => seatOf(room) === 'black';

/** The room page's draughts board; `ctx` as games/index.js describes it. */
export function roomBoard(ctx) {
  // The squares chosen so far of the move being made, and the moves a tap left open (the same end by two routes).
  let path = [];
  let ambiguous = null;
  const view = createGridView({
    geometry,
    label: t('draughts.board'),
    canPlay: () => {
      const room = ctx.room();
      return Boolean(room && controls(room, seatOf(room)).input);
    },
    onCell: ({ col, row }) => {
      const room = ctx.room();
      const square = squareOnScreen(col, row, flipped(room));
      if (square == null) return;
      const r = step(path, square, room.view.legal || []);
      path = r.path;
      ambiguous = r.ambiguous || null;
      if (r.move) ctx.send(intention(room, r.move)).catch(() => {});
      ctx.redraw();
    },
    // A click on a drawn route is that move, except on a square the path may go to next or end on: the routes
    // pass through those, and a player clicking the squares in order means the square.
    onPick: (el, cell) => {
      const room = ctx.room();
      const legal = room.view.legal || [];
      const square = cell ? squareOnScreen(cell.col, cell.row, flipped(room)) : null;
      const marks = highlights(path, legal);
      if (square != null && (marks.targets.includes(square) || marks.ends.includes(square))) return false;
      const move = routeChoice(path, legal, el.dataset.move);
      if (!move) return false;
      path = [];
      ambiguous = null;
      ctx.send(intention(room, move)).catch(() => {});
      ctx.redraw();
    },
  });
  return {
    el: view.el,
    /** Draws the room's position with the path input's highlights for the player to move. */
    draw(room, c) {
      const v = room.view;
      const marks = c.input ? highlights(path, v.legal || []) : { movable: [], targets: [], ends: [], routes: [] };
      view.update((cursor) => renderDraughts({ board: v.board, last: v.last, path: c.input ? path : [], ...marks, cursor, flipped: flipped(room), title: t('draughts.board') }));
    },
    /** A new ply or another side to act drops a half-chosen path. */
    changed(before, after) {
      if (!before || before.view?.ply !== after.view?.ply || before.to_act !== after.to_act) {
        path = [];
        ambiguous = null;
      }
    },
    promptKey: () => [path, ambiguous],
    /** Each side's pieces by its clock: men and kings. */
    seatExtra(room, colour) {
      const board = room.view?.board || '';
      const men = [...board].filter((c) => c === colour[0]).length;
      const kings = [...board].filter((c) => c === colour[0].toUpperCase()).length;
      return h('span', { class: 'disc-count', dataset: { pieces: colour }, title: t('draughts.pieces', { men, kings }) }, String(men + kings));
    },
    /** While a path is being chosen: which squares are chosen, and a word when a tap left two routes open. */
    prompts(room, c) {
      if (!c.input || !path.length) return { lead: null, extra: [] };
      const routes = highlights(path, room.view.legal || []).routes;
      return {
        lead: h('div', { class: 'ask', id: 'path-prompt' }, h('p', {}, t('draughts.path', { path: path.join('–') })),
          routes.length > 1 ? h('p', { id: 'routes-hint' }, t('draughts.routes', { n: routes.length })) : null,
          routes.length > 1 ? h('div', { class: 'buttons route-buttons' }, routes.map((m, i) => h('button', { class: `btn route-btn route-${i % 4}`, dataset: { move: m.move }, onclick: () => {
            path = [];
            ambiguous = null;
            ctx.send(intention(room, m)).catch(() => {});
            ctx.redraw();
          } }, m.move))) : null,
          ambiguous ? h('p', { class: 'muted' }, t('draughts.ambiguous', { moves: ambiguous.map((m) => m.move).join(', ') })) : null,
          h('button', { class: 'btn', id: 'path-clear', onclick: () => { path = []; ambiguous = null; ctx.redraw(); } }, t('draughts.clear'))),
        extra: [],
      };
    },
  };
}

/**
 * The board after the first `ply` moves of a record (texts `32-28`, `28x19x10`): a capture's taken pieces are
 * the ones on the diagonal between each two squares of its path.
 */
export function replay(actions, ply) {
  let board = START_BOARD;
  let last = null;
  for (let i = 0; i < ply && i < actions.length; i++) {
    const path = String(actions[i]).split(/[-x]/).map(Number);
    if (path.some((n) => !(n >= 1 && n <= 50))) break;
    const captured = String(actions[i]).includes('x') ? capturedAlong(board, path) : [];
    const to = path[path.length - 1];
    const piece = board[path[0] - 1];
    const crowned = (piece === 'w' && to <= 5) || (piece === 'b' && to >= 46);
    board = applyMove(board, path, captured, crowned);
    last = path;
  }
  return { board, last };
}

/** The occupied squares strictly between each two consecutive squares of a capture path. */
export function capturedAlong(board, path) {
  const out = [];
  for (let i = 1; i < path.length; i++) {
    const a = cellOf(path[i - 1]);
    const b = cellOf(path[i]);
    const dc = Math.sign(b.col - a.col);
    const dr = Math.sign(b.row - a.row);
    for (let c = a.col + dc, r = a.row + dr; c !== b.col && r !== b.row; c += dc, r += dr) {
      const n = squareAt(c, r);
      if (n != null && board[n - 1] !== '.' && !out.includes(n)) out.push(n);
    }
  }
  return out;
}

/** A record of a draughts game: the move texts of the stored game. */
export function normaliseRecord(g) {
  const name = (p) => (p == null ? null : typeof p === 'string' ? p : p.name);
  const texts = recordTexts(g);
  const times = (Array.isArray(g.actions) ? g.actions : []).map((m) => (typeof m?.used_ms === 'number' ? m.used_ms : null));
  return { game: 'draughts', spec: g.game, id: g.id, link: g.public_id ?? g.id, room: g.room, moves: texts, times, swapAfter: null, black: name(g.black), white: name(g.white), players: { black: g.black ?? null, white: g.white ?? null }, result: g.result || null, live: !g.result };
}

/** The record page's draughts board. */
export function recordBoard() {
  const view = createGridView({ geometry, label: t('draughts.board') });
  return {
    el: view.el,
    /** Shows the position after `ply` moves. */
    show(rec, ply) {
      const p = replay(rec.moves, ply);
      view.update(() => renderDraughts({ board: p.board, last: p.last, title: t('draughts.board') }));
    },
  };
}
