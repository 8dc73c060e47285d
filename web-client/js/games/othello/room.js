// Othello in the room page and the record page: the board (discs, legal-move dots, the last move, the counts)
// with its input (a tap or Enter on a legal square plays it), the pass prompt, and the replay of a record.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { createGridView } from '../grid.js';
import { renderOthello, geometry, squareAt, indexOf, play, START_BOARD } from './board.js';
import { intention, controls, passNotice, transcript } from './state.js';
import { seatOf } from '../../state.js';
import { displayName } from '../../player.js';
import { recordTexts } from '../generic.js';

const act = (ctx, intent) => {
  if (intent) ctx.send(intent).catch(() => {});
};

/** How long the discs a move turned over are drawn turning (the CSS animation's length, and a little more). */
const FLIP_MS = 700;

/** The room page's Othello board; `ctx` as games/index.js describes it. */
export function roomBoard(ctx) {
  // The discs the last move turned over, drawn turning until `until` (a later redraw, such as the forced pass that
  // follows at once, keeps them turning).
  let anim = { squares: [], until: 0 };
  const view = createGridView({
    geometry,
    label: t('othello.board'),
    canPlay: () => {
      const room = ctx.room();
      return Boolean(room && controls(room, seatOf(room)).input);
    },
    onCell: ({ col, row }) => act(ctx, intention(ctx.room(), squareAt(col, row))),
  });
  return {
    el: view.el,
    /** Draws the room's position; the legal squares are dotted for the player to move. */
    draw(room, c) {
      const v = room.view;
      const flipped = performance.now() < anim.until ? anim.squares : [];
      view.update((cursor) => renderOthello({
        board: v.board, black: v.black, white: v.white, last: v.last, title: t('othello.board'), flipped,
        legal: c.input ? v.legal : [],
        cursor: cursor ? squareAt(cursor.col, cursor.row) : null,
      }));
    },
    /** A new disc starts its flips' animation; a takeback or a snapshot shows the position still. */
    changed(before, after) {
      const n = after.view?.actions?.length ?? 0;
      const grew = before && before.view && n === (before.view.actions?.length ?? 0) + 1;
      if (grew && after.view.flipped?.length) anim = { squares: after.view.flipped, until: performance.now() + FLIP_MS };
      else if (!grew) anim = { squares: [], until: 0 };
    },
    promptKey: (room) => [room.view?.last, room.view?.black, room.view?.white, room.view?.actions?.length],
    /**
     * The pass, when the player to act has no move (the room takes it at once, so the button shows only if it has
     * not yet); after a pass, a notice saying who had no move and who plays again.
     */
    prompts(room, c) {
      const extra = [];
      const p = room.state === 'playing' ? passNotice(room) : null;
      if (p) {
        const name = (colour) => room.seats[colour] ? displayName(room.seats[colour]) : t(`colour.${colour}`);
        extra.push(h('p', { class: 'notice pass-notice', id: 'pass-notice', dataset: { passer: p.passer } },
          t('othello.passed', { passer: name(p.passer), next: name(p.next) })));
      }
      if (!c.pass) return { lead: null, extra };
      return {
        lead: h('div', { class: 'ask', id: 'pass-prompt' }, h('p', {}, t('othello.no_move')),
          h('button', { class: 'btn primary', id: 'pass', onclick: () => act(ctx, intention(room, 'pass')) }, t('othello.pass'))),
        extra,
      };
    },
    /** The disc count shown by each player's clock. */
    seatExtra(room, colour) {
      const n = room.view?.[colour];
      return n == null ? null : h('span', { class: 'disc-count', dataset: { discs: colour }, title: t('othello.discs', { n }) }, String(n));
    },
  };
}

/** A record of an Othello game: the action texts of the stored game, replayed from the start. */
export function normaliseRecord(g) {
  const name = (p) => (p == null ? null : typeof p === 'string' ? p : p.name);
  const texts = recordTexts(g);
  const times = (Array.isArray(g.actions) ? g.actions : []).map((m) => (typeof m?.used_ms === 'number' ? m.used_ms : null));
  return { game: 'othello', spec: g.game, id: g.id, link: g.public_id ?? g.id, room: g.room, moves: texts, times, swapAfter: null, black: name(g.black), white: name(g.white), players: { black: g.black ?? null, white: g.white ?? null }, result: g.result || null, live: !g.result, transcript: transcript(texts) };
}


/** The board after the first `ply` actions of a record, with the last one marked. */
export function replay(actions, ply) {
  let board = START_BOARD;
  for (let i = 0; i < ply && i < actions.length; i++) board = play(board, actions[i], i % 2 ? 'white' : 'black');
  return { board, last: ply > 0 ? actions[ply - 1] : null };
}

/** The record page's Othello board. */
export function recordBoard() {
  const view = createGridView({ geometry, label: t('othello.board') });
  return {
    el: view.el,
    /** Shows the position after `ply` actions. */
    show(rec, ply) {
      const p = replay(rec.moves, ply);
      view.update(() => renderOthello({ board: p.board, last: indexOf(p.last) >= 0 ? p.last : null, title: t('othello.board') }));
    },
  };
}
