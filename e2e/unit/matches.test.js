// Issue #34's pure client logic: a challenge proposes a match, the match page's route and words, the ladder's
// title in each language.

import test from 'node:test';
import assert from 'node:assert/strict';
import { challengeMessage, describeChallenge, MATCH_SIZES } from '../../web-client/js/challenges.js';
import { parseRoute, href } from '../../web-client/js/router.js';
import { points, resultText } from '../../web-client/js/pages/match.js';
import { ladderTitle } from '../../web-client/js/ladder.js';
import { setLang } from '../../web-client/js/i18n.js';

test('a challenge of more than one game proposes a match; one game is the challenge as before', () => {
  setLang('en', null);
  const v = { game: 'othello', scoring: 'japanese', tc: 'none' };
  assert.equal(challengeMessage('bob', { ...v, games: '2' }).games, 2);
  assert.equal('games' in challengeMessage('bob', { ...v, games: '1' }), false);
  assert.equal('games' in challengeMessage('bob', v), false);
  assert.ok(MATCH_SIZES.every((n) => n === 1 || n % 2 === 0), 'every offered size suits every game');
  const c = { game: { game: 'othello', scoring: 'japanese' }, time_control: { kind: 'none' }, rated: false, games: 4 };
  assert.match(describeChallenge(c), /a match of 4 games/);
});

test('#/match/ID is the match page, and only with a numeric id', () => {
  assert.deepEqual(parseRoute('#/match/12'), { name: 'match', params: { id: '12' } });
  assert.equal(parseRoute('#/match/x').name, 'lobby');
  assert.equal(href('match', { id: 12 }), '#/match/12');
});

test('the match page writes half points and the result in both languages', () => {
  assert.equal(points(0), '0');
  assert.equal(points(0.5), '½');
  assert.equal(points(1.5), '1½');
  assert.equal(points(2), '2');
  setLang('en', null);
  assert.equal(resultText({ result: 'first', winner: 'alice' }), 'alice wins the match.');
  assert.equal(resultText({ result: 'playing', played: 1, games: 2 }), '1 of 2 games played');
  setLang('zh', null);
  assert.equal(resultText({ result: 'draw' }), '比赛打平。');
  assert.equal(resultText({ result: 'first', winner: 'alice' }), 'alice 赢得比赛。');
  setLang('en', null);
});

test('a ladder title is the source\'s Chinese in Chinese and ours in English', () => {
  const ladder = { kind: 'points', points: 2, title_code: 'newcomer', title: 'Newcomer', title_zh: '新手' };
  setLang('zh', null);
  assert.equal(ladderTitle(ladder), '新手');
  setLang('en', null);
  assert.equal(ladderTitle(ladder), 'Newcomer');
  assert.equal(ladderTitle(null), '');
});
