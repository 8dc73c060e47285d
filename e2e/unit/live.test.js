// The games running, kept per identity in storage: a game seen with us seated survives a reload, another identity
// has its own list, and a game that ends leaves it.

import test from 'node:test';
import assert from 'node:assert/strict';
import { installLive } from '../../web-client/js/live.js';

function fakeConn() {
  const listeners = new Map();
  return {
    on(type, fn) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type).add(fn);
      return () => listeners.get(type).delete(fn);
    },
    emit(type, msg) {
      for (const fn of listeners.get(type) || []) fn(msg);
    },
  };
}

function memoryStorage() {
  const m = new Map();
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

const playing = { t: 'room', room: { id: 'q1', record: 'k3', state: 'playing', you: 'white', seats: { black: { name: 'bo' }, white: { name: 'me' } } } };

test('a running game is remembered for its player, across a reload, until it ends', () => {
  const storage = memoryStorage();
  const conn = fakeConn();
  const live = installLive(conn, storage);
  conn.emit('welcome', { t: 'welcome', you: { id: 'u1' } });
  conn.emit('room', playing);
  assert.deepEqual(live.games(), [{ room: 'q1', record: 'k3', opponent: 'bo' }]);
  // A new page of the same identity reads it back.
  const again = fakeConn();
  const reloaded = installLive(again, storage);
  assert.deepEqual(reloaded.games(), []);
  again.emit('welcome', { t: 'welcome', you: { id: 'u1' } });
  assert.equal(reloaded.games().length, 1);
  // Someone else in this browser has no games of ours.
  const other = fakeConn();
  const theirs = installLive(other, storage);
  other.emit('welcome', { t: 'welcome', you: { id: 'u2' } });
  assert.deepEqual(theirs.games(), []);
  // The end of the game drops it, and so does the lobby's check of a finished record.
  conn.emit('event', { t: 'event', room: 'q1', version: 30, event: { kind: 'game_over', result: {} } });
  assert.deepEqual(live.games(), []);
  again.emit('paired', { t: 'paired', room: 'q2', opponent: 'cy' });
  reloaded.drop('q1');
  assert.deepEqual(reloaded.games().map((g) => g.room), ['q2']);
});
