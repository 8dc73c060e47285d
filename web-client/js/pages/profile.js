// A player's profile: rating per pool with tier, record, a rating-history chart, the games being played now (to
// watch) and the archive of finished games linking to their records.

import { h, mount, toast } from '../dom.js';
import { t, errorText, formatDate, has } from '../i18n.js';
import { displayName, isComputer } from '../player.js';
import { href, PLAYER_FILTERS } from '../router.js';
import { pools as knownPools, seatIcon } from '../games/index.js';
import { accounts } from '../api.js';
import { ratingChart } from '../chart.js';
import { tierBadge } from '../tier.js';
import { ladderBadge } from '../ladder.js';
import { challengeButton, challengeSetting } from '../challenges.js';
import { changePasswordForm } from '../password.js';
import { communityBar, myCommunity } from '../community.js';

/**
 * Where a pool's rating stands against the leaderboard's rule (docs/ratings.md: rated games, different established
 * opponents, a deviation within the bound, a recent game), as the server reports it: each part still missing, in
 * words; nothing for an older server that does not report it.
 */
export function leaderboardProgress(r) {
  const p = r.leaderboard;
  if (!p) return null;
  if (p.listed) return h('div', { class: 'small lb-progress listed' }, t('profile.lb_listed'));
  const missing = [];
  if ((r.games ?? 0) < p.min_games) missing.push(t('profile.lb_games', { games: r.games ?? 0, min: p.min_games }));
  if (p.min_opponents != null && (p.established_opponents ?? 0) < p.min_opponents) {
    missing.push(t('profile.lb_opponents', { n: p.established_opponents ?? 0, min: p.min_opponents }));
  }
  if ((r.deviation ?? 0) > p.max_deviation) missing.push(t('profile.lb_deviation', { dev: Math.round(r.deviation ?? 0), max: Math.round(p.max_deviation) }));
  if (p.active === false) missing.push(t('profile.lb_inactive', { days: p.active_days }));
  return h('div', { class: 'small muted lb-progress', title: t('profile.lb_hint') },
    t('profile.lb_progress', { missing: missing.join(t('profile.lb_and')) }));
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

/** A rating pool's name in words (`renju`, `othello/standard`, …); an unknown pool by its code. */
export function poolLabel(pool) {
  if (!pool) return '';
  return has(`pool.${pool}`) ? t(`pool.${pool}`) : has(`rule.${pool}`) ? t(`rule.${pool}`) : pool;
}

/** Whether a profile's game was played against the computer (its opponent carries the flag): never rated. */
export function againstComputer(g, name) {
  const black = typeof g.black === 'object' ? g.black : null;
  const white = typeof g.white === 'object' ? g.white : null;
  const opp = black?.name === name ? white : black;
  return isComputer(opp);
}

/** The game-list filters of a profile route's params (issue #18): only those set, as the server takes them. */
export function filtersOf(params = {}) {
  const out = {};
  for (const k of PLAYER_FILTERS) if (params[k]) out[k] = params[k];
  return out;
}

/**
 * The pool filter's choices: the pools the player has standings in first (in the order given), then every other
 * known pool, then the chosen one when neither lists it (a link from a newer client); no pool twice.
 */
export function poolChoices(standings = [], known = [], chosen = null) {
  const out = [];
  for (const p of [...standings.map((r) => r.pool), ...known, chosen]) if (p && !out.includes(p)) out.push(p);
  return out;
}

/** Whether any filter narrows the list. */
export function filtered(filters) {
  return PLAYER_FILTERS.some((k) => filters?.[k]);
}

function gameRow(g, name) {
  const black = typeof g.black === 'object' ? g.black?.name : g.black;
  const opp = opponentOf(g, name);
  const computer = againstComputer(g, name);
  const o = outcomeFor(g, name);
  const when = g.ended_at ?? g.finished_at ?? g.started_at;
  const delta = g.rating_after != null && g.rating_before != null ? Math.round(g.rating_after) - Math.round(g.rating_before) : null;
  return h('a', { class: 'game-row', href: href('game', { id: g.public_id ?? g.id }) },
    seatIcon(g, black === name ? 'black' : 'white'),
    h('span', { class: 'opp' }, t('profile.vs', { name: opp ?? '?' })),
    h('span', { class: 'muted pool' }, g.pool ? poolLabel(g.pool) : g.rules?.rule_set ? t(`rule.${g.rules.rule_set}`) : ''),
    computer ? h('span', { class: 'badge computer vs-computer' }, t('computer.unrated')) : null,
    o ? h('span', { class: `outcome ${o}` }, t(o === 'win' ? 'profile.win' : o === 'loss' ? 'profile.loss' : 'profile.drawn')) : h('span', {}),
    delta != null ? h('span', { class: delta >= 0 ? 'up' : 'down' }, `${delta >= 0 ? '+' : ''}${delta}`) : null,
    when ? h('time', { class: 'muted', datetime: new Date(when).toISOString() }, formatDate(when)) : null);
}

/** The opponent of `name` in a game, as the lists show them (the computer by its level). */
function opponentOf(g, name) {
  const black = typeof g.black === 'object' ? g.black?.name : g.black;
  const white = typeof g.white === 'object' ? g.white?.name : g.white;
  const oppSeat = black === name ? g.white : g.black;
  return oppSeat && typeof oppSeat === 'object' ? displayName(oppSeat) : black === name ? white : black;
}

/** A game being played now (issue #36): who against, which game, and a link to watch it in its room. */
function playingRow(g, name) {
  const black = typeof g.black === 'object' ? g.black?.name : g.black;
  return h('div', { class: 'game-row playing-row', dataset: { room: g.room } },
    seatIcon(g, black === name ? 'black' : 'white'),
    h('span', { class: 'opp' }, t('profile.vs', { name: opponentOf(g, name) ?? '?' })),
    h('span', { class: 'muted pool' }, poolLabel(g.pool)),
    g.rated ? h('span', { class: 'badge rated' }, t('create.rated')) : h('span', { class: 'badge' }, t('create.casual')),
    h('a', { class: 'btn small watch', href: href('room', { id: g.room, watch: true }) }, t('lobby.watch')));
}

/** Mounts the profile page; returns its cleanup. */
export function render(view, params, app) {
  const name = params.name;
  const body = h('div', { class: 'profile' }, h('p', { class: 'muted' }, t('conn.connecting')));
  // "Sign out" on one's own profile only, and only while signed in: after signing out (here, in the header or on
  // another device) the socket says hello again as someone else, and the button goes.
  const signOut = h('span', { class: 'own' });
  const settings = h('div', { class: 'own-settings' });
  const drawOwn = () => {
    const mine = app?.you && !app.you.guest && app.you.name === name;
    mount(signOut,
      mine ? h('button', { class: 'btn ghost', type: 'button', id: 'profile-signout', onclick: () => app.logout() }, t('nav.logout')) : null,
      // Issue #18: challenge this player (not oneself), and on one's own profile who may challenge.
      mine ? null : challengeButton(app, { name }),
      // Issue #38: follow, block, report.
      mine ? null : communityBar(app, name));
    // Issue #35: one's own profile is where the password changes; #38: follows, blocks, reports, one's data.
    mount(settings, mine ? [challengeSetting(), changePasswordForm(), myCommunity(app)] : null);
  };
  drawOwn();
  const offWelcome = app?.conn?.on('welcome', drawOwn);
  mount(view, h('section', { class: 'card wide' },
    h('div', { class: 'card-head' }, h('h1', {}, name), signOut),
    settings,
    body));
  accounts.player(name).then(
    (p) => {
      const pools = poolsOf(p);
      // Issue #18: the games list filters by pool, rated and result, pages with next_before, and keeps its filters
      // in the address (replaceState: no new history entry, no remount) so a reload or a shared link keeps them.
      let filters = filtersOf(params);
      const list = h('div', { class: 'games', id: 'profile-games' }, h('p', { class: 'muted' }, t('conn.connecting')));
      const more = h('button', { class: 'btn', type: 'button', id: 'more-games', hidden: true }, t('profile.more'));
      const shown = h('span', { class: 'muted small', id: 'games-shown' });
      let before = null;
      let count = 0;
      let seq = 0;
      const select = (key, options) => h('select', { name: key, id: `filter-${key}` },
        options.map(([v, label]) => h('option', { value: v, selected: (filters[key] || '') === v }, label)));
      const clear = h('button', { class: 'btn ghost small', type: 'button', id: 'filter-clear' }, t('filter.clear'));
      const bar = h('form', { class: 'game-filters', id: 'game-filters', onsubmit: (e) => e.preventDefault() },
        h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('filter.pool')),
          select('pool', [['', t('filter.all_pools')], ...poolChoices(pools, knownPools(), filters.pool).map((x) => [x, poolLabel(x)])])),
        h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('filter.rated')),
          select('rated', [['', t('filter.all_rated')], ['true', t('filter.rated_only')], ['false', t('filter.casual_only')]])),
        h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('filter.result')),
          select('result', [['', t('filter.all_results')], ['win', t('filter.won')], ['loss', t('filter.lost')], ['draw', t('filter.drawn')]])),
        clear);
      const page = (fresh) => {
        const mine = ++seq;
        more.disabled = true;
        // The archive: finished games only; those being played are listed above it, to watch.
        accounts.games(name, fresh ? null : before, { ...filters, finished: true }).then((data) => {
          if (mine !== seq) return;
          const next = gamesOf(data);
          if (fresh) {
            count = 0;
            mount(list, next.length ? null : h('p', { class: 'empty', id: filtered(filters) ? 'no-match' : 'no-games' }, t(filtered(filters) ? 'filter.none_match' : 'profile.no_games')));
          }
          next.forEach((g) => list.append(gameRow(g, name)));
          count += next.length;
          before = data?.next_before ?? null;
          more.hidden = before == null || next.length === 0;
          more.disabled = false;
          shown.textContent = count ? t('filter.shown', { n: count }) : '';
        }, (e) => {
          if (mine !== seq) return;
          more.hidden = true;
          if (fresh) mount(list, h('p', { class: 'notice' }, errorText(e.code, e.message)));
          else toast(errorText(e.code, e.message), 'error');
        });
      };
      const apply = () => {
        clear.hidden = !filtered(filters);
        history.replaceState(history.state, '', href('player', { name, ...filters }));
        page(true);
      };
      bar.addEventListener('change', () => {
        const v = Object.fromEntries(new FormData(bar).entries());
        filters = filtersOf(v);
        apply();
      });
      clear.addEventListener('click', () => {
        filters = {};
        for (const el of bar.querySelectorAll('select')) el.value = '';
        apply();
      });
      clear.hidden = !filtered(filters);
      more.addEventListener('click', () => page(false));
      page(true);
      mount(body,
        // Issue #38: a moderator marked this account a cheater.
        p.marked_cheater_at ? h('p', { class: 'notice marked-cheater', id: 'marked-cheater' }, t('profile.marked_cheater', { date: formatDate(p.marked_cheater_at) })) : null,
        h('h2', {}, t('profile.ratings')),
        pools.length ? null : h('p', { class: 'empty muted', id: 'no-ratings' }, t('profile.no_ratings')),
        h('div', { class: 'pools' }, pools.map((r) => h('div', { class: 'pool-card', dataset: { pool: r.pool } },
          h('div', { class: 'muted' }, poolLabel(r.pool)),
          h('div', { class: 'big-rating' }, Math.round(r.rating) + (r.provisional ? '?' : '')),
          tierBadge(r.tier, r.tier_code, r.provisional),
          h('div', { class: 'ladder-line' }, ladderBadge(r.ladder)),
          h('div', { class: 'muted small' }, t('profile.record', { w: r.wins ?? 0, l: r.losses ?? 0, d: r.draws ?? 0 })),
          leaderboardProgress(r)))),
        pools.some((r) => r.history?.length)
          ? [h('h2', {}, t('profile.history')), ...pools.filter((r) => r.history?.length).map((r) => {
              const box = h('div', { class: 'chart-box' }, h('div', { class: 'muted' }, poolLabel(r.pool)));
              // Every rating starts at 1500 (Glicko-2 default) and the history lists the rating after each game, so the
              // chart begins from that start: a single game then shows as a step rather than a dot.
              const points = r.history.map((x) => ({ time: x.time ?? 0, rating: x.rating }));
              points.unshift({ time: (points[0]?.time ?? 1) - 1, rating: 1500 });
              box.insertAdjacentHTML('beforeend', ratingChart(points, { label: t('profile.history') }));
              return box;
            })]
          : null,
        p.playing?.length
          ? h('section', { class: 'playing-now', id: 'profile-playing' }, h('h2', {}, t('profile.playing')),
            h('div', { class: 'games' }, p.playing.map((g) => playingRow(g, name))))
          : null,
        h('div', { class: 'games-head' }, h('h2', {}, t('profile.recent')), shown), bar, list,
        h('div', { class: 'games-foot' }, more));
    },
    (e) => mount(body, h('p', { class: 'notice' }, e.code === 'unavailable' || e.code === 'not_found' || e.status === 404 ? (e.code === 'unavailable' ? t('err.unavailable') : t('profile.not_found')) : errorText(e.code, e.message))),
  );
  return () => offWelcome?.();
}
