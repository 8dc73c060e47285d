// The leaderboard per pool, with tiers as badges (names from the server).

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { accounts } from '../api.js';
import { tierBadge } from '../tier.js';
import { ladderBadge } from '../ladder.js';
import { challengeButton } from '../challenges.js';
import { pools } from '../games/index.js';
const PAGE = 50;

/** The entries of a leaderboard response, whether it is a bare list or wrapped in an object. */
export function entriesOf(data) {
  if (Array.isArray(data)) return data;
  return data?.entries || data?.players || data?.leaderboard || [];
}


/**
 * The pool the leaderboard opens on when the address names none: the player's own (the pool of its most rated
 * games) when that board has anyone on it, else the board with the most players, else the first pool. `sizes`
 * maps a pool to how many players its first page listed; `mine` is the player's standings (`GET /api/me`).
 */
export function choosePool(pools, sizes = {}, mine = []) {
  const size = (p) => sizes[p] ?? 0;
  const own = (mine || []).filter((r) => pools.includes(r.pool) && size(r.pool) > 0).sort((a, b) => (b.games ?? 0) - (a.games ?? 0))[0];
  if (own) return own.pool;
  const largest = pools.reduce((best, p) => (size(p) > size(best) ? p : best), pools[0]);
  return largest;
}

/** Mounts the leaderboard page; returns its cleanup. */
export function render(view, params, app) {
  if (!params.pool) return openChosen(view, app);
  const pool = params.pool;
  let offset = 0;
  const body = h('tbody', {});
  const status = h('div', { class: 'lb-status' });
  const more = h('button', { class: 'btn', type: 'button', hidden: true }, t('lb.more'));
  mount(view, h('section', { class: 'card wide' },
    h('div', { class: 'card-head' }, h('h1', {}, t('lb.title')),
      h('nav', { class: 'tabs', 'aria-label': t('lb.pool') }, pools().map((p) => h('a', { href: href('leaderboard', { pool: p }), class: p === pool ? 'active' : '' }, t(`pool.${p}`))))),
    h('table', { class: 'lb', id: 'leaderboard' },
      h('thead', {}, h('tr', {}, h('th', { class: 'num' }, t('lb.rank')), h('th', {}, t('lb.player')), h('th', {}, t('lb.tier')), h('th', { class: 'num' }, t('lb.rating')), h('th', { class: 'num hide-sm' }, t('lb.games')), h('th', { class: 'num hide-sm' }, t('lb.wld')))),
      body),
    status, more));

  const load = () => {
    status.textContent = t('conn.connecting');
    accounts.leaderboard(pool, PAGE, offset).then(
      (data) => {
        const rows = entriesOf(data);
        status.textContent = '';
        if (!rows.length && offset === 0) status.append(h('p', { class: 'empty' }, t('lb.empty')));
        rows.forEach((e, i) => body.append(h('tr', {},
          h('td', { class: 'num rank' }, e.rank ?? offset + i + 1),
          h('td', { class: 'name' }, h('a', { href: href('player', { name: e.name }) }, e.name), ' ', h('span', { class: 'challenge-slot', dataset: { name: e.name } }, challengeButton(app, { name: e.name, guest: false }, { small: true }))),
          h('td', {}, tierBadge(e.tier, e.tier_code, e.provisional), ' ', ladderBadge(e.ladder)),
          h('td', { class: 'num rating' }, Math.round(e.rating) + (e.provisional ? '?' : '')),
          h('td', { class: 'num hide-sm' }, e.games ?? (e.wins ?? 0) + (e.losses ?? 0) + (e.draws ?? 0)),
          h('td', { class: 'num hide-sm wld' }, `${e.wins ?? 0} / ${e.losses ?? 0} / ${e.draws ?? 0}`))));
        offset += rows.length;
        more.hidden = rows.length < PAGE;
      },
      (e) => {
        status.replaceChildren(h('p', { class: 'notice' }, e.code === 'unavailable' ? t('err.unavailable') : errorText(e.code, e.message)));
      },
    );
  };
  more.addEventListener('click', load);
  load();
  // Who we are decides which rows can be challenged (not our own): known after the welcome, or changed by a sign-in.
  const off = app?.conn?.on('welcome', () => {
    for (const slot of body.querySelectorAll('.challenge-slot')) mount(slot, challengeButton(app, { name: slot.dataset.name, guest: false }, { small: true }));
  });
  return () => off?.();
}

/**
 * `#/leaderboard` without a pool: asks every pool's board (and the player's standings) and opens the chosen pool
 * in place of this address, so the page never opens on an empty tab while another has players.
 */
function openChosen(view, app) {
  let gone = false;
  mount(view, h('section', { class: 'card wide' }, h('div', { class: 'card-head' }, h('h1', {}, t('lb.title'))),
    h('div', { class: 'lb-status' }, t('conn.connecting'))));
  const list = pools();
  // Asked whether or not the socket has said who we are yet: the session cookie says it (a guest gets a 401).
  const me = app?.you?.guest ? Promise.resolve([]) : accounts.me().then((m) => m?.ratings || [], () => []);
  Promise.all([Promise.allSettled(list.map((p) => accounts.leaderboard(p, 100, 0))), me]).then(([boards, mine]) => {
    if (gone) return;
    const sizes = {};
    boards.forEach((b, i) => { if (b.status === 'fulfilled') sizes[list[i]] = entriesOf(b.value).length; });
    location.replace(href('leaderboard', { pool: choosePool(list, sizes, mine) }));
  });
  return () => { gone = true; };
}
