// Routing, lobby folding, create-room options, records, charts, API error handling, socket resumption.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRoute, href } from '../../web-client/js/router.js';
import { ratingChart, ratingBounds } from '../../web-client/js/chart.js';
import { readResponse, ApiError } from '../../web-client/js/api.js';
import { Connection, backoff } from '../../web-client/js/ws.js';
import { en, zh } from '../../web-client/js/i18n.js';

// Page modules import the DOM helpers lazily only when rendering, so their pure exports load in Node.
const { lobbyReduce, createOptions } = await import('../../web-client/js/pages/lobby.js');
const { normaliseRecord, clampPly } = await import('../../web-client/js/pages/record.js');
const { stonesOf } = await import('../../web-client/js/games/gomoku/record.js');
const { validate } = await import('../../web-client/js/pages/login.js');
const { outcomeFor, poolsOf } = await import('../../web-client/js/pages/profile.js');

test('routes round-trip through their hashes', () => {
  for (const [name, params] of [['room', { id: 'ab12' }], ['room', { id: 'ab12', watch: true }], ['game', { id: '3', ply: 12 }], ['player', { name: 'li_na' }], ['leaderboard', { pool: 'freestyle' }]]) {
    const r = parseRoute(href(name, params));
    assert.equal(r.name, name);
    for (const [k, v] of Object.entries(params)) assert.equal(r.params[k], v);
  }
  assert.equal(parseRoute('#/nonsense').name, 'lobby');
  assert.equal(parseRoute('').name, 'lobby');
  assert.equal(parseRoute('#/leaderboard/bogus').params.pool, null, 'the page picks the pool');
  assert.equal(parseRoute('#/leaderboard').params.pool, null);
  assert.equal(href('leaderboard'), '#/leaderboard');
  assert.equal(parseRoute('#/game/5').params.ply, null);
  assert.equal(parseRoute('#/player/%E6%9D%8E').params.name, '李');
});

test('lobby messages add, update and remove rooms', () => {
  let rooms = lobbyReduce([], { t: 'lobby', rooms: [{ id: 'a', state: 'waiting' }] });
  rooms = lobbyReduce(rooms, { t: 'lobby_room', room: { id: 'b', state: 'waiting' } });
  rooms = lobbyReduce(rooms, { t: 'lobby_room', room: { id: 'a', state: 'playing' } });
  assert.deepEqual(rooms.map((r) => `${r.id}:${r.state}`), ['b:waiting', 'a:playing']);
  rooms = lobbyReduce(rooms, { t: 'lobby_room_removed', id: 'b' });
  assert.deepEqual(rooms.map((r) => r.id), ['a']);
});

test('the create form becomes a create_room message of the protocol', () => {
  const o = createOptions({ rule_set: 'renju', forbidden_policy: 'claim', opening: 'swap_after_three', size: '19', tc: 'fischer', base: '5', increment: '3', rated: 'casual', visibility: 'private', colour: 'random' });
  assert.deepEqual(o, {
    rules: { size: 15, rule_set: 'renju', forbidden_policy: 'claim', opening: 'swap_after_three' },
    time_control: { kind: 'fischer', base_ms: 300_000, increment_ms: 3000 },
    rated: false, public: false, colour: 'random',
  });
  const b = createOptions({ rule_set: 'freestyle', opening: 'none', size: '19', tc: 'byo_yomi', base: '10', periods: '5', period: '30', rated: 'rated', visibility: 'public', colour: 'black' });
  assert.deepEqual(b.rules, { size: 19, rule_set: 'freestyle', opening: 'none' });
  assert.deepEqual(b.time_control, { kind: 'byo_yomi', base_ms: 600_000, periods: 5, period_ms: 30_000 });
  assert.equal(b.rated, true);
  assert.equal(createOptions({ rule_set: 'standard', opening: 'none', tc: 'none' }).time_control.kind, 'none');
});

test('a stored game record replays its stones: places and the chosen fifth, not the proposal or the swap', () => {
  const moves = [
    { seq: 0, action: { action: 'place', point: 'h8' } },
    { seq: 1, action: { action: 'place', point: 'h9' } },
    { seq: 2, action: { action: 'place', point: 'j10' } },
    { seq: 3, action: { action: 'decide_swap', swap: false } },
    { seq: 4, action: { action: 'place', point: 'g9' } },
    { seq: 5, action: { action: 'propose_fifth', points: ['k11', 'f6'] } },
    { seq: 6, action: { action: 'choose_fifth', point: 'k11' } },
  ];
  assert.deepEqual(stonesOf(moves), ['h8', 'h9', 'j10', 'g9', 'k11']);
  const rec = normaliseRecord({ id: 3, rules: { size: 15, rule_set: 'renju' }, black: 'ann', white: 'bob', moves, result: { winner: 'black', reason: 'five' } });
  assert.equal(rec.black, 'ann');
  assert.equal(rec.live, false);
  assert.equal(rec.link, 3, 'a record without a public id is linked by its id');
  assert.equal(normaliseRecord({ id: 3, public_id: 'k3m9q2x7w4p8z6c5', moves: [] }).link, 'k3m9q2x7w4p8z6c5', 'links name the public id');
  assert.equal(clampPly(99, 5), 5);
  assert.equal(clampPly(-1, 5), 0);
  assert.equal(clampPly(null, 5), 5);
});

test('the rating chart scales to round bounds and ends at the latest rating', () => {
  assert.deepEqual(ratingBounds([1500, 1530]), { lo: 1475, hi: 1550, step: 25 });
  assert.deepEqual(ratingBounds([1380, 1900]), { lo: 1200, hi: 2000, step: 200 });
  const svg = ratingChart([{ time: 2, rating: 1530 }, { time: 1, rating: 1500 }], { width: 200, height: 100 });
  assert.match(svg, /<path class="line" d="M44\.0 [\d.]+L188\.0 [\d.]+"/);
  assert.match(svg, /<circle class="end" cx="188.0"/);
  assert.doesNotMatch(ratingChart([]), /class="line"/);
});

test('API errors keep the server code; a missing endpoint reads as unavailable', async () => {
  const res = (status, body) => ({ ok: status < 400, status, text: async () => body });
  assert.deepEqual(await readResponse(res(200, '{"a":1}')), { a: 1 });
  await assert.rejects(readResponse(res(409, '{"code":"username_taken","message":"taken"}')), (e) => e instanceof ApiError && e.code === 'username_taken');
  await assert.rejects(readResponse(res(404, 'Not Found')), (e) => e.code === 'unavailable');
  await assert.rejects(readResponse(res(500, '')), (e) => e.code === 'http_500');
});

test('usernames and passwords are checked before a round trip', () => {
  assert.equal(validate('register', 'ab', 'longenough'), 'invalid_username');
  assert.equal(validate('register', 'li-na_2', 'short'), 'weak_password');
  assert.equal(validate('register', 'li-na_2', 'longenough'), null);
  assert.equal(validate('login', 'li-na_2', 'x'), null);
});

test('Chinese and other letters pass the form; two characters are enough only for Chinese, Japanese or Korean (#36)', () => {
  for (const name of ['李雷', '韩梅梅', '李雷_99', 'émile', 'Дмитрий', 'ゆき', '민수', '棋'.repeat(20), 'e\u0301mile']) {
    assert.equal(validate('register', name, 'longenough'), null, name);
  }
  for (const name of ['', 'ab', '李', '李a', '李 雷', 'dot.name', '棋'.repeat(21), 'emoji😀']) {
    assert.equal(validate('register', name, 'longenough'), 'invalid_username', name);
  }
  // A profile link encodes the name, and reading it back gives the name.
  assert.equal(href('player', { name: '李雷' }), '#/player/%E6%9D%8E%E9%9B%B7');
  assert.equal(parseRoute(href('player', { name: 'a/b?c' })).params.name, 'a/b?c');
});

test('every answer of the sign-in and registration form has words in both languages (#36)', () => {
  const codes = ['invalid_username', 'reserved_username', 'username_taken', 'username_confusable', 'weak_password', 'common_password', 'invalid_password', 'password_too_long', 'invalid_credentials', 'rate_limited', 'too_many_registrations'];
  for (const code of codes) {
    assert.ok(`err.${code}` in en && `err.${code}` in zh, code);
    assert.notEqual(zh[`err.${code}`], en[`err.${code}`], code);
  }
});

test('the password reset form has its own route, reached from the sign-in page', () => {
  assert.deepEqual(parseRoute('#/reset'), { name: 'login', params: { mode: 'reset' } });
  assert.equal(href('reset'), '#/reset');
});

test('profiles read ratings per pool and outcomes per game', () => {
  const pools = poolsOf({ ratings: { renju: { rating: 1600, deviation: 80 }, freestyle: { rating: 1500, deviation: 300 } } });
  assert.deepEqual(pools.map((p) => [p.pool, p.provisional]), [['renju', false], ['freestyle', true]]);
  assert.equal(outcomeFor({ black: 'ann', white: 'bob', result: { winner: 'white' } }, 'bob'), 'win');
  assert.equal(outcomeFor({ black: 'ann', white: 'bob', result: { winner: null, reason: 'draw_agreed' } }, 'bob'), 'draw');
  assert.equal(outcomeFor({ black: 'ann', white: 'bob', result: { winner_name: 'ann' } }, 'bob'), 'loss');
});

class FakeSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.sent = [];
    FakeSocket.all.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.onclose?.();
  }
  serve(msg) {
    this.onmessage({ data: JSON.stringify(msg) });
  }
}

function memoryStorage() {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

/** A connection over a fresh set of fake sockets, not yet connected. */
function fakeConnection() {
  FakeSocket.all = [];
  return new Connection('ws://x/ws', { WebSocketImpl: FakeSocket, storage: memoryStorage() });
}

/** The server's welcome on fake socket `s`. */
function welcome(s, name = 'g', token = 't') {
  s.serve({ t: 'welcome', you: { name, guest: true }, token, server_version: '0' });
}

test('a dropped socket reconnects with the same token and rejoins its rooms from the last version seen', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const conn = fakeConnection();
  conn.connect();
  const s1 = FakeSocket.all[0];
  s1.onopen();
  assert.deepEqual(s1.sent[0], { t: 'hello', version: 2 });
  welcome(s1, 'guest-a', 'tokA');
  const joined = conn.join('r1');
  const joinMsg = s1.sent[1];
  assert.deepEqual({ ...joinMsg, rid: 0 }, { t: 'join', room: 'r1', as: 'player', rid: 0 });
  s1.serve({ t: 'room', room: { id: 'r1', version: 4 }, rid: joinMsg.rid });
  await joined;
  s1.serve({ t: 'event', room: 'r1', version: 5, event: { kind: 'spectators', count: 1 } });
  s1.close();
  assert.equal(FakeSocket.all.length, 1, 'waits before reconnecting');
  t.mock.timers.tick(backoff(0));
  const s2 = FakeSocket.all[1];
  s2.onopen();
  assert.deepEqual(s2.sent[0], { t: 'hello', version: 2, token: 'tokA' });
  welcome(s2, 'guest-a', 'tokA');
  const rejoin = s2.sent[1];
  assert.equal(rejoin.t, 'join');
  assert.equal(rejoin.since, 5);
  assert.equal(rejoin.room, 'r1');
});

test('a hello refused as rate_limited says hello again on a new socket after the back-off', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const conn = fakeConnection();
  const statuses = [];
  conn.on('status', (s) => statuses.push(s.state));
  conn.connect();
  const s1 = FakeSocket.all[0];
  s1.onopen();
  s1.serve({ t: 'error', code: 'rate_limited', message: 'too many new guests from this address; try again in 6 s' });
  assert.equal(conn.ready, false);
  assert.deepEqual(statuses, ['connecting', 'offline'], 'the page hears it is offline, not stuck connecting');
  t.mock.timers.tick(backoff(0) - 1);
  assert.equal(FakeSocket.all.length, 1, 'waits out the back-off');
  t.mock.timers.tick(1);
  const s2 = FakeSocket.all[1];
  s2.onopen();
  assert.deepEqual(s2.sent[0], { t: 'hello', version: 2 });
  welcome(s2, 'guest-a', 'tokA');
  assert.equal(conn.ready, true);
  conn.close();
});

test('a revoked session forgets its token, so the reconnect says hello without it', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const conn = fakeConnection();
  const errors = [];
  conn.on('error', (e) => errors.push(e.code));
  conn.connect();
  const s1 = FakeSocket.all[0];
  s1.onopen();
  welcome(s1, 'alice', 'tokA');
  assert.equal(conn.token(), 'tokA');
  s1.serve({ t: 'error', code: 'session_revoked', message: 'signed out' });
  assert.deepEqual(errors, ['session_revoked'], 'the page hears of it (and says so)');
  assert.equal(conn.token(), undefined);
  s1.close();
  t.mock.timers.tick(backoff(0));
  const s2 = FakeSocket.all[1];
  s2.onopen();
  assert.deepEqual(s2.sent[0], { t: 'hello', version: 2 });
  conn.close();
});

test('a stored token the server no longer accepts is forgotten and hello is said again without it', () => {
  const conn = fakeConnection();
  conn.storage.setItem('gomoku.token', 'stale');
  const errors = [];
  conn.on('error', (e) => errors.push(e.code));
  conn.connect();
  const s1 = FakeSocket.all[0];
  s1.onopen();
  assert.deepEqual(s1.sent[0], { t: 'hello', version: 2, token: 'stale' });
  s1.serve({ t: 'error', code: 'invalid_token', message: 'this token is unknown or expired' });
  assert.equal(conn.token(), undefined);
  assert.deepEqual(s1.sent[1], { t: 'hello', version: 2 }, 'on the same socket, as a new guest');
  assert.deepEqual(errors, ['invalid_token'], 'the page hears of it');
  welcome(s1, 'guest-b', 'tokB');
  assert.equal(conn.ready, true);
  assert.equal(conn.token(), 'tokB');
  conn.close();
});

test('requests reject with the server error code and back-off grows to a ceiling', async () => {
  const conn = fakeConnection();
  conn.connect();
  const s = FakeSocket.all[0];
  s.onopen();
  welcome(s);
  const p = conn.request({ t: 'place', room: 'r', point: 'h8', ply: 1 });
  s.serve({ t: 'error', code: 'not_your_turn', message: 'no', rid: s.sent[1].rid });
  await assert.rejects(p, (e) => e.code === 'not_your_turn');
  assert.deepEqual([0, 1, 2, 3, 4, 10].map(backoff), [500, 1000, 2000, 4000, 8000, 8000]);
  conn.close();
});

test('tier badges key their colour on the tier code', async () => {
  const { tierSlug } = await import('../../web-client/js/tier.js');
  assert.equal(tierSlug('Club Player'), 'club_player');
  assert.equal(tierSlug('International Master'), 'international_master');
  assert.equal(tierSlug(''), '');
});

test('a room joined before the welcome is joined once, not again by the resumption', () => {
  const conn = fakeConnection();
  conn.connect();
  conn.join('r1').catch(() => {});
  const s = FakeSocket.all[0];
  s.onopen();
  welcome(s);
  assert.equal(s.sent.filter((m) => m.t === 'join').length, 1);
  conn.close();
});

test('a connection whose pings go unanswered is dropped and reconnects', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const conn = fakeConnection();
  conn.connect();
  const s = FakeSocket.all[0];
  s.onopen();
  welcome(s);
  t.mock.timers.tick(20_000);
  const ping = s.sent.find((m) => m.t === 'ping');
  assert.ok(ping, 'a ping after 20 s');
  s.serve({ t: 'pong', rid: ping.rid });
  t.mock.timers.tick(10_000);
  assert.equal(FakeSocket.all.length, 1, 'an answered ping keeps the socket');
  t.mock.timers.tick(10_000);
  t.mock.timers.tick(10_000);
  t.mock.timers.tick(backoff(0));
  assert.equal(FakeSocket.all.length, 2, 'an unanswered ping drops the socket and a new one opens');
  conn.close();
});

// Issue #14 item 20: the record shows the swap and each move's time; the API has them in `actions`.
test('a record from GET /api/games/{id} keeps each stone\'s time and where the colours were swapped', async () => {
  const { normaliseRecord } = await import('../../web-client/js/pages/record.js');
  const { actionDetails } = await import('../../web-client/js/games/gomoku/record.js');
  const { formatUsed } = await import('../../web-client/js/movelist.js');
  const actions = [
    { seq: 0, action: { action: 'place', point: 'h8' }, used_ms: 1200, remaining_ms: null, at: 1 },
    { seq: 1, action: { action: 'place', point: 'h9' }, used_ms: 3400, remaining_ms: null, at: 2 },
    { seq: 2, action: { action: 'place', point: 'j10' }, used_ms: 59_999, remaining_ms: null, at: 3 },
    { seq: 3, action: { action: 'decide_swap', swap: true }, used_ms: 8000, remaining_ms: null, at: 4 },
    { seq: 4, action: { action: 'place', point: 'g9' }, used_ms: 65_000, remaining_ms: null, at: 5 },
  ];
  const rec = normaliseRecord({ id: 3, public_id: 'k3', rules: { size: 15, rule_set: 'renju' }, black: { name: 'bob', guest: false }, white: { name: 'ann', guest: false }, moves: ['h8', 'h9', 'j10', 'g9'], actions, swapped: true, result: null });
  assert.deepEqual(rec.moves, ['h8', 'h9', 'j10', 'g9']);
  assert.deepEqual(rec.times, [1200, 3400, 59_999, 65_000]);
  assert.equal(rec.swapAfter, 3);
  assert.equal(actionDetails(actions.map((a) => (a.seq === 3 ? { ...a, action: { action: 'decide_swap', swap: false } } : a))).swapAfter, null, 'kept colours: no marker');
  assert.deepEqual([formatUsed(1200), formatUsed(59_999), formatUsed(60_000), formatUsed(65_000), formatUsed(undefined)], ['1.2s', '59.9s', '1:00', '1:05', '']);
});

/** A socket whose close completes later, as a browser's does; sending on it once closing is the console error. */
class ClosingSocket extends FakeSocket {
  constructor(url) {
    super(url);
    this.sentWhileClosing = [];
  }
  send(text) {
    if (this.closing) this.sentWhileClosing.push(JSON.parse(text));
    else super.send(text);
  }
  close() {
    this.closing = true;
  }
  finishClose() {
    this.onclose?.();
  }
}

// Issue #14 item 20: "WebSocket is already in CLOSING or CLOSED state" on every sign-in.
test('after a drop nothing is sent on the closing socket: requests wait for the next welcome', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  ClosingSocket.all = FakeSocket.all = [];
  const conn = new Connection('ws://x/ws', { WebSocketImpl: ClosingSocket, storage: memoryStorage() });
  conn.connect();
  const s1 = FakeSocket.all[0];
  s1.onopen();
  welcome(s1, 'guest-a', 'tokA');
  // Sent on the first socket: the drop loses its answer.
  const first = conn.subscribeLobby().then(() => 'answered', (e) => e.code);
  conn.drop();
  // The page (the lobby after a sign-in) asks for things before the close completes.
  const lobby = conn.subscribeLobby();
  s1.finishClose();
  assert.deepEqual(s1.sentWhileClosing, []);
  assert.equal(await first, 'disconnected');
  t.mock.timers.tick(backoff(0));
  const s2 = FakeSocket.all[1];
  s2.onopen();
  welcome(s2, 'ann', 'tokB');
  assert.deepEqual(s2.sent.map((m) => m.t), ['hello', 'subscribe_lobby'], 'the subscription goes once, on the new socket');
  s2.serve({ t: 'lobby', rooms: [], rid: s2.sent[1].rid });
  conn.close();
  return lobby;
});

test('the leaderboard opens on the player\'s own pool when its board has players, else on the largest (issue #36)', async () => {
  const { choosePool } = await import('../../web-client/js/pages/leaderboard.js');
  const pools = ['renju', 'freestyle', 'standard', 'othello/standard', 'draughts/international'];
  assert.equal(choosePool(pools, { renju: 0, freestyle: 7, 'othello/standard': 3 }), 'freestyle', 'the largest, not an empty first tab');
  assert.equal(choosePool(pools, { renju: 0, freestyle: 7, 'othello/standard': 3 }, [{ pool: 'othello/standard', games: 12 }, { pool: 'freestyle', games: 2 }]), 'othello/standard', 'the player\'s own');
  assert.equal(choosePool(pools, { freestyle: 7 }, [{ pool: 'renju', games: 30 }]), 'freestyle', 'not the own pool while its board is empty');
  assert.equal(choosePool(pools, {}), 'renju', 'nothing anywhere: the first pool');
});
