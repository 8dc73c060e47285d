// Issue #36: public games. The lobby's live games with the top-rated game of each kind first; the profile's archive
// query; and "claim the win" in a game without a clock, offered only once the opponent has been idle for the
// server's idle time, with the time left until then.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gamesQuery } from '../../web-client/js/api.js';
import { fromSnapshot, applyEvent, claimWin } from '../../web-client/js/state.js';

const { liveGames } = await import('../../web-client/js/pages/lobby.js');

const RENJU = { size: 15, rule_set: 'renju', forbidden_policy: 'reject', opening: 'soosorv8' };
const player = (name, colour, rating) => ({ id: name, name, colour, ...(rating != null ? { rating } : {}) });
const room = (id, ratings, extra = {}) => ({
  id, rules: RENJU, time_control: { kind: 'none' }, rated: true, state: 'playing', spectators: 0,
  players: [player(`${id}-b`, 'black', ratings[0]), player(`${id}-w`, 'white', ratings[1])], ...extra,
});

test('the live games list the top-rated game of each game first, then the others newest first', () => {
  const othello = { game: { game: 'othello', scoring: 'european' }, rules: undefined };
  const rooms = [
    room('new', [1500, 1510]),
    room('waiting', [2400, null], { state: 'waiting', players: [player('w', 'black', 2400)] }),
    room('strong', [1900, 1850]),
    room('computer', [2000, undefined]),
    room('oth-a', [1600, 1620], othello),
    room('oth-b', [1700, 1640], othello),
  ];
  const shown = liveGames(rooms).map((x) => [x.room.id, x.top]);
  assert.deepEqual(shown, [
    ['strong', true], ['oth-b', true],
    ['new', false], ['computer', false], ['oth-a', false],
  ], 'waiting rooms are not live; a game with one rated player (the computer) is never the top');
  assert.deepEqual(liveGames([]), []);
  assert.deepEqual(liveGames([room('only', [1500, 1500])]).map((x) => x.top), [true]);
});

test('the archive asks for finished games only', () => {
  assert.equal(gamesQuery({ result: 'win', finished: true }, 38), '?result=win&finished=true&before=38');
  assert.equal(gamesQuery({ finished: '' }), '');
});

const seat = (name) => ({ id: name, name, guest: true, connected: true });
// A version-2 snapshot: one stone down, the position in `view`.
const snapshot = (over = {}) => {
  const to_act = 'to_act' in over ? over.to_act : 'white';
  return {
    id: 'r1', version: 2, rules: RENJU, game: { game: 'gomoku', ...RENJU }, time_control: { kind: 'none' }, rated: false, public: true, game_id: 7,
    state: 'playing', seats: { black: seat('ann'), white: seat('bob') }, phase: 'none', to_act, moves: [],
    swapped: false, clocks: null, forbidden: [], claimable: null, fifth_options: null, offers: [], spectators: 0,
    result: null, idle_claim_ms: 300_000, claim_win_in_ms: 120_000, ...over,
    view: { game: 'gomoku', size: 15, moves: ['h8'], to_act, phase: to_act ? 'place' : null, swapped: false, forbidden: [], claimable: null, fifth_options: null, actions: ['h8'] },
  };
};
/** The `action` event of a stone: `at` actions before it. */
const move = (at, colour, point, ply, to_act) => ({ kind: 'action', at, by: colour, action: point, change: { game: 'gomoku', placed: point, ply, forbidden: [] }, to_act, phase: 'place', clocks: null });

test('the claim waits for the time the snapshot gives, then is offered', () => {
  const r = fromSnapshot(snapshot(), 'ann', 1_000);
  assert.deepEqual(claimWin(r, 1_000), { ready: false, leftMs: 120_000 });
  assert.deepEqual(claimWin(r, 120_999), { ready: false, leftMs: 1 }, 'not a millisecond early');
  assert.deepEqual(claimWin(r, 121_000), { ready: true, leftMs: 0 });
  assert.deepEqual(claimWin(fromSnapshot(snapshot({ claim_win_in_ms: 0 }), 'ann', 5), 5), { ready: true, leftMs: 0 });
});

test('every action starts the idle time again: right after its own stone a player waits the whole time', () => {
  let r = fromSnapshot(snapshot({ to_act: 'black', claim_win_in_ms: 0 }), 'bob', 0);
  assert.deepEqual(claimWin(r, 10), { ready: true, leftMs: 0 }, 'black is to act and idle: white may claim');
  r = fromSnapshot(snapshot({ to_act: 'black', claim_win_in_ms: 0 }), 'ann', 0);
  assert.equal(claimWin(r, 10), null, 'the player to act has nothing to claim');
  r = applyEvent(r, 3, move(1, 'black', 'h9', 2, 'white'), 50_000);
  assert.deepEqual(claimWin(r, 50_000), { ready: false, leftMs: 300_000 }, 'black, having just played, waits the idle time');
  assert.deepEqual(claimWin(r, 350_000), { ready: true, leftMs: 0 });
  // Chat and other events leave the idle time running.
  const chatted = applyEvent(r, 4, { kind: 'chat', from: 'bob', text: 'hm' }, 200_000);
  assert.deepEqual(claimWin(chatted, 350_000), { ready: true, leftMs: 0 });
});

test('nothing to claim for a spectator, under a clock, or once the game is over', () => {
  assert.equal(claimWin(fromSnapshot(snapshot(), 'carl', 0), 0), null);
  const timed = snapshot({ time_control: { kind: 'fischer', base_ms: 60_000, increment_ms: 0 }, idle_claim_ms: undefined, claim_win_in_ms: undefined });
  assert.equal(claimWin(fromSnapshot(timed, 'ann', 0), 999_999), null);
  assert.equal(claimWin(fromSnapshot(snapshot({ state: 'over', to_act: null }), 'ann', 0), 999_999), null);
});

test('a server that does not say when leaves the claim to its answer: offered at once', () => {
  const old = snapshot({ idle_claim_ms: undefined, claim_win_in_ms: undefined });
  assert.deepEqual(claimWin(fromSnapshot(old, 'ann', 0), 0), { ready: true, leftMs: 0 });
});
