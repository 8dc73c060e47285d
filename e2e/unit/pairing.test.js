// Issue #18's pure client logic: quick-pairing presets, counts and seeks; the games running; challenge messages and
// words; the analysis board's line of play; the tab title; the record's downloads.

import test from 'node:test';
import assert from 'node:assert/strict';
import { fetchPresets, groupByGame, optionWords, countsOf, presetSeek, customSeek, liveReduce } from '../../web-client/js/pairing.js';
import { challengeMessage, colourFor, closedNotice, challengeable, describeChallenge, challengeTarget, opponentHere } from '../../web-client/js/challenges.js';
import { start, goTo, goToMain, goToVariation, play, backToMain, branchPly, variationOf, onVariation, forbiddenAt, winLine, toPlay } from '../../web-client/js/analysis/line.js';
import { titleFor } from '../../web-client/js/attention.js';
import { downloadChoices } from '../../web-client/js/pages/record.js';
import { setLang, t } from '../../web-client/js/i18n.js';

setLang('en', null);

// What GET /api/quick answers (the server's order: each game's presets together).
const SERVED = [
  { id: 'renju-5+3', game: { game: 'gomoku', size: 15, rule_set: 'renju', forbidden_policy: 'reject', opening: 'soosorv_8' }, time_control: { kind: 'fischer', base_ms: 300_000, increment_ms: 3000 } },
  { id: 'freestyle-3+2', game: { game: 'gomoku', size: 15, rule_set: 'freestyle', forbidden_policy: 'reject', opening: 'none' }, time_control: { kind: 'fischer', base_ms: 180_000, increment_ms: 2000 } },
  { id: 'othello-3+2', game: { game: 'othello', scoring: 'japanese' }, time_control: { kind: 'fischer', base_ms: 180_000, increment_ms: 2000 } },
  { id: 'draughts-5+5', game: { game: 'draughts', variant: 'international' }, time_control: { kind: 'fischer', base_ms: 300_000, increment_ms: 5000 } },
  { id: 'insect-3+2', game: { game: 'insect' }, time_control: { kind: 'fischer', base_ms: 180_000, increment_ms: 2000 } },
];

test('the presets are the server\'s, fetched once, grouped by game in its order (#33)', async () => {
  let calls = 0;
  const fetchImpl = async (url) => {
    calls += 1;
    assert.equal(url, '/api/quick');
    return new Response(JSON.stringify({ presets: SERVED }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  assert.deepEqual(await fetchPresets(fetchImpl), SERVED);
  assert.deepEqual(await fetchPresets(fetchImpl), SERVED);
  assert.equal(calls, 1);
  const groups = groupByGame(SERVED);
  assert.deepEqual(groups.map((g) => [g.game, g.presets.map((p) => p.id)]), [
    ['gomoku', ['renju-5+3', 'freestyle-3+2']], ['othello', ['othello-3+2']], ['draughts', ['draughts-5+5']], ['insect', ['insect-3+2']],
  ]);
  assert.deepEqual(groupByGame([]), []);
});

test('a tile names its rule set and opening, or its scoring; a game without options has no words (#36)', () => {
  assert.deepEqual(SERVED.map((p) => optionWords(p.game)), ['Renju · Soosõrv-8', 'Freestyle', 'Japanese scoring', '', '']);
  setLang('zh', null);
  assert.deepEqual(SERVED.slice(0, 3).map((p) => optionWords(p.game)), ['连珠（有禁手） · 索索夫-8', '无禁手', '日式计分']);
  setLang('en', null);
});

test('the renju seeks and challenges play Soosõrv-8 unless another opening is chosen (#36)', () => {
  assert.equal(customSeek({ rule_set: 'renju', tc: 'fischer', base: '5', increment: '3' }).rules.opening, 'soosorv_8');
  assert.equal(customSeek({ rule_set: 'renju', opening: 'swap2', tc: 'fischer', base: '5', increment: '3' }).rules.opening, 'swap2');
  // The form's radio values are opening families with their N beside them.
  assert.equal(customSeek({ rule_set: 'renju', opening: 'soosorv', soosorv_n: '6', tc: 'none' }).rules.opening, 'soosorv_6');
  assert.equal(customSeek({ rule_set: 'freestyle', tc: 'fischer', base: '5', increment: '3' }).rules.opening, 'none');
  assert.equal(challengeMessage('bob', { rule_set: 'renju', tc: 'none', rated: 'rated' }).rules.opening, 'soosorv_8');
  assert.equal(challengeMessage('bob', { rule_set: 'renju', opening: 'taraguchi_10', tc: 'none' }).rules.opening, 'taraguchi_10');
  assert.equal(challengeMessage('bob', { rule_set: 'renju', forbidden_policy: 'lose', tc: 'none' }).rules.forbidden_policy, 'lose');
  // The words name the opening: a generic-form Gomoku challenge too.
  const tc = { kind: 'fischer', base_ms: 300000, increment_ms: 3000 };
  assert.equal(describeChallenge({ rules: { rule_set: 'renju', opening: 'soosorv_8' }, time_control: tc, rated: true }), 'Renju · Soosõrv-8 · 5+3 · Rated');
  assert.equal(describeChallenge({ game: { game: 'gomoku', rule_set: 'renju', opening: 'swap2' }, time_control: tc, rated: false }), 'Renju · Swap2 · 5+3 · Casual');
});

test('a custom seek and a challenge of another game carry its spec, and the card says its options (#33, #36)', () => {
  const tc = { kind: 'fischer', base_ms: 180000, increment_ms: 2000 };
  assert.deepEqual(customSeek({ game: 'othello', scoring: 'european', tc: 'fischer', base: '3', increment: '2' }), {
    t: 'seek_quick', preset: 'custom', game: { game: 'othello', scoring: 'european' }, time_control: tc, rated: false,
  });
  assert.deepEqual(challengeMessage('bob', { game: 'draughts', variant: 'international', tc: 'fischer', base: '3', increment: '2', rated: 'rated', colour: 'white' }), {
    t: 'challenge', to: 'bob', game: { game: 'draughts', variant: 'international' }, time_control: tc, rated: true, colour: 'white',
  });
  assert.deepEqual(challengeMessage('bob', { game: 'insect', tc: 'none' }).game, { game: 'insect' });
  assert.equal(describeChallenge({ game: { game: 'othello', scoring: 'european' }, time_control: tc, rated: false }), 'Othello · European scoring · 3+2 · Casual');
  assert.equal(describeChallenge({ game: { game: 'draughts', variant: 'international' }, time_control: tc, rated: true }), 'International draughts · 3+2 · Rated');
  assert.equal(describeChallenge({ game: { game: 'insect' }, time_control: tc, rated: true }), 'Insect chess · 3+2 · Rated');
  // Gomoku's card names the forbidden-move rule too.
  assert.equal(describeChallenge({ rules: { rule_set: 'renju', forbidden_policy: 'lose', opening: 'swap2' }, time_control: tc, rated: true }), `Renju · ${t('policy_long.lose')} · Swap2 · 3+2 · Rated`);
});

test('quick_counts become a map by preset, and an absent preset counts nothing', () => {
  const m = countsOf({ t: 'quick_counts', presets: [{ preset: 'renju-3+2', waiting: 1, playing: 12 }, { preset: 'custom', waiting: 0, playing: 1 }] });
  assert.deepEqual(m.get('renju-3+2'), { waiting: 1, playing: 12 });
  assert.deepEqual(m.get('custom'), { waiting: 0, playing: 1 });
  assert.equal(m.get('renju-5+3'), undefined);
});

test('a tile seeks its preset; the custom form seeks its rules and clock', () => {
  assert.deepEqual(presetSeek('renju-5+3', false), { t: 'seek_quick', preset: 'renju-5+3', rated: false });
  assert.deepEqual(customSeek({ rule_set: 'freestyle', tc: 'fischer', base: '1', increment: '1', rated: false }), {
    t: 'seek_quick', preset: 'custom', rules: { size: 15, rule_set: 'freestyle', opening: 'none' }, time_control: { kind: 'fischer', base_ms: 60000, increment_ms: 1000 }, rated: false,
  });
  const renju = customSeek({ rule_set: 'renju', tc: 'byo_yomi', base: '5', periods: '3', period: '20', rated: true });
  assert.equal(renju.rules.forbidden_policy, 'reject');
  assert.deepEqual(renju.time_control, { kind: 'byo_yomi', base_ms: 300000, periods: 3, period_ms: 20000 });
  assert.equal(renju.rated, true);
});

test('a game running with us seated is remembered until it is over', () => {
  let live = new Map();
  live = liveReduce(live, { t: 'room', room: { id: 'q1', record: 'k3', state: 'playing', you: 'black', seats: { black: { name: 'me' }, white: { name: 'bo' } } } });
  live = liveReduce(live, { t: 'paired', room: 'q1', opponent: 'bo' });
  assert.deepEqual(live.get('q1'), { room: 'q1', record: 'k3', opponent: 'bo' });
  // Watching someone else's game is not ours.
  live = liveReduce(live, { t: 'room', room: { id: 'w', state: 'playing', you: null, seats: {} } });
  assert.equal(live.has('w'), false);
  live = liveReduce(live, { t: 'event', room: 'q1', version: 9, event: { kind: 'game_over', result: { winner: 'black' } } });
  assert.equal(live.size, 0);
});

test('the challenge message carries the form\'s game, clock, rating and colour', () => {
  assert.deepEqual(challengeMessage('bob', { rule_set: 'renju', tc: 'fischer', base: '5', increment: '3', rated: 'rated', colour: 'random' }), {
    t: 'challenge', to: 'bob', rules: { size: 15, rule_set: 'renju', opening: 'soosorv_8', forbidden_policy: 'reject' },
    time_control: { kind: 'fischer', base_ms: 300000, increment_ms: 3000 }, rated: true, colour: 'random',
  });
  assert.equal(challengeMessage('bob', { rule_set: 'freestyle', tc: 'none', rated: 'casual' }).time_control.kind, 'none');
});

test('the challenged player is told the colour opposite the challenger\'s', () => {
  const c = { from: 'alice', to: 'bob', colour: 'black' };
  assert.equal(colourFor(c, 'bob'), 'white');
  assert.equal(colourFor(c, 'alice'), 'black');
  assert.equal(colourFor({ ...c, colour: 'random' }, 'bob'), 'random');
});

test('a closed challenge tells the challenger why, in words', () => {
  const c = { to: 'bob' };
  assert.equal(closedNotice({ reason: 'accepted', room: 'x' }, c), null);
  assert.deepEqual(closedNotice({ reason: 'declined', decline: 'later' }, c), { key: 'challenge.declined_by', params: { name: 'bob', reason: 'Not now, later' } });
  assert.equal(closedNotice({ reason: 'declined', decline: 'whatever' }, c).params.reason, 'No, thanks');
  assert.equal(closedNotice({ reason: 'expired' }, c).key, 'challenge.expired_out');
  assert.equal(closedNotice({ reason: 'cancelled' }, c).key, 'challenge.cancelled_out');
  assert.equal(describeChallenge({ rules: { rule_set: 'renju' }, time_control: { kind: 'fischer', base_ms: 300000, increment_ms: 3000 }, rated: true }), 'Renju · 5+3 · Rated');
});

test('a bare name gets a challenge only once it is a person\'s account, never the computer\'s (#36)', async () => {
  const player = async (name) => {
    if (name === 'nobody') throw Object.assign(new Error('no'), { code: 'not_found' });
    return { name };
  };
  const computer = async () => ({ levels: [{ level: 8, name: 'computer-8' }], engines: ['rapfi'] });
  assert.equal(await challengeTarget('bob', { player, computer }), true);
  assert.equal(await challengeTarget('nobody', { player, computer }), false);
  assert.equal(await challengeTarget('computer-8', { player, computer }), false);
  assert.equal(await challengeTarget('engine-rapfi', { player, computer }), false);
});

test('our opponent in the room the page shows is not offered a challenge; elsewhere they are (#36)', () => {
  const live = [{ room: 'q1', record: 'k3', opponent: 'bob' }];
  assert.equal(opponentHere(live, 'bob', '#/room/q1'), true);
  assert.equal(opponentHere(live, 'carol', '#/room/q1'), false);
  assert.equal(opponentHere(live, 'bob', '#/room/q2'), false);
  assert.equal(opponentHere(live, 'bob', '#/player/bob'), false);
  assert.equal(opponentHere([], 'bob', '#/room/q1'), false);
});

test('only other registered players can be challenged', () => {
  const me = { name: 'alice', guest: false };
  assert.equal(challengeable('bob', me), true);
  assert.equal(challengeable('alice', me), false);
  assert.equal(challengeable({ name: 'guest-x1', guest: true }, me), false);
  assert.equal(challengeable('bob', null), false);
});

test('the analysis line steps, branches into a variation and goes back to the record', () => {
  let a = start(['h8', 'h9', 'j8', 'j9'], 15);
  assert.equal(a.ply, 4);
  a = goTo(a, 2);
  assert.equal(toPlay(a), 'black');
  // The record's own next move just steps on.
  a = play(a, 'j8', 'renju').analysis;
  assert.equal(branchPly(a), null);
  assert.equal(a.line.length, 4);
  a = play(a, 'a1', 'renju').analysis;
  assert.deepEqual(a.line, ['h8', 'h9', 'j8', 'a1']);
  assert.equal(branchPly(a), 3);
  assert.equal(play(a, 'h8', 'renju').error, 'occupied');
  a = backToMain(a);
  assert.deepEqual(a.line, ['h8', 'h9', 'j8', 'j9']);
  assert.equal(a.ply, 3);
  assert.equal(goTo(a, 99).ply, 4);
  assert.equal(goTo(a, -1).ply, 0);
});

test('a variation branches from the main line, which stays whole, and both can be shown again (issue #36)', () => {
  let a = start(['h8', 'h9', 'j8', 'j9', 'k8'], 15);
  a = play(goTo(a, 3), 'a1', 'renju').analysis;
  a = play(a, 'b2', 'renju').analysis;
  assert.deepEqual(a.main, ['h8', 'h9', 'j8', 'j9', 'k8'], 'the record is not replaced');
  assert.deepEqual(variationOf(a), { from: 3, moves: ['a1', 'b2'] });
  assert.equal(onVariation(a), true);
  a = goToMain(a, 5);
  assert.equal(onVariation(a), false);
  assert.deepEqual(variationOf(a), { from: 3, moves: ['a1', 'b2'] }, 'the variation is kept while the main line shows');
  a = goToVariation(a, 4);
  assert.deepEqual(a.line.slice(0, a.ply), ['h8', 'h9', 'j8', 'a1']);
  // A new variation replaces the old one, never the record.
  a = play(goToMain(a, 1), 'c3', 'renju').analysis;
  assert.deepEqual(variationOf(a), { from: 1, moves: ['c3'] });
  assert.equal(a.main.length, 5);
});

test('an empty board\'s own moves are its main line: there is no record to go back to (issue #36)', () => {
  let a = start([], 15);
  a = play(a, 'h8', 'renju').analysis;
  a = play(a, 'h9', 'renju').analysis;
  assert.deepEqual(a.main, ['h8', 'h9']);
  assert.equal(onVariation(a), false);
  assert.equal(variationOf(a), null);
  a = play(goTo(a, 1), 'j9', 'renju').analysis;
  assert.equal(onVariation(a), true);
  assert.deepEqual(variationOf(a), { from: 1, moves: ['j9'] });
  assert.equal(backToMain(a).ply, 1);
});

test('under renju black may not play a forbidden point; freestyle has none', () => {
  // f8 g8 h6 h7 for black: h8 is a double three.
  const a = start(['f8', 'a1', 'g8', 'a3', 'h6', 'a5', 'h7', 'a15'], 15);
  assert.deepEqual(forbiddenAt(a, 'renju'), [{ point: 'h8', kind: 'double_three' }]);
  assert.equal(play(a, 'h8', 'renju').error, 'forbidden_double_three');
  assert.deepEqual(forbiddenAt(a, 'freestyle'), []);
  assert.ok(play(a, 'h8', 'freestyle').analysis);
  // White to play: no forbidden points are shown.
  assert.deepEqual(forbiddenAt(goTo(a, 7), 'renju'), []);
});

test('a five ends the line: it is found and nothing more plays', () => {
  const a = start(['a1', 'b1', 'a2', 'b2', 'a3', 'b3', 'a4', 'b4', 'a5'], 15);
  assert.deepEqual(winLine(a, 'renju'), ['a1', 'a2', 'a3', 'a4', 'a5']);
  assert.equal(play(a, 'o15', 'renju').error, 'game_over');
  assert.equal(winLine(goTo(a, 8), 'renju'), null);
});

test('the tab title names a challenge first, then our move, then the neutral site name', () => {
  assert.equal(titleFor({}), 'Board Game Hall');
  assert.equal(titleFor({ myTurn: true }), '● Your move · Board Game Hall');
  assert.equal(titleFor({ myTurn: true, challenges: [{ from: 'alice' }] }), '⚔ Challenge from alice · Board Game Hall');
  assert.equal(titleFor({ challenges: [{ from: 'a' }, { from: 'b' }] }), '⚔ 2 challenges · Board Game Hall');
});

test('a Gomoku record downloads as .psq, RenLib text and a readable record; other games as a readable record', () => {
  assert.deepEqual(downloadChoices('k3', 'gomoku').map((d) => d[0]), ['psq', 'renlib', 'text']);
  assert.deepEqual(downloadChoices('k3', 'gomoku')[0], ['psq', 'k3.psq', 'records.psq']);
  assert.deepEqual(downloadChoices('p4', 'othello').map((d) => d[0]), ['text']);
});
