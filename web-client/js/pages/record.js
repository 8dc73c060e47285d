// A game record: the finished (or live) game replayed move by move with buttons and arrow keys. The URL
// carries the move shown (#/game/ID/PLY), so a position can be shared.

import { h, mount, toast } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { accounts } from '../api.js';
import { createBoardView } from '../boardview.js';
import { resultHeadline, resultSentence } from '../result.js';
import { playerName } from '../player.js';
import { moveItems, formatUsed } from '../movelist.js';

/** The stones of a stored action list, in order: places and the chosen fifth move (a proposal lays no stone). */
export function stonesOf(moves) {
  const out = [];
  for (const m of moves || []) {
    if (typeof m === 'string') out.push(m);
    else if (m.point && !m.action) out.push(m.point);
    else if (m.action && (m.action.action === 'place' || m.action.action === 'choose_fifth')) out.push(m.action.point);
  }
  return out;
}

/**
 * What the stored actions say beyond the stones: each stone's thinking time (`used_ms` of the action that laid it)
 * and, when the players swapped colours, after how many stones. Records without actions give none of either.
 */
export function actionDetails(actions) {
  const times = [];
  let swapAfter = null;
  for (const m of actions || []) {
    const a = m?.action;
    if (!a) continue;
    if (a.action === 'place' || a.action === 'choose_fifth') times.push(typeof m.used_ms === 'number' ? m.used_ms : null);
    else if (a.action === 'decide_swap' && a.swap) swapAfter = times.length;
  }
  return { times, swapAfter };
}

/**
 * Normalises a game record from `GET /api/games/{id}` (docs/protocol.md: moves are stored actions
 * {seq, action, used_ms, at}) into {id, link, size, moves: string[], black, white, result, rules, live}. `link` is the
 * public id that names the game in URLs (the integer id does not reach private games).
 */
export function normaliseRecord(g) {
  const name = (p) => (p == null ? null : typeof p === 'string' ? p : p.name);
  const rules = g.rules || {};
  // The server sends the stones as `moves` and every action (with its clock) as `actions`; older records had the
  // actions in `moves`.
  const details = actionDetails(Array.isArray(g.actions) ? g.actions : g.moves);
  const swapAfter = details.swapAfter ?? (g.swapped ? 3 : null);
  return {
    times: details.times,
    swapAfter,
    id: g.id,
    link: g.public_id ?? g.id,
    room: g.room,
    size: rules.size || 15,
    rules,
    moves: stonesOf(Array.isArray(g.moves) && g.moves.length ? g.moves : g.actions),
    black: name(g.black),
    white: name(g.white),
    result: g.result || null,
    live: !g.result,
  };
}

/** Clamps a requested ply to the record. */
export function clampPly(ply, total) {
  if (ply == null || Number.isNaN(ply)) return total;
  return Math.max(0, Math.min(total, ply));
}

/** Mounts the record page; returns its cleanup. */
export function render(view, params) {
  let rec = null;
  let ply = 0;
  const board = createBoardView();
  const counter = h('span', { class: 'counter', id: 'ply-counter' });
  const btn = (id, label, path, fn) => {
    const b = h('button', { class: 'btn icon-btn', id, type: 'button', title: label, 'aria-label': label, onclick: fn });
    // Drawn icons: media-control characters are missing from many system fonts.
    b.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="${path}" fill="currentColor"/></svg>`;
    return b;
  };
  const go = (p) => {
    ply = clampPly(p, rec.moves.length);
    history.replaceState(null, '', href('game', { id: rec.link, ply }));
    draw();
  };
  const controls = h('div', { class: 'replay-controls' },
    btn('first', t('record.first'), 'M6 5h2v14H6zM20 5v14L9 12z', () => go(0)),
    btn('prev', t('record.prev'), 'M17 5v14L6 12z', () => go(ply - 1)),
    counter,
    btn('next', t('record.next'), 'M7 5v14l11-7z', () => go(ply + 1)),
    btn('last', t('record.last'), 'M16 5h2v14h-2zM4 5v14l11-7z', () => go(rec.moves.length)),
  );
  const head = h('div', { class: 'record-head' });
  const list = h('ol', { class: 'movelist clickable', id: 'record-moves' });
  mount(view, h('div', { class: 'room-layout record' },
    h('div', { class: 'board-col' }, board.el, controls),
    h('aside', { class: 'side-col' }, h('div', { class: 'card' }, head), h('div', { class: 'card' }, h('h3', {}, t('room.moves')), list, h('p', { class: 'muted small' }, t('record.keys')))),
  ));
  mount(head, h('p', { class: 'muted' }, t('conn.connecting')));

  function draw() {
    const last = ply === rec.moves.length;
    board.update({ size: rec.size, moves: rec.moves, upto: ply, numbers: true, winLine: last ? rec.result?.line || [] : [] });
    counter.textContent = t('record.move', { n: ply, total: rec.moves.length });
    for (const li of list.querySelectorAll('[data-ply]')) li.classList.toggle('current', Number(li.dataset.ply) === ply);
  }

  function drawHead() {
    const r = rec.result;
    const share = async () => {
      const url = `${location.origin}${location.pathname}${href('game', { id: rec.link, ply })}`;
      try {
        await navigator.clipboard.writeText(url);
        toast(t('room.copied'));
      } catch {
        toast(url);
      }
    };
    mount(head,
      h('h2', {}, t('record.title', { id: rec.id })),
      h('div', { class: 'versus' },
        h('span', { class: 'stone-icon black' }), rec.black ? playerName(rec.black) : '—',
        h('span', { class: 'muted' }, ' vs '),
        h('span', { class: 'stone-icon white' }), rec.white ? playerName(rec.white) : '—'),
      rec.rules.rule_set ? h('p', { class: 'muted' }, t(`rule.${rec.rules.rule_set}`),
        rec.rules.rule_set === 'renju' && rec.rules.forbidden_policy ? ` · ${t(`policy_long.${rec.rules.forbidden_policy}`)}` : '',
        rec.rules.opening && rec.rules.opening !== 'none' ? ` · ${t(`opening.${rec.rules.opening}`)}` : '') : null,
      rec.swapAfter != null ? h('p', { class: 'muted small', id: 'swap-note' }, t('record.swap_note', { black: rec.black || t('colour.black') })) : null,
      r
        ? h('p', { class: 'result', id: 'record-result' }, h('b', {}, resultSentence(r, { black: rec.black, white: rec.white }) || resultHeadline(r, null)))
        : h('p', { class: 'muted' }, t('record.live'), rec.room ? [' ', h('a', { href: href('room', { id: rec.room, watch: true }) }, t('record.watch_live'))] : null),
      h('button', { class: 'btn', type: 'button', onclick: share }, t('record.share')),
    );
    mount(list, moveItems(h, rec.moves, (e) => ({ onclick: () => go(e.n) }), (e) => {
      const used = formatUsed(rec.times[e.n - 1]);
      return used ? h('span', { class: 'used muted' }, used) : null;
    }));
    // The swap sits between the stones it followed, where it happened.
    if (rec.swapAfter != null) {
      const after = list.querySelector(`[data-ply="${rec.swapAfter}"]`);
      const marker = h('li', { class: 'swap-mark', id: 'swap-mark' }, h('span', { class: 'n' }, '⇄'), h('span', {}, t('record.swapped')));
      if (after) after.after(marker);
      else list.prepend(marker);
    }
  }

  const onKey = (e) => {
    if (!rec || e.target.closest?.('input, textarea, select')) return;
    const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: rec.moves.length, ArrowUp: 0, ArrowDown: rec.moves.length };
    if (e.key in keys) {
      e.preventDefault();
      go(keys[e.key]);
    }
  };
  document.addEventListener('keydown', onKey);

  accounts.game(params.id).then(
    (g) => {
      rec = normaliseRecord(g);
      ply = clampPly(params.ply, rec.moves.length);
      drawHead();
      draw();
    },
    (e) => {
      mount(head, h('p', { class: 'notice' }, e.code === 'unavailable' ? t('record.not_found') : errorText(e.code, e.message)));
    },
  );
  return () => document.removeEventListener('keydown', onKey);
}
