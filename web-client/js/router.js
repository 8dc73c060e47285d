// Hash routes, so the server needs no fallback for deep links: #/ (lobby), #/room/ID, #/room/ID/watch,
// #/game/ID, #/game/ID/MOVE, #/match/ID, #/events, #/event/ID, #/leaderboard/POOL, #/player/NAME (with the game list's filters as a query:
// #/player/NAME?pool=renju&rated=true&result=win), #/login, #/register, #/reset (a password reset code), #/analysis, #/mod (the moderators' console, #38), #/rules (every game's) and #/rules/GAME.

import { pools, GAMES } from './games/index.js';

/** Parses a location hash into {name, params}; unknown paths fall back to the lobby. */
export function parseRoute(hash) {
  const [rawPath, rawQuery = ''] = (hash || '').replace(/^#/, '').split('?');
  const path = rawPath.replace(/^\/+|\/+$/g, '');
  const parts = path ? path.split('/').map((p) => decodeURIComponent(p)) : [];
  const [head, a, b] = parts;
  switch (head) {
    case 'room':
      if (a) return { name: 'room', params: { id: a, watch: b === 'watch' } };
      break;
    case 'game':
      if (a) return { name: 'game', params: { id: a, ply: b !== undefined && /^\d+$/.test(b) ? Number(b) : null } };
      break;
    case 'leaderboard':
      // The pools come from the games (the served ones). Without one (or with an unknown one) the page picks
      // the pool worth opening: the player's own, else the largest (pages/leaderboard.js, choosePool).
      return { name: 'leaderboard', params: { pool: pools().includes(a) ? a : null } };
    case 'player':
      if (a) return { name: 'player', params: { name: a, ...playerQuery(rawQuery) } };
      break;
    case 'match':
      if (a && /^\d+$/.test(a)) return { name: 'match', params: { id: a } };
      break;
    case 'events': return { name: 'events', params: {} };
    case 'event': if (a && /^\d+$/.test(a)) return { name: 'event', params: { id: a } }; break;
    case 'login':
      return { name: 'login', params: { mode: 'login' } };
    case 'analysis':
      return { name: 'analysis', params: {} };
    case 'mod':
      return { name: 'mod', params: {} };
    case 'rules':
      // An unknown game gets the list of every game's rules.
      return { name: 'rules', params: { game: Object.hasOwn(GAMES, a ?? '') ? a : null } };
    case 'register':
      return { name: 'login', params: { mode: 'register' } };
    case 'reset':
      return { name: 'login', params: { mode: 'reset' } };
    default:
      break;
  }
  return { name: 'lobby', params: {} };
}

/** Builds a hash for a route (the inverse of parseRoute for the shareable pages). */
export function href(name, params = {}) {
  const enc = encodeURIComponent;
  switch (name) {
    case 'room':
      return `#/room/${enc(params.id)}${params.watch ? '/watch' : ''}`;
    case 'game':
      return `#/game/${enc(params.id)}${params.ply != null ? `/${params.ply}` : ''}`;
    case 'leaderboard':
      return params.pool ? `#/leaderboard/${enc(params.pool)}` : '#/leaderboard';
    case 'player': {
      // Only the filters that narrow the list: "all" leaves its key out.
      const q = new URLSearchParams();
      for (const k of PLAYER_FILTERS) if (params[k]) q.set(k, params[k]);
      const qs = q.toString();
      return `#/player/${enc(params.name)}${qs ? `?${qs}` : ''}`;
    }
    case 'match':
      return `#/match/${enc(params.id)}`;
    case 'events': return '#/events';
    case 'event': return `#/event/${enc(params.id)}`;
    case 'login':
      return '#/login';
    case 'analysis':
      return '#/analysis';
    case 'mod':
      return '#/mod';
    case 'rules':
      return params.game ? `#/rules/${enc(params.game)}` : '#/rules';
    case 'register':
      return '#/register';
    case 'reset':
      return '#/reset';
    default:
      return '#/';
  }
}

/** The profile's game-list filters a `#/player/NAME?…` link may carry. */
export const PLAYER_FILTERS = ['pool', 'rated', 'result'];

/** The filters of a profile link's query, each kept only when it is one the server takes. */
export function playerQuery(query) {
  const q = new URLSearchParams(query || '');
  const out = {};
  const pool = q.get('pool');
  if (pool && /^[a-z]+(\/[a-z]+)?$/.test(pool)) out.pool = pool;
  const rated = q.get('rated');
  if (rated === 'true' || rated === 'false') out.rated = rated;
  const result = q.get('result');
  if (result === 'win' || result === 'loss' || result === 'draw') out.result = result;
  return out;
}
