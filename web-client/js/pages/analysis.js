// The analysis board (issue #18): a record imported from a `.psq` file (or opened from a game's record) on a local
// board where anyone steps through the moves and plays variations from any position, with black's forbidden
// points shown under renju. Nothing goes to the server but the import itself and, when the user turns the engine
// on (issue #33), the position shown for the engine to evaluate.

import { h, mount, toast } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { moveItems } from '../movelist.js';
import { createBoardView } from '../games/gomoku/view.js';
import { enginePanel } from '../analysis/engine.js';
import { start, goTo, goToMain, goToVariation, play, playMove, backToMain, onVariation, variationOf, stonesAt, toPlay, forbiddenAt, winLine } from '../analysis/line.js';
import { memberOf, colourWord } from '../games/index.js';
import { api } from '../api.js';

const KEY = 'gomoku.analysis';

/** The rule set an imported board opens under: renju on 15×15 (its only board), freestyle on any other. */
export function importedRuleSet(size) {
  return size === 15 ? 'renju' : 'freestyle';
}

/**
 * Keeps the record to analyse for the page (a reload finds it again): {size, moves, title, rule_set, ply} for
 * Gomoku, {game, moves, title, ply} for any other game (its moves in the game's notation).
 */
export function storeAnalysis(rec, storage = globalThis.sessionStorage) {
  try {
    storage?.setItem(KEY, JSON.stringify(rec));
  } catch {
    // Too big or refused: the page then says there is nothing to show.
  }
}

function loadAnalysis(storage = globalThis.sessionStorage) {
  try {
    const r = JSON.parse(storage?.getItem(KEY) || 'null');
    return r && Array.isArray(r.moves) ? r : null;
  } catch {
    return null;
  }
}

/** Reads a `.psq` file the player chose, has the server read it, and opens the analysis board on it. */
export async function importPsq(file, navigate) {
  const text = await file.text();
  let res;
  try {
    res = await fetch('/api/import/psq', { method: 'POST', body: text, headers: { 'content-type': 'text/plain; charset=utf-8', accept: 'application/json' } });
  } catch {
    throw Object.assign(new Error('network'), { code: 'network' });
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) throw Object.assign(new Error(body?.message || `HTTP ${res.status}`), { code: body?.code || `http_${res.status}` });
  storeAnalysis({ size: body.size, moves: body.moves, title: file.name, rule_set: importedRuleSet(body.size) });
  // Already on the analysis board: route the same address again to show the new record.
  if (location.hash === href('analysis')) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else navigate(href('analysis'));
}

/** An "Import .psq" control: a button that opens the file chooser; errors are shown translated. */
export function importControl(navigate, { small = false } = {}) {
  const input = h('input', { type: 'file', accept: '.psq,text/plain', id: 'psq-file', class: 'visually-hidden', 'aria-label': t('analysis.import') });
  const err = h('span', { class: 'form-error small', role: 'alert', id: 'psq-error' });
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    err.textContent = '';
    if (!file) return;
    try {
      await importPsq(file, navigate);
    } catch (e) {
      err.textContent = errorText(e.code, e.message);
    } finally {
      input.value = '';
    }
  });
  return h('span', { class: 'import-psq' },
    input,
    h('button', { class: `btn${small ? ' small' : ''}`, type: 'button', id: 'import-psq', onclick: () => input.click() }, t('analysis.import')),
    err);
}

/** Mounts the analysis page; returns its cleanup. */
export function render(view, _params, app) {
  const saved = loadAnalysis();
  if (!saved) {
    mount(view, h('section', { class: 'card wide analysis-empty' },
      h('h1', {}, t('analysis.title')),
      h('p', { class: 'muted' }, t('analysis.empty')),
      h('div', { class: 'buttons' }, importControl(app.navigate), h('button', { class: 'btn', type: 'button', id: 'analysis-blank', onclick: () => {
        storeAnalysis({ size: 15, moves: [], title: t('analysis.blank'), rule_set: 'renju' });
        // The same address: route it again as if it had just been reached.
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      } }, t('analysis.blank')))));
    return () => {};
  }
  if (saved.game && saved.game !== 'gomoku') return renderAnyGame(view, saved, app);
  let a = start(saved.moves, saved.size || 15, saved.ply ?? saved.moves.length);
  let ruleSet = saved.rule_set === 'renju' && (saved.size || 15) !== 15 ? 'freestyle' : saved.rule_set || importedRuleSet(saved.size || 15);
  const status = h('p', { class: 'analysis-status', id: 'analysis-status', role: 'status' });
  const board = createBoardView({
    canPlay: () => !winLine(a, ruleSet),
    onPoint: (point) => {
      const r = play(a, point, ruleSet);
      if (r.error) {
        const f = forbiddenAt(a, ruleSet).find((x) => x.point === point);
        toast(f ? t('analysis.forbidden', { point, kind: t(`kind.${f.kind}`) }) : errorText(r.error), 'error');
        return;
      }
      a = r.analysis;
      draw();
    },
  });
  const counter = h('span', { class: 'counter', id: 'analysis-ply' });
  const btn = (id, label, path, fn) => {
    const b = h('button', { class: 'btn icon-btn', id, type: 'button', title: label, 'aria-label': label, onclick: fn });
    b.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="${path}" fill="currentColor"/></svg>`;
    return b;
  };
  const controls = h('div', { class: 'replay-controls' },
    btn('a-first', t('record.first'), 'M6 5h2v14H6zM20 5v14L9 12z', () => { a = goTo(a, 0); draw(); }),
    btn('a-prev', t('record.prev'), 'M17 5v14L6 12z', () => { a = goTo(a, a.ply - 1); draw(); }),
    counter,
    btn('a-next', t('record.next'), 'M7 5v14l11-7z', () => { a = goTo(a, a.ply + 1); draw(); }),
    btn('a-last', t('record.last'), 'M16 5h2v14h-2zM4 5v14l11-7z', () => { a = goTo(a, a.line.length); draw(); }));
  const list = h('ol', { class: 'movelist clickable', id: 'analysis-moves' });
  const rules = h('div', { class: 'segs', role: 'radiogroup', 'aria-label': t('create.rule_set') },
    ['renju', 'freestyle', 'standard'].map((r) => h('label', { class: 'seg' },
      h('input', { type: 'radio', name: 'analysis-rules', value: r, checked: r === ruleSet, disabled: r === 'renju' && (saved.size || 15) !== 15 ? true : null, onchange: () => { ruleSet = r; storeAnalysis({ ...saved, rule_set: r }); draw(); } }),
      h('span', {}, t(`rule.${r}`)))));
  // An empty board has no record to go back to: its own first line is the main line.
  // The engine (issue #33): the best move and line of the position shown, when the user turns it on.
  const engine = enginePanel({
    // The engine's moves are legal: played through the board's own rules all the same (forbidden points).
    play: (moves) => {
      for (const mv of moves) {
        const r = play(a, mv, ruleSet);
        if (r.error) break;
        a = r.analysis;
      }
      draw();
    },
  });
  const mainButton = h('button', { class: 'btn', type: 'button', id: 'analysis-main', onclick: () => { a = backToMain(a); draw(); } }, t(a.own ? 'analysis.back_to_line' : 'analysis.back_to_main'));
  mount(view, h('div', { class: 'room-layout record analysis' },
    h('div', { class: 'board-col' }, board.el, controls),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card' },
        h('h2', {}, t('analysis.title')),
        h('p', { class: 'muted small', id: 'analysis-source' }, saved.title || ''),
        h('div', { class: 'field' }, h('span', { class: 'flabel' }, t('create.rule_set')), rules),
        status,
        engine.el,
        h('p', { class: 'muted small' }, t('analysis.hint')),
        h('div', { class: 'buttons' }, mainButton, importControl(app.navigate))),
      h('div', { class: 'card' }, h('h3', {}, t('room.moves')), list))));

  function draw() {
    const stones = stonesAt(a);
    const line = winLine(a, ruleSet);
    const forbidden = forbiddenAt(a, ruleSet).map((f) => ({ ...f, label: t('room.forbidden_here', { kind: t(`kind.${f.kind}`) }) }));
    board.update({ size: a.size, moves: a.line, upto: a.ply, numbers: true, forbidden, winLine: line || [], ghostColor: toPlay(a) });
    counter.textContent = t('record.move', { n: a.ply, total: a.line.length });
    const onVar = onVariation(a);
    mainButton.hidden = !onVar;
    status.textContent = line
      ? t('analysis.five', { colour: t(`colour.${stones.length % 2 === 1 ? 'black' : 'white'}`) })
      : t('analysis.to_play', { colour: t(`colour.${toPlay(a)}`) }) + (forbidden.length ? ` · ${t('analysis.forbidden_count', { n: forbidden.length })}` : '');
    mount(list, lineItems(a, (n) => { a = goToMain(a, n); draw(); }, (n) => { a = goToVariation(a, n); draw(); }));
    engine.update({ game: 'gomoku', config: `size=${a.size},rule_set=${ruleSet},forbidden_policy=reject,opening=none`, actions: stones });
  }
  const onKey = (e) => {
    if (e.target.closest?.('input, textarea, select')) return;
    const keys = { ArrowLeft: a.ply - 1, ArrowRight: a.ply + 1, Home: 0, End: a.line.length };
    if (e.key in keys) {
      e.preventDefault();
      a = goTo(a, keys[e.key]);
      draw();
    }
  };
  document.addEventListener('keydown', onKey);
  draw();
  return () => document.removeEventListener('keydown', onKey);
}

/** The step buttons under a board: first, previous, the counter, next, last. */
/**
 * The move list of the analysis `a`, every game's: the main line stays listed, the variation branches under the
 * main move it replaces, and the move shown is marked in whichever line holds it. `toMain(n)` and
 * `toVariation(n)` go to move `n` of either.
 */
function lineItems(a, toMain, toVariation) {
  const onVar = onVariation(a);
  const v = variationOf(a);
  const items = moveItems(h, a.main, (e) => ({
    class: e.n === a.ply && (!onVar || a.ply <= (v?.from ?? 0)) ? 'current' : '',
    onclick: () => toMain(e.n),
  }));
  if (v) {
    const row = h('li', { class: 'varline', id: 'analysis-variation', 'aria-label': t('analysis.variation') },
      v.moves.map((mv, i) => {
        const n = v.from + i + 1;
        return h('span', {
          class: `vmove ${n % 2 ? 'b' : 'w'}${onVar && n === a.ply ? ' current' : ''}`, dataset: { ply: n },
          onclick: () => toVariation(n),
        }, h('span', { class: 'n' }, `${n}.`), h('span', { class: 'mv' }, mv));
      }));
    items.splice(Math.min(v.from + 1, items.length), 0, row);
  }
  return items;
}

function stepControls(counter, go) {
  const btn = (id, label, path, fn) => {
    const b = h('button', { class: 'btn icon-btn', id, type: 'button', title: label, 'aria-label': label, onclick: fn });
    b.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="${path}" fill="currentColor"/></svg>`;
    return b;
  };
  return h('div', { class: 'replay-controls' },
    btn('a-first', t('record.first'), 'M6 5h2v14H6zM20 5v14L9 12z', () => go('first')),
    btn('a-prev', t('record.prev'), 'M17 5v14L6 12z', () => go('prev')),
    counter,
    btn('a-next', t('record.next'), 'M7 5v14l11-7z', () => go('next')),
    btn('a-last', t('record.last'), 'M16 5h2v14h-2zM4 5v14l11-7z', () => go('last')));
}

/**
 * The analysis board of a game other than Gomoku (Othello, draughts, insect chess): the record's moves on the
 * game's own record board, stepped through like Gomoku's. The browser knows no rules of these games, so a
 * variation is played from what the server vouches for: the engine's best move or a move of its line, or a move
 * typed in the game's notation that the server's engine accepts (`illegal_action` otherwise). The main line is
 * never replaced; the move shown is marked in the main line or in the variation.
 */
function renderAnyGame(view, saved, app) {
  const member = memberOf(saved.game);
  let a = start(saved.moves, 0, saved.ply ?? saved.moves.length);
  const position = () => ({ game: member.name, config: saved.config ?? null, actions: stonesAt(a) });
  const board = member.recordBoard();
  const status = h('p', { class: 'analysis-status', id: 'analysis-status', role: 'status' });
  const counter = h('span', { class: 'counter', id: 'analysis-ply' });
  const controls = stepControls(counter, (where) => {
    const to = { first: 0, prev: a.ply - 1, next: a.ply + 1, last: a.line.length }[where];
    a = goTo(a, to);
    draw();
  });
  const list = h('ol', { class: 'movelist clickable', id: 'analysis-moves' });
  const playAll = (moves) => {
    for (const mv of moves) a = playMove(a, mv);
    draw();
  };
  const engine = enginePanel({ play: playAll });
  // A typed move: the server's engine checks it (with the shortest think) before it joins the board.
  const moveError = h('p', { class: 'form-error small', id: 'analysis-move-error', role: 'alert' });
  const moveInput = h('input', { type: 'text', id: 'analysis-move-input', autocomplete: 'off', spellcheck: 'false', size: 10, 'aria-label': t('analysis.move_label'), placeholder: t('analysis.move_label') });
  const moveForm = h('form', { class: 'analysis-move-form', id: 'analysis-move-form', onsubmit: async (e) => {
    e.preventDefault();
    const text = moveInput.value.trim();
    if (!text) return;
    moveError.textContent = t('analysis.move_checking');
    const here = stonesAt(a);
    try {
      // The engine's one turn may be the panel's for a moment: wait for it a little.
      for (let tries = 0; ; tries++) {
        try {
          await api('/api/analysis/evaluate', { method: 'POST', body: { ...position(), actions: [...here, text], ms: 1 } });
          break;
        } catch (err) {
          if (err.code !== 'analysis_busy' || tries >= 20) throw err;
          await new Promise((ok) => setTimeout(ok, 250));
        }
      }
    } catch (err) {
      moveError.textContent = err.code === 'illegal_action' || err.code === 'invalid_action'
        ? t('analysis.move_illegal', { move: text })
        : errorText(err.code, err.message);
      return;
    }
    moveError.textContent = '';
    moveInput.value = '';
    // The board may have moved on while the server answered: the move belongs to the position it was typed at.
    if (stonesAt(a).join(' ') === here.join(' ')) playAll([text]);
  } },
  moveInput, h('button', { class: 'btn small', type: 'submit', id: 'analysis-move-play' }, t('analysis.move_play')));
  const mainButton = h('button', { class: 'btn', type: 'button', id: 'analysis-main', onclick: () => { a = backToMain(a); draw(); } }, t('analysis.back_to_main'));
  mount(view, h('div', { class: 'room-layout record analysis', dataset: { game: member.name } },
    h('div', { class: 'board-col' }, board.el, controls),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card' },
        h('h2', {}, t('analysis.title')),
        h('p', { class: 'muted small', id: 'analysis-source' }, saved.title || ''),
        status,
        engine.el,
        moveForm,
        moveError,
        h('p', { class: 'muted small' }, t('analysis.hint_any')),
        h('div', { class: 'buttons' }, mainButton)),
      h('div', { class: 'card' }, h('h3', {}, t('room.moves')), list))));

  function draw() {
    board.show({ moves: a.line }, a.ply);
    counter.textContent = t('record.move', { n: a.ply, total: a.line.length });
    const onVar = onVariation(a);
    mainButton.hidden = !onVar;
    status.textContent = t('analysis.to_play', { colour: colourWord(member.name, member.colours[a.ply % 2]) });
    mount(list, lineItems(a, (n) => { a = goToMain(a, n); draw(); }, (n) => { a = goToVariation(a, n); draw(); }));
    storeAnalysis({ ...saved, moves: a.main, ply: onVar ? Math.min(a.ply, a.main.length) : a.ply });
    engine.update(position());
  }
  const onKey = (e) => {
    if (e.target.closest?.('input, textarea, select')) return;
    const keys = { ArrowLeft: a.ply - 1, ArrowRight: a.ply + 1, Home: 0, End: a.line.length };
    if (e.key in keys) {
      e.preventDefault();
      a = goTo(a, keys[e.key]);
      draw();
    }
  };
  document.addEventListener('keydown', onKey);
  draw();
  return () => document.removeEventListener('keydown', onKey);
}
