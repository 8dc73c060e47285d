// Board geometry, notation and SVG drawing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePoint, formatPoint, starPoints, geometry, toSvg, fromSvg, position, linePoints, renderBoard } from '../../web-client/js/games/gomoku/board.js';

test('points read and write in the server notation, rows counted from the bottom', () => {
  assert.deepEqual(parsePoint('h8'), { x: 7, y: 7 });
  assert.deepEqual(parsePoint('a1'), { x: 0, y: 0 });
  assert.deepEqual(parsePoint('o15', 15), { x: 14, y: 14 });
  assert.deepEqual(parsePoint('s19', 19), { x: 18, y: 18 });
  assert.deepEqual(parsePoint('t20', 20), { x: 19, y: 19 }, 'the far corner of 20x20');
  assert.equal(parsePoint('t20', 19), null);
  assert.equal(parsePoint('u1', 20), null, 'no column beyond t');
  assert.equal(parsePoint('a21', 20), null);
  assert.equal(formatPoint(7, 7), 'h8');
  assert.equal(formatPoint(8, 0), 'i1', 'no letter is skipped');
  for (let x = 0; x < 19; x++) for (let y = 0; y < 19; y++) assert.deepEqual(parsePoint(formatPoint(x, y), 19), { x, y });
  for (let x = 0; x < 20; x++) for (let y = 0; y < 20; y++) assert.deepEqual(parsePoint(formatPoint(x, y), 20), { x, y });
});

test('malformed or off-board points are refused', () => {
  for (const bad of ['', 'h', '8h', 'h0', 'p1', 'h16', 'z3', 'h8x', null, 42]) assert.equal(parsePoint(bad, 15), null, String(bad));
  assert.equal(parsePoint('p16', 15), null);
  assert.deepEqual(parsePoint('p16', 19), { x: 15, y: 15 });
});

test('star points are the centre and the 4-4 points on 15x15, nine hoshi on 19x19', () => {
  const s15 = starPoints(15).map((p) => formatPoint(p.x, p.y)).sort();
  assert.deepEqual(s15, ['d12', 'd4', 'h8', 'l12', 'l4']);
  const s19 = starPoints(19).map((p) => formatPoint(p.x, p.y));
  assert.equal(s19.length, 9);
  assert.ok(s19.includes('j10') && s19.includes('d4') && s19.includes('p16'));
  const s20 = starPoints(20).map((p) => formatPoint(p.x, p.y)).sort();
  assert.deepEqual(s20, ['d17', 'd4', 'q17', 'q4'], 'four points on the fourth lines of 20x20');
});

test('svg positions round-trip to intersections and taps between points are refused', () => {
  for (const size of [15, 19, 20]) {
    const g = geometry(size);
    for (const [x, y] of [[0, 0], [7, 7], [size - 1, 0], [0, size - 1], [size - 1, size - 1]]) {
      const { cx, cy } = toSvg(g, x, y);
      assert.deepEqual(fromSvg(g, cx, cy), { x, y });
      assert.deepEqual(fromSvg(g, cx + g.cell * 0.3, cy - g.cell * 0.3), { x, y }, 'a near tap snaps');
    }
  }
  const g = geometry(15);
  const a = toSvg(g, 7, 7);
  assert.equal(fromSvg(g, a.cx + g.cell / 2, a.cy + g.cell / 2, 0.45), null, 'the middle of a cell is ambiguous');
  assert.equal(fromSvg(g, 2, 2), null, 'outside the grid');
  assert.ok(toSvg(g, 0, 0).cy > toSvg(g, 0, 14).cy, 'row 1 is drawn at the bottom');
});

test('position alternates colours from black and stops at the requested ply', () => {
  const pos = position(['h8', 'h9', 'i9'], 2);
  assert.deepEqual([...pos.entries()], [['h8', { color: 'black', number: 1 }], ['h9', { color: 'white', number: 2 }]]);
});

test('winning lines are read as point lists or as start, direction and length', () => {
  assert.deepEqual(linePoints(['g7', 'g8', 'g9', 'g10', 'g11']), ['g7', 'g8', 'g9', 'g10', 'g11']);
  assert.deepEqual(linePoints({ start: 'a1', direction: [1, 1], len: 5 }, 15), ['a1', 'b2', 'c3', 'd4', 'e5']);
  assert.deepEqual(linePoints(null), []);
});

test('the board drawing has the grid, stars, coordinates, stones, last-move mark, win line and forbidden marks', () => {
  const svg = renderBoard({
    size: 15,
    moves: ['h8', 'h9', 'i8'],
    winLine: ['h8', 'i8'],
    forbidden: [{ point: 'j8', kind: 'double_three', label: 'double three' }, { point: 'h8', kind: 'overline' }],
  });
  assert.equal((svg.match(/<line /g) || []).length, 15 * 2 + 1, '15 lines each way plus the win line');
  assert.equal((svg.match(/class="stone /g) || []).length, 3);
  assert.match(svg, /class="stone black last" data-point="i8"|class="stone black win last" data-point="i8"/);
  assert.match(svg, /class="lastmark"/);
  assert.match(svg, /class="winline"/);
  assert.match(svg, /data-point="j8" data-kind="double_three"><title>double three<\/title>/);
  assert.doesNotMatch(svg, /class="forbidden" data-point="h8"/, 'no mark on an occupied point');
  for (const label of ['>a<', '>o<', '>1<', '>15<']) assert.ok(svg.includes(label), label);
  assert.ok(!svg.includes('>p<'), 'a 15x15 board stops at o');
});

test('move numbers replace the last-move dot; 19x19 boards get their letters to s', () => {
  const svg = renderBoard({ size: 19, moves: ['j10', 'k10'], numbers: true });
  assert.match(svg, /class="num"[^>]*>2</);
  assert.doesNotMatch(svg, /lastmark/);
  assert.ok(svg.includes('>s<') && svg.includes('>19<'));
});

test('text from outside never becomes markup in the drawing', () => {
  const svg = renderBoard({ size: 15, moves: [], forbidden: [{ point: 'a1', kind: 'x', label: '<script>' }], title: '"><b>' });
  assert.ok(!svg.includes('<script>') && !svg.includes('"><b>'));
});
