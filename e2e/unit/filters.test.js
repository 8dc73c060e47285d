// Issue #18: the profile's game-list filters (route query, API query, pool choices) and seeks with a rating range
// (the create form's range, the pool of a spec, whether a lobby seek admits the viewer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRoute, href, playerQuery } from '../../web-client/js/router.js';
import { gamesQuery } from '../../web-client/js/api.js';
import { poolOfSpec, ratingIn, rangeFromForm, admits, seatVerdict, RatingRangeError, NEW_RATING } from '../../web-client/js/seek.js';

const { filtersOf, poolChoices, filtered } = await import('../../web-client/js/pages/profile.js');
const { createOptions, computerOptions } = await import('../../web-client/js/pages/lobby.js');

test('a profile link carries the set filters in its query and reads back the same', () => {
  const link = href('player', { name: 'Ann', pool: 'othello/standard', rated: 'false', result: 'draw' });
  assert.equal(link, '#/player/Ann?pool=othello%2Fstandard&rated=false&result=draw');
  assert.deepEqual(parseRoute(link), { name: 'player', params: { name: 'Ann', pool: 'othello/standard', rated: 'false', result: 'draw' } });
  assert.equal(href('player', { name: 'Ann', pool: '', rated: undefined }), '#/player/Ann');
  assert.deepEqual(parseRoute('#/player/Ann'), { name: 'player', params: { name: 'Ann' } });
});

test('a profile query keeps only values the server takes', () => {
  assert.deepEqual(playerQuery('pool=renju&rated=yes&result=won&x=1'), { pool: 'renju' });
  assert.deepEqual(playerQuery('pool=..%2Fetc&rated=true&result=loss'), { rated: 'true', result: 'loss' });
  assert.deepEqual(playerQuery(''), {});
});

test('a query after another route does not change that route', () => {
  assert.deepEqual(parseRoute('#/room/r7xk2p?x=1'), { name: 'room', params: { id: 'r7xk2p', watch: false } });
});

test('the games query names the set filters, then before and limit', () => {
  assert.equal(gamesQuery({}), '');
  assert.equal(gamesQuery({ pool: 'renju', rated: 'true', result: '' }, 38), '?pool=renju&rated=true&before=38');
  assert.equal(gamesQuery({ result: 'win' }, null, 5), '?result=win&limit=5');
  assert.equal(gamesQuery({ pool: 'othello/standard' }), '?pool=othello%2Fstandard');
});

test('filters from a route are the set ones only, and say whether they narrow', () => {
  assert.deepEqual(filtersOf({ name: 'Ann', pool: 'renju', rated: '', result: 'win' }), { pool: 'renju', result: 'win' });
  assert.equal(filtered({}), false);
  assert.equal(filtered({ rated: 'false' }), true);
});

test('the pool choices put the played pools first, then the rest, each once', () => {
  assert.deepEqual(poolChoices([{ pool: 'renju' }, { pool: 'othello/standard' }], ['freestyle', 'renju', 'standard', 'othello/standard']),
    ['renju', 'othello/standard', 'freestyle', 'standard']);
  assert.deepEqual(poolChoices([], ['freestyle'], 'future/pool'), ['freestyle', 'future/pool']);
});

test('a spec or lobby row plays in its pool', () => {
  assert.equal(poolOfSpec({ rules: { rule_set: 'renju' } }), 'renju');
  assert.equal(poolOfSpec({ game: { game: 'gomoku', rule_set: 'standard' } }), 'standard');
  assert.equal(poolOfSpec({ game: { game: 'othello', scoring: 'european' } }), 'othello/standard');
  assert.equal(poolOfSpec({ game: { game: 'draughts', variant: 'international' } }), 'draughts/international');
});

test('one rating per pool, 1500 where none', () => {
  const ratings = [{ pool: 'renju', rating: 1623.6 }];
  assert.equal(ratingIn(ratings, 'renju'), 1624);
  assert.equal(ratingIn(ratings, 'freestyle'), NEW_RATING);
  assert.equal(ratingIn(undefined, 'renju'), 1500);
});

test('the form range is any, plus or minus points around the rating, or explicit', () => {
  assert.equal(rangeFromForm({}), null);
  assert.equal(rangeFromForm({ range: 'any' }), null);
  assert.deepEqual(rangeFromForm({ range: '200' }, 1523.4), { min: 1323, max: 1723 });
  assert.deepEqual(rangeFromForm({ range: '500' }, 300), { min: 0, max: 800 });
  assert.deepEqual(rangeFromForm({ range: '500' }, 3800), { min: 3300, max: 4000 });
  assert.deepEqual(rangeFromForm({ range: 'custom', range_min: '1400', range_max: '1700' }), { min: 1400, max: 1700 });
  assert.deepEqual(rangeFromForm({ range: 'custom', range_min: '1500', range_max: '1500' }), { min: 1500, max: 1500 });
});

test('explicit bounds out of order, out of 0-4000 or not whole are bad_rating_range', () => {
  for (const [min, max] of [['1700', '1400'], ['-1', '100'], ['0', '4001'], ['', '1600'], ['1400.5', '1600'], ['x', '1']]) {
    assert.throws(() => rangeFromForm({ range: 'custom', range_min: min, range_max: max }), (e) => e instanceof RatingRangeError && e.code === 'bad_rating_range', `${min}-${max}`);
  }
});

test('a range admits ratings at both bounds, rounded, and no range admits all', () => {
  const r = { min: 1400, max: 1700 };
  assert.equal(admits(r, 1400), true);
  assert.equal(admits(r, 1700.4), true);
  assert.equal(admits(r, 1700.5), false);
  assert.equal(admits(r, 1399), false);
  assert.equal(admits(null, 9), true);
});

test('a lobby seek leaves out a viewer rated outside it, but never its seeker', () => {
  const row = { rules: { rule_set: 'renju' }, rating_range: { min: 1600, max: 1800 }, players: [{ id: 'u1', name: 'Ann', rating: 1700 }] };
  assert.deepEqual(seatVerdict(row, { id: 'g1', guest: true }, []), { ok: false, rating: 1500, range: row.rating_range });
  assert.equal(seatVerdict(row, { id: 'u2' }, [{ pool: 'renju', rating: 1650 }]).ok, true);
  assert.equal(seatVerdict(row, { id: 'u2' }, [{ pool: 'freestyle', rating: 1650 }]).ok, false);
  assert.equal(seatVerdict(row, { id: 'u1' }, []).ok, true);
  assert.equal(seatVerdict({ ...row, rating_range: undefined }, { id: 'g1' }, []).ok, true);
});

test('create_room carries the rating range around the rating in its own pool, and play_computer none', () => {
  const v = { game: 'gomoku', rule_set: 'renju', tc: 'none', rated: 'casual', visibility: 'public', colour: 'black', range: '100' };
  const ratings = [{ pool: 'renju', rating: 1712 }, { pool: 'freestyle', rating: 1300 }];
  assert.deepEqual(createOptions(v, undefined, ratings).rating_range, { min: 1612, max: 1812 });
  assert.deepEqual(createOptions({ ...v, rule_set: 'standard' }, undefined, ratings).rating_range, { min: 1400, max: 1600 });
  assert.equal('rating_range' in createOptions({ ...v, range: 'any' }), false);
  assert.throws(() => createOptions({ ...v, range: 'custom', range_min: '1800', range_max: '1200' }), { code: 'bad_rating_range' });
  assert.equal('rating_range' in computerOptions({ ...v, level: 2 }), false);
});
