// The pure logic behind the served Othello and draughts rooms and the computer opponent: the transcripts of
// docs/protocol.md folded by the room reducer, the pass notice, takebacks, draughts routes and their choice, the
// computer's labels and the "Play the computer" message.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fromSnapshot, applyEvent, controls, canTakeBack } from '../../web-client/js/state.js';
import { passNotice, transcript, actorOf } from '../../web-client/js/games/othello/state.js';
import { highlights, routeChoice, step } from '../../web-client/js/games/draughts/state.js';
import { renderDraughts } from '../../web-client/js/games/draughts/board.js';
import { renderOthello } from '../../web-client/js/games/othello/board.js';
import { recordTexts } from '../../web-client/js/games/generic.js';
import { GAMES } from '../../web-client/js/games/index.js';
import { displayName, isComputer } from '../../web-client/js/player.js';
import { setLang, translate } from '../../web-client/js/i18n.js';

const { computerOptions, computerGames, maxLevel, levelChoices } = await import('../../web-client/js/pages/lobby.js');
const { poolLabel, againstComputer } = await import('../../web-client/js/pages/profile.js');

const DOC = readFileSync(new URL('../../docs/protocol.md', import.meta.url), 'utf8');

/** A's frames of one transcript section ("## Othello, a whole game", …): the lines A receives (those marked `←`, not B's or S's). */
function transcriptOf(title) {
  const from = DOC.indexOf(`## ${title}\n`);
  assert.ok(from >= 0, title);
  const section = DOC.slice(from, DOC.indexOf('\n## ', from + 1));
  return section.split('\n').filter((l) => l.startsWith('← {')).map((l) => JSON.parse(l.slice(2)));
}

/** Folds A's frames into A's room. */
function fold(lines) {
  const welcome = lines.find((m) => m.t === 'welcome');
  let room = null;
  const seen = [];
  for (const m of lines) {
    if (m.t === 'room') room = fromSnapshot(m.room, welcome.you.id, 0);
    if (m.t === 'event' && room) {
      room = applyEvent(room, m.version, m.event, 0);
      seen.push(room);
    }
  }
  return { room, seen };
}

test("the Othello transcript folds into A's room: the position, the room's forced pass and its notice, then the resignation", () => {
  const { room, seen } = fold(transcriptOf('Othello, a whole game'));
  assert.equal(room.needsResync, false, 'versions follow each other');
  assert.equal(room.state, 'over');
  assert.equal(room.result.reason, 'resign');
  assert.deepEqual(room.view.actions, ['d3', 'c3', 'b3', 'b2', 'f5', 'a3', 'a1', 'c1', 'pass', 'e3']);
  assert.equal(room.view.black, 6);
  assert.equal(room.view.white, 7);
  assert.equal(room.view.board.split('').filter((c) => c === 'w').length, 7, 'the board agrees with the counts');
  // Right after the pass: black (A) passed, white plays again, and A may not place.
  const afterPass = seen.find((r) => r.view.actions.length === 9);
  assert.deepEqual(passNotice(afterPass), { passer: 'black', next: 'white' });
  assert.equal(afterPass.to_act, 'white');
  assert.equal(controls(afterPass).input, false);
  assert.equal(passNotice(seen.find((r) => r.view.actions.length === 10)), null, 'the notice goes with the next move');
  // A's move list names the pass; the transcript form leaves it out.
  assert.deepEqual(GAMES.othello.moveEntries(room).map((e) => e.point).slice(7, 10), ['c1', 'pass', 'e3']);
  assert.equal(transcript(room.view.actions), 'd3c3b3b2f5a3a1c1e3');
});

test('an Othello room from a snapshot reads the phase of its view (the snapshot says none) and takes moves', () => {
  const [, , snapshotLine] = DOC.split('\n').filter((l) => l.startsWith('← {"t":"room"') && l.includes('"game":"othello"'));
  const line = snapshotLine ?? DOC.split('\n').find((l) => l.startsWith('← {"t":"room","room":{"id":"r7xk2p","version":6,"game"'));
  const snap = JSON.parse(line.slice(2)).room;
  const white = fromSnapshot({ ...snap, phase: 'none' }, snap.seats.white.id, 0);
  assert.equal(white.phase, 'place');
  assert.equal(controls(white).input, true, 'white may place from a fresh snapshot');
});

test('Othello takebacks: only a player who placed a disc has one; actions_taken_back restores the view and the turn', () => {
  const { seen } = fold(transcriptOf('Othello, a whole game'));
  const start = seen.find((r) => r.state === 'playing' && r.view.actions.length === 0);
  assert.equal(canTakeBack(start, 'black'), false);
  const one = seen.find((r) => r.view.actions.length === 1);
  assert.equal(canTakeBack(one, 'black'), true);
  assert.equal(canTakeBack(one, 'white'), false, 'white has not placed yet');
  const afterPass = seen.find((r) => r.view.actions.length === 9);
  assert.equal(actorOf(8), 'black', 'the pass is black\'s action');
  assert.equal(canTakeBack(afterPass, 'black'), true, "black's discs before the pass count; the pass is not a choice");
  const event = {
    kind: 'actions_taken_back', at: 1, ply: 1, to_act: 'white', phase: 'place', clocks: null,
    view: { game: 'othello', board: one.view.board, black: 4, white: 1, to_act: 'white', phase: 'place', legal: ['c3', 'e3', 'c5'], last: 'd3', actions: ['d3'] },
  };
  const back = applyEvent(afterPass, afterPass.version + 1, event, 0);
  assert.deepEqual(back.view.actions, ['d3']);
  assert.equal(back.to_act, 'white');
  assert.equal(back.phase, 'place');
  assert.deepEqual(back.view.flipped, [], 'nothing turns after a takeback');
  assert.equal(GAMES.othello.ply(back), 1, 'the next act is at 1');
});

test('Othello flips: the discs the last move turned are drawn turning, the placed one dropping in', () => {
  const svg = renderOthello({ board: '.'.repeat(27) + 'bb' + '.'.repeat(6) + 'bw' + '.'.repeat(27), last: 'd3', flipped: ['d4'] });
  assert.match(svg, /class="disc black flip" data-square="d4"/);
  assert.doesNotMatch(renderOthello({ board: '.'.repeat(64), flipped: [] }), /flip/);
});

test("the draughts transcript folds into A's room: white first, the mandatory double capture, the agreed draw", () => {
  const { room, seen } = fold(transcriptOf('Draughts, a whole game'));
  assert.equal(room.needsResync, false);
  assert.equal(room.result.reason, 'draw_agreed');
  assert.deepEqual(room.view.actions, ['31-26', '16-21', '33-29', '17-22', '26x17x28']);
  assert.equal(room.view.board[20], '.', '21 taken');
  assert.equal(room.view.board[21], '.', '22 taken');
  assert.equal(room.view.board[27], 'w', 'the capturing man stands on 28');
  const entries = GAMES.draughts.moveEntries(room);
  assert.deepEqual(entries.map((e) => e.label), ['1.', '', '2.', '', '3.'], 'black replies beside white, no ellipsis');
  assert.equal(GAMES.draughts.counterText(3, 5, (k, p) => translate('en', k, p)), 'Move 2, White — of 3');
  assert.equal(GAMES.draughts.counterText(4, 5, (k, p) => translate('zh', k, p)), '第 2 回合 黑方（共 3 回合）');
  assert.equal(GAMES.draughts.counterText(0, 5, (k, p) => translate('en', k, p)), 'Start — 3 moves');
  // Before white's capture, A (black) has moved once and may take it back; before its first move it may not.
  const first = seen.find((r) => r.view.ply === 1);
  assert.equal(canTakeBack(first, 'black'), false);
  assert.equal(canTakeBack(first, 'white'), true);
  assert.equal(canTakeBack(seen.find((r) => r.view.ply === 2), 'black'), true);
});

// Black to move with two routes for the man on 13, parting after 24 (the position of the browser test).
const ROUTES = [
  { move: '13x24x33', path: [13, 24, 33], captured: [19, 29], crowned: false },
  { move: '13x24x35', path: [13, 24, 35], captured: [19, 30], crowned: false },
];

test('draughts routes: a chosen piece with captures shows each route, its end squares and the next squares', () => {
  assert.deepEqual(highlights([], ROUTES), { movable: [13], targets: [], ends: [], routes: [] });
  const one = highlights([13], ROUTES);
  assert.deepEqual(one.targets, [24]);
  assert.deepEqual(one.ends, [33, 35]);
  assert.deepEqual(one.routes.map((r) => r.move), ['13x24x33', '13x24x35']);
  assert.deepEqual(highlights([13, 24], ROUTES).targets, [33, 35]);
  // Quiet moves draw no route.
  assert.deepEqual(highlights([32], [{ move: '32-28', path: [32, 28], captured: [], crowned: false }]).routes, []);
  const svg = renderDraughts({ board: '.'.repeat(50), routes: one.routes, ends: one.ends });
  assert.equal((svg.match(/class="route route-\d"/g) || []).length, 2);
  assert.match(svg, /data-move="13x24x35"/);
  assert.equal((svg.match(/class="taken"/g) || []).length, 3, 'the pieces either route takes are crossed: 19, 29, 30');
});

test('draughts route choice: a drawn route is its move while the chosen squares allow it; squares in order choose too', () => {
  assert.equal(routeChoice([13], ROUTES, '13x24x35'), ROUTES[1]);
  assert.equal(routeChoice([13, 24], ROUTES, '13x24x33'), ROUTES[0]);
  assert.equal(routeChoice([13], ROUTES, '13x24x99'), null, 'a stale drawing chooses nothing');
  assert.equal(routeChoice([14], ROUTES, '13x24x35'), null);
  let r = step([], 13, ROUTES);
  r = step(r.path, 24, ROUTES);
  assert.deepEqual(r.path, [13, 24]);
  assert.equal(step(r.path, 33, ROUTES).move, ROUTES[0]);
  assert.equal(step([13], 35, ROUTES).move, ROUTES[1], 'an end square only one route reaches is enough');
});

test('the computer is shown by its level, in English and Chinese; an external engine by its name', () => {
  const seat = { id: 'u1', name: 'computer-5', guest: false, computer: 5, connected: true };
  assert.equal(isComputer(seat), true);
  assert.equal(isComputer({ name: 'computer-5' }), false, 'a name alone is no flag');
  assert.equal(displayName(seat), 'Computer · level 5');
  assert.equal(displayName({ name: 'engine-pbrain', engine: 'pbrain' }), 'Engine · pbrain');
  assert.equal(displayName({ name: 'ann' }), 'ann');
  setLang('zh', null);
  try {
    assert.equal(displayName(seat), '电脑 · 5级');
  } finally {
    setLang('en', null);
  }
});

test('"Play the computer" sends play_computer with the rules, clock, colour and level, never rated or public', () => {
  const v = { rule_set: 'renju', forbidden_policy: 'reject', opening: 'swap_after_three', size: '15', tc: 'fischer', base: '5', increment: '3', colour: 'random', level: '5', rated: 'rated', visibility: 'public' };
  assert.deepEqual(computerOptions(v), {
    rules: { size: 15, rule_set: 'renju', forbidden_policy: 'reject', opening: 'swap_after_three' },
    time_control: { kind: 'fischer', base_ms: 300_000, increment_ms: 3000 }, colour: 'random', level: 5,
  });
  assert.equal(computerOptions({ ...v, level: '0' }).level, 1, 'levels run from 1');
  assert.equal(computerOptions({ ...v, level: '12' }).level, 8, 'to 8');
  assert.equal(computerOptions({ ...v, game: 'othello' }).rules.rule_set, 'renju', 'Gomoku only while GET /api/computer is unknown');
  const info = { plays: [{ game: 'gomoku', max_level: 8 }, { game: 'othello', max_level: 8 }, { game: 'insect', max_level: 4 }] };
  assert.deepEqual(computerOptions({ ...v, game: 'othello', scoring: 'japanese' }, undefined, info), {
    game: { game: 'othello', scoring: 'japanese' },
    time_control: { kind: 'fischer', base_ms: 300_000, increment_ms: 3000 }, colour: 'random', level: 5,
  });
  assert.deepEqual(computerOptions({ ...v, game: 'insect', level: '8' }, undefined, info).game, { game: 'insect' });
  assert.equal(computerOptions({ ...v, game: 'insect', level: '8' }, undefined, info).level, 4, "to the game's strongest");
  assert.equal(computerOptions({ ...v, game: 'draughts' }, undefined, info).rules.rule_set, 'renju', 'never a game the computer does not play');
  assert.deepEqual(computerGames(info).map((g) => g.name), ['gomoku', 'othello', 'insect']);
  assert.deepEqual(computerGames(null).map((g) => g.name), ['gomoku']);
  assert.equal(maxLevel(info, 'insect'), 4);
  assert.equal(levelChoices(info, 'en', maxLevel(info, 'insect')).length, 4);
});

test("the level choices take the server's labels in the page's language, else our own", () => {
  const info = { levels: [{ level: 1, name: 'computer-1', en: 'Computer · level 1', zh: '电脑 · 1级' }, { level: 2, name: 'computer-2', en: 'Level two', zh: '二级' }] };
  assert.deepEqual(levelChoices(info, 'en').slice(0, 3), [[1, 'Computer · level 1'], [2, 'Level two'], [3, 'Computer · level 3']]);
  assert.deepEqual(levelChoices(info, 'zh').slice(0, 2), [[1, '电脑 · 1级'], [2, '二级']]);
  assert.equal(levelChoices(null).length, 8);
});

test("profiles name each game's pool and mark games against the computer", () => {
  assert.equal(poolLabel('othello/standard'), 'Othello');
  assert.equal(poolLabel('draughts/international'), 'Draughts');
  assert.equal(poolLabel('renju'), 'Renju');
  assert.equal(poolLabel('chess/blitz'), 'chess/blitz', 'an unknown pool by its code');
  const g = { black: { name: 'ann', guest: false }, white: { name: 'computer-1', guest: false, computer: 1 } };
  assert.equal(againstComputer(g, 'ann'), true);
  assert.equal(againstComputer({ ...g, white: { name: 'bob', guest: false } }, 'ann'), false);
});

test("a generic room's record reads its notation list, else each action's notation", () => {
  assert.deepEqual(recordTexts({ notation: ['d3', 'pass'], actions: [{ notation: 'x' }] }), ['d3', 'pass']);
  assert.deepEqual(recordTexts({ actions: [{ seq: 0, notation: '31-26', used_ms: 5 }] }), ['31-26']);
  const rec = GAMES.othello.normaliseRecord({ id: 1, public_id: 'p', game: { game: 'othello', scoring: 'japanese' }, notation: ['d3', 'c3'], actions: [{ notation: 'd3', used_ms: 1200 }, { notation: 'c3', used_ms: 800 }], black: { name: 'ann' }, white: { name: 'computer-2', computer: 2 }, result: null });
  assert.deepEqual(rec.moves, ['d3', 'c3']);
  assert.deepEqual(rec.times, [1200, 800]);
  assert.equal(rec.transcript, 'd3c3');
  assert.equal(displayName(rec.players.white), 'Computer · level 2');
});

test("draughts from Black's side: the board turned half round, square 50 where 1 was, clicks mapped back", async () => {
  const { squareOnScreen, screenCell } = await import('../../web-client/js/games/draughts/board.js');
  assert.equal(squareOnScreen(1, 0, true), 50);
  assert.equal(squareOnScreen(1, 0, false), 1);
  assert.equal(squareOnScreen(0, 9, true), 5);
  assert.deepEqual(screenCell(46, true), { col: 9, row: 0 });
  for (let n = 1; n <= 50; n++) {
    const c = screenCell(n, true);
    assert.equal(squareOnScreen(c.col, c.row, true), n);
  }
  const svg = renderDraughts({ board: 'b'.repeat(20) + '.'.repeat(10) + 'w'.repeat(20), flipped: true });
  // The first dark square drawn (top row, second column) is 50, holding a white man.
  assert.match(svg, /<g class="sq" data-square="50"><rect class="dark" x="58" y="12"/);
  assert.match(svg, /class="piece white" data-square="50"><circle class="rim" cx="81"/);
});

test('an action beyond the next index asks for a snapshot instead of drawing a wrong board', () => {
  const { seen } = fold(transcriptOf('Othello, a whole game'));
  const one = seen.find((r) => r.view.actions.length === 1);
  const skipped = applyEvent(one, one.version + 1, { kind: 'action', at: 3, by: 'white', action: 'b2', change: { game: 'othello', placed: 'b2', flipped: ['c3'], black: 4, white: 4, legal: [] }, to_act: 'black', phase: 'place', clocks: null }, 0);
  assert.equal(skipped.needsResync, true);
  assert.deepEqual(skipped.view.actions, ['d3'], 'the board is left as it was');
});
