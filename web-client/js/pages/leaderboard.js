// The leaderboard per pool, with tiers as badges (names from the server).

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { accounts } from '../api.js';
import { tierBadge } from '../tier.js';
import { challengeButton } from '../challenges.js';
import { pools } from '../games/index.js';
const PAGE = 50;

/** The entries of a leaderboard response, whether it is a bare list or wrapped in an object. */
export function entriesOf(data) {
  if (Array.isArray(data)) return data;
  return data?.entries || data?.players || data?.leaderboard || [];
}


/** Mounts the leaderboard page; returns its cleanup. */
export function render(view, params, app) {
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
          h('td', { class: 'name' }, h('a', { href: href('player', { name: e.name }) }, e.name), ' ', h('span', { class: 'challenge-slot', dataset: { name: e.name } }, challengeButton(app, { name: e.name }, { small: true }))),
          h('td', {}, tierBadge(e.tier, e.tier_code)),
          h('td', { class: 'num rating' }, Math.round(e.rating)),
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
    for (const slot of body.querySelectorAll('.challenge-slot')) mount(slot, challengeButton(app, { name: slot.dataset.name }, { small: true }));
  });
  return () => off?.();
}
