// A match's page (#/match/ID, issue #34): both players and the running score, every game with its record, the
// result. Live: it reads the match again when its room reports a game's start or end to this connection (the
// players are in the room), and every few seconds while the match is played.

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { api } from '../api.js';

/** How often a played match is read again for a viewer who is not in its room. */
const REFRESH_MS = 5000;

/** Points as a score shows them: 1½ for 1.5. */
export function points(n) {
  const whole = Math.floor(n);
  return n - whole >= 0.5 ? `${whole ? whole : ''}½` : String(whole);
}

/** The match's result in words. */
export function resultText(m) {
  if (m.result === 'playing') return t('match.playing', { n: m.played, total: m.games });
  if (m.result === 'draw') return t('match.drawn');
  return t('match.won', { name: m.winner });
}

function gameRow(g, m) {
  const state = g.state === 'playing'
    ? h('a', { href: href('room', { id: m.room }) }, t('match.game_playing'))
    : g.state === 'won' ? t('match.game_won', { name: g.winner })
      : t(`match.game_${g.state}`);
  return h('tr', { dataset: { state: g.state } },
    h('td', { class: 'num' }, g.number),
    h('td', {}, g.black),
    h('td', {}, g.white),
    h('td', {}, state),
    h('td', { class: 'num' }, g.score_after ? `${points(g.score_after[0])} – ${points(g.score_after[1])}` : ''),
    h('td', {}, h('a', { href: href('game', { id: g.id }) }, t('match.record'))));
}

function view(m) {
  const [a, b] = m.players;
  return h('section', { class: 'card wide match', id: 'match', dataset: { result: m.result } },
    h('div', { class: 'card-head' },
      h('h1', {}, t('match.title', { n: m.games })),
      h('span', { class: 'muted' }, `${t(`game.${m.game}`)} · ${m.rated ? t('match.rated') : t('match.casual')}`)),
    h('div', { class: 'match-score', 'aria-live': 'polite' },
      h('a', { class: 'match-player', href: a.guest ? null : href('player', { name: a.name }) }, a.name),
      h('span', { class: 'match-points', id: 'match-points' }, `${points(a.points)} – ${points(b.points)}`),
      h('a', { class: 'match-player', href: b.guest ? null : href('player', { name: b.name }) }, b.name)),
    h('p', { class: 'match-result', id: 'match-result' }, resultText(m)),
    m.result === 'playing' ? h('p', {}, h('a', { class: 'btn', href: href('room', { id: m.room }) }, t('match.to_room'))) : null,
    h('div', { class: 'table-scroll' },
      h('table', { class: 'match-games' },
        h('thead', {}, h('tr', {},
          h('th', { class: 'num' }, '#'), h('th', {}, t('match.first_colour')), h('th', {}, t('match.second_colour')),
          h('th', {}, t('match.state')), h('th', { class: 'num' }, t('match.score')), h('th', {}, ''))),
        h('tbody', {}, m.game_list.map((g) => gameRow(g, m))))));
}

/** Mounts the match page; returns its cleanup. */
export function render(root, params, app) {
  let gone = false;
  let timer = null;
  let room = null;
  mount(root, h('section', { class: 'card wide' }, h('p', {}, t('conn.connecting'))));
  const load = () => api(`/api/matches/${encodeURIComponent(params.id)}`).then(
    (m) => {
      if (gone) return;
      room = m.room;
      mount(root, view(m));
      clearTimeout(timer);
      if (m.result === 'playing') timer = setTimeout(load, REFRESH_MS);
    },
    (e) => {
      if (gone) return;
      mount(root, h('section', { class: 'card wide' }, h('p', { class: 'notice' }, errorText(e.code, e.message))));
    });
  load();
  const off = app?.conn?.on('event', (msg) => {
    const kind = msg?.event?.kind;
    if (msg?.room === room && (kind === 'game_over' || kind === 'game_started')) load();
  });
  return () => {
    gone = true;
    clearTimeout(timer);
    off?.();
  };
}
