// The result line says who won and why, naming the loser where the loser did it (issue #14, item 13).
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../../web-client/js/i18n.js';
import { resultSentence, resultHeadline } from '../../web-client/js/result.js';

const names = { black: 'guest-pshskv', white: 'kenta' };
afterEach(() => setLang('en', null));

test('a resignation names the winner as winner and the player who resigned', () => {
  const r = { winner: 'black', winner_name: 'guest-pshskv', reason: 'resign' };
  assert.equal(resultSentence(r, names), 'guest-pshskv wins: kenta resigned');
});

test('a forbidden move names the player who played it, with the kind and the point', () => {
  const r = { winner: 'white', winner_name: 'B', reason: 'forbidden_move', forbidden: { point: 'j8', kind: 'double_three' } };
  assert.equal(resultSentence(r, { black: 'A', white: 'B' }), 'B wins: A played a forbidden move (double three at j8)');
});

test('every decisive reason reads as a sentence about the winner', () => {
  const cases = {
    five: 'kenta wins with five in a row',
    timeout: 'kenta wins: guest-pshskv ran out of time',
    forbidden_claimed: "kenta wins by pointing out guest-pshskv's forbidden move (overline at k9)",
    abandoned: 'kenta wins: guest-pshskv left and did not come back',
    idle: 'kenta wins: guest-pshskv stopped moving',
  };
  for (const [reason, text] of Object.entries(cases)) {
    const r = { winner: 'white', winner_name: 'kenta', reason, forbidden: reason === 'forbidden_claimed' ? { point: 'k9', kind: 'overline' } : undefined };
    assert.equal(resultSentence(r, names), text, reason);
  }
});

test('without names the colours stand in, and draws and aborted games say so', () => {
  assert.equal(resultSentence({ winner: 'black', reason: 'resign' }), 'Black wins: White resigned');
  assert.equal(resultSentence({ winner: null, reason: 'draw_agreed' }, names), 'Drawn by agreement');
  assert.equal(resultSentence({ winner: null, reason: 'board_full' }, names), 'Drawn: the board is full');
  assert.equal(resultSentence({ winner: null, reason: 'no_legal_point' }, names), 'Drawn: every empty point is forbidden to black');
  assert.equal(resultSentence({ winner: null, reason: 'aborted' }, names), '');
  assert.equal(resultHeadline({ winner: 'black', reason: 'resign' }, 'white'), 'You lose');
});

test('in Chinese the sentence names the loser first, as Chinese reports a resignation', () => {
  setLang('zh', null);
  assert.equal(resultSentence({ winner: 'black', winner_name: 'guest-pshskv', reason: 'resign' }, names), 'kenta 认输，guest-pshskv 获胜');
  assert.equal(resultSentence({ winner: 'white', reason: 'forbidden_move', forbidden: { point: 'j8', kind: 'double_three' } }, { black: 'A', white: 'B' }), 'A 走出禁手（j8 三三），B 获胜');
});
