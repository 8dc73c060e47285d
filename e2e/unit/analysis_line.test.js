// The analysis board's line for any game (issue #33): moves in a game's notation join the board as Gomoku's
// stones do: the main line is never replaced, a move of one's own is the variation, the line's own move steps.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, playMove, goTo, goToMain, backToMain, variationOf, onVariation, stonesAt } from '../../web-client/js/analysis/line.js';

const RECORD = ['32-28', '19-23', '28x19', '14x23'];

test('playing the main line\'s own next move steps along it', () => {
  const a = playMove(start(RECORD, 0, 1), '19-23');
  assert.equal(a.ply, 2);
  assert.equal(a.variation, null);
  assert.deepEqual(a.main, RECORD);
});

test('a different move branches a variation and the main line stays whole', () => {
  let a = playMove(start(RECORD, 0, 1), '18-22');
  a = playMove(a, '28x17');
  assert.deepEqual(a.main, RECORD);
  assert.ok(onVariation(a));
  assert.deepEqual(stonesAt(a), ['32-28', '18-22', '28x17']);
  assert.deepEqual(variationOf(a), { from: 1, moves: ['18-22', '28x17'] });
  // Back on the main line, the variation is kept and the main line's moves are all there.
  a = backToMain(a);
  assert.equal(a.ply, 1);
  assert.deepEqual(a.line, RECORD);
  assert.deepEqual(variationOf(a), { from: 1, moves: ['18-22', '28x17'] });
  a = goToMain(a, 4);
  assert.deepEqual(stonesAt(a), RECORD);
});

test('a move at the end of a record is a variation, not a longer record', () => {
  const a = playMove(goTo(start(RECORD, 0), 4), '37-32');
  assert.deepEqual(a.main, RECORD);
  assert.deepEqual(variationOf(a), { from: 4, moves: ['37-32'] });
});

test('an empty board\'s own moves are its main line', () => {
  let a = playMove(start([], 0), 'f5');
  a = playMove(a, 'd6');
  assert.deepEqual(a.main, ['f5', 'd6']);
  assert.equal(variationOf(a), null);
});
