// The analysis board's engine (issue #33): toggled by the user, it asks the server
// (POST /api/analysis/evaluate, time-capped and rate-limited there) for the best move and line of the position
// on the board, for any game: the position is the game, its stored configuration and the actions from the start.
// Only the latest position's answer is shown; a board that changes while the engine thinks asks again.

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { api } from '../api.js';
import { scoreText } from './report.js';

const KEY = 'analysis.engine';

/** The request body for a position. */
export function evaluateBody({ game, config, actions }, ms) {
  return { game, config, actions: [...actions], ...(ms ? { ms } : {}) };
}

/**
 * The engine panel: `el` (the toggle and the answer) and `update(position)` after every change of the board.
 * With `play(actions)` the answer offers to play the best move, and each move of the line plays the line up to
 * it (from the position shown: a variation on the board, legal since the server's engine gave it).
 */
export function enginePanel({ storage = globalThis.localStorage, play = null } = {}) {
  let on = false;
  try {
    on = storage?.getItem(KEY) === 'on';
  } catch {
    on = false;
  }
  let latest = null;
  let asked = 0;
  const answer = h('div', { class: 'engine-answer', id: 'engine-answer', role: 'status', 'aria-live': 'polite' });
  const toggle = h('input', { type: 'checkbox', id: 'engine-toggle', checked: on, onchange: () => {
    on = toggle.checked;
    try {
      storage?.setItem(KEY, on ? 'on' : 'off');
    } catch {
      // Not kept: the toggle still works for this page.
    }
    ask();
  } });
  const el = h('div', { class: 'engine-panel', id: 'engine-panel' },
    h('label', { class: 'check' }, toggle, ` ${t('analysis.engine')}`),
    answer);

  async function ask() {
    if (!on || !latest) {
      mount(answer);
      return;
    }
    const mine = ++asked;
    mount(answer, h('p', { class: 'muted small' }, t('analysis.engine_thinking')));
    try {
      const r = await api('/api/analysis/evaluate', { method: 'POST', body: evaluateBody(latest) });
      if (mine !== asked) return;
      if (!r.best) {
        mount(answer, h('p', { class: 'muted small' }, t('analysis.over')));
        return;
      }
      // The line's moves: words, or buttons that play the line up to each one.
      const lineMoves = play
        ? r.line.map((mv, i) => h('button', { type: 'button', class: 'linkish engine-move', dataset: { index: i }, title: t('analysis.engine_play_line'), onclick: () => play(r.line.slice(0, i + 1)) }, mv))
        : [r.line.join(' ')];
      const spaced = lineMoves.flatMap((m, i) => (i ? [' ', m] : [m]));
      mount(answer,
        h('p', { class: 'small' }, h('b', {}, `${t('analysis.eval')} `), h('span', { id: 'engine-score' }, scoreText(r.score)), r.vcf ? h('span', { class: 'vcf-badge' }, ' VCF') : null),
        h('p', { class: 'small' }, h('b', {}, `${t('analysis.best')} `), h('span', { id: 'engine-best' }, r.best),
          play ? h('button', { type: 'button', class: 'btn small', id: 'engine-play', onclick: () => play([r.best]) }, t('analysis.engine_play')) : null),
        h('p', { class: 'small pv' }, h('b', {}, `${t('analysis.line')} `), h('span', { id: 'engine-line' }, ...spaced)));
    } catch (e) {
      if (mine === asked) mount(answer, h('p', { class: 'form-error small' }, errorText(e.code, e.message)));
    }
  }

  return {
    el,
    update(position) {
      latest = position;
      ask();
    },
  };
}
