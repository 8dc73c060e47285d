// Only accounts have profiles, so only their names link to one (issue #14, item 17).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isGuest } from '../../web-client/js/player.js';

test('a seat says whether it is a guest', () => {
  assert.equal(isGuest({ id: 'g5d0c3b8a1e6f2947c0d1', name: 'guest-7kq2', guest: true }), true);
  assert.equal(isGuest({ id: 'u12', name: 'kenta', guest: false }), false);
});

test('a lobby player without the flag is known by its id, a record name by the reserved guest- prefix', () => {
  assert.equal(isGuest({ id: 'g2b9e4a7c1d0f5836e2a4', name: 'guest-m3nd', colour: 'white' }), true);
  assert.equal(isGuest({ id: 'u7', name: 'mei', colour: 'black' }), false);
  assert.equal(isGuest({ name: 'guest-a1b2', colour: 'black' }), true);
  assert.equal(isGuest('guest-pshskv'), true);
  assert.equal(isGuest('lin_yue'), false);
});
