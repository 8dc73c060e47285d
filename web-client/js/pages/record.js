// A game record: the finished (or live) game replayed move by move with buttons and arrow keys. The URL
// carries the move shown (#/game/ID/PLY), so a position can be shared.

import { h, mount, toast } from '../dom.js';
import { t, errorText, formatDate } from '../i18n.js';
import { describeTimeControl } from '../clock.js';
import { href } from '../router.js';
import { accounts, exportUrl } from '../api.js';
import { memberOf, seatIcon } from '../games/index.js';
import { resultHeadline, resultSentence } from '../result.js';
import { playerName, displayName } from '../player.js';
import { gameName } from '../games/index.js';
import { entryItems, formatUsed } from '../movelist.js';
import { importControl, storeAnalysis } from './analysis.js';
import { analysisPanel } from '../analysis/panel.js';

/**
 * The downloads a record offers (issue #18): the game's own (Gomoku's `.psq` for Piskvork and RenLib's move
 * text) and every game's readable record. Each is `[format, file name, label key]`.
 */
export function downloadChoices(link, game) {
  const own = (memberOf(game).downloads || []).map(([format, suffix, key]) => [format, `${link}${suffix}`, key]);
  return [...own, ['text', `${link}.record.txt`, 'records.text']];
}

/** The export link of a game that has one (its usual text form: a move list, PDN), named by its format. */
function exportLink(rec) {
  const format = memberOf(rec).exportFormat;
  if (rec.link == null || !format) return null;
  return h('a', { class: 'btn export-link', id: 'record-export', href: exportUrl(rec.link), download: `${rec.link}.${format.extension}` },
    t('record.export', { format: t(format.labelKey) }));
}

/** The record's download links, "Analyse" (the moves on the analysis board) and "Import .psq", for a game it reads. */
function downloads(rec, game, app) {
  const links = downloadChoices(rec.link, game).map(([format, file, key]) =>
    h('a', { class: 'btn small export-link', href: `${exportUrl(rec.link)}?format=${format}`, download: file, dataset: { format } }, t(key)));
  const member = memberOf(game);
  const analysable = Boolean(member.analysable);
  const analyse = analysable
    ? h('button', { class: 'btn small', type: 'button', id: 'record-analyse', onclick: () => {
        const ply = clampPly(currentPly(), rec.moves.length);
        const title = t('record.title', { id: rec.id });
        storeAnalysis(member.importsPsq
          ? { size: rec.size || 15, moves: rec.moves, title, rule_set: rec.rules?.rule_set || 'renju', ply }
          : { game: member.name, moves: rec.moves, title, ply });
        app?.navigate(href('analysis'));
      } }, t('analysis.open'))
    : null;
  return h('div', { class: 'downloads', id: 'record-downloads' },
    h('span', { class: 'muted small' }, t('records.download')), links, analyse, member.importsPsq && app ? importControl(app.navigate, { small: true }) : null);
}

/** The opening as the players decided it (Gomoku's swaps, declarations and offers with who made them). */
function openingList(rec) {
  const lines = memberOf(rec).openingLines?.(rec, t) || [];
  if (!lines.length) return null;
  return h('div', { class: 'opening-notes', id: 'record-opening' },
    h('h3', {}, t('record.op.title')),
    h('ol', {}, lines.map((line) => h('li', {}, line))));
}

// The ply shown, for "Analyse" to open the same position.
let currentPly = () => null;

/**
 * Normalises a game record from `GET /api/games/{id}` as its game's member reads it (Gomoku's: docs/protocol.md,
 * moves are stored actions {seq, action, used_ms, at}) into {id, link, moves, black, white, result, live, …}.
 * `link` is the public id that names the game in URLs (the integer id does not reach private games).
 */
export function normaliseRecord(g) {
  return memberOf(g).normaliseRecord(g);
}

/** Clamps a requested ply to the record. */
export function clampPly(ply, total) {
  if (ply == null || Number.isNaN(ply)) return total;
  return Math.max(0, Math.min(total, ply));
}

/** Mounts the record page; returns its cleanup. */
export function render(view, params, app) {
  let rec = null;
  let ply = 0;
  // The game's board comes with the record; until then an empty frame holds its place.
  let board = { el: h('div', { class: 'board-wrap' }), show() {} };
  const counter = h('span', { class: 'counter', id: 'ply-counter' });
  const btn = (id, label, path, fn) => {
    const b = h('button', { class: 'btn icon-btn', id, type: 'button', title: label, 'aria-label': label, onclick: fn });
    // Drawn icons: media-control characters are missing from many system fonts.
    b.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="${path}" fill="currentColor"/></svg>`;
    return b;
  };
  currentPly = () => ply;
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
  // The computer analysis (issue #33): asked for here, shown under the board once stored.
  const analysis = analysisPanel({ go: (p) => go(p), marksIn: list });
  mount(view, h('div', { class: 'room-layout record' },
    h('div', { class: 'board-col' }, board.el, controls, analysis.graphEl),
    h('aside', { class: 'side-col' }, h('div', { class: 'card' }, head), analysis.el, h('div', { class: 'card' }, h('h3', {}, t('room.moves')), list, h('p', { class: 'muted small' }, t('record.keys')))),
  ));
  mount(head, h('p', { class: 'muted' }, t('conn.connecting')));

  function draw() {
    board.show(rec, ply);
    const own = memberOf(rec).counterText;
    counter.textContent = own ? own(ply, rec.moves.length, t) : t('record.move', { n: ply, total: rec.moves.length });
    for (const li of list.querySelectorAll('[data-ply]')) li.classList.toggle('current', Number(li.dataset.ply) === ply);
    analysis.show(rec, ply);
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
    // The players as the record names them (objects carry the computer's flag, so it shows by its label).
    const who = (colour) => rec.players?.[colour] ?? rec[colour];
    const names = { black: displayName(who('black')) || undefined, white: displayName(who('white')) || undefined };
    const game = gameName(rec);
    mount(head,
      h('h2', {}, t('record.title', { id: rec.id })),
      h('div', { class: 'versus' },
        seatIcon(rec, 'black'), who('black') ? playerName(who('black')) : '—',
        h('span', { class: 'muted' }, ' vs '),
        seatIcon(rec, 'white'), who('white') ? playerName(who('white')) : '—'),
      rec.described ? h('p', { class: 'muted' }, rec.described) : null,
      h('p', { class: 'muted small', id: 'record-meta' }, [
        t(rec.meta.rated ? 'create.rated' : 'create.casual'),
        rec.meta.time_control ? describeTimeControl(rec.meta.time_control, t) : null,
        rec.meta.started_at ? formatDate(rec.meta.started_at) : null,
      ].filter(Boolean).join(' · ')),
      openingList(rec),
      rec.swapAfter != null ? h('p', { class: 'muted small', id: 'swap-note' }, t('record.swap_note', { black: rec.black || t('colour.black') })) : null,
      r
        ? h('p', { class: 'result', id: 'record-result' }, h('b', {}, memberOf(rec).resultSentence(r, names) || resultSentence(r, names) || resultHeadline(r, null)))
        : h('p', { class: 'muted' }, t('record.live'), rec.room ? [' ', h('a', { href: href('room', { id: rec.room, watch: true }) }, t('record.watch_live'))] : null),
      rec.transcript ? h('p', { class: 'transcript', id: 'record-transcript', title: t(memberOf(rec).transcriptKey || 'room.moves') }, rec.transcript) : null,
      h('div', { class: 'buttons' },
        h('button', { class: 'btn', type: 'button', onclick: share }, t('record.share')),
        exportLink(rec)),
      rec.link != null ? downloads(rec, game, app) : null,
    );
    list.dataset.game = gameName(rec);
    mount(list, entryItems(h, memberOf(rec).moveEntries(rec), (e) => ({ onclick: () => go(e.ply ?? e.n) }), (e) => {
      const used = formatUsed(rec.times?.[(e.ply ?? e.n) - 1]);
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
      rec.meta = { rated: Boolean(g.rated), time_control: g.time_control, started_at: g.started_at };
      const member = memberOf(rec);
      rec.described = member.describe(rec);
      const next = member.recordBoard();
      board.el.replaceWith(next.el);
      board = next;
      ply = clampPly(params.ply, rec.moves.length);
      drawHead();
      draw();
      if (rec.link != null && !rec.live) analysis.load(rec);
    },
    (e) => {
      mount(head, h('p', { class: 'notice' }, e.code === 'unavailable' ? t('record.not_found') : errorText(e.code, e.message)));
    },
  );
  return () => {
    document.removeEventListener('keydown', onKey);
    analysis.stop();
  };
}
