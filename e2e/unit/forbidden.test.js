// The analysis board's forbidden points against the rules crate's conformance vectors: every point and kind the
// oracle lists, and no other point, for every position of rules/tests/data/forbidden.jsonl.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { makeBoard, forbiddenPoints, judge } from '../../web-client/js/analysis/forbidden.js';
import { parsePoint, formatPoint } from '../../web-client/js/games/gomoku/board.js';

const vectors = readFileSync(new URL('../../rules/tests/data/forbidden.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

test('every conformance vector gets exactly its forbidden points and kinds', () => {
  assert.ok(vectors.length > 1000);
  const wrong = [];
  for (const v of vectors) {
    const board = makeBoard(v.size, v.black, v.white, parsePoint);
    const got = Object.fromEntries(forbiddenPoints(board, formatPoint).map((f) => [f.point, f.kind]));
    const want = v.forbidden_kinds || Object.fromEntries(v.forbidden.map((p) => [p, '?']));
    const same = Object.keys(got).length === Object.keys(want).length && Object.entries(want).every(([p, k]) => got[p] === k || (k === '?' && got[p]));
    if (!same) wrong.push(`${v.id}: want ${JSON.stringify(want)} got ${JSON.stringify(got)}`);
  }
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} of ${vectors.length} differ`);
});

test('a black stone that makes five is a win, not forbidden, even beside an overline elsewhere', () => {
  const board = makeBoard(15, ['d8', 'e8', 'f8', 'g8', 'h4', 'h5', 'h6', 'h7', 'h9'], ['a1'], parsePoint);
  assert.equal(judge(board, 7, 7), 'five');
});

test('the judged point is left empty', () => {
  const board = makeBoard(15, ['g8', 'j8', 'h7', 'h9'], [], parsePoint);
  const before = board.cells.slice();
  judge(board, 7, 7);
  assert.deepEqual(board.cells, before);
});
