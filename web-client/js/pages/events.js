// The events page (#/events, issue #34): upcoming, running and finished arenas, Swiss tournaments and round robins,
// and a form to make one (signed-in players). Read again every few seconds while it is shown.

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { api } from '../api.js';
import { gameChoices } from '../games/index.js';

/** How often the lists are read again. */
const REFRESH_MS = 5000;

/** The games an event can be made of: the served games whose spec has defaults (their `defaultSpec`), by name. */
export function eventGames(games = gameChoices()) {
  return Object.fromEntries(games.filter((g) => g.defaultSpec).map((g) => [g.name, g.defaultSpec]));
}

/** The clocks offered, by id. */
export const EVENT_CLOCKS = {
  none: { kind: 'none' },
  '3+2': { kind: 'fischer', base_ms: 180000, increment_ms: 2000 },
  '5+3': { kind: 'fischer', base_ms: 300000, increment_ms: 3000 },
  '10+5': { kind: 'fischer', base_ms: 600000, increment_ms: 5000 },
};

/** "in 3 min 05 s" (or "now") until `at`, from the server's `now`. */
export function countdown(at, now) {
  const ms = Math.max(0, at - now);
  if (ms < 1000) return t('events.now');
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  if (d > 0) return t('events.in_days', { d, h: hh });
  if (hh > 0) return t('events.in_hours', { h: hh, m: mm });
  return t('events.in_minutes', { m: mm, s: ss });
}

/** What an event is, in words: kind, game, rounds or length. */
export function describe(e) {
  const kind = t(`events.kind_${e.kind}`);
  const game = e.game?.game ? t(`game.${e.game.game}`) : '';
  const size = e.kind === 'arena'
    ? t('events.minutes', { n: e.duration_minutes })
    : e.rounds ? t('events.rounds', { n: e.rounds }) : '';
  return [kind, game, size, e.rated ? t('events.rated') : t('events.casual')].filter(Boolean).join(' · ');
}

function row(e, now) {
  const when = e.status === 'upcoming' ? countdown(e.starts_at, now)
    : e.status === 'running' ? (e.ends_at ? t('events.ends', { when: countdown(e.ends_at, now) }) : t('events.running'))
      : t('events.finished');
  return h('li', { class: 'event-row', dataset: { status: e.status, kind: e.kind } },
    h('a', { href: href('event', { id: e.id }) }, e.name),
    e.private ? h('span', { class: 'event-lock', title: t('events.private') }, t('events.private')) : null,
    h('span', { class: 'muted' }, describe(e)),
    h('span', { class: 'event-when' }, when));
}

function section(title, list, now, id) {
  return h('section', { class: 'card event-list', id },
    h('h2', {}, title),
    list.length ? h('ul', {}, list.map((e) => row(e, now))) : h('p', { class: 'muted' }, t('events.none')));
}

function form(app, onMade) {
  const status = h('p', { class: 'notice', role: 'status' });
  const field = (label, input) => h('label', { class: 'event-field' }, h('span', {}, label), input);
  const name = h('input', { name: 'name', maxlength: '60', required: true, value: t('events.default_name') });
  const kind = h('select', { name: 'kind' },
    ['arena', 'swiss', 'round_robin'].map((k) => h('option', { value: k }, t(`events.kind_${k}`))));
  const choices = eventGames();
  const game = h('select', { name: 'game' }, Object.keys(choices).map((g) => h('option', { value: g }, t(`game.${g}`))));
  const clock = h('select', { name: 'clock' }, Object.keys(EVENT_CLOCKS).map((c) => h('option', { value: c }, c === 'none' ? t('events.no_clock') : c)));
  const rounds = h('input', { name: 'rounds', type: 'number', min: '1', max: '15', value: '5' });
  const minutes = h('input', { name: 'duration', type: 'number', min: '1', max: '720', value: '30' });
  const startIn = h('input', { name: 'start_in', type: 'number', min: '0', max: '43200', value: '5' });
  const rated = h('input', { name: 'rated', type: 'checkbox' });
  const password = h('input', { name: 'password', type: 'password', maxlength: '64', autocomplete: 'new-password' });
  const roundsField = field(t('events.field_rounds'), rounds);
  const minutesField = field(t('events.field_duration'), minutes);
  const sync = () => {
    roundsField.hidden = kind.value !== 'swiss';
    minutesField.hidden = kind.value !== 'arena';
  };
  kind.addEventListener('change', sync);
  sync();
  const submit = async (ev) => {
    ev.preventDefault();
    status.textContent = '';
    const body = {
      name: name.value,
      kind: kind.value,
      game: choices[game.value],
      time_control: EVENT_CLOCKS[clock.value],
      rated: rated.checked,
      starts_at: Date.now() + Number(startIn.value || 0) * 60000,
    };
    if (kind.value === 'swiss') body.rounds = Number(rounds.value);
    if (kind.value === 'arena') body.duration_minutes = Number(minutes.value);
    if (password.value) body.password = password.value;
    try {
      const made = await api('/api/events', { method: 'POST', body });
      onMade(made.id);
    } catch (e) {
      status.textContent = errorText(e.code, e.message);
    }
  };
  if (!app?.you || app.you.guest) {
    return h('section', { class: 'card event-create' }, h('h2', {}, t('events.create')), h('p', { class: 'muted' }, t('events.sign_in')));
  }
  return h('section', { class: 'card event-create' },
    h('h2', {}, t('events.create')),
    h('form', { id: 'event-form', onsubmit: submit },
      field(t('events.field_name'), name),
      field(t('events.field_kind'), kind),
      field(t('events.field_game'), game),
      field(t('events.field_clock'), clock),
      roundsField,
      minutesField,
      field(t('events.field_start'), startIn),
      h('label', { class: 'event-check' }, rated, h('span', {}, t('events.field_rated'))),
      field(t('events.field_password'), password),
      h('button', { class: 'btn primary', type: 'submit' }, t('events.create_button')),
      status));
}

/** Mounts the events page; returns its cleanup. */
export function render(root, params, app) {
  let gone = false;
  let timer = null;
  const lists = h('div', { class: 'event-lists' }, h('p', {}, t('conn.connecting')));
  const made = (id) => { location.hash = href('event', { id }); };
  mount(root, h('div', { class: 'events-page', id: 'events' },
    h('h1', {}, t('events.title')),
    lists,
    form(app, made)));
  const load = () => api('/api/events').then(
    (l) => {
      if (gone) return;
      mount(lists,
        section(t('events.running_title'), l.running, l.now, 'events-running'),
        section(t('events.upcoming_title'), l.upcoming, l.now, 'events-upcoming'),
        section(t('events.finished_title'), l.finished, l.now, 'events-finished'));
      timer = setTimeout(load, REFRESH_MS);
    },
    (e) => {
      if (gone) return;
      mount(lists, h('p', { class: 'notice' }, errorText(e.code, e.message)));
    });
  load();
  return () => {
    gone = true;
    clearTimeout(timer);
  };
}
