// Clock formatting and extrapolation between server figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatClock, clockAt, clockText, firstMoveLeft, describeTimeControl } from '../../web-client/js/clock.js';

test('clocks show minutes and seconds, hours when long, tenths under ten seconds', () => {
  assert.equal(formatClock(300_000), '5:00');
  assert.equal(formatClock(299_001), '5:00', 'whole seconds round up');
  assert.equal(formatClock(65_000), '1:05');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatClock(10_000), '0:10');
  assert.equal(formatClock(9_400), '9.4');
  assert.equal(formatClock(9_401), '9.5');
  assert.equal(formatClock(50), '0.1', 'time left never shows as zero');
  assert.equal(formatClock(0), '0:00');
  assert.equal(formatClock(-5), '0:00');
  assert.equal(formatClock(NaN), '0:00');
});

test('a Fischer clock counts down and flags at zero', () => {
  assert.deepEqual(clockAt({ remaining_ms: 5000 }, 1200), { ms: 3800, periods: 0, byoyomi: false, flagged: false });
  assert.equal(clockAt({ remaining_ms: 5000 }, 6000).flagged, true);
});

test('byo-yomi enters the periods after the main time and loses one per spent period', () => {
  const side = { remaining_ms: 1000, periods: 3 };
  assert.deepEqual(clockAt(side, 500, 30_000), { ms: 500, periods: 3, byoyomi: false, flagged: false });
  assert.deepEqual(clockAt(side, 1000 + 10_000, 30_000), { ms: 20_000, periods: 3, byoyomi: true, flagged: false });
  assert.deepEqual(clockAt(side, 1000 + 30_000 + 5_000, 30_000), { ms: 25_000, periods: 2, byoyomi: true, flagged: false });
  assert.equal(clockAt(side, 1000 + 90_000, 30_000).flagged, true);
  const inPeriod = { remaining_ms: 4000, periods: 1, byo_yomi: true };
  assert.equal(clockAt(inPeriod, 3000, 30_000).flagged, false);
  assert.equal(clockAt(inPeriod, 4000, 30_000).flagged, true, 'the last period spent loses');
});

test('a first action runs on its allowance before the main time moves', () => {
  const side = { remaining_ms: 5000, first_move_ms: 2000 };
  assert.deepEqual(clockAt(side, 1500), { ms: 5000, periods: 0, byoyomi: false, flagged: false });
  assert.equal(firstMoveLeft(side, 1500), 500);
  assert.deepEqual(clockAt(side, 3000), { ms: 4000, periods: 0, byoyomi: false, flagged: false });
  assert.equal(firstMoveLeft(side, 3000), 0);
  assert.equal(clockAt(side, 7000).flagged, true);
  assert.equal(firstMoveLeft({ remaining_ms: 5000 }, 0), 0);
});

test('time controls read as short labels', () => {
  assert.equal(describeTimeControl({ kind: 'none' }, () => 'none'), 'none');
  assert.equal(describeTimeControl({ kind: 'fischer', base_ms: 600_000, increment_ms: 5000 }), '10+5');
  assert.equal(describeTimeControl({ kind: 'byo_yomi', base_ms: 900_000, periods: 5, period_ms: 30_000 }), '15′ + 5×30s');
});

test('a spent Fischer clock reads 0:00, never as byo-yomi, and a finished game shows no first-move allowance (issue #36)', () => {
  const t = (k, p) => (k === 'room.periods' ? `${p.n}×` : `first move ${p.s}s`);
  // After a timeout, a side that never moved: no time left, its allowance never used.
  const never = { remaining_ms: 0, first_move_ms: 30_000 };
  assert.deepEqual(clockAt(never, 0, 0), { ms: 0, periods: 0, byoyomi: false, flagged: true });
  assert.equal(clockText(never, 0, { periodMs: 0, playing: false }, t), '0:00');
  assert.equal(clockText({ remaining_ms: 600_000, first_move_ms: 30_000 }, 0, { playing: false }, t), '10:00', 'over: the allowance is gone');
  // While the game runs the allowance shows; byo-yomi's periods still show once in them, down to a spent clock.
  assert.equal(clockText({ remaining_ms: 600_000, first_move_ms: 30_000 }, 4_000, { playing: true }, t), '10:00 · first move 26s');
  assert.equal(clockText({ remaining_ms: 20_000, periods: 3, byo_yomi: true }, 0, { periodMs: 30_000, playing: true }, t), '0:20 · 3×');
  assert.equal(clockText({ remaining_ms: 0, periods: 0, byo_yomi: true }, 0, { periodMs: 30_000, playing: false }, t), '0:00 · 0×');
  assert.equal(clockAt({ remaining_ms: 1000 }, 5000, 0).byoyomi, false, 'a Fischer flag fall is not byo-yomi');
});
