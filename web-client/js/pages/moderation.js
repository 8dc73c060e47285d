// Issue #38: the moderators' console: the report queue with its evidence, actions on each report or on any
// player (warn, mute for a time, unmute, remove a chat line for everyone, close an account, rename a bad name,
// dismiss), and the audit log of every action (who, when, what, why).

import { h, mount, toast } from '../dom.js';
import { t, errorText, formatDate } from '../i18n.js';
import { href } from '../router.js';
import { community } from '../community.js';

/** The actions the console offers on a report's player. */
export const ACTIONS = ['warn', 'mute', 'unmute', 'close_account', 'rename', 'mark_cheater', 'dismiss'];

/** An action form: `fixed` (or what it returns, when a function) names the report, line or player it acts on. */
function actionForm(fixed, onDone, actions = ACTIONS) {
  const action = h('select', { name: 'action', class: 'mod-action' }, actions.map((a) => h('option', { value: a }, t(`mod.action.${a}`))));
  const minutes = h('input', { type: 'number', name: 'minutes', class: 'mod-minutes', min: 1, max: 43200, value: 60 });
  const newName = h('input', { type: 'text', name: 'new_name', class: 'mod-new-name', maxlength: 20 });
  const reason = h('input', { type: 'text', name: 'reason', class: 'mod-reason', maxlength: 1000, required: true, placeholder: t('mod.reason') });
  const minutesField = h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('mod.minutes')), minutes);
  const nameField = h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('mod.new_name')), newName);
  const sync = () => {
    minutesField.hidden = action.value !== 'mute';
    nameField.hidden = action.value !== 'rename';
  };
  action.addEventListener('change', sync);
  sync();
  return h('form', { class: 'mod-form', onsubmit: (e) => {
    e.preventDefault();
    const body = { ...(typeof fixed === 'function' ? fixed() : fixed), action: action.value, reason: reason.value };
    if (action.value === 'mute') body.minutes = Number(minutes.value);
    if (action.value === 'rename') body.new_name = newName.value;
    community.act(body).then(() => { toast(t('mod.done')); onDone(); }, (err) => toast(errorText(err.code, err.message), 'error'));
  } },
  h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('mod.action')), action), minutesField, nameField,
  h('label', { class: 'field grow' }, h('span', { class: 'flabel' }, t('mod.why')), reason),
  h('button', { class: 'btn primary', type: 'submit' }, t('mod.apply')));
}

/** A fair-play flag's evidence (made by the server, docs/fairplay.md): the summary, then each game of the window. */
function fairPlayEvidence(evidence) {
  const [summary, ...games] = evidence;
  const pct = (x) => `${(x * 100).toFixed(1)}\u00a0%`;
  return h('div', { class: 'mod-fairplay' },
    summary ? h('p', { class: 'mod-fairplay-summary' }, t('mod.fairplay.summary', {
      top1: summary.top1, judged: summary.judged, rate: pct(summary.rate), games: summary.games, pool: summary.pool,
      expected: pct(summary.expected), rating: summary.rating, p: Number(summary.p_value).toExponential(1), alpha: summary.alpha,
    })) : null,
    h('table', { class: 'mod-fairplay-games' },
      h('thead', {}, h('tr', {}, ['game', 'judged', 'top1', 'top3', 'loss'].map((k) => h('th', {}, t(`mod.fairplay.${k}`))))),
      h('tbody', {}, games.map((g) => h('tr', {},
        h('td', {}, g.game ? h('a', { href: href('game', { id: g.game }) }, g.game) : '—'),
        h('td', {}, g.judged), h('td', {}, g.top1), h('td', {}, g.top3), h('td', {}, g.average_loss))))));
}

function reportCard(r, reload) {
  return h('article', { class: 'mod-report', dataset: { id: r.id } },
    h('div', { class: 'mod-report-head' },
      h('strong', {}, h('a', { href: href('player', { name: r.target }) }, r.target)),
      h('span', { class: 'badge' }, t(`report.reason.${r.reason}`)),
      h('span', { class: 'muted small' }, t('mod.by', { name: r.reporter }), ' · ', formatDate(r.created_at)),
      h('span', { class: `report-status ${r.status}` }, t(`report.status.${r.status}`))),
    r.details ? h('p', { class: 'mod-details' }, r.details) : null,
    r.game ? h('p', {}, h('a', { href: href('game', { id: r.game }) }, t('mod.game'))) : null,
    r.reason === 'fair_play' ? fairPlayEvidence(r.evidence) : r.evidence.length ? h('ol', { class: 'mod-evidence' }, r.evidence.map((line) => h('li', { class: line.removed ? 'removed' : '' },
      h('span', { class: 'muted small' }, formatDate(line.at)), ' ', h('strong', {}, line.name), ': ', h('span', { class: 'mod-line' }, line.text),
      line.removed ? h('span', { class: 'muted small' }, ' ', t('mod.removed')) : h('button', { class: 'btn small ghost mod-remove', type: 'button', onclick: () => {
        const why = prompt(t('mod.reason'));
        if (why) community.act({ action: 'remove_chat', line: line.id, reason: why }).then(() => { toast(t('mod.done')); reload(); }, (e) => toast(errorText(e.code, e.message), 'error'));
      } }, t('mod.remove'))))) : h('p', { class: 'muted small' }, t('mod.no_evidence')),
    r.status === 'open' ? actionForm({ report: r.id }, reload) : null);
}

/** Mounts the console; returns its cleanup. */
export function render(view, params, app) {
  let status = 'open';
  const queue = h('div', { class: 'mod-queue', id: 'mod-queue' });
  const log = h('div', { class: 'mod-log', id: 'mod-log' });
  const tabs = h('nav', { class: 'tabs', 'aria-label': t('mod.queue') });
  const target = h('input', { type: 'text', name: 'target', id: 'mod-target', placeholder: t('mod.player') });
  const load = () => {
    mount(tabs, ['open', 'resolved', 'dismissed', 'all'].map((s) => h('a', { href: '#/mod', class: s === status ? 'active' : '', onclick: (e) => { e.preventDefault(); status = s; load(); } }, t(`report.status.${s}`))));
    community.queue(status).then((reports) => mount(queue, reports.length ? reports.map((r) => reportCard(r, load)) : h('p', { class: 'empty' }, t('mod.empty'))),
      (e) => mount(queue, h('p', { class: 'notice', id: 'mod-refused' }, errorText(e.code, e.message))));
    community.log().then((entries) => mount(log, entries.length ? h('table', { class: 'mod-log-table' },
      h('thead', {}, h('tr', {}, [t('mod.when'), t('mod.who'), t('mod.action'), t('mod.target'), t('mod.why'), t('mod.detail')].map((x) => h('th', {}, x)))),
      h('tbody', {}, entries.map((e) => h('tr', { dataset: { action: e.action } },
        h('td', { class: 'small' }, formatDate(e.at)), h('td', {}, e.moderator), h('td', {}, t(`mod.action.${e.action}`)),
        h('td', {}, e.target), h('td', {}, e.reason), h('td', { class: 'small muted' }, e.detail))))) : h('p', { class: 'empty' }, t('mod.log_empty'))),
    () => mount(log));
  };
  mount(view, h('section', { class: 'card wide mod-console', id: 'mod-console' },
    h('div', { class: 'card-head' }, h('h1', {}, t('mod.title')), tabs),
    queue,
    h('h2', {}, t('mod.any_player')),
    h('div', { class: 'mod-any' }, h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('mod.player')), target),
      actionForm(() => ({ target: target.value }), load, ACTIONS.filter((a) => a !== 'dismiss'))),
    h('h2', {}, t('mod.log')),
    log));
  load();
  return () => {};
}
