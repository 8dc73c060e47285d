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

/** The accounts API of issue 4. */
export const accounts = {
  register: (username, password) => api('/api/register', { method: 'POST', body: { username, password } }),
  login: (username, password) => api('/api/login', { method: 'POST', body: { username, password } }),
  logout: () => api('/api/logout', { method: 'POST' }),
  // Revokes every session of the account and closes all its sockets, on every device.
  logoutEverywhere: () => api('/api/logout/everywhere', { method: 'POST' }),
  me: () => api('/api/me'),
  leaderboard: (pool, limit = 50, offset = 0) =>
    api(`/api/leaderboard?pool=${encodeURIComponent(pool)}&limit=${limit}&offset=${offset}`),
  player: (name) => api(`/api/players/${encodeURIComponent(name)}`),
  games: (name, before) =>
    api(`/api/players/${encodeURIComponent(name)}/games${before ? `?before=${encodeURIComponent(before)}` : ''}`),
  game: (id) => api(`/api/games/${encodeURIComponent(id)}`),
};
