// The record page's computer analysis (issue #33): the evaluation graph's geometry, the marks, which analysed
// position a record's move shows, and the scores as people read them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluationGraph, markedMoves, positionAt, positionAtFraction, plyOf, scoreText, tally } from '../../web-client/js/analysis/report.js';
import { evaluateBody } from '../../web-client/js/analysis/engine.js';

const pos = (advantage, ply) => ({ advantage, ply, score: { kind: 'units', value: 0 }, best: 'h8', line: ['h8'] });
const analysis = {
  positions: [pos(0, 0), pos(0.1, 1), pos(-0.2, 2), pos(1, 3)],
  moves: [
    { notation: 'h8', mover: 'black', judgment: null },
    { notation: 'a1', mover: 'white', judgment: 'blunder', reason: 'allowed_vcf' },
    { notation: 'o1', mover: 'black', judgment: 'mistake', reason: 'eval_drop', loss: 300 },
  ],
};

test('the graph draws one dot per judged move, after the move, with its judgment as its class', () => {
  const svg = evaluationGraph(analysis, { width: 306, height: 100, current: 2 });
  assert.match(svg, /^<svg[^>]*class="eval-graph"/);
  const dots = [...svg.matchAll(/<circle class="mark (\w+)" data-index="(\d+)" cx="([\d.]+)" cy="([\d.]+)"/g)];
  assert.deepEqual(dots.map((d) => [d[1], d[2]]), [['blunder', '1'], ['mistake', '2']]);
  // Position 2 (after move 2) at a third of the way less the padding; -0.2 is below the middle.
  assert.equal(Number(dots[0][3]), 6 + (2 / 3) * 294);
  assert.ok(Number(dots[0][4]) > 50);
  // Position 3 is a win for the first colour: at the top (the padding).
  assert.equal(Number(dots[1][4]), 6);
  assert.match(svg, /<line class="current" x1="202.0"/);
});

test('marks and tallies count the judged moves by side', () => {
  assert.deepEqual(markedMoves(analysis).map((m) => m.index), [1, 2]);
  assert.deepEqual(tally(analysis), { white: { inaccuracy: 0, mistake: 0, blunder: 1 }, black: { inaccuracy: 0, mistake: 1, blunder: 0 } });
});

test('a record of every action maps plies to positions one to one; a record of stones by the positions\' ply', () => {
  assert.equal(positionAt(analysis, 2, 3), 2);
  assert.equal(positionAt(analysis, 9, 3), 3);
  assert.equal(plyOf(analysis, 2, 3), 2);
  const swapped = { positions: [pos(0, 0), pos(0, 1), pos(0, 1), pos(0, 2)], moves: [{}, {}, {}] };
  assert.equal(positionAt(swapped, 1, 2), 2, 'the last position of move 1: after the swap');
  assert.equal(plyOf(swapped, 3, 2), 2);
});

test('a click maps to the nearest position', () => {
  assert.equal(positionAtFraction(analysis, 0), 0);
  assert.equal(positionAtFraction(analysis, 0.5), 2);
  assert.equal(positionAtFraction(analysis, 2), 3);
});

test('scores read as people read them', () => {
  assert.equal(scoreText({ kind: 'units', value: 150 }), '+1.5');
  assert.equal(scoreText({ kind: 'units', value: -40 }), '-0.4');
  assert.equal(scoreText({ kind: 'exact', value: 6 }), '=+6');
  assert.equal(scoreText({ kind: 'win' }), '#');
  assert.equal(scoreText({ kind: 'loss' }), '-#');
});

test('the engine is asked about the game, its configuration and the actions from the start', () => {
  assert.deepEqual(evaluateBody({ game: 'othello', config: 'scoring=japanese', actions: ['f5'] }), { game: 'othello', config: 'scoring=japanese', actions: ['f5'] });
  assert.deepEqual(evaluateBody({ game: 'gomoku', config: undefined, actions: [] }, 300).ms, 300);
});
