// The record page's computer analysis (issue #33): "Request a computer analysis", its progress (queued,
// running, cancellable), then the evaluation graph under the board, the engine's best move and line at the
// position shown, and the marked moves (also marked in the move list).

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { api, ApiError } from '../api.js';
import { evaluationGraph, markedMoves, positionAt, positionAtFraction, plyOf, scoreText, SYMBOLS, tally } from './report.js';

const TOKEN_KEY = 'gomoku.token';

/** The guest's token, for a player without a session cookie (a guest's session is its WebSocket token). */
function guestToken() {
  try {
    return globalThis.localStorage?.getItem(TOKEN_KEY) || globalThis.sessionStorage?.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

/** A request to the analysis API: with the session cookie, and once more with the guest's token on a 401. */
async function call(path, method) {
  try {
    return await api(path, { method });
  } catch (e) {
    const token = e instanceof ApiError && e.status === 401 ? guestToken() : null;
    if (!token) throw e;
    let res;
    try {
      res = await fetch(path, { method, credentials: 'same-origin', headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
    } catch {
      throw new ApiError('network', 'server unreachable');
    }
    const body = await res.json().catch(() => null);
    if (res.ok) return body;
    throw new ApiError(body?.code || `http_${res.status}`, body?.message, res.status);
  }
}

/** The panel: `el` for the side column, `graphEl` under the board; `load(rec)`, `show(rec, ply)`, `stop()`. */
export function analysisPanel({ go, marksIn }) {
  const el = h('div', { class: 'card analysis-card', id: 'analysis-card', hidden: true });
  const graphEl = h('div', { class: 'eval-graph-box', id: 'analysis-graph', hidden: true });
  let rec = null;
  let result = null;
  let shown = 0;
  let timer = null;
  let stopped = false;
  const path = () => `/api/games/${encodeURIComponent(rec.link)}/analysis`;

  const status = h('p', { class: 'muted small', id: 'analysis-progress', role: 'status' });
  const error = h('p', { class: 'form-error small', id: 'analysis-error', role: 'alert' });
  const requestBtn = h('button', { class: 'btn', type: 'button', id: 'analysis-request', onclick: () => ask() }, t('analysis.request'));
  const cancelBtn = h('button', { class: 'btn small', type: 'button', id: 'analysis-cancel', hidden: true, onclick: () => cancel() }, t('analysis.cancel'));
  const lineEl = h('div', { class: 'analysis-line', id: 'analysis-line' });
  const marksEl = h('ol', { class: 'analysis-marks', id: 'analysis-marks' });
  const summary = h('p', { class: 'small', id: 'analysis-summary' });

  function poll(delay = 700) {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => refresh(), delay);
  }

  async function refresh() {
    try {
      apply(await call(path(), 'GET'));
    } catch (e) {
      error.textContent = errorText(e.code, e.message);
    }
  }

  async function ask() {
    error.textContent = '';
    requestBtn.disabled = true;
    try {
      apply(await call(path(), 'POST'));
    } catch (e) {
      requestBtn.disabled = false;
      error.textContent = e.code === 'analysis_limit' ? t('analysis.limit') : errorText(e.code, e.message);
    }
  }

  async function cancel() {
    try {
      await call(path(), 'DELETE');
    } catch (e) {
      error.textContent = errorText(e.code, e.message);
    }
    refresh();
  }

  function apply(view) {
    el.hidden = false;
    const busy = view.status === 'queued' || view.status === 'running';
    requestBtn.hidden = busy || view.status === 'done';
    requestBtn.disabled = false;
    cancelBtn.hidden = !busy;
    status.textContent = view.status === 'queued'
      ? t('analysis.queued', { n: view.ahead ?? 0 })
      : view.status === 'running' ? t('analysis.running', { done: view.done, total: view.total }) : '';
    if (busy) poll();
    if (view.status === 'done' && view.result) {
      result = view.result;
      drawResult();
    }
  }

  function drawResult() {
    graphEl.hidden = false;
    const counts = tally(result);
    const words = (side) => ['inaccuracy', 'mistake', 'blunder']
      .map((j) => `${counts[side]?.[j] || 0} ${t(`analysis.${j}`)}`).join(' · ');
    mount(summary, ...['black', 'white'].map((side) => h('span', { class: `tally ${side}` }, h('b', {}, `${t(`colour.${side}`)}: `), words(side), ' ')));
    mount(marksEl, markedMoves(result).map((m) => h('li', { class: `mark ${m.judgment}`, dataset: { index: m.index } },
      h('button', { type: 'button', class: 'linkish', onclick: () => go(plyOf(result, m.index + 1, rec.moves.length)) },
        `${m.index + 1}. ${m.notation}${SYMBOLS[m.judgment]} `),
      h('span', { class: 'muted' }, `${t(`analysis.${m.judgment}`)}: ${t(`analysis.reason.${m.reason}`, { n: m.loss ?? '' })}`),
      m.best ? h('span', { class: 'muted' }, ` · ${t('analysis.best_was', { move: m.best })}`) : null)));
    // The move list's entries of judged moves get the judgment's symbol.
    const judged = new Map(markedMoves(result).map((m) => [plyOf(result, m.index + 1, rec.moves.length), m]));
    for (const li of marksIn.querySelectorAll('[data-ply]')) {
      const m = judged.get(Number(li.dataset.ply));
      li.classList.remove('inaccuracy', 'mistake', 'blunder');
      li.querySelector('.judgment')?.remove();
      if (m) {
        li.classList.add(m.judgment);
        li.append(h('span', { class: `judgment ${m.judgment}`, title: t(`analysis.${m.judgment}`) }, SYMBOLS[m.judgment]));
      }
    }
    mount(el, h('h3', {}, t('analysis.computer')), h('p', { class: 'muted small' }, t('analysis.by', { engine: result.engine, ms: result.ms_per_position })), summary, lineEl, h('h4', {}, t('analysis.marked')), marksEl.children.length ? marksEl : h('p', { class: 'muted small' }, t('analysis.none_marked')));
    drawAt();
  }

  function drawAt() {
    if (!result) return;
    const i = positionAt(result, shown, rec.moves.length);
    graphEl.innerHTML = evaluationGraph(result, { current: i, label: t('analysis.graph') });
    const svg = graphEl.querySelector('svg');
    svg?.addEventListener('click', (e) => {
      const box = svg.getBoundingClientRect();
      const k = positionAtFraction(result, (e.clientX - box.left) / Math.max(1, box.width));
      go(plyOf(result, k, rec.moves.length));
    });
    const p = result.positions[i];
    if (!p) return;
    mount(lineEl,
      h('p', { class: 'small' }, h('b', {}, `${t('analysis.eval')} `), h('span', { id: 'analysis-score' }, p.best ? scoreText(p.score) : t('analysis.over')),
        p.vcf ? h('span', { class: 'vcf-badge' }, ' VCF') : null),
      p.best ? h('p', { class: 'small' }, h('b', {}, `${t('analysis.best')} `), h('span', { id: 'analysis-best' }, p.best)) : null,
      p.line?.length ? h('p', { class: 'small pv' }, h('b', {}, `${t('analysis.line')} `), h('span', { id: 'analysis-pv' }, p.line.join(' '))) : null);
  }

  return {
    el,
    graphEl,
    load(r) {
      rec = r;
      mount(el, h('h3', {}, t('analysis.computer')), status, h('div', { class: 'buttons' }, requestBtn, cancelBtn), error);
      el.hidden = false;
      refresh();
    },
    show(r, ply) {
      rec = r;
      shown = ply;
      drawAt();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
