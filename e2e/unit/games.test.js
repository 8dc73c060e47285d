// The game seam of the web client (games/index.js): the registry, and the Othello and draughts members' reducers,
// input models and renderers on hand-built frames and on the transcripts of docs/protocol.md.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GAMES, memberOf, gameChoices, pools, gameName } from '../../web-client/js/games/index.js';
import { fromSnapshot, applyEvent, controls } from '../../web-client/js/state.js';
import { renderOthello, play, START_BOARD as OTHELLO_START, indexOf } from '../../web-client/js/games/othello/board.js';
import { intention as othelloIntention } from '../../web-client/js/games/othello/state.js';
import { replay as othelloReplay } from '../../web-client/js/games/othello/room.js';
import { renderDraughts, cellOf, squareAt } from '../../web-client/js/games/draughts/board.js';
import { step, highlights, intention as draughtsIntention } from '../../web-client/js/games/draughts/state.js';
import { replay as draughtsReplay } from '../../web-client/js/games/draughts/room.js';

const { createOptions, gameChoice } = await import('../../web-client/js/pages/lobby.js');

const seat = (id) => ({ id, name: id, guest: false, connected: true });
const base = { version: 1, time_control: { kind: 'none' }, rated: false, public: true, spectators: 0, offers: [], result: null, game_id: 1 };

test('every member gives the whole interface', () => {
  const fns = ['snapshot', 'reduce', 'ply', 'controls', 'canTakeBack', 'moveEntries', 'describe', 'resultSentence', 'roomBoard', 'normaliseRecord', 'recordBoard', 'createFields', 'syncFields', 'createSpec', 'emblem'];
  for (const [name, m] of Object.entries(GAMES)) {
    assert.equal(m.name, name);
    assert.equal(typeof m.served, 'boolean', name);
    assert.equal(m.colours.length, 2, name);
    assert.ok(m.pools.length, name);
    assert.ok(Array.isArray(m.settings), name);
    for (const f of fns) assert.equal(typeof m[f], 'function', `${name}.${f}`);
  }
});

test('a room, record or spec without a game is Gomoku; others are found by their spec or view', () => {
  assert.equal(memberOf({ rules: { size: 15 } }).name, 'gomoku');
  assert.equal(memberOf({ game: { game: 'othello', scoring: 'japanese' } }).name, 'othello');
  assert.equal(memberOf({ view: { game: 'draughts' } }).name, 'draughts');
  assert.equal(gameName('othello'), 'othello');
  assert.equal(memberOf({ game: { game: 'chess' } }).name, 'gomoku', 'an unknown game falls back to the default');
});

test('every game is served: the form offers Gomoku, Othello and draughts, each creating its own spec', () => {
  assert.deepEqual(gameChoices().map((g) => g.name), ['gomoku', 'othello', 'draughts', 'insect']);
  const seg = (name, options, value) => ({ name, options, value });
  const field = (label, control) => ({ label, control });
  const choice = gameChoice(seg, field);
  assert.deepEqual(choice.control.options.map(([v]) => v), ['gomoku', 'othello', 'draughts', 'insect']);
  assert.equal(choice.control.value, 'gomoku');
  assert.deepEqual(pools(), ['renju', 'freestyle', 'standard', 'othello/standard', 'draughts/international', 'insect/standard'], "the server's pool names");
  const common = { tc: 'none', rated: 'casual', visibility: 'public', colour: 'black' };
  assert.deepEqual(createOptions({ ...common, game: 'othello', scoring: 'european' }),
    { game: { game: 'othello', scoring: 'european' }, time_control: { kind: 'none' }, rated: false, public: true, colour: 'black' });
  assert.deepEqual(createOptions({ ...common, game: 'draughts', variant: 'international' }).game, { game: 'draughts', variant: 'international' });
  assert.deepEqual(createOptions({ ...common, rule_set: 'freestyle', opening: 'none', size: '15' }).rules, { size: 15, rule_set: 'freestyle', opening: 'none' }, 'Gomoku stays the default');
});

test('only served games are offered: a member not served stays out of the form and the pools', () => {
  const some = { ...GAMES, draughts: { ...GAMES.draughts, served: false } };
  assert.deepEqual(gameChoices(some).map((g) => g.name), ['gomoku', 'othello', 'insect']);
  assert.deepEqual(pools(some), ['renju', 'freestyle', 'standard', 'othello/standard', 'insect/standard']);
  const one = { gomoku: GAMES.gomoku };
  assert.equal(gameChoice((n, o, v) => ({ n, o, v }), (label, control) => ({ label, control }), one), null, 'one game: no choice');
});

// ---------- Othello ----------

const othelloRoom = (view = {}) => fromSnapshot({
  ...base, id: 'o1', state: 'playing', game: { game: 'othello', scoring: 'japanese' },
  seats: { black: seat('ann'), white: seat('bob') }, to_act: 'black', phase: 'place',
  view: { game: 'othello', board: OTHELLO_START, black: 2, white: 2, to_act: 'black', phase: 'place', legal: ['d3', 'c4', 'f5', 'e6'], last: null, actions: [], ...view },
}, 'ann', 0);

test('Othello: a1 is the top left and the start has white on d4 and e5', () => {
  assert.equal(indexOf('a1'), 0);
  assert.equal(indexOf('h1'), 7);
  assert.equal(indexOf('a2'), 8);
  assert.equal(OTHELLO_START[indexOf('d4')], 'w');
  assert.equal(OTHELLO_START[indexOf('e4')], 'b');
  assert.equal(OTHELLO_START[indexOf('d5')], 'b');
  assert.equal(OTHELLO_START[indexOf('e5')], 'w');
});

test('Othello: an action event places and flips, counts and lists the next legal squares', () => {
  let r = othelloRoom();
  assert.equal(controls(r).input, true);
  const event = { kind: 'action', at: 0, by: 'black', action: 'f5', change: { game: 'othello', placed: 'f5', flipped: ['e5'], black: 4, white: 1, legal: ['d6', 'f4', 'f6'] }, to_act: 'white', phase: 'place', clocks: undefined };
  r = applyEvent(r, 2, event, 0);
  assert.equal(r.view.board[indexOf('f5')], 'b');
  assert.equal(r.view.board[indexOf('e5')], 'b');
  assert.deepEqual([r.view.black, r.view.white], [4, 1]);
  assert.deepEqual(r.view.legal, ['d6', 'f4', 'f6']);
  assert.equal(r.view.last, 'f5');
  assert.deepEqual(r.view.actions, ['f5']);
  assert.equal(r.to_act, 'white');
  assert.equal(controls(r).input, false, 'not our turn any more');
  assert.deepEqual(GAMES.othello.moveEntries(r), [{ n: 1, point: 'f5', colour: 'black' }]);
  // The same action again (a resend after reconnect) at a later version changes nothing of the board.
  const again = applyEvent(r, 3, { ...event, to_act: 'white' }, 0);
  assert.deepEqual(again.view.actions, ['f5']);
});

test('Othello: a pass is an action: the phase asks for it and the last action reads pass', () => {
  let r = othelloRoom({ phase: 'pass', legal: [] });
  r = { ...r, phase: 'pass' };
  assert.equal(controls(r).pass, true);
  assert.deepEqual(othelloIntention(r, 'pass'), { t: 'act', room: 'o1', action: 'pass', at: 0 });
  r = applyEvent(r, 2, { kind: 'action', at: 0, by: 'black', action: 'pass', change: { game: 'othello', placed: null, flipped: [], black: 2, white: 2, legal: ['d3'] }, to_act: 'white', phase: 'place' }, 0);
  assert.equal(r.view.last, 'pass');
  assert.equal(r.phase, 'place');
});

test('Othello input: a legal square is an act intention at the next index; any other square is nothing', () => {
  const r = othelloRoom();
  assert.deepEqual(othelloIntention(r, 'f5'), { t: 'act', room: 'o1', action: 'f5', at: 0 });
  assert.equal(othelloIntention(r, 'a1'), null);
  assert.equal(othelloIntention(r, 'pass'), null, 'no pass while a move exists');
});

test('Othello renderer: discs, legal dots, the last move and both counts', () => {
  const svg = renderOthello({ board: play(OTHELLO_START, 'f5', 'black'), legal: ['d6', 'f4', 'f6'], last: 'f5', black: 4, white: 1 });
  assert.equal((svg.match(/class="disc /g) || []).length, 5);
  assert.equal((svg.match(/class="legal"/g) || []).length, 3);
  assert.match(svg, /class="disc black last" data-square="f5"/);
  assert.match(svg, /data-count="black"[^>]*>4</);
  assert.match(svg, /data-count="white"[^>]*>1</);
});

test('Othello replay flips what the rules flip: f5 takes e5', () => {
  const p = othelloReplay(['f5', 'd6', 'c3'], 1);
  assert.equal(p.board[indexOf('e5')], 'b');
  assert.equal(p.last, 'f5');
  assert.equal(play(OTHELLO_START, 'a1', 'black'), OTHELLO_START, 'a square that flips nothing is no move');
});

test('Othello and draughts word their own endings; resignation and time stay every game\'s', () => {
  const names = { black: 'ann', white: 'bob' };
  const detail = { game: 'othello', discs: { black: 40, white: 24 }, scored: { black: 40, white: 24 }, scoring: 'japanese' };
  assert.equal(GAMES.othello.resultSentence({ winner: 'black', reason: 'board_full', detail }, names), 'ann wins 40–24 (the board is full)');
  assert.equal(GAMES.othello.resultSentence({ winner: null, reason: 'board_full', detail: { ...detail, discs: { black: 32, white: 32 }, scored: { black: 32, white: 32 } } }, names), 'Drawn 32–32');
  assert.equal(GAMES.othello.resultSentence({ winner: 'white', reason: 'resign' }, names), '');
  assert.equal(GAMES.draughts.resultSentence({ winner: null, reason: 'threefold' }, names), 'Drawn: the same position three times');
  assert.equal(GAMES.draughts.resultSentence({ winner: 'white', reason: 'no_pieces' }, names), 'bob wins: ann has no pieces left');
  assert.equal(GAMES.gomoku.resultSentence({ winner: 'black', reason: 'five' }, names), '');
});

// ---------- draughts ----------

test('draughts squares are numbered 1–50 on the dark squares, 1 at the top, 46 at the bottom left', () => {
  assert.deepEqual(cellOf(1), { col: 1, row: 0 });
  assert.deepEqual(cellOf(5), { col: 9, row: 0 });
  assert.deepEqual(cellOf(6), { col: 0, row: 1 });
  assert.deepEqual(cellOf(46), { col: 0, row: 9 });
  assert.deepEqual(cellOf(50), { col: 8, row: 9 });
  for (let n = 1; n <= 50; n++) assert.equal(squareAt(cellOf(n).col, cellOf(n).row), n);
  assert.equal(squareAt(0, 0), null, 'light squares have no number');
});

const draughtsBoard = (pieces) => {
  const cells = Array(50).fill('.');
  for (const [n, c] of Object.entries(pieces)) cells[n - 1] = c;
  return cells.join('');
};
// The white man on 32 takes 28 landing on 23, then 18 (landing on 12) or 19 (landing on 14): two moves through 23.
const capture = [
  { move: '32x23x12', path: [32, 23, 12], captured: [28, 18], crowned: false },
  { move: '32x23x14', path: [32, 23, 14], captured: [28, 19], crowned: false },
];
const draughtsRoom = (view) => fromSnapshot({
  ...base, id: 'd1', state: 'playing', game: { game: 'draughts', variant: 'international' },
  seats: { white: seat('ann'), black: seat('bob') }, to_act: 'white', phase: 'move',
  view: { game: 'draughts', board: draughtsBoard({ 32: 'w', 28: 'b', 18: 'b', 19: 'b', 3: 'b' }), to_act: 'white', legal: capture, counters: { king_plies: 0, endgame: null, repetitions: 1 }, ply: 10, ...view },
}, 'ann', 0);

test('draughts path input: a piece, then its squares step by step; a simple move by its two squares', () => {
  const legal = [{ move: '32-28', path: [32, 28], captured: [], crowned: false }, { move: '32-27', path: [32, 27], captured: [], crowned: false }];
  let s = step([], 40, legal);
  assert.deepEqual(s, { path: [], move: null }, 'a piece without a move is not chosen');
  s = step([], 32, legal);
  assert.deepEqual(s.path, [32]);
  assert.deepEqual(highlights(s.path, legal).targets.sort(), [27, 28]);
  s = step(s.path, 28, legal);
  assert.equal(s.move.move, '32-28');
  assert.deepEqual(step([32], 32, legal), { path: [], move: null }, 'the piece again lets it go');
});

test('draughts path input: a capture of several steps is chosen square by square; the shared end asks for the route', () => {
  let s = step([], 32, capture);
  s = step(s.path, 23, capture);
  assert.deepEqual(s.path, [32, 23], 'both routes go through 23: no move yet');
  assert.deepEqual(highlights(s.path, capture).targets.sort(), [12, 14]);
  s = step(s.path, 14, capture);
  assert.equal(s.move.move, '32x23x14');
  // The end square alone names one move when only one route ends there.
  assert.equal(step([32], 12, capture).move.move, '32x23x12');
  const twoRoutes = [{ move: '1x12x23', path: [1, 12, 23], captured: [7, 18], crowned: false }, { move: '1x14x23', path: [1, 14, 23], captured: [10, 19], crowned: false }];
  const amb = step([1], 23, twoRoutes);
  assert.equal(amb.move, null);
  assert.deepEqual(amb.ambiguous.map((m) => m.move), ['1x12x23', '1x14x23']);
  assert.equal(step([1, 14], 23, twoRoutes).move.move, '1x14x23', 'the listed move along the squares chosen');
});

test('draughts: an action event moves, removes the captured, crowns, and takes the counters and legal moves', () => {
  let r = draughtsRoom({ board: draughtsBoard({ 7: 'w', 2: 'b', 28: 'b' }), legal: [{ move: '7-1', path: [7, 1], captured: [], crowned: true }] });
  assert.equal(controls(r).input, true);
  assert.deepEqual(draughtsIntention(r, r.view.legal[0]), { t: 'act', room: 'd1', action: '7-1', at: 10 });
  r = applyEvent(r, 2, { kind: 'action', at: 10, by: 'white', action: '7-1', change: { game: 'draughts', path: [7, 1], captured: [], crowned: true, ply: 11, counters: { king_plies: 0, endgame: null, repetitions: 1 }, legal: [{ move: '28-32', path: [28, 32], captured: [], crowned: false }] }, to_act: 'black', phase: 'move' }, 0);
  assert.equal(r.view.board[0], 'W', 'crowned');
  assert.equal(r.view.board[6], '.');
  assert.equal(r.view.ply, 11);
  assert.equal(r.to_act, 'black');
  assert.equal(controls(r).input, false);
  r = applyEvent(r, 3, { kind: 'action', at: 11, by: 'black', action: '2x11', change: { game: 'draughts', path: [2, 11], captured: [7], crowned: false, ply: 12, counters: { king_plies: 1, endgame: null, repetitions: 1 }, legal: [] }, to_act: 'white', phase: 'move' }, 0);
  assert.equal(r.view.board[10], 'b');
  assert.equal(r.view.board[1], '.');
  assert.equal(r.view.counters.king_plies, 1);
  assert.deepEqual(GAMES.draughts.moveEntries(r).map((e) => [e.label, e.point, e.colour]), [['1.', '7-1', 'white'], ['', '2x11', 'black']]);
});

test('draughts renderer: 50 numbered squares, men and kings, the movable pieces and the path targets', () => {
  const board = draughtsBoard({ 32: 'w', 28: 'b', 3: 'B' });
  const svg = renderDraughts({ board, movable: [32] });
  assert.equal((svg.match(/class="num"/g) || []).length, 50);
  assert.equal((svg.match(/class="piece /g) || []).length, 3);
  assert.equal((svg.match(/class="crown"/g) || []).length, 1);
  assert.match(svg, /class="dark movable"/);
  const chosen = renderDraughts({ board, path: [32], targets: [23] });
  assert.match(chosen, /class="target-dot"/);
  assert.match(chosen, /piece white chosen/);
});

test('draughts replay: a capture removes the piece between the squares of its path', () => {
  const p = draughtsReplay(['32-28', '19-23', '28x19'], 3);
  assert.equal(p.board[18], 'w', 'the white man stands on 19');
  assert.equal(p.board[22], '.', 'the black man on 23 was taken');
  assert.deepEqual(p.last, [28, 19]);
});

test('an imported board opens under renju on 15x15 only: a 20x20 (or 19x19) record is freestyle', async () => {
  const { importedRuleSet } = await import('../../web-client/js/pages/analysis.js');
  assert.equal(importedRuleSet(15), 'renju');
  assert.equal(importedRuleSet(20), 'freestyle');
  assert.equal(importedRuleSet(19), 'freestyle');
});
