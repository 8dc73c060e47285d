// HTTP calls to the server's JSON API. Failures become an ApiError with a stable code, so pages can say
// something precise: `unavailable` when the endpoint does not exist yet (404/405 without a JSON error body),
// `network` when the server cannot be reached, or the server's own {code, message}.

/** An API failure with the server's stable code. */
export class ApiError extends Error {
  constructor(code, message, status = 0) {
    super(message || code);
    this.code = code;
    this.status = status;
  }
}

/** Turns a response into data or an ApiError; pure enough to test with a stub Response. */
export async function readResponse(res) {
  let body = null;
  const text = await res.text();
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (res.ok) return body;
  if (body && typeof body.code === 'string') throw new ApiError(body.code, body.message, res.status);
  if (res.status === 404 || res.status === 405 || res.status === 501) {
    throw new ApiError('unavailable', 'endpoint not available', res.status);
  }
  throw new ApiError('http_' + res.status, `HTTP ${res.status}`, res.status);
}

/** Where a game's export (its usual text form: Othello's move list, PDN, Gomoku's moves) is downloaded. */
export function exportUrl(id) {
  return `/api/games/${encodeURIComponent(id)}/export`;
}

/** GET or POST JSON to the API; cookies ride along for the session. */
export async function api(path, { method = 'GET', body, fetchImpl = globalThis.fetch } = {}) {
  let res;
  try {
    res = await fetchImpl(path, {
      method,
      credentials: 'same-origin',
      headers: body ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError('network', 'server unreachable');
  }
  return readResponse(res);
}

/**
 * The query of a player's game list: the filters that are set (`pool`, `rated`, `result`), then `before` and
 * `limit` when given; '' when there is none.
 */
export function gamesQuery(filters = {}, before = null, limit = null) {
  const q = new URLSearchParams();
  for (const k of ['pool', 'rated', 'result', 'finished']) if (filters[k] != null && filters[k] !== '') q.set(k, String(filters[k]));
  if (before != null) q.set('before', String(before));
  if (limit != null) q.set('limit', String(limit));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The accounts API of issue 4. */
export const accounts = {
  register: (username, password) => api('/api/register', { method: 'POST', body: { username, password } }),
  login: (username, password) => api('/api/login', { method: 'POST', body: { username, password } }),
  logout: () => api('/api/logout', { method: 'POST' }),
  // Revokes every session of the account and closes all its sockets, on every device.
  logoutEverywhere: () => api('/api/logout/everywhere', { method: 'POST' }),
  /** Changes the signed-in account's password (issue #35); the other sessions end, this one stays. */
  changePassword: (oldPassword, newPassword) =>
    api('/api/password', { method: 'POST', body: { old_password: oldPassword, new_password: newPassword } }),
  /** Sets a new password with an operator's one-time code; every session of the account ends. */
  resetPassword: (username, code, newPassword) =>
    api('/api/password/reset', { method: 'POST', body: { username, code, new_password: newPassword } }),
  me: () => api('/api/me'),
  leaderboard: (pool, limit = 50, offset = 0) =>
    api(`/api/leaderboard?pool=${encodeURIComponent(pool)}&limit=${limit}&offset=${offset}`),
  player: (name) => api(`/api/players/${encodeURIComponent(name)}`),
  /** A player's games, newest first: `before` pages; `pool`, `rated`, `result` and `finished` filter (issues #18, #36). */
  games: (name, before, filters = {}) => api(`/api/players/${encodeURIComponent(name)}/games${gamesQuery(filters, before)}`),
  game: (id) => api(`/api/games/${encodeURIComponent(id)}`),
  /** The computer's levels with their labels, and whether a new game against it would be refused now. */
  computer: () => api('/api/computer'),
};
