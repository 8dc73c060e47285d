// One event's page (#/event/ID, issue #34): a countdown to its start or end, join / leave, the player's own game
// one click away, the standings (live: read again every few seconds while it runs), the pairings, a Swiss's or
// round robin's crosstable, and the podium once it is over.

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { api } from '../api.js';
import { countdown, describe } from './events.js';

/** How often a running or upcoming event is read again. */
const REFRESH_MS = 2000;

/** A score as shown: 1½ for 1.5, 8 for 8. */
export function score(n) {
  const whole = Math.floor(n);
  return n - whole >= 0.5 ? `${whole ? whole : ''}½` : String(whole);
}

/** The room of the game `me` is playing now in this event, if any. */
export function myGame(e, me) {
  const mine = e.entrants.find((x) => x.name === me);
  if (!mine) return null;
  const p = e.pairings.find((x) => !x.result && x.room && (x.first === mine.number || x.second === mine.number));
  return p ? p.room : null;
}

/** A pairing's result as a board shows it: 1–0, ½–½, +/−, bye. */
export function resultMark(r) {
  switch (r) {
    case 'first': return '1–0';
    case 'second': return '0–1';
    case 'draw': return '½–½';
    case 'first_forfeit': return '+/−';
    case 'second_forfeit': return '−/+';
    case 'double_forfeit': return '−/−';
    case 'bye': return t('event.bye');
    case 'rest': return t('event.rest');
    case 'void': return t('event.void');
    default: return t('event.playing');
  }
}

function standingsTable(e) {
  const ties = e.event.kind === 'swiss' ? ['bc1', 'bh', 'sb', 'de'] : e.event.kind === 'round_robin' ? ['sb', 'de'] : [];
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'event-standings', id: 'event-standings' },
      h('thead', {}, h('tr', {},
        h('th', { class: 'num' }, '#'), h('th', {}, t('event.player')), h('th', { class: 'num' }, t('event.points')),
        h('th', { class: 'num' }, t('event.games')),
        ties.map((k) => h('th', { class: 'num', title: t(`event.tb_${k}_long`) }, t(`event.tb_${k}`))))),
      h('tbody', {}, e.standings.map((s) => h('tr', { dataset: { number: s.number } },
        h('td', { class: 'num' }, s.place),
        h('td', {}, s.name, s.on_fire ? h('span', { class: 'event-fire', title: t('event.on_fire') }, '×2') : null),
        h('td', { class: 'num event-score' }, score(s.score)),
        h('td', { class: 'num' }, s.games),
        s.tie_breaks.map((v) => h('td', { class: 'num' }, String(v))))))));
}

function pairingsList(e) {
  const name = (n) => e.entrants.find((x) => x.number === n)?.name ?? '?';
  const shown = e.event.kind === 'arena' ? e.pairings.slice(-20).reverse() : e.pairings.filter((p) => p.round === e.round);
  if (!shown.length) return h('p', { class: 'muted' }, t('event.no_pairings'));
  return h('ul', { class: 'event-pairings', id: 'event-pairings' }, shown.map((p) => h('li', { dataset: { result: p.result || 'playing' } },
    h('span', { class: 'num' }, p.board),
    h('span', {}, name(p.first)),
    p.second ? h('span', {}, '– ', name(p.second)) : null,
    p.room && !p.result ? h('a', { href: href('room', { id: p.room, watch: true }) }, resultMark(p.result)) : h('span', {}, resultMark(p.result)))));
}

function crosstable(e) {
  if (!e.crosstable.length) return null;
  const name = (n) => e.entrants.find((x) => x.number === n)?.name ?? '?';
  const rounds = e.crosstable[0]?.rounds.length ?? 0;
  const cell = (c) => {
    if (c.opponent == null) return c.result === 'bye' ? t('event.bye') : '–';
    const pts = c.points == null ? '…' : score(c.points);
    return `${pts} ${c.first ? '●' : '○'}${c.opponent}`;
  };
  return h('section', { class: 'card' },
    h('h2', {}, t('event.crosstable')),
    h('div', { class: 'table-scroll' }, h('table', { class: 'event-cross', id: 'event-cross' },
      h('thead', {}, h('tr', {}, h('th', { class: 'num' }, '#'), h('th', {}, t('event.player')),
        Array.from({ length: rounds }, (_, i) => h('th', { class: 'num' }, t('event.round_short', { n: i + 1 }))))),
      h('tbody', {}, e.crosstable.map((r) => h('tr', {},
        h('td', { class: 'num' }, r.number), h('td', {}, name(r.number)),
        r.rounds.map((c) => h('td', { class: 'num' }, cell(c)))))))));
}

function actions(e, app, reload) {
  const me = app?.you?.name;
  const entrant = e.entrants.find((x) => x.name === me);
  const status = h('span', { class: 'notice', role: 'status' });
  if (e.event.status === 'finished' || !app?.you) return null;
  const post = async (path, body) => {
    try {
      await api(`/api/events/${e.event.id}/${path}`, { method: 'POST', body: body || {} });
      reload();
    } catch (err) {
      status.textContent = errorText(err.code, err.message);
    }
  };
  const password = e.event.private && (!entrant || entrant.withdrawn)
    ? h('input', { type: 'password', id: 'event-password', placeholder: t('event.password'), maxlength: '64' }) : null;
  const join = () => post('join', password ? { password: password.value } : {});
  const button = !entrant || entrant.withdrawn
    ? h('button', { class: 'btn primary', id: 'event-join', onclick: join }, entrant ? t('event.rejoin') : t('event.join'))
    : h('button', { class: 'btn', id: 'event-leave', onclick: () => post('leave') }, e.event.status === 'upcoming' ? t('event.leave') : t('event.withdraw'));
  const game = myGame(e, me);
  return h('div', { class: 'event-actions' },
    password, button,
    game ? h('a', { class: 'btn primary', id: 'event-my-game', href: href('room', { id: game }) }, t('event.my_game')) : null,
    status);
}

function view(e, app, reload) {
  const ev = e.event;
  const clock = ev.status === 'upcoming' ? t('event.starts', { when: countdown(ev.starts_at, e.now) })
    : ev.status === 'running' ? (ev.ends_at ? t('event.ends', { when: countdown(ev.ends_at, e.now) }) : t('event.round', { n: e.round, of: ev.rounds }))
      : t('event.over');
  return h('div', { class: 'event-page', id: 'event', dataset: { status: ev.status, kind: ev.kind } },
    h('section', { class: 'card wide' },
      h('div', { class: 'card-head' }, h('h1', {}, ev.name), h('span', { class: 'muted' }, describe(ev))),
      h('p', { class: 'event-clock', id: 'event-clock', 'aria-live': 'polite' }, clock),
      e.podium.length ? h('ol', { class: 'event-podium', id: 'event-podium' }, e.podium.map((n, i) => h('li', { dataset: { place: i + 1 } }, h('span', { class: 'event-medal' }, String(i + 1)), n))) : null,
      actions(e, app, reload),
      h('p', {}, h('a', { href: href('events') }, t('event.all_events')))),
    h('section', { class: 'card' }, h('h2', {}, t('event.standings')), standingsTable(e)),
    h('section', { class: 'card' }, h('h2', {}, ev.kind === 'arena' ? t('event.latest_games') : t('event.round', { n: e.round, of: ev.rounds })), pairingsList(e)),
    crosstable(e));
}

/** Mounts the event page; returns its cleanup. */
export function render(root, params, app) {
  let gone = false;
  let timer = null;
  mount(root, h('section', { class: 'card wide' }, h('p', {}, t('conn.connecting'))));
  const load = () => {
    clearTimeout(timer);
    return api(`/api/events/${encodeURIComponent(params.id)}`).then(
      (e) => {
        if (gone) return;
        mount(root, view(e, app, load));
        if (e.event.status !== 'finished') timer = setTimeout(load, REFRESH_MS);
      },
      (e) => {
        if (gone) return;
        mount(root, h('section', { class: 'card wide' }, h('p', { class: 'notice' }, errorText(e.code, e.message))));
      });
  };
  load();
  return () => {
    gone = true;
    clearTimeout(timer);
  };
}
