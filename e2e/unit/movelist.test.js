// One numbering everywhere: the move list numbers every stone, as the board and the record do (issue #14, item 19).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moveEntries, moveItems } from '../../web-client/js/movelist.js';

const moves = ['h8', 'g9', 'i8', 'k11', 'j8', 'f6', 'k8', 'l12', 'l8', 'm9', 'g8', 'h9', 'j10', 'f7', 'l8'];

test('stone 15 is numbered 15, not paired into move 8', () => {
  const entries = moveEntries(moves);
  assert.equal(entries.length, 15);
  assert.deepEqual(entries[14], { n: 15, point: 'l8', colour: 'black' });
  assert.deepEqual(entries[1], { n: 2, point: 'g9', colour: 'white' });
});

test('each list item carries its stone number as text and as its ply', () => {
  const h = (tag, attrs, ...children) => ({ tag, attrs, children });
  const items = moveItems(h, moves.slice(0, 2), (e) => ({ title: `ply ${e.n}` }));
  assert.deepEqual(items.map((li) => li.children.map((c) => c.children.join(''))), [['1.', 'h8'], ['2.', 'g9']]);
  assert.deepEqual(items.map((li) => [li.attrs.dataset.ply, li.attrs.class, li.attrs.title]), [[1, 'b', 'ply 1'], [2, 'w', 'ply 2']]);
});
