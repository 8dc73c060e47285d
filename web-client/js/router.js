// Hash routes, so the server needs no fallback for deep links: #/ (lobby), #/room/ID, #/room/ID/watch,
// #/game/ID, #/game/ID/MOVE, #/leaderboard/POOL, #/player/NAME, #/login, #/register.

/** Parses a location hash into {name, params}; unknown paths fall back to the lobby. */
export function parseRoute(hash) {
  const path = (hash || '').replace(/^#/, '').replace(/^\/+|\/+$/g, '');
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
      return { name: 'leaderboard', params: { pool: ['freestyle', 'standard', 'renju'].includes(a) ? a : 'renju' } };
    case 'player':
      if (a) return { name: 'player', params: { name: a } };
      break;
    case 'login':
      return { name: 'login', params: { mode: 'login' } };
    case 'register':
      return { name: 'login', params: { mode: 'register' } };
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
      return `#/leaderboard/${enc(params.pool || 'renju')}`;
    case 'player':
      return `#/player/${enc(params.name)}`;
    case 'login':
      return '#/login';
    case 'register':
      return '#/register';
    default:
      return '#/';
  }
}
