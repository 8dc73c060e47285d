// Insect chess in the room page and the record page: the board (terrain, pieces, the chosen piece's destinations,
// the last move) turned half round for north's player, its input (a piece, then a destination), the prompt
// (whose move it is as South or North, the last move, the no-capture count near its limit), the pieces each side
// has taken by its clock, and the replay of a record.

import { h } from '../../dom.js';
import { t, lang } from '../../i18n.js';
import { seatOf } from '../../state.js';
import { displayName } from '../../player.js';
import { recordTexts } from '../generic.js';
import { createGridView } from '../grid.js';
import { renderInsect, geometry, squareOnScreen, START_BOARD, applyMove, parseMove, lostKinds, KIND_ORDER, GLYPH } from './board.js';
import { controls, choose, intention, movable, targetsOf, sideOf, kindAt, NO_CAPTURE_WARN, NO_CAPTURE_LIMIT } from './state.js';

/** Whether the board is seen from north's side: north's player (`white`) has its pieces at the bottom. */
export const flippedFor = (room) => seatOf(room) === 'white';

/** The words the drawing needs in the page's language: kinds' names, the terrain's hover texts, the glyph. */
export function drawingWords() {
  return {
    names: Object.fromEntries(KIND_ORDER.map((k) => [k, t(`insect.kind.${k}`)])),
    terrainNames: { pond: t('insect.pond'), food_south: t('insect.food_south'), food_north: t('insect.food_north'), mud_south: t('insect.mud_south'), mud_north: t('insect.mud_north') },
    // Chinese readers get the insect's character large, others its letter (the other one small beside it).
    glyph: lang() === 'zh' ? 'char' : 'letter',
  };
}

/**
 * The shared grid view (games/grid.js) on insect chess's 7×11 board, which is taller than wide: the keyboard's
 * cursor starts on the bottom player's second rank.
 */
function insectView(options) {
  return createGridView({ geometry, className: 'insect-board', startCursor: (g) => ({ col: Math.floor(g.cols / 2), row: g.rows - 2 }), ...options });
}

/** A side's word ("South") from the seam's colour. */
export const sideWord = (colour) => t(`insect.${sideOf(colour) || 'south'}`);

/** The room page's insect board; `ctx` as games/index.js describes it. */
export function roomBoard(ctx) {
  // The square of the piece chosen, before its destination is.
  let selected = null;
  const view = insectView({
    label: t('insect.board'),
    canPlay: () => {
      const room = ctx.room();
      return Boolean(room && controls(room, seatOf(room)).input);
    },
    onCell: ({ col, row }) => {
      const room = ctx.room();
      const square = squareOnScreen(col, row, flippedFor(room));
      if (!square) return;
      const r = choose(selected, square, room.view.legal || []);
      selected = r.selected;
      if (r.move) {
        const intent = intention(room, r.move);
        if (intent) ctx.send(intent).catch(() => {});
      }
      ctx.redraw();
    },
  });
  return {
    el: view.el,
    /** Draws the position; the player to move sees the pieces that may move, then the chosen one's destinations. */
    draw(room, c) {
      const v = room.view;
      const legal = c.input ? v.legal || [] : [];
      view.update((cursor) => renderInsect({
        board: v.board, last: v.last, flipped: flippedFor(room), title: t('insect.board'), cursor, ...drawingWords(),
        selected: c.input ? selected : null,
        targets: c.input && selected ? targetsOf(selected, legal) : [],
        movable: c.input && !selected ? movable(legal) : [],
      }));
      relabelHeadline(room);
    },
    /** A new ply or another side to act drops a half-chosen move. */
    changed(before, after) {
      if (!before || before.view?.ply !== after.view?.ply || before.to_act !== after.to_act) selected = null;
    },
    promptKey: (room) => [selected, room.view?.last, room.view?.no_capture, room.view?.ply],
    /** The pieces each side has taken so far, by its clock. */
    seatExtra(room, colour) {
      const lost = lostKinds(room.view?.board || START_BOARD);
      const taken = lost[sideOf(colour) === 'south' ? 'north' : 'south'];
      return capturedList(colour, taken);
    },
    /** Whose move it is, as South or North; the chosen piece; the last move; the no-capture count near 100. */
    prompts(room, c, you) {
      if (room.state !== 'playing') return { lead: null, extra: [] };
      const v = room.view;
      let lead;
      if (c.input && selected) {
        const kind = kindAt(v.board, selected);
        lead = h('p', { class: 'lead turn', id: 'insect-prompt' }, t('insect.chosen', { kind: t(`insect.kind.${kind}`), square: selected, n: targetsOf(selected, v.legal).length }));
      } else if (c.myTurn) {
        lead = h('p', { class: 'lead turn', id: 'insect-prompt' }, t('insect.your_move', { side: sideWord(you) }));
      } else if (room.to_act) {
        const seat = room.seats[room.to_act];
        lead = h('p', { class: 'lead', id: 'insect-prompt' }, you && seat
          ? t('insect.waiting_for', { name: displayName(seat), side: sideWord(room.to_act) })
          : t('insect.to_move', { side: sideWord(room.to_act) }));
      }
      const extra = [];
      const lastLine = lastMoveWords(v);
      if (lastLine) extra.push(h('p', { class: 'muted small', id: 'insect-last' }, lastLine));
      if ((v.no_capture ?? 0) >= NO_CAPTURE_WARN) {
        extra.push(h('p', { class: 'notice insect-no-capture', id: 'insect-no-capture' }, t('insect.no_capture', { n: v.no_capture, limit: NO_CAPTURE_LIMIT })));
      }
      return { lead, extra };
    },
  };
}

/**
 * The game-over headline a spectator reads is the room page's shared "Black wins"; in this game the sides are
 * South and North, so it is reworded here (the room page draws the board just after its prompt).
 */
function relabelHeadline(room) {
  if (room.state !== 'over' || seatOf(room) || !room.result?.winner || typeof document === 'undefined') return;
  const head = document.querySelector('#game-over .go-head');
  const text = t('insect.wins', { side: sideWord(room.result.winner) });
  if (head && head.textContent !== text) head.textContent = text;
}

/** The last move in words: "Last: South wasp e4-e8", with what it took. */
export function lastMoveWords(v) {
  const mv = parseMove(v?.last);
  if (!mv) return '';
  const kind = v.moved || kindAt(v.board, mv[1]);
  if (!kind) return '';
  const ply = v.ply ?? v.actions?.length ?? 0;
  const side = t(`insect.${ply % 2 ? 'south' : 'north'}`);
  const args = { side, kind: t(`insect.kind.${kind}`), move: v.last };
  return v.captured ? t('insect.last_capture', { ...args, taken: t(`insect.kind.${v.captured}`) }) : t('insect.last_move', args);
}

/** The enemy pieces a side took, as small tokens of the enemy's colour. */
function capturedList(colour, kinds) {
  const enemy = sideOf(colour) === 'south' ? 'north' : 'south';
  const list = kinds.length ? kinds.map((k) => t(`insect.kind.${k}`)).join(', ') : t('insect.none_taken');
  return h('span', { class: 'insect-taken', dataset: { taken: colour }, title: t('insect.captured_by', { side: sideWord(colour), list }) },
    kinds.map((k) => h('span', { class: `taken-piece ${enemy}`, dataset: { kind: k } }, GLYPH[k])));
}

/** The board after the first `ply` moves of a record, with the last one. */
export function replay(actions, ply) {
  let board = START_BOARD;
  let last = null;
  for (let i = 0; i < ply && i < actions.length; i++) {
    const mv = parseMove(actions[i]);
    if (!mv) break;
    board = applyMove(board, mv[0], mv[1]);
    last = actions[i];
  }
  return { board, last };
}

/** A record of an insect game: the move texts of the stored game. */
export function normaliseRecord(g) {
  const name = (p) => (p == null ? null : typeof p === 'string' ? p : p.name);
  const texts = recordTexts(g);
  const times = (Array.isArray(g.actions) ? g.actions : []).map((m) => (typeof m?.used_ms === 'number' ? m.used_ms : null));
  return { game: 'insect', spec: g.game, id: g.id, link: g.public_id ?? g.id, room: g.room, moves: texts, times, swapAfter: null, black: name(g.black), white: name(g.white), players: { black: g.black ?? null, white: g.white ?? null }, result: g.result || null, live: !g.result };
}

/** The record page's insect board, south at the bottom. */
export function recordBoard() {
  const view = insectView({ label: t('insect.board') });
  return {
    el: view.el,
    /** Shows the position after `ply` moves. */
    show(rec, ply) {
      const p = replay(rec.moves, ply);
      view.update(() => renderInsect({ board: p.board, last: p.last, title: t('insect.board'), ...drawingWords() }));
    },
  };
}
