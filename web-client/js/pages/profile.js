// A player's profile: rating per pool with tier, record, a rating-history chart and recent games linking
// to their records.

import { h, mount } from '../dom.js';
import { t, errorText, formatDate } from '../i18n.js';
import { href } from '../router.js';
import { accounts } from '../api.js';
import { ratingChart } from '../chart.js';
import { tierBadge } from '../tier.js';

/**
 * Where a pool's rating stands against the leaderboard's rule (both parts: enough rated games and a settled
 * deviation), as the server reports it; nothing for an older server that does not.
 */
export function leaderboardProgress(r) {
  const p = r.leaderboard;
  if (!p) return null;
  if (p.listed) return h('div', { class: 'small lb-progress listed' }, t('profile.lb_listed'));
  return h('div', { class: 'small muted lb-progress', title: t('profile.lb_hint') }, t('profile.lb_progress', {
    games: Math.min(r.games ?? 0, p.min_games), min: p.min_games,
    dev: Math.round(r.deviation ?? 0), max: Math.round(p.max_deviation),
  }));
}

/** Per-pool ratings as a list [{pool, rating, deviation, tier, provisional, wins, losses, draws, history}]. */
export function poolsOf(p) {
  const r = p.ratings || p.pools || [];
  const list = Array.isArray(r) ? r : Object.entries(r).map(([pool, v]) => ({ pool, ...v }));
  return list.map((x) => ({ ...x, provisional: x.provisional ?? (x.deviation ?? 0) > 110 }));
}

/** The player's latest games, whatever the wrapper. */
export function gamesOf(data) {
  if (Array.isArray(data)) return data;
  return data?.games || data?.recent_games || data?.latest_games || [];
}

/** The outcome of a game for `name`: 'win', 'loss', 'draw' or null while unknown. */
export function outcomeFor(game, name) {
  if (game.state === 'aborted' || game.state === 'playing') return null;
  const winner = game.winner_name ?? game.result?.winner_name;
  const black = typeof game.black === 'object' ? game.black?.name : game.black;
  const white = typeof game.white === 'object' ? game.white?.name : game.white;
  const colour = game.winner ?? game.result?.winner;
  if (winner) return winner === name ? 'win' : 'loss';
  if (colour === 'black' || colour === 'white') return (colour === 'black' ? black : white) === name ? 'win' : 'loss';
  const reason = game.reason ?? game.result?.reason;
  if (reason && reason !== 'aborted') return 'draw';
  return null;
}

function gameRow(g, name) {
  const black = typeof g.black === 'object' ? g.black?.name : g.black;
  const white = typeof g.white === 'object' ? g.white?.name : g.white;
  const opp = black === name ? white : black;
  const o = outcomeFor(g, name);
  const when = g.ended_at ?? g.finished_at ?? g.started_at;
  const delta = g.rating_after != null && g.rating_before != null ? Math.round(g.rating_after) - Math.round(g.rating_before) : null;
  return h('a', { class: 'game-row', href: href('game', { id: g.public_id ?? g.id }) },
    h('span', { class: `stone-icon ${black === name ? 'black' : 'white'}` }),
    h('span', { class: 'opp' }, t('profile.vs', { name: opp ?? '?' })),
    h('span', { class: 'muted pool' }, g.pool ? t(`rule.${g.pool}`) : g.rules?.rule_set ? t(`rule.${g.rules.rule_set}`) : ''),
    o ? h('span', { class: `outcome ${o}` }, t(o === 'win' ? 'profile.win' : o === 'loss' ? 'profile.loss' : 'profile.drawn')) : h('span', {}),
    delta != null ? h('span', { class: delta >= 0 ? 'up' : 'down' }, `${delta >= 0 ? '+' : ''}${delta}`) : null,
    when ? h('time', { class: 'muted', datetime: new Date(when).toISOString() }, formatDate(when)) : null);
}

/** Mounts the profile page; returns its cleanup. */
export function render(view, params, app) {
  const name = params.name;
  const body = h('div', { class: 'profile' }, h('p', { class: 'muted' }, t('conn.connecting')));
  // "Sign out" on one's own profile only, and only while signed in: after signing out (here, in the header or on
  // another device) the socket says hello again as someone else, and the button goes.
  const signOut = h('span', { class: 'own' });
  const drawOwn = () => {
    const mine = app?.you && !app.you.guest && app.you.name === name;
    mount(signOut, mine ? h('button', { class: 'btn ghost', type: 'button', id: 'profile-signout', onclick: () => app.logout() }, t('nav.logout')) : null);
  };
  drawOwn();
  const offWelcome = app?.conn?.on('welcome', drawOwn);
  mount(view, h('section', { class: 'card wide' },
    h('div', { class: 'card-head' }, h('h1', {}, name), signOut),
    body));
  accounts.player(name).then(
    (p) => {
      const pools = poolsOf(p);
      const games = gamesOf(p);
      const list = h('div', { class: 'games' }, games.length ? games.map((g) => gameRow(g, name)) : h('p', { class: 'empty' }, t('profile.no_games')));
      // The server pages with next_before (null on the last page); older servers without it page by id.
      let before = p.next_before !== undefined ? p.next_before : games.length ? games[games.length - 1].id : null;
      const more = h('button', { class: 'btn', type: 'button', hidden: before == null }, t('profile.older'));
      more.addEventListener('click', () => {
        accounts.games(name, before).then((data) => {
          const next = gamesOf(data);
          next.forEach((g) => list.append(gameRow(g, name)));
          before = data?.next_before !== undefined ? data.next_before : next.length ? next[next.length - 1].id : null;
          more.hidden = before == null || next.length === 0;
        }, () => (more.hidden = true));
      });
      mount(body,
        h('h2', {}, t('profile.ratings')),
        h('div', { class: 'pools' }, pools.map((r) => h('div', { class: 'pool-card', dataset: { pool: r.pool } },
          h('div', { class: 'muted' }, t(`pool.${r.pool}`)),
          h('div', { class: 'big-rating' }, Math.round(r.rating) + (r.provisional ? '?' : '')),
          tierBadge(r.tier, r.tier_code),
          h('div', { class: 'muted small' }, t('profile.record', { w: r.wins ?? 0, l: r.losses ?? 0, d: r.draws ?? 0 })),
          leaderboardProgress(r)))),
        pools.some((r) => r.history?.length)
          ? [h('h2', {}, t('profile.history')), ...pools.filter((r) => r.history?.length).map((r) => {
              const box = h('div', { class: 'chart-box' }, h('div', { class: 'muted' }, t(`pool.${r.pool}`)));
              // Every rating starts at 1500 (Glicko-2 default) and the history lists the rating after each game, so the
              // chart begins from that start: a single game then shows as a step rather than a dot.
              const points = r.history.map((x) => ({ time: x.time ?? 0, rating: x.rating }));
              points.unshift({ time: (points[0]?.time ?? 1) - 1, rating: 1500 });
              box.insertAdjacentHTML('beforeend', ratingChart(points, { label: t('profile.history') }));
              return box;
            })]
          : null,
        h('h2', {}, t('profile.recent')), list, more);
    },
    (e) => mount(body, h('p', { class: 'notice' }, e.code === 'unavailable' || e.code === 'not_found' || e.status === 404 ? (e.code === 'unavailable' ? t('err.unavailable') : t('profile.not_found')) : errorText(e.code, e.message))),
  );
  return () => offWelcome?.();
}
